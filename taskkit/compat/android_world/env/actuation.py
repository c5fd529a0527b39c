"""`android_world.env.actuation`: the one actuation helper AndroidWorld's task code calls
(`contacts_utils.add_contact` saves the contact editor with it)."""
from __future__ import annotations

from typing import Any

from taskkit.compat.android_world._device import device_of
from taskkit.compat.android_world.env.tools import click


def find_and_click_element(element_text: str, env: Any, case_sensitive: bool = False) -> None:
    """Tap the element whose text (or description) is `element_text`; ValueError if none is."""
    click(device_of(env), element_text, case_sensitive)
