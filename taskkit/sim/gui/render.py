"""`screencap` of the simulated screen: the view tree drawn with Pillow, at the display's size.

A flat drawing, not Material's: fills where a node has a background (message bubbles, tiles),
text (cut with an ellipsis, or wrapped when its box holds several lines), switches as a track
with a thumb (filled when on), sliders as a line with a thumb at their value, text fields as
their text (or grey hint) over an underline that turns blue with a cursor when focused, buttons
and icons as outlines (a floating action button as a filled circle), a divider under clickable
rows, and the status and navigation bars; the app under an open shade is dimmed. Colours follow
the system Dark theme where the app does. The same screen gives the same bytes (PNG without
timestamps, fixed compression).
"""
from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw, ImageFont

from taskkit.apps import media
from taskkit.sim.gui.node import EDIT_TEXT, Node
from taskkit.sim.gui.screen import View

Color = tuple[int, int, int]
ACCENT: Color = (26, 115, 232)
_LIGHT = {"background": (255, 255, 255), "text": (32, 33, 36), "muted": (95, 99, 104), "line": (218, 220, 224),
          "track": (189, 193, 198)}
_DARK = {"background": (32, 33, 36), "text": (232, 234, 237), "muted": (154, 160, 166), "line": (60, 64, 67),
         "track": (95, 99, 104)}
_MUTED_IDS = ("android:id/summary", "_body_short", "_date", "app_label", "item_contact_number")
PNG_COMPRESSION = 1  # zlib level: screenshots are taken every step, so speed over size
_SCRIM = 0.45  # how bright the app under the shade stays
# characters the bundled font lacks, drawn as their nearest look-alike
_DRAWABLE = str.maketrans({"\u2011": "-", "\u2026": "...", "\u2022": "*"})


# Fonts for scripts Pillow's bundled font lacks (Debian packages; absent ones fall back to it):
# Android's own CJK fallback (fonts-droid-fallback) and DejaVu Sans for Arabic and Hebrew, shaped
# right to left by libraqm when Pillow has it.
_CJK_FONT = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
_RTL_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


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


@functools.lru_cache(maxsize=32)
def _font(size: int, path: str | None = None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


def _is_dark(color: Color) -> bool:
    return sum(color) < 3 * 128


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
    def __init__(self, image: Image.Image, dark: bool, dim: float = 1.0, rtl: bool = False):
        self.image = image
        self.draw = _Dimmed(ImageDraw.Draw(image), dim) if dim != 1.0 else ImageDraw.Draw(image)
        self.palette = _DARK if dark else _LIGHT
        self.rtl = rtl

    def node(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        if x2 <= x1 or y2 <= y1:
            return
        fill = node.background
        if fill is not None:
            radius = min(self.px(node, 16), (y2 - y1) // 2) if node.class_name != "android.widget.FrameLayout" else 0
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=radius, fill=fill)
            under = fill
        if node.image:
            self.picture(node)
        for points, colour, width in node.ink:
            self.draw.line(list(points) if len(points) > 1 else list(points) * 2, fill=colour, width=width, joint="curve")
        kind = node.class_name
        if kind == "android.widget.Switch" and fill is None:
            self.switch(node)
        elif kind == "android.widget.SeekBar":
            self.slider(node)
            return
        elif kind == EDIT_TEXT:
            self.field(node, under)
            return
        elif kind == "android.widget.Button" or kind.endswith(("ImageButton", "ImageView")):
            self.icon(node, under)
        elif node.clickable and kind.endswith(("LinearLayout", "FrameLayout")) and fill is None:
            self.draw.line((x1, y2 - 1, x2, y2 - 1), fill=self.palette["line"])
        if node.text and kind != "android.widget.Button":
            muted = any(node.resource_id.endswith(tail) for tail in _MUTED_IDS)
            self.text(node, node.text, self.color(under, muted))
        for child in node.children:
            self.node(child, under)

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
        base = _DARK if _is_dark(under) else _LIGHT
        return base["muted"] if muted else base["text"]

    def text(self, node: Node, value: str, color: Color, center: bool = False) -> None:
        x1, y1, x2, y2 = node.bounds
        size = node.text_size or max(12, min(48, (y2 - y1) * 3 // 5))
        script = _script_font(value)
        font = _font(size, script)
        width = max(1, x2 - x1 - 8)
        lines = _wrap(font, value, width, max(1, (y2 - y1) // int(size * 1.25)))
        top = y1 + max(0, (y2 - y1 - len(lines) * int(size * 1.25)) // 2)
        for line in lines:
            runs = [(part, _font(size, path)) for part, path in _runs(line.translate(_DRAWABLE), script)]
            length = int(sum(run_font.getlength(part) for part, run_font in runs))
            left = x2 - 4 - length if self.rtl else x1 + 4  # text starts at the layout's start edge
            if center:
                left = x1 + max(4, (x2 - x1 - length) // 2)
            for part, run_font in runs:
                self.draw.text((left, top), part, fill=color, font=run_font)
                left += int(run_font.getlength(part))
            top += int(size * 1.25)

    def switch(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        track = (x1, y1 + (y2 - y1) // 4, x2 - 1, y2 - 1 - (y2 - y1) // 4)
        size = track[3] - track[1]
        self.draw.rounded_rectangle(track, radius=size // 2, fill=ACCENT if node.checked else self.palette["track"])
        cx = track[2] - size // 2 if node.checked else track[0] + size // 2
        self.draw.ellipse((cx - size // 2, track[1], cx + size // 2, track[3]), fill=(255, 255, 255))

    def slider(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        mid = (y1 + y2) // 2
        digits = node.text.rstrip("%")
        percent = int(digits) if digits.isdigit() else 0
        cx = x1 + (x2 - x1) * percent // 100
        thickness = max(2, (y2 - y1) // 8)
        self.draw.line((x1, mid, x2, mid), fill=self.palette["track"], width=thickness)
        self.draw.line((x1, mid, cx, mid), fill=ACCENT, width=thickness)
        radius = (y2 - y1) // 4
        self.draw.ellipse((cx - radius, mid - radius, cx + radius, mid + radius), fill=ACCENT)

    def field(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        line = ACCENT if node.focused else self.palette["track"]
        self.draw.line((x1, y2 - 2, x2, y2 - 2), fill=line, width=3 if node.focused else 2)
        value = node.shown_text
        if value:
            self.text(node, value, self.color(under, muted=not node.text))
        if node.focused:
            last = node.text.rsplit("\n", 1)[-1] if node.text else ""
            width = int(_font(node.text_size or 24, _script_font(last)).getlength(last))
            cx = max(x1 + 4, x2 - 4 - width) if self.rtl else min(x2 - 4, x1 + 4 + width)
            self.draw.line((cx, y1 + (y2 - y1) // 4, cx, y2 - (y2 - y1) // 4), fill=ACCENT, width=3)

    def icon(self, node: Node, under: Color) -> None:
        x1, y1, x2, y2 = node.bounds
        side = min(x2 - x1, y2 - y1)
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        if node.class_name == "android.widget.Button":
            fill = ACCENT if node.clickable else self.palette["track"]
            self.draw.rounded_rectangle((x1, y1, x2 - 1, y2 - 1), radius=side // 2, fill=fill)
            self.text(node, node.text or node.content_desc, (255, 255, 255), center=True)
        elif node.resource_id.endswith(("fab", "floating_action_button")):
            self.draw.ellipse((cx - side // 2, cy - side // 2, cx + side // 2, cy + side // 2), fill=ACCENT)
            arm = side // 5
            self.draw.line((cx - arm, cy, cx + arm, cy), fill=(255, 255, 255), width=4)
            self.draw.line((cx, cy - arm, cx, cy + arm), fill=(255, 255, 255), width=4)
        elif node.content_desc == "Navigate up":
            arm, color = side // 5, self.color(under)
            self.draw.line((cx - arm, cy, cx + arm, cy), fill=color, width=4)
            self.draw.line((cx - arm, cy, cx, cy - arm), fill=color, width=4)
            self.draw.line((cx - arm, cy, cx, cy + arm), fill=color, width=4)
        elif node.content_desc:
            radius = side // 4
            self.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius),
                              outline=self.color(under), width=3)


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
            if font.getlength(trial) <= width or not current:
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
    if font.getlength(line) <= width:
        return line
    while line and font.getlength(line + "\u2026") > width:
        line = line[:-1]
    return line + "\u2026"


def render_png(view: View, width: int, height: int) -> bytes:
    """The PNG bytes of `view` on a `width` × `height` screen."""
    palette = _DARK if view.dark else _LIGHT
    roots = (view.window, *view.bars, *((view.behind,) if view.behind is not None else ()))
    photos = any(node.image for root in roots for node in root.walk())
    if photos:  # a photo needs every colour
        image = Image.new("RGB", (width, height), palette["background"])
    else:  # a palette image: a few dozen colours, fast to encode
        image = Image.new("P", (width, height), 0)
        image.putpalette(palette["background"])
    if view.behind is not None:
        dim = _Painter(image, False, _SCRIM, view.rtl)
        dim.draw.rectangle((0, 0, width, height), fill=_LIGHT["background"])
        dim.node(view.behind, _LIGHT["background"])
    painter = _Painter(image, view.dark, rtl=view.rtl)
    painter.node(view.window, view.window.background or palette["background"])
    for bar in view.bars:
        painter.node(bar, palette["background"])
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_COMPRESSION)
    return out.getvalue()
