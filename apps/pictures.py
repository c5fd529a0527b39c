"""Pictures of text, as a phone's camera roll holds them (a receipt, a list photographed): dark
text on paper, wrapped to a width, saved as JPEG or PNG with Pillow. AndroidWorld's gallery tasks
start from such pictures in DCIM; the simulated screens draw them in screenshots, the UI tree
only names them (reading one takes the screenshot, as on a phone).
"""
from __future__ import annotations

import functools
import io
import textwrap
import threading
from typing import TYPE_CHECKING, Any

from taskkit.apps.kept import drawn_by, kept

if TYPE_CHECKING:  # pragma: no cover
    import PIL.ImageFont

LINE_PX = 40
WIDTH_PX = 1000
PAPER = (250, 250, 246)
INK = (20, 20, 20)


@kept(version=drawn_by(__file__))
def text_picture(lines: list[str], extension: str = "jpg", wrap: int = 60) -> bytes:
    """`lines` (each wrapped at `wrap` characters) drawn top to bottom on white paper (kept by
    its inputs: the same lines are drawn once per machine)."""
    from PIL import Image, ImageDraw  # the simulator's imaging library (a dependency)

    wrapped = [part for line in lines for part in (textwrap.wrap(line, wrap) or [""])]
    image = Image.new("RGB", (WIDTH_PX, 2 * LINE_PX + LINE_PX * len(wrapped)), PAPER)
    pen = ImageDraw.Draw(image)
    font = _font(26)
    for row, line in enumerate(wrapped):
        pen.text((LINE_PX, LINE_PX + LINE_PX * row), line, fill=INK, font=font)
    out = io.BytesIO()
    if extension.lower().lstrip(".") == "png":
        image.save(out, format="PNG")
    else:
        image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def _font(size: int) -> "PIL.ImageFont.FreeTypeFont":
    """Pillow's default font at `size` px, whose rendered lines are kept (`_line_mask`)."""
    default = _default_font(size)
    return _kept_lines_font()(io.BytesIO(default.font_bytes), size, layout_engine=default.layout_engine)


_FONTS = threading.local()  # a thread's default fonts by size (a FreeType face is not shared between threads)


def _default_font(size: int) -> "PIL.ImageFont.FreeTypeFont":
    """Pillow's default font at `size` px, made once per thread (rendering with a face used
    before costs less than with a new one; the masks are the same)."""
    fonts = _FONTS.__dict__.setdefault("by_size", {})
    if size not in fonts:
        from PIL import ImageFont

        fonts[size] = ImageFont.load_default(size=size)
    return fonts[size]


@functools.cache
def _kept_lines_font() -> type:
    from PIL import ImageFont

    class KeptLinesFont(ImageFont.FreeTypeFont):
        """Pillow's default font (made from its bytes) asking `_line_mask` for a line's mask, so
        `ImageDraw.text` draws a line rendered before from the same mask, as it would its own."""

        def getmask2(self, text: str, *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
            return _line_mask(self.size, text, args, kwargs)

    return KeptLinesFont


def _mask_bytes(found: tuple[Any, tuple[int, int]]) -> int:
    width, height = found[0].size
    return width * height * len(found[0].mode)


@kept(limit=4 << 20, size=_mask_bytes)
def _line_mask(size: int, text: str, args: tuple, kwargs: dict) -> tuple[Any, tuple[int, int]]:
    """The default font's mask of `text` and where it goes (`FreeTypeFont.getmask2`'s answer for
    these arguments: the mask depends on nothing else, and drawing only reads it)."""
    return _default_font(size).getmask2(text, *args, **kwargs)
