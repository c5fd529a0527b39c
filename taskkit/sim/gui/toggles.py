"""The system settings screens switch: readers and actions over the settings provider.

Shared by the quick-settings shade and the Settings app so both read and write exactly what the
checks read (`global wifi_on` 1 or 2 is on, `global bluetooth_on`, `global airplane_mode_on`,
`secure ui_night_mode` 2 is dark, `system screen_brightness` 1..255), and log what Android's
services log for those changes (taskkit/sim/gui/syslog.py; docs/sim-device.md's table).
"""
from __future__ import annotations

from typing import Callable

from taskkit.device.catalog import get as get_package
from taskkit.sim.gui import syslog
from taskkit.sim.gui.node import Action
from taskkit.sim.gui.session import Session

WIFI_ON = ("1", "2")
SYSTEMUI = "com.android.systemui"  # the quick-settings tiles' caller


def write(ui: Session, namespace: str, key: str, value: str) -> None:
    """Write a setting as a screen does: the value, then SettingsProvider's change line."""
    ui.put_setting(namespace, key, value)
    syslog.setting_changed(ui.state, namespace, key, value)


def toggle(namespace: str, key: str, on: str = "1", off: str = "0", is_on: tuple[str, ...] = ("1",),
           then: "Callable[[Session, bool], None] | None" = None) -> Action:
    """The action that flips a setting between `on` and `off` (`then(ui, now_on)` runs after)."""
    def act(ui: Session) -> None:
        now_on = ui.setting(namespace, key) not in is_on
        write(ui, namespace, key, on if now_on else off)
        if then is not None:
            then(ui, now_on)
    return act


def wifi_toggle(package: str, uid: int) -> Action:
    """Wi-Fi's switch as `package` flips it: WifiManager.setWifiEnabled, logged with the caller."""
    return toggle("global", "wifi_on", is_on=WIFI_ON,
                  then=lambda ui, on: syslog.wifi_enabled(ui.state, package, uid, on))


def is_on(ui: Session, namespace: str, key: str, values: tuple[str, ...] = ("1",)) -> bool:
    return ui.setting(namespace, key) in values


WIFI = wifi_toggle(SYSTEMUI, get_package(SYSTEMUI).uid)  # type: ignore[union-attr]
BLUETOOTH = toggle("global", "bluetooth_on")
AIRPLANE = toggle("global", "airplane_mode_on", then=lambda ui, on: syslog.airplane_mode(ui.state, on))
DARK_THEME = toggle("secure", "ui_night_mode", on="2", off="1", is_on=("2",))


def set_brightness(ui: Session, fraction: float) -> None:
    """The brightness sliders' action: `system screen_brightness` from 1 to 255."""
    level = max(1, min(255, round(fraction * 255)))
    write(ui, "system", "screen_brightness", str(level))
    syslog.brightness_changed(ui.state, level)


def brightness_percent(ui: Session) -> int:
    """The brightness level as the sliders show it (0-100)."""
    level = ui.setting("system", "screen_brightness")
    return round(int(level) * 100 / 255) if level and level.isdigit() else 40
