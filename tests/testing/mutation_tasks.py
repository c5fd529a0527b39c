"""One small task per validator kind the built-in tasks do not cover, for the mutation tests.

None registers itself. Each is correct unless its docstring says otherwise.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.apps import expense, markor, settings, sms
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from tests.testing.broken_tasks import EXPENSES, AddCoffee
from taskkit.validators import (
    all_of,
    answer_equals,
    any_of,
    file_content,
    file_exists,
    not_,
    provider_row_exists,
    rows_added,
    rows_updated,
    setting_equals,
    weighted,
)
from taskkit.validators.base import CheckResult, Stateless

_NOISE = {"type": "object", "properties": {"noise_seed": {"type": "integer", "minimum": 0}}, "required": ["noise_seed"]}


class _Noisy(TaskEval, register=False):
    schema = _NOISE

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"noise_seed": rng.getrandbits(32)}


class ExpenseRename(_Noisy, register=False):
    """rows_updated: rename the one 'Taxi ride' expense to 'Cab ride'."""

    app_names = ("pro expense",)

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        rows = expense.noise_expenses(rng, 4, exclude=lambda r: r["name"] == "Taxi ride")
        expense.EXPENSES.insert(env.device, rows[:2] + [expense.random_expense(rng, name="Taxi ride")] + rows[2:])

    def validator(self):
        return rows_updated(EXPENSES, {"name": "Taxi ride"}, {"name": "Cab ride"})

    def solve(self, env: Any) -> None:
        env.device.sqlite.execute(expense.DB_PATH, "UPDATE expense SET name = 'Cab ride' WHERE name = 'Taxi ride';")


class SmsSentExists(_Noisy, register=False):
    """provider_row_exists: some sent SMS to a number with a body."""

    app_names = ("simple sms messenger",)

    def validator(self):
        return provider_row_exists(sms.BOX_URIS["sent"], {"address": "+12125550123", "body": "On my way"},
                                   fuzzy=("body",))

    def solve(self, env: Any) -> None:
        sms.send(env.device, "+12125550123", "On my way")


class CountExpenses(_Noisy, register=False):
    """answer_equals: how many expenses are there?"""

    app_names = ("pro expense",)

    def count(self) -> int:
        return 2 + self.params["noise_seed"] % 5

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        expense.EXPENSES.insert(env.device, expense.noise_expenses(TaskRng(self.params["noise_seed"]), self.count()))

    def validator(self):
        return answer_equals(self.count(), kind="number")

    def solve(self, env: Any) -> None:
        env.submit_answer(f"There are {len(expense.EXPENSES.rows(env.device))} expenses.")


class WifiOrBluetooth(_Noisy, register=False):
    """any_of: wifi on, or bluetooth on; solve turns on wifi only."""

    app_names = ("settings",)

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        settings.set_wifi(env.device, False)
        settings.set_bluetooth(env.device, False)

    def validator(self):
        return any_of(setting_equals("global", "wifi_on", ("1", "2")), setting_equals("global", "bluetooth_on", "1"))

    def solve(self, env: Any) -> None:
        settings.set_wifi(env.device, True)


NOTE = markor.note_path("draft.md")


class DeleteDraft(_Noisy, register=False):
    """not_ (and all_of): the draft note must be gone and the kept note must stay."""

    app_names = ("markor",)

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        markor.create_note(env.device, "draft.md", "draft")
        markor.create_note(env.device, "keep.md", "keep")

    def validator(self):
        return all_of(not_(file_exists(NOTE), "the draft still exists"), file_exists(markor.note_path("keep.md")))

    def solve(self, env: Any) -> None:
        env.device.files.remove(NOTE)


class NoteAndBrightness(_Noisy, register=False):
    """weighted: a note (weight 2) and the brightness (weight 1), for partial reward."""

    app_names = ("markor", "settings")

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        settings.set_brightness(env.device, 102)

    def validator(self):
        return weighted((file_content(NOTE, "Buy milk and eggs", fuzzy=True), 2),
                        setting_equals("system", "screen_brightness", str(settings.BRIGHTNESS_MAX)))

    def solve(self, env: Any) -> None:
        markor.create_note(env.device, "draft.md", "Buy milk and eggs")
        settings.set_brightness(env.device, settings.BRIGHTNESS_MAX)


class AddCoffeeConstantNormalizer(AddCoffee, register=False):
    """Broken: a normalizer maps every amount to 0, so the amount is never really compared."""

    def validator(self):
        base = super().validator()
        return rows_added(base.source, base.expected, fuzzy=("name",), normalize={"amount": lambda cents: 0})


@dataclasses.dataclass(frozen=True)
class ExpenseCountAtLeast(Stateless):
    """A validator class taskkit.testing has no rule for: at least `count` expenses exist."""

    count: int

    def evaluate(self, env: Any, snapshot: Any) -> CheckResult:
        found = len(expense.EXPENSES.rows(env.device))
        return CheckResult.verdict([] if found >= self.count else [f"{found} expenses, expected {self.count}"])


class AddTwoExpenses(_Noisy, register=False):
    """Scored by a validator class of its own (see ExpenseCountAtLeast)."""

    app_names = ("pro expense",)

    def validator(self):
        return ExpenseCountAtLeast(2)

    def solve(self, env: Any) -> None:
        expense.EXPENSES.insert(env.device, expense.noise_expenses(TaskRng(1), 2))
