"""`android_world.env.tools`: the helper actions AndroidWorld's tasks use to set up a scene."""
from __future__ import annotations

from typing import Any

from taskkit.apps import sms
from taskkit.compat.android_world._device import device_of, unsupported
from taskkit.device.services.ui import UIElement


class AndroidToolController:
    """Set-up actions on the device: send a text, open a web page, tap an element by its text."""

    def __init__(self, env: Any):
        self.device = device_of(env)

    def send_sms(self, phone_number: str, message: str) -> None:
        """A text sent to `phone_number` now (the sent box's row, as the messaging app writes it)."""
        sms.send(self.device, phone_number, message)

    def open_web_page(self, url: str) -> None:
        self.device.activity.start_intent("android.intent.action.VIEW", data=url)

    def click_element(self, element_text: str) -> None:
        """Tap the element whose text or description is `element_text`; ValueError if none is."""
        click(self.device, element_text, case_sensitive=True)


def click(device: Any, element_text: str, case_sensitive: bool) -> None:
    """Tap the first element whose text or description is `element_text`; ValueError if none is."""
    def same(value: str | None) -> bool:
        return value is not None and (value == element_text if case_sensitive else value.lower() == element_text.lower())

    found: list[UIElement] = [e for e in device.ui.screen().elements
                              if (same(e.text) or same(e.content_description)) and e.bbox is not None]
    if not found:
        raise ValueError(f"no element with the text {element_text!r} on the screen")
    x, y = found[0].bbox.center
    device.check(f"input tap {int(x)} {int(y)}")


__getattr__ = unsupported("env.tools")
