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
with the same text routine, never dumped; the status bar shows
wifi, signal and battery glyphs and the navigation bar Back, Home and Overview. A missing font
falls back to Pillow's bundled one (icons to an outline circle) with one warning line. The same
screen gives the same bytes (PNG without timestamps, fixed compression).
"""
from __future__ import annotations

import functools
import io
import logging

from PIL import Image, ImageDraw, ImageFont, features

from taskkit.apps import media
from taskkit.sim.gui import icons, launcher, widgets
from taskkit.sim.gui.node import EDIT_TEXT, Box, Node, Painted, Tone
from taskkit.sim.gui.screen import View
from taskkit.sim.gui.theme import NEUTRAL_DARK, NEUTRAL_LIGHT, Palette, theme

Color = tuple[int, int, int]
_MUTED_IDS = ("android:id/summary", "_body_short", "_date", "app_label", "item_contact_number")
_DIALOG_BUTTONS = ("android:id/button1", "android:id/button2", "android:id/button3")
PNG_COMPRESSION = 1  # zlib level: screenshots are taken every step, so speed over size
_SHADE_DIM = 0.45  # how bright the app under the shade stays
_SCRIM = 0.32  # Material's dialog scrim: black at 32 %
_WHITE: Color = (255, 255, 255)
# characters the fonts lack, drawn as their nearest look-alike
_DRAWABLE = str.maketrans({"\u2011": "-", "\u2026": "...", "\u2022": "*"})
_LOG = logging.getLogger(__name__)

# Fonts (Debian packages; an absent one falls back to Pillow's bundled font with one warning):
# Roboto as Android draws text, Android's own CJK fallback (fonts-droid-fallback) and DejaVu
# Sans for Arabic and Hebrew, shaped right to left by libraqm when Pillow has it.
ROBOTO = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
ROBOTO_MEDIUM = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf"
_CJK_FONT = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
_RTL_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_PACKAGES = {ROBOTO: "fonts-roboto", ROBOTO_MEDIUM: "fonts-roboto", _CJK_FONT: "fonts-droid-fallback",
             _RTL_FONT: "fonts-dejavu-core", icons.MATERIAL_ICONS: "fonts-material-design-icons-iconfont"}


@functools.lru_cache(maxsize=None)
def _warn_missing(path: str) -> None:
    """One warning line per missing font file and process."""
    _LOG.warning("taskkit: screenshots lack %s (Debian package %s): drawn with a fallback", path,
                 _PACKAGES.get(path, "?"))


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (0x1100 <= code <= 0x11FF or 0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF
            or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF)


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
    """`line` cut where the font changes: the CJK fallback has no Latin letters, digits or
    punctuation, so those are drawn with the default font (Android falls back per character)."""
    if path != _CJK_FONT:
        return [(line, path)]
    runs: list[tuple[str, str | None]] = []
    for char in line:
        wanted = _CJK_FONT if _is_cjk(char) else None
        if runs and runs[-1][1] == wanted:
            runs[-1] = (runs[-1][0] + char, wanted)
        else:
            runs.append((char, wanted))
    return runs


@functools.lru_cache(maxsize=64)
def _font(size: int, path: str | None = None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at `path` (default Roboto) at `size` px, or Pillow's bundled one when it is absent."""
    path = path or ROBOTO
    # right-to-left text needs libraqm's shaping; the rest is laid out far faster without it
    engine = ImageFont.Layout.RAQM if path == _RTL_FONT and features.check("raqm") else ImageFont.Layout.BASIC
    try:
        return ImageFont.truetype(path, size, layout_engine=engine)
    except OSError:
        _warn_missing(path)
        return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=64)
def _icon_font(size: int) -> ImageFont.FreeTypeFont | None:
    try:
        return ImageFont.truetype(icons.MATERIAL_ICONS, size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        _warn_missing(icons.MATERIAL_ICONS)
        return None


@functools.lru_cache(maxsize=8192)
def _length(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str) -> float:
    """`text`'s advance in `font` (a label is measured once, not at every screenshot)."""
    return font.getlength(text)


@functools.lru_cache(maxsize=256)  # a few screens' labels: a few MB at most
def _mask(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str, fontmode: str) -> tuple[Image.Image, int, int]:
    """`text` set in `font` as a mask, and where the mask's corner lies from the text's origin:
    a label on every screenshot (a calendar's day numbers) is set once."""
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    pen = ImageDraw.Draw(mask)
    pen.fontmode = fontmode
    pen.text((-left, -top), text, fill=255, font=font)
    return mask, left, top


def _is_dark(color: Color) -> bool:
    """Whether white reads better than black on `color` (its luma, ITU-R BT.601, under 150)."""
    return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2] < 150


def _mix(a: Color, b: Color, share: float) -> Color:
    """`a` with `share` of `b` mixed in."""
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b))  # type: ignore[return-value]


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


def _open_picture(image: str) -> Image.Image:
    """A picture file, or the frame of a video at a time (`<path>#t=<ms>`, a media fragment)."""
    path, _, at = image.partition("#t=")
    if not at:
        return Image.open(path)
    with open(path, "rb") as handle:
        frames = media.video_frames(handle.read())
    if not frames:
        raise ValueError(f"no pictures in {path}")
    remaining = int(at)
    for jpeg, ms in frames:
        if remaining < ms:
            return Image.open(io.BytesIO(jpeg))
        remaining -= ms
    return Image.open(io.BytesIO(frames[-1][0]))  # past the end: the last picture


class _Painter:
    def __init__(self, image: Image.Image, palette: Palette, dim: float = 1.0, rtl: bool = False,
                 package: str = "", toolbar_top: int | None = None):
        self.image = image
        self.draw = _Dimmed(ImageDraw.Draw(image), dim) if dim != 1.0 else ImageDraw.Draw(image)
        self.palette, self.rtl, self.package, self.toolbar_top = palette, rtl, package, toolbar_top

    def node(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        if x2 <= x1 or y2 <= y1:
            return
        if widgets.is_dialog_panel(node):
            self.scrim()
        toolbar = node.background is None and self.is_toolbar(node)
        fill = self.palette.toolbar if toolbar else node.background
        if fill is not None:
            square = toolbar or node.class_name == "android.widget.FrameLayout"
            radius = 0 if square else min(self.px(node, 16), (y2 - y1) // 2)
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=radius, fill=fill)
            under = fill
        if node.image:
            self.picture(node)
        for points, colour, width in node.ink:
            self.draw.line(list(points) if len(points) > 1 else list(points) * 2, fill=colour, width=width, joint="curve")
        for shape in node.paint:
            self.painted(shape, under)
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
        if node.text and kind != "android.widget.Button":
            muted = any(node.resource_id.endswith(tail) for tail in _MUTED_IDS)
            medium = widgets.is_dialog_title(node)
            self.text(node, node.text, self.color(under, muted), inset=inset, path=ROBOTO_MEDIUM if medium else None)
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
        """The node's picture scaled to fit its bounds (fitCenter), centred; nothing if it cannot be read."""
        x1, y1, x2, y2 = node.bounds
        try:
            with _open_picture(node.image) as picture:
                picture.draft("RGB", (x2 - x1, y2 - y1))  # JPEG: decode at about the size needed
                scale = min((x2 - x1) / picture.width, (y2 - y1) / picture.height)
                size = (max(1, int(picture.width * scale)), max(1, int(picture.height * scale)))
                picture = picture.convert("RGB").resize(size)
        except (OSError, ValueError, Image.DecompressionBombError):
            return
        left, top = x1 + (x2 - x1 - picture.width) // 2, y1 + (y2 - y1 - picture.height) // 2
        self.image.paste(picture, (left, top))

    @staticmethod
    def px(node: Node, default: int) -> int:
        return node.text_size or default

    def color(self, under: Color, muted: bool = False) -> Color:
        """Text colour over `under`: the theme's when it suits the background, else a neutral one."""
        if _is_dark(under) == _is_dark(self.palette.background):
            base = self.palette
        else:
            base = NEUTRAL_DARK if _is_dark(under) else NEUTRAL_LIGHT
        return base.muted if muted else base.text

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
            runs = [(part, _font(size, run_path or path)) for part, run_path in _runs(line.translate(_DRAWABLE), script)]
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

    def painted(self, shape: Painted, under: Color) -> None:
        """A shape and its text as a custom view paints them on its canvas."""
        x1, y1, x2, y2 = shape.box
        fill = None if shape.fill is None else self.tone(shape.fill, under, shape.alpha)
        if fill is not None and shape.oval:
            self.draw.ellipse((x1, y1, x2 - 1, y2 - 1), fill=fill)
        elif fill is not None:
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=shape.radius, fill=fill)
        if not shape.text:
            return
        if shape.color is not None:
            colour = self.tone(shape.color, fill or under, shape.text_alpha)
        elif fill is not None:  # Simple-Commons' getContrastColor of the fill before its alpha
            solid = self.tone(shape.fill, under, 1.0)
            colour = self.tone(_WHITE if _is_dark(solid) else NEUTRAL_LIGHT.text, fill, shape.text_alpha)
        else:
            colour = self.tone(self.color(under), under, shape.text_alpha)
        self.text(Node(bounds=shape.box, text_size=shape.size), shape.text, colour, center=shape.center)

    def words(self, at: tuple[int, int], part: str, font, color: Color, clip: Box | None) -> None:
        """Draw `part` at `at`; with `clip`, only the pixels inside that box."""
        if clip is None:  # the mask ImageDraw.text would set (aliased on a palette image, as it does)
            mask, left, top = _mask(font, part, "1" if self.image.mode == "P" else "L")
            self.draw.bitmap((at[0] + left, at[1] + top), mask, fill=color)
            return
        cx1, cy1, cx2, cy2 = clip
        mask = Image.new("L", (cx2 - cx1, cy2 - cy1), 0)
        pen = ImageDraw.Draw(mask)
        pen.fontmode = "1" if self.image.mode == "P" else "L"  # a palette image takes no blended edges
        pen.text((at[0] - cx1, at[1] - cy1), part, fill=255, font=font)
        self.draw.bitmap((cx1, cy1), mask, fill=color)

    def glyph(self, name: str, center: tuple[int, int], size: int, color: Color) -> bool:
        """Material icon `name` centred on `center`; False when the icon font is missing."""
        font = _icon_font(max(8, size))
        if font is None:
            return False
        self.draw.text(center, icons.glyph(name), fill=color, font=font, anchor="mm")
        return True

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

    def field(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        accent = self.palette.accent
        line = accent if node.focused else self.palette.track
        self.draw.line((x1, y2 - 2, x2, y2 - 2), fill=line, width=3 if node.focused else 2)
        value = node.shown_text
        if value:
            self.text(node, value, self.color(under, muted=not node.text))
        if node.focused:  # the cursor after the last line drawn, one line tall
            size, lines, top, step = text_layout(node, node.text or " ")
            last = lines[-1] if node.text else ""
            width = int(_length(_font(size, _script_font(last)), last.translate(_DRAWABLE)))
            cx = max(x1 + 4, x2 - 4 - width) if self.rtl else min(x2 - 4, x1 + 4 + width)
            line_top = top + step * (len(lines) - 1)
            self.draw.line((cx, line_top, cx, line_top + step), fill=accent, width=3)

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
            fill = self.palette.primary if node.clickable else self.palette.track
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=side // 2, fill=fill)
            self.text(node, label, _WHITE if _is_dark(fill) else NEUTRAL_LIGHT.text, center=True, path=ROBOTO_MEDIUM)
            return
        name = icons.icon_name(node)
        if node.image or name is None:
            if node.class_name == "android.widget.Button" and label:  # a labelled web button (a swatch)
                self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=side // 2, fill=self.palette.primary)
                self.text(node, label, _WHITE, center=True)
            return
        cx, cy = node.center
        if _is_fab(node):
            fill = self.palette.primary
            self.draw.ellipse((cx - side // 2, cy - side // 2, cx + side // 2, cy + side // 2), fill=fill)
            drawn = self.glyph(name, (cx, cy), side * 3 // 7, _WHITE if _is_dark(fill) else NEUTRAL_LIGHT.text)
        else:
            scale = 0.8 if y1 == 0 else 0.55  # a status bar icon fills its slot
            drawn = self.glyph(name, (cx, cy), int(side * scale), self.color(under))
        if not drawn:  # no icon font: an outline marks the control
            radius = side // 4
            self.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), outline=self.color(under), width=3)

    def app_icon(self, node: Node, under: Color) -> None:
        """A launcher icon: the app's glyph on a circle of its colour, its label under it."""
        x1, y1, x2, y2 = node.bounds
        label_size = node.text_size or 24
        label_top = y2 - int(label_size * 2.6)
        diameter = min(x2 - x1, label_top - y1) * 4 // 5
        cx, cy = (x1 + x2) // 2, y1 + (label_top - y1) // 2
        name, colour = launcher.icon(node.text)
        self.draw.ellipse((cx - diameter // 2, cy - diameter // 2, cx + diameter // 2, cy + diameter // 2), fill=colour)
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
    palette = theme(view.package, view.dark)
    roots = (view.window, *view.bars, *((view.behind,) if view.behind is not None else ()))
    nodes = [node for root in roots for node in root.walk()]
    if any(node.image or widgets.is_dialog_panel(node) for node in nodes):  # a photo or a scrim needs every colour
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
    painter = _Painter(image, palette, rtl=view.rtl, package=view.package, toolbar_top=toolbar_top)
    painter.node(view.window, view.window.background or palette.background)
    system = _Painter(image, theme("", view.dark), rtl=view.rtl, toolbar_top=toolbar_top)
    for bar in view.bars:
        system.node(bar, bar.background or palette.background)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_COMPRESSION)
    return out.getvalue()
