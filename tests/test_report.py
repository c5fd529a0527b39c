"""The summary's statistics: Wilson intervals per group, termination reasons, premature and
overdue episodes, pass^k, step ratio, agent usage; rows from older results files."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from taskkit import metrics
from taskkit.agents import Action, Agent, Observation
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.report import summary, summary_json, wilson
from taskkit.runner import EpisodeResult, run_episode


@pytest.mark.parametrize("successes, trials, low, high", [
    (0, 3, 0.0, 0.5615), (8, 10, 0.4902, 0.9433), (10, 10, 0.7225, 1.0), (50, 100, 0.4038, 0.5962),
])
def test_wilson_matches_published_values(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-4)


def row(task, score, status="complete", error_kind=None, steps=3):
    return EpisodeResult(task=task, instance_id=f"{task}_{score}_{status}", seed=1, run_seed=30, params={}, goal="g",
                         apps=["settings"], agent="a", score=score, success=score >= 1.0, steps=steps, max_steps=10,
                         status=status, error="boom" if error_kind else None, error_kind=error_kind)


def test_summary_json_counts_what_matters():
    rows = [row("A", 1.0), row("A", 0.0), row("A", 0.0, status=None, steps=10), row("B", 0.0, status="infeasible"),
            row("B", 0.0, error_kind="task")]
    data = summary_json(rows)
    assert data["all"]["episodes"] == 5 and data["all"]["scored"] == 4 and data["all"]["successes"] == 1
    assert data["termination"] == {"declared complete": 2, "declared infeasible": 1, "error": 1, "step budget spent": 1}
    assert data["premature_completions"] == 1
    assert data["per_task"]["A"]["success_ci95"] == pytest.approx(list(wilson(1, 3)))
    assert "95% CI" in summary(rows)


def data_row(task, success, status="complete", steps=3, **extra):
    """A results.jsonl object as a newer taskkit writes it (extra fields as given)."""
    return {"task": task, "instance_id": f"{task}_{extra.pop('i', 0)}", "apps": ["settings"], "score": float(success),
            "success": success, "steps": steps, "max_steps": 10, "status": status, "error": None, "error_kind": None,
            "duration_s": 0.5, **extra}


def test_groups_by_difficulty_and_tag_carry_wilson_intervals():
    rows = [data_row("A", True, difficulty="easy", tags=["sms", "write"]), data_row("B", False, difficulty="hard",
            tags=["sms"]), data_row("C", True, difficulty="easy", tags=[])]
    data = summary_json(rows)
    assert {name: g["episodes"] for name, g in data["per_difficulty"].items()} == {"easy": 2, "hard": 1}
    assert {name: g["successes"] for name, g in data["per_tag"].items()} == {"sms": 1, "write": 1}
    assert data["per_tag"]["sms"]["success_ci95"] == pytest.approx(list(wilson(1, 2)))
    assert data["per_difficulty"]["easy"]["success_ci95"] == pytest.approx([0.3424, 1.0], abs=5e-4)
    text = summary(rows)
    assert "difficulty" in text and "\ntag " in text


def test_seed_family_rows_group_by_benchmark_level_and_category():
    rows = [data_row("SpaContactsL1", True, tags=["spa", "contacts", "level:1", "category:social"]),
            data_row("SpaContactsL2", False, tags=["spa", "contacts", "level:2", "category:social"]),
            data_row("ClockOpen", True, tags=["bmoca", "clock", "category:event"]),
            data_row("SystemWifiTurnOn", True, tags=["system"])]
    data = summary_json(rows)
    assert {k: g["episodes"] for k, g in data["per_benchmark"].items()} == {"spa": 2, "bmoca": 1, "android_world": 1}
    assert {k: g["successes"] for k, g in data["per_level"].items()} == {"1": 1, "2": 0}
    assert {k: g["episodes"] for k, g in data["per_category"].items()} == {"social": 2, "event": 1}
    assert "level:1" not in data["per_tag"] and data["per_tag"]["contacts"]["episodes"] == 2
    text = summary(rows)
    assert "\nbenchmark " in text and "\nlevel " in text and "\ncategory " in text
    # one benchmark: no table that would only repeat ALL
    assert "\nbenchmark " not in summary([data_row("SystemWifiTurnOn", True, tags=["system"])])


def test_rows_without_the_newer_fields_still_have_metrics():
    old = {"task": "A", "instance_id": "A_0", "score": 1.0, "success": True, "steps": 2, "status": "complete"}
    data = summary_json([old])
    assert data["all"]["successes"] == 1 and data["per_difficulty"] == {} and data["per_tag"] == {}
    assert data["step_ratio"]["episodes"] == 0 and data["side_effects"]["episodes_checked"] == 0
    assert data["usage"] == {"totals": {}, "tokens": None, "cost": None}


def test_premature_and_overdue():
    rows = [data_row("A", False, "complete", i=0), data_row("A", True, None, steps=10, i=1),
            data_row("A", True, "complete", i=2), data_row("A", False, None, steps=10, i=3),
            data_row("A", False, "complete", i=4, error="boom", error_kind="infrastructure")]
    data = summary_json(rows)
    assert data["premature_completions"] == 1  # the error is not the agent's over-confidence
    assert data["overdue"] == 1
    assert data["termination"] == {"declared complete": 2, "step budget spent": 2, "error": 1}


def test_pass_hat_k_is_the_fraction_of_tasks_whose_every_instance_passed():
    rows = [data_row(task, ok, i=i) for task, oks in {"A": [1, 1, 1], "B": [1, 1, 0], "C": [0, 0, 0]}.items()
            for i, ok in enumerate(map(bool, oks))]
    passes = summary_json(rows)["pass_k"]
    assert passes["k"] == 3 and passes["tasks"] == 3 and passes["tasks_all_passed"] == 1
    assert passes["pass_hat_k"] == pytest.approx(1 / 3) and passes["pass_at_1"] == pytest.approx(5 / 9)
    assert "pass^3: 33.3% over 3 task(s)" in summary(rows)


def test_pass_hat_k_with_unequal_instances_uses_the_unbiased_estimate():
    # A errored once: k = 2; B passed 2 of 3, so all of 2 draws pass with C(2,2)/C(3,2) = 1/3
    rows = [data_row("A", True, i=0), data_row("A", True, i=1), data_row("A", False, i=2, error="x", error_kind="task"),
            data_row("B", True, i=0), data_row("B", True, i=1), data_row("B", False, i=2)]
    passes = summary_json(rows)["pass_k"]
    assert passes["k"] == 2 and passes["pass_hat_k"] == pytest.approx((1 + 1 / 3) / 2)


def test_step_ratio_counts_successful_episodes_with_a_known_optimum():
    rows = [data_row("A", True, steps=4, optimal_steps=2, i=0), data_row("A", True, steps=3, optimal_steps=3, i=1),
            data_row("A", True, steps=6, optimal_steps=2, i=2), data_row("A", True, steps=10, optimal_steps=2, i=3),
            data_row("A", False, steps=1, optimal_steps=2, i=4), data_row("B", True, steps=7)]
    ratio = summary_json(rows)["step_ratio"]
    assert ratio == {"episodes": 4, "mean": pytest.approx(2.75), "median": pytest.approx(2.5)}


def test_usage_totals_tokens_and_cost():
    rows = [data_row("A", True, usage={"prompt_tokens": 10**7, "completion_tokens": 20, "cost_usd": 0.1}, i=0),
            data_row("A", False, usage={"prompt_tokens": 50, "completion_tokens": 5, "cost_usd": 0.2}, i=1),
            data_row("A", True, i=2)]
    usage = summary_json(rows)["usage"]
    assert usage["totals"] == {"completion_tokens": 25, "cost_usd": 0.3, "prompt_tokens": 10000050}  # not 0.30000000000000004
    assert usage["tokens"] == 10000075 and usage["cost"] == pytest.approx(0.3)
    assert "agent usage: completion_tokens 25, cost_usd 0.3, prompt_tokens 10000050" in summary(rows)


def test_side_effects_are_counted_among_the_episodes_that_were_checked():
    rows = [data_row("A", True, side_effects=["settings: secure/x changed"], i=0), data_row("A", True, side_effects=[], i=1),
            data_row("A", True, i=2)]
    assert summary_json(rows)["side_effects"] == {"episodes_checked": 2, "episodes_with": 1, "instances_with": ["A_0"]}


class CountingAgent(Agent):
    """Waits twice, then declares the goal complete; every step reports tokens, a cost and text."""

    name = "counting"
    wants_ui_elements = False

    def step(self, observation: Observation) -> Action:
        self.step_number = observation.step
        return Action("status", goal_status="complete") if observation.step == 2 else Action("wait")

    def usage(self) -> dict:
        return {"prompt_tokens": 100 + self.step_number, "completion_tokens": 5, "cost_usd": 0.5, "reply": "text"}


def test_the_runner_sums_the_agents_usage_over_the_episode():
    from taskkit import loading, registry, suite

    loading.load_builtin()
    device = sim_device()
    try:
        result = run_episode(Env(device), suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0), CountingAgent(), 30)
    finally:
        device.close()
    assert result.error is None and result.steps == 3
    assert result.usage == {"prompt_tokens": 303, "completion_tokens": 15, "cost_usd": 1.5}
    assert metrics.Row.of(result).usage == result.usage


def test_a_run_writes_summary_json(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn", "--agent", "noop",
                           "--output_dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["all"]["episodes"] == 1 and data["premature_completions"] == 1
    assert data["pass_k"]["k"] == 1 and data["termination"] == {"declared complete": 1}
    assert (tmp_path / "report.html").is_file() and "report: " in proc.stdout


def test_baselines_list_a_task_a_do_nothing_agent_passes(tmp_path):
    import textwrap

    module = tmp_path / "lenient.py"
    module.write_text(textwrap.dedent('''
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class WifiAlreadyOn(TaskEval):
            """AndroidWorld's old Wi-Fi bug: the setup leaves Wi-Fi on, so doing nothing passes."""
            app_names = ("settings",)
            template = "Turn Wi-Fi on."

            def initialize_state(self, env):
                super().initialize_state(env)
                env.device.settings.put("global", "wifi_on", "1")

            def validator(self):
                return setting_equals("global", "wifi_on", "1")
    '''))
    proc = subprocess.run([sys.executable, "-m", "taskkit.check", "--baselines", "--seeds", "2", "--task_module",
                           str(module), "--tasks", "WifiAlreadyOn,SystemWifiTurnOn"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "WifiAlreadyOn: noop passes 2 of 2 instance(s)" in proc.stdout
    assert not any(line.startswith("SystemWifiTurnOn:") for line in proc.stdout.splitlines())
    assert "2 task(s); 3 passable by a trivial agent" in proc.stdout


def _pool_rows(out, *extra):
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "ExpenseAddSingle,SimpleSmsSend,SystemWifiTurnOn",
                           "--n_task_combinations", "3", "--output_dir", str(out), *extra],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return sorted((r["instance_id"], json.dumps(r["params"], sort_keys=True), r["goal"], r["score"], r["side_effects"])
                  for r in map(json.loads, (out / "results.jsonl").read_text().splitlines()))


@pytest.fixture(scope="module")
def serial_rows(tmp_path_factory):
    rows = _pool_rows(tmp_path_factory.mktemp("serial"))
    assert len(rows) == 9 and all(score == 1.0 and effects == [] for *_, score, effects in rows)
    return rows


def test_parallel_workers_give_the_serial_rows(tmp_path, serial_rows):
    assert _pool_rows(tmp_path, "--parallel", "2") == serial_rows


def test_the_ray_executor_gives_the_serial_rows(tmp_path, serial_rows):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'taskkit[ray]'; the test extra has it)")
    assert _pool_rows(tmp_path, "--executor", "ray", "--parallel", "2") == serial_rows  # one actor per device


def test_the_ray_executor_without_ray_says_how_to_install_it(tmp_path):
    fake = tmp_path / "site" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--executor", "ray", "--output_dir", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(fake.parent)})
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "--executor ray needs Ray, an optional extra: pip install 'taskkit[ray]'" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_parallel_needs_fresh_devices(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--parallel", "2", "--device", f"sim:{tmp_path}",
                           "--output_dir", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--parallel 2 needs --device sim" in proc.stderr
    assert not out.exists()  # refused before anything was written
