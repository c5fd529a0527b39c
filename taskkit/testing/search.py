"""Search seeds for a failure with hypothesis, and shrink it to a minimal seed.

`search(check, seeds)` calls `check(seed) -> message or None` for hypothesis-drawn seeds
(derandomized, no example database: the same seeds on every run) or for the explicit seeds
given (smallest first, stopping at the first failure). On a failure hypothesis shrinks toward
seed 0; the last failing call is the minimal one.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Iterable, Union

from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings

from taskkit.testing.episodes import Abort
from taskkit.testing.strategies import seeds as seed_strategy

DEFAULT_SEEDS = 5
Seeds = Union[int, Iterable[int], None]


class _Failed(AssertionError):
    pass


@dataclasses.dataclass
class SearchResult:
    tried: list[int]
    seed: int | None = None  # the minimal failing seed
    first_seed: int | None = None  # the first failing seed found, before shrinking
    message: str | None = None
    flaky: bool = False

    @property
    def failed(self) -> bool:
        return self.seed is not None


def planned_seeds(seeds: Seeds = None) -> list[int]:
    """The seeds `search` will try first for `seeds` (before any shrinking): to send work ahead."""
    return search(lambda seed: None, seeds).tried


def search(check: Callable[[int], str | None], seeds: Seeds = None, *, shrink: bool = True) -> SearchResult:
    """Run `check` over `seeds` (a count, explicit seeds, or None for DEFAULT_SEEDS)."""
    explicit = None if seeds is None or isinstance(seeds, int) else [int(s) for s in seeds]
    count = DEFAULT_SEEDS if seeds is None else (seeds if isinstance(seeds, int) else len(explicit or ()))
    if count < 1 and explicit is None:
        raise ValueError(f"seeds must be at least 1, got {count}")
    result = SearchResult(tried=[])
    failures: list[tuple[int, str]] = []

    last_call_failed = [False]

    def body(seed: int) -> None:
        result.tried.append(seed)
        message = check(seed)
        last_call_failed[0] = bool(message)
        if message:
            failures.append((seed, message))
            raise _Failed(message)

    phases = (Phase.explicit,) if explicit is not None else (
        (Phase.generate, Phase.shrink) if shrink else (Phase.generate,))
    runner = given(seed_strategy())(body)
    for seed in sorted(set(explicit or ()), reverse=True):  # the last added runs first: smallest first
        runner = example(seed)(runner)
    runner = settings(
        max_examples=max(count, 1), derandomize=True, database=None, deadline=None, phases=phases,
        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet, report_multiple_bugs=False,
    )(runner)
    try:
        runner()
    except Abort as abort:
        raise abort.error from None
    except Exception:
        if not failures:
            raise
        result.first_seed = failures[0][0]
        result.seed, result.message = failures[-1]
        result.flaky = not last_call_failed[0]  # the minimal example passed when replayed
    result.tried = list(dict.fromkeys(result.tried))
    return result
