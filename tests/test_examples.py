"""The worked examples run as the README says."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_user_agent_opens_the_app(tmp_path):
    proc = run("--tasks", "MarkorCreateNote", "--agent", "examples.my_agent:OpenAppAgent", "--output_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    row = json.loads((tmp_path / "results.jsonl").read_text())
    assert row["steps"] == 2 and row["score"] == 0.0 and row["error"] is None
