"""The simulated device's local time: its zone (`persist.sys.timezone`) and bionic's strftime,
as `date`, logcat and the screens print it."""
from __future__ import annotations

import functools
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from taskkit.sim.state import SimState


@functools.lru_cache(maxsize=32)
def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone(timedelta(0), "GMT")  # bionic falls back to GMT for unknown zones


def zone_name(state: SimState) -> str:
    """The name of the device's local time zone: `persist.sys.timezone` (UTC when unset)."""
    return state.config["props"].get("persist.sys.timezone") or "UTC"


def device_zone(state: SimState) -> tzinfo:
    """The device's local time zone, from `persist.sys.timezone` (UTC when unset)."""
    return _zone(zone_name(state))


def local_time(state: SimState, epoch: int | None = None, utc: bool = False) -> datetime:
    """The aware datetime of `epoch` (default: the device clock) in the device's zone."""
    zone = _zone("UTC") if utc else device_zone(state)
    return datetime.fromtimestamp(state.clock_epoch if epoch is None else epoch, zone)


_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
DEFAULT_DATE_FORMAT = "%a %b %e %H:%M:%S %Z %Y"
_COMPOSITE = {"c": "%a %b %e %H:%M:%S %Y", "D": "%m/%d/%y", "F": "%Y-%m-%d", "T": "%H:%M:%S",
              "R": "%H:%M", "r": "%I:%M:%S %p", "x": "%m/%d/%y", "X": "%H:%M:%S",
              "+": DEFAULT_DATE_FORMAT}


_NUMBERS: dict[str, Callable[[datetime], tuple[int, int, str]]] = {  # (value, width, default pad)
    "d": lambda w: (w.day, 2, "0"), "e": lambda w: (w.day, 2, " "), "H": lambda w: (w.hour, 2, "0"),
    "k": lambda w: (w.hour, 2, " "), "I": lambda w: (w.hour % 12 or 12, 2, "0"),
    "l": lambda w: (w.hour % 12 or 12, 2, " "), "M": lambda w: (w.minute, 2, "0"),
    "S": lambda w: (w.second, 2, "0"), "m": lambda w: (w.month, 2, "0"), "y": lambda w: (w.year % 100, 2, "0"),
    "Y": lambda w: (w.year, 0, "0"), "C": lambda w: (w.year // 100, 2, "0"),
    "j": lambda w: (w.timetuple().tm_yday, 3, "0"), "u": lambda w: (w.isocalendar()[2], 1, "0"),
    "w": lambda w: ((w.weekday() + 1) % 7, 1, "0"),
    "U": lambda w: ((w.timetuple().tm_yday - 1 + 7 - (w.weekday() + 1) % 7) // 7, 2, "0"),
    "W": lambda w: ((w.timetuple().tm_yday - 1 + 7 - w.weekday()) // 7, 2, "0"),
    "V": lambda w: (w.isocalendar()[1], 2, "0"), "G": lambda w: (w.isocalendar()[0], 0, "0"),
    "g": lambda w: (w.isocalendar()[0] % 100, 2, "0"), "s": lambda w: (int(w.timestamp()), 0, "0"),
}


def _number(spec: str, when: datetime) -> tuple[int, int, str] | None:
    """(value, width, default pad) of a numeric conversion, or None if `spec` is not one (only
    the asked conversion is computed)."""
    number = _NUMBERS.get(spec)
    return number(when) if number is not None else None


def _offset(when: datetime, colon: bool = False) -> str:
    delta = when.utcoffset() or timedelta(0)
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}{':' if colon else ''}{mins:02d}"


def format_time(fmt: str, when: datetime) -> str:
    """Bionic/toybox strftime: C-locale names, `%s %N %e %k %l %P %z %:z %Z`, flags `- _ 0 ^`."""
    out: list[str] = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        i += 1
        if ch != "%":
            out.append(ch)
            continue
        pad, upper = None, False
        while i < len(fmt) and fmt[i] in "-_0^#":
            if fmt[i] == "^":
                upper = True
            elif fmt[i] != "#":
                pad = fmt[i]
            i += 1
        if i >= len(fmt):
            out.append("%")
            break
        spec = fmt[i]
        i += 1
        if spec == ":" and fmt[i:i + 1] == "z":
            i += 1
            out.append(_offset(when, colon=True))
            continue
        numeric = _number(spec, when)
        if numeric is not None:
            value, width, fill = numeric
            fill = {"-": "", "_": " ", "0": "0"}.get(pad or "", fill)
            text = str(value)
            out.append(text.rjust(width, fill) if fill else text)
            continue
        if spec in _COMPOSITE:
            text = format_time(_COMPOSITE[spec], when)
        else:
            text = {
                "a": _DAYS[when.weekday()][:3], "A": _DAYS[when.weekday()],
                "b": _MONTHS[when.month - 1][:3], "h": _MONTHS[when.month - 1][:3],
                "B": _MONTHS[when.month - 1], "p": "AM" if when.hour < 12 else "PM",
                "P": "am" if when.hour < 12 else "pm", "z": _offset(when),
                "Z": when.tzname() or "UTC", "N": f"{when.microsecond * 1000:09d}",
                "n": "\n", "t": "\t", "%": "%",
            }.get(spec, spec)  # tzcode prints an unknown conversion's character itself
        out.append(text.upper() if upper else text)
    return "".join(out)


@functools.lru_cache(maxsize=256)
def format_epoch(fmt: str, epoch: int, zone: str) -> str:
    """`format_time(fmt, …)` of whole second `epoch` in the zone named `zone`, kept: a pure
    function of the three (the zone's rules are read once, `_zone`), and a command's log lines
    share their second."""
    return format_time(fmt, datetime.fromtimestamp(epoch, _zone(zone)))
