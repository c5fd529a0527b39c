"""Offline evaluation on a demonstration dataset (taskkit.demos): each recorded observation is fed
to an agent and its action compared with the recorded one — type match (TM) and action match
(AMS), as AndroidLens reports them — per task, app and step index, and overall.

No device is used. The agent sees what it saw in the recorded run: the goal (and, with
`instructions="low"`, the step's low-level instruction beside it, as the runner's `--instructions
low` shows it: `Observation.instruction`), the numbered elements, the foreground, the screen's size, the screenshot read from the dataset when
the agent asks for one, and the recorded error of the step before. Each step is fed in order
after the recorded steps before it (the agent's own earlier predictions are not carried out).

An agent that needs its task — `gui_reference`, which follows the task's GUI reference — gets it
the way the runner gives it: each episode's task is re-created from the recorded params and seed
(its class must be registered: the built-ins, or `--task_module`), its `gui_reference()` steps go
into the `Episode` handed to `reset`, and from there the agent acts on the recorded observations
alone, as `replay:` replays a run. `gui_reference` on its own dataset therefore gives 100 %.
"""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any, Callable

from taskkit.agents.base import Action, Agent, StopRun
from taskkit.demos import load, load_episodes
from taskkit.demos.records import agent_episode, observation
from taskkit.device.services.ui import UIElement
from taskkit.report import table
from taskkit.runner import INSTRUCTION_LEVELS
from taskkit.static_eval.matching import action_match, type_match

@dataclasses.dataclass(frozen=True)
class StepOutcome:
    """One recorded step: what the agent predicted and whether it matched."""

    episode_id: str
    task: str
    apps: tuple[str, ...]
    step: int
    recorded: str  # the recorded action type
    predicted: str | None  # the predicted action type (None: the agent raised or returned no action)
    type_match: bool
    action_match: bool
    error: str | None = None


def _predict(agent: Agent, seen: Any) -> tuple[Action | None, str | None]:
    try:
        action = agent.step(seen)
    except StopRun:
        raise
    except Exception as error:  # noqa: BLE001 - the agent's failure is a miss, counted and named
        return None, f"{type(error).__name__}: {error}"
    if not isinstance(action, Action):
        return None, f"step returned {type(action).__name__}, not an Action"
    return action, None


def _outcome(step: dict[str, Any], predicted: Action | None, error: str | None,
             elements: tuple[UIElement, ...]) -> StepOutcome:
    recorded, size = Action.from_dict(step["action"]), (step["screen_size"][0], step["screen_size"][1])
    return StepOutcome(step["episode_id"], step["task"], tuple(step["apps"]), step["step"], recorded.action_type,
                       None if predicted is None else predicted.action_type,
                       predicted is not None and type_match(predicted, recorded, size),
                       predicted is not None and action_match(predicted, recorded, elements, size), error)


def evaluate(directory: str | Path, agent: Agent, instructions: str = "high",
             on_step: Callable[[StepOutcome], None] = lambda outcome: None) -> list[StepOutcome]:
    """Feed every recorded step of the dataset in `directory` to `agent`; one outcome per step."""
    if instructions not in INSTRUCTION_LEVELS:
        raise ValueError(f"instructions must be one of {INSTRUCTION_LEVELS}, got {instructions!r}")
    root = Path(directory)
    episodes = {episode["episode_id"]: episode for episode in load_episodes(root)}
    outcomes = []
    for episode_id, steps in itertools.groupby(load(root), key=lambda step: step["episode_id"]):
        episode = episodes[episode_id]
        agent.reset(agent_episode(episode, agent.wants_gui_reference, agent.wants_device_locale))
        last_error = None
        for step in steps:
            instruction = step["instruction"] if instructions == "low" else None
            shot = (root / step["screenshot"]).read_bytes() if agent.wants_screenshot else None
            seen = observation(step, episode["goal"], episode["max_steps"], last_error, shot, instruction)
            predicted, error = _predict(agent, seen if agent.wants_ui_elements else
                                        dataclasses.replace(seen, ui_elements=()))
            outcome = _outcome(step, predicted, error, seen.ui_elements)
            outcomes.append(outcome)
            on_step(outcome)
            last_error = step.get("action_error")
    return outcomes


def _rates(outcomes: list[StepOutcome]) -> dict[str, Any]:
    n = len(outcomes)
    return {"steps": n, "type_match": round(sum(o.type_match for o in outcomes) / n, 4) if n else None,
            "action_match": round(sum(o.action_match for o in outcomes) / n, 4) if n else None}


def _grouped(outcomes: list[StepOutcome], keys: Callable[[StepOutcome], tuple[Any, ...]]) -> dict[str, Any]:
    groups: dict[Any, list[StepOutcome]] = {}
    for outcome in outcomes:
        for key in keys(outcome):
            groups.setdefault(key, []).append(outcome)
    return {str(key): _rates(group) for key, group in sorted(groups.items())}


def summary(outcomes: list[StepOutcome]) -> dict[str, Any]:
    """TM and AMS overall and by task, app and step index (the JSON of `--output`)."""
    return {"overall": _rates(outcomes), "agent_errors": sum(1 for o in outcomes if o.error is not None),
            "by_task": _grouped(outcomes, lambda o: (o.task,)), "by_app": _grouped(outcomes, lambda o: o.apps),
            "by_step": _grouped(outcomes, lambda o: (o.step,))}


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def tables(data: dict[str, Any]) -> str:
    """The summary as text: one table per breakdown, then the overall figures."""
    parts = []
    for title, key in (("task", "by_task"), ("app", "by_app"), ("step", "by_step")):
        rows = [[name, str(r["steps"]), _percent(r["type_match"]), _percent(r["action_match"])]
                for name, r in data[key].items()]
        parts.append(table([title, "steps", "TM %", "AMS %"], rows))
    overall = data["overall"]
    parts.append(f"overall: {overall['steps']} step(s), TM {_percent(overall['type_match'])} %, "
                 f"AMS {_percent(overall['action_match'])} %, agent errors {data['agent_errors']}")
    return "\n\n".join(parts)
