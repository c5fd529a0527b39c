"""Markor's and Files' selection screens (taskkit/sim/gui/filelist.py): Markor selects several
notes by tapping while some are selected, renames one (refusing a name already taken), makes a
folder from the new-file dialog; Files moves a file through the destination picker."""
from __future__ import annotations

from taskkit.apps import markor
from taskkit.apps.files import STORAGE_ROOT
from tests.sim.gui.helpers import find, tap, texts

MARKOR = "am start -n net.gsantner.markor/.activity.MainActivity"
FILES = "am start -n com.google.android.documentsui/com.android.documentsui.files.FilesActivity"


def _long_press(device, label: str) -> None:
    x, y = find(device, label).bbox.center
    device.check(f"input swipe {x} {y} {x} {y} 1000")


def _retype(device, text: str) -> None:
    """Select all (Ctrl+A), delete, type: the focused field then holds `text`."""
    device.check("input keycombination 113 29")
    device.check("input keyevent 67")
    device.check(f"input text {text}")


def test_markor_taps_add_to_the_selection_and_drop_from_it(device) -> None:
    for name in ("a.md", "b.md", "c.md"):
        markor.create_note(device, name, "x\n")
    device.check(MARKOR)
    _long_press(device, "a.md")
    tap(device, "b.md")
    assert "Rename" not in [e.content_description for e in device.ui.screen().elements]
    tap(device, "action_delete_selected_items")  # the question names both, as Markor's does
    notes = "/storage/emulated/0/Documents/Markor"
    assert f"Do you really want to delete this Documents?\n\n\n{notes}/a.md\n{notes}/b.md" in texts(device)
    device.check("input keyevent 4")
    tap(device, "b.md")
    tap(device, "a.md")  # the last one dropped: the selection closes
    assert "Markor" in texts(device) and "c.md" in texts(device)


def test_markor_renames_a_note_but_not_onto_another(device) -> None:
    markor.create_note(device, "a.md", "x\n")
    markor.create_note(device, "b.md", "y\n")
    device.check(MARKOR)
    _long_press(device, "a.md")
    tap(device, "action_rename_selected_item")
    assert find(device, "new_name").text == "a.md"
    _retype(device, "b.md")
    tap(device, "OK")  # taken: the dialog stays
    assert "Rename" in texts(device) and device.files.read_text(markor.note_path("a.md")) == "x\n"
    _retype(device, "c.md")
    tap(device, "OK")
    assert not device.files.exists(markor.note_path("a.md")) and device.files.read_text(markor.note_path("c.md")) == "x\n"


def test_markors_new_file_dialog_makes_a_folder(device) -> None:
    device.check(MARKOR)
    tap(device, "fab_add_new_item")
    device.check("input text Projects")
    tap(device, "Folder")
    assert device.files.exists(markor.note_path("Projects")) and "Projects" in texts(device)


def test_files_moves_a_file_through_the_picker(device) -> None:
    device.files.write_text(f"{STORAGE_ROOT}/Download/report.txt", "r")
    device.check(FILES)
    tap(device, "Download")
    _long_press(device, "report.txt")
    tap(device, "More options")
    tap(device, "Move to\u2026")
    tap(device, "Cancel")  # nothing moves
    assert device.files.exists(f"{STORAGE_ROOT}/Download/report.txt")
    tap(device, "More options")
    tap(device, "Move to\u2026")
    tap(device, "Documents")
    tap(device, "Move")
    assert not device.files.exists(f"{STORAGE_ROOT}/Download/report.txt")
    assert device.files.read_text(f"{STORAGE_ROOT}/Documents/report.txt") == "r"
