"""The built-in agents that need no model: `oracle`, `noop`, `random`, `replay:PATH`.

`oracle` is not an agent that is handed anything: it marks the runner's privileged mode, in
which the runner itself runs the task's reference solution (a maintainer's check that tasks are
solvable), recorded as `agent: "oracle"` in every result row.
"""
from __future__ import annotations

import random
from pathlib import Path

from taskkit.agents.base import Action, Agent, Episode, Observation
from taskkit.agents.recorded import DIRECTORY, read_actions


class OracleAgent(Agent):
    """The runner's oracle mode (see the module doc); it never takes a step itself."""

    name = "oracle"
    wants_ui_elements = False

    def step(self, observation: Observation) -> Action:
        raise RuntimeError("the oracle is a run mode of the runner, not an agent that takes steps")


class NoopAgent(Agent):
    """Declares the goal complete without touching the device: every task should score 0."""

    name = "noop"
    wants_ui_elements = False

    def step(self, observation: Observation) -> Action:
        return Action("status", goal_status="complete")


class BaselineAgent(Agent):
    """A trivial policy that never touches the screen: optionally answers, then declares a
    status. `python -m taskkit.check --baselines` runs these; a task one of them passes is
    passable by accident (ABC's "do-nothing agent" check)."""

    wants_ui_elements = False

    def __init__(self, name: str, status: str = "complete", answer: str | None = None):
        self.name, self.status, self.answer = name, status, answer

    def step(self, observation: Observation) -> Action:
        if self.answer is not None and observation.step == 0:
            return Action("answer", text=self.answer)
        return Action("status", goal_status=self.status)


BASELINES = (BaselineAgent("noop"), BaselineAgent("always-infeasible", status="infeasible"),
             BaselineAgent("empty-answer", answer=""))


class RandomAgent(Agent):
    """Valid actions drawn at random from the current screen, seeded from the instance seed.

    A smoke test of the whole observe → act loop, and the baseline that exposes tasks passable
    by accident. It declares completion with probability 1/`max_steps` per step.
    """

    name = "random"
    WORDS = ("hello", "42", "Meeting", "note", "2023-10-15", "test")

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.rng = random.Random(episode.seed)

    def step(self, observation: Observation) -> Action:
        rng = self.rng
        if rng.random() < 1 / max(observation.max_steps, 1):
            return Action("status", goal_status="complete")
        elements = observation.ui_elements
        choices: list[Action] = [Action("navigate_back"), Action("navigate_home")]
        for index, element in enumerate(elements):
            box = element.bbox
            if element.is_enabled and box is not None and box.width > 0 and box.height > 0:
                choices.append(Action("click", index=index))  # a leaf inside a clickable row taps the row
            if element.is_long_clickable:
                choices.append(Action("long_press", index=index))
            if element.is_editable:
                choices.append(Action("input_text", index=index, text=rng.choice(self.WORDS)))
            if element.is_scrollable:
                choices.append(Action("scroll", index=index, direction=rng.choice(("up", "down"))))
        if not elements and self.episode.app_names:
            choices.append(Action("open_app", app_name=rng.choice(self.episode.app_names)))
        return rng.choice(choices)


class ReplayAgent(Agent):
    """Replays recorded trajectories: `replay:FILE.jsonl` (one episode) or `replay:DIR` (a run's
    output directory: each episode replays `DIR/trajectories/<instance_id>.jsonl`)."""

    name = "replay"
    wants_ui_elements = True  # the recorded indices refer to the screen: observe it as recorded

    def __init__(self, path: str):
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"replay: {path} does not exist (give a trajectory .jsonl or a run's output_dir)")

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        source = self.path / DIRECTORY / f"{episode.instance_id}.jsonl" if self.path.is_dir() else self.path
        self.actions = list(read_actions(source)) if source.exists() else []

    def step(self, observation: Observation) -> Action:
        if observation.step < len(self.actions):
            return self.actions[observation.step]
        return Action("status", goal_status="complete")
