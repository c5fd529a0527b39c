"""Views issue #35's recall table still named missing on Audio Recorder's record screen, Simple
Draw's colour square and Retro Music's mini-player, where the apps' layouts put them and doing
what the apps do. Each screen is audited: what its dump names is drawn (taskkit.sim.gui.audit)."""
from __future__ import annotations

import io
import re

from PIL import Image

from taskkit.apps import retro_music
from taskkit.device.services import shared_prefs
from taskkit.rng import TaskRng
from taskkit.sim.gui import colorpicker
from taskkit.sim.gui.apps import audio_recorder
from tests.sim.gui.helpers import find, tap
from tests.sim.gui.test_recall_views import _drawn, _ids
from tests.sim.gui.test_recall_views_more import RETRO

RECORDER = "am start -n com.dimowner.audiorecorder/.app.welcome.WelcomeActivity"
DRAW = "am start -n com.simplemobiletools.draw.pro/.activities.MainActivity"


def test_audio_recorders_record_info_is_the_presenters() -> None:
    assert audio_recorder.record_info(0) == "0 Mb, M4a, 44.1kHz"  # updateInformation with no record
    assert audio_recorder.record_info(1024 * 1024 * 3 // 2) == "1.5 Mb, M4a, 44.1kHz"
    assert audio_recorder.record_info(20_000) == "0.02 Mb, M4a, 44.1kHz"


def test_audio_recorders_screen_shows_its_waveform_info_and_seek_bar(device) -> None:
    device.check(RECORDER)
    shown = _ids(device)
    assert {"placeholder", "txt_record_info", "play_progress", "btn_import"} <= set(shown)
    assert not {"record", "btn_share"} & set(shown)  # hideOptionsMenu: no record yet
    assert find(device, "txt_record_info").text == "0 Mb, M4a, 44.1kHz"
    assert find(device, "play_progress").text == "2%"  # the layout's progress 20 of 1000
    _drawn(device)
    tap(device, "Start recording")
    shown = _ids(device)
    assert "recording_view" in shown and not {"btn_import", "placeholder"} & set(shown)
    assert not find(device, "play_progress").is_enabled
    _drawn(device)
    tap(device, "btn_record_stop")
    shown = _ids(device)
    assert {"record", "btn_share", "btn_import"} <= set(shown) and "placeholder" not in shown
    assert re.fullmatch(r"\d+(\.\d\d?)? Mb, M4a, 44\.1kHz", find(device, "txt_record_info").text)
    bar = find(device, "play_progress")
    assert bar.is_enabled and bar.text == "0%"
    y = bar.bbox.center[1]
    device.check(f"input swipe {bar.bbox.x_min + 4} {y} {bar.bbox.center[0]} {y} 300")
    assert find(device, "play_progress").text == "50%"
    _drawn(device)


def _stroke(device, y_offset: int = 0) -> None:
    canvas = find(device, "my_canvas").bbox
    y = (canvas.y_min + canvas.y_max) // 2 + y_offset
    device.check(f"input swipe {canvas.x_min + 100} {y} {canvas.x_min + 400} {y} 300")


def test_draws_colour_square_picks_the_next_strokes_colour_and_keeps_it(device) -> None:
    device.check(DRAW)
    _stroke(device)
    tap(device, "Change color")
    shown = _ids(device)
    assert {"color_picker_square", "color_picker_hue", "color_picker_new_hex", "recent_colors", "color_picker_old_color",
            "color_picker_new_color"} <= set(shown)
    assert find(device, "color_picker_old_hex").text == "#F57C00"
    _drawn(device)
    tap(device, "color_picker_new_hex")
    device.check("input keyevent KEYCODE_MOVE_END")
    for _ in range(6):
        device.check("input keyevent KEYCODE_DEL")
    device.check("input text 1976d2")
    tap(device, "OK")
    prefs = shared_prefs.parse(device.files.read_text(colorpicker.prefs_path("com.simplemobiletools.draw.pro")))
    assert colorpicker.from_int(prefs["brush_color"].value) == (0x19, 0x76, 0xD2)
    assert prefs["color_picker_recent_colors"].value.splitlines()[0] == str(colorpicker.to_int((0x19, 0x76, 0xD2)))
    _stroke(device, 200)
    tap(device, "Save")
    device.check("input keyevent KEYCODE_MOVE_END")
    tap(device, "OK")
    [saved] = [p for p in device.files.listdir("/sdcard/Simple Draw") if p.endswith(".png")]
    colours = {c for _, c in Image.open(io.BytesIO(device.files.read_bytes(f"/sdcard/Simple Draw/{saved}"))).convert(
        "RGB").getcolors(1 << 20)}
    assert {(0xF5, 0x7C, 0x00), (0x19, 0x76, 0xD2)} <= colours  # the first stroke orange, the second blue
    device.check("am force-stop com.simplemobiletools.draw.pro")
    device.check(DRAW)
    tap(device, "Change color")  # the next start reads Config.brushColor
    assert find(device, "color_picker_old_hex").text == "#1976D2"


def test_retros_mini_player_shows_the_queues_song_above_the_tabs(device) -> None:
    retro_music.write_songs(device, [retro_music.random_song(TaskRng(i), t) for i, t in enumerate(("Alpha", "Bravo"))])
    device.check(RETRO)
    tap(device, "Songs")
    assert "slidingPanel" not in _ids(device)  # hideBottomSheet: the queue is empty
    tap(device, "Bravo")
    shown = _ids(device)
    assert {"slidingPanel", "miniPlayerFragment", "imageTextContainer", "miniPlayerTitle", "progressBar",
            "miniPlayerPlayPauseButton"} <= set(shown) and "actionNext" not in shown
    title, tab = find(device, "miniPlayerTitle"), find(device, "For you")
    assert title.text.startswith("Bravo \u2022 ") and title.bbox.y_max <= tab.bbox.y_min
    assert find(device, "Shuffle").bbox.y_max <= find(device, "miniPlayerPlayPauseButton").bbox.y_min  # lifted over it
    _drawn(device)
    tap(device, "For you")
    assert "miniPlayerTitle" in _ids(device)
    _drawn(device)
