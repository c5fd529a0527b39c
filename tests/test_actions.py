"""Agent actions become Android shell commands."""
from __future__ import annotations

import pytest

from taskkit.actions import ActionError, command_for
from taskkit.agents import Action


@pytest.mark.parametrize(
    "action, command",
    [
        (Action("click", x=5, y=7), "input tap 5 7"),
        (Action("long_press", x=5, y=7), "input swipe 5 7 5 7 1000"),
        (Action("input_text", text="it's here"), "input text 'it'\\''s%shere'"),
        (Action("navigate_home"), "input keyevent KEYCODE_HOME"),
        (Action("navigate_back"), "input keyevent KEYCODE_BACK"),
        (Action("open_app", app_name="Markor"), "am start -n net.gsantner.markor/.activity.MainActivity"),
        (Action("scroll", direction="down"), "input swipe 540 1700 540 700 300"),
        (Action("wait"), None),
        (Action("answer", text="x"), None),
    ],
)
def test_command_for(action, command):
    assert command_for(action) == command


def test_bad_actions_are_reported_to_the_agent():
    with pytest.raises(ActionError, match="needs x and y"):
        command_for(Action("click", index=3))
    with pytest.raises(ActionError, match="unknown app 'nope'"):
        command_for(Action("open_app", app_name="nope"))
