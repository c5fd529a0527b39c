"""The agent interface: observe → act, within a step budget.

An agent sees an `Observation` and returns an `Action` in AndroidWorld's action space, so an
LLM agent written for AndroidWorld fits without changes to the runner. `Episode` is what an
agent learns at the start of an episode; `solve` is a privileged handle only the oracle uses.
"""
from __future__ import annotations

import abc
import dataclasses
from typing import Any, Callable

ACTION_TYPES = (
    "click", "double_tap", "long_press", "input_text", "keyboard_enter", "scroll", "swipe",
    "navigate_home", "navigate_back", "open_app", "answer", "status", "wait", "unknown",
)
DIRECTIONS = ("up", "down", "left", "right")
STATUSES = ("complete", "infeasible")


@dataclasses.dataclass(frozen=True)
class Action:
    """One agent action; the fields used depend on `action_type` (AndroidWorld's JSONAction)."""

    action_type: str
    x: int | None = None
    y: int | None = None
    index: int | None = None
    text: str | None = None
    direction: str | None = None
    app_name: str | None = None
    goal_status: str | None = None

    def __post_init__(self) -> None:
        if self.action_type not in ACTION_TYPES:
            raise ValueError(f"unknown action_type {self.action_type!r}; expected one of {', '.join(ACTION_TYPES)}")
        if self.action_type == "status" and self.goal_status not in STATUSES:
            raise ValueError(f"status needs goal_status 'complete' or 'infeasible', got {self.goal_status!r}")
        if self.text is not None and "\x00" in self.text:
            raise ValueError("text holds a NUL character, which no Android input can carry")
        if self.action_type in ("scroll", "swipe") and self.direction not in DIRECTIONS:
            raise ValueError(f"{self.action_type} needs a direction in {DIRECTIONS}, got {self.direction!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Action":
        """Parse AndroidWorld's JSON action form, e.g. {"action_type": "click", "x": 10, "y": 20}."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise ValueError(f"unknown action field(s) {sorted(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}

    @property
    def ends_episode(self) -> bool:
        return self.action_type == "status"


@dataclasses.dataclass(frozen=True)
class Episode:
    """What the agent is told when an episode starts."""

    goal: str
    max_steps: int
    app_names: tuple[str, ...]
    task_name: str
    solve: Callable[[], None]  # the task's reference solution; only the oracle may use it


@dataclasses.dataclass(frozen=True)
class Observation:
    """What the agent sees before each step."""

    goal: str
    step: int
    max_steps: int
    foreground: str | None
    screen: dict[str, Any] | None = None  # UI tree / screenshot, when the device provides one
    last_action_error: str | None = None


class Agent(abc.ABC):
    """Implement `step`; override `reset` to prepare for a new goal."""

    name = "agent"

    def reset(self, episode: Episode) -> None:
        self.episode = episode

    @abc.abstractmethod
    def step(self, observation: Observation) -> Action:
        """Return the next action."""
