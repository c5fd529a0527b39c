"""Pro Expense's Home as the app builds it (frag_home.xml's cards: the week's totals and graph,
Recent with More), the logs More opens, the details' delete button and the drawer's
destinations, each drawn as its dump says (taskkit.sim.gui.audit).

The simulated clock stands at Sunday 15 October 2023, 15:34 UTC: the week runs from that
Sunday's midnight (HomeViewModel.getWeekStartTime)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from taskkit.apps import expense
from taskkit.connect import sim_device
from taskkit.sim.gui import audit
from taskkit.sim.gui.apps import expense_week as week
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import find, tap

HOUR_MS = 3_600_000
SUNDAY_MS = int(datetime(2023, 10, 15, tzinfo=timezone.utc).timestamp() * 1000)
# (name, cents, category, hours after the week's start); the last is the week before
ROWS = (("Lunch", 1250, 3, 12), ("Salary", 300000, 2, 13), ("Rent", 120000, 4, 30), ("Taxi", 2300, 7, 54),
        ("Animal shelter donation", 4550, 11, 55), ("Old groceries", 9999, 3, -100))


def _start(device) -> None:
    device.check(f"am force-stop {expense.PACKAGE}")
    device.check(f"am start -n {expense.PACKAGE}/.ui.MainActivity")


@pytest.fixture(scope="module")
def device():
    phone = sim_device()
    expense.EXPENSES.insert(phone, [expense.EXPENSES.fill({
        "name": name, "amount": cents, "category": category, "note": "",
        "created_date": SUNDAY_MS + hours * HOUR_MS, "modified_date": SUNDAY_MS + hours * HOUR_MS})
        for name, cents, category, hours in ROWS])
    yield phone
    phone.close()


def _text(device, rid: str) -> list[str]:
    return [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith(f":id/{rid}")]


def _audit(device) -> list:
    ui = Session(device.state)
    return audit.audit(build(ui, drawn=True), 1080, 2400)


def test_home_shows_the_weeks_totals_and_graph_and_the_four_last_changed_in_recent(device) -> None:
    _start(device)
    assert _text(device, "tv_expense_in_out_title") == ["Totals"] and _text(device, "tv_date_range") == ["OCT 15 - 22"] * 2
    assert _text(device, "tv_income_value") == ["3,000"]  # Salary, the Income category
    assert _text(device, "tv_outcome_value") == ["1,281"]  # 12.50 + 1,200 + 23 + 45.50; last week's groceries left out
    assert _text(device, "tv_title") == ["Expenses in this Week"]
    find(device, "expense_graph")
    device.check("input swipe 540 1800 540 600 300")
    assert _text(device, "tv_recent_lists") == ["Recent"]
    assert _text(device, "tv_name") == ["Animal shelter donat", "Taxi", "Rent", "Salary"]  # maxLength 20, 4 rows
    assert _text(device, "tv_amount")[:2] == ["45.5", "23"] and _text(device, "tv_currency_symbol")[0] == "USD"
    assert _audit(device) == []


def test_more_opens_the_logs_with_every_expense_and_no_add_button(device) -> None:
    _start(device)
    device.check("input swipe 540 1800 540 600 300")
    tap(device, "btn_more_logs")
    assert find(device, "Expense Logs") and find(device, "Filter")
    assert len(_text(device, "tv_name")) == len(ROWS)
    assert not [e for e in device.ui.screen().elements if (e.resource_name or "").endswith(":id/fb_main_add")]
    assert _audit(device) == []


def test_the_details_delete_button_asks_then_deletes_the_row(device) -> None:
    _start(device)
    device.check("input swipe 540 1800 540 600 300")
    tap(device, "Taxi")
    tap(device, "btn_delete")
    assert find(device, "Delete Items")
    tap(device, "Confirm")
    names = device.check(f"sqlite3 {expense.DB_PATH} 'SELECT name FROM expense ORDER BY expense_id'").split()
    assert "Taxi" not in names and "Rent" in names


@pytest.mark.parametrize(("item", "title", "control"), [
    ("Expense Logs", "Expense Logs", "Filter"), ("Statistics", "Statistics", "tv_category_statistics"),
    ("Backup", "Backup", "tv_export"), ("Feedback", "Feedback", "btn_send"), ("About", "About", "tv_version"),
    ("Settings", "Settings", "tv_currency_value")])
def test_each_drawer_destination_opens_its_screen_and_back_returns_home(device, item, title, control) -> None:
    _start(device)
    tap(device, lambda e: e.class_name == "android.widget.ImageButton" and e.bbox.x_min == 0)  # the toolbar's ic_menu
    tap(device, item)
    assert find(device, title) and find(device, control)
    assert _audit(device) == []
    device.check("input keyevent BACK")
    assert find(device, "Totals")


def test_the_week_starts_on_sunday_and_its_range_ends_a_week_later() -> None:
    wednesday = datetime(2023, 11, 29, 9, 0, tzinfo=timezone.utc)
    assert week.week_start(wednesday) == datetime(2023, 11, 26, tzinfo=timezone.utc)
    assert week.week_range(wednesday) == "NOV 26 - DEC 3"  # getWeekEndTime: Sunday plus seven days
    assert week.daily_rates([{"amount": 300, "category": 3, "modified_date": int(wednesday.timestamp() * 1000)},
                             {"amount": 100, "category": 3, "modified_date": int(wednesday.timestamp() * 1000) - 86_400_000},
                             {"amount": 900, "category": 2, "modified_date": int(wednesday.timestamp() * 1000)}],
                            timezone.utc) == {4: 100, 3: 33}  # Income left out; Wednesday is day 4
