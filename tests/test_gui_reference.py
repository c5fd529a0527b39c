"""The GUI reference language (taskkit/gui_reference.py), its agent, its spec form and the
`gui_solvable` property: locators find what they say, near misses differ from the reference, the
agent scrolls towards a target and gives up with a reason, and a broken reference fails the check."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from taskkit import gui_reference as gui
from taskkit.agents.base import Episode, Observation
from taskkit.agents.gui_reference import GuiReferenceAgent, NoGuiReference
from taskkit.device.services.ui import BoundingBox, UIElement

ROOT = Path(__file__).resolve().parents[1]


def _element(text: str = "", desc: str = "", rid: str = "", y: int = 0, scrollable: bool = False) -> UIElement:
    return UIElement(text=text or None, content_description=desc or None, resource_name=rid or None,
                     bbox=BoundingBox(0, y, 1080, y + 100), is_scrollable=scrollable, is_clickable=True)


SCREEN = (
    _element(rid="pkg:id/list", y=0, scrollable=True),
    _element("Groceries", rid="pkg:id/title", y=200), _element(desc="More options", rid="pkg:id/menu", y=210),
    _element("Taxes", rid="pkg:id/title", y=400), _element(desc="More options", rid="pkg:id/menu", y=410),
    _element("OK", y=900),
)


@pytest.mark.parametrize("found, expected", [
    (gui.by("Taxes"), [3]), (gui.by("More options"), [2, 4]), (gui.by("menu"), [2, 4]),
    (gui.text("More options"), []), (gui.description("More options"), [2, 4]),
    (gui.resource_id("title"), [1, 3]), (gui.resource_id("pkg:id/title"), [1, 3]), (gui.resource_id("itle"), []),
    (gui.text("Taxes") & gui.resource_id("title"), [3]), (gui.text("Taxes") & gui.resource_id("menu"), []),
    (gui.in_row_of("Taxes", "menu"), [4]), (gui.in_row_of("Groceries", "More options"), [2]),
    (gui.where(lambda e: e.is_scrollable, "the list"), [0]),
    (gui.below("Groceries", "menu"), [2]), (gui.below("Taxes", "menu"), [4]), (gui.below("Taxes", "Groceries"), []),
    (gui.contains("roce"), [1]), (gui.contains("roce") & gui.resource_id("menu"), []),
])
def test_locators_find_exactly_what_they_name(found: gui.Locator, expected: list[int]) -> None:
    assert found.indices(SCREEN) == expected


def test_readers_take_the_answer_off_the_screen() -> None:
    assert gui.read("title")(SCREEN) == "Taxes"  # the last match
    assert gui.read_all("title")(SCREEN) == "Groceries, Taxes"
    assert gui.count("menu")(SCREEN) == "2"
    with pytest.raises(LookupError, match="not on the screen"):
        gui.read("nothing")(SCREEN)


@given(st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=40))
def test_a_mistyped_value_differs_and_keeps_its_shape(value: str) -> None:
    wrong = gui.mistype(value)
    assert wrong != value
    if any(c.isalnum() for c in value):  # same length, and every punctuation mark or space in place
        assert len(wrong) == len(value)
        assert [c for c in wrong if not c.isalnum()] == [c for c in value if not c.isalnum()]


def test_near_misses_of_a_reference() -> None:
    steps = [gui.open_app("markor"), gui.tap("OK"), gui.type_text("name", "a.md"), gui.tap("Save")]
    assert gui.without_last_step(steps) == steps[:3]
    assert [s.mistyped for s in gui.mistyped(steps)] == [False, False, True, False]
    assert gui.mistyped([gui.open_app("clock"), gui.tap("Timer")]) is None
    with pytest.raises(ValueError, match="swipe direction"):
        gui.swipe("canvas", "sideways")


def _observe(elements: tuple[UIElement, ...], error: str | None = None) -> Observation:
    return Observation(goal="g", step=0, max_steps=10, foreground="pkg", ui_elements=elements, last_action_error=error)


def _agent(*steps: gui.Step) -> GuiReferenceAgent:
    agent = GuiReferenceAgent(max_scrolls=3)
    agent.reset(Episode("g", 10, ("markor",), "T", "T_0", 1, tuple(steps)))
    return agent


def test_the_agent_acts_on_the_found_element_and_scrolls_towards_a_missing_one() -> None:
    agent = _agent(gui.tap(gui.in_row_of("Taxes", "menu")), gui.type_text("title", "x", clear=True), gui.tap("Rent"))
    assert agent.step(_observe(SCREEN)).to_dict() == {"action_type": "click", "index": 4}
    assert agent.step(_observe(SCREEN)).to_dict() == {"action_type": "input_text", "index": 3, "text": "x",
                                                      "clear_text": True}
    directions = [agent.step(_observe(SCREEN)).direction for _ in range(3)]
    assert directions == ["down", "up", "down"]  # the same screen twice: the end of the list, turn round
    assert agent.step(_observe(SCREEN)).goal_status == "infeasible"
    assert "'Rent' is not on the screen" in agent.problem


def test_a_tap_at_a_point_inside_its_target_clicks_those_coordinates() -> None:
    agent = _agent(gui.tap("OK", at=(0.25, 0.5)), gui.tap("OK"))
    assert agent.step(_observe(SCREEN)).to_dict() == {"action_type": "click", "x": 270, "y": 950}
    assert agent.step(_observe(SCREEN)).to_dict() == {"action_type": "click", "index": 5}
    with pytest.raises(ValueError, match="between 0 and 1"):
        gui.tap("OK", at=(1.5, 0.5))


def test_the_agent_answers_completes_and_stops_on_a_failed_action() -> None:
    agent = _agent(gui.answer(gui.read("title")))
    assert agent.step(_observe(SCREEN)).to_dict() == {"action_type": "answer", "text": "Taxes"}
    assert agent.step(_observe(SCREEN)).goal_status == "complete"
    failing = _agent(gui.back(), gui.home())
    assert failing.step(_observe(SCREEN)).action_type == "navigate_back"
    assert failing.step(_observe(SCREEN, error="no such element")).goal_status == "infeasible"
    assert "no such element" in failing.problem


def test_a_task_without_a_reference_is_an_error_not_an_agent_failure() -> None:
    with pytest.raises(NoGuiReference, match="T has no GUI reference"):
        GuiReferenceAgent().reset(Episode("g", 10, (), "T", "T_0", 1, None))


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taskkit.check", "--seeds", "1", "--properties", "gui_solvable", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.subprocess
def test_check_proves_a_user_tasks_reference_and_fails_a_loose_one(tmp_path: Path) -> None:
    good = _check("--task_module", "examples/my_tasks.py", "--tasks", "ExpenseAddCoffee,SmsCountUnread")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "ExpenseAddCoffee  pass" in good.stdout
    loose = tmp_path / "loose.py"
    loose.write_text(textwrap.dedent("""
        from examples.my_tasks import ExpenseAddCoffee
        from taskkit.gui_reference import open_app, tap, type_text

        class LooseCoffee(ExpenseAddCoffee):
            def gui_reference(self):  # types the name but never saves: cannot score 1.0
                return [open_app("pro expense"), tap("fb_main_add"), type_text("edt_name", self.params["name"])]
    """))
    failed = _check("--task_module", str(loose), "--tasks", "LooseCoffee")
    assert failed.returncode == 1
    assert "LooseCoffee: gui_solvable FAILED" in failed.stdout and "the GUI reference: scores 0.0" in failed.stdout


@pytest.mark.subprocess
def test_tasks_without_a_reference_are_named_in_one_warning_line(tmp_path: Path) -> None:
    bare = tmp_path / "bare.py"
    bare.write_text(textwrap.dedent("""
        from taskkit import TaskEval

        class BareTask(TaskEval):
            app_names = ("markor",)
            template = "Do nothing."

            def is_successful(self, env):
                return 0.0
    """))
    result = _check("--task_module", "examples/my_tasks.py", "--task_module", str(bare),
                    "--tasks", "ExpenseAddCoffee,BareTask")
    warnings = [line for line in result.stderr.splitlines() if "give no GUI reference" in line]
    assert len(warnings) == 1 and warnings[0].endswith(": BareTask"), result.stderr
    assert "BareTask          n/a" in result.stdout
