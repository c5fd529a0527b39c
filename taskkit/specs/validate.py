"""Load-time validation of a parsed `TaskSpec`: every problem found, each at its field path.

`validate(spec, registry_lookup)` walks the whole spec and returns a `Model` (the resolved
apps and tables, the shape of every param, the parts of a composite) together with every
`Problem` found: unknown apps, tables, columns and params, generators whose values do not fit
their column, templates that name a missing param or field, bad ranges, tolerances and
weights, steps in the wrong place, includes naming unknown tasks. A problem in one place
never hides the others (an unknown table just leaves its columns unchecked).

`Validator` checks params, templates, tables, columns and conditions itself; each check and
step kind's own checks are its `validate` function in `kinds.CHECKS` / `kinds.STEPS`, called
with the `Validator` to report on.
"""
from __future__ import annotations

import dataclasses
import difflib
import json
import re
from typing import Any, Callable, Iterable

import jinja2
from jinja2 import nodes

from taskkit import apps, metadata
from taskkit.apps.base import App
from taskkit.specs import generators, gui_steps, kinds, shapes, tables, templates
from taskkit.specs.errors import Problem
from taskkit.specs.shapes import ANY, BOOL, FLOAT, INT, NULL, STR, Shape
from taskkit.specs.tables import TableInfo

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
TASK_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
RESERVED = frozenset(templates.ENV.globals) | {"loop", "self", "super", "varargs", "kwargs", "true", "false", "none"}
NAMESPACES = ("global", "system", "secure")
GENERATORS = ("choice", "int_range", "float_range", "datetime", "faker", "rows", "ref", "constant", "expr", "template")
TEXT_OPS = {"EQ", "NE", "CONTAINS", "IN", "NOT_IN", "STARTS_WITH"}
ORDER_OPS = {"EQ", "NE", "LT", "LE", "GT", "GE"}
_FAKER_PROBE_SEED = 0


@dataclasses.dataclass
class Model:
    """What validation resolved, for the compiler."""

    apps: list[App] = dataclasses.field(default_factory=list)
    tables: dict[str, TableInfo] = dataclasses.field(default_factory=dict)  # field path → table
    shapes: dict[str, Shape] = dataclasses.field(default_factory=dict)  # param name → shape
    parts: list[tuple[str, Any, float, dict[str, str]]] = dataclasses.field(default_factory=list)
    answer_checks: list[str] = dataclasses.field(default_factory=list)  # paths of answer checks


def _close(name: str, options: Iterable[str]) -> str:
    found = difflib.get_close_matches(name, list(options), n=3)
    return f" (did you mean {', '.join(found)}?)" if found else ""


def _which(message: Any, group: str) -> str | None:
    return message.WhichOneof(group)


class Validator:
    """One pass over one spec, collecting problems."""

    def __init__(self, spec: Any, find_task: Callable[[str], Any]):
        self.spec = spec
        self.find_task = find_task
        self.model = Model()
        self.problems: list[Problem] = []
        self.in_rows = False
        self.section = ""  # the steps being checked: setup, oracle or teardown

    # ----------------------------------------------------------------------- bookkeeping
    def problem(self, field: str, message: str, needle: str = "") -> None:
        self.problems.append(Problem(field, message, needle))

    # ----------------------------------------------------------------------- the spec
    def run(self) -> Model:
        spec = self.spec
        composite = len(spec.include) > 0
        if not spec.name:
            self.problem("name", "required: the task's registry name, e.g. \"ExpenseRenameSpec\"")
        elif not TASK_NAME.match(spec.name):
            self.problem("name", f"{spec.name!r} is not a valid task name (letters, digits, _ . -; not starting with a digit)")
        for i, name in enumerate(spec.apps):
            try:
                app = apps.get(name)
            except KeyError:
                self.problem(f"apps[{i}]", _unknown_app(name))
                continue
            if app in self.model.apps:
                self.problem(f"apps[{i}]", f"app {name!r} is listed twice")
            else:
                self.model.apps.append(app)
        if not spec.apps and not composite:
            self.problem("apps", "required: the apps the task uses, e.g. apps: \"pro expense\"")
        if spec.HasField("complexity"):
            if not spec.complexity > 0:
                self.problem("complexity", f"must be a positive number, got {spec.complexity:g}")
        elif not composite:
            self.problem("complexity", "required: a positive number (the step budget is 10 × complexity)")
        if spec.difficulty not in ("", *metadata.DIFFICULTIES):
            self.problem("difficulty", f"must be one of {', '.join(metadata.DIFFICULTIES)}, got {spec.difficulty!r}")
        if spec.HasField("optimal_steps") and spec.optimal_steps < 1:
            self.problem("optimal_steps", f"must be a positive whole number, got {spec.optimal_steps}")
        for i, tag in enumerate(spec.tags):
            if not tag.strip():
                self.problem(f"tags[{i}]", "an empty tag: remove it or name it")
        scope: dict[str, Shape] = {}
        for i, param in enumerate(spec.params):
            self.top_param(param, f"params[{i}]", scope)
        if composite:
            self.includes(scope)
            for name in ("setup", "oracle", "teardown"):
                if len(getattr(spec, name)):
                    self.problem(name, "a spec with `include` has no steps of its own: put them in a separate spec and include it")
            if spec.HasField("success"):
                self.problem("success", "a spec with `include` is scored by its parts: put this check in a separate spec and include it")
            if len(spec.gui_reference):
                self.problem("gui_reference", "a spec with `include` plays its parts' GUI references in order: give the "
                             "reference in the included specs")
            if len(spec.milestones):
                self.problem("milestones", "a spec with `include` takes its parts' milestones: declare them in the "
                             "included specs")
        else:
            if not spec.HasField("success"):
                self.problem("success", "required: how the end state is scored (e.g. success { rows_added { ... } })")
            else:
                self.check(spec.success, "success", scope)
            if not len(spec.oracle):
                self.problem("oracle", "required: the reference solution's steps (the oracle agent runs them)")
            for name in ("setup", "oracle", "teardown"):
                self.section = name
                for i, step in enumerate(getattr(spec, name)):
                    self.step(step, f"{name}[{i}]", scope)
            for i, step in enumerate(spec.gui_reference):
                gui_steps.validate(self, step, f"gui_reference[{i}]", scope)
            self.milestones(spec.milestones, scope)
        self.model.shapes = scope
        if not spec.goal.strip():
            self.problem("goal", "required: the instruction shown to the agent (a jinja2 template over the params)")
        else:
            self.template(spec.goal, "goal", scope)
        return self.model

    # ----------------------------------------------------------------------- params
    def top_param(self, param: Any, path: str, scope: dict[str, Shape]) -> None:
        if param.extra:
            self.problem(f"{path}.extra", "only fields of a rows generator can be `extra`")
        if self.param_name(param, path, scope):
            shape = self.param(param, path, scope, None)
            scope[param.name] = shape

    def param_name(self, param: Any, path: str, taken: dict[str, Shape]) -> bool:
        if not param.name:
            self.problem(f"{path}.name", "required")
            return False
        if not NAME.match(param.name):
            self.problem(f"{path}.name", f"{param.name!r} is not a valid name (letters, digits and _, not starting with a digit)")
            return False
        if param.name in RESERVED:
            self.problem(f"{path}.name", f"{param.name!r} is reserved (templates use it); choose another name")
            return False
        if param.name in taken:
            self.problem(f"{path}.name", f"{param.name!r} is defined twice")
            return False
        return True

    def param(self, param: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        """Check one param (or rows field) and return the shape of its value."""
        kind = _which(param, "generator")
        if kind is None:
            self.problem(path, f"no generator: set one of {', '.join(GENERATORS)}")
            shape = ANY
        else:
            shape = getattr(self, f"gen_{kind}")(getattr(param, kind), f"{path}.{kind}", scope, table)
        if param.HasField("count"):
            shape = shapes.list_of(shape)
        elif param.unique:
            self.problem(f"{path}.unique", "`unique` needs `count` (it keeps the drawn list free of repeats)")
        for i, ref in enumerate(param.distinct_from):
            self.path_in(ref, f"{path}.distinct_from[{i}]", scope)
        return shape

    def gen_choice(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        lists = [(name, getattr(msg, name)) for name in ("strings", "ints", "floats", "values") if len(getattr(msg, name))]
        if len(lists) != 1:
            self.problem(path, "give exactly one non-empty list: strings, ints, floats or values")
            return ANY
        name, values = lists[0]
        if msg.weights and len(msg.weights) != len(values):
            self.problem(f"{path}.weights", f"{len(msg.weights)} weights for {len(values)} values")
        elif msg.weights and (any(w < 0 for w in msg.weights) or sum(msg.weights) <= 0):
            self.problem(f"{path}.weights", "weights must be ≥ 0 and not all 0")
        if name == "values":
            return shapes.join(self.literal(v, f"{path}.values[{i}]") for i, v in enumerate(values))
        return {"strings": STR, "ints": INT, "floats": FLOAT}[name]

    def literal(self, value: Any, path: str) -> Shape:
        kind = _which(value, "kind")
        if kind is None:
            self.problem(path, "empty value: set one of str, int, float, bool, json, null")
            return ANY
        if kind == "json":
            try:
                return shapes.of_value(json.loads(value.json))
            except ValueError as error:
                self.problem(f"{path}.json", f"invalid JSON: {error}")
                return ANY
        return {"str": STR, "int": INT, "float": FLOAT, "bool": BOOL, "null": NULL}[kind]

    def gen_int_range(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        if msg.min > msg.max:
            self.problem(f"{path}.max", f"max {msg.max} is below min {msg.min}")
        if msg.HasField("step") and msg.step <= 0:
            self.problem(f"{path}.step", f"must be positive, got {msg.step}")
        return INT

    def gen_float_range(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        if msg.min > msg.max:
            self.problem(f"{path}.max", f"max {msg.max:g} is below min {msg.min:g}")
        if msg.HasField("decimals") and msg.decimals > 15:
            self.problem(f"{path}.decimals", "at most 15")
        return FLOAT

    def gen_datetime(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        low = generators.offset_seconds(msg.min)
        high = generators.offset_seconds(msg.max) if msg.HasField("max") else low
        if high < low:
            self.problem(f"{path}.max", "max is before min")
        if msg.HasField("step_minutes") and msg.step_minutes == 0:
            self.problem(f"{path}.step_minutes", "must be positive")
        for name in ("earliest_hour", "latest_hour"):
            if msg.HasField(name) and getattr(msg, name) > 23:
                self.problem(f"{path}.{name}", f"an hour of the day is 0–23, got {getattr(msg, name)}")
        if msg.HasField("earliest_hour") and msg.HasField("latest_hour") and msg.earliest_hour > msg.latest_hour:
            self.problem(f"{path}.latest_hour", "latest_hour is before earliest_hour")
        if msg.anchor_param:
            if msg.anchor:
                self.problem(f"{path}.anchor", "give either anchor or anchor_param, not both")
            anchor = self.path_in(msg.anchor_param, f"{path}.anchor_param", scope)
            if anchor.kind not in ("int", "any"):
                self.problem(f"{path}.anchor_param", f"{msg.anchor_param} is {anchor.describe()}, not epoch seconds")
        formatted = msg.output == msg.FORMATTED
        if formatted and not msg.format:
            self.problem(f"{path}.format", "required with output: FORMATTED (strftime, e.g. \"%B %d %Y\")")
        if msg.format and not formatted:
            self.problem(f"{path}.format", "only used with output: FORMATTED")
        return STR if formatted else INT

    def gen_faker(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        allowed = generators.faker_providers()
        if msg.provider not in allowed:
            what = "required: a Faker provider name, e.g. \"sentence\"" if not msg.provider else \
                f"unknown Faker provider {msg.provider!r}{_close(msg.provider, allowed)}"
            self.problem(f"{path}.provider", what)
            return ANY
        args, kwargs, seen_keyword = [], {}, False
        for i, arg in enumerate(msg.args):
            kind = _which(arg, "value")
            if kind is None:
                self.problem(f"{path}.args[{i}]", "no value: set str, int, float or bool")
                return ANY
            if arg.name:
                seen_keyword = True
                kwargs[arg.name] = getattr(arg, kind)
            elif seen_keyword:
                self.problem(f"{path}.args[{i}]", "a positional argument after a keyword argument")
                return ANY
            else:
                args.append(getattr(arg, kind))
        try:
            probe = generators.probe_rng(_FAKER_PROBE_SEED)
            value = generators.Faker(msg.provider, tuple(args), tuple(kwargs.items())).draw(probe, {})
        except Exception as error:
            where = f"{path}.args" if len(msg.args) else f"{path}.provider"
            self.problem(where, f"Faker {msg.provider}() failed with these arguments: {type(error).__name__}: {error}")
            return ANY
        shape = shapes.of_value(value)
        if shape is ANY:
            self.problem(f"{path}.provider", f"Faker {msg.provider}() returns {type(value).__name__}, not plain data")
        return shape

    def gen_rows(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        if table is not None or self.in_rows:
            self.problem(path, "rows cannot be nested inside rows")
            return ANY
        info = self.table(msg, path) if msg.table or msg.app else None
        if msg.app and not msg.table:
            return ANY
        if msg.HasField("max_count") and msg.max_count < msg.count:
            self.problem(f"{path}.max_count", f"max_count {msg.max_count} is below count {msg.count}")
        fields: dict[str, Shape] = {}
        for i, field in enumerate(msg.fields):
            fpath = f"{path}.fields[{i}]"
            if not self.param_name(field, fpath, fields):
                continue
            column = info.column(field.name) if info else None
            if info is not None and column is None and not field.extra:
                self.problem(f"{fpath}.name", f"table {info.name} has no column {field.name!r}{_close(field.name, info.columns)} "
                                              "(a field that is not a column needs `extra: true`)")
            if info is not None and column is not None and field.extra:
                self.problem(f"{fpath}.extra", f"{field.name!r} is a column of table {info.name}; it cannot be extra")
            self.in_rows = True
            try:
                shape = self.param(field, fpath, {**scope, **fields}, info)
            finally:
                self.in_rows = False
            if column is not None and not field.extra:
                kind = _which(field, "generator")
                problem = shapes.column_problem(shape, column.affinity, column.nullable)
                if problem:
                    self.problem(f"{fpath}.{kind}" if kind else fpath,
                                 f"type mismatch: {problem} {info.name}.{field.name}")
            fields[field.name] = shape
        for i, condition in enumerate(msg.exclude_if):
            self.condition(condition, f"{path}.exclude_if[{i}]", info, scope, row_fields=fields)
        for i, name in enumerate(msg.unique_by):
            if name not in fields:
                self.problem(f"{path}.unique_by[{i}]", f"{name!r} is not a field of these rows (fields: {', '.join(fields)})")
        return shapes.list_of(shapes.row(fields.items(), info.name if info else msg.table))

    def gen_ref(self, ref: str, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        return self.path_in(ref, path, scope)

    def gen_constant(self, msg: Any, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        return self.literal(msg, path)

    def gen_expr(self, source: str, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        return self.template(source, path, scope, expression=True)

    def gen_template(self, source: str, path: str, scope: dict[str, Shape], table: TableInfo | None) -> Shape:
        self.template(source, path, scope)
        return STR

    # ----------------------------------------------------------------------- paths and templates
    def path_in(self, path_text: str, field: str, scope: dict[str, Shape]) -> Shape:
        if not path_text:
            self.problem(field, "required: a param path such as event.title")
            return ANY
        try:
            return shapes.walk(scope, path_text)
        except shapes.PathError as error:
            message = str(error)
            needle = path_text.split(".")[0]
            if message.startswith("unknown param"):
                message = f"unknown param reference {needle!r}{_close(needle, scope)}{_known(scope)}"
            else:
                needle = error.needle or needle
            self.problem(field, message, needle)
            return ANY

    def template(self, source: str, field: str, scope: dict[str, Shape], *, expression: bool = False) -> Shape:
        """Check a template (or expression): syntax, names, fields; the expression's shape."""
        what = "expr" if expression else "template"
        try:
            tree = templates.parse(source, expression=expression)
        except jinja2.TemplateSyntaxError as error:
            line = f" line {error.lineno}" if not expression and source.count("\n") else ""
            self.problem(field, f"{what} syntax error{line}: {error.message}")
            return ANY
        bad_filters = templates.filters_used(tree) & templates.FORBIDDEN_FILTERS
        if bad_filters:
            self.problem(field, f"the {', '.join(sorted(bad_filters))} filter is not allowed: it is not seeded")
            return ANY
        missing = sorted(templates.free_names(tree) - set(scope))
        if missing:
            name = missing[0]
            self.problem(field, f"{what} uses unknown param {name!r}{_close(name, scope)}{_known(scope)}", name)
            return ANY
        try:
            _FieldChecker(scope).visit(tree)
        except shapes.PathError as error:
            self.problem(field, f"{what}: {error}", error.needle)
            return ANY
        if expression:
            output = next(tree.find_all(nodes.Output))
            return _infer(output.nodes[0], scope)
        return STR

    # ----------------------------------------------------------------------- tables and conditions
    def table(self, msg: Any, path: str) -> TableInfo | None:
        if not msg.table:
            self.problem(f"{path}.table", "required: the app table's name")
            return None
        if msg.app:
            try:
                apps.get(msg.app)
            except KeyError:
                self.problem(f"{path}.app", _unknown_app(msg.app))
                return None
            if apps.get(msg.app) not in self.model.apps and self.spec.apps:
                self.problem(f"{path}.app", f"app {msg.app!r} is not among the spec's apps ({', '.join(self.spec.apps)})")
                return None
        try:
            info = tables.resolve(msg.app, msg.table, self.model.apps)
        except KeyError as error:
            self.problem(f"{path}.table", str(error.args[0]))
            return None
        self.model.tables[path] = info
        return info

    def source(self, msg: Any, path: str) -> TableInfo | None:
        """A check's row source: `app`+`table` or `uri` (exactly one)."""
        if msg.uri and (msg.table or msg.app):
            self.problem(f"{path}.uri", "give either a table (with its app) or a provider uri, not both")
            return None
        if msg.uri:
            self.provider_uri(msg.uri, f"{path}.uri")
            return None
        if not msg.table:
            self.problem(f"{path}.table", "required: the app table (or a provider `uri`)")
            return None
        return self.table(msg, path)

    def column(self, name: str, field: str, info: TableInfo | None, extra: Iterable[str] = ()) -> str:
        """The column's affinity ("" when unknown); a problem when the table lacks it."""
        if not name:
            self.problem(field, "required: a column name")
            return ""
        if info is None or name in extra:
            return ""
        column = info.column(name)
        if column is None:
            self.problem(field, f"table {info.name} has no column {name!r}{_close(name, info.columns)}")
            return ""
        return column.affinity

    def condition(self, msg: Any, path: str, info: TableInfo | None, scope: dict[str, Shape],
                  row_fields: dict[str, Shape] | None = None) -> None:
        combinators = [name for name in ("all", "any", "not") if msg.HasField(name)]
        leaf = bool(msg.field) or msg.op != 0 or _which(msg, "value") is not None
        if combinators and leaf or len(combinators) > 1:
            self.problem(path, "a condition is either a test (field, op, value) or one of all / any / not")
            return
        if combinators:
            name = combinators[0]
            if name == "not":
                self.condition(getattr(msg, "not"), f"{path}.not", info, scope, row_fields)
            else:
                group = getattr(msg, name)
                if not len(group.condition):
                    self.problem(f"{path}.{name}", "empty: give at least one condition")
                for i, inner in enumerate(group.condition):
                    self.condition(inner, f"{path}.{name}.condition[{i}]", info, scope, row_fields)
            return
        extra = set(row_fields or ()) - (set(info.columns) if info else set())
        if row_fields is not None and info is None:
            extra = set(row_fields)
        affinity = self.column(msg.field, f"{path}.field", info, extra)
        if row_fields is not None and msg.field and msg.field not in row_fields and info is not None \
                and info.column(msg.field) is not None:
            self.problem(f"{path}.field", f"{msg.field!r} is not generated by these rows' fields, so it is never set")
        op = msg.Op.Name(msg.op)
        if op == "OP_UNSPECIFIED":
            self.problem(f"{path}.op", "required: EQ, NE, LT, LE, GT, GE, CONTAINS, IN, NOT_IN, FUZZY_EQ, ...")
            return
        kind = _which(msg, "value")
        if op in ("IS_NULL", "NOT_NULL"):
            if kind is not None:
                self.problem(f"{path}.{kind}", f"{op} takes no value")
            return
        if kind is None:
            self.problem(path, f"{op} needs a value: str, int, float, bool, param, expr or template")
            return
        if msg.ignore_case and op not in TEXT_OPS:
            self.problem(f"{path}.ignore_case", f"only for text comparisons ({', '.join(sorted(TEXT_OPS))})")
        shape = self.operand(msg, path, kind, scope)
        if op in ("IN", "NOT_IN"):
            if shape.kind not in ("list", "any"):
                self.problem(f"{path}.{kind}", f"{op} needs a list (e.g. a param path over rows), got {shape.describe()}")
            shape = shape.item or ANY if shape.kind == "list" else ANY
        if op in ORDER_OPS | {"IN", "NOT_IN"} and kind in ("str", "int", "float", "bool", "param"):
            problem = shapes.column_problem(shape, affinity, True)
            if problem:
                self.problem(f"{path}.{kind}", f"type mismatch: {problem} {msg.field}")

    def operand(self, msg: Any, path: str, kind: str, scope: dict[str, Shape]) -> Shape:
        value = getattr(msg, kind)
        if kind == "param":
            return self.path_in(value, f"{path}.param", scope)
        if kind == "expr":
            return self.template(value, f"{path}.expr", scope, expression=True)
        if kind == "template":
            self.template(value, f"{path}.template", scope)
            return ANY  # converted to the column's type
        return {"str": STR, "int": INT, "float": FLOAT, "bool": BOOL, "null": NULL}[kind]

    def assign(self, msg: Any, path: str, info: TableInfo | None, scope: dict[str, Shape]) -> None:
        affinity = self.column(msg.column, f"{path}.column", info)
        kind = _which(msg, "value")
        if kind is None:
            self.problem(path, "no value: set str, int, float, bool, param, expr, template or null")
            return
        shape = self.operand(msg, path, kind, scope)
        if info is not None and msg.column in info.columns:
            column = info.columns[msg.column]
            problem = shapes.column_problem(shape, affinity, column.nullable)
            if problem:
                self.problem(f"{path}.{kind}", f"type mismatch: {problem} {info.name}.{msg.column}")

    def conditions(self, conditions: Any, field: str, info: TableInfo | None, scope: dict[str, Shape],
                   required: str) -> None:
        """A `where` list: not empty (else `required` is the problem), each condition sound."""
        if not len(conditions):
            self.problem(field, required)
        for i, condition in enumerate(conditions):
            self.condition(condition, f"{field}[{i}]", info, scope)

    def assigns(self, assigns: Any, field: str, info: TableInfo | None, scope: dict[str, Shape],
                required: str = "") -> None:
        """A `set` list: each value fits its column; when `required`, not empty."""
        if required and not len(assigns):
            self.problem(field, required)
        for i, assign in enumerate(assigns):
            self.assign(assign, f"{field}[{i}]", info, scope)

    def row_params(self, paths: Iterable[str], field: str, scope: dict[str, Shape], info: TableInfo | None) -> None:
        """Param paths that must hold a row or a list of rows (of `info`'s table)."""
        for i, path in enumerate(paths):
            shape = self.path_in(path, f"{field}[{i}]", scope)
            row = shape.item if shape.kind == "list" else shape
            if row is None or row.kind == "any":
                continue
            if row.kind != "row":
                self.problem(f"{field}[{i}]", f"{path} is {shape.describe()}, not a row or a list of rows")
            elif info is not None and row.table and row.table != info.name:
                self.problem(f"{field}[{i}]", f"{path} holds rows of table {row.table}, not {info.name}")

    # ----------------------------------------------------------------------- steps and checks
    def step(self, step: Any, path: str, scope: dict[str, Shape]) -> None:
        """One `Step` message: `for_each`, then its kind's own checks (see `kinds.STEPS`)."""
        scope = self.for_each_scope(step.for_each, path, scope)
        kind = _which(step, "kind")
        if kind is None:
            self.problem(path, f"empty step: set one of {', '.join(kinds.STEPS.oneof_fields())}")
            return
        kinds.STEPS[kind].validate(self, getattr(step, kind), f"{path}.{kind}", scope)

    def for_each_scope(self, for_each: str, path: str, scope: dict[str, Shape]) -> dict[str, Shape]:
        """The scope inside a step repeated `for_each` item of a list param (`item`, `index`)."""
        if not for_each:
            return scope
        listed = self.path_in(for_each, f"{path}.for_each", scope)
        if listed.kind not in ("list", "any"):
            self.problem(f"{path}.for_each", f"{for_each} is {listed.describe()}, not a list")
        item = listed.item or ANY if listed.kind == "list" else ANY
        return {**scope, "item": item, "index": INT}

    def milestones(self, groups: Any, scope: dict[str, Shape]) -> None:
        """Each group has milestones; each milestone a name no other one has, and a check."""
        seen: set[str] = set()
        for i, group in enumerate(groups):
            if not len(group.milestone):
                self.problem(f"milestones[{i}]", "an empty group: add milestone { name: ... check { ... } }")
            for j, stone in enumerate(group.milestone):
                path = f"milestones[{i}].milestone[{j}]"
                if not stone.name.strip():
                    self.problem(f"{path}.name", "required: the name result rows report it by")
                elif stone.name in seen:
                    self.problem(f"{path}.name", f"{stone.name!r} names another milestone too: give each its own name")
                seen.add(stone.name)
                if not stone.HasField("check"):
                    self.problem(f"{path}.check", "required: the state that reaches it (e.g. check { setting_equals { ... } })")
                else:
                    self.check(stone.check, f"{path}.check", scope)

    def check(self, check: Any, path: str, scope: dict[str, Shape]) -> None:
        """One `Check` message: its weight, then its kind's own checks (see `kinds.CHECKS`)."""
        if check.HasField("weight") and check.weight < 0:
            self.problem(f"{path}.weight", f"must be ≥ 0, got {check.weight:g}")
        kind = _which(check, "kind")
        if kind is None:
            self.problem(path, f"empty check: set one of {', '.join(kinds.CHECKS.oneof_fields())}")
            return
        kinds.CHECKS[kind].validate(self, getattr(check, kind), f"{path}.{kind}", scope)

    def rows(self, msg: Any, path: str, info: TableInfo | None, scope: dict[str, Shape], required: str) -> None:
        """Rows from param paths (`msg.params`) and inline (`msg.rows`): at least one, else `required`."""
        if not len(msg.params) and not len(msg.rows):
            self.problem(path, required)
        self.row_params(msg.params, f"{path}.params", scope, info)
        for i, row in enumerate(msg.rows):
            self.row(row, f"{path}.rows[{i}]", info, scope)

    def row(self, row: Any, path: str, info: TableInfo | None, scope: dict[str, Shape]) -> None:
        if not len(row.set):
            self.problem(path, "empty row: give its columns with set { column: ... }")
        for i, assign in enumerate(row.set):
            self.assign(assign, f"{path}.set[{i}]", info, scope)

    def required_template(self, source: str, field: str, scope: dict[str, Shape]) -> None:
        if not source.strip():
            self.problem(field, "required")
        else:
            self.template(source, field, scope)

    def app_name(self, name: str, field: str) -> None:
        try:
            app = apps.get(name)
        except KeyError:
            self.problem(field, _unknown_app(name) if name else "required: an app name")
            return
        if app not in self.model.apps:
            self.problem(field, f"app {name!r} is not among the spec's apps ({', '.join(self.spec.apps)})")

    def setting(self, msg: Any, path: str) -> None:
        if msg.namespace not in NAMESPACES:
            self.problem(f"{path}.namespace", f"must be global, system or secure; got {msg.namespace!r}")
        if not msg.key or msg.key.startswith("-") or any(ch.isspace() for ch in msg.key):
            self.problem(f"{path}.key", f"a settings key is one word, got {msg.key!r}")

    def provider_uri(self, uri: str, field: str) -> None:
        if not uri:
            self.problem(field, "required: a content provider uri, e.g. content://sms/sent")
        elif not uri.startswith("content://"):
            self.problem(field, f"a provider uri starts with content://, got {uri!r}")

    # ----------------------------------------------------------------------- composition
    def includes(self, scope: dict[str, Shape]) -> None:
        labels: dict[str, Shape] = {}
        for i, include in enumerate(self.spec.include):
            path = f"include[{i}]"
            if not include.label or not NAME.match(include.label):
                self.problem(f"{path}.label", f"required: a name for this part (letters, digits, _), got {include.label!r}")
                continue
            if include.label in labels or include.label in scope:
                self.problem(f"{path}.label", f"{include.label!r} is already a label or param name")
                continue
            if include.HasField("weight") and include.weight < 0:
                self.problem(f"{path}.weight", f"must be ≥ 0, got {include.weight:g}")
            try:
                part = self.find_task(include.task) if include.task else None
            except LookupError as error:
                self.problem(f"{path}.task", str(error.args[0]) if error.args else f"unknown task {include.task!r}")
                labels[include.label] = ANY
                continue
            if part is None:
                self.problem(f"{path}.task", "required: the name of a registered task (Python or spec)")
                continue
            properties = (part.schema.get("properties") or {})
            labels[include.label] = _schema_shape(part.schema)
            bindings: dict[str, str] = {}
            for j, bind in enumerate(include.bind):
                bpath = f"{path}.bind[{j}]"
                if properties and bind.param not in properties:
                    self.problem(f"{bpath}.param", f"task {part.name} has no param {bind.param!r}{_close(bind.param, properties)}")
                self.path_in(bind.ref, f"{bpath}.ref", {**scope, **labels})
                bindings[f"{include.label}.{bind.param}"] = bind.ref
            weight = include.weight if include.HasField("weight") else 1.0
            self.model.parts.append((include.label, part, weight, bindings))
        if self.model.parts and sum(w for _, _, w, _ in self.model.parts) <= 0:
            self.problem("include", "the parts' weights add up to 0")
        scope.update(labels)
        for part_apps in (part.app_names for _, part, _, _ in self.model.parts):
            for name in part_apps:
                app = apps.get(name)
                if app not in self.model.apps:
                    self.model.apps.append(app)


def _unknown_app(name: str) -> str:
    names = [app.name for app in apps.all_apps()]
    hint = _close(name.lower(), names)
    return (f"unknown app {name!r}{hint}; apps: {', '.join(names)} "
            "(an app of your own loads with --task_module FILE.py that calls taskkit.apps.register)")


def _known(scope: dict[str, Shape]) -> str:
    return f" (params: {', '.join(scope)})" if scope else " (no params are defined)"


def _schema_shape(schema: dict[str, Any]) -> Shape:
    """The shape a JSON Schema describes (for a composite part's params)."""
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties") or {}
        return shapes.row((name, _schema_shape(sub)) for name, sub in properties.items()) if properties else shapes.row(())
    if kind == "array":
        return shapes.list_of(_schema_shape(schema.get("items") or {}))
    return {"integer": INT, "number": FLOAT, "string": STR, "boolean": BOOL, "null": NULL}.get(kind, ANY) \
        if isinstance(kind, str) else ANY


# --------------------------------------------------------------------------- template shapes
_DICT_METHODS = {"keys", "values", "items", "get"}
_STR_FILTERS = {"string", "lower", "upper", "title", "capitalize", "trim", "date", "time", "when", "duration", "money",
                "join", "replace", "format", "truncate", "center", "indent", "striptags", "urlencode", "wordwrap"}


def _infer(node: nodes.Node, scope: dict[str, Shape]) -> Shape:
    """The shape of a jinja2 expression node, as far as it is known statically."""
    if isinstance(node, nodes.Name):
        return scope.get(node.name, ANY)
    if isinstance(node, nodes.Const):
        return shapes.of_value(node.value)
    if isinstance(node, (nodes.List, nodes.Tuple)):
        return shapes.list_of(shapes.join(_infer(item, scope) for item in node.items))
    if isinstance(node, nodes.Getattr):
        base = _infer(node.node, scope)
        if base.kind == "list":
            raise shapes.PathError(f"{_describe(node.node)} is {base.describe()}; write {_describe(node.node)}[0].{node.attr} "
                                   f"or {_describe(node.node)} | map(attribute='{node.attr}')", node.attr)
        if base.kind == "row" and node.attr in _DICT_METHODS and base.field(node.attr) is None:
            return ANY
        return shapes._step(base, node.attr, _describe(node.node))
    if isinstance(node, nodes.Getitem):
        base = _infer(node.node, scope)
        if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            return shapes._step(base, node.arg.value, _describe(node.node))
        if base.kind == "list":
            return base.item or ANY
        return ANY
    if isinstance(node, (nodes.Add, nodes.Sub, nodes.Mul, nodes.FloorDiv, nodes.Mod)):
        left, right = _infer(node.left, scope), _infer(node.right, scope)
        if left == INT and right == INT:
            return INT
        if {left.kind, right.kind} <= {"int", "float"}:
            return FLOAT
        if isinstance(node, nodes.Add) and left == STR and right == STR:
            return STR
        return ANY
    if isinstance(node, nodes.Div):
        return FLOAT
    if isinstance(node, nodes.Concat):
        return STR
    if isinstance(node, nodes.Neg):
        return _infer(node.node, scope)
    if isinstance(node, (nodes.Compare, nodes.And, nodes.Or, nodes.Not)):
        return BOOL
    if isinstance(node, nodes.CondExpr):
        return shapes.join([_infer(node.expr1, scope), _infer(node.expr2, scope) if node.expr2 else ANY])
    if isinstance(node, nodes.Filter):
        if node.name == "int" or node.name in ("length", "count", "wordcount"):
            return INT
        if node.name in ("float", "round"):
            return FLOAT
        if node.name in _STR_FILTERS:
            return STR
        if node.name in ("first", "last") and node.node is not None:
            base = _infer(node.node, scope)
            return base.item or ANY if base.kind == "list" else ANY
        if node.name in ("abs",) and node.node is not None:
            return _infer(node.node, scope)
        return ANY
    return ANY


def _describe(node: nodes.Node) -> str:
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        return f"{_describe(node.node)}.{node.attr}"
    return "value"


class _FieldChecker:
    """Walks a template checking attribute access on known shapes, with loop variables typed."""

    def __init__(self, scope: dict[str, Shape]):
        self.scope = dict(scope)

    def visit(self, node: nodes.Node) -> None:
        if isinstance(node, nodes.For):
            self.visit(node.iter)
            iterated = _infer(node.iter, self.scope)
            item = iterated.item or ANY if iterated.kind == "list" else ANY
            saved = dict(self.scope)
            for target in ([node.target] if isinstance(node.target, nodes.Name) else list(node.target.find_all(nodes.Name))):
                self.scope[target.name] = item if isinstance(node.target, nodes.Name) else ANY
            self.scope["loop"] = ANY
            for child in [*node.body, *node.else_]:
                self.visit(child)
            if node.test is not None:
                self.visit(node.test)
            self.scope = saved
            return
        if isinstance(node, nodes.Assign):
            self.visit(node.node)
            for target in node.target.find_all(nodes.Name):
                self.scope[target.name] = ANY
            return
        if isinstance(node, (nodes.Getattr, nodes.Getitem)):
            _infer(node, self.scope)
        for child in node.iter_child_nodes():
            self.visit(child)


def validate(spec: Any, find_task: Callable[[str], Any]) -> tuple[Model, list[Problem]]:
    """Check `spec`; the model and every problem found (empty when the spec is sound)."""
    validator = Validator(spec, find_task)
    model = validator.run()
    return model, validator.problems
