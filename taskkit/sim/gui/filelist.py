"""A folder's files as a list, selecting one by long press, and deleting it after a confirmation:
the flow Markor's file browser and the Files app (DocumentsUI) share, each with its own ids.

Rows are built from the folder's current listing (folders first, by name). A long press opens
the selection screen (the app bar says "1 selected" and offers Delete, the row is selected);
Delete opens a dialog whose OK deletes the file and returns to the list.
"""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Callable

from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Action, Node
from taskkit.sim.gui.session import Session


def size_line(ui: Session, path: str, is_dir: bool, size: int) -> str:
    """A row's second line: "Folder", or the file's size."""
    return "Folder" if is_dir else f"{size} B"


@dataclasses.dataclass(frozen=True)
class Ids:
    """An app's resource ids for its file list, and what a row's second line says."""

    list: str
    title: str
    subtitle: str
    delete: str
    describe: Callable[[Session, str, bool, int], str] = size_line


def rows(ui: Session, folder: str, ids: Ids, open_file: Callable[[str], Action], selected: str | None = None) -> list[widgets.Row]:
    """The rows of `folder`: a tap opens a folder (screen "files") or a file (`open_file`), a long
    press selects it (screen "selection"); while a file is selected rows take no taps."""
    found = []
    for name, is_dir, size in appdata.listing(ui, folder):
        path = posixpath.join(folder, name)
        action = (lambda s, p=path: s.push("files", folder=p)) if is_dir else open_file(path)
        select = lambda s, p=path: s.push("selection", folder=folder, path=p)  # noqa: E731

        def build(box, name=name, path=path, action=action, select=select, is_dir=is_dir, size=size) -> Node:
            row = widgets.list_item(ui, box, name, ids.describe(ui, path, is_dir, size),
                                    action=None if selected else action, long_action=None if selected else select,
                                    title_rid=ids.title, subtitle_rid=ids.subtitle)
            row.selected = path == selected
            return row
        found.append(widgets.Row(ui.m.dp(72), build))
    return found


def listing(ui: Session, frame: Frame, folder: str, top: int, ids: Ids, open_file: Callable[[str], Action],
            selected: str | None = None) -> Node:
    """The scrolling list of `folder` (or the empty-folder text)."""
    return widgets.list_or_empty(ui, frame, top, rows(ui, folder, ids, open_file, selected), ids.list, "No items")


def selection(ids: Ids, open_file: Callable[[str], Action]):
    """The selection screen's builder: "1 selected", Delete, the list with the file selected."""
    def build(ui: Session, frame: Frame) -> list[Node]:
        path = str(frame.args["path"])
        delete = widgets.icon_button(ui, (0, 0, ui.m.dp(48), 0), "Delete", lambda s: s.push("delete", path=path), ids.delete)
        nodes, top = widgets.app_bar(ui, "1 selected", actions=(delete,))
        return nodes + [listing(ui, frame, str(frame.args["folder"]), top, ids, open_file, selected=path)]
    return build


def _delete(path: str) -> Action:
    def act(ui: Session) -> None:
        appdata.remove(ui, path)
        ui.finish()  # the dialog
        ui.finish()  # the selection
    return act


def confirm_delete(message: str):
    """The delete dialog's builder; `message` is formatted with the file's `name`."""
    def build(ui: Session, frame: Frame) -> list[Node]:
        path = str(frame.args["path"])
        return widgets.dialog(ui, "Delete", message=message.format(name=posixpath.basename(path)),
                              positive=("OK", _delete(path)))
    return build
