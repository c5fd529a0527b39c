"""Markor's editor formatting bar (taskkit/sim/gui/apps/markor_actions.py): the buttons in the app's
order with their descriptions, scrolled sideways; what they do to the text at the cursor and around
the selection, written to the file when the editor is left; and each edit as a function."""
from __future__ import annotations

import pytest

from taskkit.apps import markor
from taskkit.connect import sim_device
from taskkit.sim.gui import audit
from taskkit.sim.gui.apps.markor_actions import BUTTONS
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import find, tap

MARKOR = "am start -n net.gsantner.markor/.activity.MainActivity"
EDITOR = "document__fragment__edit__highlighting_editor"
BAR = "document__fragment__edit__text_actions_bar__scrolling_parent"


@pytest.fixture(scope="module")
def device():
    phone = sim_device()
    yield phone
    phone.close()


def _open(device, name: str, text: str) -> None:
    """The note `name` holding `text`, open in the editor from a fresh start of the app."""
    markor.create_note(device, name, text)
    device.check("am force-stop net.gsantner.markor")
    device.check(MARKOR)
    tap(device, name)


def _bar(device) -> list[str]:
    """The descriptions of the bar's buttons on the screen, left to right."""
    elements = device.ui.screen().elements
    return [e.content_description for e in elements if e.class_name == "android.widget.ImageView" and e.content_description
            and e.bbox.y_min >= find(device, BAR).bbox.y_min]


def test_the_bar_shows_the_apps_buttons_in_order_and_scrolls_sideways(device) -> None:
    _open(device, "bar.md", "")
    shown = _bar(device)
    assert shown[:8] == ["Check list", "Unordered list", "Bold", "Italic", "Delete lines", "Open link", "Attach",
                         "Special Key"]
    assert find(device, BAR).bbox.y_max == max(e.bbox.y_max for e in device.ui.screen().elements)  # the window's bottom
    assert find(device, EDITOR).bbox.y_max <= find(device, BAR).bbox.y_min
    bar = find(device, BAR).bbox
    swipe = f"input swipe {bar.x_max - 20} {bar.center[1]} 20 {bar.center[1]} 10000"  # too slow to fling
    device.check(swipe)  # a swipe to the left brings the later buttons in
    assert "Heading 1" in _bar(device) and "Check list" not in _bar(device)
    for _ in range(3):
        device.check(swipe)
    later = _bar(device)  # up to the last
    assert later[-1] == "Rotate"
    assert [b.desc for b in BUTTONS].index(later[0]) + len(later) == len(BUTTONS)


def test_the_bar_draws_what_its_dump_names_whole_and_scrolled_halfway(device) -> None:
    _open(device, "drawn.md", "# Title")
    bar = find(device, BAR).bbox
    for _ in range(2):
        findings = audit.audit(build(Session(device.state), drawn=True), 1080, 2400)
        assert findings == [] and len(_bar(device)) >= 8
        y = bar.center[1]
        device.check(f"input swipe {bar.x_max - 20} {y} {bar.x_max - 400} {y} 300")  # buttons cut at both ends


def test_buttons_format_at_the_cursor_and_typing_goes_where_they_leave_it(device) -> None:
    _open(device, "shopping.md", "")
    device.check("input text Shopping")
    tap(device, "Check list")
    tap(device, "Check list")  # checked
    assert find(device, EDITOR).text == "- [x] Shopping"
    tap(device, "Check list")
    tap(device, "Unordered list")  # a checkbox gives way to the bullet
    device.check("input keyevent ENTER")
    device.check("input text milk%s")
    tap(device, "Bold")  # the markers either side of the cursor, which stays between them
    device.check("input text now")
    device.check("input keyevent FORWARD_DEL")  # deletes the "*" after the cursor
    device.check("input text !")
    assert find(device, EDITOR).text == "- Shopping\nmilk **now!*"
    device.check("input keyevent BACK")
    assert device.files.read_text(markor.note_path("shopping.md")) == "- Shopping\nmilk **now!*"


def test_a_tap_on_the_text_puts_the_cursor_back_at_its_end(device) -> None:
    _open(device, "cursor.md", "x")
    tap(device, "Italic")
    tap(device, EDITOR)
    device.check("input text y")
    assert find(device, EDITOR).text == "x__y"


def test_a_selected_text_is_wrapped_and_the_cursor_goes_to_its_end(device) -> None:
    _open(device, "wrap.md", "one two")
    device.check("input keycombination 113 29")  # Ctrl+A: the whole text selected
    tap(device, "Bold")
    device.check("input text !")
    assert find(device, EDITOR).text == "**one two**!"


EDITS = {b.desc: b.edit for b in BUTTONS}


@pytest.mark.parametrize("desc, text, at, expected", [
    ("Heading 1", "Title", 5, ("# Title", 7)),
    ("Heading 2", "# Title", 7, ("## Title", 8)),  # another level becomes this one
    ("Heading 1", "# Title", 7, ("Title", 5)),  # the same level goes
    ("Heading 3", "- item", 6, ("### item", 8)),  # another prefix gives way
    ("Check list", "> quoted", 8, ("> - [ ] quoted", 14)),  # the quote's prefix is kept, as the app's pattern does
    ("Quote", "a\n> b", 5, ("a\nb", 3)),
    ("Quote", "1. a", 4, ("> a", 3)),
    ("Ordered list", "1. a\nb", 6, ("1. a\n2. b", 9)),  # numbered on from the item above
    ("Ordered list", "1. a\n2. b\n3. c", 9, ("1. a\nb\n3. c", 6)),  # dropped (the cursor's line no item: no renumbering)
    ("Move text one line up", "1. a\n2. b\nc", 9, ("1. b\n2. a\nc", 4)),  # renumbered from 1
    ("Indent", "3. a", 4, ("    1. a", 8)),
    ("Unordered list", "  - a", 5, ("  a", 3)),
    ("Italic", "ab", 1, ("a__b", 2)),
    ("Strike out", "", 0, ("~~~~", 2)),
    ("Inline code", "x", 1, ("x``", 2)),
    ("Horizontal line", "x\n", 2, ("x\n----\n", 7)),
    ("Delete lines", "a\nb\nc", 3, ("a\nc", 2)),
    ("Delete lines", "a\nb", 3, ("a", 1)),  # the last line takes the line break before it
    ("Move text one line up", "a\nb\nc", 3, ("b\na\nc", 1)),
    ("Move text one line down", "a\nb\nc", 0, ("b\na\nc", 2)),
    ("Move text one line up", "a\nb", 0, ("a\nb", 0)),  # the first line stays
    ("Indent", "a", 1, ("    a", 5)),
    ("De-indent", "      a", 7, ("  a", 3)),
    ("Start new line below", "ab\ncd", 1, ("ab\n\ncd", 3)),
    ("Accordion", "", 0, ("<details markdown='1'><summary>Expand / Collapse</summary>\n\n\n</details>", 59)),
])
def test_each_edit_at_the_cursor(desc: str, text: str, at: int, expected: tuple[str, int]) -> None:
    edit = EDITS[desc]
    assert edit is not None
    new, start, end = edit((text, at, at))
    assert (new, end) == expected and start == end


@pytest.mark.parametrize("desc, text, selection, expected", [
    ("Bold", "ab cd", (0, 5), ("**ab cd**", 2, 9)),  # wrapped (the end after the closing marker)
    ("Bold", "x **ab** y", (2, 8), ("x ab y", 2, 4)),  # a selection holding its markers is unwrapped
    ("Bold", "x **ab** y", (4, 6), ("x ab y", 2, 4)),  # so is one between them
    ("Heading 1", "a\nb", (0, 3), ("# a\n# b", 2, 7)),  # every line; the start keeps its distance to its line end
])
def test_each_edit_around_a_selection(desc: str, text: str, selection: tuple[int, int],
                                      expected: tuple[str, int, int]) -> None:
    edit = EDITS[desc]
    assert edit is not None
    assert edit((text, *selection)) == expected


def test_the_buttons_the_simulator_does_not_carry_out_are_the_apps_dialogs() -> None:
    assert [b.desc for b in BUTTONS if b.edit is None] == ["Open link", "Attach", "Special Key", "Date and time", "Table",
                                                            "Insert snippet", "Rotate"]
    assert len(BUTTONS) == 26
