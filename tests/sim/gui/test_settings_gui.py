"""The simulated device's GUI, as an agent uses it: dumps name the visible elements, taps on an
element's centre change what the checks read, screenshots show the screen, navigation works —
in process and over stock adb — and GUI-only reference solutions score 1.0 (near misses less)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taskkit import loading, registry, suite
from taskkit.agents import Action, Agent, Observation
from taskkit.connect import sim_device
from taskkit.device.services.ui import parse_window_dump
from taskkit.env import Env
from taskkit.runner import run_episode

WIFI = "Wi\u2011Fi"


@pytest.fixture
def device():
    phone = sim_device()
    yield phone
    phone.close()


def tap(device, text: str) -> None:
    element = next(e for e in device.ui.screen().elements if e.text == text or e.content_description == text)
    device.check("input tap %d %d" % element.bbox.center)


def texts(device) -> list[str]:
    return [e.text for e in device.ui.screen().elements if e.text]


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
    for text in path:
        tap(device, text)
    assert device.settings.get(namespace, key) == after
    elements = device.ui.screen().elements
    row = next(e for e in elements if e.text == path[-1]).bbox
    switch = next(e for e in elements if e.class_name == "android.widget.Switch"
                  and e.bbox.y_min <= row.center[1] <= e.bbox.y_max)
    assert switch.is_checked  # the screen shows the stored state


def test_the_brightness_slider_sets_the_level(device) -> None:
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    slider = next(e for e in device.ui.screen().elements if e.class_name == "android.widget.SeekBar")
    device.check(f"input tap {slider.bbox.x_max - 1} {slider.bbox.center[1]}")
    assert device.settings.get("system", "screen_brightness") == "255"
    device.check(f"input swipe {slider.bbox.x_max - 1} {slider.bbox.center[1]} {slider.bbox.x_min} {slider.bbox.center[1]}")
    assert device.settings.get("system", "screen_brightness") == "1"
    assert "0%" in texts(device)


def test_back_home_and_intents(device) -> None:
    device.check("am start -a android.settings.WIFI_SETTINGS")
    assert texts(device)[:2] == ["Internet", WIFI]
    device.check("input keyevent KEYCODE_BACK")
    assert "Airplane mode" in texts(device)
    device.check("input keyevent KEYCODE_BACK")
    assert "Connected devices" in texts(device)
    device.check("input keyevent KEYCODE_HOME")
    assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"


def test_dump_command_and_screencap(device) -> None:
    assert device.check("uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    home = device.exec_out("screencap -p")
    device.check("am start -n com.android.settings/.Settings")
    settings = device.exec_out("screencap -p")
    assert home.startswith(b"\x89PNG\r\n\x1a\n") and settings.startswith(b"\x89PNG\r\n\x1a\n") and home != settings
    from PIL import Image
    import io

    assert Image.open(io.BytesIO(settings)).size == (1080, 2400)
    assert device.exec_out("screencap -p") == settings  # the same state, the same bytes


class GuiScript(Agent):
    """A GUI-only reference solution: taps elements found by their text, never a fixed point."""

    name = "gui-script"

    def __init__(self, texts: list[str]):
        self.texts = texts

    def step(self, observation: Observation) -> Action:
        if observation.step < len(self.texts):
            wanted = self.texts[observation.step]
            for index, element in enumerate(observation.ui_elements):
                if wanted in (element.text, element.content_description):
                    return Action("click", index=index)
            raise AssertionError(f"{wanted!r} is not on the screen: {observation.describe_elements()}")
        return Action("status", goal_status="complete")


GUI_SOLUTIONS = {
    "SystemWifiTurnOn": ["Settings", "Network & internet", "Internet", WIFI],
    "SystemAirplaneModeOn": ["Settings", "Network & internet", "Airplane mode"],
    "SystemBluetoothTurnOn": ["Settings", "Connected devices", "Bluetooth", "Use Bluetooth"],
    "SystemDarkModeOn": ["Settings", "Display", "Dark theme"],
}


@pytest.mark.parametrize("task", sorted(GUI_SOLUTIONS))
def test_gui_reference_solutions_score_one_and_near_misses_less(device, task: str) -> None:
    loading.load_builtin()
    env = Env(device)
    for seed_index in range(3):
        instance = suite.instantiate(registry.get(task), 30, seed_index)
        result = run_episode(env, instance, GuiScript(GUI_SOLUTIONS[task]), 30)
        assert result.error is None and result.score == 1.0, result
        near = run_episode(env, instance, GuiScript(GUI_SOLUTIONS[task][:-1]), 30)  # the last tap skipped
        assert near.error is None and near.score < 1.0


@pytest.mark.skipif(shutil.which("adb") is None, reason="Debian's adb is not installed")
def test_over_stock_adb(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from check_cost import Link

    link = Link(tmp_path / "device")
    adb = ["adb", "-P", str(link.adb_port), "-s", f"127.0.0.1:{link.server.port}"]
    try:
        run = lambda *args: subprocess.run([*adb, *args], capture_output=True, timeout=60, env=link.env)  # noqa: E731
        assert run("shell", "settings", "put", "global", "wifi_on", "0").returncode == 0
        assert run("shell", "am", "start", "-a", "android.settings.WIFI_SETTINGS").returncode == 0
        assert b"UI hierchary dumped to" in run("shell", "uiautomator", "dump").stdout
        assert run("pull", "/sdcard/window_dump.xml", str(tmp_path / "dump.xml")).returncode == 0
        elements = parse_window_dump((tmp_path / "dump.xml").read_text())
        row = next(e for e in elements if e.text == WIFI)
        assert run("shell", "input", "tap", *map(str, row.bbox.center)).returncode == 0
        assert run("shell", "settings", "get", "global", "wifi_on").stdout.strip() == b"1"
        png = run("exec-out", "screencap", "-p").stdout
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    finally:
        link.close()
