"""Markor: the file list of Documents/Markor, the new-file dialog, the editor (saved when it is
left) and deleting by long press, over the files the Markor checks read.

Ids follow gsantner/markor (the new-file dialog's `new_file_dialog__name` and
`new_file_dialog__ext` with OK as `android:id/button1`, the add button `fab_add_new_item`, the
editor `document__fragment__edit__highlighting_editor`, list rows'
`opoc_filesystem_item__title`, its second line `opoc_filesystem_item__description` with the
file's last change, date then time), as UI-automation scripts for the app use them. As in the app,
OK creates the file and opens it; the editor's text is written when the editor is left (BACK,
Navigate up, HOME: Markor saves in onPause); a long press selects a file, and the selection's
Delete asks before deleting. The name field takes the name; the extension field (".md") is
added unless the name already ends in a known extension. Simplified: no file-type spinner,
templates, sorting or search; the cursor always stays at the end of the text (typing appends;
DEL deletes the last character).
"""
from __future__ import annotations

import posixpath

from taskkit.apps.markor import EXTENSIONS, NOTES_DIR, PACKAGE
from taskkit.sim.commands.system import local_time
from taskkit.sim.gui import appdata, filelist, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
EDITOR = ".activity.DocumentActivity"
_KNOWN = (".md", ".txt", ".markdown", ".todo.txt", ".csv", ".json")


def modified_line(ui: Session, path: str, is_dir: bool, size: int) -> str:
    """A row's second line: the file's last change in the device's zone, "10/14/23, 15:34"."""
    when = local_time(ui.state, int(appdata.host(ui, path).stat().st_mtime))
    return f"{when.month}/{when.day}/{when.year % 100:02d}, {when.hour:02d}:{when.minute:02d}"


IDS = filelist.Ids(f"{ID}ui__filesystem_dialog__list", f"{ID}opoc_filesystem_item__title",
                   f"{ID}opoc_filesystem_item__description", f"{ID}action_delete_selected_items", modified_line)


def open_file(path: str):
    """The action that opens `path` in the editor with its stored text."""
    def act(ui: Session) -> None:
        ui.push("editor", focus="text", path=path, drafts={"text": appdata.read_text(ui, path)})
    return act


def _save_text(ui: Session, frame: Frame) -> None:
    path = str(frame.args["path"])
    if appdata.read_text(ui, path) != ui.draft(frame, "text") or not appdata.host(ui, path).exists():
        appdata.write_text(ui, path, ui.draft(frame, "text"))


def file_name(name: str, ext: str) -> str:
    """The name a new file gets: `ext` is added unless the name already ends in a known one."""
    name = name.strip()
    return name if name.lower().endswith(_KNOWN) else name + ext.strip()


def _create(frame: Frame):
    def act(ui: Session) -> None:
        name = file_name(ui.draft(frame, "name"), ui.draft(frame, "ext", EXTENSIONS[0]))
        if not name or "/" in name or name.startswith("."):
            return  # the dialog refuses an empty or invalid name
        path = posixpath.join(str(frame.args.get("folder", NOTES_DIR)), name)
        if not appdata.host(ui, path).exists():
            appdata.write_text(ui, path, "")
        ui.finish()
        open_file(path)(ui)
    return act


def _open_new(folder: str):
    """The add button: the new-file dialog, its extension field set to ".md"."""
    def act(ui: Session) -> None:
        ui.push("new", focus="name", folder=folder, drafts={"ext": EXTENSIONS[0]})
    return act


# --- screens ----------------------------------------------------------------------------------
def _files(ui: Session, frame: Frame) -> list[Node]:
    folder = str(frame.args.get("folder", NOTES_DIR))
    nodes, top = widgets.app_bar(ui, "Markor" if folder == NOTES_DIR else posixpath.basename(folder),
                                 up=folder != NOTES_DIR)
    nodes.append(filelist.listing(ui, frame, folder, top, IDS, open_file))
    nodes.append(widgets.fab(ui, _open_new(folder), f"{ID}fab_add_new_item", "Create a new file or folder"))
    return nodes


def _new(ui: Session, frame: Frame) -> list[Node]:
    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y1, x2, _ = box
        middle = x2 - ui.m.dp(96)
        return [widgets.edit_text(ui, frame, "name", (x1, y1, middle, y1 + ui.m.dp(56)), "Name", f"{ID}new_file_dialog__name"),
                widgets.edit_text(ui, frame, "ext", (middle + ui.m.dp(8), y1, x2, y1 + ui.m.dp(56)), "Extension",
                                  f"{ID}new_file_dialog__ext")]
    return widgets.dialog(ui, "Create a new file", body=body, body_dp=64, positive=("OK", _create(frame)))


def _editor(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    path = str(frame.args["path"])
    nodes, top = widgets.app_bar(ui, posixpath.basename(path), title_rid=f"{ID}toolbar__title_text")
    nodes.append(widgets.edit_text(ui, frame, "text", (m.dp(8), top, m.width - m.dp(8), m.content_bottom), "",
                                   f"{ID}document__fragment__edit__highlighting_editor", single_line=False))
    return nodes


APP = register(AppScreens(
    PACKAGE,
    {"files": Screen(_files), "selection": Screen(filelist.selection(IDS, open_file)), "new": Screen(_new),
     "editor": Screen(_editor, EDITOR, on_leave=_save_text),
     "delete": Screen(filelist.confirm_delete("Do you really want to delete {name}?"))},
    first="files"))
