"""Row validators: rows added, deleted or updated in an SQLite table or a content provider.

Each takes a `RowSource` (an SQLite table or a provider URI, keyed by its primary key),
snapshots the rows at initialize time, and compares them with the rows at check time.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from taskkit.device.base import Device
from taskkit.device.quoting import sql_identifier
from validators.base import CheckResult
from validators.fuzzy import DEFAULT_THRESHOLD, fuzzy_match

Row = dict[str, Any]
Rows = dict[Any, Row]


class RowSource(Protocol):
    """Somewhere rows live, readable in one round trip as {key: row}."""

    key: str

    def read(self, device: Device) -> Rows: ...

    def describe(self) -> str: ...


@dataclasses.dataclass(frozen=True)
class SqliteTable:
    """A table in an app's SQLite database, keyed by its primary key column."""

    db: str
    table: str
    key: str

    def read(self, device: Device) -> Rows:
        rows = device.sqlite.query(self.db, f"SELECT * FROM {sql_identifier(self.table)}")
        return {row[self.key]: row for row in rows}

    def describe(self) -> str:
        return f"table {self.table}"


@dataclasses.dataclass(frozen=True)
class ProviderUri:
    """Rows of a content provider URI, keyed by `_id` (values come back as strings)."""

    uri: str
    key: str = "_id"
    projection: tuple[str, ...] | None = None

    def read(self, device: Device) -> Rows:
        projection = list(self.projection) if self.projection else None
        if projection and self.key not in projection:
            projection = [self.key] + projection
        return {row[self.key]: row for row in device.content.query(self.uri, projection=projection)}

    def describe(self) -> str:
        return self.uri


@dataclasses.dataclass(frozen=True)
class FieldMatcher:
    """How expected values are compared with stored ones: exact, fuzzy, or after a normalizer."""

    fuzzy: frozenset[str] = frozenset()
    normalize: Mapping[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)
    threshold: float = DEFAULT_THRESHOLD

    def field_matches(self, field: str, expected: Any, actual: Any) -> bool:
        if field in self.normalize:
            expected, actual = self.normalize[field](expected), self.normalize[field](actual)
        if field in self.fuzzy and isinstance(expected, str) and isinstance(actual, str):
            return fuzzy_match(expected, actual, self.threshold)
        return same_value(expected, actual)

    def row_matches(self, expected: Row, actual: Row) -> bool:
        return all(self.field_matches(f, v, actual.get(f)) for f, v in expected.items())


def same_value(expected: Any, actual: Any) -> bool:
    """Equal, treating a provider's text form of a number as that number."""
    if expected == actual:
        return True
    if expected is None or actual is None:
        return False
    if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(actual, str):
        try:
            return float(actual) == float(expected)
        except ValueError:
            return False
    if isinstance(actual, (int, float)) and isinstance(expected, str):
        return same_value(actual, expected)
    return False


def _matcher(fuzzy: Iterable[str], normalize: Mapping[str, Callable[[Any], Any]] | None, threshold: float) -> FieldMatcher:
    return FieldMatcher(frozenset(fuzzy), dict(normalize or {}), threshold)


def _brief(row: Row, fields: Iterable[str] | None = None) -> str:
    items = [(f, row.get(f)) for f in fields] if fields is not None else list(row.items())
    text = ", ".join(f"{f}={v!r}" for f, v in items)
    return text if len(text) <= 160 else text[:157] + "..."


def _changes(before: Rows, after: Rows, source: RowSource, allowed: set[Any]) -> list[str]:
    """Reasons for every row outside `allowed` that was removed or changed."""
    reasons = []
    for key, row in before.items():
        if key in allowed:
            continue
        if key not in after:
            reasons.append(f"{source.describe()}: row {source.key}={key!r} was deleted but must stay")
        elif after[key] != row:
            changed = [f for f in row if after[key].get(f) != row[f]]
            reasons.append(f"{source.describe()}: row {source.key}={key!r} changed ({', '.join(changed)}) but must stay")
    return reasons


def _additions(before: Rows, after: Rows, source: RowSource) -> list[str]:
    """Reasons for every row that appeared since the snapshot."""
    return [f"{source.describe()}: unexpected new row {_brief(row)}" for key, row in after.items() if key not in before]


def match_rows(expected: Sequence[Row], actual: Sequence[Row], matcher: FieldMatcher) -> list[int | None]:
    """A maximum one-to-one matching: for each expected row, the index of its actual row or None."""
    owner: dict[int, int] = {}
    candidates = [[j for j, row in enumerate(actual) if matcher.row_matches(exp, row)] for exp in expected]

    def assign(i: int, seen: set[int]) -> bool:
        for j in candidates[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(expected)):
        assign(i, set())
    result: list[int | None] = [None] * len(expected)
    for j, i in owner.items():
        result[i] = j
    return result


@dataclasses.dataclass(frozen=True)
class RowsAdded:
    """Exactly the expected rows were added (compared on their fields); no old row changed."""

    source: RowSource
    expected: tuple[Row, ...]
    matcher: FieldMatcher

    def snapshot(self, env: Any) -> Rows:
        return self.source.read(env.device)

    def evaluate(self, env: Any, before: Rows) -> CheckResult:
        after = self.source.read(env.device)
        reasons = _changes(before, after, self.source, allowed=set())
        new_rows = [row for key, row in after.items() if key not in before]
        if len(new_rows) != len(self.expected):
            reasons.append(f"{self.source.describe()}: expected {len(self.expected)} new row(s), found {len(new_rows)}")
        for exp, index in zip(self.expected, match_rows(self.expected, new_rows, self.matcher)):
            if index is None:
                reasons.append(f"{self.source.describe()}: no new row matches {_brief(exp)}")
        return CheckResult.verdict(reasons)


def _snapshot_targets(source: RowSource, targets: Callable[[Row], bool], env: Any) -> tuple[Rows, frozenset[Any]]:
    """The rows now, and the keys of those `targets` picks out: resolved at initialize time."""
    before = source.read(env.device)
    return before, frozenset(key for key, row in before.items() if targets(row))


@dataclasses.dataclass(frozen=True)
class RowsDeleted:
    """Exactly the target rows are gone; every other row is untouched and none was added."""

    source: RowSource
    targets: Callable[[Row], bool]
    description: str

    def snapshot(self, env: Any) -> tuple[Rows, frozenset[Any]]:
        return _snapshot_targets(self.source, self.targets, env)

    def evaluate(self, env: Any, snapshot: tuple[Rows, frozenset[Any]]) -> CheckResult:
        before, targets = snapshot
        after = self.source.read(env.device)
        reasons = [f"{self.source.describe()}: {self.description}: row {self.source.key}={k!r} still exists"
                   for k in sorted(targets, key=repr) if k in after]
        reasons += _changes(before, after, self.source, allowed=set(targets))
        reasons += _additions(before, after, self.source)
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class RowsUpdated:
    """The target rows' named fields hold the expected values; nothing else changed."""

    source: RowSource
    targets: Callable[[Row], bool]
    changes: Row
    matcher: FieldMatcher

    def snapshot(self, env: Any) -> tuple[Rows, frozenset[Any]]:
        return _snapshot_targets(self.source, self.targets, env)

    def evaluate(self, env: Any, snapshot: tuple[Rows, frozenset[Any]]) -> CheckResult:
        before, targets = snapshot
        after = self.source.read(env.device)
        reasons = _changes(before, after, self.source, allowed=set(targets))
        reasons += _additions(before, after, self.source)
        for key in sorted(targets, key=repr):
            if key not in after:
                reasons.append(f"{self.source.describe()}: row {self.source.key}={key!r} was deleted but should be updated")
                continue
            for field, value in self.changes.items():
                if not self.matcher.field_matches(field, value, after[key].get(field)):
                    reasons.append(f"{self.source.describe()}: row {self.source.key}={key!r}: {field} is "
                                   f"{after[key].get(field)!r}, expected {value!r}")
            untouched = [f for f in before[key] if f not in self.changes and after[key].get(f) != before[key][f]]
            if untouched:
                reasons.append(f"{self.source.describe()}: row {self.source.key}={key!r}: {', '.join(untouched)} changed but must stay")
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class DuplicatesRemoved:
    """Of each group of rows equal on `fields`, exactly one remains; other rows untouched."""

    source: RowSource
    fields: tuple[str, ...]

    def snapshot(self, env: Any) -> Rows:
        return self.source.read(env.device)

    def evaluate(self, env: Any, before: Rows) -> CheckResult:
        after = self.source.read(env.device)
        groups: dict[tuple, list[Any]] = {}
        for key, row in before.items():
            groups.setdefault(tuple(row.get(f) for f in self.fields), []).append(key)
        reasons = _additions(before, after, self.source)
        duplicated = set()
        for signature, keys in groups.items():
            kept = [k for k in keys if k in after]
            if len(kept) != 1:
                what = dict(zip(self.fields, signature))
                reasons.append(f"{self.source.describe()}: {len(kept)} of {len(keys)} rows like {_brief(what)} remain, expected 1")
            if len(keys) > 1:
                duplicated.update(keys)
        reasons += _changes(before, after, self.source, allowed=duplicated)
        return CheckResult.verdict(reasons)


def _where(where: Mapping[str, Any] | Callable[[Row], bool]) -> tuple[Callable[[Row], bool], str]:
    if callable(where):
        return where, getattr(where, "__name__", "target rows")
    conditions = dict(where)
    return (lambda row: all(same_value(v, row.get(f)) for f, v in conditions.items())), f"rows with {_brief(conditions)}"


def rows_added(source: RowSource, expected: Sequence[Row], *, fuzzy: Iterable[str] = (),
               normalize: Mapping[str, Callable[[Any], Any]] | None = None,
               threshold: float = DEFAULT_THRESHOLD) -> RowsAdded:
    """Exactly `expected` rows were added (each compared on the fields it names)."""
    return RowsAdded(source, tuple(dict(row) for row in expected), _matcher(fuzzy, normalize, threshold))


def rows_deleted(source: RowSource, where: Mapping[str, Any] | Callable[[Row], bool]) -> RowsDeleted:
    """The rows matching `where` at initialize time are gone; everything else is untouched."""
    predicate, description = _where(where)
    return RowsDeleted(source, predicate, description)


def rows_updated(source: RowSource, where: Mapping[str, Any] | Callable[[Row], bool], changes: Row, *,
                 fuzzy: Iterable[str] = (), normalize: Mapping[str, Callable[[Any], Any]] | None = None,
                 threshold: float = DEFAULT_THRESHOLD) -> RowsUpdated:
    """The rows matching `where` now hold `changes`; every other field and row is untouched."""
    predicate, _ = _where(where)
    return RowsUpdated(source, predicate, dict(changes), _matcher(fuzzy, normalize, threshold))


def duplicates_removed(source: RowSource, fields: Sequence[str]) -> DuplicatesRemoved:
    """Of each group of rows equal on `fields`, exactly one remains."""
    return DuplicatesRemoved(source, tuple(fields))
