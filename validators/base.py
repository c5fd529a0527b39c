"""The validator protocol and its combinators.

A validator is a small object with two calls: `snapshot(env)`, taken right after
`initialize_state`, and `evaluate(env, snapshot) -> CheckResult`, at check time. Validators
compose with `all_of`, `any_of`, `not_` and `weighted` for partial reward.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Protocol, Sequence

from taskkit.env import TaskEnv


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """A score in [0, 1] and, when it is below 1, the reasons a person can act on."""

    score: float
    reasons: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.score >= 1.0

    @classmethod
    def verdict(cls, reasons: Sequence[str]) -> "CheckResult":
        """1.0 when there are no reasons to fail, else 0.0 with those reasons."""
        return cls(0.0 if reasons else 1.0, tuple(reasons))


class Validator(Protocol):
    """What a task's check is made of."""

    def snapshot(self, env: TaskEnv) -> Any: ...

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult: ...


class Stateless:
    """Base for validators that read only the state at check time."""

    def snapshot(self, env: TaskEnv) -> Any:
        return None


@dataclasses.dataclass(frozen=True)
class Weighted(Stateless):
    """The weighted mean of the parts' scores (partial reward)."""

    parts: tuple[tuple[Validator, float], ...]

    def snapshot(self, env: TaskEnv) -> Any:
        return tuple(part.snapshot(env) for part, _ in self.parts)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        total = sum(weight for _, weight in self.parts)
        results = self._results(env, snapshot)
        score = sum(weight * result.score for (_, weight), result in zip(self.parts, results))
        return CheckResult(score / total if total else 0.0, tuple(self._reasons(results)))

    def _results(self, env: TaskEnv, snapshot: Any) -> list[CheckResult]:
        """Every part's result (all of them: a combination reports every part that fails)."""
        return [part.evaluate(env, part_snapshot) for (part, _), part_snapshot in zip(self.parts, snapshot)]

    def _reasons(self, results: Sequence[CheckResult]) -> list[str]:
        return failure_reasons([part for part, _ in self.parts], results)


@dataclasses.dataclass(frozen=True)
class AllOf(Weighted):
    """1.0 only when every part passes; otherwise 0.0 with every part's reasons."""

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        results = self._results(env, snapshot)
        return CheckResult(1.0 if all(r.passed for r in results) else 0.0, tuple(self._reasons(results)))


def failure_reasons(parts: Sequence[Validator], results: Sequence[CheckResult]) -> list[str]:
    """Every failing part's reasons, in order; a part that fails without giving any is named with
    its score, so that a combination's reasons account for every part that failed."""
    reasons: list[str] = []
    for number, (part, result) in enumerate(zip(parts, results), start=1):
        if result.reasons or result.passed:
            reasons.extend(result.reasons)
        else:
            reasons.append(f"part {number} of {len(parts)} ({type(part).__name__}) scored {result.score:g} "
                           "without giving a reason")
    return reasons


@dataclasses.dataclass(frozen=True)
class AnyOf(Weighted):
    """The best part's score; reasons only when no part passes."""

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        results = self._results(env, snapshot)
        best = max(results, key=lambda result: result.score)
        if best.passed:
            return CheckResult(1.0)
        reasons = ["none of the alternatives holds:"] + [f"  {reason}" for reason in self._reasons(results)]
        return CheckResult(best.score, tuple(reasons))


@dataclasses.dataclass(frozen=True)
class Not(Stateless):
    """Passes exactly when `part` does not pass fully."""

    part: Validator
    description: str = "the forbidden state"

    def snapshot(self, env: TaskEnv) -> Any:
        return self.part.snapshot(env)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        if self.part.evaluate(env, snapshot).passed:
            return CheckResult(0.0, (f"{self.description} holds but must not",))
        return CheckResult(1.0)


def all_of(*parts: Validator) -> AllOf:
    return AllOf(tuple((part, 1.0) for part in parts))


def any_of(*parts: Validator) -> AnyOf:
    return AnyOf(tuple((part, 1.0) for part in parts))


def not_(part: Validator, description: str = "the forbidden state") -> Not:
    return Not(part, description)


def weighted(*parts: Validator | tuple[Validator, float]) -> Weighted:
    """Weighted mean; a bare validator has weight 1."""
    pairs = tuple(part if isinstance(part, tuple) else (part, 1.0) for part in parts)
    if any(weight < 0 for _, weight in pairs):
        raise ValueError("weights must be non-negative")
    return Weighted(pairs)


def leaves(validator: Validator) -> Iterator[Validator]:
    """The validators a combination is made of (the validator itself when it is not one)."""
    if isinstance(validator, Weighted):
        for part, _ in validator.parts:
            yield from leaves(part)
    elif isinstance(validator, Not):
        yield from leaves(validator.part)
    else:
        yield validator
