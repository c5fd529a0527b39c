"""Simple Draw Pro (SimpleMobileTools/Simple-Draw, `com.simplemobiletools.draw.pro`): drawings as files.

The app keeps no database: a drawing is saved where its Save dialog says — by default the
folder "Simple Draw" in internal storage (SaveImageDialog: `internalStoragePath/Simple Draw`
until a folder was chosen once), as `<file name>.<png|svg|jpg>` (the dialog adds the extension
of the chosen radio button to the typed name). PNG and JPG are the canvas's bitmap (white
background, strokes in the brush colour); SVG is the app's own export (models/Svg.kt): an
`<svg>` of the canvas size with a background `<rect>` and one `<path>` per stroke.
"""
from __future__ import annotations

import io
import posixpath
from typing import Sequence

from taskkit.apps.base import App
from taskkit.apps.files import STORAGE_ROOT
from taskkit.apps.kept import drawn_by, kept
from taskkit.device.base import Device

PACKAGE = "com.simplemobiletools.draw.pro"
DEFAULT_FOLDER = f"{STORAGE_ROOT}/Simple Draw"
PICTURES = f"{STORAGE_ROOT}/Pictures"
EXTENSIONS = ("png", "svg", "jpg")  # the Save dialog's radio buttons, in its order
Colour = tuple[int, int, int]
BRUSH_COLOUR: Colour = (0xF5, 0x7C, 0x00)  # the default brush: Simple Commons' color_primary #F57C00
BACKGROUND = (255, 255, 255)

Stroke = tuple[tuple[int, int], ...]  # the finger's points on the canvas, in canvas pixels


@kept(version=drawn_by(__file__))
def drawing_bytes(strokes: list[Stroke], width: int, height: int, extension: str, brush_px: int,
                  colours: Sequence[Colour] = ()) -> bytes:
    """The file the app writes for a canvas of `width` × `height` holding `strokes`, each in its
    colour of `colours` (the default brush where none is given). Kept by its inputs, once per machine."""
    tints = [colours[i] if i < len(colours) else BRUSH_COLOUR for i in range(len(strokes))]
    if extension == "svg":
        paths = "".join(
            '<path d="' + " ".join(("M" if i == 0 else "L") + f"{x} {y}" for i, (x, y) in enumerate(stroke))
            + f' " fill="none" stroke="#{"".join(f"{c:02x}" for c in tint)}" stroke-width="{brush_px}.0" '
            'stroke-linecap="round"/>' for stroke, tint in zip(strokes, tints))
        return (f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
                f'<rect width="{width}" height="{height}" fill="#ffffff"/>{paths}</svg>').encode()
    from PIL import Image, ImageDraw  # the simulator's imaging library (a dependency)

    image = Image.new("RGB", (max(1, width), max(1, height)), BACKGROUND)
    pen = ImageDraw.Draw(image)
    for stroke, tint in zip(strokes, tints):
        if len(stroke) > 1:
            pen.line(list(stroke), fill=tint, width=brush_px, joint="curve")
        x, y = stroke[0]
        pen.ellipse((x - brush_px // 2, y - brush_px // 2, x + brush_px // 2, y + brush_px // 2), fill=tint)
    out = io.BytesIO()
    image.save(out, format="JPEG" if extension == "jpg" else "PNG")
    return out.getvalue()


def format_of(data: bytes) -> str | None:
    """"png", "jpg" or "svg" by the file's own signature (None for anything else)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if data.lstrip().startswith(b"<svg") and data.rstrip().endswith(b"</svg>"):
        return "svg"
    return None


def save_drawing(device: Device, folder: str, file_name: str, strokes: list[Stroke] | None = None) -> str:
    """Write a drawing named `file_name` (its extension says the format) into `folder`; its path."""
    extension = posixpath.splitext(file_name)[1].lstrip(".").lower()
    if extension not in EXTENSIONS:
        raise ValueError(f"{file_name!r}: Simple Draw saves .png, .svg or .jpg")
    strokes = strokes or [((200, 400), (500, 700), (800, 400))]
    path = posixpath.join(folder, file_name)
    device.files.write_bytes(path, drawing_bytes(strokes, 1080, 1800, extension, 44))
    return path


def reset(device: Device) -> None:
    """No saved drawings in the app's own folder (shared folders are the Files model's)."""
    device.files.remove(DEFAULT_FOLDER, recursive=True)


APP = App(name="simple draw pro", package=PACKAGE, data_paths=(DEFAULT_FOLDER, PICTURES),
          reset=reset)
