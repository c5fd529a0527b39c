"""taskkit: parameterized, reproducible tasks for benchmarking Android agents.

The public names load lazily, so importing a low layer (`taskkit.device`) never pulls in the
task layer above it.
"""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Env": "taskkit.env",
    "LifecycleError": "taskkit.task",
    "ParamError": "taskkit.params",
    "TaskDefinitionError": "taskkit.task",
    "TaskEval": "taskkit.task",
    "TaskRng": "taskkit.rng",
    "instance_seed": "taskkit.rng",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'taskkit' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
