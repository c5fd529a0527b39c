"""`uiautomator dump` writes Android's window_dump.xml: the attributes AOSP's dumper writes, in
its order, the active window only, visible bounds, and a tree the agent side's parser
(`taskkit.device.services.ui.parse_window_dump`) reads back to the same elements."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.device.services import ui
from taskkit.device.services.ui import parse_window_dump
from taskkit.sim.gui.node import Node, dump
from tests.sim.gui.helpers import find, tap

# AccessibilityNodeInfoDumper.dumpNodeRec, in order (NAF first, only on NAF nodes).
ATTRIBUTES = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
              "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
              "selected", "bounds"]
SCREENS = ["am start -n com.google.android.apps.nexuslauncher/.NexusLauncherActivity",
           "am start -n com.android.settings/.Settings",
           "am start -a android.settings.DISPLAY_SETTINGS",
           "am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity",
           "am start -a android.intent.action.SENDTO -d smsto:+12125550134",
           "am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity",
           "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact",
           "am start -n org.tasks/com.todoroo.astrid.activity.MainActivity"]


def attribute_names(raw: str) -> list[list[str]]:
    """The attribute names of every <node ...>, in the order written."""
    return [re.findall(r' ([\w-]+)="', tag) for tag in re.findall(r"<node [^>]*>", raw)]


@pytest.mark.parametrize("start", SCREENS)
def test_every_screen_dumps_in_androids_format(device, start: str) -> None:
    device.check(start)
    raw = device.check("uiautomator dump /dev/tty")
    assert raw.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">")
    root = ElementTree.fromstring(raw[raw.index("<hierarchy"):])
    nodes = list(root.iter("node"))
    assert nodes and all(n.get("package") for n in nodes)
    for names in attribute_names(raw):
        assert names == ATTRIBUTES or names == ["NAF"] + ATTRIBUTES, names
    width, height = 1080, 2400
    for parent in root.iter("node"):
        for index, child in enumerate(parent.findall("node")):
            assert child.get("index") == str(index)
    for node in nodes:
        elements = parse_window_dump(f"<hierarchy>{ElementTree.tostring(node, encoding='unicode')}</hierarchy>")
        box = elements[0].bbox if elements else None
        if box is not None:
            assert 0 <= box.x_min <= box.x_max <= width and 0 <= box.y_min <= box.y_max <= height
    parsed = parse_window_dump(raw)
    leaves = [n for n in nodes if n.find("node") is None or n.get("content-desc") or n.get("scrollable") == "true"]
    assert [e.text for e in parsed] == [n.get("text") or None for n in leaves]


def test_the_dump_is_the_active_window_only(device) -> None:
    raw = device.check("uiautomator dump /dev/tty")
    assert "com.android.systemui" not in raw  # the status bar is another window
    device.check("input swipe 540 5 540 1500")
    raw = device.check("uiautomator dump /dev/tty")
    assert 'package="com.android.systemui"' in raw and "nexuslauncher" not in raw  # the shade is in front


def test_dump_writes_the_file_and_says_so_with_androids_spelling(device) -> None:
    assert device.check("uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    assert device.pull("/sdcard/window_dump.xml").decode() == device.check("uiautomator dump /dev/tty")
    assert device.check("uiautomator dump --compressed /sdcard/w.xml") == "UI hierchary dumped to: /sdcard/w.xml\n"
    # a relative name is written in the shell's directory and named absolutely (getAbsolutePath)
    assert device.check("cd /sdcard && uiautomator dump --compressed w2.xml") == "UI hierchary dumped to: /sdcard/w2.xml\n"
    assert device.pull("/sdcard/w2.xml").startswith(b"<?xml")


def test_an_empty_text_field_reports_its_hint_as_text_and_focus_is_dumped(device) -> None:
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact")
    first = find(device, "First name")
    assert first.class_name == "android.widget.EditText" and first.is_editable and first.is_focused
    assert not find(device, "Last name").is_focused
    device.check("input text Ada")
    assert find(device, "Ada").is_focused and not [e for e in device.ui.screen().elements if e.text == "First name"]
    assert 'hint=' not in device.check("uiautomator dump /dev/tty")  # Android 13's dumper writes none


def test_unlabelled_clickable_nodes_are_marked_naf(device) -> None:
    device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
    raw = device.check("uiautomator dump /dev/tty")
    root = ElementTree.fromstring(raw[raw.index("<hierarchy"):])
    fab = next(n for n in root.iter("node") if n.get("resource-id", "").endswith("conversations_fab"))
    assert fab.get("NAF") == "true" and fab.get("clickable") == "true"
    assert all(n.get("NAF") is None for n in root.iter("node") if n.get("text") or n.get("content-desc"))


def test_rows_scrolled_out_are_not_dumped_and_half_rows_are_cut(device) -> None:
    device.check("am start -n com.android.settings/.Settings")
    listing = find(device, lambda e: e.is_scrollable)
    x = listing.bbox.center[0]
    device.check(f"input swipe {x} {listing.bbox.y_max - 10} {x} {listing.bbox.y_max - 110} 1000")  # 100 px, no fling
    raw = device.check("uiautomator dump /dev/tty")
    root = ElementTree.fromstring(raw[raw.index("<hierarchy"):])
    inside = [n for n in root.iter("node") if n.get("class") == "android.widget.LinearLayout"]
    parsed = parse_window_dump(raw)
    boxes = [e.bbox for e in parsed if e.bbox and e.text]
    assert all(listing.bbox.y_min <= b.y_min and b.y_max <= listing.bbox.y_max for b in boxes if b.y_min >= listing.bbox.y_min)
    first_row = inside[0].get("bounds")
    assert first_row.startswith(f"[0,{listing.bbox.y_min}]")  # the first row is cut at the list's top edge
    tap(device, "Network & internet")  # a row still in view is still a row
    assert "Airplane mode" in device.check("uiautomator dump /dev/tty")


def test_attribute_values_are_escaped_as_androids_xml_serializer_writes_them(device) -> None:
    from taskkit.sim.gui.node import Node, to_xml

    raw = to_xml(Node("android.widget.TextView", text='say "hi" <&>\n\t\'ok\'', bounds=(0, 0, 10, 10)), "p")
    assert ' text="say &quot;hi&quot; &lt;&amp;&gt;&#10;&#9;\'ok\'" ' in raw  # always double quotes
    assert ElementTree.fromstring(raw.encode())[0].get("text") == 'say "hi" <&>\n\t\'ok\''


_hostile = st.text(st.sampled_from(['a', ' ', '"', "'", '<', '&', '>', '\n', '\t', '\r', '\x07', '\x85', '\x9f',
                                    '\ufdd0', '\uffff', 'é', '😀']), max_size=6)


@st.composite
def _trees(draw, depth: int = 0):
    """Nodes with hostile labels and every flag, nested up to three deep."""
    flags = {name: draw(st.booleans()) for name in ("checkable", "checked", "clickable", "enabled", "focusable",
                                                    "focused", "scrollable", "long_clickable", "password", "selected")}
    children = draw(st.lists(_trees(depth + 1), max_size=3)) if depth < 3 else []
    return Node(draw(st.sampled_from(["android.widget.TextView", "android.widget.ListView", "x<&\"y"])),
                text=draw(_hostile), resource_id=draw(_hostile), package=draw(st.sampled_from(["", "p", 'q"&'])),
                content_desc=draw(_hostile), bounds=draw(st.tuples(*[st.integers(-5, 2000)] * 4)),
                children=children, **flags)


@settings(max_examples=150)
@given(_trees())
def test_the_dump_hands_over_the_elements_a_parse_of_its_text_gives(tree) -> None:
    # the in-process device primes the host's parse (ui.prime): it must be the parse, exactly
    xml, nodes = dump(tree, "pkg")
    assert len(nodes) == len(tree.walk())
    ui._PRIMED.clear()
    ui.prime(xml, nodes)
    assert ui._PRIMED[xml] == ui.parse_document(xml)
    assert parse_window_dump(xml + "\nUI hierchary dumped to: /dev/tty\n") == list(ui.parse_document(xml))
