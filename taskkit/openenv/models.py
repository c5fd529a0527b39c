"""The typed messages of taskkit's OpenEnv environment: an action, an observation, the state.

An action is AndroidWorld's JSON action (the fields of `taskkit.agents.base.Action`), or the
agent's reply as text in `raw`, read as `taskkit/Task-v0` reads its action string (text that is
no valid action costs the step and comes back as `last_action_error`). An observation is what
the Gymnasium environment observes, its reward and end, and at the end the episode's score.
"""
from __future__ import annotations

import json
from typing import Any

from taskkit.errors import TaskkitError
from taskkit.openenv import INSTALL

try:
    from openenv.core.env_server.types import Action, Observation, State
    from pydantic import Field, model_validator
except ImportError:  # pragma: no cover - the optional extra
    raise ImportError(f"taskkit.openenv needs openenv-core: {INSTALL}") from None

#: The fields of the typed action that are not AndroidWorld's (what the step sends back).
OWN_FIELDS = ("raw", "screenshot", "metadata")


class TaskkitAction(Action):
    """One step: AndroidWorld's JSON action as fields (`action_type` and the fields it uses), or
    `raw` text; `screenshot` asks for the screen (a PNG) in this step's observation."""

    action_type: str | None = Field(default=None, description="click, input_text, scroll, open_app, status, ...")
    index: int | None = Field(default=None, description="an element of the last observation's `elements`")
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    app_name: str | None = None
    goal_status: str | None = None
    clear_text: bool | None = None
    normalized: bool | None = None
    touch: tuple[float, float] | None = None
    lift: tuple[float, float] | None = None
    raw: str | None = Field(default=None, description="the agent's reply as text, in place of the fields")
    screenshot: bool = Field(default=False, description="return the screen as a base64 PNG")

    @model_validator(mode="after")
    def _one_form(self) -> "TaskkitAction":
        if (self.raw is None) == (self.action_type is None):
            raise ValueError("give either action_type (with its fields) or raw, not both or neither")
        return self

    def as_text(self) -> str:
        """The action as `taskkit/Task-v0` takes it: `raw` as it is, else the fields as JSON."""
        if self.raw is not None:
            return self.raw
        fields = self.model_dump(exclude=set(OWN_FIELDS), exclude_none=True)
        return json.dumps(fields, ensure_ascii=False)

    @classmethod
    def of(cls, action: str | dict[str, Any], screenshot: bool = False) -> "TaskkitAction":
        """An action from AndroidWorld's JSON as a dict (its fields) or as text (`raw`)."""
        if isinstance(action, str):
            return cls(raw=action, screenshot=screenshot)
        if not isinstance(action, dict):
            raise TaskkitError(f"an action is AndroidWorld's JSON as a dict or text, got {type(action).__name__}")
        return cls(**action, screenshot=screenshot)


class TaskkitObservation(Observation):
    """What `taskkit/Task-v0` observes after a reset or step (its `reward` and `done` too)."""

    goal: str = ""
    elements: str = Field(default="", description="the numbered elements (T3A's text view); `index` refers to it")
    foreground: str = ""
    last_action_error: str = ""
    screenshot: str | None = Field(default=None, description="the screen as a base64 PNG, when asked for")
    task: str = ""
    instance_id: str | None = None
    step: int = 0
    max_steps: int = 0
    terminated: bool = Field(default=False, description="the agent declared a status, or the check passed")
    truncated: bool = Field(default=False, description="the step budget is spent")
    score: float | None = Field(default=None, description="the task's score, at the end")
    progress: float | None = Field(default=None, description="the milestone progress, at the end")


class TaskkitState(State):
    """The session's episode: its task, instance and seed (`episode_id` and `step_count` too)."""

    task: str | None = None
    instance_id: str | None = None
    seed: int | None = None
    max_steps: int = 0
    done: bool = False
