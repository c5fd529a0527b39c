"""Pictures of text, as a phone's camera roll holds them (a receipt, a list photographed): dark
text on paper, wrapped to a width, saved as JPEG or PNG with Pillow. AndroidWorld's gallery tasks
start from such pictures in DCIM; the simulated screens draw them in screenshots, the UI tree
only names them (reading one takes the screenshot, as on a phone).
"""
from __future__ import annotations

import io
import textwrap

LINE_PX = 40
WIDTH_PX = 1000


def text_picture(lines: list[str], extension: str = "jpg", wrap: int = 60) -> bytes:
    """`lines` (each wrapped at `wrap` characters) drawn top to bottom on white paper."""
    from PIL import Image, ImageDraw, ImageFont  # the simulator's imaging library (a dependency)

    wrapped = [part for line in lines for part in (textwrap.wrap(line, wrap) or [""])]
    image = Image.new("RGB", (WIDTH_PX, 2 * LINE_PX + LINE_PX * len(wrapped)), (250, 250, 246))
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=26)
    for row, line in enumerate(wrapped):
        pen.text((LINE_PX, LINE_PX + LINE_PX * row), line, fill=(20, 20, 20), font=font)
    out = io.BytesIO()
    if extension.lower().lstrip(".") == "png":
        image.save(out, format="PNG")
    else:
        image.save(out, format="JPEG", quality=90)
    return out.getvalue()
