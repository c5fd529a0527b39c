"""Compile a validated `TaskSpec` into a `TaskEval` class, indistinguishable from a Python task.

`compile_spec(spec, model, source)` builds the runtime plans (param generators, steps,
checks) once and returns a class: `SpecTask` for an ordinary spec, `SpecComposite` (a
`taskkit.composite.CompositeTask`) for a spec that includes other tasks. `dry_run(cls)` draws
one instance and exercises everything that needs no device (params, goal, templates, rows
against their columns, the check's construction), turning any failure into an error at the
field that caused it.
"""
from __future__ import annotations

import contextlib
import json
from typing import Any, ClassVar, Iterator, Sequence

from taskkit import apps
from taskkit.composite import CompositeTask, _lookup, _object_schema
from taskkit.device.base import DeviceError
from taskkit.env import TaskEnv
from taskkit.params import ParamError, validate as validate_params
from taskkit.rng import TaskRng
from taskkit.specs import checks, generators, gui_steps, kinds, shapes, steps, templates
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.tables import TableInfo
from taskkit.specs.validate import Model
from taskkit.specs.values import Predicate, predicate
from taskkit.task import TaskEval
from taskkit.validators import milestones as milestones_lib
from taskkit.validators.questions import ExpectedAnswerError


class SpecPlan:
    """Everything a compiled spec runs: generators, steps and the check plan.

    It is also what each kind's compile function is given (`kinds.Build`): the tables that
    validation resolved, compiled conditions, and nested checks.
    """

    def __init__(self, spec: Any, model: Model):
        self.model = model
        self.params = tuple(self._param(p, f"params[{i}]", None) for i, p in enumerate(spec.params))
        self.setup = self._steps(spec.setup, "setup")
        self.oracle = self._steps(spec.oracle, "oracle")
        self.teardown = self._steps(spec.teardown, "teardown")
        self.gui_reference = gui_steps.compile_plan(spec.gui_reference)
        self.check = self.compile_check(spec.success, "success") if spec.HasField("success") else None
        self.milestones = tuple(
            (group.ordered, tuple((m.name, m.must_hold, self.compile_check(m.check, f"milestones[{i}].milestone[{j}].check"))
                                  for j, m in enumerate(group.milestone)))
            for i, group in enumerate(spec.milestones))

    # ------------------------------------------------------------------ building (kinds.Build)
    def table(self, field: str) -> TableInfo | None:
        return self.model.tables.get(field)

    def predicates(self, conditions: Sequence[Any], field: str, info: TableInfo | None) -> tuple[Predicate, ...]:
        def affinity(column: str) -> str:
            found = info.column(column) if info is not None else None
            return found.affinity if found is not None else ""

        return tuple(predicate(c, f"{field}[{i}]", affinity) for i, c in enumerate(conditions))

    def app(self, name: str) -> Any:
        return apps.get(name)

    def compile_check(self, message: Any, field: str) -> checks.Plan:
        """A validated `Check` message, compiled by its kind."""
        kind = kinds.CHECKS[message.WhichOneof("kind")]
        path = f"{field}.{kind.field}"
        return checks.Plan(path, kind.compile(self, getattr(message, kind.field), path), checks.weight_of(message))

    def compile_step(self, message: Any, field: str) -> Any:
        """A validated `Step` message, compiled by its kind (repeated by `for_each`)."""
        kind = kinds.STEPS[message.WhichOneof("kind")]
        plan = kind.compile(self, getattr(message, kind.field), f"{field}.{kind.field}")
        return steps.ForEach(field, message.for_each, plan) if message.for_each else plan

    def _steps(self, messages: Sequence[Any], name: str) -> tuple[Any, ...]:
        return tuple(self.compile_step(m, f"{name}[{i}]") for i, m in enumerate(messages))

    def _param(self, msg: Any, field: str, info: TableInfo | None) -> generators.Param:
        kind = msg.WhichOneof("generator")
        body, gpath = getattr(msg, kind), f"{field}.{kind}"
        generator: Any
        if kind == "choice":
            if len(body.values):
                values = tuple(_literal(v) for v in body.values)
            else:
                values = tuple(body.strings) or tuple(body.ints) or tuple(body.floats)
            generator = generators.Choice(values, tuple(body.weights))
        elif kind == "int_range":
            generator = generators.IntRange(body.min, body.max, body.step if body.HasField("step") else 1)
        elif kind == "float_range":
            generator = generators.FloatRange(body.min, body.max, body.decimals if body.HasField("decimals") else None)
        elif kind == "datetime":
            generator = generators.make_datetime(body)
        elif kind == "faker":
            positional = tuple(getattr(a, a.WhichOneof("value")) for a in body.args if not a.name)
            keywords = tuple((a.name, getattr(a, a.WhichOneof("value"))) for a in body.args if a.name)
            generator = generators.Faker(body.provider, positional, keywords)
        elif kind == "rows":
            table = self.model.tables.get(gpath)
            fields = tuple(self._param(f, f"{gpath}.fields[{i}]", table) for i, f in enumerate(body.fields))
            generator = generators.Rows(
                gpath, table.name if table else "", body.count, body.max_count if body.HasField("max_count") else None, fields,
                self.predicates(body.exclude_if, f"{gpath}.exclude_if", table), tuple(body.unique_by),
            )
        elif kind == "ref":
            generator = generators.Ref(body, gpath)
        elif kind == "constant":
            generator = generators.Constant(_literal(body))
        elif kind == "expr":
            generator = generators.Expr(body, gpath)
        else:
            generator = generators.Template(body, gpath)
        return generators.Param(msg.name, field, generator, msg.count if msg.HasField("count") else None,
                                msg.unique, tuple(msg.distinct_from))

    # ------------------------------------------------------------------ running
    def draw(self, rng: TaskRng) -> dict[str, Any]:
        return generators.draw_all(self.params, rng)

    def run_steps(self, plans: Sequence[Any], env: TaskEnv, task: TaskEval) -> None:
        """Run `plans` in order; a step that fails (not the device) is named by its field."""
        run = steps.Run(task.params, lambda: _expected_answer(task))
        for plan in plans:
            try:
                plan.run(env, run)
            except (SpecRuntimeError, DeviceError):
                raise
            except Exception as error:  # e.g. a command the spec wrote exits non-zero
                raise SpecRuntimeError(plan.field, f"{type(error).__name__}: {error}") from error


def _literal(value: Any) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "json":
        return json.loads(value.json)
    if kind == "null":
        return None
    return getattr(value, kind)


def _expected_answer(task: TaskEval) -> str:
    found = checks.find_answers(task._validator) if task._validator is not None else []
    if not found:
        raise SpecRuntimeError("oracle", "an empty answer step needs an answer check in success")
    return checks.answer_text(found[0])


def _goal(cls: type, params: dict[str, Any]) -> str:
    try:
        return templates.render(cls.template, params).strip()
    except Exception as error:
        raise SpecRuntimeError("goal", f"{type(error).__name__}: {error}") from None


@contextlib.contextmanager
def located(cls: Any) -> Iterator[None]:
    """Give a run-time failure of a spec its `file:line:col` (from the class's positions)."""
    try:
        yield
    except ExpectedAnswerError as error:  # an answer check built by the spec names its field
        if cls.positions is None:
            raise SpecRuntimeError(error.label, error.message) from None
        line, col = cls.positions.locate(error.label)
        raise SpecRuntimeError(error.label, error.message, f"{cls.source}:{line}:{col}") from None
    except SpecRuntimeError as error:
        if error.where or cls.positions is None:
            raise
        line, col = cls.positions.locate(error.field)
        raise SpecRuntimeError(error.field, error.message, f"{cls.source}:{line}:{col}") from None


class SpecTask(TaskEval):
    """Base of classes compiled from specs; not registered itself."""

    abstract = True
    plan: ClassVar[SpecPlan]
    positions: ClassVar[Any] = None

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        with located(cls):
            return cls.plan.draw(rng)

    @property
    def goal(self) -> str:
        with located(type(self)):
            return _goal(type(self), self.params)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        with located(type(self)):
            self.plan.run_steps(self.plan.setup, env, self)

    def validator(self) -> Any:
        with located(type(self)):
            return self.plan.check.build(self.params)

    def is_successful(self, env: TaskEnv) -> float:
        with located(type(self)):
            return super().is_successful(env)

    def milestones(self) -> tuple[milestones_lib.Group, ...]:
        with located(type(self)):
            return tuple(milestones_lib.Group(tuple(milestones_lib.milestone(name, plan.build(self.params), held)
                                                    for name, held, plan in stones), ordered)
                         for ordered, stones in self.plan.milestones)

    def solve(self, env: TaskEnv) -> None:
        with located(type(self)):
            self.plan.run_steps(self.plan.oracle, env, self)

    def teardown(self, env: TaskEnv) -> None:
        with located(type(self)):
            self.plan.run_steps(self.plan.teardown, env, self)

    def gui_reference(self) -> list[Any] | None:
        if self.plan.gui_reference is None:
            return None
        with located(type(self)):
            return self.plan.gui_reference.steps(self.params)

    @classmethod
    def has_gui_reference(cls) -> bool:
        return cls.plan.gui_reference is not None


class SpecComposite(CompositeTask):
    """Base of composite classes compiled from specs (parts from `include`)."""

    abstract = True
    plan: ClassVar[SpecPlan]
    positions: ClassVar[Any] = None

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        with located(cls):
            params: dict[str, Any] = cls.plan.draw(rng.child("params"))
        for label, part, _ in cls.parts:
            params[label] = part.generate_random_params(rng.child(label))
        for target, source in cls.bindings.items():
            label, name = target.split(".", 1)
            params[label][name] = _lookup(params, source)
        return params

    @property
    def goal(self) -> str:
        with located(type(self)):
            return _goal(type(self), self.params)


def compile_spec(spec: Any, model: Model, source: str, *, register: bool = True,
                 positions: Any = None) -> type[TaskEval]:
    """The TaskEval class of a validated spec (registered unless `register=False`).

    `positions` (the file's field positions) lets run-time failures name `file:line:col`.
    """
    plan = SpecPlan(spec, model)
    own = {name: shapes.json_schema(shape) for name, shape in model.shapes.items() if name not in
           {label for label, _, _, _ in model.parts}}
    namespace: dict[str, Any] = {
        "name": spec.name,
        "abstract": False,
        "plan": plan,
        "template": spec.goal,
        "tags": tuple(spec.tags),
        "difficulty": spec.difficulty,
        "optimal_steps": spec.optimal_steps if spec.HasField("optimal_steps") else None,
        "real_device_only": spec.real_device_only,
        "source": source,
        "positions": positions,
        "__module__": "taskkit.specs.compiled",
        "__doc__": spec.description or f"Task compiled from {source}.",
    }
    if model.parts:
        parts = tuple((label, part, weight) for label, part, weight, _ in model.parts)
        properties = {**own, **{label: {"type": "object", **_object_schema(part)} for label, part, _ in parts}}
        namespace.update(
            parts=parts,
            bindings={k: v for _, _, _, b in model.parts for k, v in b.items()},
            app_names=tuple(dict.fromkeys(app for _, part, _ in parts for app in part.app_names)),
            complexity=spec.complexity if spec.HasField("complexity") else sum(p.complexity for _, p, _ in parts),
            schema={"type": "object", "properties": properties, "required": list(properties),
                    "additionalProperties": False},
        )
        base: type = SpecComposite
    else:
        namespace.update(
            app_names=tuple(app.name for app in model.apps),
            complexity=spec.complexity,
            schema={"type": "object", "properties": own, "required": list(own), "additionalProperties": False},
        )
        base = SpecTask
    return type(spec.name, (base,), namespace, register=register)


def dry_run(cls: Any, seed: int = 0) -> None:
    """Draw one instance and build what needs no device; raise SpecRuntimeError at the culprit."""
    plan: SpecPlan = cls.plan
    params = cls.generate_random_params(generators.probe_rng(seed))
    try:
        validate_params(params, cls.schema)
    except ParamError as error:
        field = str(error).split(":", 1)[0].removeprefix("params.").split(".")[0].split("[")[0]
        index = next((i for i, p in enumerate(plan.params) if p.name == field), None)
        raise SpecRuntimeError(f"params[{index}]" if index is not None else "params",
                               f"drawn value does not fit the param's type: {error}") from None
    _goal(cls, params)
    for param in plan.params:
        _check_rows(param, params[param.name], plan.model)
    if plan.check is not None:
        plan.check.build(params)
    for _, stones in plan.milestones:
        for _, _, check in stones:
            check.build(params)
    if plan.gui_reference is not None:
        plan.gui_reference.steps(params)
    for step in (*plan.setup, *plan.oracle, *plan.teardown):
        if isinstance(step, steps.ForEach):
            continue
        if isinstance(step, steps.Shell):
            step.render(params)
        elif isinstance(step, steps.InsertRows):
            rows = step.rows_for(params)
            _check_values(rows, step.info, step.field)


def _check_rows(param: generators.Param, value: Any, model: Model) -> None:
    """Drawn rows fit their table's column types (values whose shape was not known statically)."""
    generator = param.generator
    if not isinstance(generator, generators.Rows):
        return
    info = model.tables.get(generator.field)
    if info is None:  # plain records
        return
    for row in value if isinstance(value, list) else [value]:
        for i, field in enumerate(generator.fields):
            column = info.column(field.name)
            if column is None or field.name not in row:
                continue
            problem = shapes.value_problem(row[field.name], column.affinity, column.nullable)
            if problem:
                raise SpecRuntimeError(f"{generator.field}.fields[{i}]",
                                       f"type mismatch: drew {row[field.name]!r}: {problem} {info.name}.{field.name}")


def _check_values(rows: list[dict[str, Any]], info: TableInfo, field: str) -> None:
    for row in rows:
        for name, value in row.items():
            column = info.column(name)
            problem = shapes.value_problem(value, column.affinity, column.nullable) if column else None
            if problem:
                raise SpecRuntimeError(field, f"type mismatch: row value {value!r}: {problem} {info.name}.{name}")
