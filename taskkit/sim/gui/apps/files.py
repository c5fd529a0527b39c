"""Files (DocumentsUI): the device's shared storage as folders and files, a file's details,
deleting a file by long press and moving it to another folder, over the files the checks read.

Ids follow AOSP DocumentsUI (packages/apps/DocumentsUI, res/layout/item_doc_list.xml: rows
whose name is `android:id/title` with `size` beside it; res/layout/fragment_directory.xml
`dir_list`; res/menu/action_mode_menu.xml `action_menu_delete` "Delete" as an icon and
`action_menu_move_to` "Move to…" in the overflow menu; the delete dialog asks "Delete “NAME”?"
with OK). The list opens on the storage root, named after the device model as the app names it.
Move to… opens the destination picker (PickActivity with ACTION_PICK_COPY_DESTINATION, which
starts in the home folder, picker/ActionHandler.java `loadHomeDir`): the folders and files of a
folder (files greyed out), a tap on a folder opening it, and res/layout/fragment_pick.xml's
`android:id/button2` Cancel and `android:id/button1` "Move" (`button_move`), which moves the
file into the folder shown. A tap on a file an app views (an .html page) opens the "Open with"
chooser (taskkit/sim/gui/openwith.py). Simplified: no navigation drawer, Recent, grid view,
search or sort; one file is selected at a time; BACK closes the picker (the app goes up one
folder); a tap on any other file shows its name, size and folder instead of opening it in
another app.
"""
from __future__ import annotations

import dataclasses
import posixpath

from taskkit.apps.files import PACKAGE, STORAGE_ROOT
from taskkit.sim.gui import appdata, filelist, openwith, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
PICKER = "com.android.documentsui.picker.PickActivity"
IDS = filelist.Ids(f"{ID}dir_list", "android:id/title", f"{ID}size", f"{ID}action_menu_delete")


def _root_name(ui: Session) -> str:
    return str(ui.state.config.get("props", {}).get("ro.product.model") or "Internal storage")


def _open_file(path: str):
    return lambda ui: ui.push("open_with" if openwith.viewers(path) else "details", path=path)


def _files(ui: Session, frame: Frame) -> list[Node]:
    folder = str(frame.args.get("folder", STORAGE_ROOT))
    title = _root_name(ui) if folder == STORAGE_ROOT else posixpath.basename(folder)
    nodes, top = widgets.app_bar(ui, title, up=folder != STORAGE_ROOT)
    return nodes + [filelist.listing(ui, frame, folder, top, IDS, _open_file)]


def _selection_actions(ui: Session, frame: Frame, paths: list[str]) -> tuple[Node, ...]:
    """The selection's app bar, right to left: the overflow menu, Delete."""
    more = widgets.icon_button(ui, (0, 0, ui.m.dp(48), 0), "More options",
                               lambda s: s.push("selection_menu", paths=paths))
    return more, filelist.delete_button(ui, IDS, paths)


def _selection_menu(ui: Session, frame: Frame) -> list[Node]:
    paths = [str(p) for p in frame.args["paths"]]
    return widgets.popup_menu(ui, [("Move to\u2026", lambda s: s.push("move_to", paths=paths, at=STORAGE_ROOT))])


def _picker(ui: Session, frame: Frame) -> list[Node]:
    """The destination picker: the folder's entries (folders open, files are greyed out), Cancel and Move."""
    m = ui.m
    at, paths = str(frame.args["at"]), [str(p) for p in frame.args["paths"]]
    title = _root_name(ui) if at == STORAGE_ROOT else posixpath.basename(at)
    nodes, top = widgets.app_bar(ui, title, up=at != STORAGE_ROOT, rid=f"{ID}toolbar")
    if at != STORAGE_ROOT:  # the app bar's Navigate up goes to the parent folder
        nodes[0].children[0] = dataclasses.replace(
            nodes[0].children[0], action=lambda s: s.replace("move_to", paths=paths, at=posixpath.dirname(at)))
    bottom = m.content_bottom - m.dp(64)
    rows = []
    for name, is_dir, size in appdata.listing(ui, at):
        path = posixpath.join(at, name)
        open_folder = (lambda s, p=path: s.replace("move_to", paths=paths, at=p)) if is_dir else None
        rows.append(widgets.Row(m.dp(72), lambda box, n=name, d=is_dir, z=size, act=open_folder: widgets.list_item(
            ui, box, n, "" if d else f"{z} B", action=act, title_rid="android:id/title", subtitle_rid=f"{ID}size")))
    nodes.append(widgets.scroll_list(ui, frame, "list", (0, top, m.width, bottom), rows, rid=f"{ID}dir_list"))
    nodes.append(widgets.button(ui, (m.width - m.dp(112), bottom + m.dp(8), m.width - m.dp(16), bottom + m.dp(56)),
                                "Move", filelist.move_selection(frame), "android:id/button1"))
    nodes.append(widgets.button(ui, (m.width - m.dp(224), bottom + m.dp(8), m.width - m.dp(120), bottom + m.dp(56)),
                                "Cancel", Session.finish, "android:id/button2"))
    return nodes


def _details(ui: Session, frame: Frame) -> list[Node]:
    path = str(frame.args["path"])
    nodes, top = widgets.app_bar(ui, posixpath.basename(path))
    size = appdata.host(ui, path).stat().st_size if appdata.host(ui, path).is_file() else 0
    lines, _ = widgets.details(ui, top, [("Name", posixpath.basename(path), f"{ID}name"), ("Size", f"{size} B", f"{ID}size"),
                                         ("Folder", posixpath.dirname(path).replace(STORAGE_ROOT, _root_name(ui), 1), f"{ID}path")])
    return nodes + lines


APP = register(AppScreens(
    PACKAGE,
    {"files": Screen(_files), "selection": Screen(filelist.selection(IDS, _open_file, _selection_actions)),
     "selection_menu": Screen(_selection_menu), "move_to": Screen(_picker, PICKER), "details": Screen(_details),
     "delete": Screen(filelist.confirm_delete("Delete \u201c{name}\u201d?")), "open_with": Screen(openwith.chooser)},
    first="files", dark_theme=True))
