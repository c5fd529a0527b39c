"""taskkit: parameterized, reproducible tasks for benchmarking Android agents.

The public names load lazily, so importing a low layer (`taskkit.device`) never pulls in the
task layer above it.
"""
from __future__ import annotations

from taskkit.lazy import exports

__version__ = "0.1.0"  # setup.py reads it from here

_EXPORTS = {
    "Env": "taskkit.env",
    "LifecycleError": "taskkit.task",
    "ParamError": "taskkit.params",
    "TaskDefinitionError": "taskkit.task",
    "TaskEnv": "taskkit.env",
    "TaskEval": "taskkit.task",
    "TaskRng": "taskkit.rng",
    "TaskkitError": "taskkit.errors",
    "instance_seed": "taskkit.rng",
}
__all__ = sorted(_EXPORTS)

__getattr__ = exports(__name__, _EXPORTS)
