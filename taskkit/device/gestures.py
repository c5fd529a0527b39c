"""The `input swipe` a scroll or swipe over a box is carried out as: one geometry for an agent's
actions (taskkit.actions) and for reference solutions that scroll (apps.bmoca_detect)."""
from __future__ import annotations

from taskkit.device.services.ui import BoundingBox

DIRECTIONS = ("up", "down", "left", "right")


def swipe_command(box: BoundingBox, direction: str, towards: bool = False) -> str:
    """A 300 ms swipe across the middle 60 % of `box`. A scroll (`towards` false) moves the content
    in `direction`, so the finger moves the other way; a swipe (`towards`) moves the finger in
    `direction`."""
    if direction not in DIRECTIONS:
        raise ValueError(f"swipe direction {direction!r}: use one of {', '.join(DIRECTIONS)}")
    left, right = box.x_min + box.width // 5, box.x_max - box.width // 5
    top, bottom = box.y_min + box.height // 5, box.y_max - box.height // 5
    cx, cy = box.center
    ends = {"up": ((cx, top), (cx, bottom)), "down": ((cx, bottom), (cx, top)),
            "left": ((left, cy), (right, cy)), "right": ((right, cy), (left, cy))}
    (x1, y1), (x2, y2) = ends[direction]
    if towards:
        (x1, y1), (x2, y2) = (x2, y2), (x1, y1)
    return f"input swipe {x1} {y1} {x2} {y2} 300"
