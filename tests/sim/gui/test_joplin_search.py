"""Joplin's search on the simulated screen: the header's Search opens it with the field focused,
it finds notes by the words of their indexed copy (`notes_normalized`), titles first, and a
result opens its note. The Notes* tasks' GUI references use it (test_gui_references.py)."""
from __future__ import annotations

from taskkit.apps import joplin
from taskkit.gui_reference import class_name
from taskkit.rng import TaskRng
from tests.sim.gui.helpers import find, tap

MAIN = f"am start -n {joplin.PACKAGE}/.MainActivity"


def _results(device) -> list[str]:
    """The titles the search lists, in order (the rows under the field)."""
    elements = device.ui.screen().elements
    field = find(device, class_name("EditText"))
    return [e.text for e in elements if e.text and e.bbox is not None and e.bbox.y_min >= field.bbox.y_max]


def _search(device, query: str) -> list[str]:
    tap(device, "Clear")
    device.check(f"input text '{query}'")
    return _results(device)


def test_search_finds_notes_by_their_indexed_words_titles_first(device) -> None:
    rng = TaskRng(5)
    folder = joplin.random_folder(rng, title="Work")
    notes = [joplin.random_note(rng, parent_id=folder["id"], title=title, body=body, user_updated_time=t)
             for title, body, t in (("Café visit", "Espresso and cake", 3000), ("Groceries", "Milk, eggs, café beans", 4000),
                                    ("Board prep minutes", "Agenda", 2000), ("Pancakes", "Flour", 1000))]
    joplin.FOLDERS.insert(device, [folder])
    joplin.NOTES.insert(device, notes)
    # A note written to `notes` alone is not in the index the search reads.
    unindexed = joplin.random_note(rng, parent_id=folder["id"], title="Cafe hidden", body="")
    device.sqlite.insert_rows(joplin.DB_PATH, joplin.NOTES_TABLE, [unindexed])
    device.check(MAIN)
    tap(device, "Search")
    field = find(device, class_name("EditText"))
    assert field.is_focused and field.text in ("", None)
    assert _results(device) == []  # an empty query finds nothing
    device.check("input text 'CAFE'")  # case and accents folded; the title's match ranks first
    assert _results(device) == ["Café visit", "Groceries"]
    assert _search(device, "board minutes") == ["Board prep minutes"]  # every word, in any order
    assert _search(device, "board cake") == []
    assert _search(device, "pan") == []  # whole words: no prefix without Joplin's wildcard
    tap(device, "Clear")
    assert _results(device) == []
    device.check("input text 'flour'")
    tap(device, "Pancakes")
    assert [e.text for e in device.ui.screen().elements if e.text][-2:] == ["Pancakes", "Flour"]
    device.check("input keyevent BACK")
    assert _results(device) == ["Pancakes"]  # back on the search, its query kept
