"""A vector drawable's path filled as a mask: `mask(path_data, viewport, size)`.

Path data is what a VectorDrawable's `android:pathData` holds, SVG path syntax (AOSP frameworks/base
core/java/android/util/PathParser.java, android-13.0.0_r1), of which this reads the move, line,
horizontal, vertical, cubic (`C`) and close commands, absolute or relative (lower case), with
implicit repeats and compact numbers ("-7.5-27.4", "1.5.5"); other commands are a PathError.
Curves are flattened to line segments; the path is filled by the even-odd rule, which equals
VectorDrawable's default `fillType="nonZero"` for a path whose inner contours wind against the
outer one (a hole, as the play triangle of Pro Expense's ic_entertainment); drawn at four times
the size and scaled down, so the edges are anti-aliased as Android's are.
"""
from __future__ import annotations

import functools
import re

from PIL import Image, ImageChops, ImageDraw

from taskkit.errors import TaskkitError

Point = tuple[float, float]
_TOKEN = re.compile(r"[MmLlHhVvCcZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Z": 0}
_STEPS = 16  # segments per cubic curve
_SUPERSAMPLE = 4


class PathError(TaskkitError, ValueError):
    """Path data this parser does not read (an arc, a smooth or quadratic curve, a stray number)."""


def contours(path_data: str) -> list[list[Point]]:
    """The path's closed contours as polygons, in viewport units."""
    tokens = _TOKEN.findall(path_data)
    if "".join(tokens).replace(" ", "") != re.sub(r"[\s,]", "", path_data):
        raise PathError(f"path data has a command this parser does not read: {path_data[:60]!r}")
    shapes: list[list[Point]] = []
    current: list[Point] = []
    x = y = start_x = start_y = 0.0
    command, i = "", 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command, i = tokens[i], i + 1
        elif not command or command in "Zz":
            raise PathError(f"a number without a command in {path_data[:60]!r}")
        upper, relative = command.upper(), command.islower()
        arity = _ARITY[upper]
        args = [float(t) for t in tokens[i:i + arity]]
        if len(args) < arity:
            raise PathError(f"{command} needs {arity} numbers in {path_data[:60]!r}")
        i += arity
        dx, dy = (x, y) if relative else (0.0, 0.0)
        if upper == "Z":
            if current:
                shapes.append(current)
            current, (x, y) = [], (start_x, start_y)
            continue
        if upper == "M":
            if current:
                shapes.append(current)
            x, y = args[0] + dx, args[1] + dy
            start_x, start_y, current = x, y, [(x, y)]
            command = "l" if relative else "L"  # further pairs are lines
        elif upper in "LHV":
            x = args[0] + dx if upper in "LH" else x
            y = args[-1] + dy if upper in "LV" else y
            current.append((x, y))
        else:  # C
            end = (args[4] + dx, args[5] + dy)
            current.extend(_cubic((x, y), (args[0] + dx, args[1] + dy), (args[2] + dx, args[3] + dy), end))
            x, y = end
    if current:
        shapes.append(current)
    return [shape for shape in shapes if len(shape) >= 3]


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    points = []
    for step in range(1, _STEPS + 1):
        t = step / _STEPS
        u = 1 - t
        points.append((u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
                       u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]))
    return points


@functools.lru_cache(maxsize=64)
def mask(path_data: str, viewport: tuple[float, float], size: tuple[int, int]) -> Image.Image:
    """The filled path as an "L" mask of `size`: the drawable scaled to fit the view, centred
    (ImageView's default fitCenter of a square 24 dp drawable), its viewport mapped onto it."""
    side = min(size) * _SUPERSAMPLE
    left, top = (size[0] * _SUPERSAMPLE - side) / 2, (size[1] * _SUPERSAMPLE - side) / 2
    scale_x, scale_y = side / viewport[0], side / viewport[1]
    filled = Image.new("L", (size[0] * _SUPERSAMPLE, size[1] * _SUPERSAMPLE), 0)
    for shape in contours(path_data):
        layer = Image.new("L", filled.size, 0)
        ImageDraw.Draw(layer).polygon([(left + px * scale_x, top + py * scale_y) for px, py in shape], fill=255)
        filled = ImageChops.logical_xor(filled.convert("1"), layer.convert("1")).convert("L")
    return filled.resize(size, Image.BOX)
