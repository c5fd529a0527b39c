"""The `input swipe` a scroll or swipe over a box is carried out as: one geometry for an agent's
actions (taskkit.actions), which the GUI reference plays too, and for reference solutions that
scroll (apps.bmoca_detect).

A scroll is AndroidWorld's (android_world/env/actuation.py at d9c569f, `scroll`): the finger goes
from the box's centre to its edge, over `input swipe`'s default 300 ms (AndroidWorld sends no
duration; AOSP InputShellCommand takes 300 ms then). A list flings on after it, as on a device
(taskkit.sim.gui.input.fling_distance): half the list's height and the fling move it 0.7 to 0.87
of its height at B-MoCA's densities (160-700 dpi), so a row at the list's far edge stays in view.
"""
from __future__ import annotations

from taskkit.device.services.ui import BoundingBox

DIRECTIONS = ("up", "down", "left", "right")
SCROLL_MS = 300  # `input swipe` without a duration (InputShellCommand.sendSwipe: duration < 0 -> 300)


def swipe_command(box: BoundingBox, direction: str, towards: bool = False) -> str:
    """The swipe of a scroll or swipe over `box`, in 300 ms.

    A scroll (`towards` false) moves the content in `direction`: the finger goes from the box's
    centre to the opposite edge, as AndroidWorld's scroll does. A swipe (`towards`) moves the finger
    in `direction` across the middle 60 % of the box (taskkit's own: AndroidWorld's swipe crosses the
    whole screen whatever the element)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"swipe direction {direction!r}: use one of {', '.join(DIRECTIONS)}")
    cx, cy = box.center
    if towards:
        left, right = box.x_min + box.width // 5, box.x_max - box.width // 5
        top, bottom = box.y_min + box.height // 5, box.y_max - box.height // 5
        ends = {"up": ((cx, bottom), (cx, top)), "down": ((cx, top), (cx, bottom)),
                "left": ((right, cy), (left, cy)), "right": ((left, cy), (right, cy))}
    else:
        ends = {"down": ((cx, cy), (cx, box.y_min)), "up": ((cx, cy), (cx, box.y_max)),
                "right": ((cx, cy), (box.x_min, cy)), "left": ((cx, cy), (box.x_max, cy))}
    (x1, y1), (x2, y2) = ends[direction]
    return f"input swipe {x1} {y1} {x2} {y2} {SCROLL_MS}"
