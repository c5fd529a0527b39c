"""A swipe over a scrolling list flings it on, as OverScroller does on Android: the finger's travel
plus the spline distance of the release velocity, none under the minimum fling velocity, the
velocity capped at the maximum, the list stopped at its end."""
from __future__ import annotations

import pytest

from taskkit.apps import markor
from taskkit.sim.gui.input import fling_distance
from taskkit.sim.gui.layout import Metrics
from taskkit.sim.gui.session import Session


@pytest.fixture
def notes(device):
    """Markor's file list, sixty notes long."""
    for i in range(60):
        device.files.write_text(f"{markor.NOTES_DIR}/note{i:02d}.md", "x")
    device.check("monkey -p net.gsantner.markor -c android.intent.category.LAUNCHER 1")
    return device


def _offset(device) -> int:
    return sum(Session(device.state).store.data["scroll"].values())


def test_a_quick_swipe_moves_the_list_by_the_finger_and_the_fling(notes) -> None:
    fling = fling_distance(Metrics(density=420), -400, 300)
    assert fling < -100  # 1333 px/s: a fling of a sizeable part of the finger's travel
    notes.check("input swipe 540 1800 540 1400 300")
    assert _offset(notes) == 400 - fling


def test_a_swipe_under_the_minimum_fling_velocity_moves_by_the_finger_only(notes) -> None:
    notes.check("input swipe 540 1800 540 1400 4000")  # 100 px/s, under 50 dp/s at 420 dpi (131 px/s)
    assert _offset(notes) == 400


def test_the_velocity_is_capped_and_the_list_stops_at_its_end(notes) -> None:
    m = Metrics(density=420)
    assert fling_distance(m, 1400, 50) == fling_distance(m, 1400, 20)  # both over 8000 dp/s
    notes.check("input swipe 540 2000 540 600 50")
    end = _offset(notes)
    notes.check("input swipe 540 2000 540 1900 300")
    assert _offset(notes) == end < 1400 - fling_distance(m, -1400, 50)  # stopped short: the end


def test_the_fling_is_longer_on_a_denser_screen_for_the_same_speed_in_dp() -> None:
    # the same 1000 dp/s swipe: the physical coefficient grows with ppi, so does the distance in px
    low, high = fling_distance(Metrics(density=160), 300, 300), fling_distance(Metrics(density=700), 1312, 300)
    assert 0 < low < high
