"""`--agent gui_reference`: plays each task's GUI reference (taskkit/gui_reference.py) through
the ordinary agent boundary — it sees observations and returns AndroidWorld actions. Its one
privilege is the task's reference, built from the params; it reads nothing else of the task.

After each step, `instruction` holds a low-level instruction for the action it returned ("Tap
\"Save\"", "Type \"Coffee\" into \"Name\"", "Scroll down to find 'Food'"): the per-step text of
demonstration datasets (taskkit.demos), written from the element the action lands on."""
from __future__ import annotations

from typing import Callable, Sequence

from taskkit import registry
from taskkit.agents.base import Action, Agent, Episode, Observation
from taskkit.errors import TaskkitError
from taskkit.device.services.ui import BoundingBox, UIElement
from taskkit.gui_reference import Locator, Step, clear_point, localized, mistype

Variant = Callable[[Sequence[Step]], Sequence[Step] | None]


class NoGuiReference(TaskkitError, LookupError):
    """The task gives no GUI reference (`TaskEval.gui_reference` returns None)."""


class GuiReferenceAgent(Agent):
    """Follows the steps in order (their labels also in the device's locale: `gui_reference.localized`),
    scrolling the screen's list while a target is not shown;
    after the last step it declares the goal complete. A step it cannot take (its target never
    shows, the last action failed) ends the episode as infeasible, with `problem` saying why."""

    name = "gui_reference"
    wants_gui_reference = True
    wants_device_locale = True  # its English labels are also found as the device's locale shows them

    def __init__(self, variant: Variant | None = None, max_scrolls: int = 10):
        self.variant, self.max_scrolls = variant, max_scrolls
        self.problem: str | None = None
        self.instruction = ""  # the low-level instruction of the last action returned

    def reset(self, episode: Episode) -> None:
        super().reset(episode)
        if episode.gui_reference is None:
            raise NoGuiReference(f"{episode.task_name} has no GUI reference (define gui_reference())")
        steps = self.variant(episode.gui_reference) if self.variant else episode.gui_reference
        self.steps: list[Step] = localized(steps or (), episode.locale)
        self.at, self.scrolls, self.direction, self.seen = 0, 0, "down", ()
        self.memory, self.scrolled, self.looking = ListMemory(), None, False
        self.swipes = swipes_for(episode.task_name)
        self.problem = None
        self.instruction = ""

    def step(self, observation: Observation) -> Action:
        step = self.steps[self.at] if self.at < len(self.steps) else None  # the step this action is for
        action = self._next(observation)
        self.instruction = instruction(action, step, observation)
        return action

    def _next(self, observation: Observation) -> Action:
        self.memory.observe(observation, self.scrolled)
        action = self._choose(observation)
        lists = any(e.is_scrollable for e in observation.ui_elements)
        self.scrolled = self.direction if self.looking and lists else None
        return action

    def _choose(self, observation: Observation) -> Action:
        if observation.last_action_error is not None:
            return self._give_up(f"step {self.at}: {observation.last_action_error}")
        if self.at >= len(self.steps):
            return Action("status", goal_status="complete")
        self.looking = False
        try:
            action = self._action(self.steps[self.at], observation)
        except LookupError as error:
            return self._give_up(f"step {self.at + 1} {self.steps[self.at]}: {error}")
        if not self.looking:
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
        if step.action in ("tap", "long_press"):
            kind = "click" if step.action == "tap" else "long_press"
            box, point = elements[index].bbox, clear_point(elements, index)
            if box is None or point == box.center:
                return Action(kind, index=index)
            if point is None:  # wholly under a control drawn over it: bring it out
                return self._scroll(step, observation)
            return Action(kind, x=point[0], y=point[1])  # the part a control drawn over it leaves
        if step.action == "swipe":
            return Action("swipe", index=index, direction=step.direction)
        typed = mistype(step.text or "") if step.mistyped else step.text or ""
        return Action("input_text", index=index, text=typed, clear_text=step.clear or None)

    def _scroll(self, step: Step, observation: Observation) -> Action:
        """Scroll the screen's (last) scrollable list towards the target: down, then up from the end,
        with an agent's scroll (AndroidWorld's: its fling keeps a row at the list's edge in view);
        on a B-MoCA task, with B-MoCA's swipe, the gesture its step limits count (`swipes_for`).
        Where nothing scrolls, swipe up on the screen once, as a user looks for more (the home
        screen opens its app drawer: a config's icon layout may leave the app out of the home)."""
        lists = [i for i, e in enumerate(observation.ui_elements) if e.is_scrollable]
        if self.scrolls >= self.max_scrolls or (not lists and self.scrolls):
            raise LookupError(f"{step.target} is not on the screen:\n{observation.describe_elements()}")
        seen = tuple(e.text for e in observation.ui_elements)
        if not self.scrolls:  # where the list showed the target before (a user remembers), else down
            self.direction = self.memory.direction_to(step.target) or "down"
        elif seen == self.seen:  # the end of the list: look the other way
            self.direction = "up" if self.direction == "down" else "down"
        self.scrolls, self.seen, self.looking = self.scrolls + 1, seen, True
        if self.swipes:  # B-MoCA's stroke over the list: the finger the other way across its middle 60 %
            finger = {"down": "up", "up": "down"}[self.direction]
            return Action("swipe", direction=finger, index=lists[-1] if lists else None)
        return Action("scroll", direction=self.direction, index=lists[-1] if lists else None)


def swipes_for(task_name: str) -> bool:
    """Whether the task is one of B-MoCA's, whose agents look for a target with B-MoCA's `swipe`:
    a quick stroke across the middle 60 % (its environment's _SCROLL_MAP, 0.8 -> 0.2 of the screen;
    here of the list, taskkit's `swipe` on it, as a stroke from the app bar scrolls nothing), which
    its step limits count: AndroidWorld's scroll needs one more under bmoca-108 in
    BmocaAddLanguagePage's 7. A public tag of the task (`--list_tasks`), nothing of its solution."""
    entry = registry.peek(task_name)
    return entry is not None and "bmoca" in entry.tags


class ListMemory:
    """What the screen's scrolling list showed at each position the agent scrolled it to (counted
    in scrolls from where it was first seen), so a target scrolled past before is looked for in
    its direction. Forgotten when another list shows, or the list in view no longer shows what
    was seen at its position (an app that reset it)."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.position = 0
        self.shown: dict[int, tuple[tuple[str | None, ...], tuple[UIElement, ...]]] = {}

    def observe(self, observation: Observation, scrolled: str | None) -> None:
        """Take in the screen after an action (`scrolled`: the direction of a scroll of the list)."""
        elements = observation.ui_elements
        lists = [e for e in elements if e.is_scrollable and e.bbox is not None]
        if not lists:
            self.key, self.shown = None, {}
            return
        box = lists[-1].bbox
        rows = tuple(e.text for e in elements if e is not lists[-1] and e.bbox is not None and _inside(e.bbox, box))
        key = (observation.foreground, lists[-1].resource_name, box)
        before = self.shown.get(self.position, (None,))[0]
        if key != self.key:
            self.key, self.position, self.shown = key, 0, {}
        elif scrolled is not None:
            self.position += (1 if scrolled == "down" else -1) if rows != before else 0
        elif rows != before:
            self.position, self.shown = 0, {}
        self.shown[self.position] = (rows, elements)

    def direction_to(self, target: Locator) -> str | None:
        """The direction (down or up) of the nearest position where `target` showed; None if it never did."""
        seen = [p for p, (_, elements) in self.shown.items() if p != self.position and target.indices(elements)]
        if not seen:
            return None
        return "down" if min(seen, key=lambda p: abs(p - self.position)) > self.position else "up"


def _inside(inner: BoundingBox, outer: BoundingBox) -> bool:
    return (outer.x_min <= inner.x_min and inner.x_max <= outer.x_max
            and outer.y_min <= inner.y_min and inner.y_max <= outer.y_max)


_KEY_INSTRUCTIONS = {"keyboard_enter": "Press Enter", "navigate_back": "Go back",
                     "navigate_home": "Go to the home screen", "wait": "Wait for the screen to change"}


def instruction(action: Action, step: Step | None, observation: Observation) -> str:
    """A low-level instruction for `action`, taken for reference `step` on `observation`'s screen:
    the element it lands on named by its label (`UIElement.describe`), else by the step's target."""
    kind = action.action_type
    if kind in _KEY_INSTRUCTIONS:
        return _KEY_INSTRUCTIONS[kind]
    if kind == "status":
        return f"Declare the task {action.goal_status}"
    if kind == "open_app":
        return f"Open the {action.app_name} app"
    if kind == "answer":
        return f'Answer "{action.text}"'
    target = str(step.target) if step is not None and step.target is not None else "the target"
    if kind == "scroll" or kind == "swipe" and action.index is None:
        return f"{kind.capitalize()} {action.direction} to find {target}"
    elements = observation.ui_elements
    label = elements[action.index].describe() if action.index is not None and action.index < len(elements) else ""
    label = f'"{label}"' if label else target
    if kind == "input_text":
        return f'Replace the text of {label} with "{action.text}"' if action.clear_text else \
            f'Type "{action.text}" into {label}'
    verbs = {"click": "Tap", "long_press": "Long press", "swipe": f"Swipe {action.direction} on"}
    return f"{verbs.get(kind, kind)} {label}"
