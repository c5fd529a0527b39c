"""`screencap` of the simulated screen: the view tree drawn with Pillow, at the display's size.

Text is drawn in Roboto (Debian `fonts-roboto`), as Android draws it, and cut at its box's edge:
a row scrolled half out of a list shows the half of its text that is in view, never a smaller
text. Icon-only controls show the Material icon the real app gives them (`icons`, drawn from
Debian's `fonts-material-design-icons-iconfont`); radio buttons and checkboxes show their
state as Material's glyphs, switches as a track with a thumb (the accent colour when on).
Each app's window takes its own theme colours (`theme`), light or dark as the app follows the
system Dark theme; an app bar of a filled-toolbar theme takes its toolbar colour; floating
action buttons are filled circles in the primary colour; dialogs sit on a scrim; the launcher's
icons are a Material glyph on a coloured circle (taskkit's own drawing); what a custom view
paints on its canvas (`Node.paint`: a calendar's day numbers, a picker's month title) is drawn
with the same text routine, never dumped; pictures (`Node.image`, `pictures`) are photos
fitted or cut to their view and the apps' drawables, layer by layer; a bottom navigation bar is
opaque, and a toolbar over a picture see-through with light icons; the status bar shows
wifi, signal and battery glyphs and the navigation bar Back, Home and Overview. With a ledger
(`render_image`), what each node of the active window drew is noted for `audit`. A missing font
falls back to Pillow's bundled one (icons to an outline circle) with one warning line. The same
screen gives the same bytes (PNG without timestamps, fixed compression). `render_rgba` gives the
pixels themselves (raw `screencap`, read in process by taskkit.gym): no PNG is encoded for them,
and the last few frames are kept by what they draw (docs/performance.md, "Screenshots").
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import io
import threading

from PIL import Image, ImageDraw, ImageFont, features

from taskkit.apps import media
from taskkit.sim.gui import cache, icons, launcher, pictures, vector, widgets
from taskkit.sim.gui.node import EDIT_TEXT, Box, Node, Painted, Tone
from taskkit.sim.gui.screen import View
from taskkit.sim.gui.theme import NEUTRAL_DARK, NEUTRAL_LIGHT, Palette, theme

Color = tuple[int, int, int]
#: What the painter drew for a node of the active window: the node, the box it drew in, and
#: whether it filled that box opaquely (a background: what is under it is hidden) or inked it.
Mark = tuple[Node, Box, bool]
_MUTED_IDS = ("android:id/summary", "_body_short", "_date", "app_label", "item_contact_number")
_DIALOG_BUTTONS = ("android:id/button1", "android:id/button2", "android:id/button3")
_SQUARE = ("android.widget.FrameLayout", "android.widget.RelativeLayout")  # filled as rectangles
PNG_COMPRESSION = 1  # zlib level: screenshots are taken every step, so speed over size
_SHADE_DIM = 0.45  # how bright the app under the shade stays
_SCRIM = 0.32  # Material's dialog scrim: black at 32 %
_WHITE: Color = (255, 255, 255)
_BLACK: Color = (0, 0, 0)

# Fonts, shipped with the package (fonts/README.md): Roboto as Android draws text, Android's own
# CJK fallback and DejaVu Sans for Arabic and Hebrew, shaped right to left by libraqm when Pillow
# has it.
ROBOTO = str(icons.FONTS / "Roboto-Regular.ttf")
ROBOTO_MEDIUM = str(icons.FONTS / "Roboto-Medium.ttf")
_CJK_FONT = str(icons.FONTS / "DroidSansFallbackFull.ttf")
#: Hangul, which the Droid fallback covers only in part: Android 13 draws Korean in Noto Sans CJK
#: (frameworks/base data/fonts/fonts.xml, lang="ko"); shipped as its Hangul subset.
_HANGUL_FONT = str(icons.FONTS / "NotoSansCJKkr-Hangul.otf")
_RTL_FONT = str(icons.FONTS / "DejaVuSans.ttf")


def _is_hangul(code: int) -> bool:
    return 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F or 0xA960 <= code <= 0xA97F or 0xAC00 <= code <= 0xD7FF


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (_is_hangul(code) or 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF)


def _cjk_font(char: str) -> str | None:
    """The font that draws `char` in a CJK line: Hangul's, the CJK fallback, or None (Roboto)."""
    if not _is_cjk(char):
        return None
    return _HANGUL_FONT if _is_hangul(ord(char)) else _CJK_FONT


@functools.lru_cache(maxsize=4096)  # every label, at every screenshot: its characters are looked at once
def _script_font(line: str) -> str | None:
    """The font file a line needs beyond Latin (None: the bundled font draws it)."""
    for char in line:
        code = ord(char)
        if 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFF:
            return _RTL_FONT
        if _is_cjk(char):
            return _CJK_FONT
    return None


def _runs(line: str, path: str | None) -> list[tuple[str, str | None]]:
    """`line` cut where the font changes: the CJK fonts have no Latin letters, digits or
    punctuation, so those are drawn with the default font (Android falls back per character)."""
    if path != _CJK_FONT:
        return [(line, path)]
    runs: list[tuple[str, str | None]] = []
    for char in line:
        wanted = _cjk_font(char)
        if runs and runs[-1][1] == wanted:
            runs[-1] = (runs[-1][0] + char, wanted)
        else:
            runs.append((char, wanted))
    return runs


@functools.lru_cache(maxsize=64)
def _font(size: int, path: str | None = None) -> ImageFont.FreeTypeFont:
    """The font at `path` (default Roboto) at `size` px."""
    path = path or ROBOTO
    # right-to-left text needs libraqm's shaping; the rest is laid out far faster without it
    engine = ImageFont.Layout.RAQM if path == _RTL_FONT and features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, size, layout_engine=engine)


@functools.lru_cache(maxsize=64)
def _icon_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(icons.MATERIAL_ICONS, size, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=8192)
def _length(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str) -> float:
    """`text`'s advance in `font` (a label is measured once, not at every screenshot)."""
    return font.getlength(text)


@functools.lru_cache(maxsize=1024)  # the labels and icons of many screens: ~6 MB over 400 random steps
def _mask(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str, fontmode: str,
          anchor: str = "la") -> tuple[Image.Image, int, int]:
    """`text` set in `font` as a mask, and where the mask's corner lies from the text's anchor
    point: a label or icon on every screenshot (a calendar's day numbers, the bars' glyphs) is set
    once, into the pixels ImageDraw.text would set there."""
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    pen = ImageDraw.Draw(mask)
    pen.fontmode = fontmode
    pen.text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask, left, top


def _is_dark(color: Color) -> bool:
    """Whether white reads better than black on `color` (its luma, ITU-R BT.601, under 150)."""
    return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2] < 150


def _mix(a: Color, b: Color, share: float) -> Color:
    """`a` with `share` of `b` mixed in."""
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b))  # type: ignore[return-value]


def _cut(box: Box, clip: Box) -> Box | None:
    """The part of `box` inside `clip`, None when there is none."""
    cut = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))
    return cut if cut[0] < cut[2] and cut[1] < cut[3] else None


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _is_fab(node: Node) -> bool:
    name = node.resource_id.rpartition(":id/")[2]
    return name.startswith("fab") or name.endswith("fab") or name in ("fb_main_add", "floating_action_button")


def is_clipped(node: Node) -> bool:
    """Whether a list cut the node (its text is partly out of view)."""
    return node.laid_out is not None and (node.laid_out[1], node.laid_out[3]) != (node.bounds[1], node.bounds[3])


def text_layout(node: Node, value: str, inset: int = 0, path: str | None = None,
                box: Box | None = None) -> tuple[int, list[str], int, int]:
    """How `value` is set in the node's box (or `box`): the text size, the lines drawn (wrapped,
    the last cut with an ellipsis when it does not fit), the first line's top and the line step."""
    x1, y1, x2, y2 = box or node.bounds
    if node.laid_out and box is None:
        y1, y2 = node.laid_out[1], node.laid_out[3]
    size = node.text_size or max(12, min(48, (y2 - y1) * 3 // 5))
    font = _font(size, _script_font(value) or path)
    step = int(size * 1.25)
    lines = _wrap(font, value, max(1, x2 - x1 - inset - 8), max(1, (y2 - y1) // step))
    if node.multiline:  # a multi-line field (an editor) fills from its top
        return size, lines, y1 + min(step // 2, max(0, (y2 - y1 - len(lines) * step) // 2)), step
    return size, lines, y1 + max(0, (y2 - y1 - len(lines) * step) // 2), step


@functools.lru_cache(maxsize=64)  # a list's rows draw the same few drawables at one size
def _layers(drawable: pictures.Drawable, size: tuple[int, int], dark: bool,
            palette: bool) -> tuple[tuple[Image.Image, Color], ...]:
    """`drawable` at `size` as masks in their colours: a gradient, a fill, a glyph (thresholded for
    a palette image, which takes no blended edges)."""
    layers: list[tuple[Image.Image, Color]] = []
    if drawable.gradient != (0, 0):  # black, from one alpha at the top to another at the bottom
        top, bottom = drawable.gradient
        layers.append((Image.linear_gradient("L").resize(size).point(lambda v: top + (bottom - top) * v // 255), _BLACK))
    if drawable.fill is not None:
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=int(min(size) * drawable.corner),
                                               fill=255)
        layers.append((mask, drawable.fill[int(dark)]))
    if drawable.glyph:
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).text((size[0] // 2, size[1] // 2), icons.glyph(drawable.glyph), fill=255,
                                  font=_icon_font(max(8, int(min(size) * drawable.share))), anchor="mm")
        layers.append((mask, drawable.tint[int(dark)]))
    if drawable.path:
        layers.append((vector.mask(drawable.path, drawable.viewport, size), drawable.tint[int(dark)]))
    if palette:
        layers = [(mask.point(lambda v: 255 if v >= 128 else 0), colour) for mask, colour in layers]
    return tuple(layers)


def _photo(image: str, size: tuple[int, int]) -> Image.Image:
    """The picture file `image` names (a video's frame: `<path>#t=<ms>`, a media fragment) at a
    view of `size`: scaled to fit it (fitCenter), or cut to fill it (`pictures.CROP`:
    centerCrop). The file is read every time (so the GUI cache sees the read); decoding and
    scaling are done once per picture, view size and fit."""
    path, crop, at = _picture_file(image)
    with open(path, "rb") as handle:
        data = handle.read()
    return _fitted(_video_frame(data, int(at)) if at else data, size, crop)


def _picture_file(image: str) -> tuple[str, bool, str]:
    """A `Node.image` naming a file: its path, whether it is cut to fill its view, and the time
    of a video's frame ("" for a picture)."""
    crop = image.startswith(pictures.CROP)
    path, _, at = (image[len(pictures.CROP):] if crop else image).partition("#t=")
    return path, crop, at


@functools.lru_cache(maxsize=16)  # a screen's few photos: a gallery's thumbnails, a recipe's header
def _fitted(picture_file: bytes, size: tuple[int, int], crop: bool) -> Image.Image:
    """`_photo` of a picture file's content (kept by content: a file written again with other
    bytes is drawn afresh, whatever its name or stat), not to be changed by the caller."""
    with Image.open(io.BytesIO(picture_file)) as picture:
        picture.draft("RGB", size)  # JPEG: decode at about the size needed
        scale = (max if crop else min)(size[0] / picture.width, size[1] / picture.height)
        scaled = picture.convert("RGB").resize((max(1, round(picture.width * scale)), max(1, round(picture.height * scale))))
    if not crop:
        return scaled
    left, top = (scaled.width - size[0]) // 2, (scaled.height - size[1]) // 2
    return scaled.crop((left, top, left + size[0], top + size[1]))


def _video_frame(video: bytes, at: int) -> bytes:
    """The picture (a JPEG) a video shows `at` ms in; past the end, its last."""
    frames = media.video_frames(video)
    if not frames:
        raise ValueError("no pictures in the video")
    remaining = at
    for jpeg, ms in frames:
        if remaining < ms:
            return jpeg
        remaining -= ms
    return frames[-1][0]


class _Painter:
    def __init__(self, image: Image.Image, palette: Palette, dim: float = 1.0, rtl: bool = False,
                 package: str = "", toolbar_top: int | None = None, ledger: list[Mark] | None = None):
        self.image = image
        self.draw = _Dimmed(ImageDraw.Draw(image), dim) if dim != 1.0 else ImageDraw.Draw(image)
        self.palette, self.rtl, self.package, self.toolbar_top = palette, rtl, package, toolbar_top
        self.ledger, self.current = ledger, Node()
        self.backdrops: list[Box] = []  # the boxes pictures filled so far

    @property
    def fontmode(self) -> str:
        """How text is set, as ImageDraw.text sets it: aliased on a palette image (which takes no
        blended edges), smoothed on a full-colour one."""
        return "1" if self.image.mode == "P" else "L"

    def mark(self, box: Box, opaque: bool = False) -> None:
        """Note that the node being drawn drew in `box` (with a ledger: `render_image`)."""
        if self.ledger is not None and box[2] > box[0] and box[3] > box[1]:
            self.ledger.append((self.current, tuple(int(v) for v in box), opaque))  # type: ignore[arg-type]

    def node(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        if x2 <= x1 or y2 <= y1:
            return
        self.current = node
        if widgets.is_dialog_panel(node):
            self.scrim()
        toolbar = node.background is None and self.is_toolbar(node)
        if toolbar and any(_inside(node.bounds, box) for box in self.backdrops):
            toolbar, under = False, _BLACK  # a collapsing toolbar over its backdrop: see-through, its icons light
        # a bottom navigation bar is opaque: Material's BottomNavigationView fills itself with colorSurface
        bar = node.background is None and node.class_name.endswith("BottomNavigationView")
        own = None if node.background is None else self.tone(node.background, under, 1.0)
        fill = self.palette.toolbar if toolbar else self.palette.background if bar else own
        if fill is not None:
            # a layout's ColorDrawable background is square (an app bar, a list row's RelativeLayout)
            square = toolbar or bar or node.class_name in _SQUARE or self.is_toolbar(node)
            radius = 0 if square else min(self.px(node, 16), (y2 - y1) // 2)
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=radius, fill=fill)
            self.mark(node.bounds, opaque=True)
            under = fill
        if node.image:
            self.picture(node)
        for points, colour, width in node.ink:
            self.draw.line(list(points) if len(points) > 1 else list(points) * 2, fill=colour, width=width, joint="curve")
            self.mark((min(x for x, _ in points) - width // 2, min(y for _, y in points) - width // 2,
                       max(x for x, _ in points) + width // 2 + 1, max(y for _, y in points) + width // 2 + 1))
        for shape in node.paint:
            self.painted(shape, under, node.bounds)
        kind = node.class_name
        inset = 0
        if kind == "android.widget.Switch" and fill is None:
            self.switch(node)
        elif kind == "android.widget.SeekBar":
            self.slider(node)
            return
        elif kind == EDIT_TEXT:
            self.field(node, under)
            return
        elif kind in icons.CHECKABLE:
            inset = self.checkable(node)
        elif kind == "android.widget.Button" or kind.endswith(("ImageButton", "ImageView")):
            self.icon(node, under)
        elif self.package == launcher.PACKAGE and node.long_clickable and node.text and node.content_desc == node.text:
            self.app_icon(node, under)
            return
        elif node.clickable and kind.endswith(("LinearLayout", "FrameLayout")) and fill is None:
            self.draw.line((x1, y2 - 1, x2, y2 - 1), fill=self.palette.line)
            self.mark((x1, y2 - 1, x2, y2))
        if node.text and kind != "android.widget.Button":
            muted = any(node.resource_id.endswith(tail) for tail in _MUTED_IDS)
            medium = widgets.is_dialog_title(node)
            self.text(node, node.text, node.text_color or self.color(under, muted), inset=inset,
                      path=ROBOTO_MEDIUM if medium else None)
        for child in node.children:
            self.node(child, under)

    def is_toolbar(self, node: Node) -> bool:
        """An app bar (widgets.app_bar): a ViewGroup across the window right under the status bar."""
        return (node.class_name == "android.view.ViewGroup" and node.bounds[1] == self.toolbar_top
                and node.bounds[0] == 0 and node.bounds[2] == self.image.width)

    def scrim(self) -> None:
        """Dim what is drawn so far (the app window) under a dialog."""
        if self.image.mode == "RGB":
            self.image.paste(Image.blend(self.image, Image.new("RGB", self.image.size), _SCRIM))

    def picture(self, node: Node) -> None:
        """The node's picture (`pictures`: a file fitted or cropped to the view, or an app's
        drawable), laid out in the box the node had before a list cut it and drawn where it is
        visible; nothing if the file cannot be read."""
        box = node.laid_out or node.bounds
        found = pictures.drawable(node.image)
        if found is not None:
            self.drawable(found, box, node.bounds)
            return
        try:
            picture = _photo(node.image, (box[2] - box[0], box[3] - box[1]))
        except (OSError, ValueError, Image.DecompressionBombError):
            return
        left, top = box[0] + (box[2] - box[0] - picture.width) // 2, box[1] + (box[3] - box[1] - picture.height) // 2
        seen = _cut((left, top, left + picture.width, top + picture.height), node.bounds)
        if seen is None:
            return
        self.image.paste(picture.crop((seen[0] - left, seen[1] - top, seen[2] - left, seen[3] - top)), seen[:2])
        self.mark(seen)
        self.backdrops.append(seen)

    def drawable(self, drawable: pictures.Drawable, box: Box, clip: Box) -> None:
        """An app's drawable laid out in `box` and drawn where `clip` shows it, layer by layer."""
        seen = _cut(box, clip)
        if seen is None:
            return
        size = (box[2] - box[0], box[3] - box[1])
        for mask, colour in _layers(drawable, size, _is_dark(self.palette.background), self.image.mode == "P"):
            self.draw.bitmap(seen[:2], mask.crop((seen[0] - box[0], seen[1] - box[1], seen[2] - box[0], seen[3] - box[1])),
                             fill=colour)
        self.mark(seen)

    @staticmethod
    def px(node: Node, default: int) -> int:
        return node.text_size or default

    def color(self, under: Color, muted: bool = False) -> Color:
        """Text colour over `under`: the theme's when it suits the background (its muted grey for
        secondary text), else a neutral one in full (secondary text on a coloured header, such as
        the date picker's date, is drawn in the header's own text colour, never grey on colour)."""
        if _is_dark(under) == _is_dark(self.palette.background):
            return self.palette.muted if muted else self.palette.text
        return (NEUTRAL_DARK if _is_dark(under) else NEUTRAL_LIGHT).text

    def text(self, node: Node, value: str, color: Color, center: bool = False, inset: int = 0,
             path: str | None = None, box: Box | None = None) -> None:
        """`value` laid out in the node's box (or `box`) as it was before a list cut it, and drawn
        only where the node is visible: clipped, never shrunk."""
        x1, y1, x2, y2 = box or node.bounds
        size, lines, top, step = text_layout(node, value, inset, path, box)
        start, end = (x1, x2 - inset) if self.rtl else (x1 + inset, x2)
        script = _script_font(value) or path
        clip = (x1, y1, x2, y2) if box is None and is_clipped(node) else None
        for line in lines:
            runs = [(part, _font(size, run_path or path)) for part, run_path in _runs(line, script)]
            length = int(sum(_length(run_font, part) for part, run_font in runs))
            left = end - 4 - length if self.rtl else start + 4  # text starts at the layout's start edge
            if center:
                left = start + max(4, (end - start - length) // 2)
            for part, run_font in runs:
                self.words((left, top), part, run_font, color, clip)
                left += int(_length(run_font, part))
            top += step

    def tone(self, tone: Tone, under: Color, alpha: float) -> Color:
        """`tone` (a colour or a theme colour's name) at `alpha` over `under`."""
        colour = getattr(self.palette, tone) if isinstance(tone, str) else tone
        return colour if alpha >= 1.0 else _mix(under, colour, alpha)

    def painted(self, shape: Painted, under: Color, clip: Box) -> None:
        """A shape and its text as a custom view paints them on its canvas, where the view is
        visible (`clip`: its bounds, which a list may have cut)."""
        x1, y1, x2, y2 = shape.box
        seen = _cut(shape.box, clip)
        if seen is None:
            return
        fill = None if shape.fill is None else self.tone(shape.fill, under, shape.alpha)
        whole = seen == shape.box
        if fill is not None:  # in part: the shape as a mask (0 or 255, as ImageDraw's shapes are not smoothed), cut
            pen = self.draw if whole else ImageDraw.Draw(mask := Image.new("L", (x2 - x1, y2 - y1), 0))
            outline = (x1, y1, x2 - 1, y2 - 1) if whole else (0, 0, x2 - x1 - 1, y2 - y1 - 1)
            if shape.oval:
                pen.ellipse(outline, fill=fill if whole else 255)
            else:
                pen.rounded_rectangle(outline, radius=shape.radius, fill=fill if whole else 255)
            if not whole:
                self.draw.bitmap(seen[:2], mask.crop((seen[0] - x1, seen[1] - y1, seen[2] - x1, seen[3] - y1)), fill=fill)
            self.mark(seen)
        if not shape.text:
            return
        if shape.color is not None:
            colour = self.tone(shape.color, fill or under, shape.text_alpha)
        elif fill is not None:  # Simple-Commons' getContrastColor of the fill before its alpha
            solid = self.tone(shape.fill, under, 1.0)
            colour = self.tone(_WHITE if _is_dark(solid) else NEUTRAL_LIGHT.text, fill, shape.text_alpha)
        else:
            colour = self.tone(self.color(under), under, shape.text_alpha)
        self.text(Node(bounds=seen, laid_out=shape.box, text_size=shape.size), shape.text, colour, center=shape.center)

    def words(self, at: tuple[int, int], part: str, font, color: Color, clip: Box | None) -> None:
        """Draw `part` at `at`; with `clip`, only the pixels inside that box."""
        if clip is None:
            mask, left, top = _mask(font, part, self.fontmode)
            self.draw.bitmap((at[0] + left, at[1] + top), mask, fill=color)
            self.mark((at[0] + left, at[1] + top, at[0] + left + mask.width, at[1] + top + mask.height))
            return
        cx1, cy1, cx2, cy2 = clip
        mask = Image.new("L", (cx2 - cx1, cy2 - cy1), 0)
        pen = ImageDraw.Draw(mask)
        pen.fontmode = self.fontmode
        pen.text((at[0] - cx1, at[1] - cy1), part, fill=255, font=font)
        self.draw.bitmap((cx1, cy1), mask, fill=color)
        inked = mask.getbbox()
        if inked:
            self.mark((cx1 + inked[0], cy1 + inked[1], cx1 + inked[2], cy1 + inked[3]))

    def glyph(self, name: str, center: tuple[int, int], size: int, color: Color) -> None:
        """Material icon `name` centred on `center`."""
        mask, left, top = _mask(_icon_font(max(8, size)), icons.glyph(name), self.fontmode, "mm")
        self.draw.bitmap((center[0] + left, center[1] + top), mask, fill=color)
        self.mark((center[0] + left, center[1] + top, center[0] + left + mask.width, center[1] + top + mask.height))

    def switch(self, node: Node) -> None:
        """A Material switch: the thumb at the end in the accent colour when on, at the start in
        light grey (outlined, so it shows on a white window) when off."""
        x1, y1, x2, y2 = node.bounds
        height = y2 - y1
        track = (x1 + height // 6, y1 + height * 3 // 10, x2 - 1 - height // 6, y2 - 1 - height * 3 // 10)
        accent = self.palette.accent
        colour = _mix(accent, self.palette.background, 0.5) if node.checked else self.palette.track
        self.draw.rounded_rectangle(track, radius=(track[3] - track[1]) // 2, fill=colour)
        radius = height * 3 // 10
        cx = x2 - 1 - radius if node.checked else x1 + radius
        cy = (y1 + y2) // 2
        thumb = accent if node.checked else (236, 236, 236)
        self.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=thumb,
                          outline=None if node.checked else self.palette.muted, width=2)
        self.mark((min(track[0], cx - radius), cy - radius, max(track[2], cx + radius) + 1, cy + radius + 1))

    def checkable(self, node: Node) -> int:
        """A radio button's or checkbox's state glyph at its start; the text's inset after it."""
        x1, y1, x2, y2 = node.bounds
        size = min(y2 - y1, int((node.text_size or (y2 - y1) // 2) * 1.5))
        unchecked, checked = icons.CHECKABLE[node.class_name]
        colour = self.palette.accent if node.checked else self.palette.muted
        if not node.text:
            self.glyph(checked if node.checked else unchecked, node.center, size, colour)
            return 0
        cx = x2 - size // 2 - 4 if self.rtl else x1 + size // 2 + 4
        self.glyph(checked if node.checked else unchecked, (cx, (y1 + y2) // 2), size, colour)
        return size + 8

    def slider(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        mid = (y1 + y2) // 2
        digits = node.text.rstrip("%")
        percent = int(digits) if digits.isdigit() else 0
        cx = x1 + (x2 - x1) * percent // 100
        thickness = max(2, (y2 - y1) // 8)
        accent = self.palette.accent
        self.draw.line((x1, mid, x2, mid), fill=self.palette.track, width=thickness)
        self.draw.line((x1, mid, cx, mid), fill=accent, width=thickness)
        radius = (y2 - y1) // 4
        self.draw.ellipse((cx - radius, mid - radius, cx + radius, mid + radius), fill=accent)
        self.mark((min(x1, cx - radius), mid - radius, max(x2, cx + radius + 1), mid + radius + 1))

    def field(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        accent = self.palette.accent
        line = accent if node.focused else self.palette.track
        self.draw.line((x1, y2 - 2, x2, y2 - 2), fill=line, width=3 if node.focused else 2)
        self.mark((x1, y2 - 3, x2, y2))
        value = node.shown_text
        if value:
            self.text(node, value, self.color(under, muted=not node.text))
        if node.focused:  # the cursor after the last line drawn, one line tall
            size, lines, top, step = text_layout(node, node.text or " ")
            last = lines[-1] if node.text else ""
            width = int(_length(_font(size, _script_font(last)), last))
            cx = max(x1 + 4, x2 - 4 - width) if self.rtl else min(x2 - 4, x1 + 4 + width)
            line_top = top + step * (len(lines) - 1)
            self.draw.line((cx, line_top, cx, line_top + step), fill=accent, width=3)
            self.mark((cx - 1, line_top, cx + 2, line_top + step + 1))

    def icon(self, node: Node, under: Color) -> None:
        """A button (filled, or a dialog's text button), a FAB or an icon-only control's glyph."""
        x1, y1, x2, y2 = node.bounds
        side = min(x2 - x1, y2 - y1)
        label = node.text or node.content_desc
        if node.class_name == "android.widget.Button" and node.resource_id in _DIALOG_BUTTONS:
            colour = self.palette.accent if node.clickable else self.palette.muted
            self.text(node, label, colour, center=True, path=ROBOTO_MEDIUM)
            return
        if node.class_name == "android.widget.Button" and node.text:
            fill = (self.palette.primary if node.clickable else self.palette.track) if node.background is None \
                else self.tone(node.background, under, 1.0)
            if node.background is None:  # the theme's filled button (a button of its own colour is filled already)
                self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=side // 2, fill=fill)
                self.mark(node.bounds, opaque=True)
            self.text(node, label, _WHITE if _is_dark(fill) else NEUTRAL_LIGHT.text, center=True, path=ROBOTO_MEDIUM)
            return
        name = icons.icon_name(node)
        if node.image or name is None:
            if node.class_name == "android.widget.Button" and label:  # a labelled web button (a swatch)
                self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=side // 2, fill=self.palette.primary)
                self.mark(node.bounds, opaque=True)
                self.text(node, label, _WHITE, center=True)
            return
        cx, cy = node.center
        if _is_fab(node):
            fill = self.palette.primary
            self.draw.ellipse((cx - side // 2, cy - side // 2, cx + side // 2, cy + side // 2), fill=fill)
            self.mark((cx - side // 2, cy - side // 2, cx + side // 2 + 1, cy + side // 2 + 1))
            self.glyph(name, (cx, cy), side * 3 // 7, _WHITE if _is_dark(fill) else NEUTRAL_LIGHT.text)
        else:
            scale = 0.8 if y1 == 0 else 0.55  # a status bar icon fills its slot
            self.glyph(name, (cx, cy), int(side * scale), self.color(under))

    def app_icon(self, node: Node, under: Color) -> None:
        """A launcher icon: the app's glyph on a circle of its colour, its label under it."""
        x1, y1, x2, y2 = node.bounds
        label_size = node.text_size or 24
        label_top = y2 - int(label_size * 2.6)
        diameter = min(x2 - x1, label_top - y1) * 4 // 5
        cx, cy = (x1 + x2) // 2, y1 + (label_top - y1) // 2
        name, colour = launcher.icon(node.text)
        self.draw.ellipse((cx - diameter // 2, cy - diameter // 2, cx + diameter // 2, cy + diameter // 2), fill=colour)
        self.mark((cx - diameter // 2, cy - diameter // 2, cx + diameter // 2 + 1, cy + diameter // 2 + 1))
        self.glyph(name, (cx, cy), diameter // 2, _WHITE)
        self.text(node, node.text, self.color(under), center=True, box=(x1, label_top, x2, y2))


class _Dimmed:
    """An ImageDraw whose every colour is darkened by `factor` (the app under the shade's scrim)."""

    def __init__(self, draw: ImageDraw.ImageDraw, factor: float):
        self._draw, self._factor = draw, factor

    def _shade(self, color):
        return tuple(int(c * self._factor) for c in color) if isinstance(color, tuple) else color

    def __getattr__(self, name: str):
        method = getattr(self._draw, name)

        def call(*args, **kwargs):
            for key in ("fill", "outline"):
                if key in kwargs:
                    kwargs[key] = self._shade(kwargs[key])
            return method(*args, **kwargs)
        return call


def _wrap(font, value: str, width: int, max_lines: int) -> list[str]:
    """`value` in lines that fit `width` (at most `max_lines`, the last cut with an ellipsis)."""
    lines: list[str] = []
    for paragraph in value.split("\n"):
        words, current = paragraph.split(" "), ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if _length(font, trial) <= width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] += "\u2026"
    return [_fit(font, line, width) for line in lines]


def _fit(font, line: str, width: int) -> str:
    if _length(font, line) <= width:
        return line
    while line and _length(font, line + "\u2026") > width:
        line = line[:-1]
    return line + "\u2026"


def render_png(view: View, width: int, height: int) -> bytes:
    """The PNG bytes of `view` on a `width` × `height` screen."""
    out = io.BytesIO()
    render_image(view, width, height).save(out, format="PNG", compress_level=PNG_COMPRESSION)
    return out.getvalue()


#: Frames kept by what they draw (`render_rgba`): a random walk comes back to a screen it drew
#: before (after a reset, or Back) about one step in three with 4 kept; each is ~10 MB at 1080x2400.
MAX_FRAMES = 4
_FRAMES: collections.OrderedDict[tuple, bytes] = collections.OrderedDict()
_FRAMES_LOCK = threading.Lock()
#: Node fields that say what a node does, not what it looks like: the painter never reads them.
_BEHAVIOUR = frozenset({"children", "enter", "action", "long_action", "slide", "swipe", "drag"})
_DRAWN_FIELDS = tuple(field.name for field in dataclasses.fields(Node) if field.name not in _BEHAVIOUR)


def render_rgba(view: View, width: int, height: int) -> bytes:
    """The pixels of `view` on a `width` × `height` screen: RGBA_8888, row by row (raw `screencap`).
    A view that draws what a kept frame drew (`_drawing`: every field the painter reads, and the
    content of every picture file) is answered with that frame, not painted again (none is kept
    with the GUI cache off: TASKKIT_GUI_CACHE=0)."""
    if not cache.enabled:
        return _painted_rgba(view, width, height)
    key = (width, height, _drawing(view))
    with _FRAMES_LOCK:
        frame = _FRAMES.get(key)
        if frame is not None:
            _FRAMES.move_to_end(key)
            return frame
    frame = _painted_rgba(view, width, height)
    with _FRAMES_LOCK:
        _FRAMES[key] = frame
        while len(_FRAMES) > MAX_FRAMES:
            _FRAMES.popitem(last=False)
    return frame


def _painted_rgba(view: View, width: int, height: int) -> bytes:
    return raw_bytes(render_image(view, width, height).convert("RGBA"))


def raw_bytes(image: Image.Image) -> bytes:
    """`image.tobytes()`, encoded in one piece by the same raw encoder. `tobytes` encodes 64 KB at
    a time and joins the pieces: 12-18 ms for a 1080 x 2400 RGBA frame, against under 1 ms for
    one call with room for the whole image (Pillow 12; tests/sim/test_screen_pixels.py compares
    the two). `Image._getencoder` is the function `tobytes` itself calls, an underscore name: a
    Pillow without it, or an encoder that did not finish in that one call, gets `tobytes`."""
    size = len(image.getbands()) * image.width * image.height
    try:
        encoder = Image._getencoder(image.mode, "raw", image.mode)
        encoder.setimage(image.im, (0, 0) + image.size)
        _, status, data = encoder.encode(size)
    except (AttributeError, TypeError):  # (another Pillow's private API)
        return image.tobytes()
    return data if status == 1 and len(data) == size else image.tobytes()


def _drawing(value: object) -> object:
    """What drawing a view (or a part of one: a node, the bars) reads, as a key: the painter reads
    nothing but the view (fonts, themes, icons and drawables are fixed) and the picture files its
    nodes name, read here by content."""
    if isinstance(value, View):
        return tuple(_drawing(getattr(value, field.name)) for field in dataclasses.fields(View))
    if isinstance(value, Node):
        return _drawn_node(value)
    return tuple(_drawing(item) for item in value) if isinstance(value, tuple) else value


def _drawn_node(node: Node) -> tuple:
    """`_drawing` of a node: its drawn fields, its picture file's content, its children's."""
    picture = None
    if node.image and pictures.drawable(node.image) is None:  # a picture file (or a video's frame): its content
        try:
            with open(_picture_file(node.image)[0], "rb") as handle:
                picture = hashlib.sha256(handle.read()).digest()
        except OSError:
            picture = b""  # not drawn (`_Painter.picture`), as long as it cannot be read
    return (tuple(getattr(node, name) for name in _DRAWN_FIELDS), picture,
            tuple(_drawn_node(child) for child in node.children))


def render_image(view: View, width: int, height: int, ledger: list[Mark] | None = None) -> Image.Image:
    """`view` drawn on a `width` × `height` screen; with `ledger`, what each node of the active
    window drew is appended to it in drawing order (`Mark`: taskkit.sim.gui.audit reads it)."""
    palette = theme(view.package, view.dark)
    roots = (view.window, *view.bars, *((view.behind,) if view.behind is not None else ()))
    nodes = [node for root in roots for node in root.walk()]
    if any(pictures.full_colour(node.image) or widgets.is_dialog_panel(node) for node in nodes):  # a photo or a scrim
        image = Image.new("RGB", (width, height), palette.background)
    else:  # a palette image: a few dozen colours, fast to encode
        image = Image.new("P", (width, height), 0)
        image.putpalette(palette.background)
    toolbar_top = view.bars[0].bounds[3] if view.bars else None
    if view.behind is not None and view.package == view.behind.package:  # the app under a dialog (and its scrim)
        _Painter(image, palette, rtl=view.rtl, package=view.package, toolbar_top=toolbar_top).node(
            view.behind, palette.background)
    elif view.behind is not None:  # the app under the shade, dimmed
        under = theme(view.behind.package, False)
        dim = _Painter(image, under, _SHADE_DIM, view.rtl, view.behind.package, toolbar_top)
        dim.draw.rectangle((0, 0, width, height), fill=under.background)
        dim.node(view.behind, under.background)
    painter = _Painter(image, palette, rtl=view.rtl, package=view.package, toolbar_top=toolbar_top, ledger=ledger)
    painter.node(view.window, view.window.background or palette.background)
    system = _Painter(image, theme("", view.dark), rtl=view.rtl, toolbar_top=toolbar_top)
    for bar in view.bars:
        system.node(bar, bar.background or palette.background)
    return image
