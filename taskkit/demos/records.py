"""One recorded step as an agent saw it, and its action in the dataset's three forms.

A trajectory line (taskkit.trajectory) keeps the elements as plain data and the screenshot as a
PNG file; this module turns them back into the `Observation` the agent was given, and writes an
action as AndroidWorld's JSON, in screen pixels and in 0–1000 normalized coordinates.
"""
from __future__ import annotations

import dataclasses
import struct
from pathlib import Path
from typing import Any, Sequence

from taskkit import registry
from taskkit.actions import touch_point
from taskkit.agents.base import NORMALIZED_SCALE, Action, Episode, Observation
from taskkit.device.services.ui import BoundingBox, UIElement

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FIELDS = {field.name for field in dataclasses.fields(UIElement)}


def element_from_dict(data: dict[str, Any]) -> UIElement:
    """The element `UIElement.as_dict()` wrote (its bbox as [x1, y1, x2, y2])."""
    fields = {key: value for key, value in data.items() if key in _FIELDS}
    box = fields.pop("bbox", None)
    return UIElement(**fields, bbox=None if box is None else BoundingBox(*box))


def png_size(path: str | Path) -> tuple[int, int]:
    """(width, height) of a PNG, read from its header: the screen's size when it was taken."""
    with open(path, "rb") as handle:
        head = handle.read(24)
    if len(head) < 24 or not head.startswith(_PNG_SIGNATURE) or head[12:16] != b"IHDR":
        raise ValueError(f"{path}: not a PNG file")
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def observation(record: dict[str, Any], goal: str, max_steps: int, last_action_error: str | None = None,
                screenshot: bytes | None = None, instruction: str | None = None) -> Observation:
    """What the agent saw at a recorded step (`record`: a dataset step or a trajectory line with
    `screen_size`): the task's goal and, under `--instructions low`, the step's low-level
    instruction beside it, as the runner shows them."""
    size = record.get("screen_size")
    return Observation(goal=goal, instruction=instruction, step=record["step"], max_steps=max_steps,
                       foreground=record.get("foreground"),
                       ui_elements=tuple(element_from_dict(e) for e in record.get("elements") or ()),
                       screenshot=screenshot, last_action_error=last_action_error,
                       screen_error=record.get("screen_error"), screen_size=None if size is None else tuple(size))


def to_normalized(point: tuple[int, int], size: tuple[int, int]) -> tuple[int, int]:
    """A pixel as 0..1000 on each axis: the inverse of how `normalized` actions are carried out."""
    (x, y), (width, height) = point, size
    return round(x * NORMALIZED_SCALE / max(width - 1, 1)), round(y * NORMALIZED_SCALE / max(height - 1, 1))


def action_forms(action: Action, elements: Sequence[UIElement],
                 size: tuple[int, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    """`action` with the point it touches in pixels, and in normalized coordinates, in place of an
    element index (a scroll's point is the centre of the element it scrolls). An action that touches
    no point (keys, open_app, answer, status) is the same in every form."""
    data = action.to_dict()
    if action.index is None and action.x is None:
        return data, data
    pixel = touch_point(action, elements, size)
    base = {key: value for key, value in data.items() if key not in ("index", "x", "y", "normalized")}
    x, y = to_normalized(pixel, size)
    return {**base, "x": pixel[0], "y": pixel[1]}, {**base, "x": x, "y": y, "normalized": True}


def agent_episode(episode: dict[str, Any], wants_gui_reference: bool, wants_device_locale: bool = False) -> Episode:
    """What an agent is told when a recorded episode (an `episodes.jsonl` record) starts, as the
    runner tells it: the task is re-created from the recorded params and seed (its class must be
    registered), and gives its GUI reference to an agent that wants one (`gui_reference`), and the
    recorded config's locale to one that wants the device's locale."""
    reference = None
    if wants_gui_reference:
        task = registry.get(episode["task"]).with_params(episode["params"], episode["seed"])
        steps = task.gui_reference()
        reference = None if steps is None else tuple(steps)
    locale = (episode.get("device_config") or {}).get("locale") if wants_device_locale else None
    return Episode(episode["goal"], episode["max_steps"], tuple(episode["apps"]), episode["task"],
                   episode["episode_id"], episode["seed"], reference, locale)
