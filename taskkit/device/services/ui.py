"""The screen of a device: `uiautomator dump` parsed into UI elements, `screencap`, `wm size`.

Only commands a stock Android 13 device has are used (no helper APK, no uiautomator2 server):

* `dump()` runs `uiautomator dump` into a file and prints it in the same round trip, then
  parses Android's `window_dump.xml` (``<hierarchy rotation=…>`` of nested ``<node …>``, each with
  `index`, `text`, `resource-id`, `class`, `package`, `content-desc`, the boolean flags and
  `bounds="[x1,y1][x2,y2]"`) into a flat list of `UIElement` objects. As AndroidWorld does with the
  accessibility tree, the list keeps the nodes an agent can act on or read: leaves, nodes with a
  content description, and scrollable nodes, in document order (that order is their index). A
  tap on a clickable row lands on it through the leaves inside it, as on the device.
* `screenshot()` is the PNG of `screencap -p`, moved as bytes (never through a text decode).
* `pixels()` is the screen's RGBA pixels (a `Frame`): raw `screencap` where the device says raw
  frames are cheap (`Device.raw_screenshots`: the in-process simulator, which then encodes no
  PNG), else `screencap -p` decoded (a phone, whose PNG moves far faster than its raw frame).
* `size()` parses `wm size` (the override size when one is set, as Android applies it).

A dump that is not Android's format, or a device without `uiautomator`, raises `UIError` naming
what was wrong, never an empty screen.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import io
import itertools
import json
import re
import struct
import threading
import xml.etree.ElementTree as ElementTree
from typing import TYPE_CHECKING, Iterable

from taskkit.device.quoting import shell_join
from taskkit.device.services.activity import build_foreground, parse_foreground
from taskkit.errors import TaskkitError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device
    from taskkit.device.errors import ShellResult

DUMP_PATH = "/sdcard/window_dump.xml"
TERMINAL = "/dev/tty"  # `uiautomator dump /dev/tty` prints the dump
PARSED_DUMPS = 4  # dumps whose parsed elements are kept (UIElement is immutable: they are shared)
ELEMENTS_KEPT = 1024  # elements kept by their node's attributes (shared across dumps)
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_SIZE = re.compile(r"^(Physical|Override) size: (\d+)x(\d+)\s*$", re.M)
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Raw `screencap`'s header (frameworks/base cmds/screencap/screencap.cpp, android-13.0.0_r1):
#: width, height, format and dataspace, little-endian uint32s; then the rows of pixels.
_RAW_HEADER = struct.Struct("<IIII")
_RGBA_FORMATS = (1, 2)  # PixelFormat RGBA_8888 and RGBX_8888: 4 bytes a pixel, red first


class UIError(TaskkitError, RuntimeError):
    """The device could not produce its screen, or produced one that is not Android's format."""


@dataclasses.dataclass(frozen=True)
class BoundingBox:
    """A node's bounds in screen pixels."""

    x_min: int
    y_min: int
    x_max: int
    y_max: int

    @property
    def center(self) -> tuple[int, int]:
        """The box's centre, in pixels."""
        return (self.x_min + self.x_max) // 2, (self.y_min + self.y_max) // 2

    @property
    def width(self) -> int:
        """The box's width, in pixels."""
        return self.x_max - self.x_min

    @property
    def height(self) -> int:
        """The box's height, in pixels."""
        return self.y_max - self.y_min


@dataclasses.dataclass(frozen=True)
class UIElement:
    """One element of the screen, with AndroidWorld's field names."""

    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    hint: str | None = None
    is_checked: bool = False
    is_checkable: bool = False
    is_clickable: bool = False
    is_editable: bool = False
    is_enabled: bool = True
    is_focused: bool = False
    is_focusable: bool = False
    is_long_clickable: bool = False
    is_scrollable: bool = False
    is_selected: bool = False
    is_password: bool = False
    package_name: str | None = None
    resource_name: str | None = None

    def describe(self) -> str:
        """A one-line label, as AndroidWorld's `get_element_text`: text, hint, description, or
        what the element is (a one-character text gives way to a longer description)."""
        if self.text and len(self.text) == 1 and len(self.content_description or "") > 1:
            return self.content_description  # type: ignore[return-value]
        for label in (self.text, self.hint, self.content_description):
            if label:
                return label
        if self.class_name and self.class_name.endswith("Switch"):
            return "Switch:" + ("on" if self.is_checked else "off")
        if self.resource_name:
            return self.resource_name.rsplit("/", 1)[-1]
        if self.class_name and self.class_name.endswith("EditText"):
            return "edit text"
        return ""

    def as_dict(self) -> dict[str, object]:
        """Plain data (for trajectories and prompts): the bbox as [x1, y1, x2, y2]. (Every field
        is a str, bool or None but the box: read directly, not through `dataclasses.asdict`'s deep
        copy, which cost a trajectory's writer most of its time.)"""
        data = {name: getattr(self, name) for name in _ELEMENT_FIELDS}
        box = self.bbox
        data["bbox"] = None if box is None else [box.x_min, box.y_min, box.x_max, box.y_max]
        return data

    @functools.cached_property
    def json_text(self) -> str:
        """`as_dict()` as JSON (non-ASCII kept), made once per element (an element is immutable
        and shared by the dumps it comes again in): a trajectory line's text."""
        return json.dumps(self.as_dict(), ensure_ascii=False)

    @functools.cached_property
    def digest_text(self) -> str:
        """`as_dict()` as JSON with sorted keys, made once per element: what a screen's digest
        hashes (taskkit.agents.recorded.screen_digest)."""
        return json.dumps(self.as_dict(), sort_keys=True)


_ELEMENT_FIELDS = tuple(field.name for field in dataclasses.fields(UIElement))


def _flag(node: dict[str, str], name: str, default: bool = False) -> bool:
    value = node.get(name)
    return default if value is None else value == "true"


def _text(node: dict[str, str], name: str) -> str | None:
    return node.get(name) or None


def parse_bounds(text: str) -> BoundingBox:
    """`[x1,y1][x2,y2]` → BoundingBox; ValueError for anything else."""
    match = _BOUNDS.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"bounds {text!r} are not of the form [x1,y1][x2,y2]")
    x1, y1, x2, y2 = (int(group) for group in match.groups())
    return BoundingBox(x1, y1, x2, y2)


def _element(node: ElementTree.Element) -> UIElement:
    """The element of a dump's node: a pure function of its attributes (UIElement is immutable),
    kept for the next dumps, where most nodes come again unchanged."""
    return _element_of("\0".join(itertools.chain.from_iterable(node.items())))


@functools.lru_cache(maxsize=ELEMENTS_KEPT)
def _element_of(attributes: str) -> UIElement:
    """The element of a node whose attributes are `attributes`: names and values joined by NUL,
    which XML cannot carry (one string: a key the garbage collector does not walk)."""
    fields = attributes.split("\0")
    node = dict(zip(fields[::2], fields[1::2]))
    class_name = _text(node, "class")
    bounds = node.get("bounds")
    return UIElement(
        text=_text(node, "text"),
        content_description=_text(node, "content-desc"),
        class_name=class_name,
        bbox=parse_bounds(bounds) if bounds else None,
        hint=_text(node, "hint"),
        is_checked=_flag(node, "checked"),
        is_checkable=_flag(node, "checkable"),
        is_clickable=_flag(node, "clickable"),
        is_editable=bool(class_name and "EditText" in class_name) or _flag(node, "editable"),
        is_enabled=_flag(node, "enabled", True),
        is_focused=_flag(node, "focused"),
        is_focusable=_flag(node, "focusable"),
        is_long_clickable=_flag(node, "long-clickable"),
        is_scrollable=_flag(node, "scrollable"),
        is_selected=_flag(node, "selected"),
        is_password=_flag(node, "password"),
        package_name=_text(node, "package"),
        resource_name=_text(node, "resource-id"),
    )


def _listed(attributes: dict[str, str], leaf: bool) -> bool:
    """Whether a node is one of the dump's elements: a leaf, a node with a content description,
    or a scrollable node."""
    return leaf or bool(attributes.get("content-desc")) or attributes.get("scrollable") == "true"


# Dumps written in this process (by the in-process simulated device) with their elements, by the
# document's text (from `<?xml` through `</hierarchy>`), the newest last: their parse is known.
_PRIMED: collections.OrderedDict[str, tuple[UIElement, ...]] = collections.OrderedDict()
_PRIMED_LOCK = threading.Lock()


def prime(document: str, nodes: Iterable[tuple[str, bool]]) -> None:
    """Hand over the parse of a window dump this process just wrote: `document` as written, and
    each of its nodes in document order as (its attributes as the parser reads them, names and
    values alternating, joined by NUL; whether it is one of the dump's elements: `_listed`).
    `parse_window_dump` of a text holding that document answers from them instead of parsing it
    again (what it would answer: the same attributes make the same elements)."""
    with _PRIMED_LOCK:
        if document in _PRIMED:  # the same screen again: its elements are known
            _PRIMED.move_to_end(document)
            return
    try:
        elements = tuple(_element_of(attributes) for attributes, listed in nodes if listed)
    except ValueError:  # a malformed node: left to the parse, which names it
        return
    with _PRIMED_LOCK:
        _PRIMED[document] = elements
        while len(_PRIMED) > PARSED_DUMPS:
            _PRIMED.popitem(last=False)


def parse_window_dump(xml: str) -> list[UIElement]:
    """The actionable and readable elements of a `window_dump.xml`, in document order.

    Raises UIError when the text is not XML, its root is not `hierarchy`, or a node's bounds are
    malformed. The last few dumps' elements are kept: a screen observed again unchanged is not
    parsed again.
    """
    return list(_parsed(xml))


@functools.lru_cache(maxsize=PARSED_DUMPS)
def _parsed(xml: str) -> tuple[UIElement, ...]:
    start = xml.find("<?xml")
    start = xml.find("<hierarchy") if start < 0 else start
    if start < 0:
        raise UIError(f"not a window dump (no <hierarchy>): {xml.strip()[:120]!r}")
    end = xml.rfind("</hierarchy>")  # (a phone's `dump /dev/tty` prints a line after it)
    document = xml[start:end + len("</hierarchy>") if end > start else None]
    primed = _PRIMED.get(document)
    return primed if primed is not None else parse_document(document)


def parse_document(document: str) -> tuple[UIElement, ...]:
    """The elements of a window dump's XML document, parsed (see `parse_window_dump`)."""
    try:
        root = ElementTree.fromstring(document.strip())
    except ElementTree.ParseError as error:
        raise UIError(f"the window dump is not well-formed XML: {error}") from None
    if root.tag != "hierarchy":
        raise UIError(f"the window dump's root is <{root.tag}>, not <hierarchy>")
    elements: list[UIElement] = []
    for node in root.iter("node"):
        if _listed(node.attrib, node.find("node") is None):
            try:
                elements.append(_element(node))
            except ValueError as error:
                raise UIError(f"the window dump has a bad node: {error}") from None
    return tuple(elements)


def build_dump(path: str = DUMP_PATH) -> str:
    """Dump the window hierarchy to `path` and print the file (one round trip)."""
    return f"{shell_join(['uiautomator', 'dump', path])} >/dev/null && cat {shell_join([path])}"


def parse_size(text: str) -> tuple[int, int]:
    """`wm size` output → (width, height), the override size when one is set."""
    sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE.findall(text)}
    if not sizes:
        raise UIError(f"`wm size` printed no size: {text.strip()[:120]!r}")
    return sizes.get("Override", sizes.get("Physical"))  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Screen:
    """The foreground activity and the elements of the screen, read together."""

    foreground: str | None
    elements: tuple[UIElement, ...]
    error: str | None = None  # why the elements could not be read (then `elements` is empty)
    size: tuple[int, int] | None = None  # the display size in pixels (`wm size`), when read


_SECTION = "--taskkit-screen--"


@functools.lru_cache(maxsize=64)  # it repeats from step to step while the foreground and the size do
def _screen_head(head: str) -> tuple[str | None, tuple[int, int] | None]:
    """The foreground activity and the display size (None: not printed) in what `build_screen`
    prints before the dump."""
    return parse_foreground(head), (parse_size(head) if _SIZE.search(head) else None)


def build_screen(path: str = DUMP_PATH) -> str:
    """The foreground window, the display size, a marker line, then the window dump: one command.

    `path` "/dev/tty" prints the dump instead of writing a file (for a device whose shell output
    is its terminal: `Device.dumps_to_terminal`).
    """
    dump = "uiautomator dump /dev/tty" if path == TERMINAL else build_dump(path)
    return f"{build_foreground()}; wm size; echo {_SECTION}; {dump}"


@dataclasses.dataclass(frozen=True)
class Frame:
    """A screenshot's pixels: `height` rows of `width` pixels, top row first, 4 bytes each: red,
    green, blue, then alpha (unused in a RGBX_8888 frame)."""

    width: int
    height: int
    rgba: bytes | memoryview


def parse_raw(data: bytes | memoryview, serial: str = "the device") -> Frame:
    """Raw `screencap` output → Frame; UIError unless it is a 4-byte RGBA frame of its header's size."""
    if len(data) < _RAW_HEADER.size:
        raise UIError(f"screencap on {serial} printed no raw header: {bytes(data[:80])!r}")
    width, height, form, _ = _RAW_HEADER.unpack_from(data)
    pixels = memoryview(data)[_RAW_HEADER.size:]
    if form not in _RGBA_FORMATS:
        raise UIError(f"screencap on {serial} gave pixel format {form}, not RGBA_8888 (1) or RGBX_8888 (2)")
    if len(pixels) != width * height * 4:
        raise UIError(f"screencap on {serial} gave {len(pixels)} bytes of pixels for {width}x{height}, "
                      f"not {width * height * 4}")
    return Frame(width, height, pixels)


def decode_png(png: bytes) -> Frame:
    """A PNG's pixels as a Frame (RGBA)."""
    from PIL import Image  # only a device without cheap raw frames decodes PNG

    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
    return Frame(rgba.width, rgba.height, rgba.tobytes())


class UI:
    """The screen of one device (`device.ui`)."""

    def __init__(self, device: "Device"):
        self.device = device

    def screen(self, remove_dump: bool = True) -> Screen:
        """The foreground activity and the screen's elements, in one round trip.

        A device that cannot dump its screen gives a Screen with `error` set, not a blank one.
        The dump file is deleted in the same command (`remove_dump`), so that observing the screen
        leaves the device as it was: an agent's observations and a task's screen checks are not
        side effects.
        """
        if remove_dump and self.device.dumps_to_terminal:  # nothing written, nothing to remove
            command = build_screen(TERMINAL)
        else:
            command = build_screen() + (f"; rm -f {DUMP_PATH}" if remove_dump else "")
        result = self.device.shell(command)
        head, mark, dump = result.stdout.partition(_SECTION + "\n")
        foreground, size = _screen_head(head)
        if not mark or result.exit_code != 0 or not dump.strip():  # (the removal's status hides the dump's)
            return Screen(foreground, (), self._failure(result, dump), size)
        try:
            return Screen(foreground, tuple(parse_window_dump(dump)), size=size)
        except UIError as error:
            return Screen(foreground, (), str(error), size)

    def dump(self) -> list[UIElement]:
        """The current screen's elements (one round trip)."""
        result = self.device.shell(build_dump())
        if result.exit_code != 0:
            raise UIError(self._failure(result, result.stdout))
        return parse_window_dump(result.stdout)

    def _failure(self, result: "ShellResult", output: str) -> str:
        problem = (result.stderr or output).strip() or f"exit code {result.exit_code}"
        return f"uiautomator dump failed on {self.device.serial}: {problem[:300]}"

    def screenshot(self) -> bytes:
        """The PNG bytes of `screencap -p` (one round trip)."""
        data = self.device.exec_out("screencap -p")
        if not data.startswith(_PNG_SIGNATURE):
            raise UIError(f"screencap -p on {self.device.serial} did not print a PNG: {data[:80]!r}")
        return data

    def pixels(self) -> Frame:
        """The screen's pixels (one round trip): raw `screencap` where the device says raw frames
        are cheap (`Device.raw_screenshots`), else `screencap -p` decoded. The same pixels either way."""
        if not self.device.raw_screenshots:
            return decode_png(self.screenshot())
        return parse_raw(self.device.exec_out_view("screencap"), self.device.serial)

    def size(self) -> tuple[int, int]:
        """The screen size in pixels, as `wm size` reports it (one round trip)."""
        return parse_size(self.device.check("wm size"))
