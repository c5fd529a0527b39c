"""`android_world.env.representation_utils`: UI elements with AndroidWorld's field names.

taskkit's own `UIElement` and `BoundingBox` already carry AndroidWorld's names (`text`,
`content_description`, `class_name`, `bbox`, `is_checked`, `resource_name`, ...); the "forest"
`env.get_state()` returns is the list of elements of the window dump (uiautomator's tree, not
the accessibility service's), so `forest_to_ui_elements` hands it back.
"""
from __future__ import annotations

from typing import Any, Iterable

from taskkit.device.services.ui import BoundingBox, UIElement, parse_window_dump

__all__ = ["BoundingBox", "UIElement", "forest_to_ui_elements", "xml_dump_to_ui_elements"]


def forest_to_ui_elements(forest: Iterable[UIElement], exclude_invisible_elements: bool = False,
                          screen_size: Any = None) -> list[UIElement]:
    """The elements of the screen (the dump lists visible elements only)."""
    return list(forest)


def xml_dump_to_ui_elements(xml_string: str) -> list[UIElement]:
    """The elements of a `uiautomator dump` file."""
    return parse_window_dump(xml_string)
