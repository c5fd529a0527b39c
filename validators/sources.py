"""Where rows live, and how a check learns what changed since initialize time.

A `RowSource` takes a snapshot at initialize time and later returns a `RowDiff`: the rows
added, removed and changed since. `SqliteTable` does both on the device, as part of the setup
batch (no extra round trip): it copies the table into a scratch database (indexed by key) and
installs three triggers that log the key of every row inserted, updated or deleted afterwards
into a `taskkit_changes` table of the app's database. A check is then one query that returns the
current and the saved versions of the logged keys only: its cost follows the number of changed
rows, not the table's size. The triggers and the log live in the app's database directory,
which the task's restore point puts back at teardown, so they leave nothing behind.
`ProviderUri` (content providers cannot be copied) reads the rows and compares on the host.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Callable, Mapping, Protocol, Sequence, Union

from taskkit.device.base import Device
from taskkit.device.quoting import shell_quote, sql_identifier, sql_literal

Row = dict[str, Any]
Rows = dict[Any, Row]
#: Which rows a check is about: column equalities, an SQL condition, or a Python predicate.
Where = Union[Mapping[str, Any], str, Callable[[Row], bool]]

_CHANGE = "__taskkit_change__"
_LOG = "taskkit_changes"  # in the app's database: triggers can only write to their own database
_SCRATCH = "/data/local/tmp/taskkit/scratch"
_COUNTER = itertools.count(1)


@dataclasses.dataclass(frozen=True)
class RowDiff:
    """What happened to a source's rows between a snapshot and now."""

    added: Rows
    removed: Rows
    changed: dict[Any, tuple[Row, Row]]  # key -> (old, new)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


class RowSource(Protocol):
    """Rows keyed by a primary key, with snapshots and diffs."""

    key: str

    def read(self, device: Device) -> Rows: ...

    def select(self, device: Device, where: Where) -> Rows: ...

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows: ...

    def snapshot(self, env: Any) -> Any: ...

    def diff(self, env: Any, snapshot: Any) -> RowDiff: ...

    def describe(self) -> str: ...


def where_sql(where: Mapping[str, Any] | str) -> str:
    """An SQL condition from equalities (`IS`, so None matches NULL) or from SQL text."""
    if isinstance(where, str):
        return where
    if not where:
        return "1"
    return " AND ".join(f"{sql_identifier(column)} IS {sql_literal(value)}" for column, value in where.items())


def scratch_path(env: Any, name: str) -> str:
    """A fresh device path for a snapshot file, removed with the episode's restore point."""
    directory = getattr(env, "scratch_dir", None) or _SCRATCH
    return f"{directory}/{name}-{next(_COUNTER)}.db"


def duplicated_rows(rows: Rows, fields: Sequence[str]) -> Rows:
    """The rows that share their values of `fields` with at least one other row."""
    counts: dict[tuple, int] = {}
    for row in rows.values():
        signature = tuple(row.get(f) for f in fields)
        counts[signature] = counts.get(signature, 0) + 1
    return {k: row for k, row in rows.items() if counts[tuple(row.get(f) for f in fields)] > 1}


def diff_rows(before: Rows, after: Rows) -> RowDiff:
    """The diff of two full reads, computed on the host."""
    return RowDiff(
        added={k: row for k, row in after.items() if k not in before},
        removed={k: row for k, row in before.items() if k not in after},
        changed={k: (row, after[k]) for k, row in before.items() if k in after and after[k] != row},
    )


@dataclasses.dataclass(frozen=True)
class SqliteTable:
    """A table in an app's SQLite database, keyed by its primary key column."""

    db: str
    table: str
    key: str

    def read(self, device: Device) -> Rows:
        """Every row (moves the whole table: for tests and small tables)."""
        return self.select(device, {})

    def select(self, device: Device, where: Where) -> Rows:
        """The rows matching `where` (one round trip; a Python predicate reads every row)."""
        if callable(where):
            return {k: row for k, row in self.read(device).items() if where(row)}
        sql = f"SELECT * FROM {sql_identifier(self.table)} WHERE {where_sql(where)}"
        return {row[self.key]: row for row in device.sqlite.query(self.db, sql)}

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows:
        """The rows that have a duplicate on `fields` (NULLs equal), found by SQL on the device."""
        t = sql_identifier(self.table)
        cols = ", ".join(sql_identifier(f) for f in fields)
        same = " AND ".join(f"t.{sql_identifier(f)} IS d.{sql_identifier(f)}" for f in fields)
        sql = (f"SELECT t.* FROM {t} AS t JOIN (SELECT {cols} FROM {t} GROUP BY {cols} "
               f"HAVING count(*) > 1) AS d ON {same}")
        return {row[self.key]: row for row in device.sqlite.query(self.db, sql)}

    def snapshot(self, env: Any) -> str:
        """Save the table and start logging changed keys (run for effect: no round trip)."""
        path = scratch_path(env, self.table)
        t, key, name = sql_identifier(self.table), sql_identifier(self.key), sql_literal(self.table)

        def trigger(event: str, body: str) -> str:
            trigger_name = sql_identifier(f"taskkit_{event.lower()}_{self.table}")
            return f"CREATE TRIGGER IF NOT EXISTS {trigger_name} AFTER {event} ON {t} BEGIN {body} END;"

        def log(row: str) -> str:
            return f"INSERT INTO {_LOG}(tbl, key) VALUES ({name}, {row}.{key});"

        env.device.run(f"mkdir -p {shell_quote(path.rsplit('/', 1)[0])}")
        env.device.sqlite.execute(self.db, " ".join([
            f"CREATE TABLE IF NOT EXISTS {_LOG}(tbl TEXT, key);",
            trigger("INSERT", log("NEW")),
            trigger("UPDATE", log("OLD") + " " + log("NEW")),
            trigger("DELETE", log("OLD")),
            f"ATTACH {sql_literal(path)} AS taskkit_snap;",
            f"CREATE TABLE taskkit_snap.{t} AS SELECT * FROM main.{t};",
            f"CREATE UNIQUE INDEX taskkit_snap.{sql_identifier('taskkit_key_' + self.table)} ON {t}({key});",
            f"CREATE TABLE taskkit_snap.taskkit_since AS SELECT coalesce(max(rowid), 0) AS since FROM main.{_LOG};",
            "DETACH taskkit_snap;",
        ]))
        return path

    def diff(self, env: Any, snapshot: str) -> RowDiff:
        """Added, removed and changed rows: one query over the logged keys only."""
        t, key = sql_identifier(self.table), sql_identifier(self.key)
        changed_keys = (f"SELECT key FROM main.{_LOG} WHERE tbl = {sql_literal(self.table)} "
                        "AND rowid > (SELECT since FROM taskkit_snap.taskkit_since)")
        query = (
            f"ATTACH {sql_literal(snapshot)} AS taskkit_snap; "
            f"SELECT 'now' AS {_CHANGE}, * FROM main.{t} WHERE {key} IN ({changed_keys}) "
            f"UNION ALL SELECT 'then', * FROM taskkit_snap.{t} WHERE {key} IN ({changed_keys});"
        )
        now: Rows = {}
        then: Rows = {}
        for row in env.device.sqlite.query(self.db, query):
            (now if row.pop(_CHANGE) == "now" else then)[row[self.key]] = row
        return diff_rows(then, now)

    def describe(self) -> str:
        return f"table {self.table}"


@dataclasses.dataclass(frozen=True)
class ProviderUri:
    """Rows of a content provider URI, keyed by `_id` (values come back as strings)."""

    uri: str
    key: str = "_id"
    projection: tuple[str, ...] | None = None

    def _projection(self) -> list[str] | None:
        if not self.projection:
            return None
        return list(self.projection) if self.key in self.projection else [self.key, *self.projection]

    def read(self, device: Device) -> Rows:
        rows = device.content.query(self.uri, projection=self._projection())
        return {row[self.key]: row for row in rows}

    def select(self, device: Device, where: Where) -> Rows:
        if callable(where):
            return {k: row for k, row in self.read(device).items() if where(row)}
        rows = device.content.query(self.uri, projection=self._projection(), where=where_sql(where))
        return {row[self.key]: row for row in rows}

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows:
        return duplicated_rows(self.read(device), fields)

    def snapshot(self, env: Any) -> Rows:
        return self.read(env.device)

    def diff(self, env: Any, snapshot: Rows) -> RowDiff:
        return diff_rows(snapshot, self.read(env.device))

    def describe(self) -> str:
        return self.uri
