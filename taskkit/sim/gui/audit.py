"""Do the window dump and the screenshot agree? What an agent reads in the dump it must see drawn,
and what is drawn must belong to a node of the dump.

`audit(view, width, height)` draws the screen (`render.render_image` with its ledger of what each
node drew) and lists the disagreements:

- **unseen**: a node of the dump with text or a content description that the screenshot does not
  show: smaller than `MIN_PX` in width or height (unless a scrolling list cut it at its edge, as
  Android's dumper reports a row scrolled half out of view), hidden under a view drawn after it
  that is not part of it (a bottom bar, a toolbar, a dialog's panel, a filled button), or drawn
  without contrast: in what is left of its box, fewer than `MIN_INK` pixels reach `MIN_CONTRAST`
  against the box's commonest colour (its background), the contrast ratio of WCAG 2.x
  ("relative luminance"; 3:1 is WCAG's minimum for large text, SC 1.4.3, and for the parts of a
  control, SC 1.4.11). A node a list cut whose own drawing lies wholly out of view is not unseen:
  Android's dumper lists it too (its visible bounds are not empty).
- **unowned**: ink a node drew outside its own bounds by more than `SLACK_PX` (text or an icon
  overflowing its box: what is drawn there belongs to no node of the dump).
- **covered by design, but not**: a node the app draws under a view drawn after it is in the
  dump as on Android (taskkit.sim.gui.node: `covered_by_design`), and what it holds is exempt
  from *unseen*; the mark must then be true: the node lies wholly under opaque views drawn after
  it, and its reason cites the app's source (a `.kt`, `.java` or `.xml` file). A node meant to
  be seen that something covers carries no mark and stays a finding.

What a custom view paints on its canvas (`Node.paint`, a calendar's month) belongs to that view's
node, as on Android, where the dump has no node for it.
"""
from __future__ import annotations

import dataclasses
import functools
import re

from PIL import Image, ImageDraw, ImageOps

from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.render import Mark, is_clipped, render_image
from taskkit.sim.gui.screen import View
from taskkit.sim.gui.widgets import SLIVER_PX

MIN_CONTRAST = 2.0
MIN_INK = 4  # pixels of that contrast: a glyph's stem, not one stray pixel
MIN_PX = SLIVER_PX  # a node thinner than this shows nothing an agent can read or aim at
SLACK_PX = 2  # anti-aliased edges a glyph may spill past its box
_HIDDEN = (1, 2, 3)  # the colour standing for covered pixels while counting (never drawn by a theme)
_CITED = re.compile(r"\w\.(kt|java|xml)\b")  # a covered_by_design reason names the app's file


@dataclasses.dataclass(frozen=True)
class Finding:
    """One disagreement: the node (its id, text or description), its bounds and what is wrong."""

    node: str
    bounds: Box
    problem: str

    def __str__(self) -> str:
        return f"{self.node} {list(self.bounds)}: {self.problem}"


@functools.lru_cache(maxsize=65536)
def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2.x contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def _name(node: Node) -> str:
    """How a finding names its node: its resource id, else its text or description."""
    return node.resource_id or repr(node.shown_text or node.content_desc)[:40]


def audit(view: View, width: int, height: int) -> list[Finding]:
    """Every disagreement between the dump of `view` (its active window) and its screenshot."""
    ledger: list[Mark] = []
    image = render_image(view, width, height, ledger).convert("RGB")
    nodes = view.window.walk()
    order = {id(node): i for i, node in enumerate(nodes)}
    ends = _subtree_ends(view.window, order)
    fills = [(order[id(node)], box) for node, box, opaque in ledger if opaque and id(node) in order]
    inks: dict[int, list[Box]] = {}
    for node, box, opaque in ledger:
        if not opaque:
            inks.setdefault(id(node), []).append(box)
    findings = []
    exempt_until = -1  # the end of the covered_by_design subtree being walked
    for i, node in enumerate(nodes):
        if node.covered_by_design and i >= exempt_until:
            exempt_until = ends[i]
            problem = _false_mark(node, [box for j, box in fills if j >= ends[i]], width, height)
        elif i < exempt_until or not _labelled(node):
            continue
        else:
            problem = _unseen(image, node, [box for j, box in fills if j >= ends[i]], inks, nodes[i:ends[i]])
        if problem:
            findings.append(Finding(_name(node), node.bounds, problem))
    for node, box, opaque in ledger:
        if not opaque and id(node) in order and _outside(box, node.bounds, width, height) > SLACK_PX:
            findings.append(Finding(_name(node), node.bounds, f"draws outside its bounds, at {list(box)}"))
    return findings


def _labelled(node: Node) -> bool:
    """A node the dump names for an agent: its text, or the description of a control or a picture
    (an empty TextView's description, Calculator's "No formula", speaks for a blank)."""
    return bool(node.shown_text.strip()) or bool(node.content_desc.strip()) and (
        node.touchable or node.checkable or node.class_name.endswith(("ImageView", "ImageButton", "Button")))


def _subtree_ends(root: Node, order: dict[int, int]) -> dict[int, int]:
    """For each node's position in drawing order, the position just past its last descendant."""
    ends: dict[int, int] = {}

    def visit(node: Node) -> int:
        end = order[id(node)] + 1
        for child in node.children:
            end = visit(child)
        ends[order[id(node)]] = end
        return end
    visit(root)
    return ends


def _unseen(image: Image.Image, node: Node, covering: list[Box], inks: dict[int, list[Box]],
            subtree: list[Node]) -> str:
    """Why the screenshot does not show `node` ("" when it does)."""
    x1, y1, x2, y2 = node.bounds
    if x2 - x1 < MIN_PX or y2 - y1 < MIN_PX:
        return f"{x2 - x1}x{y2 - y1} px"
    hidden = _hidden(node.bounds, covering)
    shown = ImageOps.invert(hidden).getbbox()
    if shown != (0, 0, x2 - x1, y2 - y1) and (shown is None or shown[2] - shown[0] < MIN_PX
                                              or shown[3] - shown[1] < MIN_PX):
        return "under a view drawn over it"
    drawn = [box for part in subtree for box in inks.get(id(part), [])]
    if is_clipped(node) and not any(_overlap(box, node.bounds) for box in drawn):
        return ""  # scrolled half out of view, its drawing in the half that is out: Android lists it too
    crop = image.crop(node.bounds)
    crop.paste(_HIDDEN, mask=hidden)  # what is covered drops out of the count
    shown_colours = {colour: count for count, colour in crop.getcolors(crop.width * crop.height) or []
                     if colour != _HIDDEN}
    background = max(shown_colours, key=shown_colours.__getitem__)
    best = max(contrast(colour, background) for colour in shown_colours)
    inked = sum(count for colour, count in shown_colours.items() if contrast(colour, background) >= MIN_CONTRAST)
    if inked < MIN_INK:
        return f"contrast {best:.2f} on {background}"
    return ""


def _hidden(bounds: Box, covering: list[Box]) -> Image.Image:
    """The pixels of `bounds` the `covering` boxes hide (255), as a mask the size of `bounds`."""
    x1, y1, x2, y2 = bounds
    hidden = Image.new("L", (x2 - x1, y2 - y1), 0)
    pen = ImageDraw.Draw(hidden)
    for cx1, cy1, cx2, cy2 in covering:
        if cx1 < x2 and cx2 > x1 and cy1 < y2 and cy2 > y1:
            pen.rectangle((cx1 - x1, cy1 - y1, cx2 - x1 - 1, cy2 - y1 - 1), fill=255)
    return hidden


def _false_mark(node: Node, covering: list[Box], width: int, height: int) -> str:
    """Why `node`'s covered_by_design mark is not true ("" when it is): its reason cites no source
    file, or some of it (on the screen) is not under an opaque view drawn after it."""
    if not _CITED.search(node.covered_by_design):
        return "covered_by_design cites no source file of the app"
    x1, y1, x2, y2 = max(node.bounds[0], 0), max(node.bounds[1], 0), min(node.bounds[2], width), min(node.bounds[3], height)
    if x1 >= x2 or y1 >= y2:
        return ""
    if ImageOps.invert(_hidden((x1, y1, x2, y2), covering)).getbbox() is not None:
        return "covered_by_design, but not wholly under a view drawn over it"
    return ""


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and a[2] > b[0] and a[1] < b[3] and a[3] > b[1]


def _outside(box: Box, bounds: Box, width: int, height: int) -> int:
    """How far `box` (cut to the screen) reaches past `bounds`, in px."""
    x1, y1, x2, y2 = max(box[0], 0), max(box[1], 0), min(box[2], width), min(box[3], height)
    if x1 >= x2 or y1 >= y2:
        return 0
    return max(bounds[0] - x1, bounds[1] - y1, x2 - bounds[2], y2 - bounds[3], 0)
