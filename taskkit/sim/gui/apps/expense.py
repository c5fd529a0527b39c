"""Pro Expense: the expense list, an expense's details, the entry form (name, amount, category, note)
and deleting by long press, over the `expense` table of accounting.db the checks read.

Ids and labels follow arduia/ProExpense v1.0.0-beta05 (res/layout/frag_expense_entry.xml: the
`toolbar` titled "Expense Entry", or "Update Data" with the button "Update" when editing
(ExpenseEntryFragment.changeToUpdateMode), `edt_name` "Name", `edt_amount` "Amount", the categories
`rv_category` of item_category.xml cards `cd_category` named by `tv_name`, `edt_note` "Note",
`btn_save` "Save"; item_expense_recent.xml: `cd_expense` with the category's icon `imv_category` in
its circle `cv_category`, `tv_name`, `tv_date`, `tv_amount`;
expense_detail_dialog.xml: "Expense Detail", `tv_name_value`, `tv_amount_value`, `tv_date_value`,
`tv_note_value`, `btn_edit` "Edit"; frag_delete_confirm_dialog.xml: "Delete Items", `tv_items`
("item " for one, DeleteConfirmFragment), "will be deleted!" and `btn_confirm` "Confirm"; the add
button `fb_main_add`, which AndroidWorld's expense set-up also waits for).

Save inserts (or, from Edit, updates) the row as the app's Room DAO does: the amount typed in
dollars is stored in cents, the category by its number, created and modified at the device clock.
Simplified: one list (the app's home shows recent expenses and a separate list page; here the home
is the full list, newest first; the navigation drawer's destinations other than Home do nothing); a
long press asks to delete that one expense (the app enters a multi-select mode first); the category
is a row of cards, one per category; the details are a screen, not a bottom sheet, without its
category icon.

Pinned: AndroidWorld installs com.arduia.expense_11.apk; this model follows arduia/ProExpense
v1.0.0-beta05 (versionCode 11).
"""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from typing import Any

from taskkit.apps.common import format_amount
from taskkit.apps.expense import CATEGORIES, DB_PATH, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("arduia/ProExpense", "v1.0.0-beta05", 11)
ID = f"{PACKAGE}:id/"
CARD = "androidx.cardview.widget.CardView"
_DESTINATIONS = ("Home", "Expense Logs", "Statistics", "Backup", "Feedback", "About", "Settings")  # menu_home.xml
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
    nodes, top = widgets.app_bar(ui, "Home", rid=f"{ID}toolbar")  # frag_home.xml's app:title and ic_menu
    bar = nodes[0]
    menu = dataclasses.replace(bar.children[0], content_desc="", icon="menu", action=lambda s: s.push("drawer"))
    nodes[0] = dataclasses.replace(bar, children=[menu, *bar.children[1:]])
    rows = [widgets.Row(m.dp(80), lambda b, e=e: widgets.list_item(
        ui, b, str(e["name"] or ""), _date(e["created_date"]), trailing=format_amount(int(e["amount"])),
        action=lambda s, i=e[KEY]: s.push("detail", expense=int(i)),
        long_action=lambda s, i=e[KEY]: s.push("delete", expense=int(i)),
        rid=f"{ID}cd_expense", title_rid=f"{ID}tv_name", subtitle_rid=f"{ID}tv_date",
        trailing_rid=f"{ID}tv_amount", leading=category_icon(ui, b, int(e["category"] or 1)),
        indent_dp=16 + 55 + 16)) for e in expenses(ui)]  # tv_name after cv_category and its 16 dp margins
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}rv_expense", "No Expense Logs", f"{ID}tv_no_expense_logs"))
    nodes.append(widgets.fab(ui, lambda s: s.push("entry", focus="name"), f"{ID}fb_main_add"))  # no content description in activ_main.xml
    return nodes


# ExpenseCategoryProviderImpl.getCategoryData: each category's drawable (pictures.DRAWABLES)
_CATEGORY_DRAWABLES = {1: "ic_outcome", 2: "ic_income", 3: "ic_food", 4: "ic_household", 5: "ic_social",
                       6: "ic_entertainment", 7: "ic_transportation", 8: "ic_clothes", 9: "ic_healthcare",
                       10: "ic_education", 11: "ic_donation"}
_CATEGORY_CIRCLE = (0xB3, 0xE5, 0xFC)  # item_expense_recent.xml cardBackgroundColor


def category_icon(ui: Session, row: Box, category: int) -> Node:
    """item_expense_recent.xml's `cv_category` (a 55 dp circular card, 16 dp in, centred on the row)
    holding `imv_category` (30 dp), the category's drawable (RecentListAdapter)."""
    m = ui.m
    x, middle = row[0] + m.dp(16), (row[1] + row[3]) // 2
    card = (x, middle - m.dp(55) // 2, x + m.dp(55), middle - m.dp(55) // 2 + m.dp(55))
    centre = ((card[0] + card[2]) // 2, (card[1] + card[3]) // 2)
    icon = (centre[0] - m.dp(15), centre[1] - m.dp(15), centre[0] + m.dp(15), centre[1] + m.dp(15))
    name = _CATEGORY_DRAWABLES.get(category, "ic_outcome")
    image = Node("android.widget.ImageView", resource_id=f"{ID}imv_category", bounds=icon,
                 image=pictures.resource(f"expense/{name}"))
    return Node(CARD, resource_id=f"{ID}cv_category", bounds=card, children=[image],
                paint=(Painted(card, fill=_CATEGORY_CIRCLE, oval=True),))


def _drawer(ui: Session, frame: Frame) -> list[Node]:
    """The navigation drawer `nv_main` (activ_main.xml): layout_header.xml, then menu_home.xml;
    Home closes it, the other destinations are there to be found and do nothing."""
    m = ui.m
    right, y = m.width * 4 // 5, m.status_bar
    header = [widgets.text(ui, (m.dp(16), y + m.dp(72), right - m.dp(16), y + m.dp(104)), "Pro Expense",
                           f"{ID}tv_app_name", size_dp=20),
              widgets.text(ui, (m.dp(16), y + m.dp(104), right - m.dp(16), y + m.dp(128)), "beta"),
              widgets.icon_button(ui, (right - m.dp(56), y + m.dp(8), right - m.dp(8), y + m.dp(56)), "",
                                  Session.finish, f"{ID}btn_close")]
    y += m.dp(144)
    items = []
    for label in _DESTINATIONS:
        items.append(widgets.text(ui, (0, y, right, y + m.dp(48)), label, size_dp=16,
                                  action=Session.finish if label == "Home" else widgets.inert))
        y += m.dp(48)
    return [Node("com.google.android.material.navigation.NavigationView", resource_id=f"{ID}nv_main",
                 bounds=(0, m.status_bar, right, m.content_bottom), background=(255, 255, 255),
                 children=header + items)]


def _detail(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    row = expense(ui, int(frame.args.get("expense", 0)))
    nodes, top = widgets.app_bar(ui, "Expense Detail", title_rid=f"{ID}tv_expense_detail")
    if row is None:
        return nodes
    pairs = [("Name", str(row["name"] or ""), "tv_name_value"), ("Amount", format_amount(int(row["amount"])), "tv_amount_value"),
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
    """item_category.xml: the card `cd_category` holding the name `tv_name`."""
    chosen = int(ui.draft(frame, "category") or 1) == number
    name = Node("android.widget.TextView", text=CATEGORIES[number], resource_id=f"{ID}tv_name", bounds=box,
                text_size=ui.m.dp(14))
    return Node(CARD, resource_id=f"{ID}cd_category", bounds=box, clickable=True, focusable=True, selected=chosen,
                background=widgets.ACCENT if chosen else (230, 230, 230), children=[name],
                action=lambda s: s.set_draft(frame, "category", str(number)))


def _entry(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    editing = frame.args.get("expense") is not None  # ExpenseEntryFragment.changeToUpdateMode / changeToSaveMode
    nodes, top = widgets.app_bar(ui, "Update Data" if editing else "Expense Entry", rid=f"{ID}toolbar")
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
    nodes.append(widgets.button(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(48)), "Update" if editing else "Save", _save(frame),
                                f"{ID}btn_save"))
    return nodes


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    """frag_delete_confirm_dialog.xml as DeleteConfirmFragment fills it in for one expense."""
    m = ui.m
    expense_id = int(frame.args.get("expense", 0))
    left, right, top = m.dp(16), m.width - m.dp(16), m.content_bottom - m.dp(232)
    return [Node("android.widget.FrameLayout", bounds=(0, top, m.width, m.content_bottom), background=(255, 255, 255),
                 children=[widgets.text(ui, (left, top + m.dp(16), right - m.dp(56), top + m.dp(56)), "Delete Items",
                                        f"{ID}tv_delete_item", size_dp=20),
                           widgets.icon_button(ui, (right - m.dp(48), top + m.dp(12), right, top + m.dp(60)), "",
                                               Session.finish, f"{ID}imv_drop_close",
                                               class_name="android.widget.ImageView"),
                           widgets.text(ui, (left, top + m.dp(72), right, top + m.dp(104)), "item ", f"{ID}tv_items"),
                           widgets.text(ui, (left, top + m.dp(104), right, top + m.dp(136)), "will be deleted!",
                                        f"{ID}tv_delete_description"),
                           widgets.button(ui, (left, top + m.dp(160), right, top + m.dp(208)), "Confirm",
                                          _delete(expense_id), f"{ID}btn_confirm")])]


APP = register(AppScreens(
    PACKAGE,
    {"home": Screen(_home), "drawer": Screen(_drawer), "detail": Screen(_detail), "entry": Screen(_entry),
     "delete": Screen(_confirm_delete)},
    first="home"))
