"""Settings: typed readers and writers for the system toggles tasks change.

Readers interpret the settings provider as AndroidWorld does (reference android-apps.md §5.1):
Wi-Fi counts as on at 1 or 2, Bluetooth only at 1, dark mode is `ui_night_mode` 2. Writers use
the commands a rooted device offers (`svc`, `cmd uimode`, `settings put`). The app has no data
of its own to reset: tasks restore settings from their snapshot.
"""
from __future__ import annotations

from taskkit.apps.base import App
from taskkit.device.base import Device
from taskkit.device.quoting import shell_join

PACKAGE = "com.android.settings"
NAMESPACES = ("global", "system", "secure")

BRIGHTNESS_MIN, BRIGHTNESS_MAX = 1, 255
NIGHT_MODE_DARK = 2


def _int(device: Device, namespace: str, key: str, default: int = 0) -> int:
    """The setting as an int (`default` when unset)."""
    value = device.settings.get(namespace, key)
    if value is None or value in ("", "null"):
        return default
    return int(float(value))


def _run(device: Device, *words: str) -> None:
    device.check(shell_join(list(words)))


def wifi_on(device: Device) -> bool:
    """Wi-Fi is on: `global wifi_on` is 1, or 2 (on, overriding airplane mode)."""
    return _int(device, "global", "wifi_on") in (1, 2)


def set_wifi(device: Device, on: bool) -> None:
    """`svc wifi enable|disable`."""
    _run(device, "svc", "wifi", "enable" if on else "disable")


def bluetooth_on(device: Device) -> bool:
    """Bluetooth is on: `global bluetooth_on` is exactly 1."""
    return _int(device, "global", "bluetooth_on") == 1


def set_bluetooth(device: Device, on: bool) -> None:
    """`svc bluetooth enable|disable`."""
    _run(device, "svc", "bluetooth", "enable" if on else "disable")


def brightness(device: Device) -> int:
    """`system screen_brightness`, 0–255."""
    return _int(device, "system", "screen_brightness")


def set_brightness(device: Device, value: int) -> None:
    """Set `system screen_brightness` (1–255)."""
    if not BRIGHTNESS_MIN <= int(value) <= BRIGHTNESS_MAX:
        raise ValueError(f"brightness must be {BRIGHTNESS_MIN}-{BRIGHTNESS_MAX}, got {value}")
    device.settings.put("system", "screen_brightness", str(int(value)))


def airplane_mode_on(device: Device) -> bool:
    """`global airplane_mode_on` is 1."""
    return _int(device, "global", "airplane_mode_on") == 1


def set_airplane_mode(device: Device, on: bool) -> None:
    """Write `global airplane_mode_on` (AndroidWorld writes only the key)."""
    device.settings.put("global", "airplane_mode_on", "1" if on else "0")


def dark_mode_on(device: Device) -> bool:
    """`secure ui_night_mode` is 2 (dark)."""
    return _int(device, "secure", "ui_night_mode") == NIGHT_MODE_DARK


def set_dark_mode(device: Device, on: bool) -> None:
    """`cmd uimode night yes|no`."""
    _run(device, "cmd", "uimode", "night", "yes" if on else "no")


APP = App(
    name="settings",
    package=PACKAGE,
    settings=NAMESPACES,
    aliases=("system",),
)
