"""AndroidLens' PressMenu ("Press the system button Menu", its supplement's Table 4) in the action
space: `navigate_menu` is KEYCODE_MENU, and it reaches the simulated device's input."""
from __future__ import annotations

from taskkit.actions import commands_for
from taskkit.agents.base import ACTION_TYPES, Action


def test_press_menu_is_an_action_that_sends_keycode_menu() -> None:
    assert "navigate_menu" in ACTION_TYPES
    action = Action.from_dict({"action_type": "navigate_menu"})
    assert commands_for(action) == ["input keyevent KEYCODE_MENU"]


def test_press_menu_reaches_the_simulated_device_s_input(sim_device) -> None:
    for command in commands_for(Action("navigate_menu")):
        sim_device.check(command)
    assert any(line.endswith("I Input   : keyevent KEYCODE_MENU") for line in sim_device.check("logcat -d").splitlines())
