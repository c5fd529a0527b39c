"""Joplin: all notes, the notebooks and the notes of one, and a note (its notebook, title, to-do
checkbox and body), read from `notes` and `folders` in joplin.sqlite.

Joplin's mobile app is React Native: its views carry no resource ids, so agents find them by
text and description, as here (the note list's titles, to-dos with a checkbox, "Notebooks"
for the side menu's list, the note's notebook shown above its title). Simplified: the side
menu is a screen; notes are shown as their Markdown source; no editing, tags or sync (the
built-in Joplin tasks only ask about notes).

Search (laurent22/joplin, packages/app-mobile: components/ScreenHeader's search button, described
"Search"; components/screens/search.tsx at 0a4352e, the 2.x screen): a screen titled "Search"
with a text field that has the focus, a "Clear" button and the notes found, listed as the note
list lists them. It searches as the query changes, with the full-text engine
(SearchEngineUtils.notesForQuery) over `notes_normalized`, the copy of each note the app's
search reads: a note missing there is not found. An empty query finds nothing. Simplified: a
note is found when every word of the query is a word of its normalized title or body (FTS
tokens; Joplin's filters such as `tag:` and wildcards are not modelled), ranked by how many of
the query's words its title holds, then as the note list orders them (Joplin ranks by BM25 with
the title weighted).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.apps.joplin import DB_PATH, FOLDERS_TABLE, NORMALIZED_TABLE, NOTES_TABLE, PACKAGE, is_completed
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
    search = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Search", lambda s: s.push("search", focus="query"))
    nodes, top = widgets.app_bar(ui, title, up=bool(folder), actions=(menu, search))
    rows = [_note_row(ui, n) for n in found]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, "", "There are currently no notes."))
    return nodes


def found_notes(ui: Session, query: str) -> list[dict[str, Any]]:
    """The notes Joplin's search lists for `query` (see the module's docstring)."""
    words = appdata.search_tokens(query)  # (case and accents folded, as notes_normalized holds them)
    if not words:
        return []
    rows = appdata.rows(ui, DB_PATH, f"SELECT n.*, s.title AS indexed_title, s.body AS indexed_body "
                                     f"FROM {NOTES_TABLE} n JOIN {NORMALIZED_TABLE} s ON s.id = n.id "
                                     "ORDER BY n.user_updated_time DESC, n.id")  # as the note list
    ranked = []
    for position, row in enumerate(rows):
        title = set(appdata.search_tokens(str(row.pop("indexed_title") or "")))
        body = set(appdata.search_tokens(str(row.pop("indexed_body") or "")))
        if all(word in title or word in body for word in words):
            ranked.append((-sum(word in title for word in words), position, row))
    return [row for *_, row in sorted(ranked, key=lambda item: item[:2])]


def _search(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    back = dataclasses.replace(widgets.icon_button(ui, (0, 0, 0, 0), "Back", Session.finish), icon="arrow_back")
    nodes, top = widgets.app_bar(ui, "Search", up=back)  # ScreenHeader's back button: Ionicons arrow-back
    bottom = top + m.dp(56)
    field = widgets.edit_text(ui, frame, "query", (0, top, m.width - m.dp(56), bottom), "")
    box = (m.width - m.dp(56), top, m.width, bottom)
    glyph = Node("android.widget.ImageView", bounds=box, icon="close")  # Ionicons close-circle
    clear = Node("android.view.ViewGroup", content_desc="Clear", bounds=box, clickable=True, focusable=True,
                 action=lambda s: s.set_draft(frame, "query", ""), children=[glyph])  # a TouchableHighlight
    nodes += [field, clear]
    rows = [_note_row(ui, n) for n in found_notes(ui, ui.draft(frame, "query"))]
    nodes.append(widgets.scroll_list(ui, frame, "results", (0, bottom, m.width, m.content_bottom), rows))
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


APP = register(AppScreens(PACKAGE, {"notes": Screen(_notes), "notebooks": Screen(_notebooks), "note": Screen(_note),
                                    "search": Screen(_search)},
                          first="notes"))
