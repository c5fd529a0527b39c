"""Carry out an agent's `Action` on the device with Android shell commands."""
from __future__ import annotations

from taskkit import apps
from taskkit.agents.base import Action
from taskkit.device.quoting import shell_quote
from taskkit.env import Env

# A Pixel 6 screen (1080×2400): where scrolls and swipes start and end.
_SCREEN_W, _SCREEN_H = 1080, 2400
_SWIPES = {
    # scroll <direction> moves the content that way, so the finger moves the other way
    "up": (540, 700, 540, 1700),
    "down": (540, 1700, 540, 700),
    "left": (200, 1200, 880, 1200),
    "right": (880, 1200, 200, 1200),
}
_KEYS = {"navigate_home": "KEYCODE_HOME", "navigate_back": "KEYCODE_BACK", "keyboard_enter": "KEYCODE_ENTER"}


class ActionError(ValueError):
    """The action cannot be carried out as given (the agent's mistake, reported back to it)."""


def command_for(action: Action) -> str | None:
    """The shell command that performs `action`, or None when it needs no device command."""
    kind = action.action_type
    if kind in ("click", "double_tap", "long_press"):
        if action.x is None or action.y is None:
            raise ActionError(f"{kind} needs x and y (this device has no UI element index)")
        x, y = int(action.x), int(action.y)
        if kind == "click":
            return f"input tap {x} {y}"
        if kind == "double_tap":
            return f"input tap {x} {y}; input tap {x} {y}"
        return f"input swipe {x} {y} {x} {y} 1000"
    if kind == "input_text":
        if action.text is None:
            raise ActionError("input_text needs text")
        return f"input text {shell_quote(action.text.replace(' ', '%s'))}"
    if kind in ("scroll", "swipe"):
        start_x, start_y, end_x, end_y = _SWIPES[action.direction or "down"]
        if kind == "swipe":  # a swipe moves the finger in its direction
            start_x, start_y, end_x, end_y = end_x, end_y, start_x, start_y
        return f"input swipe {start_x} {start_y} {end_x} {end_y} 300"
    if kind in _KEYS:
        return f"input keyevent {_KEYS[kind]}"
    if kind == "open_app":
        try:
            app = apps.get(action.app_name or "")
        except KeyError as error:
            raise ActionError(str(error.args[0])) from None
        return f"am start -n {shell_quote(app.component)}"
    return None  # answer, status, wait, unknown


def perform(env: Env, action: Action) -> None:
    """Carry out `action`; raises ActionError for an action that cannot be done."""
    if action.action_type == "answer":
        env.submit_answer(action.text or "")
        return
    command = command_for(action)
    if command is not None:
        env.device.check(command)
