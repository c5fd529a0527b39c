"""taskkit.apps.expense: realistic, seeded expense rows, and their round trip through accounting.db."""
from __future__ import annotations

import pytest

from taskkit.apps import expense
from taskkit.apps.common import DEVICE_EPOCH, epoch, to_ms
from taskkit.rng import TaskRng


def test_same_seed_same_rows_and_different_seeds_differ():
    assert expense.noise_expenses(TaskRng(7), 10) == expense.noise_expenses(TaskRng(7), 10)
    assert expense.noise_expenses(TaskRng(7), 10) != expense.noise_expenses(TaskRng(8), 10)


def test_random_expense_is_realistic():
    rng = TaskRng(1)
    rows = [expense.random_expense(rng) for _ in range(300)]
    for row in rows:
        assert set(row) == set(expense.COLUMNS) - {"expense_id"}
        assert isinstance(row["amount"], int) and 1000 <= row["amount"] <= 50000
        assert row["category"] in expense.CATEGORIES
        assert to_ms(epoch(2023, 10, 1)) <= row["created_date"] <= to_ms(DEVICE_EPOCH)
        assert row["modified_date"] == row["created_date"]
        assert row["name"].strip() and row["note"].strip()
    assert {r["category"] for r in rows} == set(expense.CATEGORIES)
    assert len({r["name"] for r in rows}) > 40
    assert len({r["amount"] for r in rows}) > 250


def test_names_fit_their_category():
    rows = [expense.random_expense(TaskRng(2), category=7) for _ in range(20)]
    assert all(r["category"] == 7 for r in rows)
    assert {r["name"] for r in expense.noise_expenses(TaskRng(2), 50, category=3)} <= set(expense._NAMES[3])


def test_fixed_fields_are_kept():
    row = expense.random_expense(TaskRng(3), name="Rent", amount=120000, category=4, note=None, created_ms=5)
    assert (row["name"], row["amount"], row["category"], row["created_date"]) == ("Rent", 120000, 4, 5)
    with pytest.raises(ValueError, match="category 12"):
        expense.random_expense(TaskRng(3), category=12)


def test_noise_respects_exclude():
    def is_food(row):
        return row["category"] == 3

    assert not any(is_food(r) for r in expense.noise_expenses(TaskRng(4), 200, exclude=is_food))
    assert any(is_food(r) for r in expense.noise_expenses(TaskRng(4), 200))


@pytest.mark.parametrize("cents, text", [(12345, "$123.45"), (1000, "$10.00"), (5, "$0.05"), (0, "$0.00"), (-250, "-$2.50")])
def test_format_amount(cents, text):
    assert expense.format_amount(cents) == text


def test_category_names():
    assert expense.category_name(9) == "Health Care"
    assert len(expense.CATEGORIES) == 11


# --- against the simulator ----------------------------------------------------------------------
def test_columns_match_the_simulator_image(device):
    assert list(expense.COLUMNS) == list(device.sqlite.columns(expense.DB_PATH, expense.TABLE))


def test_insert_read_round_trip_with_hostile_text(device, hostile):
    rng = TaskRng(21)
    rows = [expense.random_expense(rng, name=text, note=text[::-1]) for text in hostile]
    rows.append(expense.random_expense(rng, note=None) | {"note": None})
    expense.EXPENSES.insert(device, rows)
    read = expense.EXPENSES.rows(device)
    assert [r["expense_id"] for r in read] == list(range(1, len(rows) + 1))
    assert [{k: v for k, v in r.items() if k != "expense_id"} for r in read] == rows


def test_reset_empties_the_table_and_restarts_keys(device):
    expense.EXPENSES.insert(device, expense.noise_expenses(TaskRng(3), 5))
    expense.APP.reset(device)
    assert expense.EXPENSES.rows(device) == []
    expense.EXPENSES.insert(device, expense.noise_expenses(TaskRng(3), 1))
    assert [r["expense_id"] for r in expense.EXPENSES.rows(device)] == [1]
