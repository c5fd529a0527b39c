"""The simulated screen's view tree: nodes with exactly the attributes of Android's window dump.

A `Node` is what `uiautomator dump` writes for one accessibility node (AOSP
`cmds/uiautomator/.../AccessibilityNodeInfoDumper.java`: `NAF` when a clickable node has no
label, then index, text, resource-id, class, package, content-desc, the ten boolean flags and
bounds), plus what the simulator needs to act on it: `action` (a tap), `long_action` (a long
press), `slide` (a SeekBar set to a fraction of its width), `swipe` (a drag that starts on it),
`drag` (a drawing surface: the finger's path in screen pixels), `covered_by_design` (below),
`ink` (lines a canvas shows in
screenshots), `paint` (the shapes and texts a custom view paints on its canvas: screenshots
show them, the dump has no node for them), `image` (a picture file screenshots draw in the
node) and `field` (the draft key of an editable text field). `hint` is the field's
placeholder: as TextView's `getTextForAccessibility` does, an empty field reports its hint as
its text; Android 13's dumper writes no `hint` attribute, so neither does this one.

A view an app draws wholly under a view drawn after it (a toolbar under an action mode's bar, a
row's swipe backdrop under the row) is in the dump, as on Android: the dumper skips a node only
when `AccessibilityNodeInfo.isVisibleToUser()` is false (AccessibilityNodeInfoDumper.dumpNodeRec),
and View.isVisibleToUser(Rect) asks only whether the view is attached, visible, not clipped
away by its ancestors and not fully transparent: a sibling drawn over it does not count; its
bounds are its own (View.getBoundsOnScreen), not what the sibling leaves of it (AOSP
frameworks/base core/java/android/view/View.java, android-13.0.0_r1). Such a view carries
`covered_by_design`, the cited reason the app draws it covered: a touch passes it by
(`reachable`), as the view on top takes it, and taskkit.sim.gui.audit checks that it is covered.
"""
from __future__ import annotations

import dataclasses
import functools
import operator
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.sim.gui.session import Session

Box = tuple[int, int, int, int]
Action = Callable[["Session"], None]
SliderAction = Callable[["Session", float], None]
SwipeAction = Callable[["Session", int, int], None]  # (dx, dy) of the finger
DragAction = Callable[["Session", Box], None]  # (x1, y1, x2, y2): where the finger went down and up
Ink = tuple[tuple[tuple[int, int], ...], tuple[int, int, int], int]  # a line's points, colour, width
Tone = tuple[int, int, int] | str  # a colour, or a theme colour by name ("text", "primary", "background")


@dataclasses.dataclass(frozen=True)
class Painted:
    """One thing a custom view paints on its canvas (screenshots only, never in the dump): a
    rounded rectangle or an oval filled with `fill`, `text` in `box`, or both."""

    box: Box
    text: str = ""
    fill: Tone | None = None
    color: Tone | None = None  # the text's (None: the theme's text colour, or white/dark on `fill`)
    oval: bool = False
    radius: int = 0
    size: int = 0  # the text's height in px (0: from the box's height)
    center: bool = False  # the text centred in `box` (else from its start edge)
    alpha: float = 1.0  # how opaque the fill is (the text: `text_alpha`) over what is under it
    text_alpha: float = 1.0

# The boolean attributes uiautomator writes, in its order.
_FLAGS = ("checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
          "long_clickable", "password", "selected")
# Classes the dumper never marks NAF (AccessibilityNodeInfoDumper.NAF_EXCLUDED_CLASSES).
_NAF_EXCLUDED = ("android.widget.GridView", "android.widget.GridLayout", "android.widget.ListView",
                 "android.widget.TableLayout")
EDIT_TEXT = "android.widget.EditText"


@dataclasses.dataclass
class Node:
    """One view of the screen; `children` are drawn after (above) it."""

    class_name: str = "android.widget.FrameLayout"
    text: str = ""
    resource_id: str = ""
    package: str = ""
    content_desc: str = ""
    bounds: Box = (0, 0, 0, 0)
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    children: list["Node"] = dataclasses.field(default_factory=list)
    hint: str = ""  # a text field's placeholder (shown as its text while it is empty)
    field: str | None = None  # a text field: the key of its draft in the GUI state
    multiline: bool = False  # a text field that takes KEYCODE_ENTER as a new line
    enter: "Action | None" = None  # a single-line text field's IME action (KEYCODE_ENTER)
    action: Action | None = None
    long_action: Action | None = None
    slide: SliderAction | None = None
    swipe: SwipeAction | None = None
    drag: DragAction | None = None
    ink: tuple[Ink, ...] = ()  # screenshots only: lines drawn over the node (a drawing canvas)
    paint: tuple[Painted, ...] = ()  # screenshots only: what a custom view paints (a calendar's month)
    image: str = ""  # screenshots only: the host path of a picture drawn to fit the node (a photo)
    background: Tone | None = None  # screenshots only: a fill under the node (a colour or a theme colour's name)
    text_size: int = 0  # screenshots only: the text's height in px (0: from the node's height)
    text_color: tuple[int, int, int] | None = None  # screenshots only: a colour the layout sets (android:textColor)
    laid_out: Box | None = None  # screenshots only: the bounds before a list cut them (text is clipped, not shrunk)
    icon: str = ""  # screenshots only: the Material icon of a control the dump leaves unnamed (no id, no description)
    covered_by_design: str = ""  # why the app draws it wholly under a view drawn after it (cited); touches pass it by

    def walk(self) -> list["Node"]:
        """This node and every descendant, in drawing (document) order."""
        nodes = [self]
        for child in self.children:
            nodes.extend(child.walk())
        return nodes

    def contains(self, x: int, y: int) -> bool:
        x1, y1, x2, y2 = self.bounds
        return x1 <= x < x2 and y1 <= y < y2

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    @property
    def shown_text(self) -> str:
        """What the node reports as its text: a text field's hint while it is empty."""
        if self.password and self.text:
            return "\u2022" * len(self.text)  # PasswordTransformationMethod's dots
        return self.text or (self.hint if self.field is not None else "")

    @property
    def touchable(self) -> bool:
        return self.enabled and (self.clickable or self.long_clickable or self.slide is not None
                                 or self.field is not None)


def reachable(root: Node) -> list[Node]:
    """The nodes of `root` in drawing order, less those `covered_by_design` (and what they hold):
    what a touch can reach."""
    if root.covered_by_design:
        return []
    nodes = [root]
    for child in root.children:
        nodes.extend(reachable(child))
    return nodes


def hit(root: Node, x: int, y: int) -> Node | None:
    """The topmost touchable node under (x, y): the last drawn one, as Android dispatches a tap
    (a view drawn over another takes the touch: a covered node is never hit)."""
    found = None
    for node in reachable(root):
        if node.touchable and node.contains(x, y):
            found = node
    return found


def swipeable(root: Node, x: int, y: int) -> Node | None:
    """The topmost node under (x, y) that takes a drag (a scrolling list, a pager, a canvas)."""
    found = None
    for node in reachable(root):
        if (node.swipe is not None or node.drag is not None) and node.enabled and node.contains(x, y):
            found = node
    return found


def find_field(root: Node, key: str) -> Node | None:
    """The enabled text field whose draft key is `key`, if it is on the screen."""
    return next((n for n in root.walk() if n.field == key and n.enabled), None)


def clip(node: Node, box: Box, sliver: int = 0) -> Node | None:
    """`node` with its bounds (and its children's) cut to `box`; None where nothing is left, and
    (with `sliver`) where the cut leaves a view thinner than `sliver` px, with what it holds.

    The dumper reports visible bounds, and a list row scrolled half out of view is cut at the
    list's edge; a row scrolled out entirely is not on the screen at all.
    """
    x1, y1, x2, y2 = bounds = node.bounds
    left, top, right, bottom = box
    cut = (x1 if x1 > left else left, y1 if y1 > top else top, x2 if x2 < right else right,
           y2 if y2 < bottom else bottom)  # (max and min calls cost more than the clip itself)
    if cut[0] >= cut[2] or cut[1] >= cut[3]:
        return None
    laid_out = node.laid_out or bounds
    if sliver and cut != laid_out and (cut[2] - cut[0] < sliver or cut[3] - cut[1] < sliver):
        return None
    kept = []
    for child in node.children:
        cut_child = clip(child, cut, sliver)
        if cut_child is not None:
            kept.append(cut_child)
    # A copy with three fields changed: its attributes copied as one dict (dataclasses.replace would
    # run __init__ again, and updating an empty __dict__ grows it a key at a time: 5x the cost).
    cut_node = object.__new__(type(node))
    attributes = cut_node.__dict__ = node.__dict__.copy()
    attributes["bounds"], attributes["children"], attributes["laid_out"] = cut, kept, laid_out
    return cut_node


def _naf_unless_labelled(node: Node) -> bool:
    """A clickable, enabled node without a label of its own that the dumper marks NAF (Not
    Accessibility Friendly) unless a node below it has a label."""
    if not (node.clickable and node.enabled) or node.content_desc or node.shown_text:
        return False
    return not any(node.class_name.endswith(name) for name in _NAF_EXCLUDED)


# Each flag's attribute as written when true and when false, in the dumper's order.
_FLAG_NAMES = tuple(flag.replace("_", "-") for flag in _FLAGS)
_FLAG_ATTRIBUTES = tuple((f' {name}="true"', f' {name}="false"') for name in _FLAG_NAMES)
_FLAG_VALUES = operator.attrgetter(*_FLAGS)


def to_xml(root: Node, package_default: str) -> str:
    """Android's window_dump.xml for the tree under `root` (one line, as uiautomator writes it)."""
    return dump(root, package_default)[0]


_NAF_READ = "NAF\0true\0"  # the NAF attribute as a parser reads it back (`dump`'s nodes)


def dump(root: Node, package_default: str) -> tuple[str, list[tuple[str, bool]]]:
    """`to_xml`'s text, and each node in document order as an XML parser reads it back: its
    attributes (names and values alternating, values unescaped, joined by NUL, which XML cannot
    carry) and whether it is one of the dump's elements (taskkit.device.services.ui.prime)."""
    parts = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"]
    nodes: list[tuple[str, bool]] = []

    def emit(node: Node, index: int) -> bool:
        """Write `node` and its subtree; whether a node in it has a label (text or content-desc)."""
        opening = len(parts)
        parts.append("")  # the node's own tag, written once its subtree tells whether it is NAF
        slot = len(nodes)
        nodes.append(("", False))
        below = False
        children = node.children
        for child_index, child in enumerate(children):
            below = emit(child, child_index) or below
        shown = node.shown_text
        x1, y1, x2, y2 = node.bounds
        bounds = f"[{x1},{y1}][{x2},{y2}]"
        written, read = _described(shown, node.resource_id, node.class_name, node.package or package_default,
                                   node.content_desc, _FLAG_VALUES(node))
        naf = 'NAF="true" ' if not below and _naf_unless_labelled(node) else ""
        parts[opening] = f'<node {naf}index="{index}"{written} bounds="{bounds}"{">" if children else " />"}'
        nodes[slot] = (f"{_NAF_READ if naf else ''}index\0{index}\0{read}\0bounds\0{bounds}",
                       not children or bool(node.content_desc) or node.scrollable)
        if children:
            parts.append("</node>")
        return below or bool(node.content_desc or shown)

    emit(root, 0)
    parts.append("</hierarchy>")
    return "".join(parts), nodes


@functools.lru_cache(maxsize=4096)  # labels, ids, classes and packages repeat from dump to dump
def _described(text: str, resource_id: str, class_name: str, package: str, content_desc: str,
               flags: tuple[bool, ...]) -> tuple[str, str]:
    """A node's attributes between index and bounds: as the dumper writes them (each with the
    space before it) and as a parser reads them back (names and values alternating, joined by NUL)."""
    labels = (("text", text), ("resource-id", resource_id), ("class", class_name), ("package", package),
              ("content-desc", content_desc))
    written = "".join(f' {name}="{_attribute(value)}"' for name, value in labels)
    written += "".join(on if value else off for value, (on, off) in zip(flags, _FLAG_ATTRIBUTES))
    read = [item for name, value in labels for item in (name, _read_back(value))]
    read += [item for name, value in zip(_FLAG_NAMES, flags) for item in (name, "true" if value else "false")]
    return written, "\0".join(read)


def _read_back(value: str) -> str:
    """An attribute's value as a parser reads back what `_attribute` wrote (its escapes undone)."""
    return _xml_safe(value) if value else ""


def _attribute(value: str) -> str:
    """An attribute's value as the dumper writes it (see _ATTRIBUTE_ESCAPES and _xml_safe)."""
    return _xml_safe(value).translate(_ATTRIBUTE_ESCAPES) if value else ""


# How Android's XmlSerializer (libcore's KXmlSerializer, `writeEscaped` with quot '"') writes an
# attribute value, always between double quotes: & < > and " as entities, tab, newline and
# carriage return as character references, everything else (non-ASCII too, in UTF-8) as it is.
_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                    "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})


def _xml_safe(text: str) -> str:
    """The dumper's stripInvalidXMLChars: characters XML cannot carry become '.'."""
    if text.isprintable():
        return text
    return "".join("." if _invalid_xml(ord(ch)) else ch for ch in text)


def _invalid_xml(code: int) -> bool:
    return (code <= 0x8 or code in (0xB, 0xC) or 0xE <= code <= 0x1F or 0x7F <= code <= 0x84
            or 0x86 <= code <= 0x9F or 0xFDD0 <= code <= 0xFDDF or (code & 0xFFFE) == 0xFFFE)
