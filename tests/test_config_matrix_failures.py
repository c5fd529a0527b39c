"""The device-config matrix's failures, one episode each under bmoca-108 (ur-PK, right to left,
density 700, font 0.85), at the matrix's seed 0 (issue #36 item 4; benchmarks/config_matrix.py):
the GUI reference scrolls as AndroidWorld scrolls (a fling that keeps the list's edge in view),
taps the part of a row's menu a floating button leaves, finds a note
among a hundred with Joplin's search (its 33rd of 101 took eight scrolls: 11 steps against 10), B-MoCA's tasks keep their step limits
with B-MoCA's swipe, SPA's key components are the labels the translated screen shows, the oracle
ends on a screen that shows them, and the dense clock face takes a tap on an hour's centre."""
from __future__ import annotations

import pytest

from taskkit import config, loading, registry, suite
from taskkit.agents.base import Action, Episode, Observation
from taskkit.agents.builtin import OracleAgent
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.config import apply
from taskkit.connect import sim_device
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.env import Env
from taskkit.gui_reference import clear_point, shown_in_locale, tap
from taskkit.runner import run_episode


def _box(x1: int, y1: int, x2: int, y2: int, clickable: bool = True, **fields) -> UIElement:
    return UIElement(bbox=BoundingBox(x1, y1, x2, y2), is_clickable=clickable, **fields)


def test_a_control_drawn_over_a_target_leaves_the_rest_of_it_to_tap() -> None:
    menu, fab = _box(948, 1661, 1080, 1793), _box(882, 1654, 1036, 1808)  # Retro's row menu under Shuffle
    x, y = clear_point([menu, fab], 0)
    assert 1036 <= x < 1080 and 1661 <= y < 1793  # the strip the button leaves
    assert clear_point([menu], 0) == menu.bbox.center
    assert clear_point([fab, menu], 1) == menu.bbox.center  # drawn before it: under it
    assert clear_point([menu, _box(949, 1600, 1100, 1900)], 0) is None  # covered but for its edge column
    row = _box(0, 1600, 1080, 1900)
    assert clear_point([row, _box(900, 1700, 1000, 1800)], 0) == row.bbox.center  # its own switch


def _episode(name: str) -> Episode:
    return Episode("g", 10, ("settings",), name, f"{name}_0", 0, (tap("Nowhere"),), None)


def test_the_reference_scrolls_as_agents_do_and_strokes_on_bmocas_tasks() -> None:
    loading.load_builtin()
    screen = Observation("g", 0, 10, "pkg", (_box(0, 300, 1080, 2000, clickable=False, is_scrollable=True),))
    agent = GuiReferenceAgent()
    agent.reset(_episode("SystemWifiTurnOn"))
    assert agent.step(screen) == Action("scroll", index=0, direction="down")  # AndroidWorld's
    agent.reset(_episode("BmocaWifiOff"))  # B-MoCA's swipe: the finger up across the list
    assert agent.step(screen) == Action("swipe", index=0, direction="up")


@pytest.mark.parametrize("locale, shown", [("fr-CA", "Affichage"), ("en-US", "display"), (None, "display")])
def test_a_key_component_is_the_label_the_screen_shows(locale: str | None, shown: str) -> None:
    assert shown_in_locale("display", locale, "com.android.settings").lower() == shown.lower()
    assert shown_in_locale("display", locale, "com.arduia.expense") == "display"  # the app's own: English
    assert shown_in_locale("Rainy Day 102", locale, "com.android.settings") == "Rainy Day 102"  # user data


@pytest.fixture(scope="module")
def dense() -> Env:
    loading.load_builtin()
    device = sim_device()
    apply.apply(device, config.resolve("bmoca-108")[0])
    yield Env(device)
    device.close()


def _reference(env: Env, name: str, config_name: str):
    instance = suite.instantiate(registry.get(name), 0, 0, config.resolve(config_name)[0].as_json())
    agent = GuiReferenceAgent()
    result = run_episode(env, instance, agent, 0)
    assert result.error is None and result.score == 1.0, (agent.problem, result.reasons, result.steps)


@pytest.mark.parametrize("name", ["RetroPlayingQueue", "SimpleDrawProCreateDrawing", "BmocaAddLanguagePage",
                                  "MarkorTranscribeReceipt", "NotesMeetingAttendeeCount"])
def test_the_reference_passes_at_the_matrix_seed(dense: Env, name: str) -> None:
    _reference(dense, name, "bmoca-108")


@pytest.mark.parametrize("config_name, name, agent", [("bmoca-104", "SpaSettingsDisplaySoundL1", GuiReferenceAgent),
                                                      ("bmoca-105", "SpaSettingsConnectionsL2", OracleAgent)])
def test_spas_key_component_is_found_as_the_translated_screen_shows_it(config_name: str, name: str, agent) -> None:
    """SpaSettingsDisplaySoundL1's key "display" shows as "Affichage" under bmoca-104 (fr-CA);
    SpaSettingsConnectionsL2's "bluetooth" as "블루투스" under bmoca-105 (ko-KR), on the Bluetooth
    page the oracle ends on (Settings' top level shows it in English only)."""
    loading.load_builtin()
    device = sim_device()
    try:
        chosen = config.resolve(config_name)[0]
        apply.apply(device, chosen)
        player = agent()
        result = run_episode(Env(device), suite.instantiate(registry.get(name), 0, 0, chosen.as_json()), player, 0)
        assert result.error is None and result.score == 1.0, result.reasons
    finally:
        device.close()


def test_the_oracle_ends_where_the_key_components_show(dense: Env) -> None:
    """Home's Recent row has no room for the name at 246 dp: the solve opens the expense's details."""
    instance = suite.instantiate(registry.get("SpaExpenseEntryL2"), 0, 0, config.resolve("bmoca-108")[0].as_json())
    result = run_episode(dense, instance, OracleAgent(), 0)
    assert result.error is None and result.score == 1.0, result.reasons


def test_no_hour_on_the_dense_clock_face_is_under_another(dense: Env) -> None:
    """At density 700 the 24-hour face's inner ring is small: no label's centre may lie in a label
    drawn after it (a tap on "16" took "17"; ClockHandView picks by angle, never by bounds)."""
    from tests.sim.gui.helpers import tap as tap_on

    device = dense.device
    device.check("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    tap_on(device, "Alarm")
    tap_on(device, "Add alarm")
    labels = [e for e in device.ui.screen().elements if (e.content_description or "").endswith(" hours") and not e.resource_name]
    assert len(labels) == 24
    for i, label in enumerate(labels):
        x, y = label.bbox.center
        assert not any(o.bbox.x_min <= x < o.bbox.x_max and o.bbox.y_min <= y < o.bbox.y_max for o in labels[i + 1:]), \
            label.content_description
    device.check("input keyevent BACK")
