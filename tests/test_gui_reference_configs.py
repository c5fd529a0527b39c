"""GUI references under B-MoCA's test environments (docs/device-configs.md "Checking tasks under
configs"): a reference written in English finds its labels as the device's locale shows them
(taskkit.gui_reference.in_locale, the simulated screens' own translations), and reaches targets a
high density pushes below the fold (the Clock's alarm list scrolls) or off the home screen."""
from __future__ import annotations

import pytest

from taskkit import config, gui_reference as gui, loading, registry
from taskkit.agents.base import Episode, Observation
from taskkit.agents.gui_reference import GuiReferenceAgent, ListMemory
from taskkit.config import apply
from taskkit.connect import sim_device
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.env import Env
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance

# One reference per app family the configs broke: Settings' labels (B-MoCA's and AndroidWorld's),
# the Clock's time picker and alarm list at density 550, a dialog's framework buttons (Markor),
# Simple Calendar's chrome, and the launcher's app drawer (OpenAppTaskEval: a seeded icon layout).
TASKS = ("BmocaAirplaneModeOn", "SystemWifiTurnOn", "ClockCreateWeekendAlarm", "ClockDeleteAlarm",
         "MarkorCreateNote", "SimpleCalendarAddOneEvent", "OpenAppTaskEval")


def _element(text: str = "", desc: str = "", rid: str = "") -> UIElement:
    return UIElement(text=text or None, content_description=desc or None, resource_name=rid or None,
                     bbox=BoundingBox(0, 0, 100, 100))


def test_a_label_is_also_found_in_the_devices_locale() -> None:
    screen = (_element("확인", rid="android:id/button1"), _element(desc="위로 탐색"), _element("OK", rid="pkg:id/ok"))
    korean = gui.localized([gui.tap("OK"), gui.tap("Navigate up"), gui.tap(gui.resource_id("button1")),
                            gui.tap(gui.in_row_of("OK", gui.text("OK")))], "ko-KR")
    assert [step.target.indices(screen) for step in korean] == [[0, 2], [1], [0], [0, 2]]
    english = gui.localized([gui.tap("OK")], "en-US")
    assert english[0].target.indices(screen) == [2]  # English: only the label as written
    assert gui.localized([gui.tap("OK")], None)[0] == gui.tap("OK")
    assert gui.resource_id("ok").localized(gui.in_locale("ko-KR")).indices(screen) == [2]  # ids never translate


def test_digits_follow_the_locales_numbering_system() -> None:
    screen = (_element("\u0667"), _element("7"))  # Arabic-Indic seven, Latin seven
    assert gui.localized([gui.tap("7")], "ar-EG")[0].target.indices(screen) == [0, 1]
    assert gui.localized([gui.tap("7")], "ur-PK")[0].target.indices(screen) == [1]  # Urdu (Pakistan): Latin digits
    assert gui.localized([gui.tap("7")], "ar-AE")[0].target.indices(screen) == [1]  # CLDR: ar-AE writes Latin


@pytest.fixture(scope="module", params=["bmoca-105", "bmoca-109"])
def configured(request):
    """A simulated device under the config: bmoca-105 (ko-KR, density 550, font 0.85), bmoca-109
    (ar-EG, right to left, the 1200x800 tablet at density 160)."""
    loading.load_builtin()
    device = sim_device()
    apply.apply(device, config.resolve(request.param)[0])
    yield Env(device)
    device.close()


@pytest.mark.parametrize("name", TASKS)
def test_the_reference_passes_under_the_config(configured: Env, name: str) -> None:
    agent = GuiReferenceAgent()
    result = run_episode(configured, TaskInstance(registry.get(name), 0, 30), agent, 30)
    assert result.error is None and result.score == 1.0, (agent.problem, result.reasons)


def test_without_the_locale_the_reference_is_lost(configured: Env) -> None:
    """The check above can fail: the same reference, told no locale, does not find Settings' labels."""
    agent = GuiReferenceAgent()
    agent.wants_device_locale = False
    result = run_episode(configured, TaskInstance(registry.get("SystemWifiTurnOn"), 0, 30), agent, 30)
    assert result.error is None and result.score == 0.0 and result.status != "complete"


def _observed(*elements: UIElement, foreground: str = "pkg") -> Observation:
    return Observation(goal="g", step=0, max_steps=10, foreground=foreground, ui_elements=elements)


def _row(text: str, y: int) -> UIElement:
    return UIElement(text=text, bbox=BoundingBox(0, y, 1080, y + 100), is_clickable=True)


LIST = UIElement(resource_name="pkg:id/list", bbox=BoundingBox(0, 0, 1080, 1000), is_scrollable=True)


def test_the_agent_scrolls_back_towards_a_target_it_scrolled_past() -> None:
    memory = ListMemory()
    memory.observe(_observed(LIST, _row("Alpha", 0), _row("Bravo", 100)), None)
    memory.observe(_observed(LIST, _row("Yankee", 0), _row("Zulu", 100)), "down")
    assert memory.direction_to(gui.by("Alpha")) == "up" and memory.direction_to(gui.by("Omega")) is None
    memory.observe(_observed(LIST, _row("Other", 0)), None)  # the app reset the list: forget it
    assert memory.direction_to(gui.by("Alpha")) is None
    agent = GuiReferenceAgent()
    agent.reset(Episode("g", 10, (), "T", "T_0", 1, (gui.tap("Bravo"), gui.tap("Zulu"), gui.tap("Alpha"))))
    screens = [(_row("Alpha", 0), _row("Bravo", 100)), (_row("Yankee", 0), _row("Zulu", 100))]
    taken = [agent.step(_observed(LIST, *screens[0])), agent.step(_observed(LIST, *screens[0])),
             agent.step(_observed(LIST, *screens[1])), agent.step(_observed(LIST, *screens[1]))]
    assert [(a.action_type, a.direction) for a in taken] == [("click", None), ("scroll", "down"), ("click", None),
                                                               ("scroll", "up")]


def test_where_nothing_scrolls_the_agent_swipes_up_once_then_gives_up() -> None:
    agent = GuiReferenceAgent()
    agent.reset(Episode("g", 10, (), "T", "T_0", 1, (gui.tap("Contacts"),)))
    home = _observed(_row("Chrome", 0), foreground="launcher")
    first = agent.step(home)
    assert (first.action_type, first.direction, first.index) == ("scroll", "down", None)  # a swipe up on the screen
    assert agent.step(home).goal_status == "infeasible" and "not on the screen" in (agent.problem or "")
