"""The properties every task must have, each a check of one seed: a failure message or None.

* solvable — after `initialize_state`, `solve` makes `is_successful` return 1.0;
* not_trivially_solved — right after `initialize_state` the score is below 1.0 (and exactly 0.0
  unless the task is a `CompositeTask`, whose parts may give partial credit); a task that sets
  `starts_solved = True` (AndroidWorld's *Verify tasks: the goal already holds and the agent
  must only check it) must instead score exactly 1.0 there;
* clean_teardown — `state_digest` after `teardown` equals the one before `initialize_state`;
* deterministic — the same seed gives the same params, goal and initial-state digest, twice in
  this process and once in a fresh one;
* near_miss — every mutation derived from the task's validators scores below 1.0;
* gui_solvable — the task's GUI reference, played by `--agent gui_reference`, declares the goal
  complete within the step budget, scores 1.0 and reaches every milestone it declares; with its last step dropped, and with its last
  typed value (or answer) mistyped, it scores less (unless the task starts solved; n/a for a
  task without a reference); where the check reads the episode's screens (SPA's key components,
  matched from the last screen back), followed by HOME it still scores 1.0;
* hostile — hostile text appended to every free-text param round-trips through initialize,
  solve and check (solve still scores 1.0; under 1 KB of text, where a fuzzy comparison can
  still see the difference, the start still scores below 1.0), teardown is clean, and no
  injected command runs (the canary file never appears).
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable, Union

from taskkit import gui_reference
from taskkit.agents.gui_reference import GuiReferenceAgent, Variant
from taskkit.composite import CompositeTask
from taskkit.params import ParamError
from taskkit.device.state import difference
from taskkit.testing.episodes import Lifecycle, call, observe_lifecycle
from taskkit.testing.fresh_process import fingerprint
from taskkit.testing.hostile import describe_path, with_hostile_text
from taskkit.testing.session import Session
from taskkit.testing.strategies import CANARY, hostile_text_for
from taskkit.runner import run_episode


@dataclasses.dataclass(frozen=True)
class NotApplicable:
    """The property does not apply to this task (e.g. no validator to mutate)."""

    reason: str


Outcome = Union[str, None, NotApplicable]
Player = Callable[[Union[Variant, None]], GuiReferenceAgent]  # the agent of one play of a GUI reference


@dataclasses.dataclass(frozen=True)
class Property:
    name: str
    summary: str
    check: Callable[[Session, Any, int], Outcome]


def _reasons(reasons: tuple[str, ...]) -> str:
    return "; ".join(reasons[:4]) + (f" (+{len(reasons) - 4} more)" if len(reasons) > 4 else "") if reasons else "no reasons given"


_BEFORE_START = ("from_seed", "initialize_state", "is_successful (before solve)")


# ---------------------------------------------------------------------------------- lifecycle
def check_solvable(session: Session, task_cls: Any, seed: int) -> Outcome:
    run = session.lifecycle(task_cls, seed)
    if run.error:
        return run.error
    if run.solved_score != 1.0:
        return f"after solve() the score is {run.solved_score}, expected 1.0: {_reasons(run.solved_reasons)}"
    return None


def check_not_trivially_solved(session: Session, task_cls: Any, seed: int) -> Outcome:
    run = session.lifecycle(task_cls, seed)
    if run.error and run.failed_phase in _BEFORE_START:
        return run.error
    score = run.start_score
    if score is None:
        return run.error
    if getattr(task_cls, "starts_solved", False):  # a verify task: the goal holds from the start
        if score < 1.0:
            return f"a starts_solved task must score 1.0 right after initialize_state, got {score}"
        return None
    if score >= 1.0:
        return "right after initialize_state the task already scores 1.0: the agent has nothing to do"
    if score != 0.0 and not issubclass(task_cls, CompositeTask):
        return (f"right after initialize_state the score is {score}, expected 0.0 "
                "(only composite tasks may give partial credit before the agent acts)")
    return None


def check_clean_teardown(session: Session, task_cls: Any, seed: int) -> Outcome:
    run = session.lifecycle(task_cls, seed)
    if run.teardown_error:
        return run.teardown_error
    if run.failed_phase in ("from_seed", "initialize_state"):
        return run.error  # teardown never had its chance: this is not a pass
    if run.digest_after != run.digest_before:
        return "teardown left the device changed: " + difference(run.listing_before, run.listing_after)
    return None


# ---------------------------------------------------------------------------------- determinism
def first_difference(a: Any, b: Any, path: str = "params") -> str:
    """Where two plain values first differ: `params.expenses[0].name: 'x' != 'y'`."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, KeyError) != b.get(key, KeyError):
                return first_difference(a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
    return f"{path}: {_clip(a)} != {_clip(b)}"


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_deterministic(session: Session, task_cls: Any, seed: int) -> Outcome:
    session.prefetch(task_cls, [seed])  # the fresh process starts on it while this one works
    first, error = call("from_seed", lambda: task_cls.from_seed(seed))
    second, error2 = call("from_seed", lambda: task_cls.from_seed(seed))
    if error or error2:
        return error or error2
    if first.params != second.params:
        return f"two draws from seed {seed} in one process differ: {first_difference(first.params, second.params)}"
    if first.goal != second.goal:
        return f"two draws from seed {seed} in one process give different goals: {_clip(first.goal)} != {_clip(second.goal)}"
    run = session.lifecycle(task_cls, seed)
    if run.failed_phase in ("from_seed", "initialize_state"):
        return run.error
    there = session.fresh_process.fingerprint(task_cls, seed)
    if "error" in there:
        return f"in a fresh process: {there['error']}"
    here = json.loads(json.dumps(first.params, sort_keys=True))
    if here != there["params"]:
        return f"params differ in a fresh process: {first_difference(here, there['params'])}"
    if first.goal != there["goal"]:
        return f"the goal differs in a fresh process: {_clip(first.goal)} != {_clip(there['goal'])}"
    if run.digest_initial != there["digest"] and not _same_on_a_fresh_device(session, task_cls, seed, there["digest"]):
        return "the initial state (state digest right after initialize_state) differs in a fresh process"
    return None


def _same_on_a_fresh_device(session: Session, task_cls: Any, seed: int, digest: str) -> bool:
    """Whether this process, on a device of its own, gets the fresh process's initial state.

    The session's device is only as clean as the teardowns before; a mismatch is judged again on
    a new device so that another task's leak is never blamed on this one.
    """
    if not session.fresh_devices:
        return False
    mine, error = call("fingerprint", lambda: session.with_fresh_device(lambda d: fingerprint(task_cls, seed, d)))
    return error is None and mine["digest"] == digest


# ---------------------------------------------------------------------------------- near misses
def check_near_miss(session: Session, task_cls: Any, seed: int) -> Outcome:
    run = session.near_misses(task_cls, seed)
    lifecycle = session.lifecycle(task_cls, seed)
    if lifecycle.error and lifecycle.failed_phase in _BEFORE_START:
        return lifecycle.error
    if not run.applicable:
        return NotApplicable("; ".join(run.notes))
    if run.error:
        return run.error
    if run.survived:
        listed = "; ".join(run.survived[:6]) + (f" (+{len(run.survived) - 6} more)" if len(run.survived) > 6 else "")
        return f"{len(run.survived)} of {run.total} near-miss mutation(s) survived (still scored 1.0): {listed}"
    if run.total == 0:
        return NotApplicable("; ".join(run.notes) or "no mutations were derived")
    return None


# ---------------------------------------------------------------------------------- GUI reference
def check_gui_solvable(session: Session, task_cls: Any, seed: int, player: Player = GuiReferenceAgent) -> Outcome:
    """`player(variant)` is the agent of each play (a GuiReferenceAgent: a test's may watch the screens)."""
    built, error = call("from_seed", lambda: task_cls.from_seed(seed))
    if error:
        return error
    reference, error = call("gui_reference", built.gui_reference)
    if error:
        return error
    if reference is None:
        return NotApplicable("no GUI reference (define gui_reference())")
    played = _play(session, task_cls, seed, None, player)
    if played.error or played.status != "complete" or played.score != 1.0:
        return f"the GUI reference: {_outcome(played)}"
    missed = [name for name, step in (played.milestones or {}).items() if step is None]
    if missed:
        return f"the GUI reference scores 1.0 but never reaches (or does not hold) milestone(s) {', '.join(missed)}"
    if played.key_components_step is not None:  # its check read the screens (SPA's rule: the last screen back)
        home = _play(session, task_cls, seed, lambda steps: [*steps, gui_reference.home()], player)
        if home.error or home.status != "complete" or home.score != 1.0:
            return (f"the GUI reference followed by HOME: {_outcome(home)} (the key components are matched on the "
                    "episode's screens from the last back, so the screen the reference ended on still counts)")
    if getattr(task_cls, "starts_solved", False):  # the goal already holds: no near miss can score less
        return None
    for miss, variant in (("with its last step dropped", gui_reference.without_last_step),
                          ("with its last typed value mistyped", gui_reference.mistyped)):
        if variant(reference) is None:
            continue
        near = _play(session, task_cls, seed, variant, player)
        if near.error:
            return f"the GUI reference {miss}: {near.error}"
        if near.score >= 1.0:
            return f"the GUI reference {miss} still scores 1.0: the reference does not pin the goal down"
    return None


@dataclasses.dataclass(frozen=True)
class _Played:
    score: float | None
    status: str | None
    steps: int
    max_steps: int
    error: str | None
    problem: str | None
    reasons: tuple[str, ...]
    milestones: dict[str, int | None] | None = None
    key_components_step: int | None = None  # the screen SPA's key components matched on (None: no such check)


def _play(session: Session, task_cls: Any, seed: int, variant: Variant | None, player: Player) -> _Played:
    agent = player(variant)
    result = run_episode(session.env, session.instance(task_cls, seed), agent, seed)
    return _Played(result.score, result.status, result.steps, result.max_steps, result.error, agent.problem,
                   tuple(result.reasons), result.milestones, result.key_components_step)


def _outcome(played: _Played) -> str:
    if played.error:
        return played.error
    if played.problem:
        return f"could not go on: {played.problem}"
    if played.status != "complete":
        return f"not done within the step budget ({played.max_steps} steps)"
    return f"scores {played.score}: {_reasons(played.reasons)}"


# ---------------------------------------------------------------------------------- hostile input
def check_hostile(session: Session, task_cls: Any, seed: int) -> Outcome:
    text = hostile_text_for(seed)
    built, error = call("from_seed", lambda: with_hostile_text(task_cls, seed, text))
    if error:
        return error
    params, paths = built
    if not paths:
        return NotApplicable("no free-text params (strings without pattern or enum)")
    fields = ", ".join(describe_path(p) for p in paths[:6]) + (f" (+{len(paths) - 6} more)" if len(paths) > 6 else "")
    where = f"hostile text {_clip(text)} in {fields}"
    try:
        task_cls(params, seed=seed)
    except ParamError as problem:
        return f"{where}: the task's schema rejects it: {problem}"
    files = session.env.device.files
    if files.exists(CANARY):
        files.remove(CANARY)
    run = observe_lifecycle(task_cls, seed, session.env, params=params)
    problem = _hostile_problem(run, judge_start=len(text) < LONG_TEXT_LIMIT)
    if files.exists(CANARY):
        files.remove(CANARY)
        return f"{where}: an injected command ran ({CANARY} was created)" + (f"; also {problem}" if problem else "")
    return f"{where}: {problem}" if problem else None


# A long text drowns a small difference in a fuzzy similarity ratio (a header added to a 10 KB
# note is 99 % the same note), so the start is not judged with hostile texts this long.
LONG_TEXT_LIMIT = 1024


def _hostile_problem(run: Lifecycle, judge_start: bool) -> str | None:
    if run.error:
        return run.error
    if run.teardown_error:
        return run.teardown_error
    if judge_start and run.start_score is not None and run.start_score >= 1.0:
        return "with these params the task is solved right after initialize_state, so the round trip is unverified"
    if run.solved_score != 1.0:
        return f"after solve() the score is {run.solved_score}: {_reasons(run.solved_reasons)}"
    if run.digest_after != run.digest_before:
        return "teardown left the device changed"
    return None


SOLVABLE = Property("solvable", "solve() scores 1.0", check_solvable)
NOT_TRIVIALLY_SOLVED = Property("not_trivially_solved", "scores below 1.0 (0.0 unless composite) before the agent acts",
                                check_not_trivially_solved)
CLEAN_TEARDOWN = Property("clean_teardown", "teardown restores the state digest", check_clean_teardown)
DETERMINISTIC = Property("deterministic", "same seed, same params, goal and initial state, also in a fresh process",
                         check_deterministic)
NEAR_MISS = Property("near_miss", "every derived near-miss mutation scores below 1.0", check_near_miss)
GUI_SOLVABLE = Property("gui_solvable", "the GUI reference scores 1.0 within the step budget; its near misses less",
                        check_gui_solvable)
HOSTILE = Property("hostile", "hostile free text round-trips and injects nothing", check_hostile)

#: The properties `check_task` and `python -m taskkit.check` run by default, in order.
DEFAULT = (SOLVABLE, NOT_TRIVIALLY_SOLVED, CLEAN_TEARDOWN, DETERMINISTIC, NEAR_MISS, GUI_SOLVABLE)
ALL = DEFAULT + (HOSTILE,)
BY_NAME = {prop.name: prop for prop in ALL}
