"""Pro Expense tasks: add, delete and de-duplicate expenses (AndroidWorld's Expense* family)."""
from __future__ import annotations

import csv
import io
from typing import Any

from taskkit.apps import expense, markor, pictures, simple_gallery_pro
from taskkit.apps.common import device_now_ms
from taskkit.device.quoting import sql_literal
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, in_row_of, long_press, open_app, tap, text, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import duplicates_removed, rows_added, rows_deleted

EXPENSES = expense.EXPENSES
_APP = ("pro expense",)
_FIELDS = ("name", "amount", "category", "note")
_EXPENSE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "amount": {"type": "integer", "minimum": 1},
        "category": {"type": "integer", "minimum": 1, "maximum": 11},
        "category_name": {"type": "string"},
        "note": {"type": "string"},
    },
    "required": ["name", "amount", "category", "category_name", "note"],
    "additionalProperties": False,
}
_NOISE_SEED = {"type": "integer", "minimum": 0}


def _expense_params(rng: TaskRng) -> dict[str, Any]:
    row = expense.random_expense(rng)
    return {field: row[field] for field in _FIELDS} | {"category_name": expense.category_name(row["category"])}


def _row(params: dict[str, Any]) -> dict[str, Any]:
    """The table row for an expense given in params, created at the device time."""
    now_ms = device_now_ms()
    return {field: params[field] for field in _FIELDS} | {"created_date": now_ms, "modified_date": now_ms}


def _insert(env: TaskEnv, rows: list[dict[str, Any]]) -> None:
    expense.EXPENSES.insert(env.device, rows)
    expense.APP.force_stop(env.device)


def _noise(params: dict[str, Any], count: int, names: set[str]) -> list[dict[str, Any]]:
    """Noise expenses whose names differ from every target's (so the answer never changes)."""
    rng = TaskRng(params["noise_seed"])
    lowered = {name.lower() for name in names}
    return expense.noise_expenses(rng, count, exclude=lambda row: row["name"].lower() in lowered)


def add_steps(item: dict[str, Any]) -> list[Step]:
    """From the expense list: the add button, the form filled in (the amount in dollars), Save."""
    dollars, cents = divmod(item["amount"], 100)
    return [tap("fb_main_add"), type_text("edt_name", item["name"]), type_text("edt_amount", f"{dollars}.{cents:02d}"),
            tap(item["category_name"]), type_text("edt_note", item["note"]), tap("btn_save")]


OPEN_LOGS = tap("btn_more_logs")  # Home's Recent shows four expenses; More opens the logs list, every one


def delete_steps(item: dict[str, Any]) -> list[Step]:
    """In the logs: long-press the expense (its name in the row of its amount, both as the row
    shows them: a look-alike costs more), Confirm."""
    row = in_row_of(text(expense.shown_amount(item["amount"])), text(expense.shown_name(item["name"])))
    return [long_press(row), tap("Confirm")]


class ExpenseAddMultiple(TaskEval):
    """Add several expenses with name, amount, category and note."""

    app_names = _APP
    complexity = 6
    tags = ("data_entry", "expense")
    count = 3
    template = (
        "Add the following expenses into Pro Expense:\n"
        "{% for item in expenses %}- {{ item.name }}: {{ item.amount | money }}, category {{ item.category_name }}, "
        "note '{{ item.note }}'\n{% endfor %}"
    )
    schema = {
        "type": "object",
        "properties": {"expenses": {"type": "array", "minItems": 1, "items": _EXPENSE}, "noise_seed": _NOISE_SEED},
        "required": ["expenses", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        items: list[dict[str, Any]] = []
        while len(items) < cls.count:
            item = _expense_params(rng)
            if all(item["name"] != other["name"] for other in items):
                items.append(item)
        return {"expenses": items, "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        _insert(env, _noise(self.params, rng.randint(0, 15), {e["name"] for e in self.params["expenses"]}))

    def validator(self):
        expected = [{f: item[f] for f in _FIELDS} for item in self.params["expenses"]]
        return rows_added(EXPENSES, expected, fuzzy=("name", "note"))

    def solve(self, env: TaskEnv) -> None:
        _insert(env, [_row(item) for item in self.params["expenses"]])

    def gui_reference(self) -> list[Step]:
        return [open_app("pro expense")] + [step for item in self.params["expenses"] for step in add_steps(item)]


class ExpenseAddMultipleFromMarkor(ExpenseAddMultiple):
    """Log the reimbursable expenses of a Markor note (my_expenses.txt, CSV) among many others."""

    app_names = _APP + ("markor",)
    complexity = 6  # AndroidWorld's
    tags = ("data_entry", "expense", "multi_app", "transcription")
    count = 2
    template = "Go through the transactions in my_expenses.txt in Markor. Log the reimbursable transactions in the pro expense."
    listed = 100  # other transactions in the note
    note = f"{markor.NOTES_DIR}/my_expenses.txt"

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        params = super().generate_random_params(rng)
        for item in params["expenses"]:
            item["note"] = f"{item['note']}. Reimbursable."  # what marks them, as in AndroidWorld
        return params

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        names = {item["name"].lower() for item in self.params["expenses"]}
        rng = TaskRng(self.params["noise_seed"] + 2)
        others = [row for row in expense.noise_expenses(rng, self.listed, exclude=lambda r: r["name"].lower() in names)]
        rows = [dict(item) for item in self.params["expenses"]] + others
        rng.shuffle(rows)
        text = io.StringIO()
        table = csv.writer(text, lineterminator="\n")  # quotes a field holding a comma
        table.writerow(["name", "amount", "category", "note"])
        table.writerows([row["name"], f"{row['amount'] / 100:.2f}", expense.category_name(row["category"]), row["note"]]
                        for row in rows)
        markor.APP.reset(env.device)  # the note alone in Markor's folder, as AndroidWorld clears it
        env.device.files.write_text(self.note, text.getvalue())

    def gui_reference(self) -> list[Step]:
        """Read the note in Markor (the reimbursable lines), then log those expenses."""
        return [open_app("markor"), tap("my_expenses.txt"), *super().gui_reference()]


def _expense_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Expenses as a list photographed: name, amount, category and note of each."""
    lines: list[str] = []
    for row in rows:
        lines += [f"Name: {row['name']}", f"Amount: ${row['amount'] / 100:.2f}",
                  f"Category: {expense.category_name(row['category'])}", f"Note: {row['note']}", ""]
    return lines


class ExpenseAddMultipleFromGallery(ExpenseAddMultiple):
    """Log the expenses a picture lists (expenses.jpg in DCIM), among ten older lists' pictures."""

    app_names = _APP + ("simple gallery pro",)
    complexity = 6  # AndroidWorld's
    tags = ("data_entry", "expense", "multi_app", "transcription")
    template = "Add the expenses from expenses.jpg in Simple Gallery Pro to pro expense."
    picture = "expenses.jpg"
    old = tuple(f"old_expenses_{index}.jpg" for index in range(10))

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        names = {item["name"].lower() for item in self.params["expenses"]}
        rng = TaskRng(self.params["noise_seed"] + 3)
        add = simple_gallery_pro.add_picture
        add(env.device, simple_gallery_pro.DCIM, self.picture, pictures.text_picture(_expense_lines(self.params["expenses"])))
        for name in self.old:
            others = expense.noise_expenses(rng, 3, exclude=lambda row: row["name"].lower() in names)
            add(env.device, simple_gallery_pro.DCIM, name, pictures.text_picture(_expense_lines(others)))

    def teardown(self, env: TaskEnv) -> None:
        simple_gallery_pro.remove_pictures(env.device, simple_gallery_pro.DCIM, [self.picture, *self.old])
        super().teardown(env)

    def gui_reference(self) -> list[Step]:
        """Look at the picture in Simple Gallery Pro, then log its expenses."""
        return [open_app("simple gallery pro"), tap("DCIM"), tap(self.picture), *super().gui_reference()]


class ExpenseAddSingle(ExpenseAddMultiple):
    """Add one expense."""

    complexity = 1.2  # AndroidWorld's
    count = 1
    template = (
        "Add the following expense into Pro Expense: {% for item in expenses %}name '{{ item.name }}', amount "
        "{{ item.amount | money }}, category {{ item.category_name }}, note '{{ item.note }}'.{% endfor %}"
    )


class ExpenseDeleteMultiple(TaskEval):
    """Delete the named expenses; every other expense stays."""

    app_names = _APP
    complexity = 2  # AndroidWorld's
    tags = ("data_edit", "expense")
    count = 3
    noise_count = 12  # other expenses around the targets
    template = "Delete the following expenses from Pro Expense: {{ targets | map(attribute='name') | join(', ') }}."
    schema = {
        "type": "object",
        "properties": {
            "targets": {"type": "array", "minItems": 1, "items": _EXPENSE},
            "noise_seed": _NOISE_SEED,
        },
        "required": ["targets", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        targets: list[dict[str, Any]] = []
        while len(targets) < cls.count:
            item = _expense_params(rng)
            if all(item["name"].lower() != other["name"].lower() for other in targets):
                targets.append(item)
        return {"targets": targets, "noise_seed": rng.getrandbits(32)}

    @property
    def names(self) -> list[str]:
        return [target["name"] for target in self.params["targets"]]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        noise = _noise(self.params, self.noise_count, set(self.names))
        half = len(noise) // 2
        _insert(env, noise[:half] + [_row(t) for t in self.params["targets"]] + noise[half:])

    def _named(self) -> str:
        return f"name IN ({', '.join(sql_literal(name) for name in self.names)})"

    def validator(self):
        return rows_deleted(EXPENSES, self._named())

    def solve(self, env: TaskEnv) -> None:
        EXPENSES.delete(env.device, self._named())
        expense.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        return [open_app("pro expense"), OPEN_LOGS] + [step for item in self.params["targets"] for step in delete_steps(item)]


class ExpenseDeleteSingle(ExpenseDeleteMultiple):
    """Delete one named expense."""

    complexity = 1  # AndroidWorld's
    count = 1
    template = "Delete the expense '{{ targets[0].name }}' from Pro Expense."


class ExpenseDeleteMultiple2(ExpenseDeleteMultiple):
    """AndroidWorld's harder ExpenseDeleteMultiple: the three targets among 50 other expenses."""

    complexity = 3.4
    noise_count = 50


class ExpenseDeleteDuplicates(TaskEval):
    """Delete all but one of each group of identical expenses."""

    app_names = _APP
    complexity = 1.2  # AndroidWorld's
    tags = ("data_edit", "expense", "requires_reasoning")
    template = (
        "Delete all but one of any expenses in Pro Expense that are exact duplicates, "
        "ensuring at least one instance of each unique expense remains."
    )
    schema = {
        "type": "object",
        "properties": {
            "duplicated": {"type": "array", "minItems": 1, "items": _EXPENSE},
            "copies": {"type": "array", "items": {"type": "integer", "minimum": 2, "maximum": 4}},
            "noise_seed": _NOISE_SEED,
        },
        "required": ["duplicated", "copies", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        """One expense twice among five others, as AndroidWorld draws it (n_rows 1, n_rows_noise 5
        in android_world/task_evals/single/expense.py); the schema also takes several groups."""
        return {"duplicated": [_expense_params(rng)], "copies": [2], "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        noise = _noise(self.params, 5, {d["name"] for d in self.params["duplicated"]})
        copies = [_row(item) for item, n in zip(self.params["duplicated"], self.params["copies"]) for _ in range(n)]
        rows = noise + copies
        TaskRng(self.params["noise_seed"] + 1).shuffle(rows)
        _insert(env, rows)

    def validator(self):
        return duplicates_removed(EXPENSES, _FIELDS)

    def solve(self, env: TaskEnv) -> None:
        EXPENSES.delete(env.device, "expense_id NOT IN "
                        "(SELECT MIN(expense_id) FROM expense GROUP BY name, amount, category, note)")
        expense.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """Delete every copy of each duplicated expense but one."""
        groups = zip(self.params["duplicated"], self.params["copies"])
        return [open_app("pro expense"), OPEN_LOGS] + [step for item, copies in groups for _ in range(copies - 1)
                                                       for step in delete_steps(item)]


class ExpenseDeleteDuplicates2(ExpenseDeleteDuplicates):
    """AndroidWorld's harder de-duplication: one expense twice among 40 others, three of which look
    like it (same name, category and note, an amount $0.50–$10.00 higher, another date) and
    must stay."""

    complexity = 1.8
    schema = {
        **ExpenseDeleteDuplicates.schema,
        "properties": {**ExpenseDeleteDuplicates.schema["properties"],
                       "perturbations": {"type": "array", "items": {"type": "integer", "minimum": 50, "maximum": 999}}},
        "required": [*ExpenseDeleteDuplicates.schema["required"], "perturbations"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"duplicated": [_expense_params(rng)], "copies": [2], "perturbations": rng.sample(range(50, 1000), 3),
                "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super(ExpenseDeleteDuplicates, self).initialize_state(env)  # its own rows, not the parent's
        target = self.params["duplicated"][0]
        rng = TaskRng(self.params["noise_seed"] + 1)
        lookalikes = [_row(target) | {"amount": target["amount"] + extra, "created_date": date, "modified_date": date}
                      for extra in self.params["perturbations"]
                      for date in [expense.random_expense(rng)["created_date"]]]
        rows = _noise(self.params, 37, {target["name"]}) + lookalikes + [_row(target), _row(target)]
        rng.shuffle(rows)
        _insert(env, rows)
