"""taskkit.apps.joplin: realistic, seeded notebooks and notes, and their round trip through joplin.sqlite."""
from __future__ import annotations

import re

import pytest

from taskkit.apps import joplin
from taskkit.apps.common import DAY_SECONDS, DEVICE_EPOCH, to_ms
from taskkit.rng import TaskRng

NOW_MS = to_ms(DEVICE_EPOCH)
HEX_ID = re.compile(r"[0-9a-f]{32}")


def _world(seed: int, n_notes: int = 20) -> tuple[list[dict], list[dict]]:
    rng = TaskRng(seed)
    folders = joplin.random_folders(rng, 4)
    return folders, joplin.noise_notes(rng, n_notes, [f["id"] for f in folders])


def test_same_seed_same_rows_and_different_seeds_differ():
    assert _world(7) == _world(7)
    assert _world(7) != _world(8)


def test_folders_are_distinct_top_level_notebooks():
    folders = joplin.random_folders(TaskRng(1), len(joplin.FOLDER_TITLES) - 1, exclude=("Work",))
    assert len({f["title"] for f in folders}) == len(folders) and "Work" not in {f["title"] for f in folders}
    for folder in folders:
        assert list(folder) == list(joplin.FOLDER_COLUMNS)
        assert HEX_ID.fullmatch(folder["id"]) and folder["parent_id"] == ""
        assert folder["created_time"] <= folder["updated_time"] <= NOW_MS
    with pytest.raises(ValueError, match="distinct notebook titles"):
        joplin.random_folders(TaskRng(1), len(joplin.FOLDER_TITLES) + 1)


def test_random_note_is_realistic():
    folders, notes = _world(2, 400)
    folder_ids = {f["id"] for f in folders}
    for note in notes:
        assert list(note) == list(joplin.NOTE_COLUMNS)
        assert HEX_ID.fullmatch(note["id"]) and note["parent_id"] in folder_ids
        assert NOW_MS - joplin.HISTORY_DAYS * DAY_SECONDS * 1000 <= note["created_time"] <= note["updated_time"] <= NOW_MS
        assert (note["user_created_time"], note["user_updated_time"]) == (note["created_time"], note["updated_time"])
        assert note["title"].strip() and note["body"].strip() and note["markup_language"] == joplin.MARKDOWN
        if note["is_todo"]:
            assert note["todo_completed"] == 0 or note["created_time"] <= note["todo_completed"] <= NOW_MS
        else:
            assert note["todo_completed"] == 0 and note["todo_due"] == 0
    assert len({n["id"] for n in notes}) == len(notes)
    todos = [n for n in notes if n["is_todo"]]
    assert 60 < len(todos) < 140
    assert any(joplin.is_completed(n) for n in todos) and not all(joplin.is_completed(n) for n in todos)
    assert any(n["todo_due"] for n in todos) and any(not n["todo_due"] for n in todos)
    bodies = "\n".join(n["body"] for n in notes)
    assert "## Attendees" in bodies and "## Ingredients" in bodies and "- [ ]" in bodies


def test_fixed_fields_and_todo_completion():
    note = joplin.random_note(TaskRng(3), parent_id="f" * 32, title="Pay rent", body="Before the 1st",
                              is_todo=True, todo_completed=True, todo_due=NOW_MS + 3600_000)
    assert (note["title"], note["body"], note["is_todo"], note["todo_due"]) == ("Pay rent", "Before the 1st", 1,
                                                                                NOW_MS + 3600_000)
    assert note["todo_completed"] == note["updated_time"] > 0 and joplin.is_completed(note)
    open_todo = joplin.random_note(TaskRng(3), parent_id="x", is_todo=True, todo_completed=False)
    assert open_todo["todo_completed"] == 0 and not joplin.is_completed(open_todo)
    assert joplin.random_note(TaskRng(3), parent_id="x", is_todo=True, todo_completed=1)["todo_completed"] == 1
    plain = joplin.random_note(TaskRng(3), parent_id="x", is_todo=False, todo_completed=True)
    assert plain["todo_completed"] == 0 and not joplin.is_completed(plain)


def test_meeting_and_recipe_bodies_hold_their_facts():
    rng = TaskRng(4)
    people = joplin.random_attendees(rng, 5)
    body = joplin.meeting_body(rng, "Budget review", people)
    assert len(set(people)) == 5 and all(f"- {name}\n" in body for name in people)
    recipe = joplin.recipe_body("Pancakes")
    for item in joplin.RECIPES["Pancakes"]:
        assert f"- {joplin.ingredient_quantity(item)} {item[2]}\n" in recipe
    assert joplin.ingredient_quantity(("2", "cups", "flour")) == "2 cups"
    assert joplin.ingredient_quantity(("3", "", "ripe bananas")) == "3"


def test_normalized_copy_is_lower_case_without_accents():
    assert joplin.normalize_text("Café Crème BRÛLÉE") == "cafe creme brulee"
    note = joplin.random_note(TaskRng(5), parent_id="p", title="Réunion ÉQUIPE", body="Ça va")
    row = joplin.normalized_row(note)
    assert list(row) == list(joplin.NORMALIZED_COLUMNS)
    assert (row["id"], row["parent_id"], row["title"], row["body"]) == (note["id"], "p", "reunion equipe", "ca va")


def test_rejects_unknown_columns():
    with pytest.raises(ValueError, match="tags"):
        joplin.random_note(TaskRng(0), parent_id="p", tags="x")
    with pytest.raises(ValueError, match="colour"):
        joplin.random_folder(TaskRng(0), colour=1)


def test_app_registration():
    app = joplin.APP
    assert (app.name, app.package) == ("joplin", "net.cozic.joplin")
    assert app.table("notes") is joplin.NOTES and app.table("folders") is joplin.FOLDERS
    assert joplin.DB_PATH.startswith(app.data_paths[0] + "/")


# --- against the simulator ----------------------------------------------------------------------
@pytest.mark.parametrize("table, columns", [
    (joplin.NOTES_TABLE, joplin.NOTE_COLUMNS),
    (joplin.NORMALIZED_TABLE, joplin.NORMALIZED_COLUMNS),
    (joplin.FOLDERS_TABLE, joplin.FOLDER_COLUMNS),
])
def test_columns_match_the_simulator_image(device, table, columns):
    assert list(columns) == device.sqlite.columns(joplin.DB_PATH, table)


def test_insert_read_round_trip_with_hostile_text_keeps_the_search_copy(device, hostile):
    rng = TaskRng(21)
    folders = [joplin.random_folder(rng, title=text) for text in hostile]
    notes = [joplin.random_note(rng, parent_id=f["id"], title=f["title"], body=f["title"][::-1]) for f in folders]
    before = device.stats.round_trips
    joplin.FOLDERS.insert(device, folders)
    joplin.NOTES.insert(device, notes)
    assert device.stats.round_trips - before <= 2
    assert joplin.FOLDERS.rows(device) == sorted(folders, key=lambda r: r["id"])
    assert joplin.NOTES.rows(device) == sorted(notes, key=lambda r: r["id"])
    normalized = sorted((joplin.normalized_row(n) for n in notes), key=lambda r: r["id"])
    assert joplin.NOTES_NORMALIZED.rows(device) == normalized


def test_table_clear_and_reset(device):
    folders, notes = _world(3, 6)
    joplin.FOLDERS.insert(device, folders)
    joplin.NOTES.insert(device, notes)
    joplin.NOTES.clear(device)  # what a generic table reset does: the search copy goes too
    assert joplin.NOTES.rows(device) == [] and joplin.NOTES_NORMALIZED.rows(device) == []
    assert len(joplin.FOLDERS.rows(device)) == 4
    joplin.NOTES.insert(device, notes)
    joplin.APP.reset(device)
    assert (joplin.FOLDERS.rows(device), joplin.NOTES.rows(device), joplin.NOTES_NORMALIZED.rows(device)) == ([], [], [])


def test_pm_clear_recreates_the_empty_database(device):
    folders, notes = _world(4, 3)
    joplin.FOLDERS.insert(device, folders)
    joplin.NOTES.insert(device, notes)
    device.check("pm clear net.cozic.joplin")
    assert joplin.NOTES.rows(device) == [] and joplin.FOLDERS.rows(device) == []
    assert device.sqlite.columns(joplin.DB_PATH, joplin.NOTES_TABLE) == list(joplin.NOTE_COLUMNS)
