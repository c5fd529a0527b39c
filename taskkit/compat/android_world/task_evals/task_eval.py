"""`android_world.task_evals.task_eval.TaskEval` on taskkit.

A subclass is written as AndroidWorld writes tasks and becomes a taskkit task:

* `generate_random_params()` takes no argument and draws from the module-level `random`, which
  is seeded with the instance seed first, as AndroidWorld's suite does (`random.seed(seed)`
  then the call), so a run seed gives AndroidWorld's own params; the global generator's state is
  put back afterwards, and `params["seed"]` is the instance seed;
* `template` is a `str.format` template over the params;
* `initialize_task`, `is_successful` and `tear_down` receive an `interface.AsyncEnv` (taskkit's
  Env plus `controller`); the base `is_successful` returns 1.0 and taskkit's lifecycle guards,
  restore points and registry apply unchanged (a helper task another task built is checked
  without them, as AndroidWorld's composite tasks check their parts);
* a class whose name starts with `_` (AndroidWorld's helper bases) is never registered, nor is a
  base this package defines (`sqlite_validators.SQLiteApp`, `file_validators.CreateFile`, ...),
  nor one that gives no goal (no `template` and no `goal` of its own: AndroidWorld's `Markor`,
  `BrowserTask` and the like are bases its registry never lists);
* `initialized` may be assigned, as AndroidWorld's constructors and `initialize_task` do (taskkit's
  lifecycle keeps the real state), and `_params` is the params.
"""
from __future__ import annotations

import functools
import random
from typing import Any, Callable

from taskkit.compat.android_world.env import interface
from taskkit.rng import TaskRng
from taskkit.task import TaskEval as _TaskEval

_ENV_METHODS = ("initialize_task", "initialize_state", "is_successful", "tear_down", "teardown", "solve")


def _with_aw_env(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def method(self: Any, env: Any, *args: Any, **kwargs: Any) -> Any:
        return func(self, interface.wrap(env), *args, **kwargs)
    return method


def _seeded(func: Callable[[type], dict[str, Any]]) -> classmethod:
    """taskkit's `generate_random_params(rng)` around AndroidWorld's no-argument one."""
    def generate_random_params(cls: type, rng: TaskRng | None = None) -> dict[str, Any]:
        if rng is None:  # called from AndroidWorld code (another task's params): already seeded
            return func(cls)
        state = random.getstate()
        random.seed(rng.seed_value)
        try:
            params = dict(func(cls))
        finally:
            random.setstate(state)
        params["seed"] = rng.seed_value
        return params
    return classmethod(generate_random_params)


def _sub_task_aware(guarded: Callable[..., Any], unguarded: Callable[..., Any]) -> Callable[..., Any]:
    """`is_successful` with taskkit's lifecycle checks on the task the runner owns, and as
    AndroidWorld runs it on a helper task another task built (VlcCreateTwoPlaylists checks its
    second playlist with a task it only set up in part, never initialized): unguarded."""
    @functools.wraps(unguarded)
    def method(self: Any, env: Any, *args: Any, **kwargs: Any) -> Any:
        check = guarded if getattr(self, "_aw_episode_task", False) else unguarded
        return check(self, env, *args, **kwargs)
    return method


class TaskEval(_TaskEval, register=False):
    """The base of AndroidWorld-style tasks (see the module docstring)."""

    abstract = True
    template = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "abstract" not in cls.__dict__ and (cls.__name__.startswith("_") or not _gives_goal(cls)
                                               or cls.__module__.startswith("taskkit.compat.android_world.")):
            cls.abstract = True  # AndroidWorld's helper bases, and this package's own (CreateFile, SQLiteApp, ...)
        schema = cls.__dict__.get("schema")
        if isinstance(schema, dict):  # AndroidWorld adds `seed`; JSON Schema's default lets other keys in
            cls.schema = {"type": "object", "additionalProperties": True, **schema,
                          "properties": {**schema.get("properties", {}), "seed": {"type": "integer"}}}
        own = cls.__dict__.get("generate_random_params")
        if isinstance(own, classmethod) and own.__func__.__code__.co_argcount == 1:
            cls.generate_random_params = _seeded(own.__func__)
        for name in _ENV_METHODS:
            if name in cls.__dict__:
                setattr(cls, name, _with_aw_env(cls.__dict__[name]))
        unguarded = cls.__dict__.get("is_successful")
        super().__init_subclass__(**kwargs)
        if unguarded is not None:
            cls.is_successful = _sub_task_aware(cls.__dict__["is_successful"], unguarded)

    @classmethod
    def with_params(cls, params: dict[str, Any], seed: int | None = None) -> "TaskEval":
        """AndroidWorld's constructors take the params alone (`__init__(self, params)`)."""
        task = cls(params)
        task.seed = seed
        task._aw_episode_task = True  # the runner's own instance, not a helper another task built
        return task

    @property
    def goal(self) -> str:
        return self.template.format(**self.params)

    @property
    def initialized(self) -> bool:
        return self._initialized

    @initialized.setter
    def initialized(self, value: bool) -> None:
        """AndroidWorld's code sets it; taskkit's lifecycle guards keep the state, so nothing changes."""

    @property
    def _params(self) -> dict[str, Any]:
        return self.params


def _gives_goal(cls: type) -> bool:
    """Whether a class below this package's TaskEval sets a template or defines its own goal."""
    for klass in cls.__mro__:
        if klass is TaskEval:
            return False
        if klass.__dict__.get("template") or "goal" in klass.__dict__:
            return True
    return False
