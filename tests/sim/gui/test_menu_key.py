"""KEYCODE_MENU (taskkit.actions' navigate_menu, AndroidLens' PressMenu): the action bar's overflow
menu opens, a second press closes it, a screen without one ignores it."""
from __future__ import annotations

import pytest

from tests.sim.gui.helpers import labels, tap


@pytest.mark.parametrize("package", ["net.gsantner.markor", "com.simplemobiletools.smsmessenger"])
def test_menu_opens_the_overflow_menu_a_tap_opens_and_closes_it_again(device, package: str) -> None:
    device.check(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    before = labels(device)
    tap(device, "More options")
    by_tap = labels(device)
    device.check("input keyevent BACK")
    assert labels(device) == before != by_tap
    device.check("input keyevent KEYCODE_MENU")
    assert labels(device) == by_tap
    device.check("input keyevent 82")  # by number, as `input keyevent` also takes it
    assert labels(device) == before


def test_menu_does_nothing_where_the_screen_has_no_options_menu(device) -> None:
    device.check("monkey -p com.dimowner.audiorecorder -c android.intent.category.LAUNCHER 1")
    before = labels(device)
    device.check("input keyevent KEYCODE_MENU")
    assert labels(device) == before
