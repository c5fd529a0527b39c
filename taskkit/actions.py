"""Carry out an agent's `Action` on the device with Android shell commands (`input`, `am`).

An element `index` is resolved against the elements the agent last saw: a click lands on the
element's centre, `input_text` taps the element first (focusing it), clears it when asked
(`input keycombination 113 29` selects all with Ctrl+A, `input keyevent 67` deletes, as
AndroidWorld's actuation does) and then types, `scroll`
swipes inside the element's bounds, or across the whole display (its real size, `wm size`, as the
observation read it) when no element is named. A mistake of the agent's — an index out of range —
raises `ActionError`, which the runner hands back to the agent as `last_action_error`; it is never
a crash.

A new line in the text is typed as ENTER, as AndroidWorld types it (adb_utils.type_text). Text
`input text` cannot carry (anything beyond printable ASCII: Chinese, accents, emoji; or the
two characters `%s`, which it reads as a space) is typed through ADBKeyboard, the input method
SPA-Bench's agents use: it is selected (`ime set`) and takes the text as base64 by broadcast
(`am broadcast -a ADB_INPUT_B64 --es msg ...`), in the same round trip. The simulated device has
it; on a phone it must be installed and enabled (`ime list -s` lists it), or the agent is told
in one `last_action_error` how to install it.
"""
from __future__ import annotations

import base64
from typing import Sequence

from taskkit import apps
from taskkit.agents.base import NORMALIZED_SCALE, Action
from taskkit.device.catalog import ADB_KEYBOARD_IME
from taskkit.device.errors import CommandFailed
from taskkit.device.gestures import swipe_command
from taskkit.device.quoting import shell_quote
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.env import Env
from taskkit.errors import TaskkitError

_CLEAR = ["input keycombination 113 29", "input keyevent 67"]  # KEYCODE_CTRL_LEFT + KEYCODE_A, KEYCODE_DEL
_KEYS = {"navigate_home": "KEYCODE_HOME", "navigate_back": "KEYCODE_BACK", "keyboard_enter": "KEYCODE_ENTER",
         "navigate_recents": "KEYCODE_APP_SWITCH", "navigate_menu": "KEYCODE_MENU"}
# What `input text` can type: it turns each character into key events of the virtual keyboard's
# character map, which holds printable ASCII (AOSP InputShellCommand.sendText, KeyCharacterMap
# VIRTUAL_KEYBOARD); "%s" stands for a space.
_TYPABLE = frozenset(chr(code) for code in range(0x20, 0x7F))
_NO_IME = ("input_text: this text needs the ADBKeyboard input method (github.com/senzhk/ADBKeyBoard), which "
           "the device does not have enabled: adb install ADBKeyboard.apk, then adb shell ime enable "
           f"{ADB_KEYBOARD_IME}; nothing was typed")


class ActionError(TaskkitError, ValueError):
    """The action cannot be carried out as given (the agent's mistake, reported back to it)."""


def _element(action: Action, elements: Sequence[UIElement]) -> UIElement:
    index = action.index
    assert index is not None
    if not 0 <= index < len(elements):
        raise ActionError(f"{action.action_type}: index {index} is out of range: the screen has "
                          f"{len(elements)} element(s) (0..{len(elements) - 1})")
    element = elements[index]
    if element.bbox is None or element.bbox.width <= 0 or element.bbox.height <= 0:
        raise ActionError(f"{action.action_type}: element {index} has no area on the screen")
    return element


def touch_point(action: Action, elements: Sequence[UIElement],
                screen_size: tuple[int, int] | None = None) -> tuple[int, int]:
    """The pixel an action by index (the element's centre), pixel or normalized point touches."""
    if action.index is not None:
        return _element(action, elements).bbox.center  # type: ignore[union-attr]
    if action.x is None or action.y is None:
        raise ActionError(f"{action.action_type} needs an element index or x and y")
    if action.normalized:  # 0..1000 on each axis, onto the device's real size
        width, height = _size(screen_size)
        return (round(action.x * (width - 1) / NORMALIZED_SCALE), round(action.y * (height - 1) / NORMALIZED_SCALE))
    return int(action.x), int(action.y)


def _size(screen_size: tuple[int, int] | None) -> tuple[int, int]:
    if screen_size is None:
        raise ValueError("normalized coordinates and dual gestures need the screen size")
    return screen_size


def gesture_point(point: tuple[float, float], screen_size: tuple[int, int] | None) -> tuple[int, int]:
    """A dual-gesture point in [-1, 1] (B-MoCA's) in the device's pixels."""
    width, height = _size(screen_size)
    return round((point[0] + 1) / 2 * (width - 1)), round((point[1] + 1) / 2 * (height - 1))


def input_text_command(text: str) -> str:
    """The command that types `text` into the focused field: `input text` for what it can type
    exactly, ADBKeyboard's broadcast for the rest (see the module doc), and ENTER for each new line
    as AndroidWorld types one (adb_utils.type_text: press_enter_button); ActionError for no text."""
    if not text:
        raise ActionError("input_text needs text")
    if "\n" in text:
        return " && ".join(input_text_command(line) if line else f"input keyevent {_KEYS['keyboard_enter']}"
                           for line in _lines(text))
    if all(char in _TYPABLE for char in text) and "%s" not in text:
        return f"input text {shell_quote(text.replace(' ', '%s'))}"
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    ime = shell_quote(ADB_KEYBOARD_IME)
    return (f"if ime list -s | grep -qxF {ime}; then ime set {ime} >/dev/null && "
            f"am broadcast -a ADB_INPUT_B64 --es msg {encoded} >/dev/null; "
            f"else echo {shell_quote(_NO_IME)} >&2; exit 3; fi")


def _lines(text: str) -> list[str]:
    """`text`'s lines with an empty string standing for each new line between them."""
    parts: list[str] = []
    for index, line in enumerate(text.split("\n")):
        parts += ([""] if index else []) + ([line] if line else [])
    return parts


def commands_for(action: Action, elements: Sequence[UIElement] = (),
                 screen_size: tuple[int, int] | None = None) -> list[str]:
    """The shell commands that perform `action` (none for answer, status, wait, unknown).

    A scroll or swipe without an element needs `screen_size` (width, height).
    """
    kind = action.action_type
    if kind == "dual_gesture":
        assert action.touch is not None and action.lift is not None
        (x1, y1), (x2, y2) = gesture_point(action.touch, screen_size), gesture_point(action.lift, screen_size)
        return [f"input tap {x1} {y1}"] if action.is_tap_gesture else [f"input swipe {x1} {y1} {x2} {y2} 300"]
    if kind in ("click", "double_tap", "long_press"):
        x, y = touch_point(action, elements, screen_size)
        if kind == "click":
            return [f"input tap {x} {y}"]
        if kind == "double_tap":
            return [f"input tap {x} {y}", f"input tap {x} {y}"]
        return [f"input swipe {x} {y} {x} {y} 1000"]
    if kind == "input_text":
        typing = [*(_CLEAR if action.clear_text else []), input_text_command(action.text or "")]
        if action.index is None and action.x is None:
            return typing  # into whatever has focus
        x, y = touch_point(action, elements, screen_size)
        return [f"input tap {x} {y}", *typing]
    if kind in ("scroll", "swipe"):
        if action.index is not None:
            box = _element(action, elements).bbox
        elif screen_size is None:
            raise ValueError("a whole-screen scroll needs the screen size")
        else:
            box = BoundingBox(0, 0, *screen_size)
        return [swipe_command(box, action.direction or "down", towards=kind == "swipe")]
    if kind in _KEYS:
        return [f"input keyevent {_KEYS[kind]}"]
    if kind == "open_app":
        try:
            app = apps.get(action.app_name or "")
        except KeyError as error:
            raise ActionError(str(error.args[0])) from None
        return [f"am start -n {shell_quote(app.component)}"]
    if kind == "unknown":  # an agent that could not say what to do: tell it so
        raise ActionError(action.text or "the action was not understood")
    return []


def perform(env: Env, action: Action, elements: Sequence[UIElement] = (),
            screen_size: tuple[int, int] | None = None) -> None:
    """Carry out `action` (one round trip at most, two for a whole-screen scroll when the screen
    size is not given); raises ActionError for an action that cannot be done."""
    if action.action_type == "answer":
        env.submit_answer(action.text or "")
        return
    needs_size = (action.action_type in ("scroll", "swipe") and action.index is None
                  or action.action_type == "dual_gesture" or bool(action.normalized))
    if needs_size and screen_size is None:
        screen_size = env.device.ui.size()
    commands = commands_for(action, elements, screen_size)
    if commands:
        try:
            env.device.check(" && ".join(commands))
        except CommandFailed as error:
            if _NO_IME in error.result.stderr:  # the agent's text needs an input method the phone lacks
                raise ActionError(_NO_IME) from None
            raise
