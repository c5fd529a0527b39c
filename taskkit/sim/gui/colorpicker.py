"""Simple-Commons' colour picker (dialogs/ColorPickerDialog.kt, res/layout/dialog_color_picker.xml
at c09f8dfda1), which Simple Draw opens from its colour square.

An AlertDialog without a title whose view is the ScrollView `color_picker_scrollview` around
`color_picker_holder`: the recent colours `recent_colors` (the five of
BaseConfig.colorPickerRecentColors, 30 dp squares, each setting the hex field); the 240 dp
saturation/value square `color_picker_square` beside the 30 dp hue bar `color_picker_hue` (with
their cursors `color_picker_cursor` and `color_picker_hue_cursor`); the old hex code
`color_picker_old_hex` "#RRGGBB", an arrow, "#" and the field `color_picker_new_hex` (six hex
digits: when six are typed they are the colour); the old and new colour squares
`color_picker_old_color` and `color_picker_new_color`; Cancel and OK. A drag on the square sets
the saturation (x) and value (y) where the finger ends, on the hue bar the hue (top 360°, bottom
0°), as the dialog's touch listeners do; OK (confirmNewColor) puts the colour first in the
recent colours (five kept, in the app's Prefs.xml `color_picker_recent_colors`) and hands it to
the caller. Simplified: a tap on the square or the hue bar (no drag) does nothing.
"""
from __future__ import annotations

import colorsys
from typing import Callable

from taskkit.device.services import shared_prefs
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame, Screen
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session

SCREEN = "color_picker"
Colour = tuple[int, int, int]
# What OK does: (session, the frame under the picker, the colour picked).
OnPick = Callable[[Session, Frame, Colour], None]
PREFS = "Prefs"  # Simple-Commons Constants.kt PREFS_KEY: the file BaseConfig keeps
RECENT = "color_picker_recent_colors"
# BaseConfig.colorPickerRecentColors' defaults: md_red_700, md_blue_700, md_green_700, md_yellow_700, md_orange_700
_DEFAULT_RECENT = ((0xD3, 0x2F, 0x2F), (0x19, 0x76, 0xD2), (0x38, 0x8E, 0x3C), (0xFB, 0xC0, 0x2D), (0xF5, 0x7C, 0x00))
_HEX = frozenset("0123456789abcdefABCDEF")  # the field's android:digits


def hex_code(colour: Colour) -> str:
    """Int.toHex without its "#": six upper-case digits."""
    return "".join(f"{c:02X}" for c in colour)


def parse_hex(text: str) -> Colour | None:
    """The colour of six hex digits (Color.parseColor), None for anything else."""
    if len(text) != 6 or not set(text) <= _HEX:
        return None
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def to_int(colour: Colour) -> int:
    """The opaque colour as Android's signed 32-bit ARGB int (how SharedPreferences keep it)."""
    value = 0xFF000000 | int(hex_code(colour), 16)
    return value - (1 << 32)


def from_int(value: int) -> Colour:
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


def prefs_path(package: str) -> str:
    return shared_prefs.path(package, PREFS)


def read_pref(ui: Session, package: str, name: str) -> shared_prefs.Pref | None:
    """One entry of `package`'s Prefs.xml (None when it is not there)."""
    text = appdata.read_text(ui, prefs_path(package))
    return shared_prefs.parse(text).get(name) if text.strip() else None


def write_pref(ui: Session, package: str, name: str, pref: shared_prefs.Pref) -> None:
    path = prefs_path(package)
    appdata.write_text(ui, path, shared_prefs.put(appdata.read_text(ui, path) or None, name, pref))


def recent_colours(ui: Session, package: str) -> list[Colour]:
    """BaseConfig.colorPickerRecentColors: the stored list (one int a line) or the defaults."""
    pref = read_pref(ui, package, RECENT)
    if pref is None:
        return list(_DEFAULT_RECENT)
    return [from_int(int(line)) for line in str(pref.value).splitlines() if line.strip()]


def open_picker(colour: Colour) -> Callable[[Session], None]:
    """The action that opens the picker on `colour` (its old colour)."""
    return lambda ui: ui.push(SCREEN, old=hex_code(colour), drafts={"hex": hex_code(colour)})


def _hsv(colour: Colour) -> tuple[float, float, float]:
    return colorsys.rgb_to_hsv(*(c / 255 for c in colour))


def _rgb(hue: float, saturation: float, value: float) -> Colour:
    """Color.HSVToColor of (hue in 0..1, saturation, value)."""
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return round(r * 255), round(g * 255), round(b * 255)


def screen(package: str, on_pick: OnPick) -> Screen:
    """The picker as a screen of `package` (its ids carry the app's package, as the library's
    resources merged into the app do)."""
    rid = f"{package}:id/"

    def build(ui: Session, frame: Frame) -> list[Node]:
        m = ui.m
        old = parse_hex(str(frame.args["old"])) or (0, 0, 0)
        typed = ui.draft(frame, "hex")
        new = parse_hex(typed) or _rgb(*_hsv(old))
        hue = float(ui.draft(frame, "hue") or _hsv(new)[0])

        def set_colour(s: Session, colour: Colour, keep_hue: float | None = None) -> None:
            s.set_draft(frame, "hex", hex_code(colour))
            s.set_draft(frame, "hue", str(keep_hue if keep_hue is not None else _hsv(colour)[0]))

        def body(box: Box) -> list[Node]:
            x1, y, x2, _ = box
            bar, item = m.dp(30), m.dp(30)
            side = min(m.dp(240), x2 - x1 - m.dp(8) - bar)  # colorpicker_size, on a screen that has room
            row = (x1 + m.dp(16), y + m.dp(32), x2 - m.dp(16), y + m.dp(32) + item)
            recent = [Node("android.view.View", resource_id=f"{rid}recent_colors_flow", bounds=row)]  # the Flow helper
            for i, colour in enumerate(recent_colours(ui, package)[:5]):
                left = x1 + m.dp(16) + i * (item + m.dp(16))
                recent.append(_swatch((left, y + m.dp(32), left + item, y + m.dp(32) + item), colour, "",
                                      lambda s, c=colour: set_colour(s, c)))
            top = y + m.dp(32) + item
            square_x = (x1 + x2 - side - m.dp(8) - bar) // 2
            square = (square_x, top + m.dp(16), square_x + side, top + m.dp(16) + side)
            hue_box = (square[2] + m.dp(8), square[1], square[2] + m.dp(8) + bar, square[3])

            def pick_sv(s: Session, path: Box) -> None:
                fx = min(max((path[2] - square[0]) / side, 0.0), 1.0)
                fy = min(max((path[3] - square[1]) / side, 0.0), 1.0)
                set_colour(s, _rgb(hue, fx, 1.0 - fy), hue)

            def pick_hue(s: Session, path: Box) -> None:
                fy = min(max((path[3] - hue_box[1]) / side, 0.0), 0.99999)
                picked = (360.0 - 360.0 * fy) % 360.0 / 360.0
                _, saturation, value = _hsv(new)
                set_colour(s, _rgb(picked, saturation, value), picked)
            _, saturation, value = _hsv(new)
            cursor = (square[0] + round(saturation * side), square[1] + round((1 - value) * side))
            hue_y = hue_box[1] + round((1 - hue) * side) % side
            holder_top = top
            top = square[3] + m.dp(16)
            centre = (x1 + x2) // 2
            hexes = (centre - m.dp(10 + 70), top, centre + m.dp(10 + 8 + 100), top + m.dp(48))
            swatches = top + m.dp(48 + 8)
            children = [
                Node("android.view.ViewGroup", resource_id=f"{rid}recent_colors", bounds=row, children=recent),
                Node("android.widget.RelativeLayout", resource_id=f"{rid}color_picker_top_holder",
                     bounds=(x1, holder_top, x2, holder_top + m.dp(272)), children=[
                         Node("android.view.View", resource_id=f"{rid}color_picker_square", bounds=square,
                              drag=pick_sv, paint=_square_paint(square, hue)),
                         Node("android.widget.ImageView", resource_id=f"{rid}color_picker_hue", bounds=hue_box,
                              drag=pick_hue, paint=_hue_paint(hue_box)),
                         Node("android.widget.ImageView", resource_id=f"{rid}color_picker_hue_cursor",
                              bounds=(hue_box[0] - m.dp(8), hue_y - m.dp(6), hue_box[0], hue_y + m.dp(6)),
                              icon="chevron_right"),
                         Node("android.widget.ImageView", resource_id=f"{rid}color_picker_cursor",
                              bounds=(cursor[0] - m.dp(8), cursor[1] - m.dp(8), cursor[0] + m.dp(8), cursor[1] + m.dp(8)),
                              paint=(Painted((cursor[0] - m.dp(8), cursor[1] - m.dp(8), cursor[0] + m.dp(8),
                                              cursor[1] + m.dp(8)), fill=(255, 255, 255), oval=True, alpha=0.6),))]),
                Node("android.widget.RelativeLayout", resource_id=f"{rid}color_picker_hex_codes_holder",
                     bounds=(x1, top, x2, top + m.dp(48)), children=[
                         widgets.text(ui, (hexes[0], top, centre - m.dp(10), top + m.dp(48)), f"#{hex_code(old)}",
                                      f"{rid}color_picker_old_hex", size_dp=14),
                         Node("android.widget.ImageView", resource_id=f"{rid}color_picker_hex_arrow",
                              bounds=(centre - m.dp(10), top + m.dp(14), centre + m.dp(10), top + m.dp(34)),
                              icon="arrow_forward"),
                         widgets.text(ui, (centre + m.dp(26), top, centre + m.dp(38), top + m.dp(48)), "#",
                                      f"{rid}color_picker_new_hex_label", size_dp=14),
                         widgets.edit_text(ui, frame, "hex", (centre + m.dp(38), top, hexes[2], top + m.dp(48)), "",
                                           f"{rid}color_picker_new_hex")]),
                Node("android.widget.RelativeLayout", resource_id=f"{rid}color_picker_bottom_holder",
                     bounds=(x1, swatches, x2, swatches + item), children=[
                         _swatch((centre - m.dp(26) - item, swatches, centre - m.dp(26), swatches + item), old,
                                 f"{rid}color_picker_old_color"),
                         Node("android.widget.ImageView", resource_id=f"{rid}color_picker_arrow",
                              bounds=(centre - m.dp(10), swatches + m.dp(5), centre + m.dp(10), swatches + m.dp(25)),
                              icon="arrow_forward"),
                         _swatch((centre + m.dp(26), swatches, centre + m.dp(26) + item, swatches + item), new,
                                 f"{rid}color_picker_new_color")])]
            holder = Node("android.widget.RelativeLayout", resource_id=f"{rid}color_picker_holder",
                          bounds=(x1, y + m.dp(16), x2, swatches + item + m.dp(8)), children=children)
            return [Node("android.widget.ScrollView", resource_id=f"{rid}color_picker_scrollview", bounds=box,
                         children=[holder])]

        def confirm(s: Session) -> None:  # confirmNewColor: the field's six digits, else the HSV colour
            colour = parse_hex(s.draft(frame, "hex")) or new
            kept = [c for c in recent_colours(s, package) if c != colour][:4]
            write_pref(s, package, RECENT, shared_prefs.Pref("string", "\n".join(str(to_int(c)) for c in [colour, *kept])))
            s.finish()
            below = s.top()[2]
            if below is not None:
                on_pick(s, below, colour)
        return widgets.dialog(ui, "", owner=package, body=body, body_dp=32 + 30 + 16 + 240 + 16 + 48 + 8 + 30 + 24,
                              positive=("OK", confirm))
    return Screen(build)


def _swatch(box: Box, colour: Colour, rid: str, action: Callable[[Session], None] | None = None) -> Node:
    """An ImageView filled with `colour` (setFillWithStroke)."""
    return Node("android.widget.ImageView", resource_id=rid, bounds=box, clickable=action is not None,
                focusable=action is not None, action=action, paint=(Painted(box, fill=colour),))


def _square_paint(box: Box, hue: float) -> tuple[Painted, ...]:
    """ColorPickerSquare: white to the hue left to right, dark toward the bottom (a 6 × 6 grid of
    the colours at its cells' centres)."""
    x1, y1, x2, y2 = box
    cells = 6
    return tuple(Painted((x1 + (x2 - x1) * i // cells, y1 + (y2 - y1) * j // cells,
                          x1 + (x2 - x1) * (i + 1) // cells, y1 + (y2 - y1) * (j + 1) // cells),
                         fill=_rgb(hue, (i + 0.5) / cells, 1 - (j + 0.5) / cells))
                 for j in range(cells) for i in range(cells))


def _hue_paint(box: Box) -> tuple[Painted, ...]:
    """img_color_picker_hue: the hues from 360° at the top to 0° at the bottom, in 12 bands."""
    x1, y1, x2, y2 = box
    bands = 12
    return tuple(Painted((x1, y1 + (y2 - y1) * k // bands, x2, y1 + (y2 - y1) * (k + 1) // bands),
                         fill=_rgb(1 - (k + 0.5) / bands, 1.0, 1.0)) for k in range(bands))
