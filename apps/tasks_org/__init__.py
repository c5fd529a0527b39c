"""Tasks.org: the `tasks` table of its Room database, and realistic to-do rows.

Every time column is epoch **milliseconds** and 0 means "unset" (no due date, not completed,
not deleted). `importance` runs from 0 (high) to 3 (none). Generated due dates fall within a
week either side of the device time, on whole minutes as AndroidWorld writes them (reference
android-apps.md §4.8).
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.table import Database
from taskkit.apps.common import (
    DAY_SECONDS,
    DEVICE_EPOCH,
    format_date,
    format_time,
    from_ms,
    generate_excluding,
    random_epoch,
    to_ms,
)
from taskkit.rng import TaskRng

PACKAGE = "org.tasks"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/database"
TABLE = "tasks"
KEY = "_id"

# What the app creates on its first run (its Room entities; reference android-apps.md).
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE `tasks` (
    `_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    `title` TEXT,
    `importance` INTEGER NOT NULL,
    `dueDate` INTEGER NOT NULL,
    `hideUntil` INTEGER NOT NULL,
    `created` INTEGER NOT NULL,
    `modified` INTEGER NOT NULL,
    `completed` INTEGER NOT NULL,
    `deleted` INTEGER NOT NULL,
    `notes` TEXT,
    `estimatedSeconds` INTEGER NOT NULL,
    `elapsedSeconds` INTEGER NOT NULL,
    `timerStart` INTEGER NOT NULL,
    `notificationFlags` INTEGER NOT NULL,
    `lastNotified` INTEGER NOT NULL,
    `recurrence` TEXT,
    `repeat_from` INTEGER NOT NULL DEFAULT 0,
    `calendarUri` TEXT,
    `remoteId` TEXT,
    `collapsed` INTEGER NOT NULL,
    `parent` INTEGER NOT NULL,
    `order` INTEGER,
    `read_only` INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX `t_rid` ON `tasks` (`remoteId`);
CREATE INDEX `active_and_visible` ON `tasks` (`completed`, `deleted`, `hideUntil`);
"""
DATABASE = Database(DB_PATH, DDL)


# Importance (the app calls it priority): 0 is the highest.
HIGH, MEDIUM, LOW, NONE = 0, 1, 2, 3
IMPORTANCE_NAMES: dict[int, str] = {HIGH: "high", MEDIUM: "medium", LOW: "low", NONE: "none"}

# Values for the columns a generated row does not choose.
DEFAULTS: dict[str, Any] = {
    "hideUntil": 0,
    "deleted": 0,
    "estimatedSeconds": 0,
    "elapsedSeconds": 0,
    "timerStart": 0,
    "notificationFlags": 0,
    "lastNotified": 0,
    "recurrence": None,
    "repeat_from": 0,
    "calendarUri": None,
    "collapsed": 0,
    "parent": 0,
    "order": None,
    "read_only": 0,
}

# Generated due dates: whole minutes within DUE_WINDOW_DAYS of the device time.
DUE_WINDOW_DAYS = 7
DUE_FIRST = DEVICE_EPOCH - DUE_WINDOW_DAYS * DAY_SECONDS
DUE_LAST = DEVICE_EPOCH + DUE_WINDOW_DAYS * DAY_SECONDS
COMPLETED_SHARE = 0.3  # the share of generated tasks already done (only tasks due by now)

_ERRANDS = (
    "Buy groceries for the week", "Pick up dry cleaning", "Return library books",
    "Renew car registration", "Get a haircut", "Drop off the recycling", "Buy a birthday card",
    "Refill prescription", "Take the car for an oil change", "Order printer ink",
)
_HOME = (
    "Water the plants", "Clean out the garage", "Fix the leaking faucet", "Change the air filter",
    "Defrost the freezer", "Vacuum the stairs", "Wash the windows", "Organize the closet",
    "Replace the smoke detector battery", "Mow the lawn",
)
_BILLS = ("electricity bill", "internet bill", "credit card bill", "rent", "phone bill", "water bill")
_DOCUMENTS = ("quarterly report", "expense report", "project proposal", "meeting agenda", "budget draft",
              "design review notes", "onboarding checklist", "grant application")
_APPOINTMENTS = ("dentist", "doctor", "vet", "eye exam", "car service", "physiotherapy", "accountant")
_NOTES = (
    "Check the receipt before leaving.", "Ask {first} whether this still needs doing.",
    "Should take about an hour.", "Do this before the weekend.", "Link is in the email from {first}.",
    "Needs the updated numbers from {company}.", "Second reminder: do not put it off again.",
    "Bring the paperwork.", "Call ahead to check opening hours.", "Split the cost with {first}.",
)


# Each maker draws one realistic title.
_TITLES: tuple[Callable[[TaskRng], str], ...] = (
    lambda rng: rng.choice(_ERRANDS),
    lambda rng: rng.choice(_HOME),
    lambda rng: f"Pay the {rng.choice(_BILLS)}",
    lambda rng: f"Finish the {rng.choice(_DOCUMENTS)}",
    lambda rng: f"Send the {rng.choice(_DOCUMENTS)} to {rng.faker.first_name()}",
    lambda rng: f"Call {rng.faker.first_name()} back",
    lambda rng: f"Email {rng.faker.first_name()} about the {rng.choice(_DOCUMENTS)}",
    lambda rng: f"Book {rng.choice(_APPOINTMENTS)} appointment",
    lambda rng: f"Book flights to {rng.faker.city()}",
    lambda rng: f"Plan {rng.faker.first_name()}'s birthday party",
)


def random_title(rng: TaskRng) -> str:
    """A realistic to-do title ("Pay the phone bill"); never contains a comma."""
    return rng.choice(_TITLES)(rng).replace(",", "")


def random_notes(rng: TaskRng) -> str:
    """A short, realistic note for a task."""
    return rng.choice(_NOTES).format(first=rng.faker.first_name(), company=rng.faker.company())


def random_due_ms(rng: TaskRng, first: int = DUE_FIRST, last: int = DUE_LAST) -> int:
    """A due time in ms on a whole minute in [first, last) (epoch seconds)."""
    return to_ms(random_epoch(rng, first - first % 60, last, step=60))


def random_task(
    rng: TaskRng,
    *,
    title: str | None = None,
    notes: str | None = None,
    importance: int | None = None,
    due_ms: int | None = None,
    completed: bool | None = None,
    completed_ms: int | None = None,
    **columns: Any,
) -> dict[str, Any]:
    """A realistic `tasks` row without its key.

    Unset fields: a title and note, an importance 0–3, a due time within a week of the device
    time (`due_ms=0` for none), and — for a task due by now, with probability 0.3 — a completion
    time between its creation and the device time (`completed=True/False` forces it, and
    `completed_ms` sets it). Creation is 1–10 days before the due time and never after the
    device time; `modified` follows the completion. Other columns go through `columns`.
    """
    unknown = set(columns) - set(COLUMNS[1:])
    if unknown:
        raise ValueError(f"unknown tasks column(s): {', '.join(sorted(unknown))}")
    if importance is None:
        importance = rng.choice(sorted(IMPORTANCE_NAMES))
    elif importance not in IMPORTANCE_NAMES:
        raise ValueError(f"importance must be 0 (high) to 3 (none), got {importance}")
    title = random_title(rng) if title is None else title
    notes = random_notes(rng) if notes is None else notes
    due_ms = random_due_ms(rng) if due_ms is None else int(due_ms)
    anchor = min(from_ms(due_ms), DEVICE_EPOCH) if due_ms else DEVICE_EPOCH
    created = anchor - random_epoch(rng, DAY_SECONDS, 10 * DAY_SECONDS, step=60)
    if completed_ms is None:
        if completed is None:
            completed = bool(due_ms) and from_ms(due_ms) <= DEVICE_EPOCH and rng.random() < COMPLETED_SHARE
        completed_ms = to_ms(random_epoch(rng, created + 60, DEVICE_EPOCH, step=60)) if completed else 0
    row: dict[str, Any] = {
        "title": title,
        "importance": importance,
        "dueDate": due_ms,
        "created": to_ms(created),
        "modified": max(to_ms(created), int(completed_ms)),
        "completed": int(completed_ms),
        "notes": notes,
        "remoteId": str(rng.getrandbits(128)),
    }
    row.update(DEFAULTS)
    row.update(columns)
    return {column: row[column] for column in COLUMNS[1:]}


def noise_tasks(
    rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None, **kwargs: Any
) -> list[dict[str, Any]]:
    """`n` random tasks none of which `exclude` rejects (`kwargs` go to `random_task`)."""
    return generate_excluding(lambda: random_task(rng, **kwargs), n, exclude)


# --- reading a row ----------------------------------------------------------------------------
def is_completed(task: dict[str, Any]) -> bool:
    return int(task["completed"]) > 0


def is_deleted(task: dict[str, Any]) -> bool:
    return int(task["deleted"]) > 0


def has_due_time(due_ms: int) -> bool:
    """Tasks.org shows a time of day only when the due time has seconds set (`% 60000 > 0`)."""
    return int(due_ms) % 60000 > 0


def importance_name(importance: int) -> str:
    """"high" for 0 … "none" for 3."""
    return IMPORTANCE_NAMES[int(importance)]


def format_due_date(task: dict[str, Any]) -> str:
    """"October 17 2023" ("" when the task has no due date)."""
    return format_date(from_ms(task["dueDate"])) if task["dueDate"] else ""


def format_due_time(task: dict[str, Any]) -> str:
    """"14:30" ("" when the task has no due date)."""
    return format_time(from_ms(task["dueDate"])) if task["dueDate"] else ""


# --- device access ----------------------------------------------------------------------------
#: The `tasks` table (key `_id`) of `/data/data/org.tasks/databases/database`.
TASKS = DATABASE.table(TABLE, KEY, defaults=DEFAULTS)
COLUMNS = TASKS.column_names  # in the order the DDL declares them


APP = App(
    name="tasks",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(TASKS,),
    aliases=("tasks.org", "org.tasks", "tasks app"),
)
