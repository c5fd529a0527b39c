"""taskkit.apps.settings: typed toggles read and written through the device's settings commands."""
from __future__ import annotations

import pytest

from taskkit.apps import settings


def test_app_registration():
    assert settings.APP.component == "com.android.settings/.Settings"
    assert settings.APP.settings == ("global", "system", "secure")
    assert settings.APP.data_paths == ()


class _FakeSettings:
    """Answers `get` from a dict: enough to test how values are interpreted."""

    def __init__(self, values):
        self.values = values

    def get(self, namespace, key):
        return self.values.get((namespace, key))


class _FakeDevice:
    def __init__(self, values):
        self.settings = _FakeSettings(values)


@pytest.mark.parametrize("value, on", [("0", False), ("1", True), ("2", True), ("3", False), (None, False)])
def test_wifi_counts_1_and_2_as_on(value, on):
    assert settings.wifi_on(_FakeDevice({("global", "wifi_on"): value})) is on


@pytest.mark.parametrize("value, on", [("0", False), ("1", True), ("2", False), (None, False)])
def test_bluetooth_counts_only_1_as_on(value, on):
    assert settings.bluetooth_on(_FakeDevice({("global", "bluetooth_on"): value})) is on


@pytest.mark.parametrize("value, dark", [("0", False), ("1", False), ("2", True), ("3", False), ("null", False)])
def test_dark_mode_is_night_mode_2(value, dark):
    assert settings.dark_mode_on(_FakeDevice({("secure", "ui_night_mode"): value})) is dark


def test_brightness_is_an_int():
    assert settings.brightness(_FakeDevice({("system", "screen_brightness"): "102"})) == 102


@pytest.mark.parametrize("value", [0, 256, -1])
def test_set_brightness_refuses_out_of_range_values(value):
    with pytest.raises(ValueError, match="brightness"):
        settings.set_brightness(_FakeDevice({}), value)


# --- against the simulator ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "set_on, is_on",
    [
        (settings.set_wifi, settings.wifi_on),
        (settings.set_bluetooth, settings.bluetooth_on),
        (settings.set_airplane_mode, settings.airplane_mode_on),
        (settings.set_dark_mode, settings.dark_mode_on),
    ],
    ids=["wifi", "bluetooth", "airplane", "dark"],
)
def test_toggle_round_trip(device, set_on, is_on):
    initial = is_on(device)
    for value in (not initial, initial, True, True, False):
        set_on(device, value)
        assert is_on(device) is value


def test_fresh_device_defaults(device):
    assert settings.wifi_on(device) and not settings.bluetooth_on(device)
    assert not settings.airplane_mode_on(device) and not settings.dark_mode_on(device)


def test_brightness_round_trip(device):
    for value in (1, 77, 255):
        settings.set_brightness(device, value)
        assert settings.brightness(device) == value
