"""Time, naming and formatting helpers shared by several app models.

The device clock is fixed (AndroidWorld's 2023-10-15 15:34:00 UTC, a Sunday) and the device
time zone is UTC, so every date an app model generates is derived from `DEVICE_EPOCH`, never
from the host's wall clock.
"""
from __future__ import annotations

import datetime as _dt
import re
import string
from typing import Any, Callable, TypeVar

from taskkit.device.reference import DEVICE_EPOCH
from taskkit.rng import TaskRng

DEVICE_TZ = _dt.timezone.utc

DAY_SECONDS = 86400
DATE_FORMAT = "%B %d %Y"  # "October 22 2023", AndroidWorld's goal and answer format
TIME_FORMAT = "%H:%M"  # 24-hour clock ("14:00"), the device's time_12_24 setting

T = TypeVar("T")


# --- epochs and datetimes ---------------------------------------------------------------------
def epoch(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    """Epoch seconds of a device-local (UTC) wall time."""
    return int(_dt.datetime(year, month, day, hour, minute, second, tzinfo=DEVICE_TZ).timestamp())


def to_datetime(epoch_s: int | float) -> _dt.datetime:
    """The device-local (UTC) datetime of an epoch in seconds."""
    return _dt.datetime.fromtimestamp(epoch_s, tz=DEVICE_TZ)


def to_ms(epoch_s: int) -> int:
    """Seconds → milliseconds, the unit of Android providers and Room `*_date` columns."""
    return int(epoch_s) * 1000


def from_ms(epoch_ms: int) -> int:
    """Milliseconds → whole seconds (floor)."""
    return int(epoch_ms) // 1000


def device_now_ms() -> int:
    """The fixed device time in milliseconds."""
    return to_ms(DEVICE_EPOCH)


def random_epoch(rng: TaskRng, start: int, end: int, *, step: int = 1) -> int:
    """A uniformly chosen epoch in [start, end) on a multiple of `step` seconds from `start`."""
    if end <= start:
        raise ValueError(f"empty time range [{start}, {end})")
    return start + step * rng.randrange((end - start + step - 1) // step)


# --- formatting -------------------------------------------------------------------------------
def format_date(epoch_s: int) -> str:
    """"October 22 2023" (`%B %d %Y`, zero-padded day as AndroidWorld writes it)."""
    return to_datetime(epoch_s).strftime(DATE_FORMAT)


def format_time(epoch_s: int) -> str:
    """"14:00" (24-hour clock)."""
    return to_datetime(epoch_s).strftime(TIME_FORMAT)


def format_datetime(epoch_s: int) -> str:
    """"October 22 2023 at 14:00"."""
    return f"{format_date(epoch_s)} at {format_time(epoch_s)}"


def format_minutes(minutes: int) -> str:
    """A duration in words: "15 minutes", "1 hour", "1 hour 30 minutes", "2 hours"."""
    if minutes < 0:
        raise ValueError(f"negative duration: {minutes}")
    hours, rest = divmod(int(minutes), 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour" + ("s" if hours != 1 else ""))
    if rest or not hours:
        parts.append(f"{rest} minute" + ("s" if rest != 1 else ""))
    return " ".join(parts)


# --- phone numbers ----------------------------------------------------------------------------
_NON_DIGITS = re.compile(r"\D")

# Real US area codes; numbers use the 555-01XX exchange block reserved for fiction.
_AREA_CODES = (
    "201", "206", "212", "213", "303", "305", "312", "404", "415", "469", "503", "512",
    "602", "617", "646", "702", "713", "718", "720", "773", "801", "818", "858", "917",
)


def normalize_phone(number: str) -> str:
    """The digits of `number`, keeping one leading '+' ("+1 (555) 010-0134" → "+15550100134")."""
    stripped = number.strip()
    digits = _NON_DIGITS.sub("", stripped)
    return ("+" + digits) if stripped.startswith("+") else digits


def random_phone_number(rng: TaskRng) -> str:
    """A fictional US mobile number in E.164 form: "+1" + area code + "55501" + 2 digits."""
    return f"+1{rng.choice(_AREA_CODES)}55501{rng.randrange(100):02d}"


# --- names ------------------------------------------------------------------------------------
_ADJECTIVES = (
    "quick", "quiet", "bright", "calm", "brave", "clever", "eager", "gentle", "happy", "lucky",
    "mighty", "proud", "silly", "sunny", "swift", "tidy", "witty", "zesty", "bold", "cosy",
    "fresh", "golden", "humble", "jolly", "kind", "lively", "neat", "rapid", "shiny", "smart",
)
_NOUNS = (
    "apple", "banana", "cloud", "dolphin", "eagle", "forest", "garden", "harbor", "island",
    "jungle", "kitten", "lemon", "meadow", "nebula", "ocean", "panda", "quartz", "river",
    "sunset", "tiger", "valley", "whale", "yacht", "zebra", "mountain", "rocket", "planet",
    "lantern", "violin", "pebble",
)
_NAME_SUFFIXES = ("backup", "copy", "final", "edited")
_RANDOM_CHARS = string.ascii_lowercase + string.digits
_NAME_DATE_FIRST = epoch(2023, 1, 1)
_NAME_DATE_LAST = epoch(2023, 10, 14)


def random_name_stem(rng: TaskRng) -> str:
    """AndroidWorld-style file stem: `adjective_noun` with one modifier as prefix or suffix.

    The modifier is a date `YYYY_MM_DD` (2023-01-01 to 2023-10-14), four random characters, or
    one of backup/copy/final/edited: "2023_04_17_sunny_garden", "quick_panda_final".
    """
    base = f"{rng.choice(_ADJECTIVES)}_{rng.choice(_NOUNS)}"
    kind = rng.randrange(3)
    if kind == 0:
        day = random_epoch(rng, _NAME_DATE_FIRST, _NAME_DATE_LAST + DAY_SECONDS, step=DAY_SECONDS)
        modifier = to_datetime(day).strftime("%Y_%m_%d")
    elif kind == 1:
        modifier = "".join(rng.choice(_RANDOM_CHARS) for _ in range(4))
    else:
        modifier = rng.choice(_NAME_SUFFIXES)
    return f"{modifier}_{base}" if rng.random() < 0.5 else f"{base}_{modifier}"


# --- noise ------------------------------------------------------------------------------------
def generate_excluding(
    make: Callable[[], T],
    n: int,
    exclude: Callable[[T], bool] | None = None,
    *,
    max_attempts_per_item: int = 100,
) -> list[T]:
    """`n` values from `make()`, skipping those for which `exclude(value)` is true.

    Raises `ValueError` if the exclusion rejects nearly everything (a bug in the task).
    """
    out: list[T] = []
    attempts = 0
    limit = max(1, n) * max_attempts_per_item
    while len(out) < n:
        if attempts >= limit:
            raise ValueError(
                f"could only generate {len(out)} of {n} noise values in {limit} attempts: "
                "the exclusion rule rejects almost every candidate"
            )
        attempts += 1
        value = make()
        if exclude is None or not exclude(value):
            out.append(value)
    return out


def format_amount(cents: int) -> str:
    """"$123.45" for 12345 (a leading '-' for refunds)."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole}.{rest:02d}"


def same_name(actual: str, wanted: str) -> bool:
    """A typed name matches: equal but for case and surrounding spaces."""
    return actual.strip().casefold() == wanted.strip().casefold()


def one_playlist(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]] | None:
    """The rows (in order) of the only playlist called `name` among a player's playlist rows
    (`playlist_name` per row); None when no playlist, or more than one spelling, has that name."""
    named = {row["playlist_name"] for row in rows if same_name(row["playlist_name"], name)}
    if len(named) != 1:
        return None
    return [row for row in rows if row["playlist_name"] in named]
