"""Pro Expense: the `expense` table of accounting.db, and realistic expense rows.

Amounts are integer **cents** (AndroidWorld shows `$amount/100`); dates are epoch
**milliseconds** (reference android-apps.md §4.5).
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.table import Database
from taskkit.apps.common import DEVICE_EPOCH, epoch, generate_excluding, random_epoch, to_ms
from taskkit.apps.common import format_amount  # noqa: F401 - how goals and notes write an amount
from taskkit.rng import TaskRng

PACKAGE = "com.arduia.expense"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/accounting.db"
TABLE = "expense"
KEY = "expense_id"

# What the app creates on its first run (its Room entities; reference android-apps.md).
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE expense (
    expense_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT,
    amount INTEGER NOT NULL,
    category INTEGER NOT NULL,
    note TEXT,
    created_date INTEGER NOT NULL,
    modified_date INTEGER NOT NULL
);
"""
DATABASE = Database(DB_PATH, DDL)


CATEGORIES: dict[int, str] = {
    1: "Others",
    2: "Income",
    3: "Food",
    4: "Housing",
    5: "Social",
    6: "Entertainment",
    7: "Transportation",
    8: "Clothes",
    9: "Health Care",
    10: "Education",
    11: "Donation",
}

MIN_AMOUNT, MAX_AMOUNT = 1000, 50000  # cents
# Seeded expenses are dated from Oct 1 2023 00:00 up to the device time (Oct 15 15:34).
FIRST_DATE = epoch(2023, 10, 1)

_NAMES: dict[int, tuple[str, ...]] = {
    1: ("Phone bill", "Post office", "Printer ink", "Bank fee", "Key copies", "Storage unit"),
    2: ("Freelance payment", "Salary bonus", "Garage sale", "Tax refund", "Tutoring income"),
    3: ("Groceries", "Lunch at the deli", "Pizza night", "Coffee beans", "Farmers market", "Sushi dinner"),
    4: ("Rent", "Electricity bill", "Water bill", "Internet bill", "Plumber visit", "New curtains"),
    5: ("Birthday gift", "Wedding present", "Drinks with friends", "Team dinner", "Housewarming gift"),
    6: ("Movie tickets", "Concert tickets", "Streaming subscription", "Board game", "Bowling night"),
    7: ("Gas refill", "Train pass", "Taxi ride", "Parking fee", "Bus tickets", "Car wash"),
    8: ("Winter jacket", "Running shoes", "Jeans", "Work shirts", "Rain boots", "Wool scarf"),
    9: ("Pharmacy", "Dentist checkup", "Eye exam", "Vitamins", "Physiotherapy session"),
    10: ("Online course", "Textbooks", "Language class", "Workshop fee", "School supplies"),
    11: ("Charity run", "Food bank donation", "Animal shelter donation", "Library fundraiser"),
}
_NOTES = (
    "Paid with credit card", "Paid in cash", "Split with {first}", "Monthly payment",
    "Reimbursable", "Bought at {company}", "Gift for {first}", "Need to keep the receipt",
    "Cheaper than last month", "Shared with roommates", "Discount applied", "Annual renewal",
)


def random_expense(
    rng: TaskRng,
    *,
    name: str | None = None,
    amount: int | None = None,
    category: int | None = None,
    note: str | None = None,
    created_ms: int | None = None,
) -> dict[str, Any]:
    """A realistic `expense` row without its key.

    Unset fields: a category 1–11 with a name that fits it, an amount of 1000–50000 cents, a
    short note, and a creation time between Oct 1 2023 and the device time (modified = created).
    """
    if category is None:
        category = rng.choice(sorted(CATEGORIES))
    elif category not in CATEGORIES:
        raise ValueError(f"unknown expense category {category}; known: {sorted(CATEGORIES)}")
    if name is None:
        name = rng.choice(_NAMES[category])
    if amount is None:
        amount = rng.randint(MIN_AMOUNT, MAX_AMOUNT)
    if note is None:
        note = rng.choice(_NOTES).format(first=rng.faker.first_name(), company=rng.faker.company())
    if created_ms is None:
        created_ms = to_ms(random_epoch(rng, FIRST_DATE, DEVICE_EPOCH))
    return {
        "name": name,
        "amount": int(amount),
        "category": category,
        "note": note,
        "created_date": created_ms,
        "modified_date": created_ms,
    }


def noise_expenses(
    rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None, **kwargs: Any
) -> list[dict[str, Any]]:
    """`n` random expenses none of which `exclude` rejects (`kwargs` go to `random_expense`)."""
    return generate_excluding(lambda: random_expense(rng, **kwargs), n, exclude)


def shown_amount(cents: int) -> str:
    """An amount as the app's rows and totals show it (its CurrencyDecimalFormat, FormatModule.kt at
    arduia/ProExpense v1.0.0-beta05: DecimalFormat, English, at most two fraction digits, grouped),
    the currency's code beside it: 123450 -> "1,234.5", 1200 -> "12"."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    fraction = f"{rest:02d}".rstrip("0")
    return f"{sign}{whole:,}" + (f".{fraction}" if fraction else "")


NAME_LENGTH = 20  # item_expense_recent.xml / item_expense_log.xml: tv_name's android:maxLength


def shown_name(name: str) -> str:
    """An expense's name as its list row shows it: TextView.setText applies the row's maxLength
    filter, so "Animal shelter donation" shows as "Animal shelter donat"."""
    return name[:NAME_LENGTH]


def category_name(category: int) -> str:
    """"Food" for 3."""
    return CATEGORIES[category]


# --- device access ----------------------------------------------------------------------------
#: What the app stores for a field left empty: its entry form saves each EditText's text, "" when
#: empty (ExpenseEntryFragment.getExpenseDetail at v1.0.0-beta05), never NULL.
DEFAULTS = {"name": "", "note": ""}
#: The `expense` table (key `expense_id`) of `/data/data/com.arduia.expense/databases/accounting.db`.
EXPENSES = DATABASE.table(TABLE, KEY, defaults=DEFAULTS, stamped=("modified_date",))  # the app's Room DAO stamps every save
COLUMNS = EXPENSES.column_names  # in the order the DDL declares them


APP = App(
    name="pro expense",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(EXPENSES,),
    aliases=("expense",),
)
