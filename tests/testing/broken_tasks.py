"""Small tasks for testing taskkit.testing: one correct, several deliberately broken.

None registers itself (`register=False`): they must never show up in the suite. They live at
module level so a fresh process can import them (the determinism property needs that).
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from taskkit.apps import expense, settings, sms
from taskkit.gui_reference import Step, open_app, tap, type_text
from taskkit.apps.common import device_now_ms
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import Table, rows_added, setting_equals
from taskkit.validators.rows import RowsAdded

EXPENSES = Table(expense.DB_PATH, expense.TABLE, expense.KEY)
_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "minLength": 1}, "amount": {"type": "integer", "minimum": 1},
                   "noise_seed": {"type": "integer", "minimum": 0}},
    "required": ["name", "amount", "noise_seed"],
}


def _row(params: dict[str, Any]) -> dict[str, Any]:
    now = device_now_ms()
    return {"name": params["name"], "amount": params["amount"], "category": 3, "note": "",
            "created_date": now, "modified_date": now}


class AddCoffee(TaskEval, register=False):
    """Correct: add one expense among noise, scored by rows_added."""

    app_names = ("pro expense",)
    template = "Add an expense '{{ name }}' of {{ amount | money }} to Pro Expense."
    schema = _SCHEMA

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"name": f"Coffee with {rng.faker.first_name()}", "amount": rng.randint(300, 900),
                "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        noise = expense.noise_expenses(TaskRng(self.params["noise_seed"]), 3,
                                       exclude=lambda row: row["name"].startswith("Coffee"))
        expense.EXPENSES.insert(env.device, noise)

    def validator(self):
        expected = {"name": self.params["name"], "amount": self.params["amount"], "category": 3}
        return rows_added(EXPENSES, [expected], fuzzy=("name",))

    def solve(self, env: Any) -> None:
        expense.EXPENSES.insert(env.device, [_row(self.params)])

    def gui_reference(self) -> list[Step]:
        dollars, cents = divmod(self.params["amount"], 100)
        return [open_app("pro expense"), tap("fb_main_add"), type_text("edt_name", self.params["name"]),
                type_text("edt_amount", f"{dollars}.{cents:02d}"), tap("Food"), tap("btn_save")]


@dataclasses.dataclass(frozen=True)
class NameOnlyRowsAdded(RowsAdded):
    """A buggy validator: it matches the new row on `name` alone, ignoring every other field."""

    def evaluate(self, env: Any, snapshot: Any) -> Any:
        names_only = dataclasses.replace(self, expected=tuple({"name": row["name"]} for row in self.expected))
        return RowsAdded.evaluate(names_only, env, snapshot)


class AddCoffeeIgnoresAmount(AddCoffee, register=False):
    """Broken: its validator names the amount but never compares it."""

    def validator(self):
        base = super().validator()
        return NameOnlyRowsAdded(base.source, base.expected, base.matcher)


class AddCoffeeLeaksSms(AddCoffee, register=False):
    """Broken: initialize also writes an SMS, but the task does not declare the SMS app."""

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        sms.receive(env.device, "+12125550100", "Your coffee order is ready")


class AddCoffeeModuleRandom(AddCoffee, register=False):
    """Broken: draws the amount from the module-level `random`, not from the seeded rng."""

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {**super().generate_random_params(rng), "amount": random.randint(300, 900)}


class AddCoffeeSetOrder(AddCoffee, register=False):
    """Broken only across processes: the name depends on the iteration order of a set of strings."""

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        letters = "".join({*"abcdefghijklmnopqrstuvwxyz"})  # order set by the process's hash seed
        return {**super().generate_random_params(rng), "name": f"Coffee {letters}"}


class WifiOnSolvedAtStart(TaskEval, register=False):
    """Broken: initialize leaves wifi on, so the goal "turn wifi on" is done before the agent acts."""

    app_names = ("settings",)
    template = "Turn wifi on."

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        settings.set_wifi(env.device, True)  # should have turned it off

    def validator(self):
        return setting_equals("global", "wifi_on", ("1", "2"))

    def solve(self, env: Any) -> None:
        settings.set_wifi(env.device, True)


class AddCoffeeSolveForgetsAmount(AddCoffee, register=False):
    """Broken: the reference solution stores the wrong amount."""

    def solve(self, env: Any) -> None:
        expense.EXPENSES.insert(env.device, [{**_row(self.params), "amount": self.params["amount"] + 1}])


class AddCoffeeSolveFailsOnEvenSeeds(AddCoffee, register=False):
    """Broken for some seeds only: solve does nothing when the seed is even and above 100."""

    def solve(self, env: Any) -> None:
        if self.seed is not None and self.seed > 100 and self.seed % 2 == 0:
            return
        super().solve(env)


class CustomCheck(AddCoffee, register=False):
    """Correct, scored by its own is_successful: no validator to derive near misses from."""

    def validator(self):
        return None

    def is_successful(self, env: Any) -> float:
        rows = expense.EXPENSES.rows(env.device)
        found = any(row["name"] == self.params["name"] and row["amount"] == self.params["amount"] for row in rows)
        return 1.0 if found else 0.0
