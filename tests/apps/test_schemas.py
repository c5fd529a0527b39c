"""Each app model owns its schema: tables typed from its DDL, and the simulated device built from it."""
from __future__ import annotations

import sqlite3

import pytest

from taskkit import apps
from taskkit.apps import calendar, expense, joplin
from taskkit.apps.base import App
from taskkit.apps.table import Database, Table
from taskkit.connect import sim_device

# android-apps.md §4.1 and §4.5: the columns each table must have, no more and no fewer.
CALENDAR_COLUMNS = {
    "id", "start_ts", "end_ts", "title", "location", "description", "repeat_interval",
    "repeat_rule", "repeat_limit", "reminder_1_minutes", "reminder_2_minutes",
    "reminder_3_minutes", "reminder_1_type", "reminder_2_type", "reminder_3_type",
    "repetition_exceptions", "attendees", "import_id", "time_zone", "flags", "event_type",
    "parent_id", "availability", "color", "last_updated", "source", "type",
}
EXPENSE_COLUMNS = {"expense_id", "name", "amount", "category", "note", "created_date", "modified_date"}


def test_reference_columns() -> None:
    assert set(calendar.EVENTS.column_names) == CALENDAR_COLUMNS
    assert set(expense.EXPENSES.column_names) == EXPENSE_COLUMNS
    assert expense.EXPENSES.column("amount").affinity == "INTEGER"
    assert not expense.EXPENSES.column("amount").nullable
    assert expense.EXPENSES.column("note").nullable


@pytest.mark.parametrize("app", apps.all_apps(), ids=lambda app: app.name)
def test_every_declared_table_is_in_the_apps_own_ddl(app: App) -> None:
    owned = {database.path for database in app.databases}
    for table in app.tables:
        if not table.db.startswith("content://"):
            assert table.db in owned, f"{app.name}: {table.name} lives in {table.db}, not in one of its databases"
            assert table.typed and table.column(table.key) is not None


def test_the_simulated_device_is_built_from_the_app_models(tmp_path) -> None:
    device = sim_device(tmp_path / "device")
    try:
        for app in apps.all_apps():
            for table in app.tables:
                host = device.state.host_path(table.db)
                with sqlite3.connect(host) as con:
                    names = [row[1] for row in con.execute(f"PRAGMA table_info({table.name})")]
                assert tuple(names) == table.column_names, f"{app.name}: {table.name}"
    finally:
        device.close()


def test_a_table_knows_its_defaults_and_fills_rows() -> None:
    row = calendar.EVENTS.fill({"title": "Standup"})
    assert row["title"] == "Standup" and row["reminder_1_minutes"] == -1 and "id" not in row


def test_a_bad_table_declaration_names_the_database() -> None:
    database = Database("/data/data/x/databases/x.db", "CREATE TABLE a (id INTEGER PRIMARY KEY, t TEXT);")
    with pytest.raises(ValueError, match="creates no table 'b'"):
        database.table("b", "id")
    with pytest.raises(ValueError, match="no column"):
        database.table("a", "nope")
    with pytest.raises(ValueError, match="no column"):
        database.table("a", "id", defaults={"missing": 1})


def test_mirrored_tables_write_and_clear_together() -> None:
    sql = joplin.NOTES.insert_sql([{"id": "n1", "title": "T", "body": "b", "parent_id": "", "created_time": 1,
                                   "updated_time": 1}])
    assert "INSERT INTO \"notes\"" in sql and "INSERT INTO \"notes_normalized\"" in sql
    assert sql.count("BEGIN;") == 1 and "DELETE FROM \"notes_normalized\"" in joplin.NOTES.clear_sql()


def test_an_untyped_table_accepts_any_column() -> None:
    table = Table("/data/x.db", "t", "id")
    assert not table.typed and table.column("anything").affinity == ""
