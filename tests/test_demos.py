"""taskkit.demos: the GUI references of a few small tasks played into a dataset of verified steps."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import demos
from taskkit.actions import touch_point
from taskkit.agents.base import Action
from taskkit.demos import records

TASKS = ("SimpleSmsSend", "ExpenseAddSingle", "SystemWifiTurnOn")
BROKEN = "BrokenSmsReference"
BROKEN_MODULE = f'''
from taskkit.apps.sms.tasks import SimpleSmsSend
from taskkit.gui_reference import mistyped


class {BROKEN}(SimpleSmsSend):
    """SimpleSmsSend whose GUI reference mistypes the message: its episode scores 0."""

    def gui_reference(self):
        return mistyped(super().gui_reference())
'''


def run_module(module: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, env=env)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A dataset of three small tasks at one instance each, plus one whose reference fails."""
    root = tmp_path_factory.mktemp("demos")
    module = root / "broken_tasks.py"
    module.write_text(BROKEN_MODULE)
    out = root / "dataset"
    proc = run_module("taskkit.demos", "--tasks", ",".join((*TASKS, BROKEN)), "--task_module", str(module),
                      "--output_dir", str(out))
    assert proc.returncode == 0, proc.stderr
    return out, proc


@pytest.fixture(scope="session")
def dataset_dir(demo_run: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    return demo_run[0]


def test_every_step_record_has_every_field_and_its_screenshot(dataset_dir: Path) -> None:
    steps = list(demos.load(dataset_dir))
    assert {step["task"] for step in steps} == set(TASKS)
    for step in steps:
        assert set(step) == set(demos.STEP_FIELDS)
        assert step["goal"] and step["elements"] and step["foreground"] and isinstance(step["params"], dict)
        assert step["instruction"], step  # every reference step has a low-level instruction
        shot = dataset_dir / step["screenshot"]
        assert shot.is_file() and records.png_size(shot) == tuple(step["screen_size"])
        assert step["score"] == 1.0 and step["action_error"] is None
    finals = [step for step in steps if step["action"]["action_type"] == "status"]
    assert len(finals) == len(TASKS) and all(s["action"]["goal_status"] == "complete" for s in finals)


def test_pixel_and_normalized_forms_touch_the_recorded_element(dataset_dir: Path) -> None:
    touched = 0
    for step in demos.load(dataset_dir):
        action = Action.from_dict(step["action"])
        if action.index is None:
            assert step["action_pixel"] == step["action_normalized"] == step["action"]
            continue
        touched += 1
        box = step["elements"][action.index]["bbox"]
        size = tuple(step["screen_size"])
        for form in ("action_pixel", "action_normalized"):
            moved = Action.from_dict(step[form])
            assert moved.index is None and moved.action_type == action.action_type and moved.text == action.text
            x, y = touch_point(moved, (), size)
            assert box[0] <= x <= box[2] and box[1] <= y <= box[3], (form, step[form], box)
        assert step["action_normalized"]["normalized"] is True
    assert touched >= 6


def test_only_episodes_that_scored_one_are_kept_and_the_dropped_are_counted(
        demo_run: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, proc = demo_run
    episodes = demos.load_episodes(root)
    assert [e["episode_id"] for e in episodes] == [f"{task}_0" for task in TASKS]
    assert all(e["score"] == 1.0 and set(e) == set(demos.EPISODE_FIELDS) for e in episodes)
    meta = json.loads((root / "dataset.json").read_text())
    assert (meta["episodes"], meta["dropped"], meta["steps"]) == (3, 1, len(list(demos.load(root))))
    assert meta["dropped_episodes"][0]["episode_id"] == f"{BROKEN}_0" and meta["dropped_episodes"][0]["score"] < 1
    assert meta["seed"] == 30 and meta["taskkit_version"]
    assert "dropped 1 episode(s) that did not score 1.0" in proc.stdout
    assert f"{BROKEN}_0" not in {step["episode_id"] for step in demos.load(root)}


def test_the_same_command_resumes_the_run_and_rewrites_the_same_dataset(dataset_dir: Path) -> None:
    before = (dataset_dir / "steps.jsonl").read_text()
    proc = run_module("taskkit.demos", "--tasks", ",".join((*TASKS, BROKEN)), "--task_module",
                      str(dataset_dir.parent / "broken_tasks.py"), "--output_dir", str(dataset_dir))
    assert proc.returncode == 0, proc.stderr
    assert "4 of 4 episode(s) already recorded" in proc.stderr
    assert (dataset_dir / "steps.jsonl").read_text() == before


def test_to_hf_dataset_has_one_row_per_step_with_images(dataset_dir: Path) -> None:
    hf = demos.to_hf_dataset(dataset_dir)
    steps = list(demos.load(dataset_dir))
    assert hf.num_rows == len(steps)
    first = hf[0]
    assert first["screenshot"].size == tuple(steps[0]["screen_size"])
    assert json.loads(first["params"]) == steps[0]["params"] and json.loads(first["action"]) == steps[0]["action"]


def _hide_datasets(tmp_path: Path) -> dict[str, str]:
    """An environment in which `import datasets` fails."""
    (tmp_path / "datasets.py").write_text("raise ImportError('no datasets here')\n")
    return {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}


def test_a_missing_datasets_library_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    dataset_dir: Path) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)
    with pytest.raises(demos.MissingExtra, match=r"pip install 'taskkit\[demos\]'"):
        demos.to_hf_dataset(dataset_dir)
    proc = run_module("taskkit.demos", "--tasks", "SimpleSmsSend", "--hf_dataset", "--output_dir",
                      str(tmp_path / "out"), env=_hide_datasets(tmp_path))
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "taskkit[demos]" in proc.stderr and not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, says", [
    ((), "--output_dir is required"),
    (("--n_task_combinations", "0"), "--n_task_combinations must be at least 1"),
    (("--agent", "random"), "Unknown command line flag 'agent'"),
    (("--tasks", "NoSuchTask"), "unknown task 'NoSuchTask'"),
    (("--seed", "x"), "--seed"),
])
def test_bad_flags_are_one_line_and_exit_2(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    out = () if not args else ("--output_dir", str(tmp_path / "out"))
    proc = run_module("taskkit.demos", *args, *out)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and says in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("taskkit.demos: error:")
    assert not (tmp_path / "out").exists()  # refused before the directory is claimed


def test_a_directory_that_is_not_a_dataset_is_refused(tmp_path: Path) -> None:
    with pytest.raises(demos.DatasetError, match="not a taskkit.demos dataset"):
        list(demos.load(tmp_path))
