"""System UI on the simulated screen: the quick-settings shade, the launcher's home screen and
app drawer, BACK/HOME (keys and the gesture bar), long presses, and GUI state that lives in the
state directory (it survives new shell invocations and a re-opened device)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskkit.connect import sim_device
from taskkit.sim import writeback
from taskkit.sim.device import SimDevice
from tests.sim.gui.helpers import find, labels, tap, texts

LAUNCHER = "com.google.android.apps.nexuslauncher"


def pull_shade(device) -> None:
    device.check("input swipe 540 10 540 1400 200")


@pytest.mark.parametrize("tile, namespace, key, before, after, now_on", [
    ("Wi-Fi", "global", "wifi_on", "0", "1", True), ("Wi-Fi", "global", "wifi_on", "2", "0", False),
    ("Bluetooth", "global", "bluetooth_on", "0", "1", True),
    ("Airplane mode", "global", "airplane_mode_on", "1", "0", False),
    ("Dark theme", "secure", "ui_night_mode", "1", "2", True),
])
def test_shade_tiles_write_the_settings_the_checks_read(device, tile, namespace, key, before, after, now_on) -> None:
    device.settings.put(namespace, key, before)
    pull_shade(device)
    switch = find(device, lambda e: e.content_description == tile and e.class_name == "android.widget.Switch")
    assert switch.is_checkable and switch.is_checked == (not now_on)
    tap(device, lambda e: e.content_description == tile)
    assert device.settings.get(namespace, key) == after
    assert find(device, lambda e: e.content_description == tile).is_checked == now_on


def test_the_shade_opens_from_the_top_edge_only_and_closes(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    device.check("input swipe 540 400 540 1400")  # not from the top edge: a list drag
    assert "Bluetooth" not in labels(device)
    pull_shade(device)
    assert {"Wi-Fi", "Bluetooth", "Airplane mode", "Dark theme", "Open settings"} <= set(labels(device))
    assert device.activity.foreground_package() == "com.android.settings"  # the app stays in front
    device.check("input swipe 540 1400 540 200")
    assert "Network & internet" in texts(device)
    for close in ("input keyevent KEYCODE_BACK", "input keyevent KEYCODE_HOME"):
        pull_shade(device)
        device.check(close)
        assert "Open settings" not in labels(device)


def test_shade_brightness_slider_and_settings_button(device) -> None:
    pull_shade(device)
    slider = find(device, "Display brightness")
    device.check(f"input tap {slider.bbox.x_min + slider.bbox.width // 2} {slider.bbox.center[1]}")
    assert device.settings.get("system", "screen_brightness") == "128"
    tap(device, "Open settings")
    assert device.activity.foreground_package() == "com.android.settings"
    assert "Network & internet" in texts(device)


def test_the_app_drawer_lists_the_apps_alphabetically_and_starts_them(device) -> None:
    device.check("input swipe 540 1800 540 700")
    names = [e.text for e in device.ui.screen().elements if e.text and e.content_description == e.text]
    assert names == sorted(names, key=str.casefold) and "Simple SMS Messenger" in names
    device.check("input keyevent KEYCODE_BACK")
    assert texts(device)[1] == "Settings"  # home again: the home screen's order
    device.check("input swipe 540 1800 540 700")
    tap(device, "Contacts")
    assert device.activity.foreground_package() == "com.google.android.contacts"
    device.check("input keyevent KEYCODE_HOME")
    assert device.activity.foreground_package() == LAUNCHER
    assert "Search" in texts(device)  # HOME shows the home screen, not the drawer


def test_gesture_bar_swipe_up_goes_home(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    device.check("input swipe 540 2390 540 1600 150")
    assert device.activity.foreground_package() == LAUNCHER


def test_a_long_press_is_a_hold_without_moving(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    row = find(device, "Display").bbox
    device.check(f"input swipe {row.center[0]} {row.center[1]} {row.center[0] + 3} {row.center[1]} 1000")
    assert "Dark theme" in texts(device)  # a row without a long-click action clicks on release
    device.check("input keyevent KEYCODE_HOME")
    icon = find(device, "Contacts").bbox
    device.check(f"input swipe {icon.center[0]} {icon.center[1]} {icon.center[0]} {icon.center[1]} 1000")
    assert device.activity.foreground_package() == LAUNCHER  # a held icon does not start the app


def test_keys_by_name_and_number_and_unknown_keys(device) -> None:
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact")
    device.check("input keyevent KEYCODE_A 30 KEYCODE_SPACE KEYCODE_1 KEYCODE_DEL KEYCODE_DEL")
    assert find(device, lambda e: e.is_focused).text == "ab"
    device.check("input keyevent KEYCODE_VOLUME_UP 24 KEYCODE_ENTER")  # nothing happens
    assert find(device, lambda e: e.is_focused).text == "ab"
    device.check("input keyevent 3")
    assert device.activity.foreground_package() == LAUNCHER


def test_gui_state_survives_new_invocations_and_a_reopened_device(tmp_path: Path) -> None:
    state = tmp_path / "phone"
    device = sim_device(state)
    device.check("am start -a android.intent.action.SENDTO -d smsto:+12125550134")
    device.check("input text 'half%sa%sthought'")
    device.check("am start -n com.android.settings/.Settings")
    listing = find(device, lambda e: e.is_scrollable)
    device.check(f"input swipe 540 {listing.bbox.y_max - 20} 540 {listing.bbox.y_min + 20}")
    device.close()
    again = sim_device(state)
    try:
        assert "System" in texts(again)  # the scroll offset
        again.check("am start -n com.simplemobiletools.smsmessenger/.activities.ThreadActivity")
        assert "half a thought" in texts(again)  # the typed-but-unsent text, focus kept
        assert find(again, "half a thought").is_focused
        assert (state / "gui.json").is_file()
    finally:
        again.close()


def test_a_force_stopped_app_starts_over(device) -> None:
    device.check("am start -a android.intent.action.SENDTO -d smsto:+12125550134")
    device.check("input text draft")
    device.check("am force-stop com.simplemobiletools.smsmessenger")
    device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
    assert "draft" not in texts(device)
    writeback.write_back(device.state.root)  # (the GUI writes what it holds to gui.json at close and at exit)
    stored = json.loads((device.state.root / "gui.json").read_text())
    assert "draft" not in json.dumps(stored["drafts"])  # its drafts went with its frames


def test_an_intent_is_kept_while_its_task_lives_and_goes_with_it(device) -> None:
    sms = "com.simplemobiletools.smsmessenger"
    device.check("am start -a android.intent.action.SENDTO -d smsto:+12125550134")
    device.check("am start -n com.android.settings/.Settings")

    def intents() -> dict:
        writeback.write_back(device.state.root)
        return json.loads((device.state.root / "gui.json").read_text())["intents"]

    assert intents()[sms]["data"] == "smsto:+12125550134"  # its task is in the back, the intent stays
    device.check(f"am force-stop {sms}")
    device.check("input keyevent KEYCODE_HOME")
    assert sms not in intents()  # the task went: no later task can take its intent
    device.check(f"am start -n {sms}/.activities.MainActivity")
    assert "+12125550134" not in texts(device)  # a new task starts at the app's first screen


def test_a_bare_device_has_no_screen() -> None:
    bare = SimDevice()
    try:
        assert bare.shell("uiautomator dump").exit_code == 127
        assert bare.shell("input tap 10 10").exit_code == 0
        assert not (bare.state.root / "gui.json").exists()
    finally:
        bare.close()


def test_a_damaged_gui_state_file_starts_the_gui_over(device) -> None:
    device.check("am start -a android.intent.action.SENDTO -d smsto:+12125550134")
    writeback.write_back(device.state.root)
    path = device.state.root / "gui.json"
    data = json.loads(path.read_text())
    data["apps"]["com.simplemobiletools.smsmessenger"]["frames"] = [{"screen": 3}]
    data["drafts"], data["intents"] = [], {"com.android.settings": {"seq": "x"}}
    path.write_text(json.dumps(data))
    assert device.shell("uiautomator dump /dev/tty").exit_code == 0
    path.write_text("{not json")
    device.check("input keyevent KEYCODE_HOME")
    assert "Settings" in texts(device)
