"""One observed lifecycle of a task instance: what the properties judge.

`observe_lifecycle` runs generate → initialize → check → solve → check → teardown on a device,
records the scores, the reasons and the state digests (before initialize, right after it, after
teardown), and turns an exception from the task into a message naming the phase. A `Probe`
(the near-miss mutations) can ride along inside the lifecycle. Infrastructure failures
(`DeviceError`) are not the task's fault: they propagate.
"""
from __future__ import annotations

import dataclasses
import traceback
from typing import Any, Callable, Protocol

from taskkit.device.base import DeviceError
from taskkit.device.state import digest_of, listing
from taskkit.env import Env


class Abort(BaseException):
    """Carries a `DeviceError` through hypothesis (a BaseException is never shrunk on)."""

    def __init__(self, error: DeviceError):
        super().__init__(str(error))
        self.error = error


def describe_error(phase: str, error: BaseException) -> str:
    """`solve raised KeyError: 'x' (at apps/foo/tasks.py:12)`."""
    where = ""
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        frame = frames[-1]
        where = f" (at {frame.filename}:{frame.lineno})"
    return f"{phase} raised {type(error).__name__}: {error}{where}"


def call(phase: str, func: Callable[[], Any]) -> tuple[Any, str | None]:
    """(result, None), or (None, message) if the task raised; device failures propagate."""
    try:
        return func(), None
    except DeviceError as error:
        raise Abort(error) from error
    except Exception as error:  # the task's own bug: reported, not raised
        return None, describe_error(phase, error)


@dataclasses.dataclass
class Lifecycle:
    """What one seed's lifecycle showed."""

    seed: int
    error: str | None = None  # the first failing phase, e.g. "solve raised ..."
    failed_phase: str | None = None
    start_score: float | None = None
    start_reasons: tuple[str, ...] = ()
    solved_score: float | None = None
    solved_reasons: tuple[str, ...] = ()
    digest_before: str | None = None
    digest_initial: str | None = None  # right after initialize_state
    digest_after: str | None = None
    teardown_error: str | None = None
    listing_before: frozenset[str] = frozenset()  # what the digests are made of (see device.state)
    listing_after: frozenset[str] = frozenset()


def reasons_of(task: Any) -> tuple[str, ...]:
    result = getattr(task, "last_result", None)
    return tuple(result.reasons) if result is not None else ()


class Probe(Protocol):
    """Extra work inside a lifecycle, after the start score and after the solved score."""

    def before_solve(self, task: Any, env: Env) -> None: ...

    def after_solve(self, task: Any, env: Env, score: float | None) -> None: ...

    def solve_failed(self, error: str) -> None: ...


def observe_lifecycle(task_cls: Any, seed: int, env: Env, params: dict[str, Any] | None = None,
                      probe: Probe | None = None) -> Lifecycle:
    """Run one full lifecycle of `task_cls` at `seed` (or with `params`) on `env`; record it.

    What the episode writes outside its task's data is left as it is (`env.undo_elsewhere` off
    for the run), so that clean_teardown sees what the teardown would leave on a phone."""
    undo, env.undo_elsewhere = env.undo_elsewhere, False
    try:
        return _observe(task_cls, seed, env, params, probe)
    finally:
        env.undo_elsewhere = undo


def _observe(task_cls: Any, seed: int, env: Env, params: dict[str, Any] | None, probe: Probe | None) -> Lifecycle:
    run = Lifecycle(seed)
    env.new_episode()
    make = (lambda: task_cls.from_seed(seed)) if params is None else (lambda: task_cls(params, seed=seed))
    task, run.error = call("from_seed" if params is None else "building the task", make)
    if run.error:
        run.failed_phase = "from_seed"
        return run
    run.listing_before = _listing(env)
    run.digest_before = digest_of(run.listing_before)
    _, run.error = call("initialize_state", lambda: task.initialize_state(env))
    if run.error:
        run.failed_phase = "initialize_state"
        run.listing_after = _listing(env)
        run.digest_after = digest_of(run.listing_after)
        return run
    run.digest_initial = _digest(env)
    try:
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("is_successful (before solve)", lambda: task.is_successful(env)),
            ("solve", lambda: _solve(task, env)),
            ("is_successful (after solve)", lambda: task.is_successful(env)),
        ]
        for index, (phase, func) in enumerate(steps):
            value, run.error = call(phase, func)
            if run.error:
                run.failed_phase = phase
                break
            if index == 0:
                run.start_score, run.start_reasons = value, reasons_of(task)
                if probe is not None:
                    probe.before_solve(task, env)
            elif index == 2:
                run.solved_score, run.solved_reasons = value, reasons_of(task)
                if probe is not None:
                    probe.after_solve(task, env, value)
        if run.error and probe is not None:
            probe.solve_failed(run.error)
    finally:
        _, run.teardown_error = call("teardown", lambda: task.teardown(env) if task.initialized else None)
    run.listing_after = _listing(env)
    run.digest_after = digest_of(run.listing_after)
    return run


def _solve(task: Any, env: Env) -> None:
    with env.device.batch():  # as the runner's oracle does: one round trip where it can be
        task.solve(env)


def _listing(env: Env) -> frozenset[str]:
    try:
        return frozenset(listing(env.device))
    except DeviceError as error:
        raise Abort(error) from error


def _digest(env: Env) -> str:
    return digest_of(_listing(env))
