"""The summary's statistics: Wilson intervals, termination reasons, premature completions."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from taskkit.report import summary, summary_json, wilson
from taskkit.runner import EpisodeResult


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


def test_a_run_writes_summary_json(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn", "--agent", "noop",
                           "--output_dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["all"]["episodes"] == 1 and data["premature_completions"] == 1


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


def test_parallel_workers_give_the_serial_rows(tmp_path):
    def rows(*extra):
        out = tmp_path / "_".join(extra or ("serial",))
        proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "ExpenseAddSingle,SimpleSmsSend,SystemWifiTurnOn",
                               "--n_task_combinations", "3", "--output_dir", str(out), *extra],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return sorted((r["instance_id"], json.dumps(r["params"], sort_keys=True), r["goal"], r["score"])
                      for r in map(json.loads, (out / "results.jsonl").read_text().splitlines()))

    serial = rows()
    assert len(serial) == 9 and all(score == 1.0 for *_, score in serial)
    assert rows("--parallel", "2") == serial


def test_parallel_needs_fresh_devices(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--parallel", "2", "--device", f"sim:{tmp_path}",
                           "--output_dir", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--parallel 2 needs --device sim" in proc.stderr
    assert not out.exists()  # refused before anything was written
