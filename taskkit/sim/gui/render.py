"""`screencap -p` of the simulated screen: the view tree drawn with Pillow.

Text where a node has text, switches as tracks with a thumb (on: filled), sliders as a line with
a thumb at their value, clickable rows with a divider, the status and navigation bars in grey.
The same tree gives the same bytes (PNG without timestamps).
"""
from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw, ImageFont

from taskkit.sim.gui.node import Node

_ACCENT = (26, 115, 232)
_TEXT = (32, 33, 36)
_MUTED = (95, 99, 104)


@functools.lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render_png(root: Node, width: int, height: int, dark: bool = False) -> bytes:
    background, text_color = ((32, 33, 36), (232, 234, 237)) if dark else ((255, 255, 255), _TEXT)
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    for node in root.walk():
        x1, y1, x2, y2 = node.bounds
        if x2 <= x1 or y2 <= y1:
            continue
        if node.resource_id.endswith(("status_bar", "navigation_bar_frame")):
            draw.rectangle((x1, y1, x2 - 1, y2 - 1), fill=(241, 243, 244) if not dark else (48, 49, 52))
        elif node.class_name == "android.widget.Switch":
            track = (x1, y1 + (y2 - y1) // 4, x2 - 1, y2 - 1 - (y2 - y1) // 4)
            draw.rounded_rectangle(track, radius=(track[3] - track[1]) // 2,
                                   fill=_ACCENT if node.checked else (189, 193, 198))
            size = track[3] - track[1]
            cx = track[2] - size // 2 if node.checked else track[0] + size // 2
            draw.ellipse((cx - size // 2, track[1], cx + size // 2, track[3]), fill=(255, 255, 255))
        elif node.class_name == "android.widget.SeekBar":
            mid = (y1 + y2) // 2
            draw.line((x1, mid, x2, mid), fill=(189, 193, 198), width=max(2, (y2 - y1) // 8))
            percent = int(node.text.rstrip("%") or 0) if node.text.rstrip("%").isdigit() else 0
            cx = x1 + (x2 - x1) * percent // 100
            draw.line((x1, mid, cx, mid), fill=_ACCENT, width=max(2, (y2 - y1) // 8))
            radius = (y2 - y1) // 4
            draw.ellipse((cx - radius, mid - radius, cx + radius, mid + radius), fill=_ACCENT)
            continue
        elif node.clickable and node.class_name == "android.widget.LinearLayout":
            draw.line((x1, y2 - 1, x2, y2 - 1), fill=(232, 234, 237) if not dark else (60, 64, 67))
        if node.text:
            size = max(12, min(48, (y2 - y1) * 3 // 5))
            color = _MUTED if node.resource_id == "android:id/summary" else text_color
            draw.text((x1 + 4, y1 + max(0, (y2 - y1 - size) // 2)), node.text, fill=color, font=_font(size))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
