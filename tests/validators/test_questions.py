"""`row_exists` and `answer_matches` (with `select`) from Python, against the simulator."""
from __future__ import annotations

import pytest

from taskkit.apps import expense, sms
from taskkit.validators import ProviderUri, answer_matches, row_exists, select
from taskkit.validators.questions import ExpectedAnswerError

TABLE = expense.EXPENSES


def row(name: str, amount: int = 1000, category: int = 3) -> dict:
    return {"name": name, "amount": amount, "category": category, "note": "", "created_date": 1, "modified_date": 1}


@pytest.fixture
def expenses(env):
    expense.APP.reset(env.device)
    TABLE.insert(env.device, [row("Rent", 120000, 1), row("Milk", 250), row("Book club", 1500)])
    return env


@pytest.mark.parametrize("where", [{"name": "Milk"}, "amount < 300", lambda r: r["name"].lower() == "milk"])
def test_row_exists_takes_values_sql_or_a_predicate(expenses, where):
    check = row_exists(TABLE, where)
    assert check.evaluate(expenses, check.snapshot(expenses)).score == 1.0
    TABLE.delete(expenses.device, {"name": "Milk"})
    result = check.evaluate(expenses, None)
    assert result.score == 0.0 and result.reasons[0].startswith("table expense: no row matches ")


def test_row_exists_on_a_provider(env):
    check = row_exists(ProviderUri(sms.BOX_URIS["sent"]), {"address": "+12125550123"})
    assert check.evaluate(env, check.snapshot(env)).reasons == ("content://sms/sent: no row matches address='+12125550123'",)
    sms.send(env.device, "+12125550123", "On my way")
    assert check.evaluate(env, None).score == 1.0


def test_answer_matches_fixed_items_in_any_order(env):
    check = answer_matches(["Lunch, then gym", "Book club"])
    expected = check.snapshot(env)
    for answer, score in [("Book club and Lunch, then gym.", 1.0), ("Book club", 0.0), ("", 0.0)]:
        env.submit_answer(answer)
        assert check.evaluate(env, expected).score == score, answer
    assert check.expected_answer() == "Lunch, then gym, Book club"


def test_answer_matches_reads_a_selection_at_snapshot_time(expenses):
    env = expenses
    total = answer_matches(select(TABLE, {"category": 3}, "sum", "amount", scale=0.01), match="number")
    names = answer_matches(select(TABLE, "amount < 2000", "values", "name"))
    count = answer_matches(select(TABLE, lambda r: r["amount"] > 100000, "count"), match="number")
    snapshots = [check.snapshot(env) for check in (total, names, count)]
    TABLE.delete(env.device, {"name": "Milk"})  # after the snapshot: the question stays the same
    assert [total.expected_answer(), names.expected_answer(), count.expected_answer()] == ["17.5", "Milk, Book club", "1"]
    env.submit_answer("$17.50")
    assert total.evaluate(env, snapshots[0]).score == 1.0
    env.submit_answer("Book club, Milk")
    assert names.evaluate(env, snapshots[1]).score == 1.0


def test_answer_matches_refuses_bad_arguments_and_unusable_items(env):
    with pytest.raises(ValueError, match="match must be one of"):
        answer_matches([1], match="numeric")
    with pytest.raises(ValueError, match="needs a field"):
        select(TABLE, {}, "sum")
    check = answer_matches(["not a date"], match="date", label="my check")
    with pytest.raises(ExpectedAnswerError, match="only known after initialize_state"):
        check.expected_answer()
    expected = check.snapshot(env)
    env.submit_answer("October 22 2023")
    with pytest.raises(ExpectedAnswerError, match="^my check: expected answer is not a date"):
        check.evaluate(env, expected)
