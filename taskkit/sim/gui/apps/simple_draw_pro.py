"""Simple Draw Pro: the canvas, its Save as dialog and the folder picker, over the files the
drawing task reads.

Ids and labels follow SimpleMobileTools/Simple-Draw (res/layout/activity_main.xml: `main_toolbar`,
`my_canvas` on a white background, the tool row `bucket_fill`, `eraser`, `eye_dropper`,
`color_picker` at the top end and `undo` under it; res/menu/menu.xml: `menu_save` "Save", `clear`
"Clear", `menu_share` "Share" as icons, Open file, Change background color, Print, Settings and
About in the overflow menu;
res/layout/dialog_save_image.xml: the "Path" field `folder_value`, the "Filename" field
`save_image_filename` and the radio buttons `save_image_radio_png` / `_svg` / `_jpg`;
dialogs/SaveImageDialog.kt) and Simple-Commons (`image_yyyy_MM_dd_HH_mm_ss` as the first file
name; its folder picker is taskkit/sim/gui/folderpicker.py). A drag on the canvas draws a
stroke from where the finger went down to where it came up, in the brush colour (16 dp; the
app's orange until another is picked); Undo removes the last stroke, Clear all. The colour
square `color_picker` shows the brush colour; a tap opens Simple-Commons' colour picker
(taskkit/sim/gui/colorpicker.py), whose OK makes its colour the brush's (MainActivity.pickColor,
setColor) and stores it as Config.brushColor (Prefs.xml `brush_color`, which the next start reads;
the app writes it in onPause). Save as writes `<Path>/<Filename>.<extension>` (the typed name
gets the chosen extension, as the app adds it; each stroke in its colour) and keeps the drawing.
Simplified: a tap draws no dot; the eyedropper, eraser, bucket fill, Share and the overflow
items are there to be found and do nothing; the brush size bar and its
preview are shown at the default size but do not move (no brush size), no redo or zoom; the dialog starts in
"Simple Draw" each time (the app remembers the last folder and format); an existing file is
overwritten without the app's "already exists" question.

Pinned: AndroidWorld installs com.simplemobiletools.draw.pro_79.apk; this model follows
SimpleMobileTools/Simple-Draw 6.9.3 (versionCode 79) with Simple-Commons c09f8dfda1, the commit its
app/build.gradle pins.
"""
from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from taskkit.apps.simple_draw_pro import BRUSH_COLOUR, DEFAULT_FOLDER, EXTENSIONS, PACKAGE, Colour, drawing_bytes
from taskkit.device.services import shared_prefs
from taskkit.sim.devicetime import local_time
from taskkit.sim.gui import appdata, colorpicker, folderpicker, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source, simple_commons

SOURCE = Source("SimpleMobileTools/Simple-Draw", "6.9.3", 79, (simple_commons("c09f8dfda1"),))
ID = f"{PACKAGE}:id/"
_TOOLS = (("Eyedropper", "eye_dropper"), ("Eraser", "eraser"), ("Bucket fill", "bucket_fill"))  # right to left, after color_picker
BRUSH_COLOR = "brush_color"  # helpers/Constants.kt: Config.brushColor in Simple-Commons' Prefs.xml
BRUSH_DP = 16  # full_brush_size 40dp × the default brush size 40 %
_INVALID_NAME = re.compile(r'[/\\:*?"<>|\x00]')  # what isAValidFilename refuses


def _strokes(ui: Session, frame: Frame) -> list[dict[str, Any]]:
    """The canvas's strokes: each {"points": [[x, y], ...] on the canvas, "colour": "RRGGBB"}."""
    return json.loads(ui.draft(frame, "strokes", "[]"))


def _set_strokes(ui: Session, frame: Frame, strokes: list[dict[str, Any]]) -> None:
    ui.set_draft(frame, "strokes", json.dumps(strokes))


def brush_colour(ui: Session, frame: Frame) -> Colour:
    """MainActivity's `color`: the one picked on this canvas, else Config.brushColor (the
    app's Prefs.xml `brush_color`, color_primary #F57C00 by default), as onCreate sets it."""
    picked = colorpicker.parse_hex(ui.draft(frame, "colour"))
    if picked is not None:
        return picked
    stored = colorpicker.read_pref(ui, PACKAGE, BRUSH_COLOR)
    return colorpicker.from_int(int(stored.value)) if stored is not None else BRUSH_COLOUR


def _picked(ui: Session, canvas: Frame, colour: Colour) -> None:
    """pickColor's callback (setColor): the next strokes draw in `colour`; Config.brushColor keeps
    it (the app writes it in onPause; the simulator at once)."""
    if canvas.screen == "main":
        ui.set_draft(canvas, "colour", colorpicker.hex_code(colour))
        colorpicker.write_pref(ui, PACKAGE, BRUSH_COLOR, shared_prefs.Pref("int", colorpicker.to_int(colour)))


def _canvas_box(ui: Session) -> Box:
    m = ui.m
    return (0, m.status_bar + m.dp(64), m.width, m.content_bottom)


def _draw(frame: Frame):
    def act(ui: Session, path: Box) -> None:
        x0, y0 = _canvas_box(ui)[:2]
        x1, y1, x2, y2 = path
        stroke = {"points": [[x1 - x0, y1 - y0], [x2 - x0, y2 - y0]], "colour": colorpicker.hex_code(brush_colour(ui, frame))}
        _set_strokes(ui, frame, _strokes(ui, frame) + [stroke])
    return act


def _undo(frame: Frame):
    return lambda ui: _set_strokes(ui, frame, _strokes(ui, frame)[:-1])


def _open_save(frame: Frame):
    def act(ui: Session) -> None:
        ui.push("save", focus="filename", canvas=frame.id,
                drafts={"filename": "image_" + local_time(ui.state).strftime("%Y_%m_%d_%H_%M_%S"),
                        "folder": DEFAULT_FOLDER, "extension": EXTENSIONS[0]})
    return act


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    strokes = _strokes(ui, frame)
    icon = (0, 0, m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("overflow")),
               widgets.icon_button(ui, icon, "Share", widgets.inert, f"{ID}menu_share"),
               widgets.icon_button(ui, icon, "Clear", lambda s: _set_strokes(s, frame, []), f"{ID}clear"),
               widgets.icon_button(ui, icon, "Save", _open_save(frame), f"{ID}menu_save"))
    nodes, top = widgets.app_bar(ui, "", up=False, rid=f"{ID}main_toolbar", actions=actions)
    x0, y0, x2, y2 = _canvas_box(ui)
    colour = brush_colour(ui, frame)
    ink = tuple((tuple((x + x0, y + y0) for x, y in stroke["points"]), _tint(stroke), m.dp(BRUSH_DP)) for stroke in strokes)
    held = [Node("android.view.View", resource_id=f"{ID}my_canvas", bounds=(x0, y0, x2, y2),
                 background=(255, 255, 255), drag=_draw(frame), ink=ink)]
    # activity_main.xml: `color_picker` at the top end, a square of the brush colour
    # (MainActivity.setColor: setFillWithStroke with drawRectangle), the other tools toStartOf it
    square = (m.width - m.dp(48), top, m.width, top + m.dp(48))
    held.append(Node("android.widget.ImageView", resource_id=f"{ID}color_picker", content_desc="Change color",
                     bounds=square, clickable=True, focusable=True, action=colorpicker.open_picker(colour),
                     paint=(Painted(square, fill=colour),)))
    for i, (desc, rid) in enumerate(_TOOLS, start=1):
        x = m.width - m.dp(48) * (i + 1)
        held.append(widgets.icon_button(ui, (x, top, x + m.dp(48), top + m.dp(48)), desc, widgets.inert, f"{ID}{rid}",
                                        class_name="android.widget.ImageView"))
    if strokes:
        held.append(widgets.icon_button(ui, (m.width - m.dp(48), top + m.dp(48), m.width, top + m.dp(96)), "Undo",
                                        _undo(frame), f"{ID}undo", class_name="android.widget.ImageView"))
    held += _brush_size(ui, y2, colour)
    # MyScrollView `main_scrollview` holds main_holder (the canvas fills it: nothing to scroll)
    return nodes + [Node("android.widget.ScrollView", resource_id=f"{ID}main_scrollview", bounds=(x0, y0, x2, y2),
                         children=held)]


def _tint(stroke: dict[str, Any]) -> Colour:
    return colorpicker.parse_hex(str(stroke.get("colour", ""))) or BRUSH_COLOUR


def _brush_size(ui: Session, bottom: int, colour: Colour) -> list[Node]:
    """activity_main.xml's brush size control at the bottom centre (Config.showBrushSize, on by
    default): the SeekBar `stroke_width_bar` (150 dp, 5-100, at the default brush size 40,
    12 dp above the bottom, 8 dp padding) and over it the preview `stroke_width_preview`, a
    40 dp circle scaled to 40 % (MainActivity.updateBrushSize). Not carried out: the bar does not
    move and every stroke keeps the default size."""
    m = ui.m
    middle = ui.m.width // 2
    bar = (middle - m.dp(75), bottom - m.dp(12 + 16 + 16), middle + m.dp(75), bottom - m.dp(12))
    preview = (middle - m.dp(20), bar[1] - m.dp(8 + 40), middle + m.dp(20), bar[1] - m.dp(8))
    dot = m.dp(BRUSH_DP) // 2
    return [Node("android.widget.ImageView", resource_id=f"{ID}stroke_width_preview", bounds=preview,
                 paint=(Painted((middle - dot, (preview[1] + preview[3]) // 2 - dot, middle + dot,
                                 (preview[1] + preview[3]) // 2 + dot), fill=colour, oval=True),)),
            Node("android.widget.SeekBar", resource_id=f"{ID}stroke_width_bar", text="40%", bounds=bar, focusable=True,
                 slide=lambda session, fraction: None)]  # the level in percent of the maximum, as taskkit's sliders


def _overflow(ui: Session, frame: Frame) -> list[Node]:
    """menu.xml's overflow items as MainActivity.refreshMenuItems leaves them (an F-Droid build
    hides More apps from us)."""
    return widgets.popup_menu(ui, [(label, widgets.inert) for label in (
        "Open file", "Change background color", "Print", "Settings", "About")])


def _save(frame: Frame):
    def act(ui: Session) -> None:
        name = ui.draft(frame, "filename")
        if not name or _INVALID_NAME.search(name):
            return  # "Filename cannot be empty" / "The filename contains invalid characters"
        canvas = next((f for f in ui.frames(PACKAGE) if f.id == int(frame.args["canvas"])), None)
        extension = ui.draft(frame, "extension", EXTENSIONS[0])
        x0, y0, x2, y2 = _canvas_box(ui)
        drawn = _strokes(ui, canvas) if canvas else []
        strokes = [tuple((x, y) for x, y in stroke["points"]) for stroke in drawn]
        target = posixpath.join(ui.draft(frame, "folder", DEFAULT_FOLDER), f"{name}.{extension}")
        appdata.write_bytes(ui, target, drawing_bytes(strokes, x2 - x0, y2 - y0, extension, ui.m.dp(BRUSH_DP),
                                                      [_tint(stroke) for stroke in drawn]))
        ui.finish()
    return act


def _radio(ui: Session, frame: Frame, box: Box, extension: str) -> Node:
    chosen = ui.draft(frame, "extension", EXTENSIONS[0]) == extension
    return Node("android.widget.RadioButton", text=f".{extension}", resource_id=f"{ID}save_image_radio_{extension}",
                bounds=box, checkable=True, checked=chosen, clickable=True, focusable=True, text_size=ui.m.dp(16),
                action=lambda s: s.set_draft(frame, "extension", extension))


def _save_dialog(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m

    def body(box: Box) -> list[Node]:
        x1, y, x2, _ = box
        folder = ui.draft(frame, "folder", DEFAULT_FOLDER)
        path = Node(widgets.EDIT_TEXT, text=folderpicker.humanize(folder), hint="Path", resource_id=f"{ID}folder_value",
                    bounds=(x1, y, x2, y + m.dp(56)), clickable=True, text_size=m.dp(18),
                    action=folderpicker.open_picker(folder))
        name = widgets.edit_text(ui, frame, "filename", (x1, y + m.dp(72), x2, y + m.dp(128)), "Filename",
                                 f"{ID}save_image_filename")
        top = y + m.dp(136)
        radios = [_radio(ui, frame, (x1, top + m.dp(48) * i, x2, top + m.dp(48) * (i + 1)), extension)
                  for i, extension in enumerate(EXTENSIONS)]
        # dialog_save_image.xml: the ScrollView `save_image_wrapper`; each field in its
        # MyTextInputLayout (`folder_hint`, `save_image_filename_hint`), the radio buttons in their group
        return [Node("android.widget.ScrollView", resource_id=f"{ID}save_image_wrapper", bounds=box, children=[
            widgets.wrapper(f"{ID}folder_hint", path, "android.widget.LinearLayout"),
            widgets.wrapper(f"{ID}save_image_filename_hint", name, "android.widget.LinearLayout"),
            Node("android.widget.RadioGroup", resource_id=f"{ID}save_image_radio_group",
                 bounds=(x1, top, x2, top + m.dp(144)), children=radios)])]

    return widgets.dialog(ui, "Save as", owner=PACKAGE, body=body, body_dp=288, positive=("OK", _save(frame)))


def _chosen(ui: Session, below: Frame, folder: str) -> None:
    if below.screen == "save":
        ui.set_draft(below, "folder", folder)


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "save": Screen(_save_dialog), "overflow": Screen(_overflow),
     folderpicker.SCREEN: folderpicker.screen(PACKAGE, _chosen), colorpicker.SCREEN: colorpicker.screen(PACKAGE, _picked)},
    first="main"))
