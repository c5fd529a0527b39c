"""Android's date and time pickers (taskkit/sim/gui/pickers.py) as Simple Calendar Pro opens
them, and the calendar's first screen: the dump names what Android 13 names, taps move the
pickers as the real ones move, and OK writes what was picked into the event."""
from __future__ import annotations

import re
import sqlite3

from taskkit.apps import calendar
from taskkit.gui_reference import description, resource_id, text
from taskkit.rng import TaskRng
from taskkit.sim.gui import pickers
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from tests.sim.gui.helpers import find, labels, tap, texts

MAIN = "am start -n com.simplemobiletools.calendar.pro/.activities.MainActivity"
A = "android:id/"


def _ids(device) -> set[str]:
    """Every resource id of the dump (containers too)."""
    return set(re.findall(r'resource-id="([^"]+)"', device.check("uiautomator dump /dev/tty")))


def _new_event(device) -> None:
    device.check(MAIN)
    tap(device, "calendar_fab")
    tap(device, "fab_event_label")


def _start_end(device) -> tuple[int, int]:
    with sqlite3.connect(device.state.host_path(calendar.DB_PATH)) as con:
        return con.execute("SELECT start_ts, end_ts FROM events").fetchone()


def test_tapping_an_events_start_date_shows_androids_date_picker(device) -> None:
    _new_event(device)
    tap(device, "event_start_date")
    dump = device.check("uiautomator dump /dev/tty")
    assert f'resource-id="{A}datePicker"' in dump and 'class="android.widget.DatePicker"' in dump
    assert {f"{A}date_picker_header_year", f"{A}date_picker_header_date", f"{A}day_picker_view_pager", f"{A}prev",
            f"{A}next", f"{A}button1", f"{A}button2"} <= _ids(device)
    assert find(device, "date_picker_header_date").text == "Sun, Oct 15"
    assert find(device, "date_picker_header_year").text == "2023"
    day = find(device, description("05 October 2023"))  # SimpleMonthView's "dd MMMM yyyy"
    assert day.text == "5" and not day.is_checked and find(device, description("15 October 2023")).is_checked
    assert "alertTitle" not in dump  # DatePickerDialog has no title in the Material theme


def test_the_date_picker_moves_by_month_and_ok_moves_the_event_keeping_its_length(device) -> None:
    _new_event(device)
    tap(device, "event_start_date")
    tap(device, "Next month")
    tap(device, "Next month")
    assert find(device, description("01 December 2023")).text == "1"
    assert not [e for e in device.ui.screen().elements if (e.content_description or "").endswith("October 2023")]
    tap(device, "Previous month")
    tap(device, description("21 November 2023"))
    assert find(device, "date_picker_header_date").text == "Tue, Nov 21"
    tap(device, "OK")
    assert {"November 21 2023", "16:00", "17:00"} <= set(texts(device))
    tap(device, "event_start_date")
    tap(device, description("22 November 2023"))
    tap(device, "Cancel")  # Cancel keeps the date
    tap(device, "event_title")
    device.check("input text Dentist")
    tap(device, "save")
    start, end = _start_end(device)
    assert (start, end - start) == (1700582400, 3600)  # November 21 2023 16:00 UTC, an hour


def test_the_year_header_opens_the_year_list_and_a_year_picks_it(device) -> None:
    _new_event(device)
    tap(device, "event_start_date")
    tap(device, "date_picker_header_year")
    assert 'resource-id="android:id/date_picker_year_picker" class="android.widget.ListView"' in device.check(
        "uiautomator dump /dev/tty") and "2023" in texts(device)
    assert f"{A}day_picker_view_pager" not in _ids(device)
    tap(device, text("2025"))
    assert find(device, "date_picker_header_date").text == "Wed, Oct 15"
    assert find(device, description("15 October 2025")).is_checked


def test_the_time_picker_is_material_in_clock_mode_and_an_hour_turns_the_face_to_minutes(device) -> None:
    _new_event(device)
    tap(device, "event_start_time")
    package = "com.simplemobiletools.calendar.pro:id/"
    assert {f"{package}header_title", f"{package}material_hour_tv", f"{package}material_minute_tv",
            f"{package}material_clock_face", f"{package}material_timepicker_mode_button",
            f"{package}material_timepicker_ok_button", f"{package}material_timepicker_cancel_button"} <= _ids(device)
    assert "Select time" in texts(device)
    assert not _ids(device) & {f"{package}material_clock_period_am_button"}  # the device is on 24-hour time
    tap(device, description("9 hours"))
    assert find(device, description("45 minutes")).text == "45"
    assert find(device, "material_hour_tv").text == "9"
    tap(device, description("45 minutes"))
    tap(device, "OK")
    assert {"09:45", "10:45"} <= set(texts(device))  # the end keeps the hour's length


def test_the_keyboard_toggle_types_the_time(device) -> None:
    _new_event(device)
    tap(device, "event_end_time")
    tap(device, description(pickers.TOGGLE_TO_KEYBOARD))
    assert {"Hour", "Minute"} <= set(texts(device))
    assert find(device, description(pickers.TOGGLE_TO_CLOCK))
    fields = [e for e in device.ui.screen().elements if e.is_editable]
    assert [f.text for f in fields] == ["17", "00"]
    x, y = fields[1].bbox.center
    device.check(f"input tap {x} {y}")
    device.check("input keycombination 113 29")
    device.check("input keyevent 67")
    device.check("input text 70")  # not a minute: OK keeps the dialog open
    tap(device, "OK")
    assert "Select time" in texts(device)
    device.check("input keyevent 67")
    device.check("input keyevent 67")
    device.check("input text 25")
    tap(device, "OK")
    assert {"16:00", "17:25"} <= set(texts(device))


def test_a_12_hour_device_gets_am_and_pm(device) -> None:
    device.check("settings put system time_12_24 12")
    _new_event(device)
    tap(device, "event_start_time")
    assert find(device, "material_hour_tv").text == "4" and find(device, "material_hour_tv").content_description == "4 o'clock"
    assert find(device, "material_clock_period_pm_button").is_checked
    tap(device, "material_clock_period_am_button")
    tap(device, description("11 o'clock"))
    tap(device, "OK")
    assert "11:00" in texts(device)


def _aosp_time(device) -> tuple[Session, Frame, list[tuple[int, int]]]:
    """A session, the frame of a TimePickerDialog opened on 16:05, and the times its OK hands back."""
    return Session(device.state), Frame(990, "time", pickers.time_args(16, 5), ""), []


def _nodes(ui: Session, frame: Frame, chosen: list[tuple[int, int]], h24: bool) -> list[Node]:
    [panel] = pickers.time_dialog(ui, frame, lambda s, h, m: chosen.append((h, m)), pickers.ANDROID, h24=h24)
    return panel.walk()


def _node(nodes: list[Node], **match: str) -> Node:
    found = [n for n in nodes if all(getattr(n, k) == v for k, v in match.items())]
    assert found, match
    return found[-1]


def test_androids_time_picker_dialog_names_its_parts_as_aosp_does(device) -> None:
    ui, frame, chosen = _aosp_time(device)
    nodes = _nodes(ui, frame, chosen, False)
    assert {f"{A}hours", f"{A}minutes", f"{A}am_label", f"{A}pm_label", f"{A}radial_picker", f"{A}toggle_mode",
            f"{A}button1", f"{A}button2"} <= {n.resource_id for n in nodes}
    assert _node(nodes, resource_id=f"{A}hours").text == "4" and _node(nodes, resource_id=f"{A}pm_label").checked
    face = _node(nodes, resource_id=f"{A}radial_picker").children
    assert [n.content_desc for n in face] == ["12", *map(str, range(1, 12))]  # the numbers, described by value
    _node(nodes, content_desc="9").action(ui)  # an hour: the face turns to the minutes
    nodes = _nodes(ui, frame, chosen, False)
    assert [n.content_desc for n in _node(nodes, resource_id=f"{A}radial_picker").children] == [str(m) for m in range(0, 60, 5)]
    _node(nodes, content_desc="30").action(ui)
    _node(_nodes(ui, frame, chosen, False), resource_id=f"{A}button1").action(ui)
    assert chosen == [(21, 30)]  # 9 PM


def test_androids_keyboard_mode_has_input_hour_and_minute(device) -> None:
    ui, frame, chosen = _aosp_time(device)
    _node(_nodes(ui, frame, chosen, True), resource_id=f"{A}toggle_mode").action(ui)
    nodes = _nodes(ui, frame, chosen, True)
    assert _node(nodes, resource_id=f"{A}top_label").text == "Type in time"
    assert (_node(nodes, resource_id=f"{A}input_hour").shown_text, _node(nodes, resource_id=f"{A}input_minute").shown_text) == ("16", "05")
    assert _node(nodes, resource_id=f"{A}toggle_mode").content_desc == pickers.TOGGLE_TO_CLOCK
    ui.set_draft(frame, "in_hour", "7")
    _node(_nodes(ui, frame, chosen, True), resource_id=f"{A}button1").action(ui)
    assert chosen == [(7, 5)]


def _events_on(device, *days: int) -> None:
    events = [calendar.random_event(TaskRng(day), day=day, hour=10, title=f"Event {day}") for day in days]
    calendar.EVENTS.insert(device, events)


def test_the_calendar_opens_on_its_month_view_and_a_cell_opens_its_day(device) -> None:
    _events_on(device, 20)
    device.check(MAIN)
    assert find(device, "top_value").text == "October"
    cells = [e for e in device.ui.screen().elements if (e.resource_name or "").endswith(":id/month_view_background")]
    assert len(cells) == 42 and all(c.is_clickable and not c.text for c in cells)
    assert "go_to_today" not in " ".join(labels(device))
    # October 1 2023 is a Sunday: MonthlyCalendarImpl starts the grid a week before; the 20th is
    # the Friday of the fourth row.
    x, y = cells[3 * 7 + 5].bbox.center
    device.check(f"input tap {x} {y}")
    assert find(device, "top_value").text == "October 20 (Fri)" and "Event 20" in texts(device)
    device.check("input keyevent KEYCODE_BACK")
    assert find(device, "top_value").text == "October"
    tap(device, "top_right_arrow")
    assert find(device, "top_value").text == "November" and find(device, "go_to_today")
    tap(device, "go_to_today")
    assert find(device, "top_value").text == "October"


def test_the_overflow_menu_and_change_view_are_complete(device) -> None:
    device.check(MAIN)
    tap(device, "More options")
    # on the current month Go to today is hidden, so Settings (ifRoom) takes its place on the bar
    assert texts(device) == ["Go to date", "Print", "Add holidays", "Add contact birthdays", "Add contact anniversaries",
                             "Import events from an .ics file", "Export events to an .ics file", "About"]
    device.check("input keyevent KEYCODE_BACK")
    tap(device, "change_view")
    assert [e.text for e in device.ui.screen().elements if e.is_checkable] == [
        "Daily view", "Weekly view", "Monthly view", "Monthly and daily view", "Yearly view", "Simple event list"]
    assert find(device, text("Monthly view")).is_checked
    tap(device, "Simple event list")
    assert "calendar_events_list" in " ".join(_ids(device)) or "No upcoming events" in texts(device)
    tap(device, "More options")
    assert "Go to date" not in texts(device)  # not on the event list


def test_go_to_date_is_a_spinner_without_day_on_the_month_view(device) -> None:
    device.check(MAIN)
    tap(device, "top_value")
    dump = device.check("uiautomator dump /dev/tty")
    wheels = re.findall(r'resource-id="([^"]+)" class="android.widget.NumberPicker"', dump)
    assert wheels == [f"{A}month", f"{A}year"]
    assert 'resource-id="com.simplemobiletools.calendar.pro:id/date_picker" class="android.widget.DatePicker"' in dump
    tap(device, text("Nov"))  # the next value, below the wheel's field
    assert find(device, resource_id("numberpicker_input") & text("Nov"))
    tap(device, "OK")
    assert find(device, "top_value").text == "November"


def test_go_to_date_in_the_daily_view_takes_a_typed_day_and_refuses_a_wrong_one(device) -> None:
    _events_on(device, 7)
    device.check(MAIN)
    tap(device, "change_view")
    tap(device, "Daily view")
    tap(device, "top_value")
    field = resource_id("numberpicker_input") & text("15")
    x, y = find(device, field).bbox.center
    device.check(f"input tap {x} {y}")
    device.check("input text 32")  # not a day of October: the wheel keeps 15
    tap(device, "OK")
    assert find(device, "top_value").text == "October 15 (Sun)"
    tap(device, "top_value")
    x, y = find(device, field).bbox.center
    device.check(f"input tap {x} {y}")
    device.check("input text 7")
    tap(device, "OK")
    assert find(device, "top_value").text == "October 7 (Sat)" and "Event 7" in texts(device)
