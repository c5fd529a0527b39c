"""`--agent replay:PATH` as a user runs it: a replay on the recorded seed is silent and scores as
recorded; a missing trajectory or a screen that differs from the recorded one (another seed) is
one warning line per episode; `--strict_replay` stops instead (exit 2, rows kept)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit.agents import Action, Agent, Observation

ROOT = Path(__file__).resolve().parents[2]
TASK = "ExpenseDeleteSingle"  # its expense list is drawn from the seed: another seed shows other rows


class OpenThenDone(Agent):
    """Opens the task's app, then declares complete: the second screen shows the seed's data."""

    name = "open-then-done"
    wants_ui_elements = True

    def step(self, observation: Observation) -> Action:
        if observation.step == 0:
            return Action("open_app", app_name=self.episode.app_names[0])
        return Action("status", goal_status="complete")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", TASK, "--n_task_combinations", "2", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def warnings(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("warning:")]


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("replay") / "recorded"
    proc = run("--agent", "tests.agents.test_replay:OpenThenDone", "--output_dir", str(out))
    assert proc.returncode == 0, proc.stderr
    assert [row["steps"] for row in rows(out)] == [2, 2]
    return out


def test_a_replay_on_the_recorded_seed_is_silent_and_scores_as_recorded(recorded, tmp_path):
    proc = run("--agent", f"replay:{recorded}", "--strict_replay", "--output_dir", str(tmp_path / "again"))
    assert proc.returncode == 0, proc.stderr
    assert warnings(proc) == []
    assert [(r["score"], r["steps"]) for r in rows(tmp_path / "again")] == [(r["score"], r["steps"]) for r in rows(recorded)]


def test_a_replay_on_another_seed_warns_once_per_episode_whose_screen_differs(recorded):
    proc = run("--agent", f"replay:{recorded}", "--seed", "31")
    assert proc.returncode == 0, proc.stderr
    assert [line.split(": ")[2] for line in warnings(proc)] == [f"{TASK}_0", f"{TASK}_1"]
    assert all("step 1: the screen differs from the recorded one" in line for line in warnings(proc))


def test_strict_replay_on_another_seed_stops_with_exit_2_and_one_line(recorded, tmp_path):
    out = tmp_path / "out"
    proc = run("--agent", f"replay:{recorded}", "--seed", "31", "--strict_replay", "--output_dir", str(out))
    assert proc.returncode == 2, proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith(f"taskkit.run: error: --agent replay: {TASK}_0: step 1: the screen differs")
    assert "(--strict_replay); the run stopped after 0 of 2 episode(s)" in last and "Traceback" not in proc.stderr
    assert warnings(proc) == [] and rows(out) == []


def test_a_missing_trajectory_warns_and_strict_replay_refuses_it_before_running(recorded, tmp_path):
    partial = tmp_path / "partial"
    (partial / "trajectories").mkdir(parents=True)
    kept = f"trajectories/{TASK}_0.jsonl"
    (partial / kept).write_text((recorded / kept).read_text())
    proc = run("--agent", f"replay:{partial}")
    assert proc.returncode == 0, proc.stderr
    assert warnings(proc) == [f"warning: --agent replay: {TASK}_1: no trajectory {partial}/trajectories/{TASK}_1.jsonl: "
                              "the episode declares complete at once"]
    strict = run("--agent", f"replay:{partial}", "--strict_replay", "--output_dir", str(tmp_path / "out"))
    assert strict.returncode == 2, strict.stderr
    assert strict.stderr.splitlines() == [f"taskkit.run: error: --strict_replay: no trajectory {partial}/trajectories/"
                                          f"{TASK}_1.jsonl; replay the run's own --output_dir with the same --seed "
                                          "and --tasks, or drop --strict_replay"]
    assert not (tmp_path / "out").exists()


def test_strict_replay_needs_a_replay_agent():
    proc = run("--agent", "noop", "--strict_replay")
    assert proc.returncode == 2 and proc.stderr == "taskkit.run: error: --strict_replay needs --agent replay:PATH\n"
