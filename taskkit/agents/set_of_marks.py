"""Set-of-marks screenshots, as AndroidWorld's M3A agent shows the screen to a multimodal model:
each UI element's bounds outlined and its index (the one actions name) written in a label at its
top-left corner, over the real screenshot."""
from __future__ import annotations

import io
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from taskkit.device.services.ui import UIElement

_COLORS = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240))
_LABEL_SCALE = 0.018  # the label's text height, as a share of the screenshot's height


def annotate(png: bytes, elements: Sequence[UIElement]) -> bytes:
    """`png` with every element that has bounds outlined and numbered (PNG bytes, same size)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=max(12, int(image.height * _LABEL_SCALE)))
    for index, element in enumerate(elements):
        box = element.bbox
        if box is None or box.width <= 0 or box.height <= 0:
            continue
        color = _COLORS[index % len(_COLORS)]
        draw.rectangle((box.x_min, box.y_min, box.x_max - 1, box.y_max - 1), outline=color, width=3)
        label = str(index)
        left, top, right, bottom = draw.textbbox((box.x_min, box.y_min), label, font=font)
        draw.rectangle((left - 2, top - 2, right + 2, bottom + 2), fill=color)
        draw.text((box.x_min, box.y_min), label, fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
