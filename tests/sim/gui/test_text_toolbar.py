"""The floating text toolbar (taskkit/sim/gui/texttoolbar.py): a long press on a text field
offers Paste and Select all; a selection offers Cut and Copy; any other touch, key or BACK
closes it, and BACK closes only the toolbar."""
from __future__ import annotations

from taskkit.apps import clipper
from tests.sim.gui.helpers import find, tap, texts

NEW_CONTACT = "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact"


def _long_press(device, label: str) -> None:
    x, y = find(device, label).bbox.center
    device.check(f"input swipe {x} {y} {x} {y} 1000")


def test_paste_from_the_toolbar_types_the_clipboard_into_the_field(device) -> None:
    device.check(NEW_CONTACT)
    _long_press(device, "First name")
    assert "Paste" not in texts(device) and "Select all" not in texts(device)  # nothing to paste or select
    clipper.set_clipboard(device, "Ada")
    device.check(NEW_CONTACT)
    _long_press(device, "First name")
    assert {"Paste"} <= set(texts(device)) and "Select all" not in texts(device)
    tap(device, "Paste")
    assert "Ada" in texts(device) and "Paste" not in texts(device)  # pasted; the toolbar closed


def test_select_all_then_cut_or_copy_takes_the_text_to_the_clipboard(device) -> None:
    device.check(NEW_CONTACT)
    device.check("input text 'Order%s4412'")
    _long_press(device, "Order 4412")
    tap(device, "Select all")
    assert {"Cut", "Copy"} <= set(texts(device))
    tap(device, "Cut")
    assert "Order 4412" not in texts(device)
    assert clipper.clipboard(device) == "Order 4412"  # (reading it brings Clipper to the front)
    device.check(NEW_CONTACT)
    _long_press(device, "First name")
    tap(device, "Paste")
    device.check("input text 'B'")
    _long_press(device, "Order 4412B")
    tap(device, "Select all")
    tap(device, "Copy")
    assert "Order 4412B" in texts(device) and clipper.clipboard(device) == "Order 4412B"


def test_back_closes_only_the_toolbar_and_a_tap_elsewhere_closes_it(device) -> None:
    device.check(NEW_CONTACT)
    device.check("input text 'Zoe'")
    _long_press(device, "Zoe")
    assert "Select all" in texts(device)
    device.check("input keyevent KEYCODE_BACK")
    assert "Select all" not in texts(device) and "Zoe" in texts(device)  # still on the editor
    _long_press(device, "Zoe")
    tap(device, "Last name")
    assert "Select all" not in texts(device)
