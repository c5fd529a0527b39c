"""Joplin: all notes, the notebooks and the notes of one, and a note (its notebook, title, to-do
checkbox and body), read from `notes` and `folders` in joplin.sqlite.

Joplin's mobile app is React Native: its views carry no resource ids, so agents find them by
text and description, as here (the note list's titles, to-dos with a checkbox, "Notebooks"
for the side menu's list, the note's notebook shown above its title). Simplified: the side
menu is a screen; notes are shown as their Markdown source; no editing, search, tags or sync
(the built-in Joplin tasks only ask about notes).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps.joplin import DB_PATH, FOLDERS_TABLE, NOTES_TABLE, PACKAGE, is_completed
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

CHECKBOX = "android.widget.CheckBox"


def _folders(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, DB_PATH, f"SELECT id, title FROM {FOLDERS_TABLE} ORDER BY title COLLATE NOCASE, id")


def _note_row(ui: Session, note: dict[str, Any]) -> widgets.Row:
    m = ui.m

    def build(box: tuple[int, int, int, int]) -> Node:
        row = widgets.list_item(ui, box, str(note["title"] or ""), action=lambda s: s.push("note", note=str(note["id"])))
        if int(note["is_todo"]):
            row.children.insert(0, Node(CHECKBOX, checkable=True, checked=is_completed(note), focusable=True,
                                        bounds=(box[0] + m.dp(16), box[1] + m.dp(16), box[0] + m.dp(56), box[3] - m.dp(16))))
        return row
    return widgets.Row(m.dp(64), build)


def _notes(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    folder = frame.args.get("folder")
    where, params = ("WHERE parent_id = ?", [folder]) if folder else ("", [])
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {NOTES_TABLE} {where} ORDER BY user_updated_time DESC, id", params)
    title = next((str(f["title"]) for f in _folders(ui) if f["id"] == folder), "All notes") if folder else "All notes"
    menu = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Notebooks", lambda s: s.push("notebooks"))
    nodes, top = widgets.app_bar(ui, title, up=bool(folder), actions=(menu,))
    rows = [_note_row(ui, n) for n in found]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, "", "There are currently no notes."))
    return nodes


def _notebooks(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "Notebooks")
    rows = [widgets.Row(m.dp(56), lambda b, f=f: widgets.list_item(
        ui, b, str(f["title"]), action=lambda s, i=f["id"]: s.replace("notes", folder=str(i)))) for f in _folders(ui)]
    rows.insert(0, widgets.Row(m.dp(56), lambda b: widgets.list_item(ui, b, "All notes", action=lambda s: s.finish())))
    nodes.append(widgets.scroll_list(ui, frame, "list", (0, top, m.width, m.content_bottom), rows))
    return nodes


def _note(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {NOTES_TABLE} WHERE id = ?", [str(frame.args.get("note", ""))])
    nodes, top = widgets.app_bar(ui, "")
    if not found:
        return nodes
    note = found[0]
    folder = next((str(f["title"]) for f in _folders(ui) if f["id"] == note["parent_id"]), "")
    y = top + m.dp(8)
    nodes.append(widgets.text(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(40)), folder, desc="Notebook", size_dp=14))
    y += m.dp(48)
    left = m.dp(16)
    if int(note["is_todo"]):
        nodes.append(Node(CHECKBOX, checkable=True, checked=is_completed(note), focusable=True, content_desc="To-do",
                          bounds=(m.dp(16), y, m.dp(56), y + m.dp(48))))
        left = m.dp(64)
    nodes.append(widgets.text(ui, (left, y, m.width - m.dp(16), y + m.dp(48)), str(note["title"] or ""), size_dp=22))
    y += m.dp(56)
    nodes.append(widgets.text(ui, (m.dp(16), y, m.width - m.dp(16), m.content_bottom), str(note["body"] or ""), size_dp=16))
    return nodes


APP = register(AppScreens(PACKAGE, {"notes": Screen(_notes), "notebooks": Screen(_notebooks), "note": Screen(_note)},
                          first="notes"))
