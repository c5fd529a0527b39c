"""Markor: plain `.md` / `.txt` notes under /storage/emulated/0/Documents/Markor.

Names follow AndroidWorld's scheme (reference android-apps.md §4.7): `adjective_noun` plus a
date, four random characters or backup/copy/final/edited, as a prefix or a suffix.
"""
from __future__ import annotations

import posixpath
from datetime import datetime

from taskkit.apps.base import App
from taskkit.apps.common import random_name_stem
from taskkit.device.base import Device
from taskkit.device.quoting import shell_join
from taskkit.rng import TaskRng

PACKAGE = "net.gsantner.markor"
NOTES_DIR = "/storage/emulated/0/Documents/Markor"
EXTENSIONS = (".md", ".txt")
SUBFOLDERS = (
    "BookNotes", "CodeSnippets", "DailyNotes", "FitnessPlans", "MeetingMinutes", "PersonalJournal",
    "RecipeCollections", "StudyGuides", "TravelItineraries", "WorkProjects",
)  # fmt: skip


def random_file_name(rng: TaskRng, ext: str = ".md") -> str:
    """"quick_panda_final.md", "2023_04_17_sunny_garden.md", "calm_river_x7k2.txt"."""
    return random_name_stem(rng) + ext


def random_note_text(rng: TaskRng) -> str:
    """A short Markdown note: a heading, a paragraph and a few bullet points."""
    fake = rng.faker
    heading = fake.sentence(nb_words=4).rstrip(".")
    bullets = "\n".join(f"- {fake.sentence(nb_words=6)}" for _ in range(rng.randint(2, 4)))
    return f"# {heading}\n\n{fake.paragraph(nb_sentences=3)}\n\n{bullets}\n"


def note_path(name: str, folder: str | None = None) -> str:
    """The device path of note `name` (relative to the Markor folder, optionally in `folder`)."""
    return posixpath.join(NOTES_DIR, folder, name) if folder else posixpath.join(NOTES_DIR, name)


def create_note(device: Device, name: str, text: str, folder: str | None = None) -> str:
    """Write note `name` with exactly `text`, creating `folder` if needed; return its path."""
    path = note_path(name, folder)
    device.files.write_text(path, text)  # a push: creates missing parent directories
    return path


def list_notes(device: Device) -> list[str]:
    """Every file under the Markor folder, as sorted paths relative to it ("WorkProjects/a.md")."""
    try:
        paths = device.files.find(NOTES_DIR, type="f")
    except FileNotFoundError:
        return []
    prefix = NOTES_DIR + "/"
    return sorted(path[len(prefix):] if path.startswith(prefix) else path for path in paths)


def set_changed(device: Device, name: str, when: datetime) -> None:
    """Give note `name` the change time `when` (`touch -t` with `when`'s wall-clock digits: a
    device in another time zone shifts every note alike, keeping their order)."""
    device.run(shell_join(["touch", "-t", when.strftime("%Y%m%d%H%M.%S"), note_path(name)]))


def read_note(device: Device, name: str, folder: str | None = None) -> str:
    """The exact text of note `name`."""
    return device.files.read_text(note_path(name, folder))


def reset(device: Device) -> None:
    """Remove everything under the Markor folder and keep the (empty) folder."""
    device.files.remove(NOTES_DIR, recursive=True)
    device.files.mkdir(NOTES_DIR)


APP = App(
    name="markor",
    package=PACKAGE,
    data_paths=(NOTES_DIR,),
    reset=reset,
)
