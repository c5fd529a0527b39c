"""docs/sim-gui.md's slider table is what the sliders do: each row's setting, range and default
are the model's, and a tap at `L / maximum` of a slider's width sets level L, for every level."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from taskkit.apps.settings import bmoca
from taskkit.sim.gui import volumes
from tests.sim.gui.helpers import find

DOC = Path(__file__).resolve().parents[3] / "docs" / "sim-gui.md"
BRIGHTNESS = ("system", "screen_brightness", 1, 255)


def _rows() -> dict[str, tuple[str, str, int, int, int]]:
    """slider title -> (namespace, key, minimum, maximum, default) as the table states them."""
    pattern = re.compile(r"^\| ([^|]+) \| [^|]+ \| `(\w+) (\w+)` \| (\d+)–(\d+) \| (\d+) \| `at=\(L/(\d+), 0\.5\)` \|$")
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if match := pattern.match(line):
            title, ns, key, low, high, default, divisor = match.groups()
            assert divisor == high, line
            rows[title] = (ns, key, int(low), int(high), int(default))
    return rows


def test_the_table_states_the_models_ranges_and_defaults() -> None:
    rows = _rows()
    for stream in volumes.STREAMS:
        assert rows[stream.title] == ("system", stream.key, stream.minimum, stream.maximum, stream.default)
    assert rows["Brightness level"][:4] == rows["Display brightness"][:4] == BRIGHTNESS


def _tap_at_level(device, title: str, level: int, maximum: int) -> None:
    slider = find(device, lambda e: e.content_description == title and e.class_name == "android.widget.SeekBar")
    x = slider.bbox.x_min + round(level / maximum * (slider.bbox.x_max - slider.bbox.x_min - 1))  # bounds: [left, right)
    device.check(f"input tap {x} {slider.bbox.center[1]}")


def test_a_tap_at_level_over_maximum_sets_that_level_for_every_volume(device) -> None:
    bmoca.press_settings(device, ["Sound & vibration"], home=False)
    for title, (ns, key, low, high, _) in _rows().items():
        if key == "screen_brightness":
            continue
        for level in range(low, high + 1):
            _tap_at_level(device, title, level, high)
            assert device.settings.get(ns, key) == str(level), (title, level)


@pytest.mark.parametrize("level", [1, 2, 102, 254, 255])
def test_the_brightness_slider_follows_the_same_rule(device, level) -> None:
    assert device.settings.get("system", "screen_brightness") == str(_rows()["Brightness level"][4])  # the default
    bmoca.press_settings(device, ["Display"], home=False)
    _tap_at_level(device, "Brightness level", level, 255)
    assert device.settings.get("system", "screen_brightness") == str(level)
