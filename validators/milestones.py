"""Milestones: progress through a long task, AndroidLens' way.

A task may declare milestone groups (`TaskEval.milestones()`, or `milestones { }` in a spec):
`ordered(...)` groups are reached in sequence (a milestone counts only once the one before it
was reached, at that step or later); `unordered(...)` groups in any order. Each milestone is a
validator checked after every step; `must_hold=True` also asks that it still holds at the end
(AndroidLens' state-mismatch rule: a toggle switched on and then off again is not reached).

`Tracker` follows one episode: `observe(env, step)` after each step, `finish(env, step)` at the
end. Its `progress` is the share of milestones reached (for an ordered group: the reached
prefix), `reached` the first step at which each one was (None: never).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless, Validator


@dataclasses.dataclass(frozen=True)
class Milestone:
    """One intermediate state the task passes through; `name` is how rows report it."""

    name: str
    check: Validator
    must_hold: bool = False


@dataclasses.dataclass(frozen=True)
class Group:
    """Milestones judged in sequence (`ordered`) or each on its own."""

    milestones: tuple[Milestone, ...]
    ordered: bool


def milestone(name: str, check: Validator, must_hold: bool = False) -> Milestone:
    return Milestone(name, check, must_hold)


def ordered(*milestones: Milestone) -> Group:
    return Group(tuple(milestones), True)


def unordered(*milestones: Milestone) -> Group:
    return Group(tuple(milestones), False)


def check_groups(groups: Sequence[Group], where: str) -> tuple[Group, ...]:
    """The groups, refused (ValueError naming `where`) when empty or when two milestones share a name."""
    names = [m.name for group in groups for m in group.milestones]
    if any(not group.milestones for group in groups):
        raise ValueError(f"{where}: a milestone group has no milestones")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{where}: milestone names must differ; {', '.join(repeated)} repeats")
    return tuple(groups)


@dataclasses.dataclass(frozen=True)
class TaskCheck(Stateless):
    """A whole task's check as a milestone (a composite task's part without milestones of its own)."""

    task: Any

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        score = self.task.is_successful(env)
        reasons = tuple(self.task.last_result.reasons) if self.task.last_result is not None else ()
        return CheckResult(score, reasons)


def prefixed(label: str, groups: Sequence[Group]) -> tuple[Group, ...]:
    """`groups` with every milestone named `label.name` (a part's milestones inside a composite)."""
    return tuple(Group(tuple(dataclasses.replace(m, name=f"{label}.{m.name}") for m in group.milestones),
                       group.ordered) for group in groups)


class Tracker:
    """The milestones of one episode: snapshots taken at setup, the step each was first reached."""

    def __init__(self, groups: Sequence[Group], env: TaskEnv):
        self.groups = tuple(groups)
        self._snapshots = {m.name: m.check.snapshot(env) for group in self.groups for m in group.milestones}
        self.reached: dict[str, int | None] = {name: None for name in self._snapshots}
        self.reasons: list[str] = []

    @property
    def total(self) -> int:
        return len(self.reached)

    def _holds(self, env: TaskEnv, m: Milestone) -> CheckResult:
        return m.check.evaluate(env, self._snapshots[m.name])

    def observe(self, env: TaskEnv, step: int) -> None:
        """Check the milestones that may be reached now (ordered groups: the next ones in line)."""
        for group in self.groups:
            for m in group.milestones:
                if self.reached[m.name] is not None:
                    continue
                if self._holds(env, m).passed:
                    self.reached[m.name] = step
                elif group.ordered:
                    break  # the later ones wait for this one

    def finish(self, env: TaskEnv, step: int) -> float:
        """Check once more at the end, drop a must-hold milestone that no longer holds, and
        return the progress in [0, 1]."""
        self.observe(env, step)
        for group in self.groups:
            for m in group.milestones:
                if m.must_hold and self.reached[m.name] is not None:
                    result = self._holds(env, m)
                    if not result.passed:
                        self.reasons.append(f"milestone {m.name}: reached at step {self.reached[m.name]} "
                                            f"but no longer holds at the end ({'; '.join(result.reasons) or 'no reason'})")
                        self.reached[m.name] = None
        return self.progress

    @property
    def progress(self) -> float:
        counted = 0
        for group in self.groups:
            steps = [self.reached[m.name] for m in group.milestones]
            if group.ordered:
                counted += next((i for i, s in enumerate(steps) if s is None), len(steps))
            else:
                counted += sum(s is not None for s in steps)
        return counted / self.total if self.total else 1.0
