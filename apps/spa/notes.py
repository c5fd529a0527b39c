"""Ladder kinds on notes and records: Markor (notes; a folder with a note, SPA's Evernote
notebook ladder), Broccoli (a recipe filled in level by level) and Pro Expense (a deletion, then
an entry)."""
from __future__ import annotations

from typing import Any

from taskkit.apps import broccoli, expense, markor
from taskkit.apps.bmoca_detect import find_and_tap, reveal
from taskkit.apps.common import format_amount, random_name_stem
from taskkit.apps.markor.tasks import EDITOR
from taskkit.apps.spa import zh
from taskkit.apps.spa.kind import NOISE_SEED, TEXT, Kind
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, long_press, open_app, tap, type_text
from taskkit.gui_reference import text as text_is
from taskkit.rng import TaskRng
from taskkit.validators import Validator, all_of, file_absent, file_content, folder_exists, not_, row_exists, rows_added, rows_deleted

_FILE = {"type": "string", "pattern": r"^[^/\s]+\.md$"}
_FOLDER = {"type": "string", "pattern": r"^[^/\s.]+$"}


def _note_name(rng: TaskRng, chinese: bool) -> str:
    return (rng.choice(zh.NOTE_TITLES) if chinese else random_name_stem(rng)) + ".md"


def _note_text(rng: TaskRng, chinese: bool) -> str:
    return rng.choice(zh.NOTE_TEXTS) if chinese else rng.faker.sentence(nb_words=8)


def _markor_noise(env: TaskEnv, seed: int, avoid: set[str]) -> None:
    rng = TaskRng(seed)
    for _ in range(rng.randint(1, 3)):
        name = markor.random_file_name(rng)
        if name not in avoid:
            markor.create_note(env.device, name, markor.random_note_text(rng))


def _new_note(name: str, text: str | None = None) -> list[Step]:
    """From Markor's list: the add button, the name, OK (the editor opens); the text, back."""
    steps = [tap("fab_add_new_item"), type_text("new_file_dialog__name", name), tap("button1")]
    return steps + ([type_text(EDITOR, text), back()] if text is not None else [])


class MarkorNoteKind(Kind):
    """L1 a new note; L2 its text; L3 a second note with its text."""

    app_names = ("markor",)
    adds = (("name", "noise_seed"), ("text",), ("name2", "text2"))
    properties = {"name": _FILE, "noise_seed": NOISE_SEED, "text": TEXT, "name2": _FILE, "text2": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        name = _note_name(rng, chinese)
        drawn = {"name": name, "noise_seed": rng.getrandbits(32), "text": _note_text(rng, chinese)}
        name2 = _note_name(rng, chinese)
        while name2 == name:
            name2 = _note_name(rng, chinese)
        return drawn | {"name2": name2, "text2": _note_text(rng, chinese)}

    def _notes(self) -> list[tuple[str, str]]:
        notes = [(self.p["name"], self.p.get("text", ""))]
        return notes + ([(self.p["name2"], self.p["text2"])] if self.at(3) else [])

    def setup(self, env: TaskEnv) -> None:
        markor.reset(env.device)
        _markor_noise(env, self.p["noise_seed"], {name for name, _ in self._notes()})

    def check(self) -> Validator:
        return all_of(*(file_content(markor.note_path(name), text) for name, text in self._notes()))

    def solve(self, env: TaskEnv) -> None:
        for name, text in self._notes():
            markor.create_note(env.device, name, text)
        markor.APP.launch(env.device)  # the list shows the notes' names

    def steps(self) -> list[Step]:
        steps = [open_app("markor"), *_new_note(self.p["name"], self.p.get("text"))]
        return steps + (_new_note(self.p["name2"], self.p["text2"]) if self.at(3) else [])


class MarkorFolderKind(Kind):
    """L1 a new folder; L2 a note in it; L3 the note's text, back in the folder."""

    app_names = ("markor",)
    adds = (("folder", "noise_seed"), ("name",), ("text",))
    properties = {"folder": _FOLDER, "noise_seed": NOISE_SEED, "name": _FILE, "text": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        folder = rng.choice(zh.FOLDERS) if chinese else rng.choice(markor.SUBFOLDERS)
        return {"folder": folder, "noise_seed": rng.getrandbits(32), "name": _note_name(rng, chinese),
                "text": _note_text(rng, chinese)}

    def setup(self, env: TaskEnv) -> None:
        markor.reset(env.device)
        _markor_noise(env, self.p["noise_seed"], {self.p["folder"]})

    def check(self) -> Validator:
        if not self.at(2):
            return folder_exists(markor.note_path(self.p["folder"]))
        return file_content(markor.note_path(self.p["name"], self.p["folder"]), self.p.get("text", ""))

    def solve(self, env: TaskEnv) -> None:
        folder = markor.note_path(self.p["folder"])
        env.device.files.mkdir(folder)
        if self.at(2):
            markor.create_note(env.device, self.p["name"], self.p.get("text", ""), self.p["folder"])
        markor.APP.launch(env.device)  # the list shows the folder

    def steps(self) -> list[Step]:
        steps = [open_app("markor"), tap("fab_add_new_item"), type_text("new_file_dialog__name", self.p["folder"]),
                 tap("button3")]
        if self.at(2):  # the note saved by leaving the editor: back in the folder
            steps += [tap(self.p["folder"]), *_new_note(self.p["name"], self.p.get("text"))]
        return steps


class MarkorTidyKind(Kind):
    """L1 a note deleted; L2 another renamed; L3 a third moved into a folder (SPA's Files ladder)."""

    app_names = ("markor",)
    adds = (("note1", "noise_seed"), ("note2", "renamed"), ("note3", "folder"))
    properties = {"note1": _FILE, "noise_seed": NOISE_SEED, "note2": _FILE, "renamed": _FILE, "note3": _FILE,
                  "folder": _FOLDER}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        names: list[str] = []
        while len(names) < 4:
            name = _note_name(rng, chinese)
            names += [name] if name not in names else []
        return {"note1": names[0], "noise_seed": rng.getrandbits(32), "note2": names[1], "renamed": names[2],
                "note3": names[3], "folder": rng.choice(markor.SUBFOLDERS)}

    def _texts(self) -> dict[str, str]:
        rng = TaskRng(self.p["noise_seed"])
        return {self.p[key]: markor.random_note_text(rng) for key in ("note1", "note2", "note3") if key in self.p}

    def setup(self, env: TaskEnv) -> None:
        markor.reset(env.device)
        for name, text in self._texts().items():
            markor.create_note(env.device, name, text)
        env.device.files.mkdir(markor.note_path(self.p.get("folder", markor.SUBFOLDERS[0])))

    def _moves(self) -> list[tuple[str, str | None]]:
        """Each note's new place: (name, folder), or None for a deleted one."""
        moves: list[tuple[str, str | None] | None] = [None]
        if self.at(2):
            moves.append((self.p["renamed"], None))
        if self.at(3):
            moves.append((self.p["note3"], self.p["folder"]))
        return moves  # type: ignore[return-value]

    def check(self) -> Validator:
        texts = self._texts()
        parts = [file_absent(markor.note_path(name)) for name in texts]
        for (name, text), moved in zip(texts.items(), self._moves()):
            if moved is not None:
                parts.append(file_content(markor.note_path(moved[0], moved[1]), text))
        return all_of(*parts)

    def solve(self, env: TaskEnv) -> None:
        for (name, text), moved in zip(self._texts().items(), self._moves()):
            env.device.files.remove(markor.note_path(name))
            if moved is not None:
                markor.create_note(env.device, moved[0], text, moved[1])
        markor.APP.launch(env.device)

    def steps(self) -> list[Step]:
        steps = [open_app("markor"), long_press(self.p["note1"]), tap("action_delete_selected_items"), tap("button1")]
        if self.at(2):
            steps += [long_press(self.p["note2"]), tap("action_rename_selected_item"),
                      type_text("new_name", self.p["renamed"], clear=True), tap("button1")]
        if self.at(3):
            steps += [long_press(self.p["note3"]), tap("More options"), tap("Move"), tap(self.p["folder"]),
                      tap("Select this folder")]
        return steps


def _recipe(rng: TaskRng, chinese: bool) -> dict[str, str]:
    if not chinese:
        row = broccoli.random_recipe(rng)
        return {field: row[field] for field in ("title", "description", "servings", "ingredients", "directions")}
    fake = zh.faker(rng)
    return {"title": rng.choice(zh.DISHES), "description": rng.choice(zh.DESCRIPTIONS).format(name=fake.first_name()),
            "servings": rng.choice(zh.SERVINGS), "ingredients": "、".join(rng.sample(zh.INGREDIENTS, 4)),
            "directions": "".join(rng.sample(zh.DIRECTIONS, 3))}


class RecipeKind(Kind):
    """L1 a recipe's title; L2 its description and servings; L3 its ingredients and directions."""

    app_names = ("broccoli",)
    adds = (("title", "noise_seed"), ("description", "servings"), ("ingredients", "directions"))
    properties = {name: TEXT for name in ("title", "description", "servings", "ingredients", "directions")} | {
        "noise_seed": NOISE_SEED}
    _FIELDS = {"title": "new_title", "description": "new_description", "servings": "new_servings",
               "ingredients": "new_ingredients", "directions": "new_directions"}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        recipe = _recipe(rng, chinese)
        return {"title": recipe["title"], "noise_seed": rng.getrandbits(32)} | recipe

    def _row(self) -> dict[str, str]:
        return {field: self.p[field] for field in self._FIELDS if field in self.p}

    def setup(self, env: TaskEnv) -> None:
        rng = TaskRng(self.p["noise_seed"])
        broccoli.RECIPES.insert(env.device, broccoli.noise_recipes(rng, 3, exclude=lambda r: r["title"] == self.p["title"]))
        broccoli.APP.force_stop(env.device)

    def check(self) -> Validator:
        return rows_added(broccoli.RECIPES, [self._row()])

    def solve(self, env: TaskEnv) -> None:
        empty = {field: "" for field in ("description", "servings", "preparationTime", "ingredients", "directions")}
        broccoli.RECIPES.insert(env.device, [{**empty, "imageName": "", "source": "", "favorite": 0, **self._row()}])
        broccoli.APP.force_stop(env.device)
        broccoli.APP.launch(env.device)  # the list shows the titles

    def steps(self) -> list[Step]:
        typed = [type_text(rid, self.p[field]) for field, rid in self._FIELDS.items() if field in self.p]
        return [open_app("broccoli"), tap("fab_recipes"), *typed, tap("button_save_recipe")]


class ExpenseKind(Kind):
    """L1 an expense deleted; L2 a new one entered (name, amount); L3 its category and note."""

    app_names = ("pro expense",)
    adds = (("old", "noise_seed"), ("name", "amount"), ("category", "note"))
    properties = {"old": TEXT, "noise_seed": NOISE_SEED, "name": TEXT,
                  "amount": {"type": "integer", "minimum": 100, "maximum": 99999},
                  "category": {"enum": [expense.category_name(c) for c in expense.CATEGORIES if c != 1]}, "note": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        old = rng.choice(zh.EXPENSE_NAMES) if chinese else expense.random_expense(rng)["name"]
        name = old
        while name == old:
            name = rng.choice(zh.EXPENSE_NAMES) if chinese else expense.random_expense(rng)["name"]
        note = rng.choice(zh.EXPENSE_NOTES) if chinese else expense.random_expense(rng)["note"]
        return {"old": old, "noise_seed": rng.getrandbits(32), "name": name, "amount": rng.randint(100, 99999),
                "category": expense.category_name(rng.randint(2, 11)), "note": note}

    def _category(self) -> int:
        return next(c for c in expense.CATEGORIES if expense.category_name(c) == self.p["category"])

    def _entry(self) -> dict[str, Any]:
        row = {"name": self.p["name"], "amount": self.p["amount"]}
        return row | ({"category": self._category(), "note": self.p["note"]} if self.at(3) else {})

    def setup(self, env: TaskEnv) -> None:
        rng = TaskRng(self.p["noise_seed"])
        avoid = {self.p["old"], self.p.get("name")}
        rows = expense.noise_expenses(rng, 4, exclude=lambda row: row["name"] in avoid)
        expense.EXPENSES.insert(env.device, rows + [expense.random_expense(rng, name=self.p["old"])])

    def check(self) -> Validator:
        if not self.at(2):
            return rows_deleted(expense.EXPENSES, {"name": self.p["old"]})
        return all_of(not_(row_exists(expense.EXPENSES, {"name": self.p["old"]})),
                      row_exists(expense.EXPENSES, self._entry()))

    def solve(self, env: TaskEnv) -> None:
        expense.EXPENSES.delete(env.device, {"name": self.p["old"]})
        if self.at(2):
            row = expense.random_expense(TaskRng(0), category=1, note="", created_ms=env.device.clock.now_ms())
            expense.EXPENSES.insert(env.device, [row | self._entry()])
        expense.APP.launch(env.device)  # Home's Recent shows the names
        if self.at(2) and not reveal(env.device, [expense.shown_name(self.p["name"])]):
            # a narrow screen (bmoca-108: 246 dp wide) leaves the row no room for its name: its details show it
            find_and_tap(env.device, text_is(expense.shown_amount(self.p["amount"])))

    def steps(self) -> list[Step]:
        steps = [open_app("pro expense"), tap("btn_more_logs"),  # the logs list every expense, Home four
                 long_press(expense.shown_name(self.p["old"])), tap("btn_confirm")]
        if self.at(2):  # the add button is Home's: BACK from the logs first
            steps += [back(), tap("fb_main_add"), type_text("edt_name", self.p["name"]),
                      type_text("edt_amount", format_amount(self.p["amount"]).lstrip("$"))]
        if self.at(3):
            steps += [tap(self.p["category"]), type_text("edt_note", self.p["note"])]
        return steps + ([tap("btn_save")] if self.at(2) else [])
