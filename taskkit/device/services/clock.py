"""The device clock through `date`.

The device runs in UTC (AndroidWorld's setup: `persist.sys.timezone` UTC), so `set` writes the
UTC wall time with the `MMDDhhmmCCYY.ss` form every Android `date` accepts. Setting the clock
needs root; without it `set` raises `CommandFailed`.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING

from taskkit.device.quoting import shell_join

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

BUILD_EPOCH = "date +%s"


def build_set(when: datetime) -> str:
    """`date MMDDhhmmCCYY.ss` for the aware datetime `when`, written in UTC."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("Clock.set needs an aware datetime (e.g. tzinfo=timezone.utc)")
    utc = when.astimezone(timezone.utc)
    stamp = f"{utc.month:02d}{utc.day:02d}{utc.hour:02d}{utc.minute:02d}{utc.year:04d}.{utc.second:02d}"
    return shell_join(["date", stamp])


def parse_epoch(stdout: str) -> int:
    """The integer printed by `date +%s`."""
    text = stdout.strip()
    if not text.lstrip("-").isdigit():
        raise ValueError(f"date +%s printed {stdout!r}, not an integer")
    return int(text)


class Clock:
    """Read and set the device's wall clock."""

    def __init__(self, device: "Device"):
        self.device = device

    def epoch(self) -> int:
        """Seconds since the epoch on the device."""
        return parse_epoch(self.device.check(BUILD_EPOCH))

    def now_ms(self) -> int:
        """Milliseconds since the epoch, at the one-second precision of `date +%s`."""
        return self.epoch() * 1000

    def now(self) -> datetime:
        """The device time as an aware UTC datetime."""
        return datetime.fromtimestamp(self.epoch(), timezone.utc)

    def set(self, when: datetime) -> None:
        """Set the device clock to `when` (whole seconds; needs root)."""
        self.device.run(build_set(when))
