"""Simple-Commons' folder picker (dialogs/FilePickerDialog.kt with pickFile false), which the
Simple Mobile Tools apps (Simple Draw's Save as, Simple Gallery's Copy to / Move to) share.

"Select a folder": breadcrumbs from "Internal" (internal storage, as `humanizePath` names it) to
the folder shown (`filepicker_breadcrumbs`, each a `breadcrumb_text` that goes back to it), the
folder's entries (folders first, by name; hidden ones left out) as `filepicker_list` rows in
its RecyclerViewFastScroller `filepicker_fastscroller` (`list_item_icon`, `list_item_name`,
`list_item_details`: "N items" or the size), a folder row opening it, and OK picking the folder
shown; the FABs of dialog_filepicker.xml the callers ask for (`_fabs`). It starts in the asked
folder, or in internal storage when that folder does not exist (as the dialog does); the
"Loading…" placeholder is gone once the entries are read. Simplified: BACK closes it (the app
goes up one folder) and the new-folder button does nothing.
"""
from __future__ import annotations

import posixpath
from typing import Callable

from taskkit.apps.files import STORAGE_ROOT
from taskkit.sim.gui import appdata, pictures, widgets
from taskkit.sim.gui.app import Frame, Screen
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session

SCREEN = "folder_picker"
# What OK does: (session, the frame under the picker, the chosen folder).
OnPick = Callable[[Session, Frame, str], None]
_PICTURES = ("jpg", "jpeg", "png", "gif", "webp", "bmp")  # what Glide draws as its own thumbnail



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


def screen(package: str, on_pick: OnPick, activity: str | None = None, *, show_hidden_button: bool = False) -> Screen:
    """The picker as a screen of `package` (its ids carry the app's package, as the library's
    resources merged into the app do), shown over `activity` (None: the launch activity);
    `show_hidden_button`: the caller's canAddShowHiddenButton (Simple Gallery's "other folder")."""
    rid = f"{package}:id/"

    def build(ui: Session, frame: Frame) -> list[Node]:
        m = ui.m
        current = str(frame.args["path"])
        hidden = ui.draft(frame, "hidden") == "1"

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
                if name.startswith(".") and not hidden:
                    continue
                path = posixpath.join(current, name)
                details = children_line(len(appdata.listing(ui, path))) if is_dir else format_size(size)
                rows.append(widgets.Row(m.dp(64), lambda row, p=path, n=name, d=details, folder=is_dir: widgets.list_item(
                    ui, row, n, d, action=_go(p) if folder else None, rid=f"{rid}list_item_holder",
                    title_rid=f"{rid}list_item_name", subtitle_rid=f"{rid}list_item_details",
                    leading=_icon(ui, rid, row, p, folder), indent_dp=62)))
            listed = widgets.scroll_list(ui, frame, "list", (x1, y + m.dp(48), x2, y2), rows, rid=f"{rid}filepicker_list")
            return [Node("android.widget.LinearLayout", resource_id=f"{rid}filepicker_breadcrumbs",
                         bounds=(x1, y, x2, y + m.dp(40)), children=crumbs),
                    widgets.wrapper(f"{rid}filepicker_fastscroller", listed), *_fabs(ui, rid, frame, box,
                                                                                    show_hidden_button and not hidden)]

        return widgets.dialog(ui, "Select a folder", owner=package, body=body, body_dp=400, positive=("OK", _pick(frame, on_pick)))

    return Screen(build, activity)


def _icon(ui: Session, rid: str, row: Box, path: str, folder: bool) -> Node:
    """item_filepicker_list.xml's `list_item_icon` (54 dp, 8 dp padding): the folder drawable, a
    picture's own thumbnail (Glide, centerCrop), else the file drawable (FilepickerItemsAdapter.setupView)."""
    m = ui.m
    x1, y1, _, y2 = row
    middle, side = (y1 + y2) // 2, m.dp(54 - 16)
    box = (x1 + m.dp(8), middle - side // 2, x1 + m.dp(8) + side, middle + side // 2)
    if not folder and path.rpartition(".")[2].lower() in _PICTURES:
        return Node("android.widget.ImageView", resource_id=f"{rid}list_item_icon", bounds=box,
                    image=pictures.cropped(str(appdata.host(ui, path))))
    return Node("android.widget.ImageView", resource_id=f"{rid}list_item_icon", bounds=box,
                icon="folder" if folder else "insert_drive_file")


def _fabs(ui: Session, rid: str, frame: Frame, box: Box, show_hidden: bool) -> list[Node]:
    """The dialog's FABs at its bottom end: `filepicker_fab` (showFAB, which both apps pass: new
    folder, not carried out) and above it `filepicker_fab_show_hidden` (with canAddShowHiddenButton:
    a tap lists hidden entries and the button goes); `filepicker_fab_show_favorites` shows only
    with favourites, which are empty by default."""
    m = ui.m
    right, bottom = box[2] - m.dp(16), box[3] - m.dp(16)
    found = [Node("android.widget.ImageButton", resource_id=f"{rid}filepicker_fab", clickable=True, focusable=True,
                  action=widgets.inert, icon="add", bounds=(right - m.dp(56), bottom - m.dp(56), right, bottom))]
    if show_hidden:
        top = bottom - m.dp(56 + 16)
        found.insert(0, Node("android.widget.LinearLayout", resource_id=f"{rid}filepicker_fabs_holder",
                             bounds=(right - m.dp(56), top - m.dp(56), right, top), children=[
                                 Node("android.widget.ImageButton", resource_id=f"{rid}filepicker_fab_show_hidden",
                                      clickable=True, focusable=True, icon="visibility",
                                      action=lambda s: s.set_draft(frame, "hidden", "1"),
                                      bounds=(right - m.dp(56), top - m.dp(56), right, top))]))
    return found
