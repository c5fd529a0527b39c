"""Tasks.org: the task list (open tasks, then the completed ones) and a task's details (title,
due date, priority, description, completion), read from the app's `tasks` table.

Ids and labels follow Tasks.org as UI-automation scripts for it use them (`org.tasks:id/fab`
"Create new task", rows' `title`, `body_empty` for an empty list, the editor's `title` "Task
name"). Simplified: one list (the app's "My Tasks" filter with completed tasks shown in a
"Completed" section at its end; hidden and deleted tasks are left out as the app leaves them
out); the details are read-only (the IR tasks read them; no built-in task edits a task).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps.tasks_org import (DB_PATH, KEY, PACKAGE, TABLE, format_due_date, format_due_time, has_due_time,
                                    importance_name, is_completed)
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from taskkit.apps.common import format_date, from_ms

ID = f"{PACKAGE}:id/"


def tasks(ui: Session) -> list[dict[str, Any]]:
    """Every task the list shows: not deleted, open ones first by due date."""
    return appdata.rows(ui, DB_PATH, f"SELECT * FROM `{TABLE}` WHERE deleted = 0 ORDER BY completed > 0, "
                                     f"CASE WHEN dueDate = 0 THEN 1 ELSE 0 END, dueDate, `{KEY}`")


def _due(task: dict[str, Any]) -> str:
    if not task["dueDate"]:
        return ""
    return format_due_date(task) + (f" {format_due_time(task)}" if has_due_time(int(task["dueDate"])) else "")


def _row(ui: Session, task: dict[str, Any]) -> widgets.Row:
    return widgets.Row(ui.m.dp(72), lambda box: widgets.list_item(
        ui, box, str(task["title"] or ""), _due(task), action=lambda s: s.push("details", task=int(task[KEY])),
        rid=f"{ID}rowBody", title_rid=f"{ID}title", subtitle_rid=f"{ID}due_date"))


def _list(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "My Tasks", up=False)
    found = tasks(ui)
    rows = [_row(ui, t) for t in found if not is_completed(t)]
    done = [_row(ui, t) for t in found if is_completed(t)]
    if done:
        rows.append(widgets.Row(m.dp(48), lambda b: widgets.text(ui, (m.dp(16), b[1], b[2], b[3]), "Completed", f"{ID}header")))
        rows += done
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}recycler_view", "No tasks", f"{ID}body_empty"))
    nodes.append(widgets.fab(ui, lambda s: None, f"{ID}fab", "Create new task"))
    return nodes


def _details(ui: Session, frame: Frame) -> list[Node]:
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM `{TABLE}` WHERE `{KEY}` = ?", [int(frame.args.get("task", 0))])
    nodes, top = widgets.app_bar(ui, "")
    if not found:
        return nodes
    task = found[0]
    completed = format_date(from_ms(int(task["completed"]))) if is_completed(task) else "No"
    lines, _ = widgets.details(ui, top, [
        ("Task name", str(task["title"] or ""), f"{ID}title"), ("Due date", _due(task) or "No date", f"{ID}due_date"),
        ("Priority", importance_name(int(task["importance"])).capitalize(), f"{ID}priority"),
        ("Description", str(task["notes"] or ""), f"{ID}notes"), ("Completed", completed, f"{ID}completed")])
    return nodes + lines


APP = register(AppScreens(PACKAGE, {"list": Screen(_list), "details": Screen(_details)}, first="list"))
