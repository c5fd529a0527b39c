"""AndroidWorld's own task classes, from a checkout, as taskkit tasks.

`register(families)` builds AndroidWorld's registry (`android_world.registry.TaskRegistry`, from
the checkout `checkout.use` installed) and registers one taskkit task per AndroidWorld task, in
place of a built-in of the same name. Each wraps an object of AndroidWorld's own class:

* params: AndroidWorld's `generate_random_params()` after `random.seed(instance seed)`, as its
  suite draws them (`params["seed"]` set the same way); the global generator is put back after;
* goal, complexity (so the step budget) and app names: the object's own;
* `initialize_state`, `is_successful`, `teardown`: its `initialize_task`, `is_successful` and
  `tear_down` with an `interface.AsyncEnv` over taskkit's env, inside taskkit's lifecycle guards
  and restore points, so the runner's results, trajectories and metrics apply unchanged.

Params that are not plain JSON (dates, protos) are recorded as text; the object keeps the real
ones. Such a task has no reference solution and no GUI reference: run it with an agent.
"""
from __future__ import annotations

import datetime
import json
import random
import sqlite3
import types
from typing import Any, ClassVar

from google.protobuf import message, text_format

from taskkit import apps, registry
from taskkit.compat.android_world.env import interface
from taskkit.rng import TaskRng
from taskkit.task import TaskEval, step_budget
from taskkit.validators.base import CheckResult

FAMILIES = ("android_world", "information_retrieval")
SOURCE_PREFIX = "AndroidWorld checkout"


def _recorded(value: Any) -> str:
    """A param JSON cannot hold, as results record it: a date in ISO form, a proto as its text
    format on one line, anything else (an image, say) as its type's name."""
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, message.Message):
        return text_format.MessageToString(value, as_one_line=True)
    return f"<{type(value).__name__}>"


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """`params` as JSON can record them."""
    return json.loads(json.dumps(params, default=_recorded, sort_keys=True))


def _seeded_params(native: type, seed: int) -> dict[str, Any]:
    """AndroidWorld's params for an instance seed, drawn as its suite draws them."""
    state = random.getstate()
    random.seed(seed)
    try:
        params = dict(native.generate_random_params())
    finally:
        random.setstate(state)
    params["seed"] = seed
    return params


class NativeTask(TaskEval, register=False):
    """One of AndroidWorld's own tasks (see the module docstring); `native` is its class."""

    abstract = True
    native: ClassVar[type]
    schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, params: dict[str, Any] | None = None, *, seed: int | None = None,
                 native_params: dict[str, Any] | None = None):
        native_params = dict(params or {}) if native_params is None else native_params
        super().__init__(_plain(native_params), seed=seed)
        self.task = self.native(native_params)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return _plain(_seeded_params(cls.native, rng.seed_value))

    @classmethod
    def with_params(cls, params: dict[str, Any], seed: int | None = None) -> "NativeTask":
        """The instance of `seed`, with AndroidWorld's own params (images, dates and protos
        included) drawn again from it; without a seed, the given params as they are."""
        if seed is not None:
            return cls(seed=seed, native_params=_seeded_params(cls.native, seed))
        return cls(params, seed=seed)

    @property
    def goal(self) -> str:
        return self.task.goal

    @property
    def max_steps(self) -> int:
        return step_budget(self.task.complexity)

    def apps(self) -> list[apps.App]:
        """The apps AndroidWorld names for the task that taskkit models (restore points cover these)."""
        found = []
        for name in self.task.app_names:
            try:
                found.append(apps.get(name))
            except KeyError:
                continue  # "", "clipper" and the like: nothing of theirs to save
        return found

    def initialize_state(self, env: Any) -> None:
        self.task.initialize_task(interface.wrap(env))

    def is_successful(self, env: Any) -> float:
        """AndroidWorld's verdict; 0 with the reason when its check finds no table to read.

        AndroidWorld's `push_file` empties an app's whole `databases/` folder, so a database the
        task did not push (Retro's `music_playback_state.db`, say) exists again only once the app
        runs. A check reading it then raises "no such table" on a phone as here; AndroidWorld's
        runner drops such an episode from its mean, taskkit scores it 0: the agent never opened
        the app that would have made the state the goal asks for."""
        self.last_result = None
        try:
            return float(self.task.is_successful(interface.wrap(env)))
        except sqlite3.OperationalError as error:
            if not str(error).startswith("no such table"):
                raise
            self.last_result = CheckResult(0.0, (f"the app never created the table its check reads ({error})",))
            return 0.0

    def teardown(self, env: Any) -> None:
        self.task.tear_down(interface.wrap(env))


def _class_number(native: type, name: str, default: float) -> float:
    value = getattr(native, name, default)
    return float(value) if isinstance(value, (int, float)) else default


def wrap(name: str, native: type, real_device_only: str = "") -> type[NativeTask]:
    """A taskkit task class (not registered) around AndroidWorld's class `native`."""
    body = {"name": name, "native": native, "abstract": False, "__module__": __name__,
            "real_device_only": real_device_only,
            "source": f"{SOURCE_PREFIX} {native.__module__}",
            "complexity": _class_number(native, "complexity", 1.0),
            "__doc__": (native.__doc__ or f"AndroidWorld's {name}.").strip().splitlines()[0]}
    return types.new_class(name, (NativeTask,), {"register": False}, lambda namespace: namespace.update(body))


def register(families: tuple[str, ...] = FAMILIES) -> list[tuple[str, str, str]]:
    """Register AndroidWorld's tasks of `families` in place of taskkit's tasks of the same names;
    returns (name, old source, new source) for each replaced one."""
    from android_world import registry as native_registry  # the checkout's, through the import hook

    tasks: dict[str, type] = {}
    for family in families:
        tasks.update(native_registry.TaskRegistry().get_registry(family))
    with registry.replacing(True) as replaced:
        for name, native in sorted(tasks.items()):
            # what taskkit knows of the task's needs (the camera's) stays with its name
            builtin = registry.get(name) if name in registry.names() else None
            registry.register(wrap(name, native, builtin.real_device_only if builtin else ""))
    return replaced
