"""taskkit.static_eval: recorded observations fed to an agent, its actions matched with the recorded ones."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskkit import demos, loading, static_eval
from taskkit.agents import GuiReferenceAgent, RandomAgent
from taskkit.agents.base import Action, Agent, Observation
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.static_eval.matching import action_match, type_match
from tests.test_demos import TASKS, dataset_dir, demo_run, run_module  # noqa: F401 - fixtures

SIZE = (1080, 2400)
ELEMENTS = (UIElement(text="List", bbox=BoundingBox(0, 0, 1080, 2400), is_scrollable=True),
            UIElement(text="Save", bbox=BoundingBox(100, 200, 300, 260), is_clickable=True),
            UIElement(text="Name", bbox=BoundingBox(0, 400, 1080, 500), is_editable=True))


@pytest.fixture(scope="module", autouse=True)
def builtin_tasks() -> None:
    loading.load_builtin()  # the dataset's tasks are re-created by name


def test_gui_reference_matches_every_step_of_its_own_dataset(dataset_dir: Path) -> None:
    outcomes = static_eval.evaluate(dataset_dir, GuiReferenceAgent())
    assert len(outcomes) == len(list(demos.load(dataset_dir)))
    figures = static_eval.summary(outcomes)
    assert figures["overall"]["type_match"] == figures["overall"]["action_match"] == 1.0
    assert set(figures["by_task"]) == set(TASKS) and "pro expense" in figures["by_app"] and "0" in figures["by_step"]


def test_random_is_far_below(dataset_dir: Path) -> None:
    figures = static_eval.summary(static_eval.evaluate(dataset_dir, RandomAgent()))
    assert figures["overall"]["action_match"] < 0.5


class Recorder(Agent):
    """Remembers what it was shown; always goes back."""

    wants_screenshot = True

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def step(self, observation: Observation) -> Action:
        self.seen.append(observation)
        return Action("navigate_back")


@pytest.mark.parametrize("instructions", ["high", "low"])
def test_the_agent_sees_the_goal_or_the_instruction_and_the_screenshot(dataset_dir: Path, instructions: str) -> None:
    agent = Recorder()
    static_eval.evaluate(dataset_dir, agent, instructions)
    steps = list(demos.load(dataset_dir))
    assert [o.goal for o in agent.seen] == [s["goal"] for s in steps]  # the goal stays, as in the runner
    expected = [s["instruction"] if instructions == "low" else None for s in steps]
    assert [o.instruction for o in agent.seen] == expected and any(expected) == (instructions == "low")
    assert all(o.screenshot == (dataset_dir / s["screenshot"]).read_bytes() for o, s in zip(agent.seen, steps))
    assert all(len(o.ui_elements) == len(s["elements"]) and o.screen_size == SIZE for o, s in zip(agent.seen, steps))


def test_the_cli_prints_the_tables_and_writes_json(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    proc = run_module("taskkit.static_eval", "--dataset", str(dataset_dir), "--agent", "random", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "TM %" in proc.stdout and "AMS %" in proc.stdout and "overall:" in proc.stdout
    data = json.loads(out.read_text())
    assert data["agent"] == "random" and data["overall"]["steps"] == len(list(demos.load(dataset_dir)))
    assert set(data["by_task"]) == set(TASKS)


@pytest.mark.parametrize("args, says", [
    (("--agent", "random"), "are required"),
    (("--dataset", "DATASET"), "are required"),
    (("--dataset", "DATASET", "--agent", "nosuch"), "unknown agent 'nosuch'"),
    (("--dataset", "DATASET", "--agent", "oracle"), "run mode"),
    (("--dataset", "DATASET", "--agent", "random", "--instructions", "mid"), "--instructions"),
    (("--dataset", "NOWHERE", "--agent", "random"), "not a taskkit.demos dataset"),
])
def test_bad_flags_are_one_line_and_exit_2(dataset_dir: Path, tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    given = [str(dataset_dir) if a == "DATASET" else str(tmp_path / "nowhere") if a == "NOWHERE" else a for a in args]
    proc = run_module("taskkit.static_eval", *given)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert says in proc.stderr and proc.stderr.startswith("taskkit.static_eval: error:")


def _match(predicted: dict, recorded: dict) -> bool:
    return action_match(Action.from_dict(predicted), Action.from_dict(recorded), ELEMENTS, SIZE)


def test_a_tap_matches_inside_the_recorded_elements_box_only() -> None:
    recorded = {"action_type": "click", "index": 1}
    assert _match({"action_type": "click", "index": 1}, recorded)
    assert _match({"action_type": "click", "x": 101, "y": 259}, recorded)
    assert _match({"action_type": "click", "x": 185, "y": 95, "normalized": True}, recorded)  # (200, 228) px
    assert not _match({"action_type": "click", "x": 301, "y": 230}, recorded)
    assert not _match({"action_type": "click", "index": 0}, recorded)  # the list's centre is not Save
    assert not _match({"action_type": "long_press", "index": 1}, recorded)
    assert not _match({"action_type": "click", "index": 9}, recorded)  # out of range: a miss, not a crash
    # a recorded point: the smallest element holding it is the target
    assert _match({"action_type": "click", "index": 1}, {"action_type": "click", "x": 150, "y": 210})
    assert not _match({"action_type": "click", "x": 500, "y": 210}, {"action_type": "click", "x": 150, "y": 210})
    tap = {"action_type": "dual_gesture", "touch": [-0.63, -0.81], "lift": [-0.63, -0.81]}  # (200, 228) px
    assert _match(tap, recorded)


def test_text_scroll_keys_answers_and_status() -> None:
    typed = {"action_type": "input_text", "index": 2, "text": "Coffee with Ann"}
    assert _match({"action_type": "input_text", "index": 2, "text": "coffee with ann"}, typed)
    assert _match({"action_type": "input_text", "text": "Coffee with Ann"}, typed)  # into the focused field
    assert not _match({"action_type": "input_text", "index": 2, "text": "Tea with Bob"}, typed)
    assert not _match({"action_type": "input_text", "index": 1, "text": "Coffee with Ann"}, typed)
    scroll = {"action_type": "scroll", "index": 0, "direction": "down"}
    assert _match({"action_type": "scroll", "direction": "down"}, scroll)
    assert not _match({"action_type": "scroll", "index": 0, "direction": "up"}, scroll)
    assert _match({"action_type": "navigate_back"}, {"action_type": "navigate_back"})
    assert not _match({"action_type": "navigate_home"}, {"action_type": "navigate_back"})
    assert _match({"action_type": "answer", "text": "3 events."}, {"action_type": "answer", "text": "3 events"})
    assert not _match({"action_type": "answer", "text": "4 events"}, {"action_type": "answer", "text": "three"})
    done = {"action_type": "status", "goal_status": "complete"}
    assert _match(done, done) and not _match({"action_type": "status", "goal_status": "infeasible"}, done)
    assert type_match(Action("status", goal_status="infeasible"), Action.from_dict(done), SIZE)
    assert _match({"action_type": "open_app", "app_name": "Pro Expense"}, {"action_type": "open_app",
                                                                          "app_name": "pro expense"})
