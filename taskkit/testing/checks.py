"""One-call property checks for task authors, and their results.

    from taskkit.testing import check_task, check_solvable
    check_solvable(MyTask, seeds=20)        # raises PropertyFailed naming the minimal seed
    check_task(MyTask, env=task_env)        # every default property, on the pytest fixture's device

`seeds` is a number of hypothesis-drawn seeds (default 5; failures shrink to a minimal seed), or
an explicit list of seeds. `env` is the `Env` to run on (default: a fresh device from `device`,
"sim" unless given). A failure's message ends with the command that reproduces it.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Sequence

from taskkit.env import Env
from taskkit.errors import TaskkitError
from taskkit.testing import properties as props
from taskkit.testing import reproduce
from taskkit.testing.search import Seeds, planned_seeds, search
from taskkit.testing.session import Session


@dataclasses.dataclass
class PropertyResult:
    """One property of one task over the seeds tried."""

    task: str
    prop: str
    status: str  # "pass", "FAIL" or "n/a"
    seeds: list[int]
    seed: int | None = None  # the minimal failing seed
    first_seed: int | None = None
    message: str | None = None
    reproduce: str | None = None
    flaky: bool = False
    killed: int = 0  # near_miss: mutations killed / applied, over the seeds tried
    total: int = 0
    unapplied: int = 0
    notes: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def __str__(self) -> str:
        if not self.failed:
            detail = f" ({'; '.join(self.notes)})" if self.notes and self.status == "n/a" else ""
            return f"{self.task}: {self.prop} {self.status} over seeds {self.seeds}{detail}"
        shrunk = f" (shrunk from seed {self.first_seed})" if self.first_seed not in (None, self.seed) else ""
        flaky = " [flaky: it passed when replayed]" if self.flaky else ""
        return (f"{self.task}: {self.prop} FAILED at seed {self.seed}{shrunk}{flaky}\n"
                f"  {self.message}\n  reproduce: {self.reproduce}")


class PropertyFailed(TaskkitError, AssertionError):
    """Raised by the `check_*` functions; `results` holds every failing property."""

    def __init__(self, results: Sequence[PropertyResult]):
        self.results = list(results)
        super().__init__("\n".join(str(result) for result in self.results))


def run_property(prop: props.Property, task_cls: Any, session: Session, seeds: Seeds = None,
                 shrink: bool = True) -> PropertyResult:
    """Check `prop` of `task_cls` over `seeds` in `session`, never raising for a task failure."""
    not_applicable: dict[int, str] = {}

    def check(seed: int) -> str | None:
        outcome = prop.check(session, task_cls, seed)
        if isinstance(outcome, props.NotApplicable):
            not_applicable[seed] = outcome.reason
            return None
        return outcome

    found = search(check, seeds, shrink=shrink)
    name = getattr(task_cls, "name", task_cls.__name__)
    result = PropertyResult(name, prop.name, "pass", found.tried)
    if prop is props.NEAR_MISS:
        runs = session.near_miss_runs(task_cls, found.tried)
        result.killed = sum(len(run.killed) for run in runs)
        result.total = sum(run.total for run in runs)
        result.unapplied = sum(len(run.unapplied) for run in runs)
        result.notes = tuple(dict.fromkeys(note for run in runs for note in run.notes + run.unapplied))
    if found.failed:
        result.status, result.seed, result.first_seed = "FAIL", found.seed, found.first_seed
        result.message, result.flaky = found.message, found.flaky
        result.reproduce = reproduce.command(task_cls, prop.name, found.seed, session.device_spec)
    elif not_applicable and set(found.tried) <= set(not_applicable):
        result.status = "n/a"
        result.notes = tuple(dict.fromkeys(not_applicable.values()))
    return result


def _selected(hostile: bool, properties: Iterable[str] | None) -> list[props.Property]:
    if properties is not None:
        unknown = [p for p in properties if p not in props.BY_NAME]
        if unknown:
            raise ValueError(f"unknown propert{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
                             f"known: {', '.join(props.BY_NAME)}")
        return [props.BY_NAME[p] for p in properties]
    return list(props.ALL if hostile else props.DEFAULT)


def check_task(task_cls: Any, *, seeds: Seeds = None, env: Env | None = None, device: str = "sim",
               hostile: bool = False, properties: Iterable[str] | None = None, shrink: bool = True,
               session: Session | None = None) -> list[PropertyResult]:
    """Every default property (plus `hostile` if asked); raises PropertyFailed listing the failures."""
    chosen = _selected(hostile, properties)
    own = session is None
    session = session or Session(env, device, near_misses=props.NEAR_MISS in chosen)
    try:
        if props.DETERMINISTIC in chosen:
            session.prefetch(task_cls, planned_seeds(seeds))
        results = [run_property(prop, task_cls, session, seeds, shrink) for prop in chosen]
    finally:
        if own:
            session.close()
    failures = [result for result in results if result.failed]
    if failures:
        raise PropertyFailed(failures)
    return results


def _one(prop: props.Property):
    def check(task_cls: Any, *, seeds: Seeds = None, env: Env | None = None, device: str = "sim",
              shrink: bool = True) -> PropertyResult:
        with Session(env, device, near_misses=prop is props.NEAR_MISS) as session:
            result = run_property(prop, task_cls, session, seeds, shrink)
        if result.failed:
            raise PropertyFailed([result])
        return result

    check.__name__ = check.__qualname__ = f"check_{prop.name}"
    check.__doc__ = f"Check that {prop.summary}, over `seeds`; raises PropertyFailed with the minimal seed."
    return check


check_solvable = _one(props.SOLVABLE)
check_not_trivially_solved = _one(props.NOT_TRIVIALLY_SOLVED)
check_clean_teardown = _one(props.CLEAN_TEARDOWN)
check_deterministic = _one(props.DETERMINISTIC)
check_near_miss = _one(props.NEAR_MISS)
check_gui_solvable = _one(props.GUI_SOLVABLE)
check_hostile = _one(props.HOSTILE)
