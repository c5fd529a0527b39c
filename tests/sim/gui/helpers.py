"""Shared by the GUI tests: find elements in the dumped tree (by text, description or resource
id, never by a fixed coordinate), act on them, and a scripted GUI-only agent."""
from __future__ import annotations

from typing import Callable, Sequence

from taskkit.agents import Action, Agent, Observation
from taskkit.device.services.ui import UIElement
from taskkit.gui_reference import Locator

WIFI = "Wi\u2011Fi"
Match = Callable[[UIElement], bool]


def by(label: str) -> Match:
    """An element whose text or content description is `label`, or whose resource id ends in
    `:id/<label>`."""
    return lambda e: label in (e.text, e.content_description) or (e.resource_name or "").endswith(f":id/{label}")


def find(device, match: Match | str | Locator) -> UIElement:
    elements = device.ui.screen().elements
    if isinstance(match, Locator):
        found = [elements[i] for i in match.indices(elements)]
    else:
        match = by(match) if isinstance(match, str) else match
        found = [e for e in elements if match(e)]
    assert found, f"not on the screen: {[e.describe() for e in elements]}"
    return found[-1]


def tap(device, match: Match | str | Locator) -> None:
    x, y = find(device, match).bbox.center
    device.check(f"input tap {x} {y}")


def texts(device) -> list[str]:
    return [e.text for e in device.ui.screen().elements if e.text]


def labels(device) -> list[str]:
    return [e.describe() for e in device.ui.screen().elements]


# A script step: ("click", label) | ("long", label) | ("type", label, text) | ("retype", label,
# text) (clear the field first) | ("swipe", label, direction) | ("enter",) |
# ("back",) | ("open", app name) | ("answer", read) where read(elements) -> the answer text.
# A label not on the screen is looked for by scrolling the screen's scrollable list down (then up,
# from its end).
Step = tuple


class GuiScript(Agent):
    """A GUI-only reference solution: each step acts on an element found by its label."""

    name = "gui-script"

    def __init__(self, steps: Sequence[Step], max_scrolls: int = 10):
        self.steps = list(steps)
        self.max_scrolls = max_scrolls

    def reset(self, episode) -> None:
        self.at, self.scrolls, self.direction, self.seen = 0, 0, "down", ()

    def step(self, observation: Observation) -> Action:
        assert observation.last_action_error is None, observation.last_action_error
        if self.at >= len(self.steps):
            return Action("status", goal_status="complete")
        kind, *rest = self.steps[self.at]
        action = self._action(kind, rest, observation)
        if action.action_type != "scroll":
            self.at, self.scrolls, self.direction = self.at + 1, 0, "down"
        return action

    def _action(self, kind: str, rest: list, observation: Observation) -> Action:
        simple = {"enter": Action("keyboard_enter"), "back": Action("navigate_back")}
        if kind in simple:
            return simple[kind]
        if kind == "open":
            return Action("open_app", app_name=rest[0])
        if kind == "answer":
            return Action("answer", text=rest[0](observation.ui_elements))
        if isinstance(rest[0], InRowOf):
            matches = rest[0].indices(observation.ui_elements)
        else:
            match = rest[0] if callable(rest[0]) else by(rest[0])
            matches = [i for i, e in enumerate(observation.ui_elements) if match(e)]
        if not matches:
            lists = [i for i, e in enumerate(observation.ui_elements) if e.is_scrollable]
            assert lists and self.scrolls < self.max_scrolls, \
                f"{rest[0]!r} is not on the screen:\n{observation.describe_elements()}"
            seen = tuple(e.text for e in observation.ui_elements)
            if self.scrolls and seen == self.seen:  # the end of the list: look the other way
                self.direction = "up" if self.direction == "down" else "down"
            self.scrolls, self.seen = self.scrolls + 1, seen
            return Action("scroll", direction=self.direction, index=lists[-1])
        if kind == "click":
            return Action("click", index=matches[-1])
        if kind == "long":
            return Action("long_press", index=matches[-1])
        if kind == "swipe":
            return Action("swipe", index=matches[-1], direction=rest[1])
        return Action("input_text", index=matches[-1], text=rest[1], clear_text=kind == "retype" or None)


class InRowOf:
    """A step's target: the element labelled `label` in the list row of the element labelled
    `row` (a row's own menu button, where every row has one)."""

    def __init__(self, row: str, label: str):
        self.row, self.label = by(row), by(label)

    def indices(self, elements: Sequence[UIElement]) -> list[int]:
        rows = [e.bbox.center[1] for e in elements if self.row(e)]
        return [i for i, e in enumerate(elements)
                if self.label(e) and any(e.bbox.y_min <= y <= e.bbox.y_max for y in rows)]

    def __repr__(self) -> str:
        return "InRowOf(...)"


def value_of(rid: str) -> Callable[[Sequence[UIElement]], str]:
    """Read the text of the element whose resource id ends in `:id/<rid>` (an answer step)."""
    def read(elements: Sequence[UIElement]) -> str:
        found = [e.text for e in elements if (e.resource_name or "").endswith(f":id/{rid}")]
        assert found, f"no {rid} on the screen"
        return found[-1] or ""
    return read
