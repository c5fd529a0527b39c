"""The agent interface: observe → act, within a step budget.

An agent sees an `Observation` — the goal, the numbered UI elements of the screen (AndroidWorld's
element fields), optionally a screenshot — and returns an `Action` in AndroidWorld's action
space, by element index or by coordinates. `Episode` is what an agent learns when an episode
starts. Nothing an agent receives leads to the task: the reference solution is run by the
runner's `oracle` mode, never handed to an agent.
"""
from __future__ import annotations

import abc
import dataclasses
import functools
import math
import re
from typing import Any, ClassVar

from taskkit.device.gestures import DIRECTIONS
from taskkit.device.services.ui import UIElement
from taskkit.errors import TaskkitError

ACTION_TYPES = (
    "click", "double_tap", "long_press", "input_text", "keyboard_enter", "scroll", "swipe",
    "navigate_home", "navigate_back", "open_app", "answer", "status", "wait", "unknown",
    # beyond AndroidWorld's space: B-MoCA's dual gesture and its OVERVIEW key; AndroidLens'
    # PressMenu (its supplement's Table 4: "Press the system button Menu")
    "dual_gesture", "navigate_recents", "navigate_menu",
)
NORMALIZED_SCALE = 1000  # `normalized` coordinates run 0..1000 on each axis (AndroidLens' agents)
TAP_DISTANCE = 0.14  # B-MoCA: a dual gesture whose touch and lift are closer than this is a tap
_TEXT_ACTIONS = (  # B-MoCA's text actions: tap(n), swipe(direction), press(key)
    (re.compile(r"tap\(\s*(\d+)\s*\)"), lambda m: {"action_type": "click", "index": int(m.group(1))}),
    (re.compile(r"swipe\(\s*[\"']?(up|down|left|right)[\"']?\s*\)", re.I),
     lambda m: {"action_type": "swipe", "direction": m.group(1).lower()}),
    (re.compile(r"press\(\s*[\"']?(home|back|overview)[\"']?\s*\)", re.I),
     lambda m: {"action_type": {"home": "navigate_home", "back": "navigate_back",
                                "overview": "navigate_recents"}[m.group(1).lower()]}),
)
STATUSES = ("complete", "infeasible")


@dataclasses.dataclass(frozen=True)
class Action:
    """One agent action; the fields used depend on `action_type` (AndroidWorld's JSONAction).

    `click`, `double_tap`, `long_press`, `input_text` and `scroll` take an element `index`
    (resolved against the elements of the last observation) or `x`/`y` coordinates — pixels, or
    with `normalized` 0..1000 on each axis, turned into the device's pixels at its real size;
    `input_text` with `clear_text` first selects the field's text and deletes it (AndroidWorld's
    `clear_text`: Ctrl+A, then DEL). `dual_gesture` is B-MoCA's: `touch` and `lift` points in
    [-1, 1] (x, y), a tap at `touch` when they are closer than 0.14, otherwise a swipe.
    """

    action_type: str
    x: int | None = None
    y: int | None = None
    index: int | None = None
    text: str | None = None
    direction: str | None = None
    app_name: str | None = None
    goal_status: str | None = None
    clear_text: bool | None = None
    normalized: bool | None = None
    touch: tuple[float, float] | None = None
    lift: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        for name in ("touch", "lift"):
            point = getattr(self, name)
            if point is not None:
                if (not isinstance(point, (list, tuple)) or len(point) != 2
                        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and -1 <= v <= 1 for v in point)):
                    raise ValueError(f"{name} must be two numbers in [-1, 1], got {point!r}")
                object.__setattr__(self, name, (float(point[0]), float(point[1])))
        if self.action_type == "dual_gesture" and (self.touch is None or self.lift is None):
            raise ValueError("dual_gesture needs touch and lift points")
        if self.normalized and any(v is not None and not 0 <= v <= NORMALIZED_SCALE for v in (self.x, self.y)):
            raise ValueError(f"normalized coordinates run from 0 to {NORMALIZED_SCALE}, got x={self.x} y={self.y}")
        if self.action_type not in ACTION_TYPES:
            raise ValueError(f"unknown action_type {self.action_type!r}; expected one of {', '.join(ACTION_TYPES)}")
        if self.action_type == "status" and self.goal_status not in STATUSES:
            raise ValueError(f"status needs goal_status 'complete' or 'infeasible', got {self.goal_status!r}")
        if self.text is not None and "\x00" in self.text:
            raise ValueError("text holds a NUL character, which no Android input can carry")
        if self.action_type in ("scroll", "swipe") and self.direction not in DIRECTIONS:
            raise ValueError(f"{self.action_type} needs a direction in {DIRECTIONS}, got {self.direction!r}")
        if self.clear_text is not None and not isinstance(self.clear_text, bool):
            raise ValueError(f"clear_text must be true or false, got {self.clear_text!r}")
        for name in ("x", "y", "index"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{name} must be an integer, got {value!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Action":
        """Parse AndroidWorld's JSON action form, e.g. {"action_type": "click", "index": 3}."""
        if not isinstance(data, dict):
            raise ValueError(f"an action is a JSON object, got {type(data).__name__}")
        unknown = data.keys() - _fields(cls)
        if unknown:
            raise ValueError(f"unknown action field(s) {sorted(unknown)}")
        if "action_type" not in data:
            raise ValueError("an action needs action_type")
        return cls(**data)

    @classmethod
    def from_text(cls, text: str) -> "Action":
        """B-MoCA's text actions — `tap(3)`, `swipe(up)`, `press(HOME|BACK|OVERVIEW)` — the last
        one in `text`; ValueError when it holds none."""
        found = [(match.start(), build(match)) for pattern, build in _TEXT_ACTIONS for match in pattern.finditer(text or "")]
        if not found:
            raise ValueError("no tap(n), swipe(direction) or press(key) action in the text")
        return cls.from_dict(max(found, key=lambda item: item[0])[1])

    @property
    def is_tap_gesture(self) -> bool:
        """A dual gesture whose touch and lift are closer than B-MoCA's tap distance."""
        assert self.touch is not None and self.lift is not None
        return math.dist(self.touch, self.lift) < TAP_DISTANCE

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`from_dict`'s), the unset fields left out and the points as lists. Fields
        of plain values are read directly (`dataclasses.asdict` deep-copies through a recursion,
        most of a trajectory line's cost); any other value goes through it, copied as before."""
        values = {name: getattr(self, name) for name in _field_names(type(self))}
        if not all(_is_plain(value) for value in values.values()):
            values = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items() if v is not None}

    @property
    def ends_episode(self) -> bool:
        return self.action_type == "status"


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The field names of a dataclass in order (read once: `dataclasses.fields` builds them each call)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _fields(cls: type) -> frozenset[str]:
    """The field names of a dataclass, as a set."""
    return frozenset(_field_names(cls))


_ATOMS = (str, int, float, type(None))  # (bool is an int)


def _is_plain(value: Any) -> bool:
    """An immutable value that `dataclasses.asdict` would give back equal: text, a number, None,
    or a tuple of those."""
    return isinstance(value, _ATOMS) or (type(value) is tuple and all(isinstance(v, _ATOMS) for v in value))


@dataclasses.dataclass(frozen=True)
class Episode:
    """What the agent is told when an episode starts (plain data: nothing leads to the task)."""

    goal: str
    max_steps: int
    app_names: tuple[str, ...]
    task_name: str
    instance_id: str
    seed: int  # the instance seed: an agent that draws random choices seeds them from it
    #: The task's GUI reference (taskkit.gui_reference steps), given only to an agent whose class
    #: sets `wants_gui_reference` (`gui_reference`); None otherwise or when the task has none.
    gui_reference: tuple[Any, ...] | None = None
    #: The device's locale (`getprop persist.sys.locale`, read once per episode), given only to an
    #: agent whose class sets `wants_device_locale`; None otherwise or when the device has none.
    locale: str | None = None


@dataclasses.dataclass(frozen=True)
class Observation:
    """What the agent sees before each step.

    `ui_elements` are numbered by their position (index 0 first), as AndroidWorld numbers them;
    an action's `index` refers to this list. `screenshot` is PNG bytes, present only for agents
    whose class sets `wants_screenshot`. `screen_error` says why the screen could not be read
    (a device without `uiautomator`), never hidden behind an empty list.
    """

    goal: str
    step: int
    max_steps: int
    foreground: str | None
    ui_elements: tuple[UIElement, ...] = ()
    screenshot: bytes | None = None
    last_action_error: str | None = None
    screen_error: str | None = None
    screen_size: tuple[int, int] | None = None  # the display's (width, height) in pixels
    #: `--instructions low`: this step's low-level instruction ("Tap \"Save\""), from the task's
    #: GUI reference played on the same instance (AndroidControl/AndroidLens' low level); None
    #: at the high level, or past the reference's steps.
    instruction: str | None = None

    def describe_elements(self) -> str:
        """One line per element, `index: label (class, flags)`: the T3A-style text view."""
        lines = []
        for index, element in enumerate(self.ui_elements):
            flags = [name[3:] for name in ("is_clickable", "is_editable", "is_checked", "is_scrollable",
                                           "is_focused") if getattr(element, name)]
            kind = (element.class_name or "").rsplit(".", 1)[-1]
            lines.append(f"{index}: {element.describe()!r} ({kind}{', ' if flags else ''}{', '.join(flags)})")
        return "\n".join(lines)


class StopRun(TaskkitError):
    """Raised by an agent for a failure no episode score can stand for: the runner tears the
    episode down, records no row for it and ends the run (the same command resumes it)."""


class AgentUnavailable(StopRun, RuntimeError):
    """A service the agent needs (a model endpoint) did not answer after the agent's own
    retries: an infrastructure failure (exit 3), not the agent's mistake."""


class ReplayMismatch(StopRun, ValueError):
    """`--strict_replay`: the recorded trajectory does not fit this run (a missing file, a
    screen that differs from the recorded one): bad input (exit 2)."""


class Agent(abc.ABC):
    """Implement `step`; override `reset` to prepare for a new goal.

    Class attributes say what the runner must fetch each step: `wants_ui_elements` (the dump,
    default on) and `wants_screenshot` (the expensive part, default off).
    """

    name = "agent"
    wants_ui_elements: ClassVar[bool] = True
    wants_screenshot: ClassVar[bool] = False
    wants_gui_reference: ClassVar[bool] = False
    wants_device_locale: ClassVar[bool] = False

    def reset(self, episode: Episode) -> None:
        self.episode = episode

    @abc.abstractmethod
    def step(self, observation: Observation) -> Action:
        """Return the next action."""

    def usage(self) -> dict[str, Any]:
        """What the last step cost the agent (tokens, retries...), recorded in the trajectory."""
        return {}
