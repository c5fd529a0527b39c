"""taskkit.apps.tasks_org: realistic, seeded to-do rows, and their round trip through Tasks.org's database."""
from __future__ import annotations

import pytest

from taskkit.apps import tasks_org
from taskkit.apps.common import DAY_SECONDS, DEVICE_EPOCH, epoch, to_ms
from taskkit.rng import TaskRng

NOW_MS = to_ms(DEVICE_EPOCH)
WEEK_MS = 7 * DAY_SECONDS * 1000


def test_same_seed_same_rows_and_different_seeds_differ():
    assert tasks_org.noise_tasks(TaskRng(7), 10) == tasks_org.noise_tasks(TaskRng(7), 10)
    assert tasks_org.noise_tasks(TaskRng(7), 10) != tasks_org.noise_tasks(TaskRng(8), 10)


def test_random_task_is_realistic():
    rows = tasks_org.noise_tasks(TaskRng(1), 400)
    for row in rows:
        assert list(row) == list(tasks_org.COLUMNS[1:])
        assert row["importance"] in (0, 1, 2, 3)
        assert NOW_MS - WEEK_MS <= row["dueDate"] < NOW_MS + WEEK_MS
        assert row["dueDate"] % 60000 == 0 and not tasks_org.has_due_time(row["dueDate"])
        assert row["created"] < row["dueDate"] and row["created"] <= NOW_MS
        assert row["modified"] >= row["created"]
        if tasks_org.is_completed(row):
            assert row["created"] < row["completed"] <= NOW_MS and row["dueDate"] <= NOW_MS
            assert row["modified"] == row["completed"]
        assert row["deleted"] == 0 and row["hideUntil"] == 0
        assert row["title"].strip() and "," not in row["title"] and row["notes"].strip()
        for column, value in tasks_org.DEFAULTS.items():
            assert row[column] == value
    assert len({r["title"] for r in rows}) > 150
    assert {r["importance"] for r in rows} == {0, 1, 2, 3}
    done = sum(tasks_org.is_completed(r) for r in rows)
    assert 40 < done < 160  # about 0.3 of the half due by now
    assert any(r["dueDate"] > NOW_MS for r in rows) and any(r["dueDate"] < NOW_MS for r in rows)
    assert len({r["remoteId"] for r in rows}) == len(rows)


def test_fixed_fields_and_extra_columns():
    due = to_ms(epoch(2023, 10, 17, 9, 30))
    row = tasks_org.random_task(TaskRng(2), title="File taxes", importance=tasks_org.HIGH, due_ms=due,
                                notes="", hideUntil=due - 3600_000)
    assert (row["title"], row["importance"], row["dueDate"], row["notes"]) == ("File taxes", 0, due, "")
    assert row["hideUntil"] == due - 3600_000 and row["completed"] == 0  # due later: never done
    assert tasks_org.format_due_date(row) == "October 17 2023" and tasks_org.format_due_time(row) == "09:30"
    assert tasks_org.importance_name(row["importance"]) == "high"


def test_completion_can_be_forced_and_no_due_date_is_zero():
    done = tasks_org.random_task(TaskRng(3), completed=True, due_ms=0)
    assert done["dueDate"] == 0 and tasks_org.format_due_date(done) == ""
    assert done["created"] < done["completed"] <= NOW_MS
    at = to_ms(epoch(2023, 10, 14, 18, 0))
    assert tasks_org.random_task(TaskRng(3), completed_ms=at)["completed"] == at
    assert tasks_org.random_task(TaskRng(3), completed=False, due_ms=to_ms(epoch(2023, 10, 9)))["completed"] == 0


def test_rejects_unknown_columns_and_bad_importance():
    with pytest.raises(ValueError, match="priority"):
        tasks_org.random_task(TaskRng(0), priority=1)
    with pytest.raises(ValueError, match="importance"):
        tasks_org.random_task(TaskRng(0), importance=4)


def test_noise_respects_exclude():
    def high(row):
        return row["importance"] == tasks_org.HIGH

    noise = tasks_org.noise_tasks(TaskRng(9), 100, exclude=high)
    assert len(noise) == 100 and not any(high(r) for r in noise)
    assert any(high(r) for r in tasks_org.noise_tasks(TaskRng(9), 100))


def test_app_registration():
    app = tasks_org.APP
    assert (app.name, app.package) == ("tasks", "org.tasks")
    assert app.component == "org.tasks/com.todoroo.astrid.activity.MainActivity"
    assert app.table("tasks") is tasks_org.TASKS and tasks_org.DB_PATH.startswith(app.data_paths[0] + "/")


# --- against the simulator ----------------------------------------------------------------------
def test_columns_match_the_simulator_image(device):
    assert list(tasks_org.COLUMNS) == device.sqlite.columns(tasks_org.DB_PATH, tasks_org.TABLE)


def test_insert_read_round_trip_with_hostile_text(device, hostile):
    rng = TaskRng(21)
    rows = [tasks_org.random_task(rng, title=text, notes=text[::-1]) for text in hostile]
    rows.append(tasks_org.random_task(rng, notes=None, order=3))
    rows[-1]["notes"] = None  # nullable
    tasks_org.TASKS.insert(device, rows)
    read = tasks_org.TASKS.rows(device)
    assert [r["_id"] for r in read] == list(range(1, len(rows) + 1))
    assert [{k: v for k, v in r.items() if k != "_id"} for r in read] == rows


def test_reset_empties_the_table_and_restarts_ids(device):
    tasks_org.TASKS.insert(device, tasks_org.noise_tasks(TaskRng(3), 5))
    tasks_org.APP.reset(device)
    assert tasks_org.TASKS.rows(device) == []
    tasks_org.TASKS.insert(device, tasks_org.noise_tasks(TaskRng(3), 1))
    assert [r["_id"] for r in tasks_org.TASKS.rows(device)] == [1]


def test_pm_clear_recreates_the_empty_database(device):
    tasks_org.TASKS.insert(device, tasks_org.noise_tasks(TaskRng(4), 3))
    device.check("pm clear org.tasks")
    assert tasks_org.TASKS.rows(device) == []
    assert device.sqlite.columns(tasks_org.DB_PATH, tasks_org.TABLE) == list(tasks_org.COLUMNS)
