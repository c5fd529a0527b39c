"""Apply a task's derived near-miss mutations to its solved state, one at a time.

A `NearMissProbe` rides along one lifecycle (`taskkit.testing.episodes`): after
`initialize_state` it observes the validators' targets; after `solve` scores 1.0 it derives the
mutations and, for each, saves a restore point of the task's app data and settings, applies
the mutation, scores, restores, and confirms the solved state scores 1.0 again (so no mutation
leaks into the next). A mutation that still scores 1.0 *survived*: the check accepts a state it
should reject. The lifecycle then tears the task down as usual.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import Any

from taskkit.composite import CompositeTask
from taskkit.device import state as device_state
from taskkit.env import Env
from taskkit.testing.episodes import call, reasons_of
from taskkit.testing.mutations import Mutation, Observation, derive, observe

_LABELS = itertools.count(1)


@dataclasses.dataclass
class NearMissRun:
    """The outcome of one seed's mutations."""

    seed: int
    applicable: bool = True  # False: the task has no validator to derive mutations from
    error: str | None = None
    killed: list[str] = dataclasses.field(default_factory=list)
    survived: list[str] = dataclasses.field(default_factory=list)
    unapplied: list[str] = dataclasses.field(default_factory=list)  # mutations that raised
    notes: list[str] = dataclasses.field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.killed) + len(self.survived)


def task_validators(task: Any) -> list[tuple[str, Any]]:
    """(label, validator) pairs to derive from: the task's, or each weighted part's of a composite."""
    if isinstance(task, CompositeTask):
        found = []
        for label, sub, weight in task.subtasks:
            validator = sub.validator() if weight > 0 else None
            if validator is not None:
                found.append((f"{label}: ", validator))
        return found
    validator = task.validator()
    return [("", validator)] if validator is not None else []


def _flush(env: Env) -> None:
    flush = getattr(env.device, "flush", None)
    if flush is not None:
        flush()


def _paths_and_packages(task: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    apps = task.apps()
    return tuple(p for app in apps for p in app.data_paths), tuple(app.package for app in apps)


class NearMissProbe:
    """Rides along one lifecycle: observes before `solve`, mutates after it (see the module doc)."""

    def __init__(self, seed: int):
        self.run = NearMissRun(seed)
        self._validators: list[tuple[str, Any]] = []
        self._obs: Observation | None = None

    def before_solve(self, task: Any, env: Env) -> None:
        validators, self.run.error = call("validator", lambda: task_validators(task))
        if self.run.error:
            return
        if not validators:
            self.run.applicable = False
            self.run.notes.append("scored by a custom is_successful with no validator(): no mutations can be derived")
            return
        obs = Observation(env)
        _, self.run.error = call("observing the validators", lambda: [observe(v, obs) for _, v in validators])
        if not self.run.error:
            self._validators, self._obs = validators, obs

    def after_solve(self, task: Any, env: Env, score: float | None) -> None:
        if self._obs is None:
            return
        if score != 1.0:
            self.run.error = f"cannot be judged: the reference solution scores {score} (see solvable)"
            return
        obs = self._obs
        mutations, self.run.error = call(
            "deriving mutations", lambda: [dataclasses.replace(m, name=p + m.name) for p, v in self._validators for m in derive(v, obs)])
        self.run.notes.extend(obs.notes)
        if not self.run.error:
            _apply_each(task, env, mutations, self.run)

    def solve_failed(self, error: str) -> None:
        if self._obs is not None and self.run.error is None:
            self.run.error = f"cannot be judged: {error}"


def _apply_each(task: Any, env: Env, mutations: list[Mutation], run: NearMissRun) -> None:
    """Apply, score and undo each mutation in turn."""
    answer = env.answer
    paths, packages = _paths_and_packages(task)
    front = env.device.activity.foreground()  # the restore force-stops the apps: bring it back after
    for mutation in mutations:
        point = device_state.save_restore_point(env.device, f"nearmiss.{next(_LABELS)}", paths, packages)
        try:
            _, error = call(f"mutation {mutation.name!r}", lambda: (mutation.apply(env), _flush(env)))
            if error:
                run.unapplied.append(f"{mutation.name}: {error}")
            else:
                mutated, error = call("is_successful", lambda: task.is_successful(env))
                if error:  # a check that crashes on a near miss is a bug too
                    run.survived.append(f"{mutation.name} (is_successful crashed: {error})")
                elif mutated >= 1.0:
                    run.survived.append(mutation.name)
                else:
                    run.killed.append(mutation.name)
        finally:
            if mutation.undo is not None:
                call(f"undoing mutation {mutation.name!r}", functools.partial(mutation.undo, env))
            device_state.restore(env.device, point)
            env.submit_answer(answer)
            if front and env.device.activity.foreground() != front:
                env.device.activity.start(front)
        again, error = call("is_successful", lambda: task.is_successful(env))
        if error or again != 1.0:
            run.error = (f"after undoing mutation {mutation.name!r} the solved state scores {again} "
                         f"({error or list(reasons_of(task))}): the task's data is not all in its apps' data_paths")
            return
