"""`android_world.task_evals.utils.sqlite_schema_utils`: the row dataclasses of the SQLite apps.

Each row type has the columns of its table (taskkit's app models hold the same tables) in
AndroidWorld's field order, so rows are built positionally as AndroidWorld's tasks build them.
A row is also a plain JSON object of its fields (`SQLiteRow` derives from `dict`): params that
hold rows stay JSON data, as taskkit requires of every task's params, and result rows show them.
"""
from __future__ import annotations

import dataclasses
import datetime
import random
import textwrap
from typing import Any, Callable, ClassVar, Optional, TypeVar

from taskkit.compat.android_world.env import device_constants


def _plain(value: Any) -> Any:
    return value.hex() if isinstance(value, bytes) else value


@dataclasses.dataclass(frozen=True)
class SQLiteRow(dict):
    """Base of the row dataclasses (a dict of its fields as well)."""

    def __post_init__(self) -> None:
        dict.update(self, {field.name: _plain(getattr(self, field.name)) for field in dataclasses.fields(self)})

    def to_csv_row(self, fields: list[str]) -> str:
        return "|".join(str(getattr(self, field, "")) for field in fields)

    def to_text_block(self, description_key: str, fields: list[str]) -> str:
        lines = [f"{description_key}: {getattr(self, description_key, '')}"]
        lines += [f" {field}: {getattr(self, field, '')}" for field in fields]
        return "\n".join(lines) + "\n"


RowType = TypeVar("RowType", bound=SQLiteRow)


def get_text_representation_of_rows(rows: list[SQLiteRow], fields: list[str], format_type: str = "csv",
                                    description_key: str | None = None, wrap_width: int | None = None) -> str:
    """Rows as `a|b` lines under a header ("csv"), or as one block per row ("text_block")."""
    if format_type == "csv":
        return "|".join(fields) + "\n" + "\n".join(row.to_csv_row(fields) for row in rows)
    if format_type != "text_block":
        raise ValueError(f"format_type must be 'csv' or 'text_block', got {format_type!r}")
    if not description_key:
        raise ValueError("description_key is required for the text_block format")
    blocks = []
    for row in rows:
        lines = [f"{type(row).__name__}: {getattr(row, description_key, '')}"]
        for field in fields:
            if field != description_key:
                value = getattr(row, field, "")
                lines.append(f" {field}: {chr(10).join(textwrap.wrap(value, wrap_width)) if wrap_width else value}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


class GenericRow(SQLiteRow):
    """Any table's row: its columns as attributes and keys, read-only."""

    def __init__(self, **columns: Any):
        object.__setattr__(self, "__dict__", dict(columns))
        dict.update(self, {name: _plain(value) for name, value in columns.items()})

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("GenericRow is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GenericRow) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GenericRow({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


def _local(timestamp: int) -> datetime.datetime:
    from taskkit.compat.android_world.utils import datetime_utils

    return datetime_utils.timestamp_to_localized_datetime(timestamp, device_constants.TIMEZONE)


@dataclasses.dataclass(frozen=True)
class CalendarEvent(SQLiteRow):
    """A row of Simple Calendar Pro's `events` table (times in seconds)."""

    start_ts: int
    end_ts: int
    title: str
    location: str = ""
    description: str = ""
    repeat_interval: int = 0
    repeat_rule: int = 0
    reminder_1_minutes: int = -1
    reminder_2_minutes: int = -1
    reminder_3_minutes: int = -1
    reminder_1_type: int = 0
    reminder_2_type: int = 0
    reminder_3_type: int = 0
    repeat_limit: int = 0
    repetition_exceptions: str = "[]"
    attendees: str = ""
    import_id: str = ""
    time_zone: str = device_constants.TIMEZONE
    flags: int = 0
    event_type: int = 1
    parent_id: int = 0
    last_updated: int = 0
    source: str = "imported-ics"
    availability: int = 0
    color: int = 0
    type: int = 0
    id: int = -1

    @property
    def duration_mins(self) -> int:
        if (self.end_ts - self.start_ts) % 60:
            raise ValueError("an event lasts a whole number of minutes")
        return (self.end_ts - self.start_ts) // 60

    @property
    def start_datetime(self) -> datetime.datetime:
        return _local(self.start_ts)

    @property
    def end_datetime(self) -> datetime.datetime:
        return _local(self.end_ts)


@dataclasses.dataclass(frozen=True)
class Recipe(SQLiteRow):
    """A row of Broccoli's `recipes` table."""

    title: str
    description: str = ""
    servings: str = ""
    preparationTime: str = ""  # noqa: N815 (the column's name)
    source: str = ""
    ingredients: str = ""
    directions: str = ""
    favorite: int = 0
    imageName: str = ""  # noqa: N815
    recipeId: int = -1  # noqa: N815


@dataclasses.dataclass(frozen=True)
class Expense(SQLiteRow):
    """A row of Pro Expense's `expense` table (amount in cents, dates in milliseconds)."""

    name: str
    amount: int
    category: int = 0
    note: Optional[str] = ""
    created_date: int = 0
    modified_date: int = 0
    expense_id: int = -1

    category_id_to_name: ClassVar[dict[int, str]] = {
        1: "Others", 2: "Income", 3: "Food", 4: "Housing", 5: "Social", 6: "Entertainment",
        7: "Transportation", 8: "Clothes", 9: "Health Care", 10: "Education", 11: "Donation",
    }

    @property
    def amount_dollars(self) -> str:
        return f"${self.amount / 100}"

    @property
    def category_name(self) -> str:
        return self.category_id_to_name[self.category]


@dataclasses.dataclass(frozen=True)
class PlaylistInfo(SQLiteRow):
    """One entry of a media player's playlist, joined from its tables."""

    playlist_name: str
    media_file_name: str
    order_in_playlist: int
    duration_ms: int | None = None


@dataclasses.dataclass(frozen=True)
class Task(SQLiteRow):
    """A row of Tasks.org's `tasks` table (times in milliseconds)."""

    title: str
    importance: int = 0
    dueDate: int = 0  # noqa: N815
    hideUntil: int = 0  # noqa: N815
    created: int = 0
    modified: int = 0
    completed: int = 0
    deleted: int = 0
    notes: str | None = None
    estimatedSeconds: int = 0  # noqa: N815
    elapsedSeconds: int = 0  # noqa: N815
    timerStart: int = 0  # noqa: N815
    notificationFlags: int = 0  # noqa: N815
    lastNotified: int = 0  # noqa: N815
    recurrence: str | None = None
    repeat_from: int = 0
    calendarUri: str | None = None  # noqa: N815
    remoteId: str = ""  # noqa: N815
    collapsed: int = 0
    parent: int = 0
    order: int | None = None
    read_only: int = 0
    _id: int = -1


def _random_uuid_bytes() -> bytes:
    """16 bytes from the seeded `random` (AndroidWorld draws a uuid4: not reproducible)."""
    return random.getrandbits(128).to_bytes(16, "big")


@dataclasses.dataclass(frozen=True)
class SportsActivity(SQLiteRow):
    """A row of OpenTracks' `tracks` table (times in milliseconds, distances in meters)."""

    name: str
    description: str = ""
    category: str = ""
    activity_type: str = ""
    starttime: int = 0
    stoptime: int = 0
    numpoints: int = 0
    totaldistance: float = 0.0
    totaltime: int = 0
    movingtime: int = 0
    avgspeed: float = 0.0
    avgmovingspeed: float = 0.0
    maxspeed: float = 0.0
    minelevation: float = 0.0
    maxelevation: float = 0.0
    elevationgain: float = 0.0
    icon: Optional[str] = None
    uuid: bytes = dataclasses.field(default_factory=_random_uuid_bytes)
    elevationloss: float = 0.0
    starttime_offset: int = 0
    _id: int = -1


def insert_into_db(data_object: SQLiteRow, table_name: str, exclude_key: str | None = None
                   ) -> tuple[str, tuple[Any, ...]]:
    """(`INSERT INTO table (columns) VALUES (?, …)`, values) for one row, leaving out `exclude_key`."""
    fields = [field.name for field in dataclasses.fields(data_object) if field.name != exclude_key]
    columns = ", ".join(f'"{name}"' for name in fields)
    command = f"INSERT INTO {table_name} ({columns}) VALUES ({', '.join('?' * len(fields))})"
    return command, tuple(getattr(data_object, name) for name in fields)


def _same_fields(candidate: Any, other: Any) -> bool:
    return all(getattr(candidate, f.name) == getattr(other, f.name) for f in dataclasses.fields(candidate))


def get_random_items(n: int, generate_item_fn: Callable[[], RowType], replacement: bool = False,
                     filter_fn: Callable[[RowType], bool] | None = None) -> list[RowType]:
    """`n` generated items that pass `filter_fn`, distinct by their fields unless `replacement`;
    gives up after 10,000 draws."""
    result: list[RowType] = []
    for _ in range(10_000):
        if len(result) == n:
            return result
        candidate = generate_item_fn()
        if filter_fn is not None and not filter_fn(candidate):
            continue
        if replacement or not any(_same_fields(candidate, item) for item in result):
            result.append(candidate)
    if len(result) == n:
        return result
    raise ValueError(f"generation exhausted after 10000 draws: {len(result)} of {n} items")
