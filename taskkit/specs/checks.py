"""Success checks at run time: plans that build `validators` objects for one instance's params.

Row, file and setting checks reuse the `validators` package (rows_added, rows_deleted, ...,
all_of / any_of / not_ / weighted); conditions become row predicates. `RowExists` and
`AnswerMatches` are the two checks specs add.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Sequence

from taskkit.apps.common import normalize_phone
from taskkit.specs import answers, templates
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.steps import Assigns, rows_from
from taskkit.specs.tables import TableInfo
from taskkit.specs.values import PathLookupError, Predicate, all_match, coerce, lookup, selector
from taskkit.validators import (
    ProviderUri, SqliteTable, all_of, any_of, duplicates_removed, file_absent, file_content, file_exists, not_,
    rows_added, rows_deleted, rows_updated, setting_equals, weighted,
)
from taskkit.validators.base import CheckResult, Stateless

Context = Mapping[str, Any]


def _render(source: str, context: Context, field: str) -> str:
    try:
        return templates.render(source, dict(context))
    except Exception as error:
        raise SpecRuntimeError(field, f"{type(error).__name__}: {error}") from None


def _source(info: TableInfo | None, uri: str, projection: Sequence[str] = ()) -> Any:
    if info is not None:
        return info.table
    return ProviderUri(uri, projection=tuple(projection) or None)


@dataclasses.dataclass(frozen=True)
class RowExists(Stateless):
    """Some row of the source satisfies the predicate at check time."""

    source: Any
    predicate: Callable[[Mapping[str, Any]], bool]
    description: str

    def evaluate(self, env: Any, snapshot: Any) -> CheckResult:
        rows = list(self.source.read(env.device).values())
        if any(self.predicate(row) for row in rows):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.source.describe()}: no row matches {self.description} (among {len(rows)} rows)",))


class AnswerMatches:
    """The agent's answer holds exactly the expected items (see `answers`).

    The expected items are fixed at snapshot time (right after setup), so a selection over
    rows reads the state the agent was asked about, not the state it left.
    """

    def __init__(self, plan: "AnswerPlan", context: Context):
        self.plan, self.context = plan, context
        self.expected: list[Any] | None = None

    def snapshot(self, env: Any) -> list[Any]:
        self.expected = self.plan.items(env, self.context)
        return self.expected

    def expected_answer(self) -> str:
        """The answer the oracle gives: the expected items, formatted, joined with ", "."""
        if self.expected is None:
            raise SpecRuntimeError(self.plan.field, "the expected answer is only known after initialize_state")
        if not self.expected:
            return "None"  # nothing matches the question: the answer says so
        millis = self.plan.millis
        return ", ".join(answers.format_item(item, self.plan.match, millis) for item in self.expected)

    def evaluate(self, env: Any, expected: list[Any]) -> CheckResult:
        answer = (env.answer or "").strip()
        if not answer:
            return CheckResult(0.0, ("no answer was given",))
        plan = self.plan
        try:
            if plan.match == "NUMBER":
                reasons = answers.match_numbers(answer, [float(v) for v in expected], plan.tolerance)
            elif plan.match == "DATE":
                reasons = answers.match_dates(answer, answers.expected_dates(expected, plan.millis))
            elif plan.match == "TIME":
                reasons = answers.match_times(answer, answers.expected_times(expected, plan.millis))
            elif plan.match == "DATETIME":
                pairs = list(zip(answers.expected_dates(expected, plan.millis), answers.expected_times(expected, plan.millis)))
                reasons = answers.match_datetimes(answer, pairs)
            else:
                reasons = answers.match_text(answer, [str(v) for v in expected])
        except ValueError as error:
            raise SpecRuntimeError(plan.field, f"expected answer is not a {plan.match.lower()}: {error}") from None
        if reasons:
            reasons = [f"answer {answer[:120]!r}: {reason}" for reason in reasons]
        return CheckResult.verdict(reasons)


@dataclasses.dataclass(frozen=True)
class AnswerPlan:
    field: str
    match: str
    tolerance: float
    millis: bool
    templates: tuple[str, ...]
    param: str
    info: TableInfo | None
    where: tuple[Predicate, ...]
    function: str
    column: str
    scale: float | None

    def fixed_items(self, context: Context) -> list[Any]:
        if self.templates:
            return [_render(t, context, f"{self.field}.expected[{i}]") for i, t in enumerate(self.templates)]
        try:
            value = lookup(context, self.param)
        except PathLookupError as error:
            raise SpecRuntimeError(f"{self.field}.expected_param", f"{self.param}: {error}") from None
        return list(value) if isinstance(value, list) else [value]

    def items(self, env: Any, context: Context) -> list[Any]:
        if self.info is None:
            return self.fixed_items(context)
        rows = [row for row in self.info.table.rows(env.device) if all_match(self.where, row, context)]
        return self.aggregate(rows)

    def aggregate(self, rows: Sequence[Mapping[str, Any]]) -> list[Any]:
        if self.function == "COUNT":
            return [len(rows)]
        values = [row.get(self.column) for row in rows]
        if self.function == "IDENTITY":
            return [self._scaled(v) for v in values]
        numbers = [float(v) for v in values if v is not None]
        if self.function == "SUM":
            return [self._scaled(sum(numbers))]
        if not numbers:
            return []
        return [self._scaled(min(numbers) if self.function == "MIN" else max(numbers))]

    def _scaled(self, value: Any) -> Any:
        if self.scale is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            return value
        return round(value * self.scale, 10)

    def build(self, context: Context) -> AnswerMatches:
        return AnswerMatches(self, context)


@dataclasses.dataclass(frozen=True)
class Plan:
    """One check: `make(context)` gives its validator."""

    field: str
    make: Callable[[Context], Any]
    weight: float = 1.0

    def build(self, context: Context) -> Any:
        return self.make(context)


def _expected_rows(info: TableInfo | None, paths: Sequence[str], inline: Sequence[Assigns], compare: Sequence[str],
                   context: Context, field: str) -> list[dict[str, Any]]:
    expected = []
    for row in rows_from(paths, inline, context, field):
        if compare:
            row = {k: v for k, v in row.items() if k in compare}
        elif info is not None:
            row = {k: v for k, v in row.items() if k in info.columns}
        if info is not None:
            row = {k: coerce(v, info.columns[k].affinity) if k in info.columns else v for k, v in row.items()}
        expected.append(row)
    return expected


def build(check: Any, field: str, tables: Mapping[str, TableInfo],
          predicates: Callable[[Sequence[Any], str, TableInfo | None], tuple[Predicate, ...]]) -> Plan:
    """The plan of one validated Check message."""
    weight = check.weight if check.HasField("weight") else 1.0
    kind = check.WhichOneof("kind")
    msg, field = getattr(check, kind), f"{field}.{kind}"
    info = tables.get(field)

    if kind in ("all", "any", "weighted"):
        parts = [build(inner, f"{field}.check[{i}]", tables, predicates) for i, inner in enumerate(msg.check)]
        if kind == "weighted":
            make = lambda ctx: weighted(*[(p.build(ctx), p.weight) for p in parts])  # noqa: E731
        else:
            combine = all_of if kind == "all" else any_of
            make = lambda ctx: combine(*[p.build(ctx) for p in parts])  # noqa: E731
        return Plan(field, make, weight)
    if kind == "not":
        inner = build(msg, field, tables, predicates)
        return Plan(field, lambda ctx: not_(inner.build(ctx), f"the state `{field}` checks for"), weight)
    if kind == "rows_added":
        inline = tuple(Assigns(f"{field}.rows[{i}].set", tuple(row.set), info) for i, row in enumerate(msg.rows))
        paths, compare, fuzzy, phone = tuple(msg.params), tuple(msg.compare), tuple(msg.fuzzy), tuple(msg.phone)

        def make_added(ctx: Context) -> Any:
            expected = _expected_rows(info, paths, inline, compare, ctx, field)
            projection = sorted({k for row in expected for k in row}) if info is None else ()
            return rows_added(_source(info, msg.uri, projection), expected, fuzzy=fuzzy,
                              normalize={f: lambda v: normalize_phone(str(v)) if v is not None else v for f in phone})
        return Plan(field, make_added, weight)
    if kind in ("rows_deleted", "rows_updated", "row_exists"):
        where = predicates(msg.where, f"{field}.where", info)
        uri = msg.uri
        if kind == "rows_deleted":
            return Plan(field, lambda ctx: rows_deleted(_source(info, uri), selector(where, ctx)), weight)
        if kind == "row_exists":
            def make_exists(ctx: Context) -> Any:
                chosen = selector(where, ctx)
                return RowExists(_source(info, uri), chosen, chosen.__name__.removeprefix("rows where "))
            return Plan(field, make_exists, weight)
        changes, fuzzy = Assigns(f"{field}.set", tuple(msg.set), info), tuple(msg.fuzzy)
        return Plan(field, lambda ctx: rows_updated(_source(info, uri), selector(where, ctx), changes.values(ctx),
                                                    fuzzy=fuzzy), weight)
    if kind == "duplicates_removed":
        fields = tuple(msg.fields)
        return Plan(field, lambda ctx: duplicates_removed(_source(info, ""), fields), weight)
    if kind == "file_exists":
        return Plan(field, lambda ctx: file_exists(_render(msg.path, ctx, f"{field}.path")), weight)
    if kind == "file_absent":
        return Plan(field, lambda ctx: file_absent(_render(msg.path, ctx, f"{field}.path")), weight)
    if kind == "file_content":
        return Plan(field, lambda ctx: file_content(_render(msg.path, ctx, f"{field}.path"),
                                                    _render(msg.content, ctx, f"{field}.content"), fuzzy=msg.fuzzy), weight)
    if kind == "setting_equals":
        def make_setting(ctx: Context) -> Any:
            values: list[Any] = [_render(v, ctx, f"{field}.values[{i}]") for i, v in enumerate(msg.values)]
            return setting_equals(msg.namespace, msg.key, values + ([None] if msg.unset else []))
        return Plan(field, make_setting, weight)
    if kind == "answer":
        select = msg.select if msg.HasField("select") else None
        plan = AnswerPlan(
            field=field, match=msg.Match.Name(msg.match),
            tolerance=msg.tolerance if msg.HasField("tolerance") else 0.0,
            millis=msg.time_unit == msg.MILLIS, templates=tuple(msg.expected), param=msg.expected_param,
            info=tables.get(f"{field}.select") if select is not None else None,
            where=predicates(select.where, f"{field}.select.where", tables.get(f"{field}.select")) if select else (),
            function=select.Function.Name(select.function) if select else "",
            column=select.field if select else "",
            scale=select.scale if select is not None and select.HasField("scale") else None,
        )
        return Plan(field, plan.build, weight)
    raise AssertionError(kind)


def find_answers(validator: Any) -> list[AnswerMatches]:
    """The answer checks inside a built validator tree (for the oracle's answer step)."""
    if isinstance(validator, AnswerMatches):
        return [validator]
    found: list[AnswerMatches] = []
    for part, _ in getattr(validator, "parts", ()) or ():
        found += find_answers(part)
    inner = getattr(validator, "part", None)
    if inner is not None:
        found += find_answers(inner)
    return found
