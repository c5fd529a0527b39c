"""Shared by the GUI tests: find elements in the dumped tree (by text, description or resource
id, never by a fixed coordinate), act on them, and a scripted GUI-only agent."""
from __future__ import annotations

from typing import Callable, Sequence

from taskkit.agents import Action, Agent, Observation
from taskkit.device.services.ui import UIElement

WIFI = "Wi\u2011Fi"
Match = Callable[[UIElement], bool]


def by(label: str) -> Match:
    """An element whose text or content description is `label`, or whose resource id ends in
    `:id/<label>`."""
    return lambda e: label in (e.text, e.content_description) or (e.resource_name or "").endswith(f":id/{label}")


def find(device, match: Match | str) -> UIElement:
    match = by(match) if isinstance(match, str) else match
    elements = device.ui.screen().elements
    found = [e for e in elements if match(e)]
    assert found, f"not on the screen: {[e.describe() for e in elements]}"
    return found[-1]


def tap(device, match: Match | str) -> None:
    x, y = find(device, match).bbox.center
    device.check(f"input tap {x} {y}")


def texts(device) -> list[str]:
    return [e.text for e in device.ui.screen().elements if e.text]


def labels(device) -> list[str]:
    return [e.describe() for e in device.ui.screen().elements]


# A script step: ("click", label) | ("type", label, text) | ("enter",) | ("back",) | ("done",)
Step = tuple


class GuiScript(Agent):
    """A GUI-only reference solution: each step acts on an element found by its label."""

    name = "gui-script"

    def __init__(self, steps: Sequence[Step]):
        self.steps = list(steps)

    def step(self, observation: Observation) -> Action:
        assert observation.last_action_error is None, observation.last_action_error
        if observation.step >= len(self.steps):
            return Action("status", goal_status="complete")
        kind, *rest = self.steps[observation.step]
        if kind == "enter":
            return Action("keyboard_enter")
        if kind == "back":
            return Action("navigate_back")
        if kind == "open":
            return Action("open_app", app_name=rest[0])
        match = by(rest[0])
        matches = [i for i, e in enumerate(observation.ui_elements) if match(e)]
        assert matches, f"{rest[0]!r} is not on the screen:\n{observation.describe_elements()}"
        if kind == "click":
            return Action("click", index=matches[-1])
        return Action("input_text", index=matches[-1], text=rest[1])
