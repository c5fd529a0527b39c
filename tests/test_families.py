"""Suite families (`--suite_family`): AndroidWorld's tasks by name, the question tasks, taskkit's own."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from taskkit import families, loading, registry

ROOT = Path(__file__).resolve().parents[1]


def test_families_split_the_registered_tasks() -> None:
    loading.load_builtin()
    android_world, own = set(families.tasks_in("android_world")), set(families.tasks_in("taskkit"))
    seeds = {name for family in families.SEED_FAMILIES for name in families.tasks_in(family)}
    everything = set(families.tasks_in("all"))
    assert android_world | own | seeds == everything and not android_world & own and not seeds & own
    assert all(any(f in registry.peek(name).tags for f in families.SEED_FAMILIES) for name in seeds)
    assert {"SimpleSmsSend", "MarkorMoveNote", "SystemWifiTurnOnVerify", "NotesIsTodo"} <= android_world
    assert {"IrNotesNotebookOfNote", "ExpenseRenameSpec"} <= own
    assert len(families.ANDROID_WORLD_TASKS) == 116 and android_world <= families.ANDROID_WORLD_TASKS
    questions = set(families.tasks_in("information_retrieval"))
    assert questions == families.INFORMATION_RETRIEVAL_TASKS and len(questions) == 25
    assert questions <= android_world and "IrNotesNotebookOfNote" in own
    assert all("information_retrieval" in registry.peek(name).tags for name in questions)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, cwd=ROOT)


def test_the_run_takes_a_family_and_refuses_a_task_outside_it(tmp_path: Path) -> None:
    listed = run("--list_tasks", "--json", "--suite_family", "taskkit")
    names = [task["name"] for task in json.loads(listed.stdout)]
    assert listed.returncode == 0 and "IrNotesNotebookOfNote" in names and "SimpleSmsSend" not in names
    outside = run("--suite_family", "android_world", "--tasks", "IrNotesNotebookOfNote", "--output_dir", str(tmp_path / "x"))
    assert outside.returncode == 2 and outside.stderr.count("\n") == 1 and "not in --suite_family android_world" in outside.stderr
    assert not (tmp_path / "x").exists()
    ran = run("--suite_family", "android_world", "--tasks", "SystemWifiTurnOn,SystemWifiTurnOnVerify",
              "--output_dir", str(tmp_path / "y"))
    assert ran.returncode == 0 and (tmp_path / "y" / "results.jsonl").read_text().count("\n") == 2
