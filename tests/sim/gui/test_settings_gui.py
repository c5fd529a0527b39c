"""Settings through the simulated GUI: taps on an element's centre (found by its label in the
dumped tree) change what the checks read, the screen shows what is stored, and intents land on
their page; the settings tasks' GUI references are proved in test_gui_references.py."""
from __future__ import annotations

import pytest

from tests.sim.gui.helpers import WIFI, find, tap, texts


def test_home_screen_lists_the_apps_and_opens_settings(device) -> None:
    assert {"Settings", "Contacts", "Markor", "Pro Expense", "Simple SMS Messenger"} <= set(texts(device))
    tap(device, "Settings")
    assert device.activity.foreground() == "com.android.settings/com.android.settings.Settings"
    assert {"Network & internet", "Connected devices", "Display"} <= set(texts(device))


@pytest.mark.parametrize("path, namespace, key, before, after", [
    (("Network & internet", "Internet", WIFI), "global", "wifi_on", "0", "1"),
    (("Network & internet", "Airplane mode"), "global", "airplane_mode_on", "0", "1"),
    (("Connected devices", "Bluetooth", "Use Bluetooth"), "global", "bluetooth_on", "0", "1"),
    (("Display", "Dark theme"), "secure", "ui_night_mode", "1", "2"),
])
def test_a_tap_changes_what_the_checks_read(device, path, namespace, key, before, after) -> None:
    device.settings.put(namespace, key, before)
    device.check("am start -n com.android.settings/.Settings")
    for label in path:
        tap(device, label)
    assert device.settings.get(namespace, key) == after
    elements = device.ui.screen().elements
    row = find(device, path[-1]).bbox
    switch = next(e for e in elements if e.class_name == "android.widget.Switch"
                  and e.bbox.y_min <= row.center[1] <= e.bbox.y_max)
    assert switch.is_checked  # the screen shows the stored state
    device.settings.put(namespace, key, before)  # a write from outside shows at once
    assert not next(e for e in device.ui.screen().elements if e.bbox == switch.bbox).is_checked


def test_sub_pages_run_in_sub_settings_and_back_goes_up(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    tap(device, "Network & internet")
    tap(device, "Internet")
    assert device.activity.foreground() == "com.android.settings/com.android.settings.SubSettings"
    device.check("input keyevent KEYCODE_BACK")
    assert "Airplane mode" in texts(device)
    tap(device, "Navigate up")
    assert device.activity.foreground() == "com.android.settings/com.android.settings.Settings"
    device.check("input keyevent 4")  # BACK by number, from the app's first screen: home
    assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"


def test_the_brightness_slider_sets_the_level(device) -> None:
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    slider = find(device, lambda e: e.class_name == "android.widget.SeekBar")
    device.check(f"input tap {slider.bbox.x_max - 1} {slider.bbox.center[1]}")
    assert device.settings.get("system", "screen_brightness") == "255"
    device.check(f"input swipe {slider.bbox.x_max - 1} {slider.bbox.center[1]} {slider.bbox.x_min} {slider.bbox.center[1]}")
    assert device.settings.get("system", "screen_brightness") == "1"
    assert "0%" in texts(device)


def test_an_intent_opens_its_page_alone_and_back_leaves_it(device) -> None:
    device.check("am start -a android.settings.WIFI_SETTINGS")
    assert device.activity.foreground() == "com.android.settings/com.android.settings.Settings$WifiSettingsActivity"
    assert texts(device)[:2] == ["Internet", WIFI]
    device.check("input keyevent KEYCODE_BACK")
    assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"
    tap(device, "Settings")  # the launcher brings the task back as it was left
    assert texts(device)[:2] == ["Internet", WIFI]
    device.check("am force-stop com.android.settings")
    tap(device, "Settings")  # a new task starts over
    assert "Network & internet" in texts(device)


def test_the_top_level_list_scrolls(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    assert "System" not in texts(device)
    listing = find(device, lambda e: e.is_scrollable)
    x, _ = listing.bbox.center
    device.check(f"input swipe {x} {listing.bbox.y_max - 50} {x} {listing.bbox.y_min + 50} 300")
    assert "System" in texts(device) and "Network & internet" not in texts(device)
    rows = [e for e in device.ui.screen().elements if e.text == "Display"]
    assert all(listing.bbox.y_min <= e.bbox.y_min and e.bbox.y_max <= listing.bbox.y_max for e in rows)
    device.check(f"input swipe {x} {listing.bbox.y_min + 50} {x} {listing.bbox.y_max - 50}")
    assert "Network & internet" in texts(device)
