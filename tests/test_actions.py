"""Agent actions become Android shell commands; element indices resolve against the last screen."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit.actions import ActionError, commands_for, input_text_command
from taskkit.agents import Action
from taskkit.device.services.ui import BoundingBox, UIElement

SCREEN = (
    UIElement(text="Wi-Fi", class_name="android.widget.TextView", bbox=BoundingBox(0, 200, 1080, 300), is_clickable=True),
    UIElement(class_name="android.widget.EditText", bbox=BoundingBox(100, 400, 900, 500), is_editable=True),
    UIElement(class_name="androidx.recyclerview.widget.RecyclerView", bbox=BoundingBox(0, 600, 1080, 1600),
              is_scrollable=True),
    UIElement(text="gone", bbox=BoundingBox(10, 10, 10, 10)),
)


@pytest.mark.parametrize(
    "action, commands",
    [
        (Action("click", x=5, y=7), ["input tap 5 7"]),
        (Action("click", index=0), ["input tap 540 250"]),
        (Action("double_tap", index=0), ["input tap 540 250", "input tap 540 250"]),
        (Action("long_press", x=5, y=7), ["input swipe 5 7 5 7 1000"]),
        (Action("long_press", index=1), ["input swipe 500 450 500 450 1000"]),
        (Action("input_text", text="it's here"), ["input text 'it'\\''s%shere'"]),
        (Action("input_text", index=1, text="50% off"), ["input tap 500 450", "input text 50%%soff"]),
        (Action("input_text", index=1, text="new", clear_text=True),  # AndroidWorld's Ctrl+A, DEL
         ["input tap 500 450", "input keycombination 113 29", "input keyevent 67", "input text new"]),
        (Action("navigate_home"), ["input keyevent KEYCODE_HOME"]),
        (Action("navigate_back"), ["input keyevent KEYCODE_BACK"]),
        (Action("open_app", app_name="Markor"), ["am start -n net.gsantner.markor/.activity.MainActivity"]),
        (Action("scroll", direction="down"), ["input swipe 540 1200 540 0 300"]),  # AndroidWorld's: centre to edge
        (Action("scroll", index=2, direction="down"), ["input swipe 540 1100 540 600 300"]),
        (Action("scroll", index=2, direction="left"), ["input swipe 540 1100 1080 1100 300"]),
        (Action("swipe", direction="down"), ["input swipe 540 480 540 1920 300"]),
        (Action("wait"), []),
        (Action("answer", text="x"), []),
    ],
)
def test_commands_for(action, commands):
    assert commands_for(action, SCREEN, (1080, 2400)) == commands


@pytest.mark.parametrize("size, command", [((1080, 2400), "input swipe 540 1200 540 0 300"),
                                           ((1200, 800), "input swipe 600 400 600 0 300"),
                                           ((720, 1280), "input swipe 360 640 360 0 300")])
def test_whole_screen_scrolls_follow_the_screen_size(size, command):
    assert commands_for(Action("scroll", direction="down"), SCREEN, size) == [command]


def test_the_runner_scrolls_within_the_devices_real_size(env):
    """On a 1200x800 tablet config a whole-screen scroll starts and ends on the screen."""
    from taskkit.actions import perform

    env.device.run("wm size 1200x800")
    screen = env.device.ui.screen()
    assert screen.size == (1200, 800)
    sent: list[str] = []
    check = env.device.check
    env.device.check = lambda command: sent.append(command) or check(command)
    perform(env, Action("scroll", direction="down"), screen.elements, screen.size)
    perform(env, Action("scroll", direction="up"))  # no size given: read from the device
    assert sent[0] == "input swipe 600 400 600 0 300"
    assert sent[-1] == "input swipe 600 400 600 800 300" and sent[-2] == "wm size"


@pytest.mark.parametrize("action, message", [
    (Action("click", index=4), "index 4 is out of range: the screen has 4 element"),
    (Action("click", index=3), "element 3 has no area"),
    (Action("click"), "needs an element index or x and y"),
    (Action("open_app", app_name="nope"), "unknown app 'nope'"),
    (Action("input_text", index=1, text=""), "input_text needs text"),
    (Action("unknown", text="model said nothing useful"), "model said nothing useful"),
])
def test_bad_actions_are_reported_to_the_agent(action, message):
    with pytest.raises(ActionError, match=message):
        commands_for(action, SCREEN, (1080, 2400))


@pytest.mark.parametrize("text", ["café", "100%s"])
def test_text_input_text_cannot_carry_goes_to_the_ime(text):
    """`input text` carries printable ASCII only and reads '%s' as a space: such text is typed
    through ADBKeyboard instead (tests/sim/gui/test_ime.py types it end to end)."""
    tap, typing = commands_for(Action("input_text", index=1, text=text), SCREEN, (1080, 2400))
    assert tap.startswith("input tap ") and "ADB_INPUT_B64" in typing and "input text" not in typing


def test_a_new_line_is_typed_as_enter_as_android_world_types_it():
    """AndroidWorld's input_text presses ENTER for each new line (adb_utils.type_text), so a text of
    several lines is one action with no input method needed."""
    assert input_text_command("a b\nc\n\nd") == ("input text a%sb && input keyevent KEYCODE_ENTER && input text c && "
                                                  "input keyevent KEYCODE_ENTER && input keyevent KEYCODE_ENTER && input text d")


def test_an_index_needs_the_screen_it_was_chosen_from():
    with pytest.raises(ActionError, match="the screen has 0 element"):
        commands_for(Action("click", index=0), ())


TYPABLE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=60)


def android_decode(argument: str) -> str:
    """What Android's `input text` types for `argument` (AOSP InputShellCommand.sendText: a '%'
    followed by 's' is one space; the scan restarts at the character after a '%')."""
    chars, escape, i = list(argument), False, 0
    while i < len(chars):
        if escape:
            escape = False
            if chars[i] == "s":
                chars[i] = " "
                del chars[i - 1]
                i -= 1
        if chars[i] == "%":
            escape = True
        i += 1
    return "".join(chars)


@given(TYPABLE.filter(lambda text: "%s" not in text))
def test_input_text_reaches_the_device_exactly(module_device, text):
    """What the device's `input text` receives, decoded as Android decodes it, is the text."""
    argument = input_text_command(text)[len("input text "):]
    received = module_device.check(f"printf %s {argument}")  # the argument after the shell
    assert android_decode(received) == text




def test_normalized_coordinates_land_on_the_devices_own_pixels():
    """AndroidLens' 0..1000 coordinates, onto the size the observation read (not a constant)."""
    assert commands_for(Action("click", x=500, y=500, normalized=True), (), (1080, 2400)) == ["input tap 540 1200"]
    assert commands_for(Action("click", x=1000, y=0, normalized=True), (), (1200, 800)) == ["input tap 1199 0"]
    with pytest.raises(ValueError, match="normalized coordinates run from 0 to 1000"):
        Action("click", x=1001, y=5, normalized=True)


@pytest.mark.parametrize("touch, lift, command", [
    ((0.0, 0.0), (0.1, 0.0), "input tap 540 1200"),  # closer than 0.14: a tap at the touch point
    ((0.0, 0.5), (0.0, -0.5), "input swipe 540 1799 540 600 300"),
    ((-1.0, 1.0), (1.0, 1.0), "input swipe 0 2399 1079 2399 300"),
])
def test_a_dual_gesture_is_a_tap_or_a_swipe_as_b_moca_reads_it(touch, lift, command):
    assert commands_for(Action.from_dict({"action_type": "dual_gesture", "touch": touch, "lift": lift}),
                        (), (1080, 2400)) == [command]


@pytest.mark.parametrize("text, action", [
    ("I see the switch, so tap(2)", Action("click", index=2)),
    ("swipe('UP')", Action("swipe", direction="up")),
    ("press(HOME) then press(back)", Action("navigate_back")),
    ("press(OVERVIEW)", Action("navigate_recents")),
])
def test_b_mocas_text_actions_parse(text, action):
    assert Action.from_text(text) == action


def test_a_dual_gesture_outside_the_square_is_refused():
    with pytest.raises(ValueError, match=r"touch must be two numbers in \[-1, 1\]"):
        Action.from_dict({"action_type": "dual_gesture", "touch": [2, 0], "lift": [0, 0]})
