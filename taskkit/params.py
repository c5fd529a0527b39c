"""Task params: plain JSON data, checked against the task's JSON Schema (offline).

The supported subset is what task schemas need (AndroidWorld's style): `type`, `properties`,
`required`, `additionalProperties`, `items`, `enum`, `const`, `minimum`, `maximum`,
`exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `minItems`, `maxItems`,
`pattern`, plus the annotations `title`, `description`, `default`, `examples`, `$schema`.
A schema using anything else is rejected when the task class is defined, so a keyword is never
silently ignored. Objects reject unknown keys unless `additionalProperties` says otherwise.
"""
from __future__ import annotations

import json
import marshal
import math
import re
from typing import Any, Callable

from taskkit import bounded
from taskkit.errors import TaskkitError

_ANNOTATIONS = {"title", "description", "default", "examples", "$schema", "$comment"}
_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "minItems", "maxItems", "pattern",
} | _ANNOTATIONS
_TYPES = {"string", "integer", "number", "boolean", "array", "object", "null"}


class SchemaError(TaskkitError, ValueError):
    """A task's `schema` itself is malformed."""


class ParamError(TaskkitError, ValueError):
    """A task's params do not match its schema, or are not plain JSON data."""


def check_schema(schema: Any, where: str = "schema") -> None:
    """Raise SchemaError unless `schema` uses only the supported subset, correctly."""
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: a schema must be a dict, got {type(schema).__name__}")
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise SchemaError(f"{where}: unsupported JSON Schema keyword(s) {sorted(unknown)}")
    types = schema.get("type")
    for name in [types] if isinstance(types, str) else (types or []):
        if name not in _TYPES:
            raise SchemaError(f"{where}: unknown type {name!r} (use one of {sorted(_TYPES)})")
    for key, sub in (schema.get("properties") or {}).items():
        check_schema(sub, f"{where}.properties.{key}")
    if isinstance(schema.get("items"), dict):
        check_schema(schema["items"], f"{where}.items")
    if isinstance(schema.get("additionalProperties"), dict):
        check_schema(schema["additionalProperties"], f"{where}.additionalProperties")
    for key in schema.get("required", []):
        if key not in (schema.get("properties") or {}):
            raise SchemaError(f"{where}: required field {key!r} is not in properties")


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


#: Where in the params a value is: the root's name, or (the parent's place, key or index). A
#: place is written out (`params.notes[3].title`) only for an error, not for every value checked.
Place = str | tuple["Place", str | int]


def _text(place: Place) -> str:
    """`place` written out: the root's name, then `.key` and `[index]` parts."""
    parts = []
    while isinstance(place, tuple):
        place, step = place
        parts.append(f"[{step}]" if isinstance(step, int) else f".{step}")
    return place + "".join(reversed(parts))


_LEAVES = frozenset({str, int, bool, type(None)})


def _plainly(value: Any) -> bool:
    """Whether `value` is plain data of the exact built-in types (no subclass): the common case,
    told without a call per node; anything else goes to `_walk`."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is float:
            if not math.isfinite(item):
                return False
        elif kind not in _LEAVES:
            return False
    return True


def check_plain(value: Any, path: Place = "params") -> None:
    """Raise ParamError unless `value` is plain JSON data (str/int/float/bool/None, lists, dicts)."""
    if not _plainly(value):
        _walk(value, path)


def _walk(value: Any, path: Place) -> None:
    """`check_plain` node by node (subclasses of the built-in types accepted), naming the first fault."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ParamError(f"{_text(path)}: keys must be strings, got {key!r}")
            _walk(item, (path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, (path, index))
    elif isinstance(value, float) and not math.isfinite(value):
        raise ParamError(f"{_text(path)}: {value!r} is not valid JSON")
    elif not (value is None or isinstance(value, (str, int, float, bool))):
        raise ParamError(
            f"{_text(path)}: {type(value).__name__} is not plain JSON data; store str/int/float/bool/None, "
            "lists or dicts and derive objects from them"
        )


# (params, schema) pairs found valid lately, by their marshal data (see `check`), oldest first.
_VALID: dict[tuple[bytes, bytes], None] = {}
_VALID_MAX = 256


def check(params: Any, schema: dict) -> None:
    """`check_plain`, then `validate` against `schema`: ParamError naming the first fault.

    A task's params are checked when its instance is drawn and again for each task object made
    from them, so a pair that passed lately passes at once: marshal data are equal only for
    values equal in every type, key order and content (a bool is not an int, nor a tuple a
    list), and only a pair that passed is kept."""
    try:
        key = marshal.dumps(params, 0), marshal.dumps(schema, 0)  # (version 0: no references, no interning)
    except ValueError:  # not marshal's kind of data (an object, an IntEnum): checked each time
        key = None
    if key is not None and key in _VALID:
        return
    check_plain(params)
    validate(params, schema)
    if key is not None:
        bounded.put(_VALID, key, None, _VALID_MAX)


def validate(value: Any, schema: dict, path: Place = "params") -> None:
    """Raise ParamError naming the first field of `value` that breaks `schema`."""
    _checker(schema)(value, path)


Checker = Callable[[Any, Place], None]
# Checkers of the schemas seen lately, by the schemas' marshal data (see `check`), oldest first.
_CHECKERS: dict[bytes, Checker] = {}


def _checker(schema: dict) -> Checker:
    """`schema` compiled (`_compile`) once: equal marshal data are equal schemas, and the checker
    is compiled from a copy of them, so a later change to `schema` itself cannot reach it."""
    try:
        key = marshal.dumps(schema, 0)
    except ValueError:  # not marshal's kind of data: compiled each time
        return _compile(schema)
    found = _CHECKERS.get(key)
    if found is None:
        found = _compile(marshal.loads(key))
        bounded.put(_CHECKERS, key, found, _VALID_MAX)
    return found


def _compile(schema: dict) -> Checker:
    """A function raising what `validate` raises for `schema`, in the same order (type, enum,
    const, bounds, string, array, object), with each keyword looked up once, not per value."""
    steps: list[Checker] = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        accepted = frozenset(names) | ({"integer"} if "number" in names else set())

        def check_type(value: Any, path: Place) -> None:
            if _type_name(value) not in accepted:
                raise ParamError(f"{_text(path)}: expected {' or '.join(names)}, got {_type_name(value)} {_short(value)}")
        steps.append(check_type)
    if "enum" in schema:
        enum = schema["enum"]

        def check_enum(value: Any, path: Place) -> None:
            if value not in enum:
                raise ParamError(f"{_text(path)}: {_short(value)} is not one of {enum}")
        steps.append(check_enum)
    if "const" in schema:
        const = schema["const"]

        def check_const(value: Any, path: Place) -> None:
            if value != const:
                raise ParamError(f"{_text(path)}: must be {_short(const)}, got {_short(value)}")
        steps.append(check_const)
    if _BOUNDS & schema.keys():
        def check_bounds(value: Any, path: Place) -> None:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _check_bounds(value, schema, path)
        steps.append(check_bounds)
    if _STRING & schema.keys():
        steps.append(lambda value, path: _check_string(value, schema, path) if isinstance(value, str) else None)
    array = _array_checker(schema)
    if array is not None:
        steps.append(array)
    obj = _object_checker(schema)
    if obj is not None:
        steps.append(obj)
    if len(steps) == 1:
        return steps[0]

    def check_all(value: Any, path: Place) -> None:
        for step in steps:
            step(value, path)
    return check_all


_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_STRING = frozenset({"minLength", "maxLength", "pattern"})


def _check_bounds(value: float, schema: dict, path: Place) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        raise ParamError(f"{_text(path)}: {value} is below the minimum {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        raise ParamError(f"{_text(path)}: {value} is above the maximum {schema['maximum']}")
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise ParamError(f"{_text(path)}: {value} must be greater than {schema['exclusiveMinimum']}")
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        raise ParamError(f"{_text(path)}: {value} must be less than {schema['exclusiveMaximum']}")


def _check_string(value: str, schema: dict, path: Place) -> None:
    if len(value) < schema.get("minLength", 0):
        raise ParamError(f"{_text(path)}: shorter than {schema['minLength']} characters")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise ParamError(f"{_text(path)}: longer than {schema['maxLength']} characters")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        raise ParamError(f"{_text(path)}: {_short(value)} does not match pattern {schema['pattern']!r}")


def _array_checker(schema: dict) -> Checker | None:
    """The array keywords' check (None when `schema` has none)."""
    items = _compile(schema["items"]) if isinstance(schema.get("items"), dict) else None
    if items is None and "minItems" not in schema and "maxItems" not in schema:
        return None

    def check_array(value: Any, path: Place) -> None:
        if not isinstance(value, list):
            return
        if len(value) < schema.get("minItems", 0):
            raise ParamError(f"{_text(path)}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise ParamError(f"{_text(path)}: more than {schema['maxItems']} items")
        if items is not None:
            for index, item in enumerate(value):
                items(item, (path, index))
    return check_array


def _object_checker(schema: dict) -> Checker | None:
    """The object keywords' check (None when `schema` has none: any object passes)."""
    properties = {key: _compile(sub) for key, sub in (schema.get("properties") or {}).items()}
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", not properties)
    if not properties and not required and extra is True:
        return None
    extra_check = _compile(extra) if isinstance(extra, dict) else None

    def check_object(value: Any, path: Place) -> None:
        if not isinstance(value, dict):
            return
        for key in required:
            if key not in value:
                raise ParamError(f"{_text(path)}: missing required field {key!r}")
        for key, item in value.items():
            check = properties.get(key)
            if check is not None:
                check(item, (path, str(key)))
            elif extra is False:
                raise ParamError(f"{_text(path)}: unknown field {key!r} (known: {sorted(properties)})")
            elif extra_check is not None:
                extra_check(item, (path, str(key)))
    return check_object


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."
