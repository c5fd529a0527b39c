"""The per-app screen API: an app's GUI is one `AppScreens` value, registered by package.

Adding an app is one module under taskkit/sim/gui/apps/ that builds its screens and calls
`register(AppScreens(...))` (and its name in apps/__init__.py's import):

    def _list(ui: Session, frame: Frame) -> list[Node]:
        nodes, top = widgets.app_bar(ui, "Expenses", up=False)
        rows = [widgets.Row(ui.m.dp(72), lambda box, r=r: widgets.list_item(
                    ui, box, r["name"], action=lambda s, i=r["_id"]: s.push("edit", expense=i)))
                for r in read_expenses(ui)]
        box = (0, top, ui.m.width, ui.m.content_bottom)
        return nodes + [widgets.scroll_list(ui, frame, "list", box, rows)]

    register(AppScreens(PACKAGE, {"list": Screen(_list), "edit": Screen(_edit, ".EditActivity")},
                        first="list"))

A screen's builder reads the app's stored data every time it is called (on every dump, tap and
screenshot) and returns the nodes of the app window; taps run the nodes' actions, which write
through the same stores the checks read and navigate with `ui.push` / `ui.replace` /
`ui.finish`. Each open screen is a `Frame` of the app's window stack: its screen name, its
arguments (plain JSON) and the activity that is in front while it shows.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping

from taskkit.device.catalog import get as get_package
from taskkit.sim import jsonstore

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.sim.gui.node import Node
    from taskkit.sim.gui.session import Session


@dataclasses.dataclass(frozen=True)
class Frame:
    """One open screen of an app's window stack (stored as plain JSON in gui.json)."""

    id: int
    screen: str
    args: dict[str, Any]
    activity: str  # full class name

    def key(self, name: str) -> str:
        """The key of this frame's draft, scroll offset or focus called `name`."""
        return f"{self.id}:{name}"

    def as_json(self) -> dict[str, Any]:
        """The frame as gui.json stores it, keys in the file's sorted order (as a read gives them
        back: a stack stored again unchanged marshals as read, so the store sees nothing to save)."""
        data = {name: getattr(self, name) for name in _FRAME_FIELDS}
        data["args"] = jsonstore.copy(self.args)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Frame":
        return cls(int(data["id"]), str(data["screen"]), dict(data.get("args") or {}), str(data["activity"]))


@dataclasses.dataclass(frozen=True)
class Intent:
    """What `am start` delivered to an app: the parts screens use."""

    action: str | None = None
    data: str | None = None
    mime_type: str | None = None
    extras: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Opening:
    """A screen to open: its name, arguments, the field to focus, the activity (None: the
    screen's), and text already in its fields (an intent's extras)."""

    screen: str
    args: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    focus: str | None = None
    activity: str | None = None
    drafts: Mapping[str, str] = dataclasses.field(default_factory=dict)


Builder = Callable[["Session", Frame], "list[Node]"]
# (activity class started, the intent when am start delivered one) -> the screens it opens, or
# None for the default (the screen of that activity)
Opener = Callable[[str, "Intent | None"], "list[Opening] | None"]


@dataclasses.dataclass(frozen=True)
class Screen:
    """One screen: its builder, the activity in front while it shows (None: the launch
    activity), and what the app does when the screen is left by BACK, Navigate up or HOME (an
    editor saving its text, as an activity does in onPause)."""

    build: Builder
    activity: str | None = None
    on_leave: "Callable[[Session, Frame], None] | None" = None


@dataclasses.dataclass(frozen=True)
class AppScreens:
    """The GUI of one app."""

    package: str
    screens: Mapping[str, Screen]
    first: str  # the screen of the launch activity
    opener: Opener | None = None  # screens an intent or an activity start opens (None: default)
    dark_theme: bool = True  # follows the system Dark theme in screenshots

    def full_class(self, activity: str) -> str:
        return self.package + activity if activity.startswith(".") else activity

    @property
    def launch_activity(self) -> str:
        package = get_package(self.package)
        activity = package.launch_activity if package and package.launch_activity else ".MainActivity"
        return self.full_class(activity)

    def activity_of(self, screen: str) -> str:
        """The activity in front while `screen` shows (pushed from inside the app)."""
        declared = self.screens[screen].activity
        return self.full_class(declared) if declared else self.launch_activity

    def open(self, activity: str, intent: Intent | None) -> list[Opening]:
        """The screens that starting `activity` (with `intent`) opens, bottom first."""
        found = self.opener(activity, intent) if self.opener is not None else None
        if found:
            return found
        for name in self.screens:
            if self.activity_of(name) == activity:
                return [Opening(name, activity=activity)]
        return [Opening(self.first, activity=activity)]


APPS: dict[str, AppScreens] = {}


def register(app: AppScreens) -> AppScreens:
    """Make `app`'s screens the GUI of its package (checks that every screen name is known)."""
    if app.first not in app.screens:
        raise ValueError(f"{app.package}: the first screen {app.first!r} is not one of its screens")
    APPS[app.package] = app
    return app


_FRAME_FIELDS = tuple(sorted(field.name for field in dataclasses.fields(Frame)))  # gui.json's key order
