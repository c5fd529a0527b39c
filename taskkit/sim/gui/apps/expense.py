"""Pro Expense: Home (the week's totals and graph, Recent), the expense logs, an expense's details,
the entry form (name, amount, category, note), deleting, and the drawer's destinations, over the
`expense` table of accounting.db the checks read.

Ids and labels follow arduia/ProExpense v1.0.0-beta05: frag_home.xml (`toolbar` "Home" and
`rv_home`, whose cards HomeEpoxyController builds: layout_expense_in_out.xml "Totals",
layout_expense_graph.xml "Expenses in this Week" with `expense_graph`, layout_recent_lists.xml
"Recent" with `rv_recent_lists` and `btn_more_logs` "More"; the week's figures: expense_week.py);
frag_expense_logs.xml (`tb_expense` "Expense Logs", `rv_expense`); item_expense_recent.xml and
item_expense_log.xml (`cd_expense` with the category's icon `imv_category` in its circle
`cv_category`, `tv_name`, `tv_date`, `tv_amount`, `tv_currency_symbol`); frag_expense_entry.xml
(the `toolbar` titled "Expense Entry", or "Update Data" with the button "Update" when editing,
ExpenseEntryFragment.changeToUpdateMode; `edt_name` "Name", `edt_amount` "Amount", the categories
`rv_category` of item_category.xml cards `cd_category` named by `tv_name`, `edt_note` "Note",
`btn_save` "Save"); expense_detail_dialog.xml ("Expense Detail", `tv_name_value`,
`tv_amount_value`, `tv_date_value`, `tv_note_value`, `btn_delete`, `btn_edit` "Edit");
frag_delete_confirm_dialog.xml ("Delete Items", `tv_items` ("item " for one,
DeleteConfirmFragment), "will be deleted!" and `btn_confirm` "Confirm"); the add button
`fb_main_add` (activ_main.xml, on Home only), which AndroidWorld's expense set-up also waits for;
the drawer `nv_main` (menu_home.xml; its other destinations: expense_pages.py).

Save inserts (or, from Edit, updates) the row as the app's Room DAO does: the amount typed in
dollars is stored in cents, the category by its number, created and modified at the device clock.
The entry's Time and Calendar open Android's pickers on the entry's time, which Save writes as
the modified date; its lock (`cv_lock`) keeps the form open for the next entry. Simplified: the
logs list has no date headers, paging, swipe or filter; a long press on a logs row asks to delete
that one expense (the app enters a multi-select mode first); the category is a row of cards, one
per category (the app shows Food first, then all); the entry's toolbar has no date subtitle.

Pinned: AndroidWorld installs com.arduia.expense_11.apk; this model follows arduia/ProExpense
v1.0.0-beta05 (versionCode 11).
"""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone, tzinfo
from typing import Any, Callable

from taskkit.apps.common import format_amount
from taskkit.apps.expense import CATEGORIES, DB_PATH, KEY, PACKAGE, TABLE, shown_amount, shown_name
from taskkit.sim.devicetime import device_zone
from taskkit.sim.gui import appdata, pickers, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.apps import expense_pages as pages, expense_week as week
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("arduia/ProExpense", "v1.0.0-beta05", 11)
ID = f"{PACKAGE}:id/"
CARD = pages.CARD
_PRIMARY = (0x03, 0x9B, 0xE5)  # values/theme.xml colorPrimary (blue_light_500): the lock's card when locked
_FIELDS = (widgets.Field("name", "Name", f"{ID}edt_name"), widgets.Field("amount", "Amount", f"{ID}edt_amount"))
_NOTE = (widgets.Field("note", "Note", f"{ID}edt_note", height_dp=100),)


# --- data ---------------------------------------------------------------------------------------
def expenses(ui: Session) -> list[dict[str, Any]]:
    """Every expense, last changed first (ExpenseDao's lists order by modified_date)."""
    return appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} ORDER BY modified_date DESC, {KEY} DESC")


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
    """Save (Update): the row with the entry's time (ExpenseEntryViewModel.currentEntryTime, now
    unless Time or Calendar changed it) as its modified date; a new row is created now. With the
    lock on, the form is cleared for the next entry and stays (onDataInserted → onNext)."""
    def act(ui: Session) -> None:
        name, note = ui.draft(frame, "name").strip(), ui.draft(frame, "note").strip()
        cents = parse_cents(ui.draft(frame, "amount"))
        category = int(ui.draft(frame, "category") or 1)
        if not name or cents is None:
            return  # the app refuses an entry without a name or an amount
        now = appdata.now_ms(ui)
        values = {"name": name, "amount": cents, "category": category, "note": note,
                  "modified_date": int(ui.draft(frame, "when") or now)}
        editing = frame.args.get("expense")
        if editing is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(editing), values)
        else:
            appdata.insert(ui, DB_PATH, TABLE, {**values, "created_date": now})
        if editing is None and ui.draft(frame, "locked") == "1":  # ExpenseEntryFragment.cleanUi, focusOnName
            for field in ("name", "amount", "note", "when"):
                ui.set_draft(frame, field, "")
            ui.focus(frame, "name")
            return
        ui.finish()
    return act


def _delete(expense_id: int):
    def act(ui: Session) -> None:
        appdata.delete(ui, DB_PATH, TABLE, KEY, expense_id)
        ui.finish()
    return act


# --- screens ---------------------------------------------------------------------------------
def _now(ui: Session) -> tuple[datetime, tzinfo]:
    """The device's local time now and its zone (the app's Calendar.getInstance())."""
    zone = device_zone(ui.state)
    return datetime.fromtimestamp(appdata.now_ms(ui) / 1000, zone), zone


def _expense_row(ui: Session, box: Box, e: dict[str, Any], when: tuple[datetime, tzinfo], *, circle_dp: float,
                 start_dp: float, long_press: bool) -> Node:
    """One expense as item_expense_recent.xml (Home's Recent) or item_expense_log.xml (the logs)
    lay it out: `cd_expense` holding the category circle, `tv_name` and `tv_date` after it, and
    `linear_amount` at the end: `tv_amount` (CurrencyDecimalFormat) then `tv_currency_symbol`
    (the currency's code, ExpenseUiModelMapper/ExpenseLogUiModelMapper). A tap opens the details
    (RecentListAdapter/ExpenseLogAdapter); the logs' long press asks to delete it (simplified)."""
    m = ui.m
    x1, y1, x2, y2 = box
    value, middle = shown_amount(int(e["amount"])), (y1 + y2) // 2
    symbol_x = x2 - m.dp(16 + 32)
    amount_x = symbol_x - m.dp(12 + 11 * len(value))
    text_x = x1 + m.dp(start_dp + circle_dp + 16)
    children = [category_icon(ui, box, int(e["category"] or 1), circle_dp, start_dp),
                widgets.text(ui, (text_x, middle - m.dp(24), amount_x - m.dp(8), middle), shown_name(str(e["name"] or "")),
                             f"{ID}tv_name", size_dp=16),
                widgets.text(ui, (text_x, middle, amount_x - m.dp(8), middle + m.dp(20)),
                             week.row_date(int(e["modified_date"] or 0), *when), f"{ID}tv_date", size_dp=12),
                widgets.text(ui, (amount_x, middle - m.dp(12), symbol_x - m.dp(4), middle + m.dp(12)), value,
                             f"{ID}tv_amount", size_dp=16),
                widgets.text(ui, (symbol_x, middle - m.dp(12), x2 - m.dp(16), middle + m.dp(8)), week.CURRENCY,
                             f"{ID}tv_currency_symbol", size_dp=12)]
    expense_id = int(e[KEY])
    return Node("android.widget.RelativeLayout", resource_id=f"{ID}cd_expense", bounds=box, clickable=True,
                focusable=True, long_clickable=long_press, children=children,
                action=lambda s: s.push("detail", expense=expense_id),
                long_action=(lambda s: s.push("delete", expense=expense_id)) if long_press else None)


def _totals_card(ui: Session, box: Box, rows: list[dict[str, Any]], now: datetime) -> Node:
    """layout_expense_in_out.xml as IncomeOutcomeEpoxyModel fills it: the week's totals."""
    m = ui.m
    x, y = box[0], box[1]
    income, outcome = week.totals(week.in_week(rows, now))
    texts = [("Totals", "tv_expense_in_out_title", 16, 16, 24, 18), (week.week_range(now), "tv_date_range", 16, 44, 24, 16),
             ("Income", "tv_income", 32, 84, 16, 10), (shown_amount(income), "tv_income_value", 32, 100, 32, 20),
             ("Outcome", "tv_outcome", 32, 148, 16, 10), (shown_amount(outcome), "tv_outcome_value", 32, 164, 32, 20)]
    children = []
    for value, rid, left, top, height, size in texts:
        right = x + m.dp(left + 13 * len(value) + 8) if rid.endswith("_value") else box[2] - m.dp(16)
        children.append(widgets.text(ui, (x + m.dp(left), y + m.dp(top), right, y + m.dp(top + height)), value,
                                     f"{ID}{rid}", size_dp=size))
        if rid.endswith("_value"):  # tv_income_symobol (sic) / tv_outcome_symbol, on the value's baseline
            symbol = "tv_income_symobol" if rid == "tv_income_value" else "tv_outcome_symbol"
            children.append(widgets.text(ui, (right, y + m.dp(top + 12), right + m.dp(40), y + m.dp(top + height)),
                                         week.CURRENCY, f"{ID}{symbol}", size_dp=12))
    return Node(CARD, bounds=box, background=(255, 255, 255), children=children)


_GRAPH_BLUE = (0x03, 0x9B, 0xE5)  # layout_expense_graph.xml graph_color/day_color ?colorPrimary: @color/blue_light_500


def _graph(ui: Session, box: Box, rates: dict[int, int], inked: bool) -> Node:
    """`expense_graph`, the week-expense-graph module's SpendGraph (160 dp): the day names in the
    bottom 30 dp, 16 dp in from each side, each day centred in its seventh; a point (1.5 dp) per
    day with a rate, at rate/110 of the height above the names (Adapter.getCalculatedRate), the
    points joined by a 1 dp line and a dotted line down from the highest (`drawHighestVertical`;
    its "N %" label never fits under the top edge at this height, so it is not drawn). `inked`:
    the lines are drawn only while the whole graph is in view (a list cuts painted shapes, not ink)."""
    m = ui.m
    left, right, bottom = box[0] + m.dp(16), box[2] - m.dp(16), box[3] - m.dp(30)
    segment = (right - left) / 7
    xs = {day: int(left + segment * day - segment / 2) for day in range(1, 8)}
    names = tuple(Painted((xs[day] - int(segment / 2), bottom, xs[day] + int(segment / 2), box[3]), name,
                          color=_GRAPH_BLUE, size=m.dp(12), center=True)
                  for day, name in enumerate(week.DAY_NAMES, start=1))
    points = [(xs[day], bottom - int(rates[day] / 110 * (bottom - box[1]))) for day in sorted(rates)]
    r = max(2, m.dp(1.5))
    dots = tuple(Painted((x - r, y - r, x + r, y + r), fill=_GRAPH_BLUE, oval=True) for x, y in points)
    ink: tuple = ()
    if inked and points:
        width = max(1, m.dp(1))
        ink = (((*points,), _GRAPH_BLUE, width),) if len(points) > 1 else ()
        x, y = xs[max(sorted(rates), key=lambda day: rates[day])], min(p[1] for p in points)
        ink += tuple((((x, yy), (x, yy + 2)), _GRAPH_BLUE, width) for yy in range(y, bottom, 5))
    return Node("android.view.View", resource_id=f"{ID}expense_graph", bounds=box, paint=names + dots, ink=ink)


def _graph_card(ui: Session, box: Box, rows: list[dict[str, Any]], now: datetime, zone: tzinfo, inked: bool) -> Node:
    """layout_expense_graph.xml as WeeklyGraphEpoxyModel fills it: the outcome of this week per day."""
    m = ui.m
    x, y = box[0], box[1]
    rates = week.daily_rates(week.in_week(rows, now), zone)
    return Node(CARD, bounds=box, background=(255, 255, 255), children=[
        widgets.text(ui, (x + m.dp(16), y + m.dp(16), box[2] - m.dp(16), y + m.dp(40)), "Expenses in this Week",
                     f"{ID}tv_title", size_dp=18),
        widgets.text(ui, (x + m.dp(16), y + m.dp(44), box[2] - m.dp(16), y + m.dp(68)), week.week_range(now),
                     f"{ID}tv_date_range", size_dp=16),
        _graph(ui, (x, y + m.dp(68), box[2], y + m.dp(228)), rates, inked)])


_RECENT_ROW_DP = 71  # item_expense_recent.xml: the 55 dp circle and its 8 dp margins


def _recent_card(ui: Session, box: Box, recent: list[dict[str, Any]], when: tuple[datetime, tzinfo]) -> Node:
    """layout_recent_lists.xml as RecentEpoxyModel fills it: "Recent", the four last changed
    expenses (ExpenseDao.getRecentExpense) and More, which opens the logs (HomeFragment)."""
    m = ui.m
    x1, y, x2 = box[0], box[1], box[2]
    rows, top = [], y + m.dp(48)
    for e in recent:
        rows.append(_expense_row(ui, (x1 + m.dp(8), top, x2 - m.dp(8), top + m.dp(_RECENT_ROW_DP)), e, when,
                                 circle_dp=55, start_dp=16, long_press=False))
        top += m.dp(_RECENT_ROW_DP)
    return Node(CARD, bounds=box, background=(255, 255, 255), children=[
        widgets.text(ui, (x1 + m.dp(16), y + m.dp(16), x2 - m.dp(16), y + m.dp(40)), "Recent", f"{ID}tv_recent_lists",
                     size_dp=18),
        Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}rv_recent_lists", bounds=(x1 + m.dp(8), y + m.dp(48), x2 - m.dp(8), top),
             children=rows),
        widgets.button(ui, (x1 + m.dp(16), top, x2 - m.dp(16), top + m.dp(48)), "More", lambda s: s.push("logs"),
                       f"{ID}btn_more_logs")])


def _home(ui: Session, frame: Frame) -> list[Node]:
    """frag_home.xml: the toolbar and `rv_home`, HomeEpoxyController's cards in order (Totals, the
    week's graph, Recent when there is one; MarginItemDecoration's 8 dp around each), and the
    add button `fb_main_add` (activ_main.xml, shown on Home only)."""
    m = ui.m
    bar, top = pages.menu_bar(ui, "Home", f"{ID}toolbar")  # frag_home.xml's app:title and ic_menu
    nodes = [Node("android.widget.LinearLayout", resource_id=f"{ID}abl_home", bounds=bar[0].bounds, children=bar)]
    now, zone = _now(ui)
    rows = expenses(ui)
    recent = rows[:4]
    gap, bottom = m.dp(8), m.content_bottom

    def card(height_dp: float, build) -> widgets.Row:
        def placed(b: Box) -> Node:
            return build((b[0] + gap, b[1] + gap, b[2] - gap, b[3]))
        return widgets.Row(m.dp(height_dp) + gap, placed)
    cards = [card(228, lambda b: _totals_card(ui, b, rows, now)),
             card(244, lambda b: _graph_card(ui, b, rows, now, zone, top <= b[1] and b[3] <= bottom))]
    if recent:  # RecentEpoxyModel hides the card while the list is empty
        cards.append(card(48 + _RECENT_ROW_DP * len(recent) + 52, lambda b: _recent_card(ui, b, recent, (now, zone))))
    nodes.append(widgets.scroll_list(ui, frame, "home", (0, top, m.width, bottom), cards, rid=f"{ID}rv_home"))
    nodes.append(widgets.fab(ui, lambda s: s.push("entry", focus="name"), f"{ID}fb_main_add"))  # no content description in activ_main.xml
    return nodes


def _logs(ui: Session, frame: Frame) -> list[Node]:
    """frag_expense_logs.xml: `tb_expense` "Expense Logs" with the drawer button and
    menu_expense_log.xml's Filter (Delete shows in selection mode only: ExpenseFragment), then
    `rv_expense`, every expense (item_expense_log.xml) newest first, or layout_no_expense_logs.xml."""
    m = ui.m
    filter_ = dataclasses.replace(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Filter", widgets.inert, f"{ID}filter"),
                                  icon="sort")  # ic_filter: the three narrowing lines of Material's sort/filter_list
    bar, top = pages.menu_bar(ui, "Expense Logs", f"{ID}tb_expense", actions=(filter_,))
    nodes = [Node("android.widget.LinearLayout", resource_id=f"{ID}app_bar", bounds=bar[0].bounds, children=bar)]
    when = _now(ui)

    def row(b: Box, e: dict[str, Any]) -> Node:
        # item_expense_log.xml: the SwipeFrameLayout holds the swipe-to-delete backdrop `fl_back`, then
        # `cd_expense` (opaque: ?colorSurface) over it, with `view_bg`, the row's 70 dp ripple, on top
        card = _expense_row(ui, b, e, when, circle_dp=50, start_dp=20, long_press=True)
        card = dataclasses.replace(card, background="background", children=[
            *card.children, Node("android.view.View", resource_id=f"{ID}view_bg", bounds=b)])
        return Node("android.widget.FrameLayout", bounds=b, children=[_swipe_backdrop(ui, b), card])
    rows = [widgets.Row(m.dp(70), lambda b, e=e: row(b, e)) for e in expenses(ui)]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}rv_expense", "No Expense Logs", f"{ID}tv_no_expense_logs"))
    return nodes


_BACKDROP = (0xEF, 0x53, 0x50)  # values/theme.xml colorNegative = red_400 #EF5350 (colors.xml)
_UNDER_ROW = ("res/layout/item_expense_log.xml: `cd_expense` (?colorSurface) fills the row over `fl_back`; "
              "expenselogs/swipe/SwipeFrameLayout.kt moves it aside only while the row is swiped")


def _swipe_backdrop(ui: Session, row: Box) -> Node:
    """item_expense_log.xml's `fl_back` (red_400) under a row: `imv_delete_icon` (35 dp) over
    `tv_undo` "Delete" 16 dp from the end, `imv_check` 8 dp from the start; the row covers it
    (the swipe that uncovers it is not modeled)."""
    m = ui.m
    x1, y1, x2, y2 = row
    middle, icon = (y1 + y2) // 2, m.dp(35)
    column = (x2 - m.dp(16 + 8 + 35 + 8), y1, x2 - m.dp(16), y2)
    delete = (column[0] + m.dp(8), middle - m.dp(26), column[0] + m.dp(8) + icon, middle - m.dp(26) + icon)
    undo = widgets.text(ui, (column[0], delete[3], column[2], delete[3] + m.dp(18)), "Delete", f"{ID}tv_undo", size_dp=14)
    children = [Node("android.widget.LinearLayout", bounds=column, children=[
                    Node("android.widget.ImageView", resource_id=f"{ID}imv_delete_icon", bounds=delete, clickable=True,
                         focusable=True, icon="delete"),
                    dataclasses.replace(undo, text_color=(0xFF, 0xFF, 0xFF))]),
                Node("android.widget.ImageView", resource_id=f"{ID}imv_check", icon="check",
                     bounds=(x1 + m.dp(8), middle - icon // 2, x1 + m.dp(8) + icon, middle - icon // 2 + icon))]
    return Node("android.widget.FrameLayout", resource_id=f"{ID}fl_back", bounds=row, background=_BACKDROP,
                children=children, covered_by_design=_UNDER_ROW)


# ExpenseCategoryProviderImpl.getCategoryData: each category's drawable (pictures.DRAWABLES)
_CATEGORY_DRAWABLES = {1: "ic_outcome", 2: "ic_income", 3: "ic_food", 4: "ic_household", 5: "ic_social",
                       6: "ic_entertainment", 7: "ic_transportation", 8: "ic_clothes", 9: "ic_healthcare",
                       10: "ic_education", 11: "ic_donation"}
_CATEGORY_CIRCLE = (0xB3, 0xE5, 0xFC)  # item_expense_recent.xml cardBackgroundColor


def category_icon(ui: Session, row: Box, category: int, size_dp: float = 55, start_dp: float = 16) -> Node:
    """The rows' `cv_category` (a circular card `size_dp` wide, `start_dp` in, centred on the row:
    55 and 16 dp in item_expense_recent.xml, 50 and 20 dp in item_expense_log.xml) holding
    `imv_category` (30 dp), the category's drawable (RecentListAdapter)."""
    m = ui.m
    size = m.dp(size_dp)
    x, middle = row[0] + m.dp(start_dp), (row[1] + row[3]) // 2
    card = (x, middle - size // 2, x + size, middle - size // 2 + size)
    centre = ((card[0] + card[2]) // 2, (card[1] + card[3]) // 2)
    icon = (centre[0] - m.dp(15), centre[1] - m.dp(15), centre[0] + m.dp(15), centre[1] + m.dp(15))
    name = _CATEGORY_DRAWABLES.get(category, "ic_outcome")
    image = Node("android.widget.ImageView", resource_id=f"{ID}imv_category", bounds=icon,
                 image=pictures.resource(f"expense/{name}"))
    return Node(CARD, resource_id=f"{ID}cv_category", bounds=card, children=[image],
                paint=(Painted(card, fill=_CATEGORY_CIRCLE, oval=True),))


def _destination(screen: str | None):
    """A drawer item (MainActivity.selectPage): the drawer closes, the app goes back to Home and
    opens the item's screen over it (Home itself: nothing more)."""
    def go(ui: Session) -> None:
        while (top := ui.top()[2]) is not None and top.screen != "home":
            ui.finish()
        if screen is not None:
            ui.push(screen)
    return go


def _drawer(ui: Session, frame: Frame) -> list[Node]:
    """The navigation drawer `nv_main` (activ_main.xml): layout_header.xml, then menu_home.xml's
    destinations, each opening its screen."""
    m = ui.m
    right, y = m.width * 4 // 5, m.status_bar
    header = [widgets.text(ui, (m.dp(16), y + m.dp(72), right - m.dp(16), y + m.dp(104)), "Pro Expense",
                           f"{ID}tv_app_name", size_dp=20),
              widgets.text(ui, (m.dp(16), y + m.dp(104), right - m.dp(16), y + m.dp(128)), "beta"),
              widgets.icon_button(ui, (right - m.dp(56), y + m.dp(8), right - m.dp(8), y + m.dp(56)), "",
                                  Session.finish, f"{ID}btn_close")]
    y += m.dp(144)
    items = []
    for label, screen in pages.DESTINATIONS:
        items.append(widgets.text(ui, (0, y, right, y + m.dp(48)), label, size_dp=16, action=_destination(screen)))
        y += m.dp(48)
    return [Node("com.google.android.material.navigation.NavigationView", resource_id=f"{ID}nv_main",
                 bounds=(0, m.status_bar, right, m.content_bottom), background=(255, 255, 255),
                 children=header + items)]


def _detail(ui: Session, frame: Frame) -> list[Node]:
    """ExpenseDetailDialog, a bottom sheet (expense_detail_dialog.xml): "Expense Detail"
    `tv_expense_detail` and the close button `btn_close` (ic_drop_down), the card `cd_info`
    (the category's circle `cv_category`, `btn_delete` at its end, the name `tv_name_value`,
    "Amount" with `tv_amount_value` and the currency `tv_currency_symbol`, "Date" with
    `tv_date_value`: the modified date as the rows format it, "Note" with `tv_note_value`,
    invisible without a note), then `btn_edit` "Edit"."""
    m = ui.m
    row = expense(ui, int(frame.args.get("expense", 0)))
    if row is None:
        return []
    now, zone = _now(ui)
    left, right = m.dp(16), m.width - m.dp(16)
    note = str(row["note"] or "")
    top = m.content_bottom - m.dp(56 + 208 + 80)
    card = (left, top + m.dp(56), right, top + m.dp(56 + 208))
    value_x = card[0] + m.dp(16 + 55 + 16)
    label = lambda y, text, rid: widgets.text(ui, (value_x, y, value_x + m.dp(72), y + m.dp(24)), text, f"{ID}{rid}",  # noqa: E731
                                               size_dp=14)
    value = lambda y, text, rid, end=card[2] - m.dp(16): widgets.text(  # noqa: E731
        ui, (value_x + m.dp(80), y, end, y + m.dp(24)), text, f"{ID}{rid}", size_dp=14)
    y = card[1] + m.dp(16)
    expense_id = int(row[KEY])
    inside = [category_icon(ui, (card[0], y, card[0], y + m.dp(55)), int(row["category"] or 1)),
              Node("android.widget.ImageView", resource_id=f"{ID}btn_delete", icon="delete", clickable=True,
                   focusable=True, action=lambda s: s.replace("delete", expense=expense_id),
                   bounds=(card[2] - m.dp(16 + 35), y, card[2] - m.dp(16), y + m.dp(35))),
              widgets.text(ui, (value_x, y, card[2] - m.dp(56), y + m.dp(32)), str(row["name"] or ""),
                           f"{ID}tv_name_value", size_dp=18)]
    y += m.dp(48)
    amount = format_amount(int(row["amount"]))
    inside += [label(y, "Amount", "tv_amount"), value(y, amount, "tv_amount_value", card[2] - m.dp(64)),
               widgets.text(ui, (card[2] - m.dp(60), y, card[2] - m.dp(16), y + m.dp(24)), week.CURRENCY,
                            f"{ID}tv_currency_symbol", size_dp=14)]
    y += m.dp(40)
    inside += [label(y, "Date", "tv_date"), value(y, week.row_date(int(row["modified_date"] or 0), now, zone),
                                                   "tv_date_value")]
    y += m.dp(40)
    if note:  # hideNoteTextView: INVISIBLE without a note
        inside += [label(y, "Note", "tv_note"), value(y, note, "tv_note_value")]
    sheet = [widgets.text(ui, (left, top + m.dp(16), right - m.dp(56), top + m.dp(48)), "Expense Detail",
                          f"{ID}tv_expense_detail", size_dp=20),
             Node("android.widget.ImageButton", resource_id=f"{ID}btn_close", icon="arrow_drop_down", clickable=True,
                  focusable=True, action=Session.finish, bounds=(right - m.dp(40), top + m.dp(12), right, top + m.dp(52))),
             Node(CARD, resource_id=f"{ID}cd_info", bounds=card, background=(255, 255, 255), children=inside),
             widgets.button(ui, (left, card[3] + m.dp(16), right, card[3] + m.dp(64)), "Edit", lambda s: _open_editor(s, row),
                            f"{ID}btn_edit")]
    return [Node("android.widget.FrameLayout", resource_id=f"{ID}design_bottom_sheet",
                 bounds=(0, top, m.width, m.content_bottom), background=(255, 255, 255), children=sheet)]


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
    """frag_expense_entry.xml: the AppBarLayout `abl_entry` holding the `toolbar` (menu_entry.xml's
    Time and Calendar, which open Android's time and date pickers on the entry's time), then the
    NestedScrollView `sv_entry`: the fields in their TextInputLayouts (`edl_name`, `edl_amount`,
    `edl_description`), the categories, Save and, for a new entry, the lock `cv_lock` (`imv_lock`,
    ic_loop): locked, Save reads "Next" and keeps the form for the next entry."""
    m = ui.m
    editing = frame.args.get("expense") is not None  # ExpenseEntryFragment.changeToUpdateMode / changeToSaveMode
    locked = not editing and ui.draft(frame, "locked") == "1"
    icon = (0, 0, m.dp(48), 0)
    when = datetime.fromtimestamp(int(ui.draft(frame, "when") or appdata.now_ms(ui)) / 1000, device_zone(ui.state))
    actions = (dataclasses.replace(widgets.icon_button(ui, icon, "Calendar", lambda s: s.push(
                   "date", entry=frame.id, **pickers.date_args(when.date())), f"{ID}calendar"), icon="event"),
               dataclasses.replace(widgets.icon_button(ui, icon, "Time", lambda s: s.push(
                   "time", entry=frame.id, **pickers.time_args(when.hour, when.minute)), f"{ID}time"), icon="access_time"))
    bar, top = widgets.app_bar(ui, "Update Data" if editing else "Expense Entry", rid=f"{ID}toolbar", actions=actions)
    nodes = [Node("android.widget.LinearLayout", resource_id=f"{ID}abl_entry", bounds=bar[0].bounds, children=bar)]
    fields, y = widgets.form(ui, frame, _FIELDS, top)
    form = [widgets.wrapper(f"{ID}edl_{name}", field, "android.widget.LinearLayout")
            for name, field in zip(("name", "amount"), fields)]
    chips, x, row_top = [], m.dp(16), y
    for number in sorted(CATEGORIES):  # chips wrap onto as many rows as they need
        width = m.dp(24 + 9 * len(CATEGORIES[number]))
        if x + width > m.width - m.dp(16):
            x, y = m.dp(16), y + m.dp(44)
        chips.append(_chip(ui, frame, (x, y, x + width, y + m.dp(36)), number))
        x += width + m.dp(8)
    y += m.dp(44)
    form.append(Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}rv_category", bounds=(0, row_top, m.width, y), children=chips))
    note, y = widgets.form(ui, frame, _NOTE, y - m.dp(16))
    form += [widgets.wrapper(f"{ID}edl_description", field, "android.widget.LinearLayout") for field in note]
    label = "Update" if editing else "Next" if locked else "Save"
    end = m.width - m.dp(16) - (0 if editing else m.dp(50 + 16))
    form.append(widgets.button(ui, (m.dp(16), y, end, y + m.dp(48)), label, _save(frame), f"{ID}btn_save"))
    if not editing:
        lock = (m.width - m.dp(16 + 50), y - m.dp(1), m.width - m.dp(16), y + m.dp(49))
        middle = ((lock[0] + lock[2]) // 2, (lock[1] + lock[3]) // 2)
        form.append(Node(CARD, resource_id=f"{ID}cv_lock", bounds=lock, clickable=True, focusable=True,
                         background=_PRIMARY if locked else (255, 255, 255),
                         action=lambda s: s.set_draft(frame, "locked", "" if locked else "1"), children=[
                             Node("android.widget.ImageView", resource_id=f"{ID}imv_lock", icon="repeat",
                                  bounds=(middle[0] - m.dp(12), middle[1] - m.dp(12), middle[0] + m.dp(12),
                                          middle[1] + m.dp(12)))]))
    nodes.append(Node("android.widget.ScrollView", resource_id=f"{ID}sv_entry", bounds=(0, top, m.width, m.content_bottom),
                      children=form))
    return nodes


def _entry_time(frame: Frame, change: Callable[..., datetime]) -> Callable[..., None]:
    """A picker's OK: the entry's time changed (ExpenseEntryViewModel.selectDateTime / selectTime)."""
    def act(ui: Session, *value: Any) -> None:
        entry = Frame(int(frame.args["entry"]), "entry", {}, "")
        zone = device_zone(ui.state)
        old = datetime.fromtimestamp(int(ui.draft(entry, "when") or appdata.now_ms(ui)) / 1000, zone)
        ui.set_draft(entry, "when", str(int(change(old, *value).timestamp() * 1000)))
    return act


def _date_picker(ui: Session, frame: Frame) -> list[Node]:
    return pickers.date_dialog(ui, frame, _entry_time(frame, lambda old, d: old.replace(
        year=d.year, month=d.month, day=d.day)))


def _time_picker(ui: Session, frame: Frame) -> list[Node]:
    """TimePickerDialog with is24HourView false (ExpenseEntryFragment.showTimePickerDialog)."""
    return pickers.time_dialog(ui, frame, _entry_time(frame, lambda old, hour, minute: old.replace(
        hour=hour, minute=minute, second=0, microsecond=0)), h24=False)


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
                           Node(CARD, resource_id=f"{ID}cv_description_bg", bounds=(left, top + m.dp(64), right, top + m.dp(144)),
                                children=[widgets.text(ui, (left + m.dp(16), top + m.dp(72), right, top + m.dp(104)), "item ",
                                                       f"{ID}tv_items"),
                                          widgets.text(ui, (left + m.dp(16), top + m.dp(104), right, top + m.dp(136)),
                                                       "will be deleted!", f"{ID}tv_delete_description")]),
                           widgets.button(ui, (left, top + m.dp(160), right, top + m.dp(208)), "Confirm",
                                          _delete(expense_id), f"{ID}btn_confirm")])]


APP = register(AppScreens(
    PACKAGE,
    {"home": Screen(_home), "drawer": Screen(_drawer), "logs": Screen(_logs), "detail": Screen(_detail),
     "entry": Screen(_entry), "date": Screen(_date_picker), "time": Screen(_time_picker),
     "delete": Screen(_confirm_delete), **pages.SCREENS},
    first="home"))
