"""Hostile params: a task's free-text params replaced by text built to break quoting.

A free-text param is a string whose schema allows any text: type string with no `pattern` and
no `enum`/`const`. The hostile text is appended to each such field's own value (so fields the
task tells apart — an original note and its replacement — stay different), trimmed or padded to
the field's length limits.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

Path = tuple[Any, ...]


def free_text_paths(schema: dict[str, Any], params: Any, path: Path = ()) -> Iterator[Path]:
    """Paths (keys and list indexes) of the string params whose schema allows any text."""
    if isinstance(params, str):
        if schema.get("type") == "string" and not {"pattern", "enum", "const"} & set(schema):
            yield path
    elif isinstance(params, dict):
        for key, value in params.items():
            yield from free_text_paths((schema.get("properties") or {}).get(key, {}), value, path + (key,))
    elif isinstance(params, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        for index, value in enumerate(params):
            yield from free_text_paths(items, value, path + (index,))


def _schema_at(schema: dict[str, Any], path: Path) -> dict[str, Any]:
    for step in path:
        schema = (schema.get("items") or {}) if isinstance(step, int) else (schema.get("properties") or {}).get(step, {})
    return schema


def _fit(text: str, schema: dict[str, Any]) -> str:
    """`text` trimmed to maxLength and padded to minLength."""
    if "maxLength" in schema:
        text = text[: schema["maxLength"]]
    return text + "x" * max(0, schema.get("minLength", 0) - len(text))


def with_hostile_text(task_cls: Any, seed: int, text: str) -> tuple[dict[str, Any], list[Path]]:
    """The params of `task_cls` at `seed` with every free-text field replaced by `text`."""
    params = copy.deepcopy(task_cls.from_seed(seed).params)
    paths = list(free_text_paths(task_cls.schema, params))
    for path in paths:
        target = params
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = _fit(f"{target[path[-1]]} {text}", _schema_at(task_cls.schema, path))
    return params, paths


def describe_path(path: Path) -> str:
    """`("expenses", 0, "name")` → `expenses[0].name`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out
