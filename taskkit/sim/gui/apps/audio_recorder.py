"""Audio Recorder: the record screen (record, stop, the last record's name with its rename
dialog) and the records list, over the record files the Audio Recorder checks read.

Ids and labels follow Dimowner/AudioRecorder (res/layout/activity_main.xml: `btn_record`
described "Start recording", `btn_record_stop`, `btn_records_list`, `txt_progress` "00:00",
`txt_name`, the toolbar's `btn_import` and `btn_share` and the bottom's `btn_settings` "Settings"
(which do nothing here); res/layout/dialog_rename.xml: `dialog_title` "New name", `input_name`,
`dialog_negative_btn` Cancel and `dialog_positive_btn` Save, in the framework's AlertDialog as
util/AndroidUtils.java showRenameDialog sets it; res/values/strings.xml). The launcher's WelcomeActivity opens the record screen, as it does once
the app's setup pages are done (AndroidWorld's setup completes them); the screen keeps reporting
WelcomeActivity in front, where the app hands over to its MainActivity (a difference, so that a
fresh start and a resumed task report the same activity). A tap on Record starts a
recording, Stop saves it as the next `Record-N.m4a` and shows its name; a tap on the name renames
it (the extension is kept). Record asks for RECORD_AUDIO first, as MainActivity's onClick does
(checkRecordPermission2, at 05545b9): without it the system's permission dialog opens, and the
recording starts once it is allowed (onRequestPermissionsResult); AndroidWorld's set-up grants it
(android_world/env/setup_device/apps.py, AudioRecorder.setup), so by default no dialog shows. The rename dialog shows the current name selected, so what is typed
replaces it (the simulator has no text selection: the name is the field's placeholder until
something is typed, and Save on an untouched field keeps it). Simplified: no pause, playback, waveform, settings, trash or
automatic rename dialog.

Pinned: AndroidWorld installs com.dimowner.audiorecorder_926.apk; this model follows
Dimowner/AudioRecorder at commit 05545b9, the commit that sets versionCode 926 (versionName 0.9.26;
the release has no tag).
"""
from __future__ import annotations

import dataclasses
import posixpath

from taskkit.apps.audio_recorder import PACKAGE, PREFS_PATH, RECORDS_DIR, counted, m4a_bytes, next_record_name
from taskkit.sim.gui import appdata, permissions, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("Dimowner/AudioRecorder", "05545b9", 926)
ID = f"{PACKAGE}:id/"
RECORDS_LIST = ".app.records.RecordsActivity"
RECORD_AUDIO = "android.permission.RECORD_AUDIO"


def _names(ui: Session) -> list[str]:
    return [name for name, is_dir, _ in appdata.listing(ui, RECORDS_DIR) if not is_dir]


def _clock(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _start(ui: Session) -> None:
    """btn_record: MainActivity.checkRecordPermission2 first (its request, when RECORD_AUDIO is
    not granted, is the system's dialog: taskkit/sim/gui/permissions.py), then the recording."""
    if permissions.check(ui, RECORD_AUDIO, "Audio Recorder"):
        _record(ui)


def _record(ui: Session) -> None:
    ui.replace("main", recording_since=appdata.now_ms(ui))


def _on_permission(ui: Session, name: str, granted: bool) -> None:
    """onRequestPermissionsResult: REQ_CODE_RECORD_AUDIO granted starts the recording service;
    denied, the app does nothing (the record screen stays as it was)."""
    if granted and name == RECORD_AUDIO:
        _record(ui)


def _stop(frame: Frame):
    def act(ui: Session) -> None:
        seconds = max(1, (appdata.now_ms(ui) - int(frame.args["recording_since"])) // 1000)
        path = posixpath.join(RECORDS_DIR, next_record_name(_names(ui)))
        appdata.write_bytes(ui, path, m4a_bytes(seconds))
        prefs = appdata.read_text(ui, PREFS_PATH) or None  # "": no preferences file yet
        appdata.write_text(ui, PREFS_PATH, counted(prefs))  # PrefsImpl's record_counter, as the app keeps it
        ui.replace("main", last=path, seconds=seconds)
    return act


def _rename(path: str):
    return lambda ui: ui.push("rename", focus="name", path=path)


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    recording = "recording_since" in frame.args
    last = str(frame.args.get("last") or "")
    if last and not appdata.host(ui, last).is_file():
        last = ""  # renamed or deleted since
    bar = m.status_bar
    nodes = [] if recording else [  # showRecordingStart hides import and share (GONE)
        widgets.icon_button(ui, (0, bar, m.dp(56), bar + m.dp(56)), "", widgets.inert, f"{ID}btn_import")]
    nodes.append(widgets.text(ui, (m.dp(56), bar + m.dp(12), m.width - m.dp(56), bar + m.dp(48)), "Audio Recorder",
                              size_dp=22))
    if last and not recording:  # showOptionsMenu once a record is shown; hideOptionsMenu without one
        nodes.append(widgets.icon_button(ui, (m.width - m.dp(56), bar, m.width, bar + m.dp(56)), "", widgets.inert,
                                         f"{ID}btn_share"))
    middle = (m.status_bar + m.content_bottom) // 2
    nodes.append(_waveform(ui, (0, max(bar + m.dp(56), middle - m.dp(208)), m.width, middle - m.dp(8)),
                           "recording_view" if recording else "record" if last else "placeholder"))
    elapsed = (appdata.now_ms(ui) - int(frame.args["recording_since"])) // 1000 if recording else int(
        frame.args.get("seconds") or 0)
    nodes.append(widgets.text(ui, (m.dp(16), middle, m.width - m.dp(16), middle + m.dp(64)), _clock(elapsed),
                              f"{ID}txt_progress", size_dp=54))
    if last and not recording:
        name = posixpath.splitext(posixpath.basename(last))[0]
        nodes.append(widgets.text(ui, (m.dp(32), middle + m.dp(72), m.width - m.dp(32), middle + m.dp(104)), name,
                                  f"{ID}txt_name", size_dp=22, action=_rename(last)))
    size = appdata.host(ui, last).stat().st_size if last and not recording else 0
    nodes.append(dataclasses.replace(
        widgets.text(ui, (m.dp(72), middle + m.dp(108), m.width - m.dp(72), middle + m.dp(132)), record_info(size),
                     f"{ID}txt_record_info", size_dp=14), text_color=_INFO_COLOUR))
    bottom = m.content_bottom - m.dp(96)
    nodes.append(_play_progress(ui, frame, (0, bottom - m.dp(40), m.width, bottom - m.dp(8)), recording))
    centre = m.width // 2
    if recording:
        start = min(centre + m.dp(48), m.width - m.dp(140))  # clear of btn_records_list on a narrow screen
        nodes.append(widgets.icon_button(ui, (start, bottom + m.dp(16), start + m.dp(56), bottom + m.dp(72)),
                                         "", _stop(frame), f"{ID}btn_record_stop"))
    else:
        nodes.append(widgets.icon_button(ui, (centre - m.dp(40), bottom, centre + m.dp(40), bottom + m.dp(80)),
                                         "Start recording", _start, f"{ID}btn_record"))
    nodes.append(widgets.icon_button(ui, (m.width - m.dp(80), bottom + m.dp(8), m.width - m.dp(16), bottom + m.dp(72)),
                                     "", lambda s: s.push("records"), f"{ID}btn_records_list"))
    nodes.append(widgets.icon_button(ui, (m.dp(16), bottom + m.dp(8), m.dp(80), bottom + m.dp(72)), "Settings",
                                     widgets.inert, f"{ID}btn_settings"))
    return nodes


# values/colors.xml text_primary_light2 #99FFFFFF (txt_record_info) over the window's #1C2733
_INFO_COLOUR = (0xA4, 0xA9, 0xAD)
_SAMPLE_RATE = "44.1kHz"  # AppConstants.DEFAULT_RECORD_SAMPLE_RATE 44100 as strings.xml sample_rates2 names it
_FORMAT = "M4a"  # AppConstants.DEFAULT_RECORDING_FORMAT m4a as strings.xml formats2 names it


def record_info(size: int) -> str:
    """`txt_record_info` as MainPresenter.updateInformation writes it for an M4A record of `size`
    bytes (the defaults' 0 with no record shown): SettingsMapper.formatSize (DecimalFormat "#.##"
    of the megabytes, strings.xml `size` "%s Mb"), the format, the sample rate, ", " between."""
    megabytes = f"{size / (1024 * 1024):.2f}".rstrip("0").rstrip(".")
    return ", ".join((f"{megabytes} Mb", _FORMAT, _SAMPLE_RATE))


def _waveform(ui: Session, box: Box, rid: str) -> Node:
    """The middle of activity_main.xml: with a record shown, WaveformViewNew `record` (200 dp tall,
    waveform_height); while recording, RecordingWaveformView `recording_view`; with neither, the
    ImageView `placeholder` (MainActivity.showWaveForm with no samples: MainActivity.java:598-603).
    The simulator's recordings are silent, so the waveform is its centre line; the placeholder's
    waveform.png is drawn as bars of the muted colour."""
    x1, y1, x2, y2 = box
    mid = (y1 + y2) // 2
    if rid == "placeholder":
        step, heights = ui.m.dp(12), (8, 20, 36, 52, 28, 60, 40, 16, 44, 24, 10)
        left = (x1 + x2 - step * len(heights)) // 2
        bars = tuple(Painted((left + step * i, mid - ui.m.dp(h) // 2, left + step * i + ui.m.dp(6),
                              mid + ui.m.dp(h) // 2), fill="muted") for i, h in enumerate(heights))
        return Node("android.widget.ImageView", resource_id=f"{ID}placeholder", bounds=box, paint=bars)
    line = Painted((x1, mid - 1, x2, mid + 1), fill="muted")
    return Node("android.view.View", resource_id=f"{ID}{rid}", bounds=box, paint=(line,))


def _play_progress(ui: Session, frame: Frame, box: Box, recording: bool) -> Node:
    """activity_main.xml's SeekBar `play_progress` (max 1000, at 20 until something resets it):
    disabled while recording (showRecordingStart, which puts it at 0); sliding it moves it (with no
    playback, AudioPlayerNew.seek only keeps the position)."""
    moved = ui.draft(frame, "position")
    percent = int(moved) if moved else 0 if "recording_since" in frame.args or "seconds" in frame.args else 2
    slide = None if recording else (lambda s, fraction: s.set_draft(frame, "position", str(round(fraction * 100))))
    return Node("android.widget.SeekBar", resource_id=f"{ID}play_progress", text=f"{percent}%", bounds=box,
                focusable=True, enabled=not recording, slide=slide)


def _records(ui: Session, frame: Frame) -> list[Node]:
    nodes, top = widgets.app_bar(ui, "Records")
    rows = [widgets.Row(ui.m.dp(72), lambda box, n=name: widgets.list_item(
                ui, box, posixpath.splitext(n)[0], action=_rename(posixpath.join(RECORDS_DIR, n)),
                title_rid=f"{ID}list_item_name"))
            for name in _names(ui)]
    return nodes + [widgets.list_or_empty(ui, frame, top, rows, f"{ID}recycler_view", "Records is empty")]


def _save(frame: Frame):
    def act(ui: Session) -> None:
        path = str(frame.args["path"])
        name = ui.draft(frame, "name").strip()
        target = posixpath.join(RECORDS_DIR, name + posixpath.splitext(path)[1])
        if not name:  # the name was left as it is
            ui.finish()
            return
        if "/" in name or appdata.host(ui, target).exists():
            return  # the app refuses an empty name and "File with this name is already exists!"
        appdata.rename(ui, path, target)
        ui.finish()
        _, _, below = ui.top()
        if below is not None and below.screen == "main":
            ui.replace("main", last=target, seconds=int(below.args.get("seconds") or 0))
    return act


# dialog_rename.xml: a white panel padded 20 dp; the title 22 sp, 16 dp above the field (18 sp);
# the buttons (Widget.Material.Button: 88 x 48 dp at least, 8 dp margins) end-aligned 4 dp under
# it: Cancel borderless, Save raised on `md_yellow_A700` (raised_button_background.xml), both in
# #414141 (styles.xml Widget.BorderlessButton, Widget.RaisedButton).
_PANEL, _SAVE_FILL = (255, 255, 255), (255, 214, 0)


def _rename_dialog(ui: Session, frame: Frame) -> list[Node]:
    """AndroidUtils.showRenameDialog: the framework's AlertDialog holding dialog_rename.xml as its
    view (setView, no title or buttons of the dialog's own, so its panel shows only
    `customPanel`/`custom`): `dialog_title` "New name", `input_name` with the current name,
    `dialog_negative_btn` Cancel and `dialog_positive_btn` Save."""
    m = ui.m
    current = posixpath.splitext(posixpath.basename(str(frame.args["path"])))[0]
    left, right = m.dp(24), m.width - m.dp(24)
    height = m.dp(20 + 32 + 16 + 48 + 4 + 64 + 20)
    top = (m.height - height) // 2
    x1, x2, y = left + m.dp(20), right - m.dp(20), top + m.dp(20)
    title = widgets.text(ui, (x1, y, x2, y + m.dp(32)), "New name", f"{ID}dialog_title", size_dp=22)
    y += m.dp(32 + 16)
    field = widgets.edit_text(ui, frame, "name", (x1, y, x2, y + m.dp(48)), current, f"{ID}input_name")
    y += m.dp(48 + 4 + 8)
    save = (x2 - m.dp(8 + 88), y, x2 - m.dp(8), y + m.dp(48))
    cancel = (save[0] - m.dp(16 + 104), y, save[0] - m.dp(16), y + m.dp(48))
    buttons = [dataclasses.replace(widgets.button(ui, cancel, "Cancel", Session.finish, f"{ID}dialog_negative_btn"),
                                   background=_PANEL, text_size=m.dp(18)),
               dataclasses.replace(widgets.button(ui, save, "Save", _save(frame), f"{ID}dialog_positive_btn"),
                                   background=_SAVE_FILL, text_size=m.dp(18))]
    row = Node("android.widget.LinearLayout", bounds=(cancel[0] - m.dp(8), y - m.dp(8), x2, y + m.dp(56)),
               children=buttons)
    view = Node("android.widget.LinearLayout", bounds=(left, top, right, top + height), children=[title, field, row])
    custom = Node("android.widget.FrameLayout", resource_id="android:id/custom", bounds=view.bounds, children=[view])
    panel = Node("android.widget.FrameLayout", resource_id="android:id/customPanel", bounds=view.bounds, children=[custom])
    return [Node("android.widget.FrameLayout", resource_id="android:id/parentPanel", bounds=view.bounds,
                 background=_PANEL, children=[panel])]


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "records": Screen(_records, RECORDS_LIST), "rename": Screen(_rename_dialog),
     permissions.SCREEN: permissions.screen(PACKAGE, _on_permission)},
    first="main"))
