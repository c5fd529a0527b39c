"""`python -m taskkit.run` as a user runs it."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, cwd=cwd)


def test_oracle_run_writes_results_and_summary(tmp_path):
    out = tmp_path / "out"
    proc = run("--seed", "30", "--tasks", "SimpleSmsSend,ExpenseAddSingle", "--n_task_combinations", "2",
               "--output_dir", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 4
    required = {"task", "instance_id", "seed", "params", "goal", "score", "success", "steps", "duration_s", "error"}
    assert all(required <= set(row) for row in rows)
    assert all(row["score"] == 1.0 and row["success"] and row["error"] is None for row in rows)
    assert "SimpleSmsSend" in proc.stdout and "100.0%" in proc.stdout
    assert "simple sms messenger" in proc.stdout  # the per-app table


def test_noop_scores_zero(tmp_path):
    proc = run("--tasks", "SystemWifiTurnOn,MarkorDeleteNote", "--agent", "noop")
    assert proc.returncode == 0, proc.stderr
    assert "ALL" in proc.stdout and "0.0%" in proc.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tasks", "NoSuchTask"], "unknown task 'NoSuchTask'"),
        (["--agent", "gpt9"], "unknown agent 'gpt9'"),
        (["--device", "phone"], "unknown device 'phone'"),
        (["--task_module", "no_such_module_xyz"], "--task_module no_such_module_xyz"),
        (["--seed", "abc"], "seed"),
        (["--n_task_combinations", "0"], "n_task_combinations must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    proc = run(*args)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_list_tasks_and_user_task_module(tmp_path):
    module = tmp_path / "my_tasks.py"
    module.write_text(textwrap.dedent('''
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class TurnOnBluetoothPlease(TaskEval):
            app_names = ("settings",)
            template = "Please turn on bluetooth."

            def validator(self):
                return setting_equals("global", "bluetooth_on", "1")

            def solve(self, env):
                env.device.check("svc bluetooth enable")
    '''))
    listed = run("--list_tasks", "--task_module", str(module))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == ("name\tapps\tdifficulty\toptimal_steps\ttags\tsource\truns_on\tgui\tbenchmark\tlevel\tcategory"
                        "\tmax_steps")
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in lines[1:]}
    # AndroidWorld's published difficulty, optimal steps and tags, and the task's own tag
    assert rows["ExpenseAddSingle"][:6] == ["pro expense", "easy", "6", "data_entry,expense,parameterized,search",
                                            "taskkit.apps.expense.tasks", "any"]
    assert rows["TurnOnBluetoothPlease"][:4] == ["settings", "-", "-", "-"]
    assert (rows["ClockTimerEntry"][6], rows["TurnOnBluetoothPlease"][6]) == ("yes", "-")  # a GUI reference or not
    # the benchmark, level, category and step budget
    assert rows["ExpenseAddSingle"][7:] == ["android_world", "-", "-", "12"]  # AndroidWorld's complexity 1.2
    assert rows["TurnOnBluetoothPlease"][7:] == ["taskkit", "-", "-", "10"]
    ran = run("--tasks", "TurnOnBluetoothPlease", "--task_module", str(module))
    assert ran.returncode == 0, ran.stderr
    assert "TurnOnBluetoothPlease" in ran.stdout and "100.0%" in ran.stdout


def test_an_agent_class_from_a_file_serves_every_episode_with_a_reset_each(tmp_path):
    """`--agent path/to/file.py:Class` loads as --task_module FILE.py does (the file imports a
    module beside it); one instance plays every episode and `reset()` starts each (as the README
    says): each episode answers `instances:resets` and declares complete."""
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "counting_helpers.py").write_text("CREATED = []\n")
    (agents / "counting.py").write_text(textwrap.dedent('''
        from counting_helpers import CREATED
        from taskkit.agents import Action, Agent

        class Counting(Agent):
            name = "counting"
            wants_ui_elements = False

            def __init__(self):
                CREATED.append(self)
                self.resets = 0

            def reset(self, episode):
                super().reset(episode)
                self.resets += 1

            def step(self, observation):
                if observation.step == 0:
                    return Action("answer", text=f"{len(CREATED)}:{self.resets}")
                return Action("status", goal_status="complete")
    '''))
    out = tmp_path / "out"
    proc = run("--tasks", "SystemWifiTurnOn", "--n_task_combinations", "3", "--agent",
               f"{agents / 'counting.py'}:Counting", "--output_dir", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(row["agent"], row["answer"], row["error"]) for row in rows] == [("counting", f"1:{n}", None)
                                                                           for n in (1, 2, 3)]


@pytest.mark.parametrize("spec, message", [
    ("nowhere/agent.py:Mine", "--agent nowhere/agent.py: no such file"),
    ("{dir}/broken.py:Mine", "broken.py:1: ZeroDivisionError: division by zero"),
    ("{dir}/broken_free.py:Missing", "module {dir}/broken_free.py has no Missing"),
    ("{dir}/broken_free.py:NOT_AN_AGENT", "NOT_AN_AGENT is not a taskkit.agents.Agent subclass"),
])
def test_a_bad_agent_file_is_one_line_and_exit_2(tmp_path, spec, message):
    (tmp_path / "broken.py").write_text("1 / 0\n")
    (tmp_path / "broken_free.py").write_text("NOT_AN_AGENT = 3\n")
    proc = run("--tasks", "SystemWifiTurnOn", "--agent", spec.format(dir=tmp_path), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message.format(dir=tmp_path) in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_noop_scores_one_only_on_the_tasks_that_start_solved_as_the_readme_says(tmp_path):
    """The README's claim about `--agent noop`: 0 everywhere but the six System*Verify tasks."""
    from pathlib import Path

    from taskkit import loading, registry

    loading.load_builtin()
    solved = sorted(cls.name for cls in registry.all_tasks() if getattr(cls, "starts_solved", False))
    assert len(solved) == 6 and all(name.startswith("System") and name.endswith("Verify") for name in solved)
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "0 everywhere but the six *Verify tasks (1.0 by design)" in readme
    assert "it scores 0 on every task\nbut the six System*Verify tasks" in readme
    proc = run("--tasks", f"{solved[0]},{solved[-1]},SystemWifiTurnOn", "--agent", "noop", "--output_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    scores = {row["task"]: row["score"] for row in map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())}
    assert scores == {solved[0]: 1.0, solved[-1]: 1.0, "SystemWifiTurnOn": 0.0}
