"""The simulated device's GUI: screens rendered from its current state, `uiautomator dump`,
`screencap` and `input` that act on them (taskkit/sim/display.py is how it plugs in).

Modules, one job each: `node` (the view tree and window_dump.xml), `layout` (metrics), `store`
(gui.json: window stacks, focus, drafts, scroll offsets, the shade), `session` (one command's
view: navigation and settings), `app` (the per-app screen API and registry), `widgets` (building
blocks), `toggles` (the system settings switches), `bars`, `shade` and `launcher` (system UI), `apps/` (one module per app), `screen` (the
active window), `input` (taps, swipes, keys, text), `render` (Pillow), `intents` (what `am
start` delivered). Every screen is built again from the stored state on each dump, tap and
screenshot, so what the checks read is what the screen shows, and every write goes through the
stores the checks read. Importing this package registers the screens and wraps `am`;
`install(state)` gives a device this GUI.
"""
from __future__ import annotations

from taskkit.sim import display
from taskkit.sim.gui import apps as _apps, cache, intents as _intents, launcher as _launcher  # noqa: F401 - they register
from taskkit.sim.gui.input import handle
from taskkit.device.services import ui
from taskkit.sim.gui.node import dump
from taskkit.sim.gui.screen import View, build, settle
from taskkit.sim.gui.session import Session
from taskkit.sim.state import SimState

NAME = "taskkit.sim.gui"


class Gui:
    """The `Display` of a simulated device with this GUI."""

    def dump(self, state: SimState) -> str:
        ui = Session(state)
        settle(ui)
        xml = cache.remember(state, "dump", lambda: _xml(build(ui)), ui.inputs)
        ui.save()
        return xml

    def render(self, state: SimState, width: int, height: int) -> bytes:
        return _drawn(state, "png", width, height)

    def pixels(self, state: SimState, width: int, height: int) -> bytes:
        return _drawn(state, "rgba", width, height)

    def input(self, state: SimState, verb: str, args: list[str]) -> None:
        ui = Session(state)
        settle(ui)
        handle(ui, verb, args)
        ui.save()


def _xml(view: View) -> str:
    """The dump's text; its parse is handed to this process's host side (ui.prime), which then
    need not parse the text the shell prints."""
    xml, nodes = dump(view.window, view.package)
    ui.prime(xml, nodes)
    return xml


def _drawn(state: SimState, form: str, width: int, height: int) -> bytes:
    """The current screen drawn as `form`: "png" (PNG bytes) or "rgba" (raw RGBA_8888 pixels)."""
    from taskkit.sim.gui import render  # Pillow is loaded on the first screenshot

    draw = render.render_png if form == "png" else render.render_rgba
    ui = Session(state)
    settle(ui, drawn=True)
    drawn = cache.remember(state, (form, width, height), lambda: draw(build(ui, drawn=True), width, height), ui.inputs)
    ui.save()
    return drawn


def install(state: SimState) -> None:
    """Register this GUI in this process and give it to the device stored in `state`."""
    display.register(NAME, Gui())
    display.attach(state, NAME)
