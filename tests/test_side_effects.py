"""Side effects: changes an episode makes outside what its task checks are listed (rows of other
tables, files, settings); what the checks look at, caches and journals are not; the diff's cost
follows what changed, not the table's size; --strict scores them 0."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit import loading, registry, side_effects, suite
from taskkit.apps import expense, joplin
from taskkit.env import Env

ROOT = Path(__file__).resolve().parents[1]


def _task(name: str, env: Env):
    loading.load_builtin()
    task = suite.instantiate(registry.get(name), 30, 0).create()
    task.initialize_state(env)
    return task


def test_the_changes_a_task_checks_are_not_side_effects_and_the_others_are(env) -> None:
    task = _task("ExpenseAddSingle", env)
    try:
        watch = side_effects.start(env, task)
        task.solve(env)  # what the task asks for: rows of the expense table
        assert side_effects.finish(env, watch) == []
        env.device.settings.put("global", "bluetooth_on", "1")
        env.device.files.write_text("/sdcard/Download/stray.txt", "x")
        env.device.run("mkdir -p /data/data/com.arduia.expense/cache && echo 1 > /data/data/com.arduia.expense/cache/c")
        found = side_effects.finish(env, watch)
        assert found == ["file /storage/emulated/0/Download/stray.txt: added", "setting global bluetooth_on: 0 -> 1"]
    finally:
        task.teardown(env)


def test_rows_of_a_table_the_checks_do_not_read_are_side_effects(env) -> None:
    task = _task("NotesIsTodo", env)  # an answer check: the notes are read, never written
    try:
        watch = side_effects.start(env, task)
        folder = joplin.FOLDERS.rows(env.device)[0]
        joplin.FOLDERS.update(env.device, {"id": folder["id"]}, {"title": "Renamed"})
        found = side_effects.finish(env, watch)
        assert len(found) == 1 and found[0].startswith(f"table folders ({joplin.DB_PATH}): 1 row(s) changed"), found
    finally:
        task.teardown(env)


def test_a_task_scored_by_its_own_code_owns_its_apps_data(env) -> None:
    task = _task("MarkorNoteThenSmsSpec", env)  # a composite: no validator to look into
    try:
        watch = side_effects.start(env, task)
        assert watch.expected.covers_path("/storage/emulated/0/Documents/Markor/anything.md")
        task.solve(env)
        assert side_effects.finish(env, watch) == []
    finally:
        task.teardown(env)


@pytest.mark.parametrize("name", [
    "AndroidLensClockAlarmSchedule",  # alarms checked: DeskClock schedules their instances (Table.derived)
    "AndroidLensEmergencySetup",  # a check that names what it reads (`reads`): the Emergency app's prefs
    "AndroidLensFilesPagesAndContactZh",  # a composite: its parts' own paths (files at the storage root)
    "BmocaChromeNewTab",  # judged on the screen: the app's data is the task's
    "AndroidLensPlaylistInOrder",  # a check of its own that names the tables it reads
])
def test_what_a_correct_solution_changes_is_never_a_side_effect(env, name: str) -> None:
    task = _task(name, env)
    try:
        watch = side_effects.start(env, task)
        task.solve(env)
        assert task.is_successful(env) == 1.0
        assert side_effects.finish(env, watch) == []
        env.device.files.write_text("/data/local/tmp/stray.txt", "x")  # no app's: still found
        assert side_effects.finish(env, watch) == ["file /data/local/tmp/stray.txt: added"]
    finally:
        task.teardown(env)


def test_the_diff_costs_what_changed_not_the_tables_size(env) -> None:
    costs = []
    for size in (10, 5000):
        task = _task("ExpenseAddSingle", env)
        try:
            expense.EXPENSES.insert(env.device, [{"name": f"row {i}", "amount": i, "category": 1, "note": "", "created_date": 0,
                                                    "modified_date": 0} for i in range(size)])
            watch = side_effects.start(env, task)
            expense.EXPENSES.update(env.device, {"name": "row 3"}, {"amount": 7})
            before = (env.device.stats.round_trips, env.device.stats.bytes_received)
            found = side_effects.finish(env, watch)
            costs.append((env.device.stats.round_trips - before[0], env.device.stats.bytes_received - before[1]))
            assert found == [], found  # the expense table is the one the task checks
        finally:
            task.teardown(env)
    (trips_small, bytes_small), (trips_big, bytes_big) = costs
    assert trips_small == trips_big == 2  # the change log, the listing
    assert abs(bytes_big - bytes_small) < 200, costs


def _run(tmp_path: Path, *flags: str) -> list[dict]:
    module = tmp_path / "messy.py"
    module.write_text(textwrap.dedent('''
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class WifiOnAndMore(TaskEval):
            app_names = ("settings",)
            template = "Turn on Wi-Fi."
            difficulty, optimal_steps, tags = "easy", 3, ("system",)

            def validator(self):
                return setting_equals("global", "wifi_on", "1")

            def solve(self, env):  # the goal, plus a file nobody asked for
                env.device.settings.put("global", "wifi_on", "1")
                env.device.files.write_text("/sdcard/Download/left-behind.txt", "oops")
    '''))
    out = tmp_path / f"out{len(flags)}"
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--task_module", str(module), "--tasks", "WifiOnAndMore",
                           "--output_dir", str(out), *flags], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["side_effects"] == {"episodes_checked": 1, "episodes_with": 1, "instances_with": ["WifiOnAndMore_0"]}
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_results_carry_side_effects_and_strict_scores_them_zero(tmp_path: Path) -> None:
    (row,) = _run(tmp_path)
    assert row["side_effects"] == ["file /storage/emulated/0/Download/left-behind.txt: added"] and row["score"] == 1.0
    (strict,) = _run(tmp_path, "--strict")
    assert strict["score"] == 0.0 and not strict["success"]
    assert strict["reasons"][-1] == ("--strict: 1 side effect(s), e.g. file "
                                  "/storage/emulated/0/Download/left-behind.txt: added")
