"""Simple Calendar Pro: the `events` table of events.db, and realistic event rows.

Times are epoch **seconds** (UTC) on whole minutes; generated events fall in October 2023, as
AndroidWorld seeds them (reference android-apps.md §4.1).
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.table import Database
from taskkit.apps.common import (
    epoch,
    format_date,
    format_datetime,
    format_minutes,
    format_time,
    generate_excluding,
)
from taskkit.rng import TaskRng

PACKAGE = "com.simplemobiletools.calendar.pro"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/events.db"
TABLE = "events"
KEY = "id"

# What the app creates on its first run (its Room entities; reference android-apps.md).
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    start_ts INTEGER NOT NULL,
    end_ts INTEGER NOT NULL,
    title TEXT NOT NULL,
    location TEXT NOT NULL,
    description TEXT NOT NULL,
    reminder_1_minutes INTEGER NOT NULL,
    reminder_2_minutes INTEGER NOT NULL,
    reminder_3_minutes INTEGER NOT NULL,
    reminder_1_type INTEGER NOT NULL,
    reminder_2_type INTEGER NOT NULL,
    reminder_3_type INTEGER NOT NULL,
    repeat_interval INTEGER NOT NULL,
    repeat_rule INTEGER NOT NULL,
    repeat_limit INTEGER NOT NULL,
    repetition_exceptions TEXT NOT NULL,
    attendees TEXT NOT NULL,
    import_id TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    flags INTEGER NOT NULL,
    event_type INTEGER NOT NULL,
    parent_id INTEGER NOT NULL,
    last_updated INTEGER NOT NULL,
    source TEXT NOT NULL,
    availability INTEGER NOT NULL,
    color INTEGER NOT NULL,
    type INTEGER NOT NULL
);
CREATE UNIQUE INDEX index_events_id ON events (id);
CREATE TABLE event_types (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    color INTEGER NOT NULL,
    caldav_calendar_id INTEGER NOT NULL,
    caldav_display_name TEXT NOT NULL,
    caldav_email TEXT NOT NULL,
    type INTEGER NOT NULL
);
CREATE UNIQUE INDEX index_event_types_id ON event_types (id);
INSERT INTO event_types VALUES (1, 'Regular event', -689152, 0, '', '', 0);
"""
DATABASE = Database(DB_PATH, DDL)


# Values for every column a generated row does not choose (all but the key and the
# start/end/title/location/description columns).
DEFAULTS: dict[str, Any] = {
    "reminder_1_minutes": -1,
    "reminder_2_minutes": -1,
    "reminder_3_minutes": -1,
    "reminder_1_type": 0,
    "reminder_2_type": 0,
    "reminder_3_type": 0,
    "repeat_interval": 0,
    "repeat_rule": 0,
    "repeat_limit": 0,
    "repetition_exceptions": "[]",
    "attendees": "",
    "import_id": "",
    "time_zone": "UTC",
    "flags": 0,
    "event_type": 1,
    "parent_id": 0,
    "last_updated": 0,
    "source": "imported-ics",
    "availability": 0,
    "color": 0,
    "type": 0,
}

# repeat_interval values (seconds) and weekly repeat_rule bits.
REPEAT_DAILY = 86400
REPEAT_WEEKLY = 604800
REPEAT_MONTHLY = 2592001
REPEAT_YEARLY = 31536000
WEEKDAY_BITS = {"Monday": 1, "Tuesday": 2, "Wednesday": 4, "Thursday": 8, "Friday": 16, "Saturday": 32, "Sunday": 64}

DURATIONS_MIN = (15, 30, 45, 60)
YEAR, MONTH, LAST_DAY = 2023, 10, 31

_PROJECTS = ("Apollo", "Phoenix", "Atlas", "Horizon", "Nimbus", "Orion", "Summit", "Beacon", "Falcon", "Zephyr")
_TOPICS = (
    "the quarterly budget", "the product roadmap", "the marketing plan", "the new hire onboarding",
    "the website redesign", "the client proposal", "the sales forecast", "the holiday schedule",
    "the research findings", "the team offsite", "the annual report", "the mobile app launch",
)
_ACTIVITIES = (
    "Yoga class", "Dentist appointment", "Team standup", "Book club", "Car service",
    "Piano lesson", "Grocery run", "Gym session", "Parent-teacher conference", "Haircut",
)
_ACTIONS = (
    "discuss {topic}", "review {topic}", "go over {topic} in detail", "finalize {topic}",
    "brainstorm ideas for {topic}", "agree on next steps for {topic}",
    "catch up on recent progress", "walk through the open questions", "plan the coming week",
    "share updates and assign action items",
)


# Each maker draws one realistic value; generators pick a maker, then call it.
_TITLES: tuple[Callable[[TaskRng], str], ...] = (
    lambda rng: f"Meeting with {rng.faker.first_name()}",
    lambda rng: f"Meeting with Dr. {rng.faker.last_name()}",
    lambda rng: f"Review session for Project {rng.choice(_PROJECTS)}",
    lambda rng: f"Lunch with {rng.faker.first_name()}",
    lambda rng: f"Call with {rng.faker.company()}",
    lambda rng: f"Interview with {rng.faker.name()}",
    lambda rng: f"Workshop on {rng.choice(_TOPICS).removeprefix('the ')}",
    lambda rng: rng.choice(_ACTIVITIES),
)
_LOCATIONS: tuple[Callable[[TaskRng], str], ...] = (
    lambda rng: f"Conference Room {rng.choice('ABCDEF')}",
    lambda rng: rng.faker.street_address(),
    lambda rng: f"{rng.faker.city()} office",
    lambda rng: f"Room {rng.randrange(101, 460)}",
    lambda rng: rng.choice(("Zoom", "Google Meet", "Main Library", "Downtown Cafe", "Community Center")),
)


def _description(rng: TaskRng) -> str:
    action = rng.choice(_ACTIONS).format(topic=rng.choice(_TOPICS))
    return f"We will {action}."


def random_event(
    rng: TaskRng,
    *,
    day: int | None = None,
    hour: int | None = None,
    minute: int = 0,
    duration_min: int | None = None,
    title: str | None = None,
    description: str | None = None,
    location: str | None = None,
    first_day: int = 1,
    **columns: Any,
) -> dict[str, Any]:
    """A realistic `events` row without its `id` (the database assigns it).

    Unset fields are drawn as AndroidWorld does: a day in October 2023 from `first_day` to 31,
    an hour 0–23 on minute 0, a duration of 15/30/45/60 minutes. Any other column may be set
    through `columns` (e.g. `repeat_interval=REPEAT_WEEKLY`).
    """
    unknown = set(columns) - set(COLUMNS[1:])
    if unknown:
        raise ValueError(f"unknown events column(s): {', '.join(sorted(unknown))}")
    day = rng.randint(first_day, LAST_DAY) if day is None else day
    hour = rng.randrange(24) if hour is None else hour
    duration_min = rng.choice(DURATIONS_MIN) if duration_min is None else duration_min
    start = epoch(YEAR, MONTH, day, hour, minute)
    row: dict[str, Any] = {
        "start_ts": start,
        "end_ts": start + 60 * duration_min,
        "title": rng.choice(_TITLES)(rng) if title is None else title,
        "location": rng.choice(_LOCATIONS)(rng) if location is None else location,
        "description": _description(rng) if description is None else description,
    }
    row.update(DEFAULTS)
    row.update(columns)
    return row


def noise_events(
    rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None, **kwargs: Any
) -> list[dict[str, Any]]:
    """`n` random events (any day of October 2023) none of which `exclude` rejects.

    `kwargs` pass through to `random_event` (e.g. `first_day=15`).
    """
    return generate_excluding(lambda: random_event(rng, **kwargs), n, exclude)


# --- device access ----------------------------------------------------------------------------
#: The `events` table (key `id`) of `/data/data/com.simplemobiletools.calendar.pro/databases/events.db`.
EVENTS = DATABASE.table(TABLE, KEY, defaults=DEFAULTS, stamped=("last_updated",))  # EventsDao stamps each save
COLUMNS = EVENTS.column_names  # in the order the DDL declares them


# --- goal text --------------------------------------------------------------------------------
def duration_minutes(event: dict[str, Any]) -> int:
    """The event's length in whole minutes."""
    return (int(event["end_ts"]) - int(event["start_ts"])) // 60


def format_when(event: dict[str, Any]) -> str:
    """"October 22 2023 at 14:00"."""
    return format_datetime(int(event["start_ts"]))


def format_day(event: dict[str, Any]) -> str:
    """"October 22 2023"."""
    return format_date(int(event["start_ts"]))


def format_start_time(event: dict[str, Any]) -> str:
    """"14:00"."""
    return format_time(int(event["start_ts"]))


def format_duration(event: dict[str, Any]) -> str:
    """"30 minutes", "1 hour"."""
    return format_minutes(duration_minutes(event))


APP = App(
    name="simple calendar pro",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(EVENTS,),
    aliases=("calendar", "simple calendar"),
)
