"""Simple-Commons' folder picker (dialogs/FilePickerDialog.kt with pickFile false), which the
Simple Mobile Tools apps (Simple Draw's Save as, Simple Gallery's Copy to / Move to) share.

"Select a folder": breadcrumbs from "Internal" (internal storage, as `humanizePath` names it) to
the folder shown (`filepicker_breadcrumbs`, each a `breadcrumb_text` that goes back to it), the
folder's entries (folders first, by name; hidden ones left out) as `filepicker_list` rows
(`list_item_name`, `list_item_details`: "N items" or the size), a folder row opening it, and OK
picking the folder shown. It starts in the asked folder, or in internal storage when that folder
does not exist (as the dialog does). Simplified: BACK closes it (the app goes up one folder) and
it offers no new-folder button.
"""
from __future__ import annotations

import posixpath
from typing import Callable

from taskkit.apps.files import STORAGE_ROOT
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame, Screen
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session

SCREEN = "folder_picker"
# What OK does: (session, the frame under the picker, the chosen folder).
OnPick = Callable[[Session, Frame, str], None]



def format_size(size: int) -> str:
    """Simple-Commons' Long.formatSize: "0 B", "812 B", "12.2 kB", "1,024.5 MB"."""
    units, scaled, unit = ("B", "kB", "MB", "GB", "TB"), float(size), 0
    while scaled >= 1024 and unit < len(units) - 1:
        scaled, unit = scaled / 1024, unit + 1
    rounded = round(scaled, 1)
    return f"{rounded:,.1f}".rstrip("0").rstrip(".") + f" {units[unit]}" if size > 0 else "0 B"


def children_line(count: int) -> str:
    """FilepickerItemsAdapter.getChildrenCnt: Simple-Commons' plural `items`."""
    return f"{count} item" if count == 1 else f"{count} items"

def humanize(folder: str) -> str:
    """Simple-Commons' humanizePath: internal storage reads "Internal"."""
    return "Internal" + folder[len(STORAGE_ROOT):] if folder.startswith(STORAGE_ROOT) else folder


def open_picker(folder: str):
    """The action that opens the picker on `folder` (internal storage when it does not exist)."""
    def act(ui: Session) -> None:
        ui.push(SCREEN, path=folder if appdata.host(ui, folder).is_dir() else STORAGE_ROOT)
    return act


def _go(path: str):
    return lambda ui: ui.replace(SCREEN, path=path)


def _pick(frame: Frame, on_pick: OnPick):
    def act(ui: Session) -> None:
        ui.finish()
        _, _, below = ui.top()
        if below is not None:
            on_pick(ui, below, str(frame.args["path"]))
    return act


def screen(package: str, on_pick: OnPick, activity: str | None = None) -> Screen:
    """The picker as a screen of `package` (its ids carry the app's package, as the library's
    resources merged into the app do), shown over `activity` (None: the launch activity)."""
    rid = f"{package}:id/"

    def build(ui: Session, frame: Frame) -> list[Node]:
        m = ui.m
        current = str(frame.args["path"])

        def body(box: Box) -> list[Node]:
            x1, y, x2, y2 = box
            crumbs, x = [], x1
            parts = current[len(STORAGE_ROOT):].strip("/").split("/") if current != STORAGE_ROOT else []
            for depth, label in enumerate(["Internal", *parts]):
                target = posixpath.join(STORAGE_ROOT, *parts[:depth])
                width = m.dp(24 + 9 * len(label))
                crumbs.append(widgets.text(ui, (x, y, x + width, y + m.dp(40)), label if depth == 0 else f"> {label}",
                                           f"{rid}breadcrumb_text", size_dp=16, action=_go(target)))
                x += width
            rows = []
            for name, is_dir, size in appdata.listing(ui, current):
                if name.startswith("."):
                    continue
                path = posixpath.join(current, name)
                details = children_line(len(appdata.listing(ui, path))) if is_dir else format_size(size)
                rows.append(widgets.Row(m.dp(64), lambda row, p=path, n=name, d=details, folder=is_dir: widgets.list_item(
                    ui, row, n, d, action=_go(p) if folder else None, rid=f"{rid}list_item_holder",
                    title_rid=f"{rid}list_item_name", subtitle_rid=f"{rid}list_item_details")))
            listed = widgets.scroll_list(ui, frame, "list", (x1, y + m.dp(48), x2, y2), rows, rid=f"{rid}filepicker_list")
            return [Node("android.widget.LinearLayout", resource_id=f"{rid}filepicker_breadcrumbs",
                         bounds=(x1, y, x2, y + m.dp(40)), children=crumbs), listed]

        return widgets.dialog(ui, "Select a folder", owner=package, body=body, body_dp=400, positive=("OK", _pick(frame, on_pick)))

    return Screen(build, activity)
