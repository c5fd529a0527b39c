"""Row, file and setting validators against the simulator's real state."""
from __future__ import annotations

from taskkit.apps import expense, markor
from taskkit.validators import (Table, duplicates_removed, file_absent, file_content, file_exists,
                        rows_added, rows_deleted, rows_updated, setting_equals)

TABLE = Table(expense.DB_PATH, expense.TABLE, expense.KEY)


def row(name, amount=1000, note="n"):
    return {"name": name, "amount": amount, "category": 3, "note": note, "created_date": 1, "modified_date": 1}


def seed_rows(device, rows):
    expense.APP.reset(device)
    expense.EXPENSES.insert(device, rows)


def test_rows_added(env):
    seed_rows(env.device, [row("Rent"), row("Milk")])
    check = rows_added(TABLE, [{"name": "Coffee beans", "amount": 1250}], fuzzy=("name",))
    snap = check.snapshot(env)
    assert "expected 1 new row(s), found 0" in check.evaluate(env, snap).reasons[0]
    expense.EXPENSES.insert(env.device, [row("coffee beans", 1250)])
    assert check.evaluate(env, snap).score == 1.0
    expense.EXPENSES.insert(env.device, [row("Extra")])
    assert check.evaluate(env, snap).reasons == ("table expense: expected 1 new row(s), found 2",)


def test_rows_added_rejects_a_changed_old_row_and_a_wrong_field(env):
    seed_rows(env.device, [row("Rent")])
    check = rows_added(TABLE, [{"name": "Tea", "amount": 500}])
    snap = check.snapshot(env)
    expense.EXPENSES.insert(env.device, [row("Tea", 501)])
    assert "no new row matches name='Tea', amount=500" in check.evaluate(env, snap).reasons[0]
    env.device.sqlite.execute(expense.DB_PATH, "UPDATE expense SET amount = 500 WHERE name = 'Tea'; "
                                               "UPDATE expense SET note = 'x' WHERE name = 'Rent';")
    reasons = check.evaluate(env, snap).reasons
    assert reasons == ("table expense: row expense_id=1 changed (note) but must stay",)


def test_rows_deleted(env):
    seed_rows(env.device, [row("Rent"), row("Milk"), row("Milk", 2)])
    check = rows_deleted(TABLE, {"name": "Milk"})
    snap = check.snapshot(env)
    assert len(check.evaluate(env, snap).reasons) == 2
    env.device.sqlite.execute(expense.DB_PATH, "DELETE FROM expense WHERE name = 'Milk';")
    assert check.evaluate(env, snap).score == 1.0
    env.device.sqlite.execute(expense.DB_PATH, "DELETE FROM expense WHERE name = 'Rent';")
    assert check.evaluate(env, snap).reasons == ("table expense: row expense_id=1 was deleted but must stay",)


def test_rows_updated(env):
    seed_rows(env.device, [row("Rent"), row("Milk")])
    check = rows_updated(TABLE, {"name": "Milk"}, {"amount": 999})
    snap = check.snapshot(env)
    assert "amount is 1000, expected 999" in check.evaluate(env, snap).reasons[0]
    env.device.sqlite.execute(expense.DB_PATH, "UPDATE expense SET amount = 999 WHERE name = 'Milk';")
    assert check.evaluate(env, snap).score == 1.0
    env.device.sqlite.execute(expense.DB_PATH, "UPDATE expense SET note = 'z' WHERE name = 'Milk';")
    assert "note changed but must stay" in check.evaluate(env, snap).reasons[0]


def test_duplicates_removed(env):
    seed_rows(env.device, [row("A"), row("A"), row("A"), row("B"), row("C"), row("C")])
    check = duplicates_removed(TABLE, ("name", "amount", "category", "note"))
    snap = check.snapshot(env)
    assert check.evaluate(env, snap).score == 0.0
    env.device.sqlite.execute(expense.DB_PATH, "DELETE FROM expense WHERE expense_id IN (2, 3, 6);")
    assert check.evaluate(env, snap).score == 1.0
    env.device.sqlite.execute(expense.DB_PATH, "DELETE FROM expense WHERE expense_id = 4;")
    assert check.evaluate(env, snap).reasons == ("table expense: row expense_id=4 was deleted but must stay",)
    env.device.sqlite.execute(expense.DB_PATH, "DELETE FROM expense WHERE expense_id = 1;")
    assert any("0 of 3 rows like name='A'" in r for r in check.evaluate(env, snap).reasons)


def test_file_and_setting_validators(env):
    path = markor.note_path("a.md")
    assert file_exists(path).evaluate(env, None).score == 0.0
    assert file_absent(path).evaluate(env, None).score == 1.0
    markor.create_note(env.device, "a.md", "Buy milk and eggs\n")
    assert file_exists(path).evaluate(env, None).score == 1.0
    assert file_content(path, "Buy milk and eggs").evaluate(env, None).score == 1.0
    assert file_content(path, "buy milk and eggs.", fuzzy=True).evaluate(env, None).score == 1.0
    assert file_content(path, "Sell the car").evaluate(env, None).score == 0.0
    env.device.settings.put("global", "wifi_on", "2")
    assert setting_equals("global", "wifi_on", ("1", "2")).evaluate(env, None).score == 1.0
    result = setting_equals("global", "wifi_on", "0").evaluate(env, None)
    assert result.reasons == ("setting global/wifi_on is '2', expected '0'",)
    assert setting_equals("global", "never_set_key", None).evaluate(env, None).score == 1.0


def test_folder_validators(env):
    from taskkit.validators import folder_exists, no_files_under

    folder = markor.note_path("Trips")
    assert folder_exists(folder).evaluate(env, None).score == 0.0
    env.device.files.write_text(folder, "a file, not a folder")
    assert folder_exists(folder).evaluate(env, None).score == 0.0
    env.device.files.remove(folder)
    env.device.files.mkdir(folder)
    assert folder_exists(folder).evaluate(env, None).score == 1.0
    assert no_files_under(markor.NOTES_DIR).evaluate(env, None).score == 1.0  # empty folders may stay
    markor.create_note(env.device, "b.md", "x", folder="Trips")
    result = no_files_under(markor.NOTES_DIR).evaluate(env, None)
    assert result.score == 0.0 and "1 file(s) left" in result.reasons[0] and result.reasons[0].endswith("Trips/b.md")
    assert no_files_under(markor.note_path("Nowhere")).evaluate(env, None).score == 1.0  # an absent folder holds none
