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
chooser (taskkit/sim/gui/openwith.py). The toolbar's navigation button at a root is "Show roots"
(`drawer_open`), the drawer (fragment_roots.xml `roots_list`, item_root.xml `android:id/title`)
lists the roots Images, Videos, Audio (MediaDocumentsProvider's `images_root`, `videos_root`,
`audio_root`), Downloads (DownloadStorageProvider's `downloads`) and the storage; opening one
logs what DirectoryFragment.showDirectory logs on a debuggable build (`if (DEBUG) Log.d(TAG,
"Showing directory: " + DocumentInfo.debugString(doc))`, TAG "DirectoryFragment", DEBUG =
SharedMinimal's `!"user".equals(Build.TYPE)`): the root document's URI,
`content://AUTHORITY/document/ID` (DocumentsContract.buildDocumentUri). A media root lists the
storage's files of its kind, Downloads the Download folder. Simplified: no Recent, grid view,
search or sort, no other provider; opening a folder from a list logs no line; one file is
selected at a time; BACK closes the picker (the app goes up one folder); a tap on any other
file shows its name, size and folder instead of opening it in another app.
"""
from __future__ import annotations

import dataclasses
import posixpath
import urllib.parse

from taskkit.apps.files import DOWNLOAD_DIR, PACKAGE, STORAGE_ROOT
from taskkit.sim.commands.activity import app_pid
from taskkit.sim.logbuffer import append_log
from taskkit.sim.gui import appdata, filelist, openwith, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
PICKER = "com.android.documentsui.picker.PickActivity"
IDS = filelist.Ids(f"{ID}dir_list", "android:id/title", f"{ID}size", f"{ID}action_menu_delete")
MEDIA, DOWNLOADS = "com.android.providers.media.documents", "com.android.providers.downloads.documents"
STORAGE = "com.android.externalstorage.documents"
# the drawer's roots: root id (its document's id) -> (title, authority, the extensions it lists;
# None: the Download folder)
ROOTS = {
    "images_root": ("Images", MEDIA, (".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".bmp")),
    "videos_root": ("Videos", MEDIA, (".mp4", ".3gp", ".webm", ".mkv")),
    "audio_root": ("Audio", MEDIA, (".mp3", ".m4a", ".ogg", ".wav", ".aac", ".flac", ".opus")),
    "downloads": ("Downloads", DOWNLOADS, None),
}


def _root_name(ui: Session) -> str:
    return str(ui.state.config.get("props", {}).get("ro.product.model") or "Internal storage")


def _open_file(path: str):
    return lambda ui: ui.push("open_with" if openwith.viewers(path) else "details", path=path)


def show_directory(ui: Session, authority: str, document_id: str) -> None:
    """DirectoryFragment's `Showing directory: URI` line for the document `document_id`."""
    encoded = urllib.parse.quote(document_id, safe="-_.!~*'()")  # Uri.encode, as Uri.Builder.appendPath
    uri = f"content://{authority}/document/{encoded}"
    append_log(ui.state, "D", "DirectoryFragment", f"Showing directory: {uri}", pid=app_pid(PACKAGE))


def _drawer_button(ui: Session) -> Node:
    return widgets.icon_button(ui, (0, 0, 0, 0), "Show roots", lambda s: s.push("roots"))


def _files(ui: Session, frame: Frame) -> list[Node]:
    folder = str(frame.args.get("folder", STORAGE_ROOT))
    at_root = folder == STORAGE_ROOT
    title = _root_name(ui) if at_root else posixpath.basename(folder)
    nodes, top = widgets.app_bar(ui, title, up=_drawer_button(ui) if at_root else True)
    return nodes + [filelist.listing(ui, frame, folder, top, IDS, _open_file)]


def _open_root(root: str | None):
    """A drawer row: the root's line, then its list in place of the drawer (None: the storage)."""
    def act(ui: Session) -> None:
        if root is None:
            show_directory(ui, STORAGE, "primary:")
            ui.replace("files", folder=STORAGE_ROOT)
        else:
            show_directory(ui, ROOTS[root][1], root)
            ui.replace("root", root=root)
    return act


def _roots(ui: Session, frame: Frame) -> list[Node]:
    """The navigation drawer: one row per root."""
    m = ui.m
    entries = [(title, root) for root, (title, _, _) in ROOTS.items()] + [(_root_name(ui), None)]
    rows = [widgets.Row(m.dp(48), lambda box, t=t, r=r: widgets.list_item(ui, box, t, action=_open_root(r),
                                                                         title_rid="android:id/title"))
            for t, r in entries]
    return [widgets.scroll_list(ui, frame, "roots", (0, m.status_bar, m.width * 3 // 4, m.content_bottom), rows,
                                rid=f"{ID}roots_list")]


def _media(ui: Session, folder: str, extensions: tuple[str, ...]) -> list[str]:
    """The files under `folder` (any depth, Android/ left out) whose names end in one of `extensions`."""
    found = []
    for name, is_dir, _ in appdata.listing(ui, folder):
        path = posixpath.join(folder, name)
        if is_dir and path != f"{STORAGE_ROOT}/Android":
            found += _media(ui, path, extensions)
        elif not is_dir and name.lower().endswith(extensions):
            found.append(path)
    return found


def _root(ui: Session, frame: Frame) -> list[Node]:
    """A root's list: the Download folder, or the storage's files of the media root's kind."""
    title, _, extensions = ROOTS[str(frame.args["root"])]
    nodes, top = widgets.app_bar(ui, title, up=_drawer_button(ui))
    if extensions is None:
        return nodes + [filelist.listing(ui, frame, DOWNLOAD_DIR, top, IDS, _open_file)]
    paths = sorted(_media(ui, STORAGE_ROOT, extensions), key=lambda p: posixpath.basename(p).casefold())
    rows = [widgets.Row(ui.m.dp(72), lambda box, p=p: widgets.list_item(
        ui, box, posixpath.basename(p), f"{appdata.host(ui, p).stat().st_size} B", action=_open_file(p),
        title_rid="android:id/title", subtitle_rid=f"{ID}size")) for p in paths]
    return nodes + [widgets.list_or_empty(ui, frame, top, rows, IDS.list, IDS.empty)]


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
     "roots": Screen(_roots), "root": Screen(_root),
     "delete": Screen(filelist.confirm_delete("Delete \u201c{name}\u201d?")), "open_with": Screen(openwith.chooser)},
    first="files", dark_theme=True))
