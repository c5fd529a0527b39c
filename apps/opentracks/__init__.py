"""OpenTracks: the `tracks` table of database.db, and realistic recorded activities.

Times are epoch **milliseconds**; distances and elevations are **meters**, speeds m/s. A
generated track's distance is a whole number of meters (stored as a REAL, as the app does), so
sums and maxima read as integers. Tracks start between 14 days before the device time and the
device time, and end by it (reference android-apps.md §4.9).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.table import Database
from taskkit.apps.common import (
    DAY_SECONDS,
    DEVICE_EPOCH,
    format_date,
    format_time,
    from_ms,
    generate_excluding,
    to_datetime,
    to_ms,
)
from taskkit.rng import TaskRng

PACKAGE = "de.dennisguse.opentracks"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/database.db"
TABLE = "tracks"
KEY = "_id"

# What the app creates on its first run (its Room entities; reference android-apps.md).
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE tracks (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    description TEXT,
    category TEXT,
    starttime INTEGER,
    stoptime INTEGER,
    numpoints INTEGER,
    totaldistance FLOAT,
    totaltime INTEGER,
    movingtime INTEGER,
    avgspeed FLOAT,
    avgmovingspeed FLOAT,
    maxspeed FLOAT,
    minelevation FLOAT,
    maxelevation FLOAT,
    elevationgain FLOAT,
    icon TEXT,
    uuid BLOB,
    elevationloss FLOAT,
    starttime_offset INTEGER,
    activity_type TEXT
);
CREATE UNIQUE INDEX tracks_uuid_index ON tracks (uuid);
"""
DATABASE = Database(DB_PATH, DDL)


HISTORY_DAYS = 14  # generated tracks start at most this many days before the device time
FIRST_START = DEVICE_EPOCH - HISTORY_DAYS * DAY_SECONDS
FIRST_HOUR, LAST_HOUR = 6, 20  # tracks start between 06:00 and 20:59


@dataclasses.dataclass(frozen=True)
class Sport:
    """How one category of activity looks: moving speed (m/s), length (min), climbing."""

    noun: str  # "run": names read "Morning run"
    icon: str  # the app's activity icon id
    speed: tuple[float, float]
    minutes: tuple[int, int]
    grade: tuple[float, float]  # elevation gain per meter of distance


_WATER = (0.0, 0.0)
SPORTS: dict[str, Sport] = {
    "running": Sport("run", "RUN", (2.4, 3.8), (20, 75), (0.002, 0.02)),
    "trail running": Sport("trail run", "RUN", (2.0, 3.2), (30, 120), (0.02, 0.06)),
    "walking": Sport("walk", "WALK", (1.1, 1.6), (15, 90), (0.002, 0.02)),
    "hiking": Sport("hike", "WALK", (0.8, 1.4), (60, 300), (0.03, 0.12)),
    "trail hiking": Sport("trail hike", "WALK", (0.8, 1.3), (60, 300), (0.03, 0.12)),
    "biking": Sport("ride", "BIKE", (4.5, 8.0), (30, 180), (0.003, 0.02)),
    "cycling": Sport("ride", "BIKE", (4.5, 8.0), (30, 180), (0.003, 0.02)),
    "road biking": Sport("road ride", "BIKE", (6.0, 9.5), (45, 240), (0.005, 0.025)),
    "mountain biking": Sport("MTB ride", "MOUNTAIN_BIKE", (3.0, 5.5), (45, 180), (0.02, 0.08)),
    "swimming": Sport("swim", "SWIMMING", (0.5, 1.0), (20, 60), _WATER),
    "skiing": Sport("ski day", "SKI", (3.0, 9.0), (60, 240), (0.05, 0.2)),
    "snowboarding": Sport("snowboard session", "SNOW_BOARDING", (3.0, 8.0), (60, 240), (0.05, 0.2)),
    "kayaking": Sport("paddle", "KAYAK", (1.2, 2.2), (30, 150), _WATER),
    "rowing": Sport("row", "BOAT", (1.5, 2.8), (30, 120), _WATER),
    "paddling": Sport("paddle", "KAYAK", (1.0, 2.0), (30, 150), _WATER),
    "sailing": Sport("sail", "SAILING", (1.5, 4.0), (60, 240), _WATER),
    "skateboarding": Sport("skate", "SKATE_BOARDING", (2.5, 4.5), (20, 60), (0.002, 0.02)),
    "surfing": Sport("surf", "UNKNOWN", (0.5, 1.5), (45, 150), _WATER),
    "climbing": Sport("climb", "CLIMBING", (0.05, 0.2), (60, 180), (0.2, 0.5)),
}
CATEGORIES: tuple[str, ...] = tuple(SPORTS)

_PLACES = (
    "the river", "the lake", "the park", "the old town", "the harbor", "the forest trail",
    "the coast road", "the ridge", "the canal path", "the botanical garden", "the reservoir",
)
_DESCRIPTIONS = (
    "Easy pace along {place}.", "Felt strong today.", "Windy on the way back.", "Went with {first}.",
    "New route past {place}.", "Legs were tired from yesterday.", "Perfect weather.",
    "Stopped for coffee halfway.", "Rain for the last part.", "Tried to keep a steady pace.",
    "Recovery session, nothing hard.", "Longer than planned around {place}.",
)


def _part_of_day(hour: int) -> str:
    return "Morning" if hour < 12 else "Afternoon" if hour < 17 else "Evening"


def random_name(rng: TaskRng, category: str, start_ms: int) -> str:
    """"Morning run", "Evening ride around the lake", "Hike at the ridge"; never a comma."""
    sport = SPORTS[category]
    noun = sport.noun
    hour = to_datetime(from_ms(start_ms)).hour
    kind = rng.randrange(3)
    if kind == 0:
        return f"{_part_of_day(hour)} {noun}"
    if kind == 1:
        return f"{_part_of_day(hour)} {noun} around {rng.choice(_PLACES)}"
    return f"{noun[0].upper()}{noun[1:]} at {rng.choice(_PLACES)}"


def random_description(rng: TaskRng) -> str:
    return rng.choice(_DESCRIPTIONS).format(place=rng.choice(_PLACES), first=rng.faker.first_name())


def random_start_ms(rng: TaskRng, duration_min: int, first: int = FIRST_START, last: int = DEVICE_EPOCH) -> int:
    """A start (ms, whole minute) between 06:00 and 20:59 on a day in [first, last) such that
    the track, `duration_min` long, ends by `last` (epoch seconds)."""
    days = [first - first % DAY_SECONDS + d * DAY_SECONDS for d in range((last - first) // DAY_SECONDS + 2)]
    for _ in range(200):
        start = rng.choice(days) + rng.randint(FIRST_HOUR, LAST_HOUR) * 3600 + rng.randrange(60) * 60
        if first <= start and start + duration_min * 60 <= last:
            return to_ms(start)
    raise ValueError(f"no {duration_min}-minute track fits between {first} and {last}")


def random_uuid(rng: TaskRng) -> bytes:
    """The 16-byte track uuid, drawn from `rng` (never from the system's randomness)."""
    return rng.getrandbits(128).to_bytes(16, "big")


def random_track(
    rng: TaskRng,
    *,
    category: str | None = None,
    name: str | None = None,
    description: str | None = None,
    start_ms: int | None = None,
    duration_min: int | None = None,
    distance_m: int | None = None,
    elevation_gain_m: float | None = None,
    elevation_loss_m: float | None = None,
    **columns: Any,
) -> dict[str, Any]:
    """A realistic `tracks` row without its key.

    Unset fields follow the category (one of `CATEGORIES`): a length in minutes, a moving
    speed that gives a whole-meter distance, climbing for land sports, a start between 06:00
    and 20:59 in the 14 days before the device time (ending by it), and a fitting name and
    description. Speeds are derived from the distance and times. Other columns: `columns`.
    """
    unknown = set(columns) - set(COLUMNS[1:])
    if unknown:
        raise ValueError(f"unknown tracks column(s): {', '.join(sorted(unknown))}")
    if category is None:
        category = rng.choice(CATEGORIES)
    elif category not in SPORTS:
        raise ValueError(f"unknown OpenTracks category {category!r}; known: {', '.join(CATEGORIES)}")
    sport = SPORTS[category]
    if duration_min is None:
        duration_min = rng.randint(*sport.minutes)
    total_ms = int(duration_min) * 60000
    moving_ms = max(1000, round(total_ms * rng.uniform(0.85, 1.0) / 1000) * 1000)
    if distance_m is None:
        distance_m = max(1, round(rng.uniform(*sport.speed) * moving_ms / 1000))
    if start_ms is None:
        start_ms = random_start_ms(rng, int(duration_min))
    if elevation_gain_m is None:
        elevation_gain_m = round(distance_m * rng.uniform(*sport.grade), 1)
    if elevation_loss_m is None:
        elevation_loss_m = round(elevation_gain_m * rng.uniform(0.8, 1.2), 1) if elevation_gain_m else 0.0
    low = 0.0 if sport.grade == _WATER else round(rng.uniform(5.0, 900.0), 1)
    high = round(low + max(float(elevation_gain_m), float(elevation_loss_m)) * rng.uniform(0.3, 1.0), 1)
    avg_moving = distance_m / (moving_ms / 1000)
    row: dict[str, Any] = {
        "name": random_name(rng, category, start_ms) if name is None else name,
        "description": random_description(rng) if description is None else description,
        "category": category,
        "starttime": int(start_ms),
        "stoptime": int(start_ms) + total_ms,
        "numpoints": 0,
        "totaldistance": float(distance_m),
        "totaltime": total_ms,
        "movingtime": moving_ms,
        "avgspeed": distance_m / (total_ms / 1000),
        "avgmovingspeed": avg_moving,
        "maxspeed": round(avg_moving * rng.uniform(1.2, 1.6), 3),
        "minelevation": low,
        "maxelevation": high,
        "elevationgain": float(elevation_gain_m),
        "icon": sport.icon,
        "uuid": random_uuid(rng),
        "elevationloss": float(elevation_loss_m),
        "starttime_offset": 0,
        "activity_type": category,
    }
    row.update(columns)
    return row


def noise_tracks(
    rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None, **kwargs: Any
) -> list[dict[str, Any]]:
    """`n` random tracks none of which `exclude` rejects (`kwargs` go to `random_track`)."""
    return generate_excluding(lambda: random_track(rng, **kwargs), n, exclude)


# --- reading a row ----------------------------------------------------------------------------
def duration_minutes(track: dict[str, Any]) -> int:
    """The track's total time in whole minutes (rounded down)."""
    return int(track["totaltime"]) // 60000


def distance_meters(track: dict[str, Any]) -> int:
    """The track's distance rounded to whole meters."""
    return round(float(track["totaldistance"]))


def format_start_date(track: dict[str, Any]) -> str:
    """"October 12 2023"."""
    return format_date(from_ms(track["starttime"]))


def format_start_time(track: dict[str, Any]) -> str:
    """"07:45"."""
    return format_time(from_ms(track["starttime"]))


# --- device access ----------------------------------------------------------------------------
#: The `tracks` table (key `_id`) of `/data/data/de.dennisguse.opentracks/databases/database.db`.
TRACKS = DATABASE.table(TABLE, KEY)
COLUMNS = TRACKS.column_names  # in the order the DDL declares them


APP = App(
    name="open tracks sports tracker",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(TRACKS,),
    aliases=("opentracks", "open tracks", "sports tracker", "sportstracker", "activity tracker"),
)
