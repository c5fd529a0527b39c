"""The simulated device's GUI: screens rendered from its current state, `uiautomator dump`,
`screencap` and `input` that act on them (see taskkit/sim/display.py for how it plugs in).

This first part models the launcher (the home screen lists the launchable apps by their
labels), the system bars, and the Settings app (see `settings_app`). An app whose screens are
not modeled yet shows its app bar and a line saying so, never a fake page. Navigation: BACK
goes up one Settings screen (or home from an app's first screen), HOME shows the launcher, and
`am start` of a Settings activity lands on its screen. Every screen is built again from the
stored state on each dump, tap and render, so what the checks read is what the screen shows.
"""
from __future__ import annotations

from datetime import datetime, timezone

from taskkit.sim import display
from taskkit.sim.commands.activity import foreground_component, go_home, set_foreground
from taskkit.sim.commands.system import PHYSICAL_DENSITY, display_size
from taskkit.sim.gui import settings_app
from taskkit.sim.gui.layout import Column, Metrics, system_bars
from taskkit.sim.gui.node import Node, hit, to_xml
from taskkit.sim.packages import CATALOG, LAUNCHER, split_component
from taskkit.sim.state import SimState

_BACK = {"KEYCODE_BACK", "BACK", "4"}
_HOME = {"KEYCODE_HOME", "HOME", "3"}


def metrics(state: SimState) -> Metrics:
    width, height = display_size(state)
    density = int(state.config.get("wm_density") or PHYSICAL_DENSITY)
    return Metrics(width, height, density)


def _gui(state: SimState) -> dict:
    return state.config.setdefault("gui", {})


def _settings_screen(state: SimState) -> str:
    """The Settings screen in front: the one navigated to, unless an intent started another."""
    component = foreground_component(state) or ""
    activity = component.partition("/")[2]
    task = next((t.get("id") for t in state.config.get("tasks", []) if t.get("package") == settings_app.PACKAGE), None)
    started = f"{component}#{task}"  # a new task (after a force-stop) or another activity: start over
    gui = _gui(state)
    if gui.get("settings_started") != started:
        gui["settings_started"] = started
        gui["settings_screen"] = settings_app.ACTIVITY_SCREENS.get(activity, "main")
    return gui.get("settings_screen", "main")


def _open_settings(name: str):
    def act(state: SimState) -> None:
        _gui(state)["settings_screen"] = name
        state.save()
    return act


def _launch(component: str):
    def act(state: SimState) -> None:
        set_foreground(state, component)
    return act


def _launcher(state: SimState, m: Metrics) -> list[Node]:
    apps = [p for p in CATALOG if p.launch_component and p.name != LAUNCHER.name]
    column = Column(m, m.status_bar)
    search = Node("android.widget.TextView", text="Search", resource_id=f"{LAUNCHER.name}:id/search_container_all_apps",
                  clickable=True, bounds=column.take(56), package=LAUNCHER.name)
    cells, per_row, cell_w = [], 4, m.width // 4
    for index, package in enumerate(apps):
        row, col = divmod(index, per_row)
        top = search.bounds[3] + m.dp(16) + row * m.dp(96)
        cells.append(Node("android.widget.TextView", text=package.label, content_desc=package.label,
                          package=LAUNCHER.name, clickable=True, long_clickable=True, focusable=True,
                          bounds=(col * cell_w, top, (col + 1) * cell_w, min(top + m.dp(88), m.content_bottom)),
                          action=_launch(package.launch_component or "")))
    grid = Node("androidx.recyclerview.widget.RecyclerView", resource_id=f"{LAUNCHER.name}:id/apps_list_view",
                package=LAUNCHER.name, bounds=(0, search.bounds[3], m.width, m.content_bottom), children=cells)
    return [search, grid]


def _unmodeled(package: str, m: Metrics) -> list[Node]:
    label = next((p.label for p in CATALOG if p.name == package), package)
    column = Column(m, m.status_bar)
    return [Node("android.widget.TextView", text=label, package=package, bounds=column.take(64)),
            Node("android.widget.TextView", package=package, bounds=column.take(48),
                 text="(taskkit: this app's screens are not modeled yet)")]


def build(state: SimState) -> tuple[Node, str]:
    """The screen in front now: its root node and its package."""
    m = metrics(state)
    component = foreground_component(state) or LAUNCHER.launch_component or ""
    package = split_component(component)[0] if "/" in component else LAUNCHER.name
    if package == LAUNCHER.name:
        content = _launcher(state, m)
    elif package == settings_app.PACKAGE:
        content = settings_app.screen(state, _settings_screen(state), m, _open_settings)
    else:
        content = _unmodeled(package, m)
    clock = datetime.fromtimestamp(state.clock_epoch, timezone.utc).strftime("%H:%M")
    root = Node("android.widget.FrameLayout", package=package, bounds=(0, 0, m.width, m.height),
                children=[Node("android.widget.FrameLayout", package=package, resource_id="android:id/content",
                               bounds=(0, m.status_bar, m.width, m.content_bottom), children=content),
                          *system_bars(m, clock)])
    return root, package


def _back(state: SimState) -> None:
    component = foreground_component(state) or ""
    if component.startswith(settings_app.PACKAGE + "/"):
        parent = settings_app.SCREENS[_settings_screen(state)][1]
        if parent is not None:
            _open_settings(parent)(state)
            return
    if not component.startswith(LAUNCHER.name + "/"):
        go_home(state)


class Gui:
    """The `Display` of a simulated device with this GUI."""

    def dump(self, state: SimState) -> str:
        root, package = build(state)
        return to_xml(root, package)

    def render(self, state: SimState, width: int, height: int) -> bytes:
        from taskkit.sim.gui.render import render_png

        root, _ = build(state)
        return render_png(root, width, height, dark=state.config.get("gui_dark", False))

    def input(self, state: SimState, verb: str, args: list[str]) -> None:
        if verb == "tap" and len(args) >= 2:
            self._touch(state, float(args[-2]), float(args[-1]))
        elif verb in ("swipe", "draganddrop") and len(args) >= 4:
            x1, y1, x2, y2 = (float(a) for a in args[:4])
            root, _ = build(state)
            target = hit(root, int(x1), int(y1))
            if target is not None and target.slide is not None:
                self._slide(state, target, x2)
            elif target is not None and abs(x2 - x1) + abs(y2 - y1) < 10 and target.action is not None:
                target.action(state)  # a long press where nothing else is modeled: as a tap
        elif verb == "keyevent":
            for key in (a for a in args if not a.startswith("--")):
                if key in _BACK:
                    _back(state)
                elif key in _HOME:
                    go_home(state)

    def _touch(self, state: SimState, x: float, y: float) -> None:
        root, _ = build(state)
        target = hit(root, int(x), int(y))
        if target is None:
            return
        if target.slide is not None:
            self._slide(state, target, x)
        elif target.action is not None:
            target.action(state)

    @staticmethod
    def _slide(state: SimState, target: Node, x: float) -> None:
        x1, _, x2, _ = target.bounds
        fraction = min(1.0, max(0.0, (x - x1) / max(1, x2 - x1)))
        assert target.slide is not None
        target.slide(state, fraction)


NAME = "taskkit.sim.gui"


def install(state: SimState) -> None:
    """Register this GUI in this process and give it to the device stored in `state`."""
    display.register(NAME, Gui())
    display.attach(state, NAME)
