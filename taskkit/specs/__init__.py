"""Declarative tasks: `*.textproto` specs (schema: task_protos/task_spec.proto) → TaskEval classes.

    from taskkit import specs
    Task = specs.load_file("task_protos/expense_add_single_spec.textproto")
    result = specs.load_dir("my_specs/")      # LoadResult(classes=[...], errors=[SpecError, ...])
    errors = specs.defer_dir("my_specs/")     # registered by name, each compiled on first use

Modules, one job each: `loader` (files, errors, registration), `listing` (specs registered by
name, compiled on first use), `cache` (parsed spec files, cached on disk by content), `positions`
(field path → line:col), `validate` (load-time checks), `shapes` (static value shapes),
`tables` (app tables and column types), `templates` (jinja2), `generators` (param draws),
`values` (paths, conditions), `kinds` (the registry of check and step kinds), `checks` and
`steps` (each kind's validation and compilation), `reference` (the docs' tables of kinds),
`compiler` (the TaskEval classes).

The public names load lazily: listing specs (or catching a SpecError) imports no compiler.
"""
from __future__ import annotations

from taskkit.lazy import exports

_EXPORTS = {
    "LoadResult": "taskkit.specs.loader",
    "SpecError": "taskkit.specs.errors",
    "SpecRuntimeError": "taskkit.specs.errors",
    "defer_dir": "taskkit.specs.listing",
    "load_dir": "taskkit.specs.loader",
    "load_file": "taskkit.specs.loader",
}
__all__ = sorted(_EXPORTS)

__getattr__ = exports(__name__, _EXPORTS)
