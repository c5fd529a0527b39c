"""The screen in front, built from the stored state: the active window plus the system bars.

`uiautomator dump` writes only the active window (AOSP DumpCommand:
`getRootInActiveWindow()`): the app in front, or the quick-settings shade while it is open.
Screenshots also draw the status and navigation bars (and the app dimmed under the shade).
"""
from __future__ import annotations

import dataclasses

from taskkit.sim.gui import bars, cache, launcher, shade, texttoolbar, widgets
from taskkit.sim.gui.localize import is_rtl, localize
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from taskkit.device.catalog import get as get_package

_UNMODELED = "(taskkit: this app's screens are not modeled yet)"


@dataclasses.dataclass(frozen=True)
class View:
    """What is on the screen now."""

    window: Node  # the active window: what the dump shows and what a touch reaches
    package: str  # the active window's package
    behind: Node | None  # the app under the shade (drawn dimmed) or under a dialog (drawn under its scrim)
    bars: tuple[Node, ...]  # the status and navigation bars (drawn, not dumped)
    dark: bool  # the window follows the system Dark theme
    rtl: bool = False  # a right-to-left locale: text starts at the right edge


def _unmodeled(ui: Session, package: str) -> list[Node]:
    info = get_package(package)
    nodes, top = widgets.app_bar(ui, info.label if info else package, up=False)
    m = ui.m
    return nodes + [widgets.text(ui, (m.dp(16), top + m.dp(16), m.width - m.dp(16), top + m.dp(64)), _UNMODELED)]


def _app_window(ui: Session) -> tuple[Node, str, bool]:
    package, app, frame = ui.top()
    if app is not None and frame is not None and frame.screen in app.screens:
        content = app.screens[frame.screen].build(ui, frame)
    else:
        content = _unmodeled(ui, package)
    toolbar = texttoolbar.overlay(ui, content)
    if toolbar is not None:
        content = [*content, toolbar]
    m = ui.m
    root = Node("android.widget.FrameLayout", package=package, bounds=(0, 0, m.width, m.height),
                background=launcher.wallpaper(ui) if package == launcher.PACKAGE else None,
                children=[Node("android.widget.FrameLayout", package=package, resource_id="android:id/content",
                               bounds=m.content, children=content)])
    return root, package, ui.dark and (app is None or app.dark_theme)


def build(ui: Session, drawn: bool = False) -> View:
    """The screen now, in the device's locale, font scale and layout direction; `drawn` adds
    what only a screenshot needs (the bars, the app under the shade). Kept while nothing it was
    built from changes (taskkit/sim/gui/cache.py): never change the nodes of a built screen."""
    return cache.remember(ui.state, ("view", drawn), lambda: _build(ui, drawn), ui.inputs)


def settle(ui: Session, drawn: bool = False) -> None:
    """Reconcile the window stack of the app in front with the activity manager, as building
    the screen would (a new task starts over, a delivered intent opens its screen). Done once
    per GUI command, before its first kept screen is looked up, so that the build leaves the
    store it is keyed by as it found it: a build that changed its own key could not be kept,
    and the next command would build the same screen again. (A build later in the command,
    after the command changed what is in front, reconciles as it goes and is not kept.)"""
    if drawn or not ui.shade_open:  # (the shade alone, dumped, shows no app)
        ui.top()


def _build(ui: Session, drawn: bool) -> View:
    ui.drawing = drawn
    local = lambda node, package: localize(node, package, ui.locale, ui.font_scale, ui.m.width)  # noqa: E731
    system = tuple(local(bar, bars.SYSTEMUI) for bar in (bars.status_bar(ui), bars.navigation_bar(ui))) if drawn else ()
    if ui.shade_open:
        behind = local(*_app_window(ui)[:2]) if drawn else None
        return View(local(shade.shade(ui), bars.SYSTEMUI), bars.SYSTEMUI, behind, system, True, is_rtl(ui.locale))
    window, package, dark = _app_window(ui)
    under = _under_dialog(ui, package) if drawn and _is_dialog(window) else None
    behind = local(under, package) if under is not None else None
    return View(local(window, package), package, behind, system, dark, is_rtl(ui.locale))


def _is_dialog(window: Node) -> bool:
    return any(widgets.is_dialog_panel(node) for node in window.walk())


def _under_dialog(ui: Session, package: str) -> Node | None:
    """The app's screen under its top frame (a dialog), drawn under the dialog's scrim."""
    _, app, _ = ui.top()
    frames = ui.frames(package)
    if app is None or len(frames) < 2 or frames[-2].screen not in app.screens:
        return None
    m = ui.m
    return Node("android.widget.FrameLayout", package=package, bounds=(0, 0, m.width, m.height),
                children=app.screens[frames[-2].screen].build(ui, frames[-2]))
