"""GUI reference solutions of the built-in tasks of Pro Expense, Markor, Simple Calendar Pro,
Files, Tasks, Joplin, OpenTracks, Audio Recorder, Clock, Contacts, Simple Draw Pro and Simple Gallery Pro: each finds its elements in the dumped tree (by text,
description or resource id, scrolling a list when the element is further down), scores 1.0 on
several seeds, and its near misses — a wrong value, the last step skipped — score less.

Each case is `steps(params, wrong)`: the reference script, or with `wrong` one with a wrong
value (another amount, name, date, answer) in the place a careless agent would get it wrong.
"""
from __future__ import annotations

import ast
import time
import unicodedata
from datetime import datetime, timezone
from typing import Any, Callable

import pytest

from taskkit import loading, registry, suite
from taskkit.apps import chrome, osmand
from taskkit.env import Env
from taskkit.runner import run_episode
from tests.sim.gui.helpers import GuiScript, InRowOf, value_of

Steps = Callable[[dict[str, Any], bool], list[tuple]]


def _items(value: Any) -> list[dict[str, Any]]:
    """A spec's list param (kept as its Python repr) or a Python task's list."""
    return ast.literal_eval(value) if isinstance(value, str) else value


def _utc(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def expense_add(p: dict[str, Any], wrong: bool) -> list[tuple]:
    item = p["expenses"][0]
    cents = item["amount"] + (100 if wrong else 0)
    return [("open", "pro expense"), ("click", "fb_main_add"), ("type", "edt_name", item["name"]),
            ("type", "edt_amount", f"{cents // 100}.{cents % 100:02d}"), ("click", item["category_name"]),
            ("type", "edt_note", item["note"]), ("click", "btn_save")]


def expense_from_gallery(p: dict[str, Any], wrong: bool) -> list[tuple]:
    steps = [("open", "simple gallery pro"), ("click", "DCIM"), ("click", "expenses.jpg")]  # read in the screenshot
    for index, item in enumerate(p["expenses"]):
        steps += expense_add({"expenses": [item]}, wrong and index == 0)
    return steps


def expense_delete(p: dict[str, Any], wrong: bool) -> list[tuple]:
    steps = [("open", "pro expense"), ("long", p["targets"][0]["name"]), ("click", "Delete")]
    return steps[:-1] + [("click", "Cancel")] if wrong else steps


def markor_create(p: dict[str, Any], wrong: bool) -> list[tuple]:
    text = "Something else entirely." if wrong else p["text"]
    return [("open", "markor"), ("click", "fab_add_new_item"), ("type", "new_file_dialog__name", p["file_name"]),
            ("click", "OK"), ("type", "document__fragment__edit__highlighting_editor", text), ("back",)]


def markor_delete(p: dict[str, Any], wrong: bool) -> list[tuple]:
    steps = [("open", "markor"), ("long", p["file_name"]), ("click", "action_delete_selected_items"), ("click", "OK")]
    return steps[:-1] + [("click", "Cancel")] if wrong else steps


def calendar_add(p: dict[str, Any], wrong: bool) -> list[tuple]:
    start = _utc(p["start_ts"] + (3600 if wrong else 0))
    end = _utc(p["start_ts"] + 60 * p["duration_min"])
    return [("open", "simple calendar pro"), ("click", "calendar_fab"), ("type", "event_title", p["title"]),
            ("type", "event_description", p["description"]),
            ("click", "event_start_date"), ("type", "date_picker_input", f"{start:%m/%d/%Y}"), ("click", "OK"),
            ("click", "event_start_time"), ("type", "time_picker_input", f"{start:%H:%M}"), ("click", "OK"),
            ("click", "event_end_date"), ("type", "date_picker_input", f"{end:%m/%d/%Y}"), ("click", "OK"),
            ("click", "event_end_time"), ("type", "time_picker_input", f"{end:%H:%M}"), ("click", "OK"),
            ("click", "save")]


def calendar_delete(p: dict[str, Any], wrong: bool) -> list[tuple]:
    steps = [("open", "simple calendar pro"), ("click", p["title"]), ("click", "delete"), ("click", "Yes")]
    return steps[:-1] + [("click", "No")] if wrong else steps


def files_delete(p: dict[str, Any], wrong: bool) -> list[tuple]:
    steps = [("open", "files"), ("click", p["subfolder"]), ("long", p["file_name"]),
             ("click", "action_menu_delete"), ("click", "OK")]
    return steps[:-1] + [("click", "Cancel")] if wrong else steps


def tasks_note(p: dict[str, Any], wrong: bool) -> list[tuple]:
    title = _items(p["targets"])[0]["title"]
    return [("open", "tasks"), ("click", title), ("answer", value_of("title" if wrong else "notes"))]


def joplin_todo(p: dict[str, Any], wrong: bool) -> list[tuple]:
    title = _items(p["targets"])[0]["title"]

    def read(elements) -> str:
        todo = any(e.content_description == "To-do" for e in elements)
        return str(todo != wrong)
    return [("open", "joplin"), ("click", title), ("answer", read)]


def tracks_duration(p: dict[str, Any], wrong: bool) -> list[tuple]:
    day = _utc(p["day"]).strftime("%B %d %Y")
    on_the_day = lambda e: (e.resource_name or "").endswith(":id/list_item_date") and e.text.startswith(day) \
        and f" {p['sport']} " in e.text  # noqa: E731

    def minutes(elements) -> str:
        h, m, _ = map(int, value_of("stats_total_time_value")(elements).split(":"))
        return str(h * 60 + m + (5 if wrong else 0))
    return [("open", "open tracks sports tracker"), ("click", on_the_day), ("answer", minutes)]


LAUNCHER_LABELS = {"camera": "Camera", "clock": "Clock", "contacts": "Contacts", "settings": "Settings", "dialer": "Phone"}


def open_app(p: dict[str, Any], wrong: bool) -> list[tuple]:
    """Tap the app's icon on the home screen (where every episode starts)."""
    name = p["app_name"]
    if wrong:
        name = "camera" if name != "camera" else "clock"
    return [("click", LAUNCHER_LABELS[name])]


def audio_record(p: dict[str, Any], wrong: bool) -> list[tuple]:
    once = [("click", "btn_record"), ("click", "btn_record_stop")]
    return [("open", "audio recorder")] + once * (2 if wrong else 1)  # a second recording is one too many


def audio_record_named(p: dict[str, Any], wrong: bool) -> list[tuple]:
    name = p["file_name"] + (" 2" if wrong else "")
    return [("open", "audio recorder"), ("click", "btn_record"), ("click", "btn_record_stop"), ("click", "txt_name"),
            ("type", "input_name", name), ("click", "Save")]


def clock_timer(p: dict[str, Any], wrong: bool) -> list[tuple]:
    from taskkit.apps.clock import keypad_digits

    digits = keypad_digits(p["hours"], p["minutes"], p["seconds"] + (1 if wrong and p["seconds"] < 59 else 0))
    steps = [("open", "clock"), ("click", "Timer")] + [("click", f"timer_setup_digit_{d}") for d in digits]
    return steps + [("click", "Start")] if wrong else steps  # started: the keypad is gone


def clock_stopwatch_running(p: dict[str, Any], wrong: bool) -> list[tuple]:
    return [("open", "clock"), ("click", "Stopwatch"), ("click", "Start")] + ([("click", "Pause")] if wrong else [])


def clock_stopwatch_paused(p: dict[str, Any], wrong: bool) -> list[tuple]:
    return [("open", "clock"), ("click", "Timer" if wrong else "Stopwatch")]


def contacts_draft(p: dict[str, Any], wrong: bool) -> list[tuple]:
    label = ("Other" if p["phone_label"] != "Other" else "Home") if wrong else p["phone_label"]
    return [("open", "contacts"), ("click", "Create new contact"), ("type", "First name", p["first"]),
            ("type", "Last name", p["last"]), ("type", "Phone", p["phone"]), ("click", "spinner"), ("click", label)]


def markor_delete_newest(p: dict[str, Any], wrong: bool) -> list[tuple]:
    from taskkit.apps.markor.tasks import MarkorDeleteNewestNote

    notes = MarkorDeleteNewestNote(p).notes()  # newest first; the list shows each one's time
    return [("open", "markor"), ("long", notes[1 if wrong else 0][0]), ("click", "action_delete_selected_items"),
            ("click", "OK")]


def draw_save(p: dict[str, Any], wrong: bool) -> list[tuple]:
    stem, extension = p["file_name"].rsplit(".", 1)
    steps = [("open", "simple draw pro"), ("swipe", "my_canvas", "right"), ("swipe", "my_canvas", "down"),
             ("click", "menu_save"), ("retype", "save_image_filename", stem),
             ("click", f"save_image_radio_{extension}"), ("click", "folder_value"),
             ("click", "Download" if wrong else "Pictures"), ("click", "OK")]
    return steps + [("click", "OK")]


def markor_receipt(p: dict[str, Any], wrong: bool) -> list[tuple]:
    from taskkit.apps import receipts

    lines = receipts.transactions_text(p["transactions"]).split("\n")
    if wrong:  # one digit of the last price mistyped
        lines[-1] = lines[-1][:-1] + ("1" if lines[-1][-1] != "1" else "2")
    editor = "document__fragment__edit__highlighting_editor"
    steps = [("open", "simple gallery pro"), ("click", "DCIM"), ("click", "receipt.png"), ("open", "markor"),
             ("click", "fab_add_new_item"), ("type", "new_file_dialog__name", "receipt.md"), ("click", "OK")]
    for index, line in enumerate(lines):
        steps += [("type", editor, line)] + ([("enter",)] if index < len(lines) - 1 else [])
    return steps + [("back",)]


def gallery_copy(p: dict[str, Any], wrong: bool) -> list[tuple]:
    return [("open", "simple gallery pro"), ("click", "DCIM"), ("click", p["file_name"]), ("click", "More options"),
            ("click", "Move to" if wrong else "Copy to"), ("click", "Internal"), ("click", "Download"), ("click", "OK")]


def _retro_playlist(name: str, titles: list[str]) -> list[tuple]:
    steps = [("open", "retro music")]
    for index, title in enumerate(titles):
        steps += [("click", InRowOf(title, "menu")), ("click", "Add to playlist")]
        steps += [("click", "New playlist"), ("type", "actionNewPlaylist", name), ("click", "Create")] if index == 0 \
            else [("click", name)]
    return steps


def retro_playlist(p: dict[str, Any], wrong: bool) -> list[tuple]:
    titles = [song["title"] for song in p["songs"]]
    return _retro_playlist(p["playlist_name"], titles[::-1] if wrong else titles)


def retro_queue(p: dict[str, Any], wrong: bool) -> list[tuple]:
    titles = [song["title"] for song in p["songs"]]
    if wrong:
        titles = [titles[-1]] + titles[:-1]
    steps = [("open", "retro music")]
    for title in titles:
        steps += [("click", InRowOf(title, "menu")), ("click", "Add to playing queue")]
    return steps


def retro_save(p: dict[str, Any], wrong: bool) -> list[tuple]:
    overflow = lambda e: e.content_description == "More options" and e.class_name.endswith("ImageButton")  # noqa: E731
    steps = retro_playlist(p, False) + [("click", "Playlists"), ("click", p["playlist_name"]), ("click", overflow),
                                        ("click", "Save as file")]
    return steps + [("back",) if wrong else ("click", "SAVE")]


def retro_duration(p: dict[str, Any], wrong: bool) -> list[tuple]:
    """Select the songs (a long press, then taps), add them to a new playlist."""
    titles = [song["title"] for song in p["songs"]] + ([p["noise"][0]["title"]] if wrong else [])  # over 50 minutes
    return ([("open", "retro music"), ("long", titles[0])] + [("click", title) for title in titles[1:]]
            + [("click", "Add to playlist"), ("click", "New playlist"), ("type", "actionNewPlaylist", p["playlist_name"]),
               ("click", "Create")])


def _vlc_playlist(name: str, files: list[str]) -> list[tuple]:
    steps = []
    for index, file_name in enumerate(files):
        steps += [("click", InRowOf(file_name.rsplit(".", 1)[0], "item_more")), ("click", "Add to playlist")]
        steps += [("type", "dialog_playlist_name", name), ("click", "Save")] if index == 0 else [("click", name)]
    return steps


def vlc_playlist(p: dict[str, Any], wrong: bool) -> list[tuple]:
    files = p["files"][::-1] if wrong else p["files"]
    return [("open", "vlc")] + _vlc_playlist(p["playlist_name"], files)


def vlc_two_playlists(p: dict[str, Any], wrong: bool) -> list[tuple]:
    first, second = p["first"], p["second"]
    return ([("open", "vlc")] + _vlc_playlist(first["playlist_name"], first["files"][::-1] if wrong else first["files"])
            + _vlc_playlist(second["playlist_name"], second["files"]))


def markor_video(p: dict[str, Any], wrong: bool) -> list[tuple]:
    words = p["messages"][:-1] if wrong else p["messages"]  # the last word missed
    steps = [("open", "files"), ("click", "Download"), ("click", p["video_name"]), ("click", "VLC"),
             ("click", "Just once")]  # Files' "Open with" plays it in VLC
    steps += [("click", "Forward 10 seconds")] * len(p["messages"])  # read in the screenshots
    return steps + markor_create({"file_name": p["file_name"], "text": ", ".join(words)}, False)


OPEN_BROWSER_PAGE = [("open", "files"), ("click", "Download"), ("click", "task.html"), ("click", "Just once")]


def browser_maze(p: dict[str, Any], wrong: bool) -> list[tuple]:
    moves = chrome.maze_solution(p["browser_task_seed"])
    if wrong:  # the last move the other way round
        moves[-1] = {"Up": "Down", "Down": "Up", "Left": "Right", "Right": "Left"}[moves[-1]]
    return OPEN_BROWSER_PAGE + [("click", move) for move in moves]


def browser_multiply(p: dict[str, Any], wrong: bool) -> list[tuple]:
    answer = chrome.product(p["browser_task_seed"]) + (1 if wrong else 0)
    return OPEN_BROWSER_PAGE + [("click", "Next")] * chrome.NUMBER_COUNT + [("type", "Product", str(answer)),
                                                                     ("click", "Submit")]


def browser_draw(p: dict[str, Any], wrong: bool) -> list[tuple]:
    colours = chrome.target_colours(p["browser_task_seed"])
    if wrong:  # one target colour replaced by a palette colour that is not asked for
        colours[-1] = next(hex_ for _, hex_ in chrome.PALETTE if hex_ not in colours)
    steps = list(OPEN_BROWSER_PAGE)
    for colour, direction in zip(colours, ("right", "down", "left")):
        steps += [("click", chrome.COLOUR_NAMES[colour]), ("swipe", chrome.CANVAS_LABEL, direction)]
    return steps + [("click", "Submit")]


def _typed(text: str) -> str:
    """`text` as `input text` can type it (ASCII): the search ignores accents."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _search_result(title: str) -> Callable[[Any], bool]:
    """The search result whose title is exactly `title`."""
    return lambda e: e.text == title and (e.resource_name or "").endswith(":id/title")


def _find_place(location: str, wrong: bool) -> list[tuple]:
    """Search `location` and open its context menu; `wrong` picks a point 0.002° further north
    (coordinates) or the next place of the list (names)."""
    if location in osmand.PLACES:
        names = sorted(osmand.PLACES)
        chosen = names[(names.index(location) + 1) % len(names)] if wrong else location
        return [("click", "map_search_button"), ("type", "searchEditText", _typed(chosen)),
                ("click", _search_result(osmand.short_name(chosen)))]
    lat, lon = osmand.location_coords(location)
    lat += 0.002 if wrong else 0
    return [("click", "map_search_button"), ("type", "searchEditText", f"{lat}, {lon}"),
            ("click", _search_result(osmand.format_coords(lat, lon)))]


def osmand_favorite(p: dict[str, Any], wrong: bool) -> list[tuple]:
    return [("open", "osmand"), *_find_place(p["location"], wrong), ("click", "context_menu_fav_text_view"),
            ("click", "right_bottom_button")]


def osmand_marker(p: dict[str, Any], wrong: bool) -> list[tuple]:
    return [("open", "osmand"), *_find_place(p["location"], wrong), ("click", "context_menu_route_text_view")]


def osmand_track(p: dict[str, Any], wrong: bool) -> list[tuple]:
    waypoints = list(p["waypoints"])
    if wrong:
        waypoints[0], waypoints[1] = waypoints[1], waypoints[0]
    steps = [("open", "osmand"), ("click", "map_menu_button"), ("click", "Plan a route")]
    for name in waypoints:
        steps += [("click", "map_search_button"), ("type", "searchEditText", _typed(name)),
                  ("click", _search_result(osmand.short_name(name))), ("click", "add_point_button")]
    return steps + [("click", "save_button"), ("retype", "file_name_edit", _typed(p["track_name"])), ("click", "Save")]


CASES: dict[str, Steps] = {
    "OpenAppTaskEval": open_app,
    "ExpenseAddSingle": expense_add, "ExpenseDeleteSingle": expense_delete,
    "MarkorCreateNote": markor_create, "MarkorDeleteNote": markor_delete, "MarkorDeleteNewestNote": markor_delete_newest,
    "SimpleCalendarAddOneEvent": calendar_add, "SimpleCalendarDeleteOneEvent": calendar_delete,
    "FilesDeleteFile": files_delete, "IrTasksNoteOfTask": tasks_note, "NotesIsTodo": joplin_todo,
    "SportsTrackerActivityDuration": tracks_duration,
    "ClockTimerEntry": clock_timer, "ClockStopWatchRunning": clock_stopwatch_running,
    "ClockStopWatchPausedVerify": clock_stopwatch_paused, "ContactsNewContactDraft": contacts_draft,
    "AudioRecorderRecordAudio": audio_record, "AudioRecorderRecordAudioWithFileName": audio_record_named,
    "SimpleDrawProCreateDrawing": draw_save, "SaveCopyOfReceiptTaskEval": gallery_copy,
    "MarkorTranscribeReceipt": markor_receipt, "ExpenseAddMultipleFromGallery": expense_from_gallery,
    "RetroCreatePlaylist": retro_playlist, "RetroPlayingQueue": retro_queue, "RetroSavePlaylist": retro_save,
    "RetroPlaylistDuration": retro_duration, "VlcCreatePlaylist": vlc_playlist,
    "VlcCreateTwoPlaylists": vlc_two_playlists, "MarkorTranscribeVideo": markor_video,
    "BrowserMaze": browser_maze, "BrowserMultiply": browser_multiply, "BrowserDraw": browser_draw,
    "OsmAndFavorite": osmand_favorite, "OsmAndMarker": osmand_marker, "OsmAndTrack": osmand_track,
}


class _HostTimeWatch(GuiScript):
    """A GUI script that, before each step (so after the one before), lists every file and folder
    of the device whose time stamp is the host's wall clock, not the device's."""

    def __init__(self, steps, device) -> None:
        super().__init__(steps)
        self.device, self.leaks = device, set()

    def step(self, observation):
        host_now = time.time()
        root = self.device.state.fs_root
        self.leaks |= {str(path.relative_to(root)) for path in [root, *root.rglob("*")]
                       if abs(path.lstat().st_mtime - host_now) < 2 * 86400}
        return super().step(observation)


@pytest.mark.parametrize("task", sorted(CASES))
def test_gui_reference_solution_scores_one_and_near_misses_less(device, task: str) -> None:
    loading.load_builtin()
    env, steps = Env(device), CASES[task]
    for seed_index in range(3):
        instance = suite.instantiate(registry.get(task), 30, seed_index)
        params = instance.create().params
        script = _HostTimeWatch(steps(params, False), device)
        result = run_episode(env, instance, script, 30)
        assert result.error is None and result.score == 1.0, result
        assert sorted(script.leaks) == []  # everything the screens wrote carries the device's time
        for near_miss in (steps(params, True), steps(params, False)[:-1]):
            missed = run_episode(env, instance, GuiScript(near_miss), 30)
            assert missed.error is None and missed.score < 1.0, (near_miss, missed)


def test_a_calendar_insert_intent_opens_a_filled_in_event(device) -> None:
    from tests.sim.gui.helpers import find, tap, texts

    begin_ms = 1697985000000  # October 22 2023 14:30 UTC
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/event "
                 f"--es title Standup --es eventLocation 'Room 4' --el beginTime {begin_ms} --el endTime {begin_ms + 1800000}")
    shown = texts(device)
    assert {"Standup", "Room 4", "October 22 2023", "14:30", "15:00"} <= set(shown), shown
    assert find(device, "event_title").is_focused
    tap(device, "save")
    rows = device.check("sqlite3 /data/data/com.simplemobiletools.calendar.pro/databases/events.db "
                        "'SELECT title, location, start_ts, end_ts FROM events'")
    assert rows == f"Standup|Room 4|{begin_ms // 1000}|{begin_ms // 1000 + 1800}\n"


def test_markors_list_shows_each_notes_last_change(device) -> None:
    """The second line of a row is the file's change time in the device's zone, date then time."""
    from datetime import datetime, timezone

    from taskkit.apps import markor
    from tests.sim.gui.helpers import find

    markor.create_note(device, "groceries.md", "- milk\n")
    markor.set_changed(device, "groceries.md", datetime(2023, 10, 14, 12, 30, tzinfo=timezone.utc))
    device.check("am start -n net.gsantner.markor/.activity.MainActivity")
    row = find(device, "groceries.md")
    line = find(device, lambda e: (e.resource_name or "").endswith(":id/opoc_filesystem_item__description")
                and e.bbox.y_min >= row.bbox.y_min - 200 and e.bbox.y_max <= row.bbox.y_max + 200)
    assert line.text == "10/14/23, 12:30"
    device.check("setprop persist.sys.timezone America/New_York")
    line = find(device, lambda e: (e.resource_name or "").endswith(":id/opoc_filesystem_item__description"))
    assert line.text == "10/14/23, 08:30"
