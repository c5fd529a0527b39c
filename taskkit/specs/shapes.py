"""Static shapes of param values: what the loader knows a generator produces.

A `Shape` is a scalar kind (int, float, str, bool, null), `any` (not known statically), a list
of a shape, or a row (a dict with known fields, e.g. a row of an app table). Shapes let the
loader reject a string generator for an INTEGER column, a path to a missing field
(`event.titel`), or a template loop over a scalar, before anything runs; and they give spec
tasks a JSON Schema for their params.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from taskkit.errors import TaskkitError

SCALARS = ("int", "float", "str", "bool", "null")


@dataclasses.dataclass(frozen=True)
class Shape:
    kind: str  # int | float | str | bool | null | any | list | row
    item: "Shape | None" = None  # list: the items' shape
    fields: tuple[tuple[str, "Shape"], ...] = ()  # row: fields in order
    table: str = ""  # row: the app table it belongs to, if any

    def field(self, name: str) -> "Shape | None":
        return dict(self.fields).get(name)

    def describe(self) -> str:
        if self.kind == "list":
            return f"a list of {self.item.describe() if self.item else 'values'}"
        if self.kind == "row":
            return f"a row of table {self.table}" if self.table else "an object"
        return {"int": "an integer", "float": "a number", "str": "a string", "bool": "a boolean",
                "null": "null", "any": "a value"}[self.kind]


ANY = Shape("any")
INT, FLOAT, STR, BOOL, NULL = Shape("int"), Shape("float"), Shape("str"), Shape("bool"), Shape("null")


def list_of(item: Shape) -> Shape:
    return Shape("list", item=item)


def row(fields: Iterable[tuple[str, Shape]], table: str = "") -> Shape:
    return Shape("row", fields=tuple(fields), table=table)


def join(shapes: Iterable[Shape]) -> Shape:
    """The one shape covering all of `shapes` (int and float join to float; else any)."""
    found = list(dict.fromkeys(shapes))
    if not found:
        return ANY
    if len(found) == 1:
        return found[0]
    if set(found) == {INT, FLOAT}:
        return FLOAT
    if all(s.kind == "list" for s in found):
        return list_of(join(s.item or ANY for s in found))
    return ANY


def of_value(value: Any) -> Shape:
    """The shape of a plain value."""
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    if isinstance(value, list):
        return list_of(join(of_value(v) for v in value))
    if isinstance(value, dict):
        return row((k, of_value(v)) for k, v in value.items())
    return ANY


class PathError(TaskkitError, ValueError):
    """A param path does not fit the shape it walks; `needle` is the offending step."""

    def __init__(self, message: str, needle: str = ""):
        super().__init__(message)
        self.needle = needle


def split_path(path: str) -> list[str]:
    return path.split(".")


def walk(root: dict[str, Shape], path: str) -> Shape:
    """The shape at `path` (`name.key.0.key`); `.key` on a list maps over its items."""
    steps = split_path(path)
    name = steps[0]
    if name not in root:
        raise PathError(f"unknown param {name!r}")
    shape, walked = root[name], name
    for step in steps[1:]:
        if not step:
            raise PathError(f"empty step in path {path!r}")
        shape = _step(shape, step, walked)
        walked += "." + step
    return shape


def _step(shape: Shape, step: str, walked: str) -> Shape:
    if shape.kind == "any":
        return ANY
    if shape.kind == "list":
        if step.isdigit():
            return shape.item or ANY
        return list_of(_step(shape.item or ANY, step, walked + ".*"))
    if shape.kind == "row":
        if not shape.fields:  # an object whose keys are not known
            return ANY
        found = shape.field(step)
        if found is None:
            known = ", ".join(name for name, _ in shape.fields)
            raise PathError(f"{walked} ({shape.describe()}) has no field {step!r} (fields: {known})", step)
        return found
    raise PathError(f"{walked} is {shape.describe()}; it has no field {step!r}", step)


def json_schema(shape: Shape) -> dict[str, Any]:
    """The JSON Schema (taskkit.params subset) of values of `shape`."""
    if shape.kind == "list":
        return {"type": "array", "items": json_schema(shape.item or ANY)}
    if shape.kind == "row":
        if not shape.fields:
            return {"type": "object", "additionalProperties": True}
        return {
            "type": "object",
            "properties": {name: json_schema(field) for name, field in shape.fields},
            "required": [name for name, _ in shape.fields],
            "additionalProperties": False,
        }
    names = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "null": "null"}
    return {"type": names[shape.kind]} if shape.kind in names else {}


def column_problem(shape: Shape, affinity: str, nullable: bool) -> str | None:
    """Why values of `shape` do not belong in a column of SQLite `affinity` (None: they do)."""
    if shape.kind == "any" or not affinity or affinity == "BLOB":
        return None
    if shape.kind == "null":
        return None if nullable else "the column is NOT NULL"
    if shape.kind in ("list", "row"):
        return f"{shape.describe()} cannot be stored in a {affinity} column"
    fits = {
        "INTEGER": {"int", "bool"},
        "REAL": {"int", "float"},
        "NUMERIC": {"int", "float", "bool"},
        "TEXT": {"str"},
    }[affinity]
    if shape.kind not in fits:
        return f"{shape.describe()} does not fit the {affinity} column"
    return None


def value_problem(value: Any, affinity: str, nullable: bool) -> str | None:
    """`column_problem` for a concrete value (used on drawn rows in the load-time dry run)."""
    return column_problem(of_value(value), affinity, nullable)
