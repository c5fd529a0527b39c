"""The system settings screens switch: readers and actions over the settings provider.

Shared by the quick-settings shade and the Settings app so both read and write exactly what the
checks read (`global wifi_on` 1 or 2 is on, `global bluetooth_on`, `global airplane_mode_on`,
`secure ui_night_mode` 2 is dark, `system screen_brightness` 1..255).
"""
from __future__ import annotations

from taskkit.sim.gui.node import Action
from taskkit.sim.gui.session import Session

WIFI_ON = ("1", "2")


def toggle(namespace: str, key: str, on: str = "1", off: str = "0", is_on: tuple[str, ...] = ("1",)) -> Action:
    """The action that flips a setting between `on` and `off`."""
    def act(ui: Session) -> None:
        ui.put_setting(namespace, key, off if ui.setting(namespace, key) in is_on else on)
    return act


def is_on(ui: Session, namespace: str, key: str, values: tuple[str, ...] = ("1",)) -> bool:
    return ui.setting(namespace, key) in values


WIFI = toggle("global", "wifi_on", is_on=WIFI_ON)
BLUETOOTH = toggle("global", "bluetooth_on")
AIRPLANE = toggle("global", "airplane_mode_on")
DARK_THEME = toggle("secure", "ui_night_mode", on="2", off="1", is_on=("2",))


def set_brightness(ui: Session, fraction: float) -> None:
    """The brightness sliders' action: `system screen_brightness` from 1 to 255."""
    ui.put_setting("system", "screen_brightness", str(max(1, min(255, round(fraction * 255)))))


def brightness_percent(ui: Session) -> int:
    """The brightness level as the sliders show it (0-100)."""
    level = ui.setting("system", "screen_brightness")
    return round(int(level) * 100 / 255) if level and level.isdigit() else 40
