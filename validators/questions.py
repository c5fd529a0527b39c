"""Answer validators for questions: the agent's answer holds exactly the expected items.

    answer_matches(["Lunch, then gym", "Book club"])                      # fixed items
    answer_matches(select(EVENTS, on_day, "values", "title"))             # read from the device
    answer_matches(select(EXPENSES, {"category": 3}, "sum", "amount", scale=0.01), match="number")

The expected items are fixed when the check takes its snapshot (right after setup), so items
selected from rows are those the agent was asked about, not the ones it left. Items are matched
in any order by `taskkit.validators.itemmatch` (text by greedy longest match, so commas inside
titles are safe; numbers within a tolerance; dates, times, or both).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from taskkit.env import TaskEnv
from taskkit.errors import TaskkitError
from taskkit.validators import itemmatch
from taskkit.validators.base import CheckResult
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD
from taskkit.validators.sources import RowSource, Where

MATCHES = ("string", "number", "date", "time", "datetime")
FUNCTIONS = ("values", "count", "sum", "min", "max")

__all__ = ["AnswerMatches", "ExpectedAnswerError", "FUNCTIONS", "MATCHES", "Select", "answer_matches", "select"]


class ExpectedAnswerError(TaskkitError, ValueError):
    """The expected answer cannot be used (a bug in the task, never the agent's failure).

    `label` names the check (a spec's field path, e.g. `success.answer`).
    """

    def __init__(self, label: str, message: str):
        super().__init__(f"{label}: {message}")
        self.label, self.message = label, message


def _sort_key(key: Any) -> tuple[str, Any]:
    return type(key).__name__, key


@dataclasses.dataclass(frozen=True)
class Select:
    """An aggregate over the rows of `source` matching `where`, in key order.

    `function`: "values" (the `field` of every row, one item each), "count" (how many rows),
    "sum", "min" or "max" of `field` (one number; min/max of no rows is no item). `scale`
    multiplies numbers (0.01: cents to dollars).
    """

    source: RowSource
    where: Where
    function: str
    field: str = ""
    scale: float | None = None

    def items(self, device: Any) -> list[Any]:
        found = self.source.select(device, self.where, (self.field,) if self.field else ())
        return self.aggregate([found[key] for key in sorted(found, key=_sort_key)])

    def aggregate(self, rows: Sequence[Mapping[str, Any]]) -> list[Any]:
        if self.function == "count":
            return [len(rows)]
        values = [row.get(self.field) for row in rows]
        if self.function == "values":
            return [self._scaled(v) for v in values]
        numbers = [float(v) for v in values if v is not None]
        if self.function == "sum":
            return [self._scaled(sum(numbers))]
        if not numbers:
            return []
        return [self._scaled(min(numbers) if self.function == "min" else max(numbers))]

    def _scaled(self, value: Any) -> Any:
        if self.scale is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            return value
        return round(value * self.scale, 10)

    def describe(self) -> str:
        of = f" of {self.field}" if self.field else ""
        return f"{self.function}{of} over {self.source.describe()}"


def select(source: RowSource, where: Where, function: str = "values", field: str = "",
           scale: float | None = None) -> Select:
    """Expected items read from rows at snapshot time (see `Select`); `where` as in `rows_deleted`."""
    if function not in FUNCTIONS:
        raise ValueError(f"select function must be one of {', '.join(FUNCTIONS)}, got {function!r}")
    if function != "count" and not field:
        raise ValueError(f"select {function!r} needs a field")
    return Select(source, where, function, field, scale)


class AnswerMatches:
    """The agent's answer holds exactly the expected items, in any order.

    The items read at the last snapshot are kept, so `expected_answer()` can write the answer
    a reference solution gives.
    """

    def __init__(self, expected: Sequence[Any] | Select, match: str, tolerance: float, millis: bool,
                 threshold: float, label: str):
        self.expected = expected if isinstance(expected, Select) else tuple(expected)
        self.match, self.tolerance, self.millis = match, tolerance, millis
        self.threshold, self.label = threshold, label
        self.items: list[Any] | None = None

    def snapshot(self, env: TaskEnv) -> list[Any]:
        self.items = self.expected.items(env.device) if isinstance(self.expected, Select) else list(self.expected)
        return self.items

    def expected_answer(self) -> str:
        """The expected items, formatted as an answer and joined with ", " ("None" for no items)."""
        if self.items is None:
            raise ExpectedAnswerError(self.label, "the expected answer is only known after initialize_state")
        if not self.items:
            return "None"  # nothing matches the question: the answer says so
        return ", ".join(itemmatch.format_item(item, self.match, self.millis) for item in self.items)

    def evaluate(self, env: TaskEnv, expected: list[Any]) -> CheckResult:
        answer = (env.answer or "").strip()
        if not answer:
            return CheckResult(0.0, ("no answer was given",))
        try:
            reasons = self._reasons(answer, expected)
        except ValueError as error:
            raise ExpectedAnswerError(self.label, f"expected answer is not a {self.match}: {error}") from None
        return CheckResult.verdict([f"answer {answer[:120]!r}: {reason}" for reason in reasons])

    def _reasons(self, answer: str, expected: list[Any]) -> list[str]:
        if self.match == "number":
            return itemmatch.match_numbers(answer, [float(v) for v in expected], self.tolerance)
        if self.match == "date":
            return itemmatch.match_dates(answer, itemmatch.expected_dates(expected, self.millis))
        if self.match == "time":
            return itemmatch.match_times(answer, itemmatch.expected_times(expected, self.millis))
        if self.match == "datetime":
            dates = itemmatch.expected_dates(expected, self.millis)
            return itemmatch.match_datetimes(answer, list(zip(dates, itemmatch.expected_times(expected, self.millis))))
        return itemmatch.match_text(answer, [str(v) for v in expected], self.threshold)


def answer_matches(expected: Sequence[Any] | Select, *, match: str = "string", tolerance: float = 0.0,
                   millis: bool = False, threshold: float = DEFAULT_THRESHOLD,
                   label: str = "answer_matches") -> AnswerMatches:
    """The answer holds exactly the `expected` items (a list, or a `select(...)` over rows).

    `match`: "string" (fuzzy text per item), "number" (within `tolerance`), "date", "time" or
    "datetime" (epoch-valued items are read as seconds, or milliseconds with `millis`). `label`
    names the check in errors about its expected answer.
    """
    if match not in MATCHES:
        raise ValueError(f"answer match must be one of {', '.join(MATCHES)}, got {match!r}")
    if tolerance < 0:
        raise ValueError(f"tolerance must be ≥ 0, got {tolerance}")
    return AnswerMatches(expected, match, tolerance, millis, threshold, label)
