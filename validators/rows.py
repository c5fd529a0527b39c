"""Row validators: rows added, deleted or updated in an SQLite table or a content provider.

Each takes a `RowSource` (validators.sources: an SQLite table or a provider URI, keyed by its
primary key), snapshots it at initialize time and judges the `RowDiff` at check time: only the
target rows (for deletes and updates) and the changed rows ever leave the device.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable, Mapping, Sequence

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD, fuzzy_match
from taskkit.validators.sources import ProviderUri, Row, RowDiff, Rows, RowSource, Table, Where

__all__ = ["ProviderUri", "Table", "duplicates_removed", "rows_added", "rows_deleted", "rows_updated"]


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


def _unexpected(diff: RowDiff, source: RowSource, allowed_removed: frozenset[Any] = frozenset(),
                allowed_changed: frozenset[Any] = frozenset(), added_ok: bool = False) -> list[str]:
    """Reasons for every change in `diff` outside what the check allows."""
    name = source.describe()
    reasons = [f"{name}: row {source.key}={k!r} was deleted but must stay"
               for k in sorted(diff.removed, key=repr) if k not in allowed_removed]
    for k, (old, new) in sorted(diff.changed.items(), key=lambda item: repr(item[0])):
        if k not in allowed_changed:
            fields = [f for f in old if new.get(f) != old[f]]
            reasons.append(f"{name}: row {source.key}={k!r} changed ({', '.join(fields)}) but must stay")
    if not added_ok:
        reasons += [f"{name}: unexpected new row {_brief(row)}" for row in diff.added.values()]
    return reasons


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

    def snapshot(self, env: TaskEnv) -> Any:
        return self.source.snapshot(env)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        diff = self.source.diff(env, snapshot)
        reasons = _unexpected(diff, self.source, added_ok=True)
        new_rows = list(diff.added.values())
        if len(new_rows) != len(self.expected):
            reasons.append(f"{self.source.describe()}: expected {len(self.expected)} new row(s), found {len(new_rows)}")
        for exp, index in zip(self.expected, match_rows(self.expected, new_rows, self.matcher)):
            if index is None:
                reasons.append(f"{self.source.describe()}: no new row matches {_brief(exp)}")
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class TargetSnapshot:
    """A source snapshot plus the target rows as they were at initialize time."""

    source: Any
    targets: Rows


def _snapshot_targets(source: RowSource, where: Where, env: TaskEnv,
                      columns: Sequence[str] | None = None) -> TargetSnapshot:
    """The snapshot and the target rows (holding at least `columns`; None: whole rows)."""
    return TargetSnapshot(source.snapshot(env), source.select(env.device, where, columns))


@dataclasses.dataclass(frozen=True)
class RowsDeleted:
    """Exactly the target rows are gone; every other row is untouched and none was added."""

    source: RowSource
    targets: Where
    description: str

    def snapshot(self, env: TaskEnv) -> TargetSnapshot:
        return _snapshot_targets(self.source, self.targets, env, ())  # only the targets' keys are used

    def evaluate(self, env: TaskEnv, snapshot: TargetSnapshot) -> CheckResult:
        diff = self.source.diff(env, snapshot.source)
        targets = frozenset(snapshot.targets)
        reasons = [f"{self.source.describe()}: {self.description}: row {self.source.key}={k!r} still exists"
                   for k in sorted(targets, key=repr) if k not in diff.removed]
        reasons += _unexpected(diff, self.source, allowed_removed=targets)
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class RowsUpdated:
    """The target rows' named fields hold the expected values; nothing else changed."""

    source: RowSource
    targets: Where
    changes: Row
    matcher: FieldMatcher

    def snapshot(self, env: TaskEnv) -> TargetSnapshot:
        return _snapshot_targets(self.source, self.targets, env)

    def evaluate(self, env: TaskEnv, snapshot: TargetSnapshot) -> CheckResult:
        diff = self.source.diff(env, snapshot.source)
        targets = frozenset(snapshot.targets)
        name, key = self.source.describe(), self.source.key
        reasons = _unexpected(diff, self.source, allowed_changed=targets)
        for k in sorted(targets, key=repr):
            if k in diff.removed:
                reasons.append(f"{name}: row {key}={k!r} was deleted but should be updated")
                continue
            old, new = diff.changed.get(k, (snapshot.targets[k], snapshot.targets[k]))
            for field, value in self.changes.items():
                if not self.matcher.field_matches(field, value, new.get(field)):
                    reasons.append(f"{name}: row {key}={k!r}: {field} is {new.get(field)!r}, expected {value!r}")
            untouched = [f for f in old if f not in self.changes and f not in self.source.stamped and new.get(f) != old[f]]
            if untouched:
                reasons.append(f"{name}: row {key}={k!r}: {', '.join(untouched)} changed but must stay")
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class DuplicatesRemoved:
    """Of each group of rows equal on `fields`, exactly one remains; other rows untouched."""

    source: RowSource
    fields: tuple[str, ...]

    def snapshot(self, env: TaskEnv) -> TargetSnapshot:
        return TargetSnapshot(self.source.snapshot(env), self._duplicated(env))

    def _duplicated(self, env: TaskEnv) -> Rows:
        """The rows that have at least one duplicate, read at initialize time."""
        return self.source.duplicates(env.device, self.fields)

    def evaluate(self, env: TaskEnv, snapshot: TargetSnapshot) -> CheckResult:
        diff = self.source.diff(env, snapshot.source)
        groups: dict[tuple, list[Any]] = {}
        for k, row in snapshot.targets.items():
            groups.setdefault(tuple(row.get(f) for f in self.fields), []).append(k)
        reasons = _unexpected(diff, self.source, allowed_removed=frozenset(snapshot.targets))
        for signature, keys in groups.items():
            kept = [k for k in keys if k not in diff.removed]
            if len(kept) != 1:
                what = dict(zip(self.fields, signature))
                reasons.append(f"{self.source.describe()}: {len(kept)} of {len(keys)} rows like {_brief(what)} remain, expected 1")
        return CheckResult.verdict(reasons)


def _describe_where(where: Where) -> str:
    if callable(where):
        return getattr(where, "__name__", "target rows")
    if isinstance(where, str):
        return f"rows where {where}"
    return f"rows with {_brief(dict(where))}"


def rows_added(source: RowSource, expected: Sequence[Row], *, fuzzy: Iterable[str] = (),
               normalize: Mapping[str, Callable[[Any], Any]] | None = None,
               threshold: float = DEFAULT_THRESHOLD) -> RowsAdded:
    """Exactly `expected` rows were added (each compared on the fields it names)."""
    return RowsAdded(source, tuple(dict(row) for row in expected), _matcher(fuzzy, normalize, threshold))


def rows_deleted(source: RowSource, where: Where) -> RowsDeleted:
    """The rows matching `where` at initialize time are gone; everything else is untouched.

    `where` is a dict of column values, an SQL condition, or a Python predicate (which reads
    the whole table at initialize time: prefer the first two for big tables).
    """
    return RowsDeleted(source, where, _describe_where(where))


def rows_updated(source: RowSource, where: Where, changes: Row, *,
                 fuzzy: Iterable[str] = (), normalize: Mapping[str, Callable[[Any], Any]] | None = None,
                 threshold: float = DEFAULT_THRESHOLD) -> RowsUpdated:
    """The rows matching `where` now hold `changes`; every other field and row is untouched."""
    return RowsUpdated(source, where, dict(changes), _matcher(fuzzy, normalize, threshold))


def duplicates_removed(source: RowSource, fields: Sequence[str]) -> DuplicatesRemoved:
    """Of each group of rows equal on `fields`, exactly one remains."""
    return DuplicatesRemoved(source, tuple(fields))
