"""A folder's files as a list, selecting by long press, and deleting the selection after a
confirmation: the flow Markor's file browser and the Files app (DocumentsUI) share, each with its
own ids and its own actions on a selection.

Rows are built from the folder's current listing (folders first, by name). A long press opens
the selection screen (the app bar says "1 selected", or the app's own title, and offers the
app's actions, Delete among them; the selected rows are marked). Where several can be selected (Markor), a tap on a row adds
it to the selection or drops it (dropping the last closes the selection); elsewhere rows take no
taps while a file is selected. Delete opens a dialog whose OK deletes the selected files (a
folder with what it holds) and returns to the list.
"""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Callable, Sequence

from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Action, Box, Node
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
    empty: str = "No items"  # what an empty folder shows
    selected: str = "{count} selected"  # the selection's title
    image: Callable[[Session, Box, str, bool, bool], Node] | None = None  # a row's picture: (row box, path, is_dir, selected)
    row: str = ""  # a row's own id (its layout's root)


def selected(ui: Session, frame: Frame) -> list[str]:
    """The paths the selection screen `frame` has selected (its draft "selection", one a line)."""
    return [path for path in ui.draft(frame, "selection").split("\n") if path]


def select(ui: Session, frame: Frame, paths: Sequence[str]) -> None:
    ui.set_draft(frame, "selection", "\n".join(paths))


def rows(ui: Session, folder: str, ids: Ids, open_file: Callable[[str], Action], selection: Sequence[str] = (),
         toggle: Callable[[str], Action] | None = None) -> list[widgets.Row]:
    """The rows of `folder`: a tap opens a folder (screen "files") or a file (`open_file`), a long
    press selects it (screen "selection"); while files are selected (`selection`) a tap runs
    `toggle(path)`, or nothing without it."""
    found = []
    for name, is_dir, size in appdata.listing(ui, folder):
        path = posixpath.join(folder, name)
        action = (lambda s, p=path: s.push("files", folder=p)) if is_dir else open_file(path)
        if selection:
            action = toggle(path) if toggle else None
        start = lambda s, p=path: s.push("selection", folder=folder, drafts={"selection": p})  # noqa: E731

        def build(box, name=name, path=path, action=action, start=start, is_dir=is_dir, size=size) -> Node:
            picture = ids.image(ui, box, path, is_dir, path in selection) if ids.image else None
            row = widgets.list_item(ui, box, name, ids.describe(ui, path, is_dir, size), action=action,
                                    long_action=None if selection else start, rid=ids.row, title_rid=ids.title,
                                    subtitle_rid=ids.subtitle, leading=picture)
            row.selected = path in selection
            return row
        found.append(widgets.Row(ui.m.dp(72), build))
    return found


def listing(ui: Session, frame: Frame, folder: str, top: int, ids: Ids, open_file: Callable[[str], Action],
            selection: Sequence[str] = (), toggle: Callable[[str], Action] | None = None, bottom: int = 0) -> Node:
    """The scrolling list of `folder` (or the empty-folder text), down to `bottom` (default the window's end)."""
    return widgets.list_or_empty(ui, frame, top, rows(ui, folder, ids, open_file, selection, toggle), ids.list, ids.empty,
                                 bottom=bottom)


Actions = Callable[[Session, Frame, list[str]], tuple[Node, ...]]


def delete_button(ui: Session, ids: Ids, paths: Sequence[str]) -> Node:
    """The selection's Delete: the confirmation dialog (screen "delete")."""
    return widgets.icon_button(ui, (0, 0, ui.m.dp(48), 0), "Delete", lambda s: s.push("delete", paths=list(paths)),
                               ids.delete)


def selection(ids: Ids, open_file: Callable[[str], Action], actions: Actions | None = None, multiple: bool = False):
    """The selection screen's builder: the title (`ids.selected`), the app bar's actions (`actions(ui, frame,
    paths)`, the first one rightmost; by default Delete alone), the list with the selection
    marked; `multiple`: a tap on a row adds it to the selection or drops it."""
    def build(ui: Session, frame: Frame) -> list[Node]:
        paths = selected(ui, frame)
        views = actions(ui, frame, paths) if actions is not None else (delete_button(ui, ids, paths),)
        nodes, top = widgets.app_bar(ui, ids.selected.format(count=len(paths)), actions=views)
        toggle = toggler(frame) if multiple else None
        return nodes + [listing(ui, frame, str(frame.args["folder"]), top, ids, open_file, paths, toggle)]
    return build


def toggler(frame: Frame) -> Callable[[str], Action]:
    """The selection screen `frame`'s tap on a row: add its path to the selection or drop it
    (dropping the last closes the selection)."""
    def for_path(path: str) -> Action:
        def act(ui: Session) -> None:
            paths = selected(ui, frame)
            paths = [p for p in paths if p != path] if path in paths else [*paths, path]
            if paths:
                select(ui, frame, paths)
            else:
                ui.finish()
        return act
    return for_path


def _delete(paths: Sequence[str]) -> Action:
    def act(ui: Session) -> None:
        for path in paths:
            appdata.remove(ui, path)
        ui.finish()  # the dialog
        ui.finish()  # the selection
    return act


def confirm_delete(message: str | Callable[[list[str]], str], title: str = "Delete", owner: str = widgets.FRAMEWORK):
    """The delete dialog's builder; `message` is formatted with the selected files' `name`s, or
    made from their paths when it is a function; `owner` as `widgets.dialog`'s."""
    def build(ui: Session, frame: Frame) -> list[Node]:
        paths = [str(path) for path in frame.args["paths"]]
        names = ", ".join(posixpath.basename(path) for path in paths)
        text = message(paths) if callable(message) else message.format(name=names)
        return widgets.dialog(ui, title, owner=owner, message=text, positive=("OK", _delete(paths)))
    return build


def move_selection(frame: Frame) -> Action:
    """Move the selected files (`paths`) into the folder the picker shows (`at`), leaving any whose
    name is taken there; the picker and the selection close."""
    def act(ui: Session) -> None:
        folder = str(frame.args["at"])
        for path in (str(p) for p in frame.args["paths"]):
            target = posixpath.join(folder, posixpath.basename(path))
            if target != path and not appdata.host(ui, target).exists():
                appdata.rename(ui, path, target)
        ui.finish()  # the picker
        ui.finish()  # the selection
    return act
