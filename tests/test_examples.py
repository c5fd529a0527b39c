"""The worked examples run as the README says."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.device.test_adb_device import adb_connect, private_adb_server, requires_adb, served_sim

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, cwd=ROOT)


def test_user_tasks_score_one_with_the_oracle_and_zero_with_noop(tmp_path):
    module = str(ROOT / "examples" / "my_tasks.py")
    oracle = run("--task_module", module, "--tasks", "ExpenseAddCoffee,SmsCountUnread",
                 "--n_task_combinations", "3", "--output_dir", str(tmp_path))
    assert oracle.returncode == 0, oracle.stderr
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [row["score"] for row in rows] == [1.0] * 6
    noop = run("--task_module", module, "--tasks", "ExpenseAddCoffee,SmsCountUnread", "--agent", "noop")
    assert noop.returncode == 0 and "0.0%" in noop.stdout


def test_user_agent_opens_the_app_and_records_its_steps(tmp_path):
    proc = run("--tasks", "MarkorCreateNote", "--agent", "examples.my_agent:FindAndTap", "--output_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    row = json.loads((tmp_path / "results.jsonl").read_text())
    assert row["agent"] == "find-and-tap" and row["score"] == 0.0 and row["error"] is None
    steps = [json.loads(line) for line in (tmp_path / row["trajectory"]).read_text().splitlines()]
    assert steps[0]["action"] == {"action_type": "open_app", "app_name": "markor"}
    assert steps[0]["foreground"].startswith("com.google.android.apps.nexuslauncher/")  # episodes start at home
    assert steps[1]["foreground"].startswith("net.gsantner.markor/")  # the app it opened is in front
    assert len(steps) == row["steps"]


def test_the_readme_agent_clicks_by_index(tmp_path):
    """The README's "Writing an agent" example runs as written, against the scripted screen."""
    import re

    from taskkit import loading, registry, suite
    from taskkit.connect import sim_device
    from taskkit.env import Env
    from taskkit.runner import run_episode
    from tests.agents.screens import scripted_screen

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Writing an agent"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 30
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - the documented example itself
    loading.load_builtin()
    device = sim_device()
    try:
        with scripted_screen():
            instance = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0)
            result = run_episode(Env(device), instance, namespace["SwitchFlipper"](), 30)
    finally:
        device.close()
    assert result.error is None and result.score == 1.0


def _check_seed_judging(*device_flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taskkit.check", "--task_module", str(ROOT / "examples" / "seed_judging.py"),
                           "--tasks", "RecordThenWifiOn", "--seeds", "2", "--properties", "solvable,near_miss",
                           *device_flags], capture_output=True, text=True, cwd=ROOT, timeout=600)


def test_the_seed_judging_example_scores_and_reports_progress(tmp_path):
    """examples/seed_judging.py, written only against taskkit's public names (a logcat detector, a
    shared preference, a UI element, key components, ordered and unordered milestones): its
    oracle scores 1.0 with full progress, noop 0 with none, and every near miss scores less."""
    module = str(ROOT / "examples" / "seed_judging.py")
    for agent, score, progress in (("oracle", 1.0, 1.0), ("noop", 0.0, 0.0)):
        out = tmp_path / agent
        proc = run("--task_module", module, "--tasks", "RecordThenWifiOn", "--agent", agent, "--output_dir", str(out))
        assert proc.returncode == 0, proc.stderr
        row = json.loads((out / "results.jsonl").read_text())
        assert (row["score"], row["progress"], row["error"]) == (score, progress, None), row
    assert row["milestones"] == {"recorded": None, "wifi page": None, "wifi on": None, "switch shown on": None}
    checked = _check_seed_judging()
    assert checked.returncode == 0 and "near_miss" in checked.stdout, checked.stdout + checked.stderr


@requires_adb
def test_the_seed_judging_example_rejects_its_near_misses_over_adb(tmp_path):
    with private_adb_server() as port, served_sim(tmp_path / "device") as server:
        serial = f"127.0.0.1:{server.port}"
        adb_connect(port, serial)
        checked = _check_seed_judging("--device", f"adb:{serial}", "--adb_port", str(port))
    assert checked.returncode == 0 and "near_miss" in checked.stdout, checked.stdout + checked.stderr
