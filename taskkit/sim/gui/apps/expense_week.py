"""What Pro Expense's Home computes from its expense table: the current week's bounds and date
range, its totals, the graph's daily rates, and the dates its rows show (amounts: `taskkit.apps.expense.shown_amount`).

Each function follows the app's own code at arduia/ProExpense v1.0.0-beta05 (cited per function);
times are the device's local time (`taskkit.sim.devicetime`), as the app's `Calendar.getInstance()`.
"""
from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any, Iterable

INCOME = 2  # ExpenseCategoryProviderImpl.INCOME
CURRENCY = "USD"  # PreferenceFlowStorageDaoImpl DEFAULT_SELECTED_CURRENCY_NUM "840": assets/currencies.json's code
DAY_NAMES = ("SU", "MO", "TU", "WE", "TH", "FR", "SAT")  # res/values/strings.xml day_sun … day_sat
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_of_week(when: datetime) -> int:
    """java.util.Calendar's DAY_OF_WEEK: Sunday 1 … Saturday 7."""
    return when.isoweekday() % 7 + 1


def week_start(now: datetime) -> datetime:
    """The Sunday of this week at 00:00:00 (ExpenseRepositoryImpl/HomeViewModel `getWeekStartTime`:
    DAY_OF_YEAR minus DAY_OF_WEEK plus one; the milliseconds kept from now)."""
    sunday = now - timedelta(days=day_of_week(now) - 1)
    return sunday.replace(hour=0, minute=0, second=0)


def week_range(now: datetime) -> str:
    """The cards' `tv_date_range`: HomeViewModel `getWeekDateRange` (this Sunday 00:00 to the next
    Sunday 23:59:59, `getWeekEndTime`) through MonthDateRangeFormatter ("MMM d", then " - d" in
    the same month, " - MMM d" otherwise), in capitals (the layouts' textAllCaps)."""
    start = week_start(now)
    end = (start + timedelta(days=7)).replace(hour=23, minute=59, second=59)
    first = f"{_MONTHS[start.month - 1]} {start.day}"
    last = f"{end.day}" if (start.year, start.month) == (end.year, end.month) else f"{_MONTHS[end.month - 1]} {end.day}"
    return f"{first} - {last}".upper()


def in_week(rows: Iterable[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    """ExpenseDao.getWeekExpense: the rows modified after the week's start (no upper bound)."""
    start_ms = int(week_start(now).timestamp() * 1000)
    return [row for row in rows if int(row["modified_date"] or 0) > start_ms]


def totals(week: list[dict[str, Any]]) -> tuple[int, int]:
    """(income, outcome) in cents: HomeViewModel `getTotalIncomeAsync` (category Income) and
    `getTotalOutcomeAsync` (every other category)."""
    income = sum(int(row["amount"]) for row in week if int(row["category"]) == INCOME)
    return income, sum(int(row["amount"]) for row in week) - income


def daily_rates(week: list[dict[str, Any]], zone: tzinfo) -> dict[int, int]:
    """ExpenseRateCalculatorImpl: the week's outcome summed per DAY_OF_WEEK of `modified_date`,
    each day as a whole percentage of the highest day (days without an expense have none)."""
    costs: dict[int, int] = {}
    for row in week:
        if int(row["category"]) != INCOME:
            day = day_of_week(datetime.fromtimestamp(int(row["modified_date"]) / 1000, zone))
            costs[day] = costs.get(day, 0) + int(row["amount"])
    top = max(costs.values(), default=0)
    return {day: int(cost * 100 / top) if top else 0 for day, cost in costs.items()}


def row_date(ms: int, now: datetime, zone: tzinfo) -> str:
    """A row's `tv_date`: ExpenseRecentDateFormatter over ExpenseDateFormatter — "Today 5:07 PM",
    "Yesterday 5:07 PM" (the day before in the same month), "Oct 14" (same year, another month),
    else "2023 Oct 14" (an earlier day of this month too, as the app's checks fall through)."""
    when = datetime.fromtimestamp(ms / 1000, zone)
    clock = f"{(when.hour + 11) % 12 + 1}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    same_month = (when.year, when.month) == (now.year, now.month)
    if same_month and when.day == now.day:
        return f"Today {clock}"
    if same_month and when.day == now.day - 1:
        return f"Yesterday {clock}"
    if when.year == now.year and when.month != now.month:
        return f"{_MONTHS[when.month - 1]} {when.day}"
    return f"{when.year} {_MONTHS[when.month - 1]} {when.day}"
