"""Where rows live, and how a check learns what changed since initialize time.

A `RowSource` takes a snapshot at initialize time and later returns a `RowDiff`: the rows
added, removed and changed since. An app's SQLite table is a `Table` (`taskkit.apps.table`,
which builds every SQL statement and logs changed keys with triggers, so a check costs what
changed, not the table's size); `ProviderUri` (content providers cannot be copied) reads the
rows and compares on the host.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Protocol, Sequence

from taskkit.apps.table import (Row, RowDiff, Rows, Table, Where, diff_rows, duplicated_rows,
                                where_sql)
from taskkit.device.base import Device
from taskkit.env import TaskEnv

__all__ = ["ProviderUri", "Row", "RowDiff", "RowSource", "Rows", "Table", "Where",
           "diff_rows", "duplicated_rows", "where_sql"]


class RowSource(Protocol):
    """Rows keyed by a primary key, with snapshots and diffs."""

    key: str
    #: Columns the app itself sets on every write of a row (a "last modified" time): an update
    #: through the app changes them, so an update check does not hold them to their old values.
    stamped: tuple[str, ...]

    def read(self, device: Device) -> Rows: ...

    def select(self, device: Device, where: Where, columns: Sequence[str] | None = None) -> Rows:
        """The rows matching `where`, by key; with `columns` (the fields the caller reads) a row
        may hold only those, the key and what `where` reads."""

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows: ...

    def snapshot(self, env: TaskEnv) -> Any: ...

    def diff(self, env: TaskEnv, snapshot: Any) -> RowDiff: ...

    def describe(self) -> str: ...


@dataclasses.dataclass(frozen=True)
class ProviderUri:
    """Rows of a content provider URI, keyed by `_id` (values come back as strings)."""

    uri: str
    key: str = "_id"
    stamped: tuple[str, ...] = ()
    projection: tuple[str, ...] | None = None

    def _projection(self) -> list[str] | None:
        if not self.projection:
            return None
        return list(self.projection) if self.key in self.projection else [self.key, *self.projection]

    def read(self, device: Device) -> Rows:
        rows = device.content.query(self.uri, projection=self._projection())
        return {row[self.key]: row for row in rows}

    def select(self, device: Device, where: Where, columns: Sequence[str] | None = None) -> Rows:
        """The rows matching `where`, by key (each with the whole projection, whatever `columns`)."""
        if callable(where):
            return {k: row for k, row in self.read(device).items() if where(row)}
        rows = device.content.query(self.uri, projection=self._projection(), where=where_sql(where))
        return {row[self.key]: row for row in rows}

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows:
        return duplicated_rows(self.read(device), fields)

    def snapshot(self, env: TaskEnv) -> Rows:
        return self.read(env.device)

    def diff(self, env: TaskEnv, snapshot: Rows) -> RowDiff:
        return diff_rows(snapshot, self.read(env.device))

    def describe(self) -> str:
        return self.uri
