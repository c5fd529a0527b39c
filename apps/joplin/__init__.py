"""Joplin: notes and notebooks (folders) in joplin.sqlite, and realistic Markdown notes.

Ids are 32 lowercase hex characters (drawn from the task's rng); times are epoch
**milliseconds**. Joplin searches `notes_normalized`, a lower-cased, accent-free copy of each
note that the app's search engine maintains: a note written from outside the app must be
written there too, so `NOTES.insert` and `NOTES.clear` keep both tables in step (reference
android-apps.md §4.10). A completed to-do holds its completion time in `todo_completed`.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Callable, Sequence

from taskkit.apps.tasks_org import random_due_ms, random_notes, random_title
from taskkit.apps.base import App
from taskkit.apps.table import Database, Mirror
from taskkit.apps.common import (
    DAY_SECONDS,
    DEVICE_EPOCH,
    format_date,
    generate_excluding,
    random_epoch,
    to_ms,
)
from taskkit.rng import TaskRng

PACKAGE = "net.cozic.joplin"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/joplin.sqlite"
NOTES_TABLE, NORMALIZED_TABLE, FOLDERS_TABLE = "notes", "notes_normalized", "folders"
KEY = "id"

# What the app creates on its first run (reference android-apps.md §4.10).
DDL = """
CREATE TABLE folders (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    parent_id TEXT NOT NULL DEFAULT '',
    created_time INT NOT NULL,
    updated_time INT NOT NULL,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0,
    deleted_time INT NOT NULL DEFAULT 0,
    encryption_cipher_text TEXT NOT NULL DEFAULT '',
    encryption_applied INT NOT NULL DEFAULT 0,
    is_shared INT NOT NULL DEFAULT 0,
    share_id TEXT NOT NULL DEFAULT '',
    master_key_id TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    user_data TEXT NOT NULL DEFAULT ''
);
CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    parent_id TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    created_time INT NOT NULL,
    updated_time INT NOT NULL,
    is_conflict INT NOT NULL DEFAULT 0,
    latitude NUMERIC NOT NULL DEFAULT 0,
    longitude NUMERIC NOT NULL DEFAULT 0,
    altitude NUMERIC NOT NULL DEFAULT 0,
    author TEXT NOT NULL DEFAULT '',
    source_url TEXT NOT NULL DEFAULT '',
    is_todo INT NOT NULL DEFAULT 0,
    todo_due INT NOT NULL DEFAULT 0,
    todo_completed INT NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT '',
    source_application TEXT NOT NULL DEFAULT '',
    application_data TEXT NOT NULL DEFAULT '',
    `order` NUMERIC NOT NULL DEFAULT 0,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0,
    encryption_cipher_text TEXT NOT NULL DEFAULT '',
    encryption_applied INT NOT NULL DEFAULT 0,
    markup_language INT NOT NULL DEFAULT 1,
    is_shared INT NOT NULL DEFAULT 0,
    share_id TEXT NOT NULL DEFAULT '',
    conflict_original_id TEXT NOT NULL DEFAULT '',
    master_key_id TEXT NOT NULL DEFAULT '',
    user_data TEXT NOT NULL DEFAULT ''
);
CREATE INDEX notes_title ON notes (title);
CREATE INDEX notes_updated_time ON notes (updated_time);
CREATE INDEX notes_is_todo ON notes (is_todo);
CREATE TABLE notes_normalized (
    id TEXT NOT NULL,
    parent_id TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    latitude NUMERIC NOT NULL DEFAULT 0,
    longitude NUMERIC NOT NULL DEFAULT 0,
    altitude NUMERIC NOT NULL DEFAULT 0,
    source_url TEXT NOT NULL DEFAULT '',
    is_todo INT NOT NULL DEFAULT 0,
    todo_due INT NOT NULL DEFAULT 0,
    todo_completed INT NOT NULL DEFAULT 0,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0
);
CREATE INDEX notes_normalized_id ON notes_normalized (id);
CREATE TABLE item_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_type INT NOT NULL,
    item_id TEXT NOT NULL,
    type INT NOT NULL,
    created_time INT NOT NULL
);
"""
DATABASE = Database(DB_PATH, DDL)

MARKDOWN, HTML = 1, 2
NOTE_DEFAULTS: dict[str, Any] = {
    "is_conflict": 0, "latitude": 0.0, "longitude": 0.0, "altitude": 0.0, "author": "",
    "source_url": "", "source": "joplin-mobile", "source_application": "net.cozic.joplin-mobile",
    "application_data": "", "order": 0.0, "encryption_cipher_text": "", "encryption_applied": 0,
    "markup_language": MARKDOWN, "is_shared": 0, "share_id": "", "conflict_original_id": "",
    "master_key_id": "", "user_data": "",
}  # fmt: skip
FOLDER_DEFAULTS: dict[str, Any] = {
    "deleted_time": 0, "encryption_cipher_text": "", "encryption_applied": 0, "is_shared": 0,
    "share_id": "", "master_key_id": "", "icon": "", "user_data": "",
}  # fmt: skip

HISTORY_DAYS = 60  # generated notes were created at most this long before the device time

FOLDER_TITLES = (
    "Work", "Personal", "Recipes", "Travel", "Meeting notes", "Journal", "Projects",
    "Reading list", "Ideas", "Fitness", "Home", "Shopping", "Study notes", "Finances",
)  # fmt: skip

# Recipes: title -> ingredients as (amount, unit, ingredient); units are spelled out, and a
# countable ingredient has no unit ("3", "", "ripe bananas").
Ingredient = tuple[str, str, str]
RECIPES: dict[str, tuple[Ingredient, ...]] = {
    "Banana bread": (("3", "", "ripe bananas"), ("2", "cups", "flour"), ("1", "teaspoon", "baking soda"),
                     ("0.5", "cup", "sugar"), ("1", "", "egg"), ("0.25", "cup", "melted butter")),
    "Pancakes": (("1.5", "cups", "flour"), ("1.25", "cups", "milk"), ("1", "", "egg"),
                 ("2", "tablespoons", "sugar"), ("3.5", "teaspoons", "baking powder"), ("1", "pinch", "salt")),
    "Tomato soup": (("800", "grams", "canned tomatoes"), ("1", "", "onion"), ("2", "cloves", "garlic"),
                    ("500", "milliliters", "vegetable stock"), ("2", "tablespoons", "olive oil"),
                    ("100", "milliliters", "cream")),
    "Guacamole": (("3", "", "avocados"), ("1", "", "lime"), ("0.5", "teaspoon", "salt"),
                  ("1", "", "tomato"), ("2", "tablespoons", "chopped cilantro")),
    "Chili con carne": (("500", "grams", "ground beef"), ("400", "grams", "kidney beans"), ("1", "", "onion"),
                        ("2", "teaspoons", "chili powder"), ("1", "teaspoon", "cumin"),
                        ("400", "grams", "chopped tomatoes")),
    "Overnight oats": (("0.5", "cup", "rolled oats"), ("0.5", "cup", "milk"), ("0.25", "cup", "yogurt"),
                       ("1", "tablespoon", "chia seeds"), ("1", "teaspoon", "honey")),
    "Lemon vinaigrette": (("3", "tablespoons", "olive oil"), ("1", "tablespoon", "lemon juice"),
                          ("1", "teaspoon", "dijon mustard"), ("1", "pinch", "salt")),
    "Pesto pasta": (("400", "grams", "pasta"), ("2", "cups", "basil leaves"), ("50", "grams", "parmesan"),
                    ("0.5", "cup", "pine nuts"), ("0.5", "cup", "olive oil"), ("2", "cloves", "garlic")),
}
_MEETINGS = (
    "Sprint planning", "Budget review", "Marketing sync", "Design critique", "Hiring committee",
    "Quarterly roadmap", "Vendor call", "Team retrospective", "Board prep", "Client kickoff",
)
_DISCUSSION = (
    "Agreed to move the launch by one week.", "Budget is on track for the quarter.",
    "Need more data before deciding.", "Two open bugs block the release.",
    "The new process will start next month.", "Feedback from the pilot was positive.",
    "Hiring for the open role continues.", "Vendor contract is up for renewal.",
)
_ACTIONS = (
    "Send the summary to everyone", "Update the project plan", "Book the next meeting",
    "Share the draft with the team", "Collect the missing numbers", "Follow up with the client",
)
_IDEAS = (
    "Start a weekly newsletter", "Learn to bake sourdough", "Plant herbs on the balcony",
    "Build a bookshelf for the hallway", "Try a new running route", "Write a short story",
    "Organize the photo library", "Plan a weekend trip to the coast", "Set up a budget spreadsheet",
)
_JOURNAL = (
    "Woke up early and went for a walk before work.", "Long day, but the presentation went well.",
    "Cooked dinner with {first} and watched a movie.", "Finally finished the book I started last month.",
    "Rainy day, stayed in and cleaned the apartment.", "Called {first} to catch up about the trip.",
)
_BOOKS = (
    "The Midnight Library", "Project Hail Mary", "Atomic Habits", "Educated", "The Overstory",
    "Sapiens", "Circe", "The Martian", "Thinking Fast and Slow", "Station Eleven",
)


def random_id(rng: TaskRng) -> str:
    """A Joplin item id: 32 lowercase hex characters from `rng`."""
    return f"{rng.getrandbits(128):032x}"


def normalize_text(text: str) -> str:
    """What Joplin's search indexes: lower case, accents removed ("Café Crème" → "cafe creme")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _times(rng: TaskRng, created_ms: int | None) -> tuple[int, int]:
    if created_ms is None:
        created = random_epoch(rng, DEVICE_EPOCH - HISTORY_DAYS * DAY_SECONDS, DEVICE_EPOCH - 3600, step=60)
        created_ms = to_ms(created)
    updated_ms = created_ms + to_ms(random_epoch(rng, 0, max(1, (to_ms(DEVICE_EPOCH) - created_ms) // 1000)))
    return created_ms, min(updated_ms, to_ms(DEVICE_EPOCH))


# --- folders ----------------------------------------------------------------------------------
def random_folder(
    rng: TaskRng, *, title: str | None = None, parent_id: str = "", created_ms: int | None = None, **columns: Any
) -> dict[str, Any]:
    """A `folders` row (a notebook) with its id; top level unless `parent_id` is given."""
    unknown = set(columns) - set(FOLDER_COLUMNS)
    if unknown:
        raise ValueError(f"unknown folders column(s): {', '.join(sorted(unknown))}")
    created_ms, updated_ms = _times(rng, created_ms)
    row: dict[str, Any] = {
        "id": random_id(rng),
        "title": rng.choice(FOLDER_TITLES) if title is None else title,
        "parent_id": parent_id,
        "created_time": created_ms,
        "updated_time": updated_ms,
        "user_created_time": created_ms,
        "user_updated_time": updated_ms,
    }
    row.update(FOLDER_DEFAULTS)
    row.update(columns)
    return {column: row[column] for column in FOLDER_COLUMNS}


def random_folders(rng: TaskRng, n: int, exclude: Sequence[str] = ()) -> list[dict[str, Any]]:
    """`n` top-level notebooks with distinct titles from `FOLDER_TITLES`, none titled as in `exclude`."""
    titles = [t for t in FOLDER_TITLES if t not in set(exclude)]
    if n > len(titles):
        raise ValueError(f"only {len(titles)} distinct notebook titles are available, {n} asked")
    return [random_folder(rng, title=title) for title in rng.sample(titles, n)]


# --- note bodies ------------------------------------------------------------------------------
def meeting_body(rng: TaskRng, title: str, attendees: Sequence[str], day: int | None = None) -> str:
    """Markdown minutes of a meeting, listing `attendees` one per bullet."""
    day = random_epoch(rng, DEVICE_EPOCH - 30 * DAY_SECONDS, DEVICE_EPOCH) if day is None else day
    people = "\n".join(f"- {name}" for name in attendees)
    notes = "\n".join(f"- {line}" for line in rng.sample(_DISCUSSION, 3))
    actions = "\n".join(f"- [ ] {line}" for line in rng.sample(_ACTIONS, 2))
    return (f"# {title}\n\nDate: {format_date(day)}\n\n## Attendees\n\n{people}\n\n"
            f"## Notes\n\n{notes}\n\n## Action items\n\n{actions}\n")


def random_attendees(rng: TaskRng, n: int) -> list[str]:
    """`n` distinct full names."""
    names: list[str] = []
    while len(names) < n:
        name = rng.faker.name()
        if name not in names:
            names.append(name)
    return names


def ingredient_quantity(ingredient: Ingredient) -> str:
    """"2 cups", "3" (a countable ingredient): the amount and unit a recipe gives."""
    amount, unit, _ = ingredient
    return f"{amount} {unit}" if unit else amount


def recipe_body(title: str, ingredients: Sequence[Ingredient] | None = None) -> str:
    """Markdown recipe: the ingredients as "amount unit ingredient" bullets, then steps."""
    items = RECIPES[title] if ingredients is None else ingredients
    lines = "\n".join(f"- {ingredient_quantity(item)} {item[2]}" for item in items)
    return (f"# {title}\n\n## Ingredients\n\n{lines}\n\n## Steps\n\n"
            "1. Prepare the ingredients.\n2. Combine and cook as usual.\n3. Serve.\n")


def _checklist(rng: TaskRng) -> str:
    items = "\n".join(f"- [{'x' if rng.random() < 0.3 else ' '}] {random_title(rng)}"
                      for _ in range(rng.randint(3, 6)))
    return f"{items}\n"


def _journal(rng: TaskRng) -> str:
    lines = [rng.choice(_JOURNAL).format(first=rng.faker.first_name()) for _ in range(rng.randint(2, 4))]
    return "\n\n".join(lines) + "\n"


_WHY = (
    "It would save time every week.", "{first} suggested it and it sounds fun.",
    "Something to do on rainy weekends.", "Good way to learn something new.",
    "It keeps coming up, so worth a try.", "Cheap to start and easy to drop.",
)
_STEPS = (
    "look into it this week", "ask {first} for advice", "set a budget", "find a free evening",
    "read one article about it", "make a list of what is needed",
)


def _idea(rng: TaskRng) -> str:
    first = rng.faker.first_name()
    why, step = rng.choice(_WHY).format(first=first), rng.choice(_STEPS).format(first=first)
    return f"{why}\n\n- First step: {step}\n"


def _meeting(rng: TaskRng) -> tuple[str, str]:
    title = rng.choice(_MEETINGS)
    return title, meeting_body(rng, title, random_attendees(rng, rng.randint(2, 6)))


def _recipe(rng: TaskRng) -> tuple[str, str]:
    title = rng.choice(sorted(RECIPES))
    return title, recipe_body(title)


def _journal_entry(rng: TaskRng) -> tuple[str, str]:
    day = random_epoch(rng, DEVICE_EPOCH - 30 * DAY_SECONDS, DEVICE_EPOCH)
    return f"Journal {format_date(day)}", _journal(rng)


# Each maker returns (title, body) for one kind of ordinary note.
_KINDS: tuple[Callable[[TaskRng], tuple[str, str]], ...] = (
    _meeting,
    _recipe,
    _journal_entry,
    lambda rng: (rng.choice(_IDEAS), _idea(rng)),
    lambda rng: (f"Notes on {rng.choice(_BOOKS)}", _idea(rng)),
    lambda rng: (rng.choice(("Packing list", "Shopping list", "Weekend chores", "Errands")), _checklist(rng)),
)


# --- notes ------------------------------------------------------------------------------------
def random_note(
    rng: TaskRng,
    *,
    parent_id: str,
    title: str | None = None,
    body: str | None = None,
    is_todo: bool | None = None,
    todo_completed: bool | int | None = None,
    todo_due: int | None = None,
    created_ms: int | None = None,
    **columns: Any,
) -> dict[str, Any]:
    """A `notes` row with its id, in notebook `parent_id`.

    Unset: one note in four is a to-do (a task title, a short body, due within a week of the
    device time half the time, completed — `todo_completed` a time in ms — one time in three);
    other notes are meeting minutes, recipes, journal entries, ideas or checklists. Creation is
    up to 60 days before the device time. `todo_completed=True` stores a completion time, an int
    stores itself.
    """
    unknown = set(columns) - set(NOTE_COLUMNS)
    if unknown:
        raise ValueError(f"unknown notes column(s): {', '.join(sorted(unknown))}")
    if is_todo is None:
        is_todo = rng.random() < 0.25
    if title is None or body is None:
        if is_todo:
            made_title, made_body = random_title(rng), random_notes(rng) + "\n"
        else:
            made_title, made_body = rng.choice(_KINDS)(rng)
        title = made_title if title is None else title
        body = made_body if body is None else body
    created_ms, updated_ms = _times(rng, created_ms)
    if is_todo and todo_due is None:
        todo_due = random_due_ms(rng) if rng.random() < 0.5 else 0
    if is_todo and todo_completed is None:
        todo_completed = rng.random() < 1 / 3
    done_ms = 0
    if is_todo and todo_completed is True:
        done_ms = updated_ms
    elif is_todo and todo_completed:
        done_ms = int(todo_completed)
    row: dict[str, Any] = {
        "id": random_id(rng),
        "parent_id": parent_id,
        "title": title,
        "body": body,
        "created_time": created_ms,
        "updated_time": updated_ms,
        "is_todo": int(bool(is_todo)),
        "todo_due": int(todo_due or 0) if is_todo else 0,
        "todo_completed": done_ms,
        "user_created_time": created_ms,
        "user_updated_time": updated_ms,
    }
    row.update(NOTE_DEFAULTS)
    row.update(columns)
    return {column: row[column] for column in NOTE_COLUMNS}


def noise_notes(
    rng: TaskRng,
    n: int,
    folder_ids: Sequence[str],
    exclude: Callable[[dict[str, Any]], bool] | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """`n` random notes spread over `folder_ids`, none of which `exclude` rejects."""
    return generate_excluding(lambda: random_note(rng, parent_id=rng.choice(folder_ids), **kwargs), n, exclude)


def normalized_row(note: dict[str, Any]) -> dict[str, Any]:
    """The `notes_normalized` row that Joplin's search keeps for `note`: the columns the note
    gives (the rest take the table's SQL defaults), title and body normalized."""
    row = {column: note[column] for column in NORMALIZED_COLUMNS if column in note}
    for column in ("title", "body"):
        if column in row:
            row[column] = normalize_text(str(row[column]))
    return row


def is_completed(note: dict[str, Any]) -> bool:
    return bool(note["is_todo"]) and int(note["todo_completed"]) > 0


# --- device access ----------------------------------------------------------------------------
#: The `notes_normalized` table (key `id`) of `/data/data/net.cozic.joplin/databases/joplin.sqlite`.
NOTES_NORMALIZED = DATABASE.table(NORMALIZED_TABLE, KEY)
# Joplin keeps `notes_normalized` (what its search reads) in step with every note it writes.
#: The `notes` table (key `id`) of `/data/data/net.cozic.joplin/databases/joplin.sqlite`.
NOTES = DATABASE.table(NOTES_TABLE, KEY, defaults=NOTE_DEFAULTS, mirror=Mirror(NOTES_NORMALIZED, normalized_row))
#: The `folders` table (key `id`) of `/data/data/net.cozic.joplin/databases/joplin.sqlite`.
FOLDERS = DATABASE.table(FOLDERS_TABLE, KEY, defaults=FOLDER_DEFAULTS)
NOTE_COLUMNS, NORMALIZED_COLUMNS, FOLDER_COLUMNS = (NOTES.column_names, NOTES_NORMALIZED.column_names,
                                                    FOLDERS.column_names)


APP = App(
    name="joplin",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(NOTES, FOLDERS, NOTES_NORMALIZED),
    aliases=("joplin notes", "net.cozic.joplin"),
)
