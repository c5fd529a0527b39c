"""`android_world.env.representation_utils`: UI elements with AndroidWorld's field names.

taskkit's own `UIElement` and `BoundingBox` already carry AndroidWorld's names (`text`,
`content_description`, `class_name`, `bbox`, `is_checked`, `resource_name`, ...); the "forest"
`env.get_state()` returns is the list of elements of the window dump (uiautomator's tree, not
the accessibility service's), so `forest_to_ui_elements` hands it back.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from taskkit.device.services import ui
from taskkit.device.services.ui import BoundingBox, parse_window_dump

__all__ = ["BoundingBox", "UIElement", "forest_to_ui_elements", "xml_dump_to_ui_elements"]


@dataclasses.dataclass(frozen=True)
class UIElement(ui.UIElement):
    """taskkit's element with AndroidWorld's two other names: `hint_text` and `bbox_pixels`
    (`uiautomator dump` reports no hints, so `hint_text` is None on a filled-in field)."""

    @property
    def hint_text(self) -> str | None:
        return self.hint

    @property
    def bbox_pixels(self) -> BoundingBox | None:
        return self.bbox


def as_element(element: ui.UIElement) -> UIElement:
    if isinstance(element, UIElement):
        return element
    return UIElement(**{field.name: getattr(element, field.name) for field in dataclasses.fields(element)})


def forest_to_ui_elements(forest: Iterable[ui.UIElement], exclude_invisible_elements: bool = False,
                          screen_size: Any = None) -> list[UIElement]:
    """The elements of the screen (the dump lists visible elements only)."""
    return [as_element(element) for element in forest]


def xml_dump_to_ui_elements(xml_string: str) -> list[UIElement]:
    """The elements of a `uiautomator dump` file."""
    return forest_to_ui_elements(parse_window_dump(xml_string))
