"""taskkit.apps.markor: AndroidWorld-style note names and texts, and notes as files on the device."""
from __future__ import annotations

import re

from taskkit.apps import markor
from taskkit.rng import TaskRng

_NAME = re.compile(r"[a-z0-9_]+\.(md|txt)")


def test_generators_are_deterministic():
    def draw(seed):
        rng = TaskRng(seed)
        return [(markor.random_file_name(rng), markor.random_note_text(rng)) for _ in range(5)]

    assert draw(1) == draw(1)
    assert draw(1) != draw(2)


def test_file_names_follow_the_androidworld_scheme():
    rng = TaskRng(3)
    names = [markor.random_file_name(rng) for _ in range(100)] + [markor.random_file_name(rng, ".txt") for _ in range(20)]
    assert all(_NAME.fullmatch(n) for n in names)
    assert sum(n.endswith(".txt") for n in names) == 20
    assert len(set(names)) > 90


def test_note_text_is_markdown():
    text = markor.random_note_text(TaskRng(4))
    lines = text.splitlines()
    assert lines[0].startswith("# ") and len(lines[0]) > 4
    assert sum(line.startswith("- ") for line in lines) >= 2
    assert text.endswith("\n")


def test_note_paths():
    assert markor.note_path("a.md") == "/storage/emulated/0/Documents/Markor/a.md"
    assert markor.note_path("a.md", "WorkProjects") == "/storage/emulated/0/Documents/Markor/WorkProjects/a.md"


def test_app_registration():
    assert markor.APP.package == "net.gsantner.markor"
    assert markor.APP.data_paths == ("/storage/emulated/0/Documents/Markor",)
    assert len(markor.SUBFOLDERS) == 10


# --- against the simulator ----------------------------------------------------------------------
def test_create_list_read_round_trip_with_hostile_text(device, hostile):
    names = [f"note_{i}.md" for i in range(len(hostile))]
    for name, text in zip(names, hostile):
        markor.create_note(device, name, text)
    markor.create_note(device, "plan.txt", "Deep\n", folder="WorkProjects")
    markor.create_note(device, "it's a $(name).md", hostile[2])
    assert markor.list_notes(device) == sorted(names + ["WorkProjects/plan.txt", "it's a $(name).md"])
    for name, text in zip(names, hostile):
        assert markor.read_note(device, name) == text
    assert markor.read_note(device, "plan.txt", "WorkProjects") == "Deep\n"
    assert markor.read_note(device, "it's a $(name).md") == hostile[2]


def test_reset_empties_the_folder_but_keeps_it(device):
    markor.create_note(device, "a.md", "x")
    markor.create_note(device, "b.md", "y", folder="DailyNotes")
    markor.reset(device)
    assert markor.list_notes(device) == []
    assert device.files.exists(markor.NOTES_DIR)
    assert device.files.listdir(markor.NOTES_DIR) == []
    markor.reset(device)  # idempotent on an empty folder
    assert device.files.listdir(markor.NOTES_DIR) == []
