"""Declarative tasks: `*.textproto` specs (schema: task_protos/task_spec.proto) → TaskEval classes.

    from taskkit import specs
    Task = specs.load_file("task_protos/expense_add_single_spec.textproto")
    result = specs.load_dir("my_specs/")      # LoadResult(classes=[...], errors=[SpecError, ...])

Modules, one job each: `loader` (files, errors, registration), `positions` (field path →
line:col), `validate` (load-time checks), `shapes` (static value shapes), `tables` (app
tables and column types), `templates` (jinja2), `generators` (param draws), `values`
(paths, conditions), `kinds` (the registry of check and step kinds), `checks` and `steps`
(each kind's validation and compilation), `reference` (the docs' tables of kinds),
`compiler` (the TaskEval classes).
"""
from taskkit.specs.errors import SpecError, SpecRuntimeError
from taskkit.specs.loader import LoadResult, load_dir, load_file


__all__ = ["LoadResult", "SpecError", "SpecRuntimeError", "load_dir", "load_file"]
