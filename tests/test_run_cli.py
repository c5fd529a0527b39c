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
    assert lines[0] == "name\tapps\tdifficulty\toptimal_steps\ttags\tsource\truns_on"
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in lines[1:]}
    # AndroidWorld's published difficulty, optimal steps and tags, and the task's own tag
    assert rows["ExpenseAddSingle"] == ["pro expense", "easy", "6", "data_entry,expense,parameterized,search",
                                        "taskkit.apps.expense.tasks", "any"]
    assert rows["TurnOnBluetoothPlease"][:4] == ["settings", "-", "-", "-"]
    ran = run("--tasks", "TurnOnBluetoothPlease", "--task_module", str(module))
    assert ran.returncode == 0, ran.stderr
    assert "TurnOnBluetoothPlease" in ran.stdout and "100.0%" in ran.stdout
