"""Existence validators: some row of a source matches a condition at check time.

    row_exists(sms_sent, lambda row: row["address"] == "+12125550123")   # an SMS to X was sent
    row_exists(EVENTS, {"title": "Book club"})                          # one SQL query

Unlike `rows_added`, nothing is compared with the state after setup: any matching row passes,
however it got there.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless
from taskkit.validators.rows import _brief
from taskkit.validators.sources import RowSource, Where

__all__ = ["RowExists", "row_exists"]


@dataclasses.dataclass(frozen=True)
class RowExists(Stateless):
    """Some row of `source` matches `where` when the check runs."""

    source: RowSource
    where: Where
    description: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        if self.source.select(env.device, self.where):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.source.describe()}: no row matches {self.description}",))


def _describe(where: Where) -> str:
    if callable(where):
        return getattr(where, "__name__", "the condition").removeprefix("rows where ")
    if isinstance(where, str):
        return where
    return _brief(dict(where))


def row_exists(source: RowSource, where: Where, description: str = "") -> RowExists:
    """Some row of `source` matches `where`: a dict of column values, an SQL condition, or a
    Python predicate of one row (which reads every row: prefer the first two for big tables)."""
    return RowExists(source, where, description or _describe(where))
