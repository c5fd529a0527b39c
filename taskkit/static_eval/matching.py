"""Does a predicted action match the recorded one? Type match and action match (AndroidLens' TM
and AMS), on the screen the recorded action was taken on.

- click, double tap, long press: the predicted point (an element's centre, a pixel or a
  normalized point) falls inside the recorded target's box — the element the recorded index
  names, or the smallest element holding the recorded point;
- input_text: the text by AndroidWorld's fuzzy rule (90 % similar, case ignored), and a target,
  when the prediction names one, inside the recorded target's box;
- scroll and swipe: the same direction; keys (back, home, enter, recents) and wait: the type;
- open_app and answer: the app name or answer text by the fuzzy rule; status: the same goal status.

B-MoCA's dual gesture counts as the click (a tap) or the swipe (in the finger's direction) it is.
"""
from __future__ import annotations

import math
from typing import Sequence

from taskkit.actions import ActionError, gesture_point, touch_point
from taskkit.agents.base import Action
from taskkit.compat.android_world.utils.fuzzy_match_lib import fuzzy_match
from taskkit.device.services.ui import BoundingBox, UIElement

POINT_ACTIONS = ("click", "double_tap", "long_press")
Size = tuple[int, int]


def canonical(action: Action, size: Size) -> Action:
    """A dual gesture as the click or swipe it performs; any other action as it is."""
    if action.action_type != "dual_gesture":
        return action
    assert action.touch is not None and action.lift is not None
    x, y = gesture_point(action.touch, size)
    if action.is_tap_gesture:
        return Action("click", x=x, y=y)
    dx, dy = action.lift[0] - action.touch[0], action.lift[1] - action.touch[1]
    direction = ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else ("down" if dy > 0 else "up")
    return Action("swipe", x=x, y=y, direction=direction)


def type_match(predicted: Action, recorded: Action, size: Size) -> bool:
    return canonical(predicted, size).action_type == recorded.action_type


def _box(action: Action, elements: Sequence[UIElement]) -> BoundingBox | None:
    """The recorded target's box: its element's, or the smallest element holding its point."""
    if action.index is not None:
        return elements[action.index].bbox if 0 <= action.index < len(elements) else None
    if action.x is None or action.y is None:
        return None
    holding = [e.bbox for e in elements if e.bbox is not None and _inside((action.x, action.y), e.bbox)]
    return min(holding, key=lambda box: box.width * box.height, default=None)


def _inside(point: tuple[int, int], box: BoundingBox) -> bool:
    return box.x_min <= point[0] <= box.x_max and box.y_min <= point[1] <= box.y_max


def _lands(predicted: Action, recorded: Action, elements: Sequence[UIElement], size: Size) -> bool:
    """Whether the predicted action touches the recorded target."""
    if predicted.index is not None and predicted.index == recorded.index:
        return True
    try:
        point = touch_point(predicted, elements, size)
    except (ActionError, ValueError):
        return False
    box = _box(recorded, elements)
    if box is not None:
        return _inside(point, box)
    return recorded.x is not None and recorded.y is not None and math.dist(point, (recorded.x, recorded.y)) < 1


def action_match(predicted: Action, recorded: Action, elements: Sequence[UIElement], size: Size) -> bool:
    """Whether `predicted` does what `recorded` did on this screen (see the module doc)."""
    predicted = canonical(predicted, size)
    kind = recorded.action_type
    if predicted.action_type != kind:
        return False
    if kind in POINT_ACTIONS:
        return _lands(predicted, recorded, elements, size)
    if kind == "input_text":
        names_target = predicted.index is not None or predicted.x is not None
        return (fuzzy_match(predicted.text or "", recorded.text or "")
                and (not names_target or _lands(predicted, recorded, elements, size)))
    if kind in ("scroll", "swipe"):
        return predicted.direction == recorded.direction
    if kind == "open_app":
        return fuzzy_match(predicted.app_name or "", recorded.app_name or "")
    if kind == "answer":
        return fuzzy_match(predicted.text or "", recorded.text or "")
    if kind == "status":
        return predicted.goal_status == recorded.goal_status
    return kind != "unknown"  # keys and wait: the type is the action
