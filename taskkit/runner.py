"""The episode loop: initialize → agent steps → check → teardown, one result row per episode.

Three outcomes are kept apart: the agent failed (score < 1, no error), the task or its check
is broken (`error_kind` "task"), or the infrastructure failed (`error_kind` "infrastructure":
the device is gone or did not answer). An agent that raises is recorded as `error_kind` "agent",
unless it raises `StopRun` (its endpoint is down, a strict replay does not fit): then the episode is
torn down unrecorded and the run ends.
"""
from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any, Callable, Iterable

from taskkit.actions import ActionError, perform
from taskkit.agents.base import Action, Agent, Episode, Observation, StopRun
from taskkit.agents.builtin import OracleAgent
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.device.base import DeviceError
from taskkit.device.errors import CommandFailed
from taskkit.device.services.ui import Screen, UIError
from taskkit import side_effects as side_effects_lib
from taskkit.env import Env
from taskkit.loading import where
from taskkit.metrics import add_usage
from taskkit.suite import TaskBuildError, TaskInstance
from taskkit.trajectory import TrajectoryWriter
from taskkit.validators import detectors, milestones as milestones_lib

INFRASTRUCTURE, TASK, AGENT, INTERRUPTED = "infrastructure", "task", "agent", "interrupted"
#: Set (by a signal handler) to end the run at the next step boundary: the current episode is
#: recorded as interrupted after its teardown, and `run_suite` raises KeyboardInterrupt.
STOP = threading.Event()


@dataclasses.dataclass
class EpisodeResult:
    """One row of results.jsonl."""

    task: str
    instance_id: str
    seed: int
    run_seed: int
    params: dict[str, Any]
    goal: str
    apps: list[str]
    agent: str
    score: float = 0.0
    success: bool = False
    steps: int = 0
    max_steps: int = 0
    status: str | None = None  # what the agent declared: complete, infeasible, or None (budget spent)
    answer: str = ""
    reasons: list[str] = dataclasses.field(default_factory=list)
    attempts: int = 1
    duration_s: float = 0.0
    error: str | None = None
    error_kind: str | None = None
    trajectory: str | None = None  # the agent's steps, relative to the output directory
    usage: dict[str, Any] = dataclasses.field(default_factory=dict)  # the agent's numeric usage, summed over steps
    device_config: dict[str, Any] | None = None  # the device config the episode ran under (taskkit.config)
    difficulty: str = ""  # the task's metadata (taskkit.metadata), for the summary's breakdowns
    tags: list[str] = dataclasses.field(default_factory=list)
    optimal_steps: int | None = None
    side_effects: list[str] | None = None  # changes outside what the task checks (None: not looked for)
    first_success_step: int | None = None  # --success_check every_step: the step whose check first passed
    key_components_step: int | None = None  # SPA's key components: the screen they matched on (0: the first)
    progress: float | None = None  # the share of the task's milestones reached (None: it declares none)
    milestones: dict[str, int | None] | None = None  # each milestone's first step reached (None: never)
    instructions: list[str] | None = None  # --instructions low: the low-level instruction of each step

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _metadata(task: Any) -> dict[str, Any]:
    return {"difficulty": task.difficulty, "tags": list(task.tags), "optimal_steps": task.optimal_steps}


class _SolveFailed(Exception):
    """The task's reference solution raised (a task bug, not an agent failure)."""


SIDE_EFFECT_MODES = ("off", "report", "strict")
SUCCESS_CHECKS = ("final", "every_step")
INSTRUCTION_LEVELS = ("high", "low")
MALFORMED_ACTIONS = ("error", "noop_step")


@dataclasses.dataclass(frozen=True)
class EpisodeOptions:
    """How an episode is judged and what a malformed action costs (taskkit.run's flags).

    * `side_effects`: "report" records the changes outside what the task checks
      (taskkit.side_effects); "strict" also scores an episode with any 0; "off" looks for none.
    * `success_check`: "final" scores the device once the agent stops (AndroidWorld's way);
      "every_step" also checks after every action and ends the episode as a success at the
      first step whose check passes (B-MoCA's way), recorded as `first_success_step`.
    * `instructions`: "high" gives the agent the goal; "low" also each step's low-level
      instruction (`Observation.instruction`), written by playing the task's GUI reference on the
      same instance first (the row keeps them as `instructions`; a task without a reference gets
      none).
    * `malformed_action`: what an action the agent could not form (`action_type` "unknown": a
      reply that parses to no action) does. Both cost a step and change nothing on the device;
      "error" (AndroidWorld's) tells the agent why in its next observation's
      `last_action_error`; "noop_step" (B-MoCA's) tells it nothing.
    """

    side_effects: str = "off"
    success_check: str = "final"
    malformed_action: str = "error"
    instructions: str = "high"

    def __post_init__(self) -> None:
        for name, allowed in (("side_effects", SIDE_EFFECT_MODES), ("success_check", SUCCESS_CHECKS),
                              ("malformed_action", MALFORMED_ACTIONS), ("instructions", INSTRUCTION_LEVELS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")


def run_episode(env: Env, instance: TaskInstance, agent: Agent, run_seed: int, output_dir: str | None = None,
                save_screenshots: bool = False, options: EpisodeOptions = EpisodeOptions()) -> EpisodeResult:
    """Run one episode on `env` and return its result; never raises for a failing episode.

    With `output_dir`, an agent's steps go to `trajectories/<instance_id>.jsonl` there (the
    oracle mode takes no steps and writes none). `options`: see `EpisodeOptions`.
    """
    started = time.monotonic()
    try:
        task = instance.create()
    except TaskBuildError as error:  # the task's params or goal did not build: its own error
        result = EpisodeResult(task=instance.task.name, instance_id=instance.instance_id, seed=instance.seed,
                               run_seed=run_seed, params={}, goal="", apps=list(instance.task.app_names),
                               agent=agent.name, error=str(error), error_kind=TASK,
                               device_config=instance.device_config, **_metadata(instance.task))
        return result
    result = EpisodeResult(
        task=task.name, instance_id=instance.instance_id, seed=instance.seed, run_seed=run_seed,
        params=task.params, goal=task.goal, apps=list(task.app_names), agent=agent.name,
        max_steps=task.max_steps, device_config=instance.device_config, **_metadata(instance.task),
    )
    if options.instructions == "low" and not isinstance(agent, OracleAgent):
        result.instructions = low_level_instructions(env, instance, run_seed)
    env.new_episode()
    try:
        task.initialize_state(env)  # restores the device itself if it fails or is interrupted
    except KeyboardInterrupt:
        _record_interrupt(result)
        result.duration_s = round(time.monotonic() - started, 4)
        return result
    except Exception as error:  # noqa: BLE001 - every failure becomes a recorded error
        _record_error(result, error, "initialize_state")
        result.duration_s = round(time.monotonic() - started, 4)
        return result
    watch = _watch(env, task) if options.side_effects != "off" else None
    trajectory = None
    try:
        if output_dir is not None and not isinstance(agent, OracleAgent):
            trajectory = TrajectoryWriter(output_dir, instance.instance_id, save_screenshots)
            result.trajectory = trajectory.relative_path
        tracker = milestone_tracker(env, task)
        env.screens = screen_log(task, tracker)
        _agent_loop(env, task, agent, result, instance, trajectory, options, tracker)
        result.score = task.is_successful(env)
        if env.screens is not None:
            result.key_components_step = env.screens.matched
        result.success = result.score >= 1.0
        if task.last_result is not None:
            result.reasons = list(task.last_result.reasons)
        if tracker is not None:
            result.progress = round(tracker.finish(env, result.steps), 4)
            result.milestones = dict(tracker.reached)
            result.reasons += tracker.reasons
        if watch is not None:
            _record_side_effects(env, watch, result, strict=options.side_effects == "strict")
    except KeyboardInterrupt:  # SIGINT, or SIGTERM turned into one by taskkit.run: end cleanly
        _record_interrupt(result)
    except StopRun:  # the agent cannot go on (an endpoint down, a replay that does not fit), or the output
        raise  # directory cannot be written (outdir.WriteFailed): no row
    except Exception as error:  # noqa: BLE001
        _record_error(result, error, "episode")
    finally:
        if trajectory is not None:
            trajectory.close()
        try:
            task.teardown(env)
        except Exception as error:  # noqa: BLE001
            if result.error is None:
                _record_error(result, error, "teardown")
    result.answer = env.answer
    result.duration_s = round(time.monotonic() - started, 4)
    return result


def milestone_tracker(env: Env, task: Any) -> milestones_lib.Tracker | None:
    """The task's milestones with their setup snapshots (None: it declares none)."""
    groups = task.milestones()
    return milestones_lib.Tracker(milestones_lib.check_groups(groups, task.name), env) if groups else None


def screen_log(task: Any, tracker: milestones_lib.Tracker | None) -> detectors.ScreenLog | None:
    """What the episode keeps of each screen for the checks that read its screens (SPA's key
    components: the task's, its parts', its milestones'); None when none does, so an episode of
    any other task keeps nothing per step."""
    tasks = [task] + [part for _, part, _ in getattr(task, "subtasks", ())]
    checks = [t._validator for t in tasks if getattr(t, "_validator", None) is not None]
    checks += [m.check for group in (tracker.groups if tracker else ()) for m in group.milestones]
    return detectors.screen_log(checks)


def _watch(env: Env, task: Any) -> side_effects_lib.Watch | None:
    """Start the side-effect diff; None (nothing recorded) where the device does not allow it."""
    try:
        return side_effects_lib.start(env, task)
    except Exception:  # noqa: BLE001 - e.g. app data unreadable on an unrooted phone
        return None


def _record_side_effects(env: Env, watch: side_effects_lib.Watch, result: EpisodeResult, strict: bool) -> None:
    try:
        result.side_effects = side_effects_lib.finish(env, watch)
    except Exception:  # noqa: BLE001 - the diff is a report, not part of the score
        return
    if strict and result.side_effects:
        result.score, result.success = 0.0, False
        result.reasons.append(f"--strict: {len(result.side_effects)} side effect(s), e.g. {result.side_effects[0]}")


def _agent_loop(env: Env, task: Any, agent: Agent, result: EpisodeResult, instance: TaskInstance,
                trajectory: TrajectoryWriter | None, options: EpisodeOptions,
                tracker: milestones_lib.Tracker | None = None) -> None:
    if isinstance(agent, OracleAgent):  # the privileged run mode: the task's own solution
        _run_solution(env, task)
        result.steps, result.status = 1, "complete"
        return
    if task.start_on_home_screen:  # as AndroidWorld's episode runner: a known first screen
        perform(env, Action("navigate_home"))
    reference = task.gui_reference() if agent.wants_gui_reference else None
    locale = (env.device.props.get("persist.sys.locale") or None) if agent.wants_device_locale else None
    agent.reset(Episode(task.goal, task.max_steps, tuple(task.app_names), task.name, instance.instance_id,
                        instance.seed, None if reference is None else tuple(reference), locale))
    last_error: str | None = None
    while result.steps < task.max_steps:
        if STOP.is_set():  # asked to stop: end this episode here, cleanly (teardown follows)
            raise KeyboardInterrupt("stop requested")
        said = result.instructions or ()
        observation = observe(env, agent, task.goal, result.steps, task.max_steps, last_error,
                              screenshot=trajectory is not None and trajectory.save_screenshots,
                              instruction=said[result.steps] if result.steps < len(said) else None)
        started = time.monotonic()
        try:
            action = agent.step(observation)
            step_usage = agent.usage()
        except (DeviceError, StopRun):
            raise
        except Exception as error:
            raise _AgentFailed(f"{type(error).__name__}: {error}") from error
        seconds = time.monotonic() - started
        if not isinstance(action, Action):
            raise _AgentFailed(f"step returned {type(action).__name__} {action!r:.80}, not a taskkit.agents.Action "
                               "(Action.from_dict turns AndroidWorld's JSON form into one)")
        result.steps += 1
        add_usage(result.usage, step_usage)
        outcome = take_step(env, task, action, observation, result.steps, options, tracker)
        last_error = outcome.error
        if trajectory is not None:
            trajectory.step(observation, action, last_error, seconds, step_usage)
        if action.ends_episode:
            result.status = action.goal_status
            return
        if outcome.succeeded:  # --success_check every_step: the detector fired, a success here
            result.first_success_step = result.steps
            return


@dataclasses.dataclass(frozen=True)
class StepOutcome:
    """What one step did: the error the agent is told next (None: none) and whether the
    per-step check passed (`success_check` every_step)."""

    error: str | None = None
    succeeded: bool = False


def take_step(env: Env, task: Any, action: Action, observation: Observation, step: int, options: EpisodeOptions,
              tracker: milestones_lib.Tracker | None = None) -> StepOutcome:
    """Step `step` of an episode (counted from 1) with `action`, as the runner and taskkit.gym take
    it: perform it on the screen `observation` showed (a `status` action performs nothing), a
    malformed one as `options.malformed_action` says; then observe the milestones and, with
    `success_check` every_step, run the task's check."""
    error = None
    if action.ends_episode:
        return StepOutcome()
    try:
        perform(env, action, observation.ui_elements, observation.screen_size)
    except ActionError as problem:
        if not (action.action_type == "unknown" and options.malformed_action == "noop_step"):
            error = str(problem)
    if tracker is not None:
        tracker.observe(env, step)
    succeeded = options.success_check == "every_step" and task.is_successful(env) >= 1.0
    return StepOutcome(error, succeeded)


def observe(env: Env, agent: Agent, goal: str, step: int, max_steps: int, last_error: str | None,
            screenshot: bool = False, instruction: str | None = None) -> Observation:
    """What `agent` sees now: one round trip for the foreground and the elements, one more for
    a screenshot if the agent asks for one (or `screenshot`: the run saves them). When the task
    reads the episode's screens (`env.screens`), the screen is kept there too (read for it if the
    agent did not ask for it)."""
    if agent.wants_ui_elements:
        screen = env.device.ui.screen()
    else:
        screen = Screen(env.device.activity.foreground(), ())
    png, screen_error = None, screen.error
    if agent.wants_screenshot or screenshot:
        try:
            png = env.device.ui.screenshot()
        except (UIError, CommandFailed) as error:
            screen_error = screen_error or str(error)
    if env.screens is not None:  # the task reads the episode's screens: keep what it needs of this one
        env.screens.keep(env, screen.elements if agent.wants_ui_elements else None, png)
    return Observation(goal=goal, step=step, max_steps=max_steps, foreground=screen.foreground,
                       ui_elements=screen.elements, screenshot=png, last_action_error=last_error,
                       screen_error=screen_error, screen_size=screen.size, instruction=instruction)


class _Narrating(GuiReferenceAgent):
    """The GUI reference, keeping the low-level instruction of each action it takes."""

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.said: list[str] = []

    def step(self, observation: Observation) -> Action:
        action = super().step(observation)
        self.said.append(self.instruction)
        return action


def low_level_instructions(env: Env, instance: TaskInstance, run_seed: int) -> list[str] | None:
    """Each step's low-level instruction for `instance`: its task's GUI reference played on
    `env` as an episode of its own (torn down after). None when the task gives no reference or
    the reference does not score 1.0 there."""
    if not instance.task.has_gui_reference():
        return None
    narrator = _Narrating()
    played = run_episode(env, instance, narrator, run_seed)
    return narrator.said if played.error is None and played.score >= 1.0 else None


def _run_solution(env: Env, task: Any) -> None:
    try:
        with env.device.batch():
            task.solve(env)
    except DeviceError:
        raise
    except Exception as error:
        raise _SolveFailed(f"{type(error).__name__}: {error}") from error


class _AgentFailed(Exception):
    """The agent raised while choosing an action."""


def _record_interrupt(result: EpisodeResult) -> None:
    result.score, result.success = 0.0, False
    result.error, result.error_kind = "interrupted (SIGINT or SIGTERM) during the episode", INTERRUPTED


def _record_error(result: EpisodeResult, error: BaseException, phase: str) -> None:
    result.score, result.success = 0.0, False
    if isinstance(error, (DeviceError, TimeoutError, ConnectionError)):
        result.error_kind = INFRASTRUCTURE
    elif isinstance(error, _AgentFailed):
        result.error_kind = AGENT
    else:
        result.error_kind = TASK
    label = "agent" if isinstance(error, _AgentFailed) else "solve" if isinstance(error, _SolveFailed) else phase
    cause = error.__cause__ if isinstance(error, (_AgentFailed, _SolveFailed)) and error.__cause__ else error
    message = str(error) if isinstance(error, (_AgentFailed, _SolveFailed)) else f"{type(error).__name__}: {error}"
    result.error = f"{label} failed: {where(cause)}{message}"


def run_suite(
    env: Env,
    suite: Iterable[TaskInstance],
    agent: Agent,
    run_seed: int,
    on_result: Callable[[EpisodeResult], None] = lambda result: None,
    retries: int = 1,
    output_dir: str | None = None,
    save_screenshots: bool = False,
    options: EpisodeOptions = EpisodeOptions(),
) -> list[EpisodeResult]:
    """Run every instance in order, handing each result to `on_result` as soon as it exists.

    An episode that fails for infrastructure reasons is run again (up to `retries` times,
    after asking the device to reconnect); if it still fails it is recorded with its error and
    the run goes on with the next episode.
    """
    results = []
    for instance in suite:
        if STOP.is_set():
            raise KeyboardInterrupt("stop requested")
        result = run_episode(env, instance, agent, run_seed, output_dir, save_screenshots, options)
        for attempt in range(2, retries + 2):
            if result.error_kind != INFRASTRUCTURE:
                break
            _reconnect(env)
            result = run_episode(env, instance, agent, run_seed, output_dir, save_screenshots, options)
            result.attempts = attempt
        on_result(result)
        results.append(result)
        if result.error_kind == INTERRUPTED:  # the episode was ended cleanly and recorded: now stop
            raise KeyboardInterrupt(result.error)
    return results


def _reconnect(env: Env) -> None:
    """Give the device a chance to come back (a no-op for devices that cannot reconnect)."""
    reconnect = getattr(env.device, "reconnect", None)
    if reconnect is not None:
        try:
            reconnect()
        except Exception:  # noqa: BLE001 - the retried episode will record what is wrong
            pass
