"""The built-in agents that need no model: `oracle`, `noop`, `random`, `replay:PATH`, and
`taskkit.agents.builtin:RandomPolicyAgent` (the throughput benchmark's policy).

`oracle` is not an agent that is handed anything: it marks the runner's privileged mode, in
which the runner itself runs the task's reference solution (a maintainer's check that tasks are
solvable), recorded as `agent: "oracle"` in every result row.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable, Sequence

from taskkit.agents.base import Action, Agent, Episode, Observation, ReplayMismatch
from taskkit.agents.policy_mix import WORDS, mixed_step
from taskkit.agents.recorded import DIRECTORY, RecordedStep, read_steps, screen_digest


class OracleAgent(Agent):
    """The runner's oracle mode (see the module doc); it never takes a step itself."""

    name = "oracle"
    wants_ui_elements = False

    def step(self, observation: Observation) -> Action:
        raise RuntimeError("the oracle is a run mode of the runner, not an agent that takes steps")


class NoopAgent(Agent):
    """Declares the goal complete without touching the device: every task scores 0 but those
    that start solved (`starts_solved`: AndroidWorld's *Verify tasks), which score 1.0 by design."""

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
                choices.append(Action("input_text", index=index, text=rng.choice(WORDS)))
            if element.is_scrollable:
                choices.append(Action("scroll", index=index, direction=rng.choice(("up", "down"))))
        if not elements and self.episode.app_names:
            choices.append(Action("open_app", app_name=rng.choice(self.episode.app_names)))
        return rng.choice(choices)


def mixed_action(rng: random.Random, count: int, editable: Sequence[int], scrollable: Sequence[int],
                 app_names: Sequence[str]) -> Action:
    """One step of the random policy (taskkit.agents.policy_mix: its kinds drawn by POLICY_MIX,
    a kind the screen cannot take falling back) as an Action."""
    return Action.from_dict(mixed_step(rng, count, editable, scrollable, app_names))


class RandomPolicyAgent(Agent):
    """A seeded random policy with the mix of a real agent's steps (POLICY_MIX): unlike `random`,
    whose choices follow the screen's affordances, it measures what typical steps cost
    (benchmarks/random_policy.py; `--agent random_policy`)."""

    name = "random_policy"

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        self.rng = random.Random(episode.seed)

    def step(self, observation: Observation) -> Action:
        elements = observation.ui_elements
        return mixed_action(self.rng, len(elements), [i for i, e in enumerate(elements) if e.is_editable],
                            [i for i, e in enumerate(elements) if e.is_scrollable], self.episode.app_names)


class ReplayAgent(Agent):
    """Replays recorded trajectories: `replay:FILE.jsonl` (one episode) or `replay:DIR` (a run's
    output directory: each episode replays `DIR/trajectories/<instance_id>.jsonl`).

    A recorded index means what it meant only on the recorded screen, so each step compares the
    screen's element digest with the recorded one. A missing trajectory or the first screen of an
    episode that differs is one warning line on stderr (the episode goes on: a missing one declares
    complete at once); with `strict` either raises `ReplayMismatch` and the run stops.
    """

    name = "replay"
    wants_ui_elements = True  # the recorded indices refer to the screen: observe it as recorded

    def __init__(self, path: str, strict: bool = False, warn: Callable[[str], None] | None = None):
        self.path, self.strict = Path(path), strict
        self._warn = warn or (lambda line: print(f"warning: {line}", file=sys.stderr, flush=True))
        if not self.path.exists():
            raise FileNotFoundError(f"replay: {path} does not exist (give a trajectory .jsonl or a run's output_dir)")

    def source(self, instance_id: str) -> Path:
        """The trajectory that episode `instance_id` replays."""
        return self.path / DIRECTORY / f"{instance_id}.jsonl" if self.path.is_dir() else self.path

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        source = self.source(episode.instance_id)
        self.steps: list[RecordedStep] = []
        self._diverged = False
        if source.exists():
            self.steps = list(read_steps(source))
        else:
            self._mismatch(f"no trajectory {source}: the episode declares complete at once")

    def step(self, observation: Observation) -> Action:
        if observation.step >= len(self.steps):
            return Action("status", goal_status="complete")
        recorded = self.steps[observation.step]
        seen = screen_digest(observation.ui_elements)
        if recorded.elements_digest not in (None, seen) and not self._diverged:
            self._diverged = True
            self._mismatch(f"step {observation.step}: the screen differs from the recorded one (elements digest "
                           f"{seen}, recorded {recorded.elements_digest}): another seed, task or device config? "
                           "The recorded actions may not mean what they meant")
        return recorded.action

    def _mismatch(self, problem: str) -> None:
        line = f"--agent replay: {self.episode.instance_id}: {problem}"
        if self.strict:
            raise ReplayMismatch(f"{line} (--strict_replay)")
        self._warn(line)
