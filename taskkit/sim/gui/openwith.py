"""Opening a file in another app: the "Open with" chooser a file manager shows for a file some app
views, and the VIEW intent it sends.

A viewer app registers the extensions it opens (`register_viewer`). A tap on such a file in the
Files app opens the chooser (Android's ResolverActivity, frameworks/base core/res/res/layout/
resolver_list.xml: the title "Open with", one row per app, the buttons `android:id/button_once`
"Just once" and `android:id/button_always` "Always"). With one app it is chosen already (as
Android's resolver_list_with_default); a row is chosen by a tap. Either button finishes the
chooser and starts the app with `ACTION_VIEW`, the file's content URI (as DocumentsUI sends it)
and its MIME type, delivered as `am start` delivers an intent (taskkit/sim/gui/intents.py).
Simplified: "Always" remembers nothing; the chooser is drawn in the file manager's window.
"""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Callable

from taskkit.sim.commands.activity import Intent, start_activity
from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from taskkit.device.catalog import get as get_package, short_component

VIEW = "android.intent.action.VIEW"
_GRANT_READ_URI_PERMISSION = 0x1  # Intent.FLAG_GRANT_READ_URI_PERMISSION: the viewer may read the file


@dataclasses.dataclass(frozen=True)
class Viewer:
    """An app that opens files: its label, package, activity, and how it names a file's URI."""

    label: str
    package: str
    activity: str
    mime_type: str
    uri: Callable[[str], str]  # device path -> the URI the app is given


_VIEWERS: dict[str, list[Viewer]] = {}


def register_viewer(extensions: tuple[str, ...], viewer: Viewer) -> None:
    """Let `viewer` open files ending in `extensions` (lowercase, with the dot)."""
    for extension in extensions:
        _VIEWERS.setdefault(extension, []).append(viewer)


def viewers(path: str) -> list[Viewer]:
    """The apps that open `path`, in registration order."""
    return list(_VIEWERS.get(posixpath.splitext(path)[1].lower(), ()))


def open_in(ui: Session, viewer: Viewer, path: str) -> None:
    """Start `viewer` on `path` with a VIEW intent (its task comes to the front)."""
    caller = get_package(ui.foreground()[0])  # the app the file was opened from (Files, say)
    intent = Intent(VIEW, data=viewer.uri(path), mime_type=viewer.mime_type, flags=_GRANT_READ_URI_PERMISSION)
    start_activity(ui.state, intent, viewer.package, viewer.activity, caller.uid if caller else 0)  # its START line
    component = short_component(viewer.package, viewer.activity)
    task = next(t for t in ui.state.config.get("tasks", []) if t.get("package") == viewer.package)
    seq = int(ui.store.data.get("intent_seq", 0)) + 1
    ui.store.data["intent_seq"] = seq
    ui.store.data["intents"][viewer.package] = {
        "seq": seq, "task": int(task["id"]), "component": task["component"], "action": VIEW,
        "data": viewer.uri(path), "type": viewer.mime_type, "extras": {}, "started": component}
    ui.frames(viewer.package)


def _launch(frame: Frame, choices: list[Viewer]):
    def act(ui: Session) -> None:
        chosen = int(ui.draft(frame, "chosen", "0" if len(choices) == 1 else "-1"))
        if not 0 <= chosen < len(choices):
            return  # the buttons are disabled until an app is chosen
        ui.finish()
        open_in(ui, choices[chosen], str(frame.args["path"]))
    return act


def chooser(ui: Session, frame: Frame) -> list[Node]:
    """The chooser's builder (a screen of the file manager; args: `path`)."""
    m = ui.m
    choices = viewers(str(frame.args["path"]))
    chosen = int(ui.draft(frame, "chosen", "0" if len(choices) == 1 else "-1"))
    top = m.content_bottom - m.dp(120 + 56 * len(choices))
    children = [Node(widgets.TEXT_VIEW, text="Open with", resource_id="android:id/title", text_size=m.dp(20),
                     bounds=(m.dp(24), top + m.dp(16), m.width - m.dp(24), top + m.dp(48)))]
    y = top + m.dp(56)
    for index, viewer in enumerate(choices):
        row = widgets.list_item(ui, (0, y, m.width, y + m.dp(56)), viewer.label, title_rid="android:id/text1",
                                action=lambda s, i=index: s.set_draft(frame, "chosen", str(i)))
        row.selected = index == chosen
        children.append(row)
        y += m.dp(56)
    ready = _launch(frame, choices) if 0 <= chosen < len(choices) else None
    children += [widgets.button(ui, (m.width - m.dp(232), y + m.dp(8), m.width - m.dp(128), y + m.dp(56)), "Just once",
                                ready, "android:id/button_once"),
                 widgets.button(ui, (m.width - m.dp(120), y + m.dp(8), m.width - m.dp(16), y + m.dp(56)), "Always",
                                ready, "android:id/button_always")]
    sheet = Node("android.widget.LinearLayout", resource_id="android:id/contentPanel",
                 bounds=(0, top, m.width, m.content_bottom), background=(250, 250, 250), children=children)
    return [sheet]
