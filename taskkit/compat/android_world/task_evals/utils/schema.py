"""`android_world.task_evals.utils.schema`: JSON Schemas of task params, property by property."""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence


@dataclasses.dataclass(frozen=True)
class Property:
    name: str
    schema: dict[str, Any]
    is_required: bool = False


def string(name: str, is_required: bool = False) -> Property:
    return Property(name, {"type": "string"}, is_required)


def number(name: str, is_required: bool = False) -> Property:
    return Property(name, {"type": "number"}, is_required)


def integer(name: str, is_required: bool = False) -> Property:
    return Property(name, {"type": "integer"}, is_required)


def enum(name: str, options: Sequence[Any], is_required: bool = False) -> Property:
    return Property(name, {"enum": list(options)}, is_required)


def create(properties: Sequence[Property]) -> dict[str, Any]:
    """The object schema with these properties (the required ones listed)."""
    return {"type": "object", "properties": {p.name: p.schema for p in properties},
            "required": [p.name for p in properties if p.is_required]}


def no_params() -> dict[str, Any]:
    return create([])
