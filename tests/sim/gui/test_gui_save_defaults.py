"""What a task inserts for a column it leaves out is what the app itself writes for that field
left empty, so opening a row in the app and saving it unchanged changes nothing: a spec row
without a note, edited and saved in Pro Expense or Broccoli, still passes "must stay" checks."""
from __future__ import annotations

import pytest

from taskkit.apps import broccoli, expense
from taskkit.env import Env
from tests.sim.gui.helpers import tap


def _saved_unchanged(device, table, values: dict, steps: list[str]) -> None:
    """Insert `values` as a spec row is inserted (`table.fill`), open it in the app, save it
    unchanged, and assert the row's stored fields (the app's stamps aside) are the same."""
    env = Env(device)
    table.insert(device, [table.fill(values)])
    snapshot = table.snapshot(env)
    device.check(steps[0])
    for label in steps[1:]:
        tap(device, label)
    diff = table.diff(env, snapshot)
    assert not diff.added and not diff.removed
    for old, new in diff.changed.values():
        changed = {name for name in old if old[name] != new[name] and name not in table.stamped}
        assert changed == set(), f"saving unchanged rewrote {sorted(changed)}: {old} -> {new}"


@pytest.mark.parametrize("values", [{"name": "Lunch", "amount": 1250, "category": 3, "created_date": 0,
                                     "modified_date": 0}])
def test_pro_expense_edit_save_keeps_a_row_that_left_the_note_out(device, values) -> None:
    assert expense.EXPENSES.fill(values).get("note") == ""  # ExpenseEntryFragment saves edtNote's text: ""
    _saved_unchanged(device, expense.EXPENSES, values,
                     [f"am start -n {expense.PACKAGE}/.ui.MainActivity", "Lunch", "Edit", "Update"])


def test_broccoli_edit_save_keeps_a_recipe_that_left_fields_out(device) -> None:
    filled = broccoli.RECIPES.fill({"title": "Plain Rice"})
    assert {filled.get(name) for name in ("description", "source", "servings", "ingredients", "directions")} == {""}
    _saved_unchanged(device, broccoli.RECIPES, {"title": "Plain Rice"},
                     [f"am start -n {broccoli.PACKAGE}/.MainActivity", "Plain Rice", "More options", "Edit", "Save"])
