"""Pro Expense: the expense list, an expense's details, the entry form (name, amount, category,
note) and deleting by long press, over the `expense` table of accounting.db the checks read.

Ids and labels follow arduia/ProExpense (app/src/main/res/layout/frag_expense_entry.xml:
`tv_entry_title`, `btn_entry_close`, `edt_name` "Name", `edt_amount` "Amount", the category row
`rv_category`, `edt_note` "Note", `btn_save` "Save"; item_expense.xml: `cd_expense` with
`tv_name`, `tv_date`, `tv_amount`; sheet_expense_detail.xml: `tv_name_value`,
`tv_amount_value`, `tv_date_value`, `tv_note_value`, `btn_edit` "Edit"; the add button
`fb_main_add`, which AndroidWorld's expense set-up also waits for).

Save inserts (or, from Edit, updates) the row as the app's Room DAO does: the amount typed in
dollars is stored in cents, the category by its number, created and modified at the device
clock. Simplified: one list (the app's home shows recent expenses and a separate list page;
here the home is the full list, newest first); a long press asks to delete that one expense
(the app enters a multi-select mode first); the category is a row of chips, one per category.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from taskkit.apps.common import format_amount
from taskkit.apps.expense import CATEGORIES, DB_PATH, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
_FIELDS = (widgets.Field("name", "Name", f"{ID}edt_name"), widgets.Field("amount", "Amount", f"{ID}edt_amount"))
_NOTE = (widgets.Field("note", "Note", f"{ID}edt_note", height_dp=100),)


# --- data ---------------------------------------------------------------------------------------
def expenses(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} ORDER BY created_date DESC, {KEY} DESC")


def expense(ui: Session, expense_id: int) -> dict[str, Any] | None:
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE {KEY} = ?", [expense_id])
    return found[0] if found else None


def _date(ms: int | None) -> str:
    when = datetime.fromtimestamp((ms or 0) / 1000, timezone.utc)
    return f"{when.day}/{when.month}/{when.year}"


def parse_cents(text: str) -> int | None:
    """Dollars as typed ("12.5", "$1,234.56") in cents; None if it is not an amount."""
    cleaned = text.strip().lstrip("$").replace(",", "")
    try:
        value = round(float(cleaned) * 100)
    except ValueError:
        return None
    return value if value > 0 else None


def _save(frame: Frame):
    def act(ui: Session) -> None:
        name, note = ui.draft(frame, "name").strip(), ui.draft(frame, "note").strip()
        cents = parse_cents(ui.draft(frame, "amount"))
        category = int(ui.draft(frame, "category") or 1)
        if not name or cents is None:
            return  # the app refuses an entry without a name or an amount
        now = appdata.now_ms(ui)
        values = {"name": name, "amount": cents, "category": category, "note": note, "modified_date": now}
        editing = frame.args.get("expense")
        if editing is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(editing), values)
        else:
            appdata.insert(ui, DB_PATH, TABLE, {**values, "created_date": now})
        ui.finish()
    return act


def _delete(expense_id: int):
    def act(ui: Session) -> None:
        appdata.delete(ui, DB_PATH, TABLE, KEY, expense_id)
        ui.finish()
    return act


# --- screens ----------------------------------------------------------------------------------
def _home(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "Pro Expense", up=False, rid=f"{ID}tb_main")
    rows = [widgets.Row(m.dp(80), lambda b, e=e: widgets.list_item(
        ui, b, str(e["name"] or ""), _date(e["created_date"]), trailing=format_amount(int(e["amount"])),
        action=lambda s, i=e[KEY]: s.push("detail", expense=int(i)),
        long_action=lambda s, i=e[KEY]: s.push("delete", expense=int(i)),
        rid=f"{ID}cd_expense", title_rid=f"{ID}tv_name", subtitle_rid=f"{ID}tv_date",
        trailing_rid=f"{ID}tv_amount")) for e in expenses(ui)]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}rv_expense", "No expense logs", f"{ID}tv_no_expense"))
    nodes.append(widgets.fab(ui, lambda s: s.push("entry", focus="name"), f"{ID}fb_main_add", "Add"))
    return nodes


def _detail(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    row = expense(ui, int(frame.args.get("expense", 0)))
    nodes, top = widgets.app_bar(ui, "Expense Detail", title_rid=f"{ID}tv_expense_detail")
    if row is None:
        return nodes
    pairs = [("Name", str(row["name"] or ""), "tv_name_value"), ("Amount", format_amount(int(row["amount"])), "tv_amount_value"),
             ("Category", CATEGORIES.get(int(row["category"]), ""), "tv_category_value"),
             ("Date", _date(row["created_date"]), "tv_date_value"), ("Note", str(row["note"] or ""), "tv_note_value")]
    lines, y = widgets.details(ui, top, [(label, value, f"{ID}{rid}") for label, value, rid in pairs])
    nodes += lines
    edit = lambda s: _open_editor(s, row)  # noqa: E731
    nodes.append(widgets.button(ui, (m.dp(16), y + m.dp(16), m.width - m.dp(16), y + m.dp(64)), "Edit", edit, f"{ID}btn_edit"))
    return nodes


def _open_editor(ui: Session, row: dict[str, Any]) -> None:
    ui.replace("entry", focus="name", expense=int(row[KEY]))
    _, _, frame = ui.top()
    assert frame is not None
    whole, cents = divmod(int(row["amount"]), 100)
    for name, value in (("name", row["name"]), ("amount", f"{whole}.{cents:02d}"), ("note", row["note"]),
                        ("category", str(row["category"]))):
        ui.set_draft(frame, name, str(value or ""))


def _chip(ui: Session, frame: Frame, box: tuple[int, int, int, int], number: int) -> Node:
    chosen = int(ui.draft(frame, "category") or 1) == number
    return Node("android.widget.TextView", text=CATEGORIES[number], resource_id=f"{ID}tv_category", bounds=box,
                clickable=True, focusable=True, selected=chosen, text_size=ui.m.dp(14),
                background=widgets.ACCENT if chosen else (230, 230, 230),
                action=lambda s: s.set_draft(frame, "category", str(number)))


def _entry(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    close = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Close", Session.finish, f"{ID}btn_entry_close")
    title = "Update Expense" if frame.args.get("expense") is not None else "Expense Entry"
    nodes, top = widgets.app_bar(ui, title, up=False, title_rid=f"{ID}tv_entry_title", actions=(close,))
    fields, y = widgets.form(ui, frame, _FIELDS, top)
    nodes += fields
    chips, x, row_top = [], m.dp(16), y
    for number in sorted(CATEGORIES):  # chips wrap onto as many rows as they need
        width = m.dp(24 + 9 * len(CATEGORIES[number]))
        if x + width > m.width - m.dp(16):
            x, y = m.dp(16), y + m.dp(44)
        chips.append(_chip(ui, frame, (x, y, x + width, y + m.dp(36)), number))
        x += width + m.dp(8)
    y += m.dp(44)
    nodes.append(Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}rv_category", bounds=(0, row_top, m.width, y), children=chips))
    note, y = widgets.form(ui, frame, _NOTE, y - m.dp(16))
    nodes += note
    nodes.append(widgets.button(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(48)), "Save", _save(frame), f"{ID}btn_save"))
    return nodes


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    expense_id = int(frame.args.get("expense", 0))
    row = expense(ui, expense_id)
    name = str(row["name"]) if row else ""
    return widgets.dialog(ui, "Delete", message=f"Delete the expense \u201c{name}\u201d?",
                          positive=("Delete", _delete(expense_id)))


APP = register(AppScreens(
    PACKAGE,
    {"home": Screen(_home), "detail": Screen(_detail), "entry": Screen(_entry), "delete": Screen(_confirm_delete)},
    first="home"))
