"""Run-time values: param paths, the value of an `Assign`/`Condition`, typed comparison, rows
picked by conditions. Pure functions over plain data; no device access.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator, Mapping, Sequence

from taskkit.apps.common import normalize_phone
from taskkit.errors import TaskkitError
from taskkit.specs import templates
from taskkit.specs.errors import SpecRuntimeError
from taskkit.validators.fuzzy import fuzzy_match

Row = Mapping[str, Any]
Context = Mapping[str, Any]


class PathLookupError(TaskkitError, LookupError):
    pass


def lookup(root: Mapping[str, Any], path: str) -> Any:
    """The value at `path` (`name.key.0.key`); `.key` on a list maps over its items."""
    steps = path.split(".")
    if steps[0] not in root:
        raise PathLookupError(f"unknown param {steps[0]!r}")
    value = root[steps[0]]
    for step in steps[1:]:
        value = _step(value, step)
    return value


def _step(value: Any, step: str) -> Any:
    if isinstance(value, list):
        if step.isdigit():
            index = int(step)
            if index >= len(value):
                raise PathLookupError(f"index {index} is past the end of a list of {len(value)}")
            return value[index]
        return [_step(item, step) for item in value]
    if isinstance(value, Mapping):
        if step not in value:
            raise PathLookupError(f"no field {step!r} (fields: {', '.join(value)})")
        return value[step]
    raise PathLookupError(f"{type(value).__name__} value has no field {step!r}")


def operand(message: Any, context: Context, field: str) -> Any:
    """The value an Assign or Condition message gives (its `value` oneof), in `context`."""
    kind = message.WhichOneof("value")
    if kind is None:
        return None
    raw = getattr(message, kind)
    try:
        if kind == "param":
            return lookup(context, raw)
        if kind == "expr":
            return templates.evaluate(raw, dict(context))
        if kind == "template":
            return templates.render(raw, dict(context))
    except Exception as error:  # a param path, template or expression that failed on these params
        raise SpecRuntimeError(f"{field}.{kind}", f"{type(error).__name__}: {error}") from None
    if kind == "null":
        return None
    return raw


def coerce(value: Any, affinity: str) -> Any:
    """A template's text (or any value) as the column type wants it: "42" → 42 for INTEGER."""
    if value is None or isinstance(value, bool) or not isinstance(value, str):
        return value
    if affinity == "INTEGER":
        try:
            return int(value.strip())
        except ValueError:
            return value
    if affinity in ("REAL", "NUMERIC"):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        return int(number) if affinity == "NUMERIC" and number.is_integer() else number
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def same(a: Any, b: Any, ignore_case: bool = False) -> bool:
    """Equal; numbers compare by value (a provider's "3" equals 3); text optionally ignoring case."""
    if a is None or b is None:
        return a is None and b is None
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None and not (isinstance(a, str) and isinstance(b, str)):
        return na == nb
    if ignore_case:
        return str(a).casefold() == str(b).casefold()
    return str(a) == str(b) if isinstance(a, str) or isinstance(b, str) else a == b


def _order(a: Any, b: Any) -> int | None:
    """-1/0/1 comparing numerically when both are numbers, else as text; None with a NULL."""
    if a is None or b is None:
        return None
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        return (na > nb) - (na < nb)
    sa, sb = str(a), str(b)
    return (sa > sb) - (sa < sb)


def _text(value: Any, ignore_case: bool) -> str:
    text = "" if value is None else str(value)
    return text.casefold() if ignore_case else text


def compare(op: str, actual: Any, expected: Any, ignore_case: bool = False) -> bool:
    """`actual <op> expected` for the Condition.Op names."""
    if op == "IS_NULL":
        return actual is None
    if op == "NOT_NULL":
        return actual is not None
    if op == "EQ":
        return same(actual, expected, ignore_case)
    if op == "NE":
        return not same(actual, expected, ignore_case)
    if op in ("LT", "LE", "GT", "GE"):
        order = _order(actual, expected)
        if order is None:
            return False
        return {"LT": order < 0, "LE": order <= 0, "GT": order > 0, "GE": order >= 0}[op]
    if op == "CONTAINS":
        return actual is not None and _text(expected, ignore_case) in _text(actual, ignore_case)
    if op == "STARTS_WITH":
        return actual is not None and _text(actual, ignore_case).startswith(_text(expected, ignore_case))
    if op in ("IN", "NOT_IN"):
        options = expected if isinstance(expected, list) else [expected]
        found = any(same(actual, option, ignore_case) for option in options)
        return found if op == "IN" else not found
    if op == "FUZZY_EQ":
        return actual is not None and expected is not None and fuzzy_match(str(actual), str(expected))
    if op == "PHONE_EQ":
        return actual is not None and expected is not None and normalize_phone(str(actual)) == normalize_phone(str(expected))
    raise ValueError(f"unknown operator {op}")


_UNKNOWN = object()  # an operand not yet worked out


@dataclasses.dataclass(frozen=True)
class Predicate:
    """A compiled Condition: `test(row, context)`; `describe(context)` for reasons."""

    field_path: str
    kind: str  # leaf | all | any | not
    field: str = ""
    op: str = ""
    message: Any = None  # the Condition (for its value oneof)
    ignore_case: bool = False
    affinity: str = ""
    parts: tuple["Predicate", ...] = ()

    def test(self, row: Row, context: Context) -> bool:
        return self._test(row, context, {})

    def bound(self, context: Context) -> Callable[[Row], bool]:
        """`test` of rows in one `context`, which must not change meanwhile (a rows generator's
        scope while it draws): each condition's operand is worked out once, when a row first
        needs it (as `test` would, so an operand that cannot be worked out fails the same row),
        and kept for the next rows."""
        operands: dict[int, Any] = {}
        return lambda row: self._test(row, context, operands)

    def _test(self, row: Row, context: Context, operands: dict[int, Any]) -> bool:
        if self.kind == "all":
            return all(part._test(row, context, operands) for part in self.parts)
        if self.kind == "any":
            return any(part._test(row, context, operands) for part in self.parts)
        if self.kind == "not":
            return not self.parts[0]._test(row, context, operands)
        expected = operands.get(id(self), _UNKNOWN)
        if expected is _UNKNOWN:
            expected = operands[id(self)] = coerce_operand(self.message, context, self.field_path, self.affinity,
                                                           self.op)
        return compare(self.op, row.get(self.field), expected, self.ignore_case)

    def fields(self) -> Iterator[str]:
        """The row fields `test` reads."""
        if self.kind == "leaf":
            yield self.field
        for part in self.parts:
            yield from part.fields()

    def describe(self, context: Context) -> str:
        if self.kind in ("all", "any"):
            joiner = " and " if self.kind == "all" else " or "
            return "(" + joiner.join(part.describe(context) for part in self.parts) + ")"
        if self.kind == "not":
            return f"not {self.parts[0].describe(context)}"
        if self.op in ("IS_NULL", "NOT_NULL"):
            return f"{self.field} {self.op.lower().replace('_', ' ')}"
        expected = coerce_operand(self.message, context, self.field_path, self.affinity, self.op)
        return f"{self.field} {_SYMBOLS.get(self.op, self.op.lower())} {expected!r}"


_SYMBOLS = {"EQ": "=", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "IN": "in", "NOT_IN": "not in"}


def coerce_operand(message: Any, context: Context, field_path: str, affinity: str, op: str) -> Any:
    value = operand(message, context, field_path)
    if op in ("IN", "NOT_IN") and isinstance(value, list):
        return [coerce(v, affinity) for v in value]
    if op in ("CONTAINS", "STARTS_WITH", "FUZZY_EQ", "PHONE_EQ"):
        return value
    return coerce(value, affinity)


def all_match(predicates: Sequence[Predicate], row: Row, context: Context) -> bool:
    return all(p.test(row, context) for p in predicates)


def selector(predicates: Sequence[Predicate], context: Context) -> Callable[[Row], bool]:
    """A row predicate (all conditions hold) named after the conditions, for validators' reasons."""
    def select(row: Row) -> bool:
        return all_match(predicates, row, context)

    select.__name__ = "rows where " + " and ".join(p.describe(context) for p in predicates)
    select.fields = frozenset(field for p in predicates for field in p.fields())  # type: ignore[attr-defined]
    return select


def predicate(msg: Any, field_path: str, affinity_of: Callable[[str], str]) -> Predicate:
    """Compile a (validated) Condition message; `affinity_of(column)` gives column types."""
    for name in ("all", "any"):
        if msg.HasField(name):
            parts = tuple(predicate(inner, f"{field_path}.{name}.condition[{i}]", affinity_of)
                          for i, inner in enumerate(getattr(msg, name).condition))
            return Predicate(field_path, name, parts=parts)
    if msg.HasField("not"):
        return Predicate(field_path, "not", parts=(predicate(getattr(msg, "not"), f"{field_path}.not", affinity_of),))
    return Predicate(field_path, "leaf", field=msg.field, op=msg.Op.Name(msg.op), message=msg,
                     ignore_case=msg.ignore_case, affinity=affinity_of(msg.field))
