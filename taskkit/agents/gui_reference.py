"""`--agent gui_reference`: plays each task's GUI reference (taskkit/gui_reference.py) through
the ordinary agent boundary — it sees observations and returns AndroidWorld actions. Its one
privilege is the task's reference, built from the params; it reads nothing else of the task."""
from __future__ import annotations

from typing import Callable, Sequence

from taskkit.agents.base import Action, Agent, Episode, Observation
from taskkit.errors import TaskkitError
from taskkit.gui_reference import Step, mistype

Variant = Callable[[Sequence[Step]], Sequence[Step] | None]


class NoGuiReference(TaskkitError, LookupError):
    """The task gives no GUI reference (`TaskEval.gui_reference` returns None)."""


class GuiReferenceAgent(Agent):
    """Follows the steps in order, scrolling the screen's list while a target is not shown;
    after the last step it declares the goal complete. A step it cannot take (its target never
    shows, the last action failed) ends the episode as infeasible, with `problem` saying why."""

    name = "gui_reference"
    wants_gui_reference = True

    def __init__(self, variant: Variant | None = None, max_scrolls: int = 10):
        self.variant, self.max_scrolls = variant, max_scrolls
        self.problem: str | None = None

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        if episode.gui_reference is None:
            raise NoGuiReference(f"{episode.task_name} has no GUI reference (define gui_reference())")
        steps = self.variant(episode.gui_reference) if self.variant else episode.gui_reference
        self.steps: list[Step] = list(steps or ())
        self.at, self.scrolls, self.direction, self.seen = 0, 0, "down", ()
        self.problem = None

    def step(self, observation: Observation) -> Action:
        if observation.last_action_error is not None:
            return self._give_up(f"step {self.at}: {observation.last_action_error}")
        if self.at >= len(self.steps):
            return Action("status", goal_status="complete")
        try:
            action = self._action(self.steps[self.at], observation)
        except LookupError as error:
            return self._give_up(f"step {self.at + 1} {self.steps[self.at]}: {error}")
        if action.action_type != "scroll":
            self.at, self.scrolls, self.direction = self.at + 1, 0, "down"
        return action

    def _give_up(self, problem: str) -> Action:
        self.problem = problem
        return Action("status", goal_status="infeasible")

    def _action(self, step: Step, observation: Observation) -> Action:
        simple = {"enter": "keyboard_enter", "back": "navigate_back", "home": "navigate_home", "wait": "wait"}
        if step.action in simple:
            return Action(simple[step.action])
        if step.action == "open_app":
            return Action("open_app", app_name=step.text)
        elements = observation.ui_elements
        if step.action == "answer":
            value = step.reader(elements) if step.reader is not None else step.text or ""
            return Action("answer", text=mistype(value) if step.mistyped else value)
        assert step.target is not None
        found = step.target.indices(elements)
        if not found:
            return self._scroll(step, observation)
        index = found[-1]
        if step.action == "tap" and step.at is not None:
            box = elements[index].bbox
            if box is None:
                raise LookupError(f"{step.target} has no bounds to tap inside")
            return Action("click", x=round(box.x_min + step.at[0] * (box.x_max - box.x_min - 1)),
                          y=round(box.y_min + step.at[1] * (box.y_max - box.y_min - 1)))
        if step.action == "tap":
            return Action("click", index=index)
        if step.action == "long_press":
            return Action("long_press", index=index)
        if step.action == "swipe":
            return Action("swipe", index=index, direction=step.direction)
        typed = mistype(step.text or "") if step.mistyped else step.text or ""
        return Action("input_text", index=index, text=typed, clear_text=step.clear or None)

    def _scroll(self, step: Step, observation: Observation) -> Action:
        """Scroll the screen's (last) scrollable list towards the target: down, then up from the end."""
        lists = [i for i, e in enumerate(observation.ui_elements) if e.is_scrollable]
        if not lists or self.scrolls >= self.max_scrolls:
            raise LookupError(f"{step.target} is not on the screen:\n{observation.describe_elements()}")
        seen = tuple(e.text for e in observation.ui_elements)
        if self.scrolls and seen == self.seen:  # the end of the list: look the other way
            self.direction = "up" if self.direction == "down" else "down"
        self.scrolls, self.seen = self.scrolls + 1, seen
        return Action("scroll", direction=self.direction, index=lists[-1])
