"""Clock (Google's DeskClock, `com.google.android.deskclock`): alarms, timer keypad and stopwatch.

Package and launcher activity: `com.android.deskclock.DeskClock` (AOSP packages/apps/DeskClock
AndroidManifest.xml). AndroidWorld's clock tasks read the app's screen (the timer keypad's
"00h 00m 00s", the stopwatch's Start / Pause / Lap buttons) because the keypad's entry lives
only on the screen; taskkit's clock tasks do the same through `screen_state`, which works over
adb on a phone as on the simulated device. The alarms are rows of `alarms.db` (`alarms`
module). `reset` is AndroidWorld's: clear the app's data (`pm clear`), which also closes it, so
the stopwatch is back at zero and paused and `alarms.db` holds only the app's two default alarms.
"""
from __future__ import annotations

import dataclasses
import re

from taskkit.apps.base import App
from taskkit.apps.clock import alarms
from taskkit.device.base import Device

PACKAGE = alarms.PACKAGE
TABS = ("Alarm", "Clock", "Timer", "Stopwatch")


def timer_text(hours: int, minutes: int, seconds: int) -> str:
    """The timer keypad's display: "01h 05m 09s"."""
    return f"{hours:02d}h {minutes:02d}m {seconds:02d}s"


def _count(value: int, unit: str) -> str:
    return f"{value} {unit}" if value == 1 else f"{value} {unit}s"


def timer_description(hours: int, minutes: int, seconds: int) -> str:
    """What TalkBack reads for the display: "1 hour, 5 minutes, 9 seconds"."""
    return ", ".join((_count(hours, "hour"), _count(minutes, "minute"), _count(seconds, "second")))


def keypad_digits(hours: int, minutes: int, seconds: int) -> str:
    """The keys that enter the time (leading zeros are ignored by the keypad)."""
    return f"{hours:02d}{minutes:02d}{seconds:02d}".lstrip("0")


@dataclasses.dataclass(frozen=True)
class ScreenState:
    """What the clock's screen shows, read from its elements."""

    in_front: bool
    timer_setup: str | None  # the keypad's display text, when the timer keypad shows
    stopwatch_tab: bool  # the Stopwatch tab is the selected one
    stopwatch_running: bool  # Pause and Lap are on the screen
    stopwatch_paused: bool  # Start is on the screen with the Stopwatch tab open


def screen_state(device: Device) -> ScreenState:
    """The clock's screen now (one round trip)."""
    screen = device.ui.screen()
    in_front = bool(screen.foreground) and screen.foreground.split("/")[0] == PACKAGE
    descriptions = {e.content_description for e in screen.elements if e.content_description}
    setup = next((e.text for e in screen.elements if (e.resource_name or "").endswith(":id/timer_setup_time")), None)
    tab = any(e.is_selected and e.content_description == "Stopwatch" for e in screen.elements)
    running = {"Pause", "Lap"} <= descriptions and tab
    return ScreenState(in_front, setup if in_front else None, in_front and tab, in_front and running,
                       in_front and tab and "Start" in descriptions)


def parse_timer_text(text: str) -> tuple[int, int, int] | None:
    match = re.fullmatch(r"(\d\d)h (\d\d)m (\d\d)s", text or "")
    return tuple(int(g) for g in match.groups()) if match else None  # type: ignore[return-value]


def reset(device: Device) -> None:
    """Clear the app's data, as AndroidWorld does before and after each clock task."""
    device.packages.clear(PACKAGE)


APP = App(name="clock", package=PACKAGE, aliases=("deskclock",), reset=reset, data_paths=(alarms.DB_DIR,),
          databases=(alarms.DATABASE,), tables=(alarms.ALARMS, alarms.INSTANCES))
