"""`TaskEval`: the base class of every task.

A task is a pure function of a seed (seed → params → goal) plus three transformations of the
device's state: `initialize_state` sets it up, `is_successful` reads it, `teardown` restores it;
`solve` is the reference solution. Subclasses override those methods and call `super()` as
AndroidWorld tasks do; the base class wraps every override so that the lifecycle holds no
matter what a subclass does:

* `is_successful` before `initialize_state` raises `LifecycleError`, and so does initializing twice;
* the device's app data and settings are saved before `initialize_state` runs and put back by
  `teardown` (or at once, if `initialize_state` itself fails);
* a task whose `validator()` returns a validator gets its snapshot taken after initialization
  and is scored by it, with the reasons kept in `last_result`.
"""
from __future__ import annotations

import copy
import functools
import inspect
import itertools
import marshal
import re
from typing import Any, Callable, ClassVar, Sequence

import jinja2

from taskkit import apps
from taskkit.apps import common as app_format
from taskkit import params as params_lib
from taskkit import compiled_templates, metadata, registry
from taskkit.device import state as device_state
from taskkit.device.reference import DEVICE_TIME
from taskkit.device.services.activity import build_close_apps
from taskkit.env import TaskEnv
from taskkit.errors import TaskkitError
from taskkit.rng import TaskRng
from taskkit.validators.base import CheckResult, Validator
from taskkit.validators.milestones import Group


_JINJA = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
# Filters for goal templates: `{{ start_ts | date }}` → "October 22 2023", `| time` → "14:00",
# `| when` → "October 22 2023 at 14:00", `| duration` (minutes) → "1 hour 30 minutes",
# `| money` (cents) → "$123.45".
_JINJA.filters.update(
    date=app_format.format_date,
    time=app_format.format_time,
    when=app_format.format_datetime,
    duration=app_format.format_minutes,
    money=app_format.format_amount,
)


def jinja_environment() -> jinja2.Environment:
    """The jinja2 environment (options and filters) goal templates are rendered with."""
    return _JINJA


@functools.lru_cache(maxsize=4096)
def _goal_template(source: str) -> jinja2.Template:
    """A goal template compiled once (the runner reads `goal` at every step), and its code kept
    in the user cache for the next process."""
    return compiled_templates.compiled(_JINJA, source)


def _copied(params: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of plain JSON data (`check_plain` passed): marshal's round trip keeps every
    type, order and shared reference at a fifth of `copy.deepcopy`'s cost; a subclass of a plain
    type (an IntEnum), which marshal refuses, is copied by deepcopy."""
    try:
        return marshal.loads(marshal.dumps(params))
    except ValueError:
        return copy.deepcopy(params)


_RESTORE_LABELS = itertools.count(1)
_LIFECYCLE = ("initialize_state", "is_successful", "teardown")
_ALIASES = {"initialize_task": "initialize_state", "tear_down": "teardown"}


class LifecycleError(TaskkitError, RuntimeError):
    """A task method was called out of order (a bug in the caller, not in the agent)."""


class TaskDefinitionError(TaskkitError, TypeError):
    """A task class is malformed: bad schema, template, app name or complexity."""



def step_budget(complexity: float) -> int:
    """A task's step budget: 10 × its complexity (at least 1), as in AndroidWorld."""
    return max(1, int(round(10 * float(complexity))))

class TaskEval:
    """Base class of all tasks. See the module docstring for the lifecycle guarantees."""

    app_names: ClassVar[tuple[str, ...]] = ()
    complexity: ClassVar[float] = 1
    template: ClassVar[str] = ""
    schema: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}
    tags: ClassVar[tuple[str, ...]] = ()
    #: easy, medium or hard (AndroidWorld's scale); a task under an AndroidWorld name that leaves
    #: this, `optimal_steps` or its tags out gets AndroidWorld's published value (taskkit.metadata).
    difficulty: ClassVar[str] = ""
    #: The fewest GUI actions that solve the task (the step ratio's denominator).
    optimal_steps: ClassVar[int | None] = None
    #: The registry name; defaults to the class name.
    name: ClassVar[str] = "TaskEval"
    #: Abstract bases (shared helpers for a family) set this to stay out of the registry.
    abstract: ClassVar[bool] = True
    #: Where the task was defined (module or spec file), for `--list_tasks`.
    source: ClassVar[str] = "taskkit"
    #: The agent's first screen is the home screen (AndroidWorld's default); False: the agent
    #: starts where `initialize_state` left the device.
    start_on_home_screen: ClassVar[bool] = True
    #: Why the task needs a real device (a camera frame, a phone call); empty: it also runs on
    #: the simulated device. Runs and checks on a simulated device leave such tasks out, saying so.
    real_device_only: ClassVar[str] = ""

    # ------------------------------------------------------------------ class definition
    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        """Check and register each concrete subclass (`class T(TaskEval, register=False)` opts out)."""
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__
        if "abstract" not in cls.__dict__:
            cls.abstract = inspect.isabstract(cls)
        if "source" not in cls.__dict__:
            cls.source = cls.__module__
        for alias, method in _ALIASES.items():
            if alias in cls.__dict__ and method not in cls.__dict__:
                setattr(cls, method, cls.__dict__[alias])
        for method in _LIFECYCLE:
            if method in cls.__dict__:
                setattr(cls, method, _guarded(method, cls.__dict__[method]))
        for alias, method in _ALIASES.items():  # both names always reach the same override
            setattr(cls, alias, getattr(cls, method))
        if not cls.abstract:
            _check_definition(cls, registering=register)
            _complete_metadata(cls)
            if register:
                registry.register(cls)

    # ------------------------------------------------------------------ instances
    def __init__(self, params: dict[str, Any] | None = None, *, seed: int | None = None):
        params = {} if params is None else params
        if not has_check(type(self)):
            raise TaskDefinitionError(f"{self.name}: define is_successful(env) or validator() to score the task")
        try:
            params_lib.check(params, self.schema)
        except params_lib.ParamError as error:
            raise params_lib.ParamError(f"{self.name}: {error}") from None
        self.params: dict[str, Any] = _copied(params)
        self.seed = seed
        self.last_result: CheckResult | None = None
        self._initialized = False
        self._depth = 0
        self._restore_point: device_state.RestorePoint | None = None
        self._validator: Validator | None = None
        self._validator_snapshot: Any = None

    @classmethod
    def with_params(cls, params: dict[str, Any], seed: int | None = None) -> "TaskEval":
        """The instance with these params, drawn from `seed` (how the suite builds every task)."""
        return cls(params, seed=seed)

    @classmethod
    def from_seed(cls, seed: int) -> "TaskEval":
        """The instance whose params `generate_random_params` draws from `seed`."""
        return cls.with_params(cls.generate_random_params(TaskRng(seed)), seed)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        """Draw params with `rng` (a seeded random.Random carrying a seeded `rng.faker`)."""
        if (cls.schema.get("properties") or {}) and cls.schema.get("required"):
            raise NotImplementedError(f"{cls.name} must implement generate_random_params")
        return {}

    @property
    def goal(self) -> str:
        """The template rendered with the params."""
        return _goal_template(self.template).render(**self.params).strip()

    @property
    def max_steps(self) -> int:
        """The step budget: 10 × complexity, as in AndroidWorld; an instance a seed benchmark
        publishes with a limit of its own takes that limit (`metadata.published_step_limit`)."""
        return metadata.published_step_limit(self.name, self.params) or step_budget(self.complexity)

    @property
    def initialized(self) -> bool:
        return self._initialized

    def apps(self) -> list[apps.App]:
        return [apps.get(name) for name in self.app_names]

    # ------------------------------------------------------------------ the lifecycle
    def initialize_state(self, env: TaskEnv) -> None:
        """Set the device clock and bring every app in `app_names` to its clean state."""
        env.device.clock.set(DEVICE_TIME)
        for app in self.apps():
            app.force_stop(env.device)
            app.reset(env.device)

    def is_successful(self, env: TaskEnv) -> float:
        """Score the device state in [0, 1]; the default asks `validator()`.

        With no validator it returns 1.0, as AndroidWorld's base does, so an override may call
        `super().is_successful(env)` first; a task with neither is refused when it is defined.
        """
        if self._validator is None:
            return 1.0
        self.last_result = self._validator.evaluate(env, self._validator_snapshot)
        return self.last_result.score

    def teardown(self, env: TaskEnv) -> None:
        """Undo what the task did; the base class restores app data and settings afterwards."""

    def validator(self) -> Validator | None:
        """The check this task is scored by, built from its params (or None)."""
        return None

    def milestones(self) -> Sequence[Group]:
        """Intermediate states checked after every step, built from the params:
        `taskkit.validators.ordered(...)`/`unordered(...)` groups of `milestone(name, check)`.
        The runner records each row's `progress` and the step each milestone was reached."""
        return ()

    def solve(self, env: TaskEnv) -> None:
        """The reference solution: device operations that would also work on a rooted emulator."""
        raise NotImplementedError(f"{self.name} has no reference solution")

    def gui_reference(self) -> Sequence[Any] | None:
        """The task done through the screens: `taskkit.gui_reference` steps built from the params
        (None: the task gives none). `--agent gui_reference` plays it; `taskkit.check` proves it."""
        return None

    @classmethod
    def has_gui_reference(cls) -> bool:
        """Whether the class gives a GUI reference (overrides `gui_reference`)."""
        return cls.gui_reference is not TaskEval.gui_reference

    # AndroidWorld's names, so its tasks port with few edits.
    initialize_task = initialize_state
    tear_down = teardown

    def __repr__(self) -> str:
        return f"{self.name}({self.params!r})"


# ---------------------------------------------------------------------- lifecycle guards
def _guarded(method: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap one override so the outermost call runs the lifecycle checks around it."""

    @functools.wraps(func)
    def wrapper(self: TaskEval, env: TaskEnv, *args: Any, **kwargs: Any) -> Any:
        if self._depth:  # a super() call from inside an override
            return func(self, env, *args, **kwargs)
        self._depth += 1
        try:
            return _PHASES[method](self, env, lambda: func(self, env, *args, **kwargs))
        finally:
            self._depth -= 1

    return wrapper


def _run_initialize(task: TaskEval, env: TaskEnv, body: Callable[[], Any]) -> None:
    if task._initialized:
        raise LifecycleError(f"{task.name}: initialize_state called twice; call teardown first")
    paths = tuple(path for app in task.apps() for path in app.data_paths)
    packages = tuple(app.package for app in task.apps())
    point = None
    try:
        # one round trip: every episode starts from the same screens, its restore point (nothing
        # to read on the simulated device; a phone's copies read the settings) and the set-up,
        # whose errors surface here naming the command that failed
        with env.device.batch():
            env.device.run(build_close_apps(sorted({app.package for app in apps.all_apps()})))
            elsewhere = device_state.DIGEST_ROOTS if getattr(env, "undo_elsewhere", True) else ()
            point = task._restore_point = device_state.save_restore_point(  # and what the episode writes elsewhere
                env.device, f"{task.name}.{next(_RESTORE_LABELS)}", paths, packages, elsewhere, incremental=True
            )
            env.scratch_dir = point.directory  # removed again by the restore
            env.new_episode()  # no answer carries over from an earlier episode
            body()
            task._validator = task.validator()
            task._validator_snapshot = task._validator.snapshot(env) if task._validator else None
    except BaseException:
        task._restore_point = None
        if point is not None:  # whatever of the save and the set-up was sent is undone
            device_state.restore(env.device, point)
        raise
    task._initialized = True


def _run_is_successful(task: TaskEval, env: TaskEnv, body: Callable[[], Any]) -> float:
    if not task._initialized:
        raise LifecycleError(f"{task.name}: is_successful called before initialize_state")
    score = body()
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
        raise TaskDefinitionError(f"{task.name}: is_successful must return a float in [0, 1], got {score!r}")
    return float(score)


def _run_teardown(task: TaskEval, env: TaskEnv, body: Callable[[], Any]) -> None:
    if not task._initialized:
        raise LifecycleError(f"{task.name}: teardown called before initialize_state")
    try:
        with env.device.batch():
            body()
    finally:
        point, task._restore_point = task._restore_point, None
        task._initialized = False
        if point is not None:
            device_state.restore(env.device, point)


_PHASES = {
    "initialize_state": _run_initialize,
    "is_successful": _run_is_successful,
    "teardown": _run_teardown,
}
for _method in _LIFECYCLE:
    setattr(TaskEval, _method, _guarded(_method, TaskEval.__dict__[_method]))
TaskEval.initialize_task = TaskEval.initialize_state
TaskEval.tear_down = TaskEval.teardown


def _check_definition(cls: type[TaskEval], registering: bool = True) -> None:
    """Reject a malformed task class when it is defined, naming the class and the problem."""
    where = f"{cls.__module__}.{cls.__qualname__}"
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", cls.name):
        raise TaskDefinitionError(f"{where}: task name {cls.name!r} must be an identifier-like string")
    try:
        params_lib.check_schema(cls.schema)
    except params_lib.SchemaError as error:
        raise TaskDefinitionError(f"{where}: {error}") from None
    if not isinstance(cls.complexity, (int, float)) or cls.complexity <= 0:
        raise TaskDefinitionError(f"{where}: complexity must be a positive number, got {cls.complexity!r}")
    if registering and not has_check(cls):  # a helper base (register=False) may leave it to subclasses
        raise TaskDefinitionError(f"{where}: define is_successful(env) or validator() to score the task")
    for problem in metadata.problems(cls.difficulty, cls.tags, cls.optimal_steps):
        raise TaskDefinitionError(f"{where}: {problem}")
    if isinstance(cls.app_names, str):
        raise TaskDefinitionError(f"{where}: app_names must be a tuple of names, not a string")
    for app_name in cls.app_names:
        try:
            apps.get(app_name)
        except KeyError as error:
            raise TaskDefinitionError(f"{where}: {error.args[0]}") from None
    if not cls.__module__.startswith(BUILTIN_PREFIX):  # the built-in templates: tests/tasks prove them
        check_template(cls)


#: The modules of taskkit's built-in tasks. Their ~460 goal templates are parsed by the test suite,
#: not at every start of a process (about a third of the registry's import time).
BUILTIN_PREFIX = "taskkit.apps."


def check_template(cls: type[TaskEval]) -> None:
    """Reject a goal template jinja2 cannot parse, naming the class and the template's line."""
    try:
        _JINJA.parse(cls.template)
    except jinja2.TemplateSyntaxError as error:
        raise TaskDefinitionError(f"{cls.__module__}.{cls.__qualname__}: template line {error.lineno}: "
                                  f"{error.message}") from None


_METADATA = ("difficulty", "tags", "optimal_steps")


def _declared(cls: type[TaskEval], attr: str) -> Any:
    """`attr` as the class or a base declared it: a registered base's values filled in from
    AndroidWorld's metadata are not inherited by a subclass under another name."""
    for klass in cls.__mro__:
        own = klass.__dict__.get("_declared_metadata")
        if own is not None:
            if attr in own:
                return own[attr]
        elif attr in klass.__dict__:
            return klass.__dict__[attr]
    return getattr(TaskEval, attr)


def _complete_metadata(cls: type[TaskEval]) -> None:
    """Fill in AndroidWorld's published metadata for a task under one of its names: what the class
    itself leaves out (not what a base under another name declares) comes from AndroidWorld."""
    cls._declared_metadata = {attr: cls.__dict__[attr] for attr in _METADATA if attr in cls.__dict__}
    if cls.name in metadata.android_world():
        declared = {attr: cls._declared_metadata.get(attr, getattr(TaskEval, attr)) for attr in _METADATA}
        declared["tags"] = tuple(_declared(cls, "tags")) + tuple(declared["tags"])  # tags add up
    else:
        declared = {attr: _declared(cls, attr) for attr in _METADATA}
    known = metadata.complete(cls.name, metadata.Metadata(declared["difficulty"], tuple(declared["tags"]),
                                                          declared["optimal_steps"]))
    cls.difficulty, cls.tags, cls.optimal_steps = known.difficulty, known.tags, known.optimal_steps


def has_check(cls: type[TaskEval]) -> bool:
    """Whether the task defines how it is scored (`is_successful` or `validator`)."""
    return _overrides(cls, "is_successful") or _overrides(cls, "validator")


def _overrides(cls: type[TaskEval], method: str) -> bool:
    """Whether a class between `cls` and TaskEval defines `method`."""
    return any(method in klass.__dict__ for klass in cls.__mro__ if klass is not TaskEval and issubclass(klass, TaskEval))
