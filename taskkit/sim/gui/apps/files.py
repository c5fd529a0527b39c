"""Files (DocumentsUI): the device's shared storage as folders and files, a file's details, and
deleting a file by long press, over the files the checks read.

Ids follow AOSP DocumentsUI (packages/apps/DocumentsUI, res/layout/item_doc_list.xml: rows
whose name is `android:id/title` with `size` beside it; res/layout/fragment_directory.xml
`dir_list`; res/menu/action_mode_menu.xml `action_menu_delete` "Delete"; the delete dialog asks
"Delete “NAME”?" with OK). The list opens on the storage root, named after the device model as
the app names it. A tap on a file an app views (an .html page) opens the "Open with" chooser
(taskkit/sim/gui/openwith.py). Simplified: no navigation drawer, Recent, grid view, search or
sort; a tap on any other file shows its name, size and folder instead of opening it in another app.
"""
from __future__ import annotations

import posixpath

from taskkit.apps.files import PACKAGE, STORAGE_ROOT
from taskkit.sim.gui import appdata, filelist, openwith, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
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


def _details(ui: Session, frame: Frame) -> list[Node]:
    path = str(frame.args["path"])
    nodes, top = widgets.app_bar(ui, posixpath.basename(path))
    size = appdata.host(ui, path).stat().st_size if appdata.host(ui, path).is_file() else 0
    lines, _ = widgets.details(ui, top, [("Name", posixpath.basename(path), f"{ID}name"), ("Size", f"{size} B", f"{ID}size"),
                                         ("Folder", posixpath.dirname(path).replace(STORAGE_ROOT, _root_name(ui), 1), f"{ID}path")])
    return nodes + lines


APP = register(AppScreens(
    PACKAGE,
    {"files": Screen(_files), "selection": Screen(filelist.selection(IDS, _open_file)), "details": Screen(_details),
     "delete": Screen(filelist.confirm_delete("Delete \u201c{name}\u201d?")), "open_with": Screen(openwith.chooser)},
    first="files", dark_theme=True))
