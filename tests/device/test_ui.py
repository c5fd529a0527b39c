"""device.ui: Android's window_dump.xml parsed into UI elements; wm size; clear errors."""
from __future__ import annotations

from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit.device.services import ui

# The shape of a real Android 13 dump: one line, the XML declaration uiautomator writes, a
# `hierarchy` with `rotation`, nodes with every attribute in Android's order.
ATTRS = ("index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
         "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
         "selected", "bounds")


def node(children: str = "", **values: str) -> str:
    defaults = {"index": "0", "text": "", "resource-id": "", "class": "android.widget.FrameLayout",
                "package": "com.android.settings", "content-desc": "", "checkable": "false",
                "checked": "false", "clickable": "false", "enabled": "true", "focusable": "false",
                "focused": "false", "scrollable": "false", "long-clickable": "false", "password": "false",
                "selected": "false", "bounds": "[0,0][1080,2400]"}
    defaults.update({key.rstrip("_").replace("_", "-"): value for key, value in values.items()})
    attrs = " ".join(f"{name}={quoteattr(defaults[name])}" for name in ATTRS)
    return f"<node {attrs}>{children}</node>" if children else f"<node {attrs} />"


def dump(*nodes: str) -> str:
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
            f"<hierarchy rotation=\"0\">{''.join(nodes)}</hierarchy>")


_LIST = node(node(text="Wi‑Fi", class_="android.widget.TextView", bounds="[42,260][600,330]")
             + node(resource_id="android:id/switch_widget", class_="android.widget.Switch", checkable="true",
                    checked="true", clickable="true", focusable="true", bounds="[900,250][1038,340]"),
             class_="androidx.recyclerview.widget.RecyclerView", scrollable="true", bounds="[0,220][1080,2274]")
_SEARCH = node(class_="android.widget.EditText", text="", content_desc="Search settings", focused="true",
               bounds="[40,60][1040,180]")
WIFI_SCREEN = dump(node(_LIST + _SEARCH))


def test_a_settings_screen() -> None:
    elements = ui.parse_window_dump(WIFI_SCREEN)
    assert [e.describe() for e in elements] == ["", "Wi‑Fi", "Switch:on", "Search settings"]
    scroller, label, switch, search = elements
    assert scroller.is_scrollable and scroller.class_name.endswith("RecyclerView")
    assert label.text == "Wi‑Fi" and label.bbox == ui.BoundingBox(42, 260, 600, 330)
    assert switch.is_checked and switch.is_clickable and switch.resource_name == "android:id/switch_widget"
    assert switch.bbox.center == (969, 295)
    assert search.is_editable and search.is_focused and search.package_name == "com.android.settings"
    assert search.as_dict()["bbox"] == [40, 60, 1040, 180]


def test_a_clickable_row_is_reached_through_its_leaves_as_in_androidworld() -> None:
    """AndroidWorld's `forest_to_ui_elements` keeps leaves, described and scrollable nodes only."""
    row = node(node(text="Internet", class_="android.widget.TextView", bounds="[189,357][849,420]")
               + node(text="AndroidWifi", class_="android.widget.TextView", bounds="[189,420][849,470]"),
               class_="android.widget.LinearLayout", clickable="true", focusable="true", bounds="[0,315][1080,504]")
    elements = ui.parse_window_dump(dump(node(row)))
    assert [e.text for e in elements] == ["Internet", "AndroidWifi"]


@pytest.mark.parametrize("fields, label", [
    ({"text": "+", "content_description": "Add expense"}, "Add expense"),  # one character gives way
    ({"text": "OK", "content_description": "Confirm"}, "OK"),
    ({"hint": "Search", "content_description": "Search box"}, "Search"),
    ({"class_name": "android.widget.Switch", "is_checked": False}, "Switch:off"),
    ({"resource_name": "com.app:id/fab"}, "fab"),
    ({"class_name": "android.widget.EditText"}, "edit text"),
    ({}, ""),
])
def test_describe_is_androidworlds_element_text(fields: dict, label: str) -> None:
    assert ui.UIElement(**fields).describe() == label


@pytest.mark.parametrize("text, problem", [
    ("ERROR: could not get idle state.", "no <hierarchy>"),
    ("<hierarchy><node", "not well-formed"),
    (dump(node(bounds="[0,0][10]")), "bad node"),
])
def test_bad_dumps_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(ui.UIError, match=problem):
        ui.parse_window_dump(text)


def test_dump_command_prints_the_file_in_the_same_round_trip() -> None:
    assert ui.build_dump() == "uiautomator dump /sdcard/window_dump.xml >/dev/null && cat /sdcard/window_dump.xml"


@pytest.mark.parametrize("text, size", [
    ("Physical size: 1080x2400\n", (1080, 2400)),
    ("Physical size: 1080x2400\nOverride size: 720x1280\n", (720, 1280)),
])
def test_wm_size(text: str, size: tuple[int, int]) -> None:
    assert ui.parse_size(text) == size


def test_wm_size_without_a_size() -> None:
    with pytest.raises(ui.UIError, match="no size"):
        ui.parse_size("cmd: Can't find service: window\n")


texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20).filter(
    lambda s: all(ord(c) >= 0x20 or c in "\t\n\r" for c in s))


@st.composite
def trees(draw, depth: int = 0) -> tuple[str, list[tuple[str, bool]]]:
    """A node (XML) and the (text, checked) of the elements the parser must keep, in order."""
    text = draw(texts)
    checked = draw(st.booleans())
    scrollable = draw(st.booleans())
    x1, y1 = draw(st.integers(0, 1000)), draw(st.integers(0, 2000))
    bounds = f"[{x1},{y1}][{x1 + draw(st.integers(0, 80))},{y1 + draw(st.integers(0, 400))}]"
    kids = draw(st.lists(trees(depth + 1), max_size=0 if depth >= 3 else 3))
    xml = node("".join(k[0] for k in kids), text=text, checked=str(checked).lower(),
               scrollable=str(scrollable).lower(), bounds=bounds)
    kept = [(text, checked)] if (not kids or scrollable) else []
    return xml, kept + [item for k in kids for item in k[1]]


@given(st.lists(trees(), min_size=1, max_size=3))
def test_any_android_dump_round_trips(forest) -> None:
    elements = ui.parse_window_dump(dump(*(xml for xml, _ in forest)))
    expected = [item for _, kept in forest for item in kept]
    assert [(e.text or "", e.is_checked) for e in elements] == expected


def test_a_screen_read_leaves_no_dump_file(tmp_path) -> None:
    """Observing the screen leaves no /sdcard/window_dump.xml behind (one round trip either way);
    `remove_dump=False` keeps the file, as `uiautomator dump` alone does."""
    from taskkit.connect import sim_device

    device = sim_device(tmp_path / "device")
    try:
        kept = device.ui.screen(remove_dump=False)
        assert kept.error is None and kept.elements and device.files.exists(ui.DUMP_PATH)
        device.files.remove(ui.DUMP_PATH)
        trips = device.stats.round_trips
        read = device.ui.screen()
        assert device.stats.round_trips == trips + 1
        assert read.error is None and [e.describe() for e in read.elements] == [e.describe() for e in kept.elements]
        assert not device.files.exists(ui.DUMP_PATH)
    finally:
        device.close()


def test_a_simulated_screen_read_writes_nothing(tmp_path) -> None:
    """The simulated device prints its dump (`uiautomator dump /dev/tty`): observing the screen
    opens no file for writing, removes none, and reads the same elements as the file's way; a
    device that does not print it (a phone) is sent the file's way."""
    import sys

    from taskkit.connect import sim_device

    device = sim_device(tmp_path / "device")
    writes: list[str] = []
    watching = [False]  # an audit hook stays for the process: it records only during the read

    def hook(event: str, args: tuple) -> None:
        if not watching[0]:
            return
        if event == "open" and len(args) > 1 and isinstance(args[1], str) and set(args[1]) & set("wax+"):
            writes.append(str(args[0]))
        elif event in ("os.remove", "os.replace", "os.rename"):
            writes.append(str(args[0]))

    try:
        through_file = device.ui.screen(remove_dump=False)
        device.files.remove(ui.DUMP_PATH)
        sys.addaudithook(hook)
        watching[0] = True
        printed = device.ui.screen()
        watching[0] = False
        assert writes == [], writes
        assert [e.describe() for e in printed.elements] == [e.describe() for e in through_file.elements]
        assert ui.TERMINAL in ui.build_screen(ui.TERMINAL) and ui.TERMINAL not in ui.build_screen()
    finally:
        device.close()


def test_an_elements_plain_data_is_every_field_with_the_box_as_a_list() -> None:
    """`as_dict` reads the fields directly: the same keys, order and values as a deep copy gives."""
    import dataclasses

    from taskkit.device.services.ui import BoundingBox, UIElement

    for element in (UIElement(), UIElement(text="Save", class_name="android.widget.Button", bbox=BoundingBox(0, 10, 20, 40),
                                           is_clickable=True, resource_name="pkg:id/save", package_name="pkg")):
        expected = dataclasses.asdict(element)
        expected["bbox"] = None if element.bbox is None else [0, 10, 20, 40]
        assert element.as_dict() == expected and list(element.as_dict()) == list(expected)
        assert all(isinstance(v, (str, bool, type(None), list)) for v in element.as_dict().values())
