"""Clipper (`ca.zgrs.clipper`): the helper app AndroidWorld reads and writes the clipboard through.

Its broadcasts (`am broadcast -a clipper.set -e text TEXT`, `-a clipper.get`, whose result data is
the clipboard) are what AndroidWorld's adb_utils.set/get_clipboard_contents send; the simulated
device answers them (taskkit/sim/commands/activity.py), and a focused text field pastes the
clipboard on `input keyevent KEYCODE_PASTE`, as Android's TextView does. AndroidWorld launches
Clipper first because Android 10+ lets only the foreground app read the clipboard; so does
`clipboard`.
"""
from __future__ import annotations

from taskkit.apps.base import App
from taskkit.device.base import Device
from taskkit.device.services.activity import parse_broadcast
from taskkit.device.services.activity import CLIPBOARD_SET

PACKAGE = "ca.zgrs.clipper"

APP = App(name="clipper", package=PACKAGE)


def set_clipboard(device: Device, text: str) -> None:
    """Put `text` on the clipboard."""
    APP.launch(device)
    device.activity.broadcast(CLIPBOARD_SET, {"text": text})


def clipboard(device: Device) -> str:
    """What the clipboard holds ("" when empty)."""
    APP.launch(device)
    _, data = parse_broadcast(device.activity.broadcast("clipper.get"))
    return data or ""
