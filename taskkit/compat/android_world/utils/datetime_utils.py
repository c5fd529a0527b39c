"""`android_world.utils.datetime_utils`: the device's date, time and time zone, and random dates
around AndroidWorld's fixed day (October 15 2023)."""
from __future__ import annotations

import datetime
import enum
import random
import zoneinfo
from typing import Any

from taskkit.compat.android_world.env import adb_utils, device_constants
from taskkit.compat.android_world._device import device_of


def timestamp_to_localized_datetime(timestamp: int, timezone: str = device_constants.TIMEZONE) -> datetime.datetime:
    """The UNIX time (seconds) in the time zone."""
    return datetime.datetime.fromtimestamp(timestamp, tz=datetime.timezone.utc).astimezone(zoneinfo.ZoneInfo(timezone))


def _create_unix_ts(*, day: int, hour: int, month: int = device_constants.DT.month,
                    year: int = device_constants.DT.year, timezone: str = device_constants.TIMEZONE) -> int:
    return int(datetime.datetime(year, month, day, hour, tzinfo=zoneinfo.ZoneInfo(timezone)).timestamp())


def create_random_october_2023_unix_ts(start_day: int = device_constants.DT.day, end_day: int = 31,
                                       start_hour: int = 0) -> int:
    """A random whole hour of October 2023 between the days given (inclusive)."""
    return _create_unix_ts(day=random.randint(start_day, end_day), hour=random.randint(start_hour, 23))


def generate_random_datetime(window_size: datetime.timedelta = datetime.timedelta(days=14),
                             window_center: datetime.datetime = device_constants.DT) -> datetime.datetime:
    """A random minute in the window of `window_size` centred on `window_center`."""
    start = window_center - window_size / 2
    return start + datetime.timedelta(minutes=random.randrange(window_size.days * 24 * 60))


class Toggle(enum.Enum):
    ON = "1"
    OFF = "0"


def toggle_auto_settings(env: Any, toggle: Toggle) -> None:
    """Automatic date, time and time zone on or off."""
    for key in ("auto_time", "auto_time_zone"):
        adb_utils.put_settings("global", key, toggle.value, env)


def setup_datetime(env: Any) -> None:
    """No network time, a 24-hour clock and UTC: the same clock for every run."""
    toggle_auto_settings(env, Toggle.OFF)
    adb_utils.put_settings("system", "time_12_24", "24", env)
    device_of(env).props.set("persist.sys.timezone", "UTC")


def set_datetime(env: Any, dt: datetime.datetime) -> None:
    device_of(env).clock.set(dt if dt.tzinfo else dt.replace(tzinfo=datetime.timezone.utc))


def advance_system_time(delta: datetime.timedelta, env: Any) -> None:
    clock = device_of(env).clock
    clock.set(clock.now() + delta)
