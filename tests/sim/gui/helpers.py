"""Shared by the GUI tests: find elements in the dumped tree (by text, description or resource
id, never by a fixed coordinate) and act on them. Task references use taskkit.gui_reference."""
from __future__ import annotations

from typing import Callable

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
