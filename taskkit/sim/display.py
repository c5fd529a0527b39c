"""The simulated device's screen, as the shell commands see it: a pluggable `Display`.

`input`, `screencap` and `uiautomator` (taskkit/sim/commands) parse their arguments as Android
does and then ask the installed display to act, to render or to dump. With no display
installed (a bare simulated device), `input` changes nothing, `screencap` is a blank screen and
`uiautomator` is not there. A device's display is named in its device.json; the GUI
(`taskkit.sim.gui`) registers one, and since it lives above the app models, the composition
roots (`taskkit.connect.sim_device`, `python -m taskkit.sim serve`) register and attach it,
never the simulator itself.
"""
from __future__ import annotations

from typing import Protocol

from taskkit.sim.state import SimState


class Display(Protocol):
    """What a screen provider answers; every call reads and writes only `state`."""

    def dump(self, state: SimState) -> str:
        """The current screen as Android's window_dump.xml."""

    def render(self, state: SimState, width: int, height: int) -> bytes:
        """The current screen as PNG bytes of that size."""

    def pixels(self, state: SimState, width: int, height: int) -> bytes:
        """The current screen's pixels at that size: RGBA_8888, row by row (raw `screencap`)."""

    def input(self, state: SimState, verb: str, args: list[str]) -> None:
        """Act on `input VERB ARGS` (already checked as Android checks them)."""


_DISPLAYS: dict[str, Display] = {}
CONFIG_KEY = "display"  # device.json names the display a device has


def register(name: str, display: Display) -> None:
    """Make `display` available under `name` in this process."""
    _DISPLAYS[name] = display


def attach(state: SimState, name: str) -> None:
    """Give the device stored in `state` the display called `name` (recorded in device.json)."""
    if state.config.get(CONFIG_KEY) != name:
        state.config[CONFIG_KEY] = name
        state.save()


def for_state(state: SimState) -> Display | None:
    """The display of this device, if it has one and it is registered in this process."""
    name = state.config.get(CONFIG_KEY)
    return _DISPLAYS.get(name) if name else None
