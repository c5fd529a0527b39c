"""Simple Calendar Pro: the month view it opens on, the daily view and the event list (Change
view), the search, the event screen (title, location, description, start and end date and time,
repetition; save, delete) and its dialogs, over `events.db`.

Ids and labels follow SimpleMobileTools/Simple-Calendar (app/src/main/res/layout/
activity_event.xml: `event_nested_scrollview`, `event_title` "Title", `event_location` "Location",
`event_description` "Description", `event_all_day` "All-day", `event_start_date`, `event_start_time`,
`event_end_date`, `event_end_time`, `event_repetition` ("No repetition", "Daily", "Weekly",
"Monthly", "Yearly": Context.getRepetitionText), `event_repetition_rule_label` "Repeat on" with
`event_repetition_rule`, `event_repetition_limit_label` "Repeat" with `event_repetition_limit`
"Forever"; fragment_month.xml `month_calendar_holder`, `month_view_wrapper` (MonthViewWrapper:
a `month_view_background` view per cell, 7 × 6, under the painted `month_view`);
fragment_event_list.xml `calendar_events_list`; event_list_item.xml `event_item_holder`,
`event_item_title`, `event_item_time`; event_list_section_day.xml `event_section_title`;
activity_main.xml `main_menu`, `calendar_fab` "New Event", `fab_extended_overlay`,
`fab_event_label` "Event", `fab_task_icon`, `fab_task_label` "Task", `search_results_list`,
`search_placeholder` "No items found.", `search_placeholder_2`; Simple-Commons' menu_search.xml
`top_toolbar_search` "Search"; menu_main.xml `go_to_today` "Go to today", `change_view` "Change
view", then in the overflow "Go to date", "Print", "Add holidays", "Add contact birthdays", "Add
contact anniversaries", "Import events from an .ics file", "Export events to an .ics file",
"Settings", "About" (MainActivity.refreshMenuItems: no "Filter events by type" with one event
type, no CalDAV refresh while CalDAV sync is off, no "More apps from us" in the F-Droid build
AndroidWorld installs, no "Go to date" on the list, no "Print" on the monthly and daily view);
fragment_day.xml `day_events` under top_navigation.xml's `top_left_arrow`, `top_value`,
`top_right_arrow`; cab_day.xml `cab_delete` "Delete"; dialog_delete_event.xml
`delete_event_description`; the event menu's `save` and `delete`).

The month view (Config.storedView's default MONTHLY_VIEW) shows the month's name ("October",
with the year when it is not this year: MonthlyCalendarImpl.monthName) between the previous and
next month arrows over 42 cells from the week holding the 1st (Sunday first in en-US; a month
starting on a Sunday starts on the row below, as MonthlyCalendarImpl.getDays counts); a tap on a
cell opens that day's daily view on top (MainActivity.openDayFromMonthly; BACK returns), a tap
on the month name is "Go to date". Go to date is an AlertDialog holding the app's spinner
DatePicker `date_picker` (date_picker_light.xml: datePickerMode spinner), without its day
wheel on the month view (MonthFragmentsHolder.showGoToDateDialog). The event screen's dates
and times open Android's DatePickerDialog and, with the system theme Simple-Commons uses on
Android 12+ (BaseConfig.isUsingSystemTheme, getDatePickerDialogTheme), Material Components'
MaterialTimePicker in clock mode (EventActivity.setupStartTime: `setInputMode(INPUT_MODE_CLOCK)`,
24-hour per the device: BaseConfig.use24HourFormat): taskkit/sim/gui/pickers.py. The first tap
on the FAB unfolds Event and Task (allowCreatingTasks is on by default); the second, or Event,
opens a new event.

Saving writes the `events` row as the app's EventsDao does (start and end in epoch seconds,
the regular event type, `source` "simple-calendar", `last_updated` at the device clock); a new
event starts at the next full hour and lasts an hour; moving the start keeps the duration, as
the app does. Choosing "Weekly" repeats on the start's weekday (`repeat_rule` its bit, moved
with the start while it is a single day: EventActivity.setRepeatInterval / checkRepeatRule),
"Monthly" and "Yearly" on the same day (`repeat_rule` 1), forever (`repeat_limit` 0). Delete
asks first, then deletes the row.

The event list starts at the events that end after the device time less a day (the app's
"display past events" default, EventListFragment.checkEvents); the earlier ones are above,
reached by scrolling up (the app fetches them when the list hits its top). "Change view"
(MainActivity.showViewDialog) switches to the daily view: the day's events (those overlapping
it, DayFragment.updateCalendar), its date ("October 28 (Sat)", Formatter.getDayTitle) between
the previous and next day arrows; a tap on the date is "Go to date" (a date dialog). A long
press on a day's event starts a selection (a tap adds or drops an event; the bar's "1 / 3",
Simple-Commons' `actionbar_title`, selects all when tapped: MyRecyclerViewAdapter), whose
Delete asks "Are you sure you want to proceed with the deletion?" (DeleteEventDialog).
Typing in the search field (two characters or more) shows the events whose title, location or
description holds the text (EventsDao's LIKE), by day, opened at the first day not past; the
earlier ones are above.

The month view's canvas (MonthView.onDraw) is painted in screenshots only, as the dump has no
node for it (the cells are empty views): the weekday letters (today's in the primary colour),
the day numbers (other months' at half alpha, today's white on a primary circle), and each
event as a bar in its type's colour (the regular type's is the primary colour) with its title,
stacked under the day's number, spanning its days within a week, past ones dimmed
(dimPastEvents), "..." when the cell is full.

Simplified: a long title is cut with an ellipsis (the app cuts it without one); the grid lines
and week numbers (off by default) are not drawn; the weekly, monthly-and-daily and yearly views are
offered but not modeled; the chosen view lasts while the app's screens do (the app stores it)
and a view opens on today; the overflow's other items, Task and the FAB's task icon close their
menu and do nothing; repeating events are listed once, at their first start; BACK does not
close the search first; no custom repetition or repetition limits, attendees or time zones on the
screen (their columns keep the app's defaults). The All-day, reminder, event type and colour rows
are calendar_rows.py's.

Pinned: AndroidWorld installs com.simplemobiletools.calendar.pro_238.apk; this model follows
SimpleMobileTools/Simple-Calendar 6.22.2 (versionCode 238) with Simple-Commons 71d66584bd, the
commit its app/build.gradle pins.
"""
from __future__ import annotations

import dataclasses
import functools

from datetime import date, datetime, timezone
from typing import Any, Callable

from taskkit.apps.calendar import DB_PATH, DEFAULTS, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, pickers, searchmenu, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.apps import calendar_rows
from taskkit.sim.gui.node import Action, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source, simple_commons

SOURCE = Source("SimpleMobileTools/Simple-Calendar", "6.22.2", 238, (simple_commons("71d66584bd"),))
ID = f"{PACKAGE}:id/"
EVENT = ".activities.EventActivity"
DAY = 86400
_TEXT_FIELDS = (widgets.Field("title", "Title", f"{ID}event_title"),
                widgets.Field("location", "Location", f"{ID}event_location"),
                widgets.Field("description", "Description", f"{ID}event_description", single_line=False, height_dp=80))
# repeat_interval seconds and their labels (Constants.kt DAY, WEEK, MONTH, YEAR; getRepetitionText)
REPETITIONS = ((0, "No repetition"), (86400, "Daily"), (604800, "Weekly"), (2592001, "Monthly"), (31536000, "Yearly"))
WEEKLY, MONTHLY, YEARLY, REPEAT_SAME_DAY = 604800, 2592001, 31536000, 1
_WEEKDAYS = ((1, "Mon"), (2, "Tue"), (4, "Wed"), (8, "Thu"), (16, "Fri"), (32, "Sat"), (64, "Sun"))
# MainActivity.showViewDialog, in its order (the daily, monthly and list views are modeled)
_VIEWS = (("Daily view", "day"), ("Weekly view", "week"), ("Monthly view", "month"),
          ("Monthly and daily view", "month_day"), ("Yearly view", "year"), ("Simple event list", "list"))
# the overflow's items after Go to date and Print (menu_main.xml, as refreshMenuItems leaves them)
_OVERFLOW = ("Add holidays", "Add contact birthdays", "Add contact anniversaries", "Import events from an .ics file",
             "Export events to an .ics file", "Settings", "About")
PRIMARY = (0xF5, 0x7C, 0x00)  # Simple-Commons' color_primary
PAST_SHOWN = DAY  # the list's "display past events" default (Config.displayPastEvents: a day)


# --- dates and times --------------------------------------------------------------------------
def _utc(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def show_date(seconds: int) -> str:
    return _utc(seconds).strftime("%B %d %Y")


def show_time(seconds: int) -> str:
    return _utc(seconds).strftime("%H:%M")


def day_title(day: int, now: int) -> str:
    """The daily view's date, "October 28 (Sat)" (with the year when it is not the device's)."""
    when = _utc(day)
    year = f" {when.year}" if when.year != _utc(now).year else ""
    return f"{when:%B} {when.day}{year} ({when:%a})"


def _weekday_bit(seconds: int) -> int:
    return 1 << _utc(seconds).weekday()  # Monday 1 … Sunday 64, as 2^(dayOfWeek - 1)


# --- data ---------------------------------------------------------------------------------------
def events(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} ORDER BY start_ts, {KEY}")


def _on_day(ui: Session, day: int) -> list[dict[str, Any]]:
    """The events the daily view shows: those overlapping the day (EventsDao's start <= end of
    day AND end >= start of day), by start, end and title as DayFragment sorts them."""
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE start_ts <= ? AND end_ts >= ?",
                         [day + DAY - 1, day])
    return sorted(found, key=lambda e: (int(e["start_ts"]), int(e["end_ts"]), str(e["title"]), int(e[KEY])))


def _stored(ui: Session, event_id: int) -> dict[str, Any] | None:
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE {KEY} = ?", [event_id])
    return found[0] if found else None


def _times(ui: Session, frame: Frame) -> tuple[int, int]:
    """The event screen's start and end (a new event: the next full hour, for an hour)."""
    start = int(ui.draft(frame, "start") or (ui.state.clock_epoch // 3600 + 1) * 3600)
    return start, int(ui.draft(frame, "end") or start + 3600)


def open_event(event_id: int | None, duplicate: bool = False):
    """The action that opens the event screen: a stored event, a new one, or (`duplicate`) a new
    one filled in from a stored one."""
    def act(ui: Session) -> None:
        ui.push("event", focus="title" if event_id is None else None,
                **({} if event_id is None or duplicate else {"event": event_id}))
        _, _, frame = ui.top()
        assert frame is not None
        row = _stored(ui, event_id) if event_id is not None else None
        if row is None:
            start = (ui.state.clock_epoch // 3600 + 1) * 3600
            row = {"title": "", "location": "", "description": "", "start_ts": start, "end_ts": start + 3600,
                   "repeat_interval": 0, "repeat_rule": 0}
        for name in ("title", "location", "description"):
            ui.set_draft(frame, name, str(row[name] or ""))
        for name, column in (("start", "start_ts"), ("end", "end_ts"), ("repeat", "repeat_interval"),
                             ("rule", "repeat_rule")):
            ui.set_draft(frame, name, str(int(row[column] or 0)))
        if event_id is not None:  # EventActivity.setupEditEvent (a new event keeps calendar_rows.NEW_EVENT)
            ui.set_draft(frame, "all_day", str(int(row["flags"]) & calendar_rows.FLAG_ALL_DAY))
            for name, column in (("reminder_1", "reminder_1_minutes"), ("reminder_2", "reminder_2_minutes"),
                                 ("reminder_3", "reminder_3_minutes"), ("event_type", "event_type"), ("color", "color")):
                ui.set_draft(frame, name, str(int(row[column])))
    return act


def _save(frame: Frame):
    def act(ui: Session) -> None:
        title = ui.draft(frame, "title").strip()
        if not title:
            return  # the app asks for a title first
        start, end = _times(ui, frame)
        all_day = calendar_rows.number(ui, frame, "all_day") == 1
        if all_day:  # getStartEndTimes: the first day's start to noon of the last
            start, end = start - start % DAY, end - end % DAY + DAY // 2
        repeat = int(ui.draft(frame, "repeat") or 0)
        number = lambda name: calendar_rows.number(ui, frame, name)  # noqa: E731
        values = {"title": title, "location": ui.draft(frame, "location").strip(),
                  "description": ui.draft(frame, "description").strip(), "start_ts": start, "end_ts": max(start, end),
                  "repeat_interval": repeat, "repeat_rule": int(ui.draft(frame, "rule") or 0), "repeat_limit": 0,
                  "reminder_1_minutes": number("reminder_1"), "reminder_2_minutes": number("reminder_2"),
                  "reminder_3_minutes": number("reminder_3"), "event_type": number("event_type"), "color": number("color"),
                  "last_updated": appdata.now_ms(ui)}
        event_id = frame.args.get("event")
        stored = _stored(ui, int(event_id)) if event_id is not None else None
        flags = int(stored["flags"]) if stored else 0
        values["flags"] = flags | calendar_rows.FLAG_ALL_DAY if all_day else flags & ~calendar_rows.FLAG_ALL_DAY
        if event_id is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(event_id), values)
        else:
            appdata.insert(ui, DB_PATH, TABLE, {**DEFAULTS, "source": "simple-calendar", **values})
        ui.finish()
    return act


def _delete(event_ids: list[int], screens: int):
    """Yes: delete the events, close the dialog and the `screens` under it (the event screen, a selection)."""
    def act(ui: Session) -> None:
        for event_id in event_ids:
            appdata.delete(ui, DB_PATH, TABLE, KEY, event_id)
        for _ in range(1 + screens):
            ui.finish()
    return act


def _move(dialog: Frame, change: Callable[[datetime], datetime]) -> Callable[[Session], None]:
    """A picker's result: the event screen's start or end (`dialog.args["which"]`) changed; a new
    start keeps the duration (EventActivity.dateSet / timeSet) and moves a weekly rule's one day."""
    parent, which = int(dialog.args["parent"]), str(dialog.args["which"])

    def act(ui: Session) -> None:
        drafts = ui.store.data["drafts"]
        start, end = _times(ui, Frame(parent, "event", {}, ""))
        seconds = int(change(_utc(start if which == "start" else end)).timestamp())
        if which == "start":
            drafts[f"{parent}:start"], drafts[f"{parent}:end"] = str(seconds), str(seconds + (end - start))
            rule = int(drafts.get(f"{parent}:rule") or 0)
            if int(drafts.get(f"{parent}:repeat") or 0) == WEEKLY and rule in dict(_WEEKDAYS):
                drafts[f"{parent}:rule"] = str(_weekday_bit(seconds))  # checkRepeatRule: the one day moves along
        else:
            drafts[f"{parent}:end"] = str(seconds)
    return act


# --- the main screen: the month view, the daily view, the event list --------------------------
def _today(ui: Session) -> int:
    return ui.state.clock_epoch - ui.state.clock_epoch % DAY


def _shown_day(ui: Session, frame: Frame) -> int:
    return int(ui.draft(frame, "day") or frame.args.get("day") or _today(ui))


def _shown_month(ui: Session, frame: Frame) -> tuple[int, int]:
    """The month view's (year, month): this month until the arrows or Go to date move it."""
    shown = ui.draft(frame, "month")
    if shown:
        year, month = shown.split("-")
        return int(year), int(month)
    today = _utc(_today(ui))
    return today.year, today.month


def _month_title(year: int, month: int, now: int) -> str:
    """MonthlyCalendarImpl.monthName: "October", with the year when it is not this one."""
    name = datetime(year, month, 1).strftime("%B")
    return name if year == _utc(now).year else f"{name} {year}"


def _grid_days(year: int, month: int, sunday_first: bool = True) -> list[date]:
    """The month view's 42 days (MonthlyCalendarImpl.getDays: Joda's dayOfWeek of the 1st, less
    one when Monday is first, days of the month before)."""
    first = date(year, month, 1)
    index = first.isoweekday() - (0 if sunday_first else 1)
    return [date.fromordinal(first.toordinal() - index + i) for i in range(42)]


def _event_row(ui: Session, event: dict[str, Any], action: Any = None, long_action: Any = None,
               selected: bool = False) -> widgets.Row:
    """event_list_item.xml: the colour bar `event_item_color_bar` (the event's colour, else its
    type's), the title, the time and, when the event has one, its description on one line
    (DayEventsAdapter.setupView: displayDescription is on by default); `event_item_task_image`
    shows for tasks only, which the simulator does not make."""
    m = ui.m
    start, end = int(event["start_ts"]), int(event["end_ts"])
    description = str(event.get("description") or "").replace("\n", " ")

    def build(box: tuple[int, int, int, int]) -> Node:
        x1, y1, x2, y2 = box
        bar = (x1 + m.dp(16), y1 + m.dp(10), x1 + m.dp(32), y2 - m.dp(10))
        texts = (x1 + m.dp(40), x2 - m.dp(32))
        lines = [(str(event["title"]), "event_item_title", 18), (f"{show_time(start)} - {show_time(end)}", "event_item_time", 14)]
        lines += [(description, "event_item_description", 14)] if description else []
        step = (bar[3] - bar[1]) // len(lines)
        children = [Node("android.widget.ImageView", resource_id=f"{ID}event_item_color_bar", bounds=bar,
                         background=_event_colour(ui, event))]
        children += [Node(widgets.TEXT_VIEW, text=value, resource_id=f"{ID}{rid}", text_size=m.dp(size),
                          bounds=(texts[0], bar[1] + i * step, texts[1], bar[1] + (i + 1) * step))
                     for i, (value, rid, size) in enumerate(lines)]
        return Node("android.widget.FrameLayout", resource_id=f"{ID}event_item_holder", bounds=box,
                     clickable=True, long_clickable=long_action is not None, focusable=True,
                     action=action or open_event(int(event[KEY])), long_action=long_action, selected=selected,
                     children=children)
    return widgets.Row(m.dp(80), build)


def _event_colour(ui: Session, event: dict[str, Any]) -> tuple[int, int, int]:
    """EventsHelper.getEventsSync: the event's colour, else its type's, else the primary colour."""
    colour = int(event.get("color") or 0)
    if not colour:
        kind = next((t for t in calendar_rows.event_types(ui) if int(t["id"]) == int(event.get("event_type") or 1)), None)
        colour = int(kind["color"]) if kind else 0
    return calendar_rows.argb_rgb(colour) if colour else PRIMARY


def _sectioned(ui: Session, found: list[dict[str, Any]],
               shown: Callable[[dict[str, Any]], bool]) -> tuple[list[widgets.Row], int | None]:
    """Event rows under their day's header (event_list_section_day), and the offset of the
    header of the first event `shown` (where the list opens; None: no such event)."""
    m = ui.m
    rows: list[widgets.Row] = []
    day, first, height, section = None, None, 0, 0
    for event in found:
        start = int(event["start_ts"])
        if _utc(start).date() != day:
            day = _utc(start).date()
            label = _utc(start).strftime("%A, %B ") + str(day.day)
            rows.append(widgets.Row(m.dp(48), lambda b, t=label: widgets.text(ui, (b[0] + m.dp(16), b[1], b[2], b[3]), t,
                                                                             f"{ID}event_section_title")))
            section = height
            height += m.dp(48)
        if first is None and shown(event):
            first = section
        rows.append(_event_row(ui, event))
        height += m.dp(80)
    return rows, first


def _event_list(ui: Session, frame: Frame, top: int) -> Node:
    """The list opens at the day of the first event not yet a day past; earlier ones are above."""
    since = ui.state.clock_epoch - PAST_SHOWN
    rows, first = _sectioned(ui, events(ui), lambda e: int(e["end_ts"]) >= since)
    if ui.scroll(frame, "list") is None and first:
        ui.set_scroll(frame, "list", first)
    return widgets.list_or_empty(ui, frame, top, rows, f"{ID}calendar_events_list", "No upcoming events",
                                 f"{ID}calendar_empty_list_placeholder")


def _search_results(ui: Session, frame: Frame, top: int, query: str) -> Node:
    """search_holder: the events whose title, location or description holds the text (EventsDao's
    LIKE), opened at the first day not past (MainActivity.showSearchResultEvents)."""
    m = ui.m
    box = (m.dp(16), top + m.dp(16), m.width - m.dp(16), top + m.dp(64))
    if len(query) < 2:
        return widgets.text(ui, box, "Type at least 2 characters to start the search.", f"{ID}search_placeholder_2")
    pattern = f"%{query}%"
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE title LIKE ? OR location LIKE ? OR "
                                      f"description LIKE ? ORDER BY start_ts, {KEY}", [pattern] * 3)
    if not found:
        return widgets.text(ui, box, "No items found.", f"{ID}search_placeholder")
    rows, first = _sectioned(ui, found, lambda e: int(e["start_ts"]) >= _today(ui))  # not a past section
    name = f"search:{query}"
    if ui.scroll(frame, name) is None and first:
        ui.set_scroll(frame, name, first)
    return widgets.scroll_list(ui, frame, name, (0, top, m.width, m.content_bottom), rows,
                               rid=f"{ID}search_results_list")


def _top_navigation(ui: Session, top: int, title: str, step: Callable[[int], Action] | None,
                    go_to: Action | None) -> list[Node]:
    """top_navigation.xml: the previous arrow, the title (a tap: Go to date), the next arrow."""
    m = ui.m
    y1, y2 = top, top + m.dp(56)
    return [widgets.icon_button(ui, (0, y1, m.dp(56), y2), "", step(-1) if step else None, f"{ID}top_left_arrow",
                                class_name="android.widget.ImageView"),
            widgets.text(ui, (m.dp(56), y1, m.width - m.dp(56), y2), title, f"{ID}top_value", desc=title, size_dp=18,
                         action=go_to),
            widgets.icon_button(ui, (m.width - m.dp(56), y1, m.width, y2), "", step(1) if step else None,
                                f"{ID}top_right_arrow", class_name="android.widget.ImageView")]


def _go_to_date(frame: Frame, when: date, with_day: bool) -> Action:
    return lambda s: s.push("go_to_date", main=frame.id, with_day=with_day, **pickers.date_args(when))


def _day_view(ui: Session, frame: Frame, top: int, day: int, chosen: list[int] | None = None) -> list[Node]:
    """The daily view from `top`; `chosen`: the events of a selection (a tap adds or drops one)."""
    m = ui.m
    active = chosen is None
    step = (lambda delta: lambda s: s.set_draft(frame, "day", str(day + delta * DAY))) if active else None  # noqa: E731
    nodes = _top_navigation(ui, top, day_title(day, ui.state.clock_epoch), step,
                            _go_to_date(frame, _utc(day).date(), True) if active else None)
    found = _on_day(ui, day)
    if chosen is None:
        rows = [_event_row(ui, e, long_action=lambda s, i=int(e[KEY]): s.push("selection", main=frame.id, day=day,
                                                                               selected=[i])) for e in found]
    else:
        def toggle(event_id: int):
            def act(s: Session) -> None:
                picked = [i for i in chosen if i != event_id] + ([] if event_id in chosen else [event_id])
                if picked:
                    s.replace("selection", main=frame.args["main"], day=day, selected=picked)
                else:
                    s.finish()
            return act
        rows = [_event_row(ui, e, action=toggle(int(e[KEY])), selected=int(e[KEY]) in chosen) for e in found]
    if rows:
        nodes.append(widgets.scroll_list(ui, frame, "day", (0, top + m.dp(56), m.width, m.content_bottom), rows,
                                         rid=f"{ID}day_events"))
    return nodes


def _month_view(ui: Session, frame: Frame, top: int) -> list[Node]:
    """fragment_month.xml: the month's name between its arrows over the 7 × 6 cells; a tap on
    a cell opens its day on top."""
    m = ui.m
    year, month = _shown_month(ui, frame)

    def step(delta: int) -> Action:
        shifted_year, shifted_month = divmod(year * 12 + month - 1 + delta, 12)
        return lambda s: s.set_draft(frame, "month", f"{shifted_year}-{shifted_month + 1}")
    nodes = _top_navigation(ui, top, _month_title(year, month, ui.state.clock_epoch), step,
                            _go_to_date(frame, date(year, month, 1), False))
    box = (0, top + m.dp(56), m.width, m.content_bottom)
    letters = m.dp(28)  # the weekday letters' row (2 × normal_text_size), painted
    width, height = box[2] // 7, (box[3] - box[1] - letters) // 6
    cells = []
    for i, day in enumerate(_grid_days(year, month)):
        row, col = divmod(i, 7)
        seconds = int(datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp())
        cells.append(Node("android.view.View", resource_id=f"{ID}month_view_background", clickable=True, focusable=True,
                          bounds=(col * width, box[1] + letters + row * height, (col + 1) * width,
                                  box[1] + letters + (row + 1) * height),
                          action=lambda s, t=seconds: s.push("day", day=t)))

    def swipe(s: Session, dx: int, dy: int) -> None:
        if abs(dx) > abs(dy):
            step(1 if dx < 0 else -1)(s)
    paint = _month_paint(ui, (year, month), box, letters) if ui.drawing else ()  # (its events' query: drawn only)
    wrapper = Node("android.widget.FrameLayout", resource_id=f"{ID}month_view_wrapper", bounds=box, swipe=swipe,
                   children=[Node("android.view.View", resource_id=f"{ID}month_view", bounds=box, paint=paint), *cells])
    return [Node("android.widget.RelativeLayout", resource_id=f"{ID}month_calendar_holder",
                 bounds=(0, top, m.width, m.content_bottom), children=[*nodes, wrapper])]


def _month_paint(ui: Session, shown: tuple[int, int], box: tuple[int, int, int, int],
                 letters: int) -> tuple[Painted, ...]:
    """What MonthView.onDraw paints (screenshots only): the weekday letters (today's in the
    primary colour), each day's number (other months' at MEDIUM_ALPHA, today's on a primary
    circle), then each event as a bar of its type's colour (the regular type's: the primary
    colour) with its title, spanning its days within a week, under the cell's earlier ones; a
    cell that is full shows "..."; past events dimmed (dimPastEvents)."""
    m = ui.m
    normal, small, pad = m.dp(14), m.dp(12), max(1, m.density // 160)  # normal_ / smaller_text_size, smallPadding
    days = _grid_days(*shown)
    width, height = box[2] // 7, (box[3] - box[1] - letters) // 6
    paint = list(_days_paint(shown, box, letters, normal, _utc(_today(ui)).date()))
    offsets = [2 * normal] * 42  # dayVerticalOffsets below each cell's top
    first = days[0]
    start = int(datetime(first.year, first.month, first.day, tzinfo=timezone.utc).timestamp())
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE start_ts < ? AND end_ts >= ?",
                         [start + 42 * DAY, start])
    for event in sorted(found, key=lambda e: _month_order(e, start)):
        index, count = _month_span(event, start)
        past = int(event["end_ts"]) < ui.state.clock_epoch
        while count > 0 and index < 42:
            span = min(count, 7 - index % 7)
            row = range(index, index + span)
            offset = max(offsets[k] for k in row)
            x, top = index % 7 * width, box[1] + letters + index // 7 * height
            if offset + letters - 2 * small > height:  # the cell is full
                paint.append(Painted((x, top + offset - small, x + width, top + offset), "...", size=normal,
                                     center=True))
                break
            dim = past or (days[index].month != shown[1] and days[index + span - 1].month != shown[1])
            paint.append(Painted((x + pad, top + offset + pad - small, x + span * width - pad, top + offset + 2 * pad),
                                 str(event["title"]), fill="primary", radius=m.dp(3), size=small,
                                 alpha=0.5 if dim else 1.0, text_alpha=0.75 if dim else 1.0))
            for k in row:
                offsets[k] = offset + small + 2 * pad
            index, count = index + span, count - span
    return tuple(paint)


@functools.lru_cache(maxsize=32)
def _days_paint(shown: tuple[int, int], box: tuple[int, int, int, int], letters: int, normal: int,
                today: date) -> tuple[Painted, ...]:
    """The month view's weekday letters and day numbers (of `_month_paint`), kept by what they depend on."""
    width, height = box[2] // 7, (box[3] - box[1] - letters) // 6
    this_month = today.year == shown[0] and today.month == shown[1]
    paint = [Painted((col * width, box[1], (col + 1) * width, box[1] + letters), letter, size=normal, center=True,
                     color="primary" if this_month and col == today.isoweekday() % 7 else None)
             for col, letter in enumerate("SMTWTFS")]
    for i, day in enumerate(_grid_days(*shown)):
        x, top = i % 7 * width, box[1] + letters + i // 7 * height
        dim = 1.0 if day.month == shown[1] else 0.5
        if day == today:
            r = normal * 4 // 5
            cy = top + normal * 7 // 10
            paint.append(Painted((x + width // 2 - r, cy - r, x + width // 2 + r, cy + r), str(day.day), fill="primary",
                                 oval=True, size=normal, center=True, alpha=dim, text_alpha=dim))
        else:
            paint.append(Painted((x, top, x + width, top + normal * 5 // 4), str(day.day), size=normal, center=True,
                                 text_alpha=dim))
    return tuple(paint)


def _month_span(event: dict[str, Any], grid_start: int) -> tuple[int, int]:
    """The event's first cell on the grid and its days (MonthView.getEventLastingDaysCount: an
    end at the next midnight does not count that day)."""
    first = max(_utc(int(event["start_ts"])).date(), _utc(grid_start).date())
    end = int(event["end_ts"])
    days = (_utc(end).date() - first).days
    return (first - _utc(grid_start).date()).days, (0 if days == 1 and end % DAY == 0 else days) + 1


def _month_order(event: dict[str, Any], grid_start: int) -> tuple[int, bool, int, int, str]:
    """MonthView.groupAllEvents' order: the longest first, all-day ones first, by start and end."""
    count = _month_span(event, grid_start)[1]
    all_day = bool(int(event.get("flags") or 0) & 1)
    return -count, not all_day, int(event["start_ts"]), int(event["end_ts"]), str(event["title"])


def _fab(ui: Session, frame: Frame) -> list[Node]:
    """calendar_fab: the first tap unfolds Event and Task over a scrim, the second opens a new event."""
    m = ui.m
    if ui.draft(frame, "fab") != "1":
        return [widgets.fab(ui, lambda s: s.set_draft(frame, "fab", "1"), f"{ID}calendar_fab", "New Event")]

    def new_event(s: Session) -> None:
        s.set_draft(frame, "fab", "")
        open_event(None)(s)
    fold = lambda s: s.set_draft(frame, "fab", "")  # noqa: E731
    fab = widgets.fab(ui, new_event, f"{ID}calendar_fab", "New Event")
    x1, y1, x2, y2 = fab.bounds
    task = (x1, y1 - m.dp(72), x2, y1 - m.dp(16))
    return [Node("android.widget.RelativeLayout", resource_id=f"{ID}fab_extended_overlay",
                 bounds=(0, m.status_bar + m.dp(64), m.width, m.content_bottom), clickable=True, action=fold),
            widgets.text(ui, (x1 - m.dp(120), task[1], x1 - m.dp(16), task[3]), "Task", f"{ID}fab_task_label",
                         size_dp=18, action=fold),
            Node("android.widget.ImageView", resource_id=f"{ID}fab_task_icon", bounds=task, clickable=True, action=fold),
            widgets.text(ui, (x1 - m.dp(120), y1, x1 - m.dp(16), y2), "Event", f"{ID}fab_event_label", size_dp=18,
                         action=new_event),
            fab]


def _overflow_items(frame: Frame, view: str, shown: date, settings: bool) -> list[tuple[str, Action]]:
    """The ⋮ menu as refreshMenuItems leaves it (Settings only while Go to today takes its place
    on the bar); only Go to date is modeled."""
    items = [] if view == "list" else [("Go to date", _go_to_date(frame, shown, view != "month"))]
    items += [] if view == "month_day" else [("Print", widgets.inert)]
    return items + [(label, widgets.inert) for label in _OVERFLOW if settings or label != "Settings"]


def _holder(ui: Session, frame: Frame, view: str, main: Frame) -> list[Node]:
    """MySearchMenu (the search field, Go to today, Change view, ⋮) over a view; `main` is the
    app's first screen (whose view Change view sets)."""
    nodes, top = _search_menu(ui, frame, view, main)
    query = ui.draft(frame, "search").strip()
    if query:
        return nodes + [_search_results(ui, frame, top, query)]
    day = _shown_day(ui, frame)
    return nodes + [_fragments(ui, frame, view, top, day)] + ([] if view in ("week", "year") else _fab(ui, frame))


def _search_menu(ui: Session, frame: Frame, view: str, main: Frame) -> tuple[list[Node], int]:
    """MySearchMenu with menu_main.xml's items as refreshMenuItems leaves them; the nodes and
    the bar's bottom edge."""
    m = ui.m
    today = _today(ui)
    day = _shown_day(ui, frame)
    year, month = _shown_month(ui, frame)
    query = ui.draft(frame, "search").strip()
    shown = {"month": date(year, month, 1), "day": _utc(day).date()}.get(view, _utc(today).date())
    actions = [widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options",
                                   lambda s: s.push("overflow", main=frame.id, view=view, shown=shown.isoformat(),
                                                    settings=away and not query)),
               widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Change view",
                                   lambda s: s.push("views", main=main.id, pushed=frame.id != main.id),
                                   f"{ID}change_view")]
    away = {"month": (year, month) != (_utc(today).year, _utc(today).month), "day": day != today}.get(view, False)
    if away and not query:
        def go_to_today(s: Session) -> None:
            for name in ("day", "month"):
                s.store.data["drafts"].pop(frame.key(name), None)
            if frame.args.get("day"):
                s.set_draft(frame, "day", str(today))
        actions.append(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Go to today", go_to_today, f"{ID}go_to_today"))
    else:  # the ifRoom Settings takes the slot Go to today leaves (menu_main.xml; not carried out)
        actions.insert(1, dataclasses.replace(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Settings", widgets.inert,
                                                                  f"{ID}settings"), icon="settings"))
    return searchmenu.search_menu(ui, frame, ID, tuple(actions))


def _fragments(ui: Session, frame: Frame, view: str, top: int, day: int, chosen: list[int] | None = None) -> Node:
    """activity_main.xml's `swipe_refresh_layout` (disabled while CalDAV sync is off, still laid
    out) around the view's fragment: the month's or the day's MyViewPager (clickable, as
    fragment_months_holder.xml / fragment_days_holder.xml make it), or the event list.
    `quick_event_type_filter` under it wraps no rows by default (Config.quickFilterEventTypes is
    empty): 0 px tall, it is not on the screen."""
    m = ui.m
    box = (0, top, m.width, m.content_bottom)
    if view == "month":
        content = [_pager(ui, "fragment_months_viewpager", box, _month_view(ui, frame, top))]
    elif view == "day":
        content = [_pager(ui, "fragment_days_viewpager", box, _day_view(ui, frame, top, day, chosen))]
    elif view == "list":
        content = [_event_list(ui, frame, top)]
    else:
        content = [widgets.text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)),
                                "(taskkit: this view is not modeled yet)")]
    return Node("android.view.ViewGroup", resource_id=f"{ID}swipe_refresh_layout", bounds=box, children=content)


def _pager(ui: Session, rid: str, box: tuple[int, int, int, int], pages: list[Node]) -> Node:
    return Node("androidx.viewpager.widget.ViewPager", resource_id=f"{ID}{rid}", bounds=box, clickable=True,
                focusable=True, children=pages)


def _main(ui: Session, frame: Frame) -> list[Node]:
    return _holder(ui, frame, ui.draft(frame, "view") or "month", frame)


def _opened_day(ui: Session, frame: Frame) -> list[Node]:
    """A day opened from the month view (DayFragmentsHolder added on top)."""
    return _holder(ui, frame, "day", ui.frames(PACKAGE)[0])


def _overflow(ui: Session, frame: Frame) -> list[Node]:
    main = Frame(int(frame.args["main"]), "main", {}, "")
    return widgets.popup_menu(ui, _overflow_items(main, str(frame.args["view"]), date.fromisoformat(frame.args["shown"]),
                                                  bool(frame.args.get("settings"))))


def _views(ui: Session, frame: Frame) -> list[Node]:
    """Change view: a tap on a view picks it and closes the dialog (and a day opened on top)."""
    main = Frame(int(frame.args["main"]), "main", {}, "")
    current = ui.draft(main, "view") or "month"

    def pick(view: str):
        def act(s: Session) -> None:
            s.set_draft(main, "view", view)
            for name in ("day", "month", "fab"):
                s.store.data["drafts"].pop(main.key(name), None)  # a view opens on today
            s.finish()
            if frame.args.get("pushed"):
                s.finish()
        return act

    return _radio_dialog(ui, [(label, view == current, pick(view)) for label, view in _VIEWS])


def _radio_dialog(ui: Session, items: list[tuple[str, bool, Any]]) -> list[Node]:
    """Simple-Commons' RadioGroupDialog (dialog_radio_group.xml): the ScrollView
    `dialog_radio_holder` around the RadioGroup `dialog_radio_group` (`normal_margin` above and
    below), one radio button per (label, checked, action), ids given by code (none in the dump);
    a tap picks and closes it (no buttons)."""
    m = ui.m

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y, x2, y2 = box
        h = m.dp(48)
        buttons = [Node("android.widget.RadioButton", text=label,
                        bounds=(x1, y + m.dp(12) + h * i, x2, y + m.dp(12) + h * (i + 1)), checkable=True,
                        checked=checked, clickable=True, focusable=True, text_size=m.dp(16), action=act)
                   for i, (label, checked, act) in enumerate(items)]
        group = Node("android.widget.RadioGroup", resource_id=f"{ID}dialog_radio_group", bounds=box, children=buttons)
        return [Node("android.widget.ScrollView", resource_id=f"{ID}dialog_radio_holder", bounds=box, children=[group])]
    return widgets.dialog(ui, "", owner=PACKAGE, body=body, body_dp=48 * len(items) + 24, positive=None, negative=None)


def _go_to_date_dialog(ui: Session, frame: Frame) -> list[Node]:
    """Go to date: the spinner DatePicker (no day wheel on the month view); OK shows that day or month."""
    main = Frame(int(frame.args["main"]), "main", {}, "")

    def on_set(s: Session, when: date) -> None:
        if frame.args.get("with_day"):
            s.set_draft(main, "day", str(int(datetime(when.year, when.month, when.day, tzinfo=timezone.utc).timestamp())))
        else:
            s.set_draft(main, "month", f"{when.year}-{when.month}")
    return pickers.spinner_date_dialog(ui, frame, on_set, f"{ID}date_picker", with_day=bool(frame.args.get("with_day")))


# Simple-Commons 71d66584bd: the action mode's bar is laid over the window's top, MySearchMenu stays under it
_UNDER_ACTION_MODE = ("Simple-Commons res/values/styles.xml:56 (windowActionModeOverlay) with "
                      "adapters/MyRecyclerViewAdapter.kt:62-68 (onCreateActionMode): the action mode's bar lies over "
                      "MySearchMenu, which stays in the window")


def _selection(ui: Session, frame: Frame) -> list[Node]:
    """A selection of the day's events (Simple-Commons' MyRecyclerViewAdapter action mode): the
    title "2 / 3" (a tap selects all, or ends the selection when all are), Share (cab_day.xml; not
    carried out), Delete; BACK ends it. The bar lies over the main screen's search menu
    (windowActionModeOverlay): the search menu stays in the window (and the dump) under it; the
    day and the FAB stay."""
    m = ui.m
    chosen = [int(i) for i in frame.args.get("selected") or []]
    day = int(frame.args["day"])
    every = [int(e[KEY]) for e in _on_day(ui, day)]

    def title_tapped(s: Session) -> None:
        if len(chosen) >= len(every):
            s.finish()
        else:
            s.replace("selection", main=frame.args["main"], day=day, selected=every)
    delete = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Delete",
                                 lambda s: s.push("delete_selected", events=chosen, screens=1), f"{ID}cab_delete")
    share = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Share", widgets.inert, f"{ID}cab_share")
    nodes, top = widgets.app_bar(ui, "", actions=(delete, share))
    nodes[0] = dataclasses.replace(nodes[0], background="background")  # the bar is opaque (AppTheme.ActionMode)
    nodes.append(widgets.text(ui, (m.dp(72), m.status_bar, m.width - m.dp(112), top), f"{len(chosen)} / {len(every)}",
                              f"{ID}actionbar_title", size_dp=20, action=title_tapped))
    frames = ui.frames(PACKAGE)
    under = next((f for f in frames if f.id == int(frame.args["main"])), frames[0])
    menu, _ = _search_menu(ui, under, "day", frames[0])
    covered = [dataclasses.replace(menu[0], covered_by_design=_UNDER_ACTION_MODE)]
    return [*covered, _fragments(ui, frame, "day", top, day, chosen), *_fab(ui, frame), *nodes]


# --- the event screen ---------------------------------------------------------------------------
def _short_days(rule: int) -> str:
    if rule == 127:
        return "Every day"
    return ", ".join(name for bit, name in _WEEKDAYS if rule & bit)


def _event(ui: Session, frame: Frame) -> list[Node]:
    """activity_event.xml in its NestedScrollView `event_nested_scrollview`: the text fields, All-day,
    the start and end (their times gone for an all-day event), the reminders, the repetition and
    its rule and limit, the event type and the colour."""
    m = ui.m
    stored = frame.args.get("event")
    save = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Save", _save(frame), f"{ID}save")
    actions = [save]
    if stored is not None:  # EventActivity.kt:358-360: delete, duplicate and share for a stored event (right to left)
        actions = [widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options", lambda s: s.push("event_menu")),
                   dataclasses.replace(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Duplicate event",
                                                           _duplicate(int(stored)), f"{ID}duplicate"),
                                       icon="file_copy"),  # ic_copy_vector
                   widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Delete",
                                       lambda s: s.push("delete", events=[int(stored)], screens=1), f"{ID}delete"),
                   save]
    nodes, top = widgets.app_bar(ui, "Edit Event" if stored is not None else "New Event", rid=f"{ID}event_toolbar",
                                 actions=tuple(actions))
    title, location, description = (_field_row(ui, frame, field) for field in _TEXT_FIELDS)
    rows = [title, _location_row(ui, frame), description, _divider(ui, "event_description_divider", 16, 12),
            calendar_rows.all_day(ui, frame), *_date_rows(ui, frame), _divider(ui, "event_date_time_divider"),
            *calendar_rows.reminders(ui, frame), _divider(ui, "event_reminder_divider"),
            *_repetition_rows(ui, frame), _divider(ui, "event_repetition_divider")]
    kind, colour = calendar_rows.type_and_colour(ui, frame)
    rows += [kind, _divider(ui, "event_type_divider"), colour, _divider(ui, "event_color_divider")]
    nodes.append(widgets.scroll_list(ui, frame, "form", (0, top, m.width, m.content_bottom), rows,
                                     rid=f"{ID}event_nested_scrollview", class_name="android.widget.ScrollView"))
    return nodes


def _duplicate(event_id: int) -> Action:
    """EventActivity.duplicateEvent: the screen closes and a new event opens filled in from the
    stored one (IS_DUPLICATE_INTENT: no id, "New Event"); Save inserts it."""
    def act(ui: Session) -> None:
        ui.finish()
        open_event(event_id, duplicate=True)(ui)
    return act


def _event_menu(ui: Session, frame: Frame) -> list[Node]:
    """The event screen's overflow: Share (menu_event.xml's ifRoom item, no room left; not carried out)."""
    return widgets.popup_menu(ui, [("Share", widgets.inert)])


def _divider(ui: Session, rid: str, above_dp: int = 8, below_dp: int = 8) -> widgets.Row:
    """One of activity_event.xml's dividers: an ImageView `divider_height` (2 px) tall in `divider_grey`."""
    m = ui.m
    return widgets.Row(m.dp(above_dp + below_dp) + 2, lambda box: Node(
        "android.widget.ImageView", resource_id=f"{ID}{rid}", background=(0xD8, 0xD8, 0xD8),
        bounds=(box[0], box[1] + m.dp(above_dp), box[2], box[1] + m.dp(above_dp) + 2)))


def _field_row(ui: Session, frame: Frame, field: widgets.Field, end_dp: float = 16) -> widgets.Row:
    """A text field with the 16 dp gap above it."""
    m = ui.m
    return widgets.Row(m.dp(field.height_dp + 16), lambda box: widgets.edit_text(
        ui, frame, field.name, (m.dp(16), box[1] + m.dp(16), m.width - m.dp(end_dp), box[3]), field.hint, field.rid,
        single_line=field.single_line))


def _location_row(ui: Session, frame: Frame) -> widgets.Row:
    """`event_location` and, at its end, `event_show_on_map` (44 dp, ic_place_vector; opens a map
    app on the location, which the simulator does not carry out)."""
    m = ui.m
    field = _field_row(ui, frame, _TEXT_FIELDS[1], end_dp=16 + 44)

    def build(box: tuple[int, int, int, int]) -> Node:
        pin = Node("android.widget.ImageView", resource_id=f"{ID}event_show_on_map", clickable=True, focusable=True,
                   action=widgets.inert, icon="place",
                   bounds=(m.width - m.dp(60), box[1] + m.dp(16), m.width - m.dp(16), box[3]))
        return Node("android.widget.FrameLayout", bounds=box, children=[field.build(box), pin])
    return widgets.Row(field.height, build)


def _date_rows(ui: Session, frame: Frame) -> list[widgets.Row]:
    """The start's and the end's date (and time, unless the event is all-day: toggleAllDay)."""
    m = ui.m
    start, end = _times(ui, frame)
    all_day = calendar_rows.number(ui, frame, "all_day") == 1

    def row(which: str, seconds: int) -> widgets.Row:
        def build(box: tuple[int, int, int, int]) -> Node:
            x1, y1, x2, _ = box
            kinds = [("date", show_date(seconds), m.dp(64), m.width * 2 // 3)]
            kinds += [] if all_day else [("time", show_time(seconds), m.width * 2 // 3, m.width - m.dp(16))]
            return Node("android.widget.FrameLayout", bounds=box, children=[
                widgets.text(ui, (left, y1, right, y1 + m.dp(48)), shown, f"{ID}event_{which}_{kind}",
                             action=_open_picker(frame.id, which, kind, seconds)) for kind, shown, left, right in kinds])
        return widgets.Row(m.dp(56), build)
    return [row("start", start), row("end", end)]


def _repetition_rows(ui: Session, frame: Frame) -> list[widgets.Row]:
    """`event_repetition`, and while it repeats its rule (EventActivity.checkRepetitionRuleText: a
    weekly rule's days; a monthly or yearly one "The same day"; none for a daily repetition) and its
    limit ("Forever")."""
    m = ui.m
    repeat = int(ui.draft(frame, "repeat") or 0)
    label = dict(REPETITIONS).get(repeat, f"{repeat // DAY} days")
    found = [widgets.Row(m.dp(56), lambda box: calendar_rows.icon_row(ui, "event_repetition_image", "repeat", box, widgets.text(
        ui, (m.dp(64), box[1], m.width - m.dp(16), box[1] + m.dp(48)), label, f"{ID}event_repetition",
        action=lambda s: s.push("repetition", event=frame.id))))]
    if not repeat:
        return found
    rule = int(ui.draft(frame, "rule") or 0)
    rule_row = [("event_repetition_rule_label", "Repeat on", "event_repetition_rule",
                 _short_days(rule) if repeat % WEEKLY == 0 else "The same day")] \
        if repeat % WEEKLY == 0 or repeat % MONTHLY == 0 or repeat % YEARLY == 0 else []
    for label_rid, label_text, value_rid, value in (
            *rule_row, ("event_repetition_limit_label", "Repeat", "event_repetition_limit", "Forever")):
        found.append(widgets.Row(m.dp(56), lambda box, lr=label_rid, lt=label_text, vr=value_rid, v=value: Node(
            "android.widget.RelativeLayout", bounds=box, children=[
                widgets.text(ui, (m.dp(64), box[1], m.width // 2, box[1] + m.dp(48)), lt, f"{ID}{lr}"),
                widgets.text(ui, (m.width // 2, box[1], m.width - m.dp(16), box[1] + m.dp(48)), v, f"{ID}{vr}")])))
    return found


def _repetition(ui: Session, frame: Frame) -> list[Node]:
    """The repetition dialog (showEventRepeatIntervalDialog): a tap picks and closes it."""
    event = Frame(int(frame.args["event"]), "event", {}, "")
    current = int(ui.draft(event, "repeat") or 0)

    def pick(seconds: int):
        def act(s: Session) -> None:
            start, _ = _times(s, event)
            s.set_draft(event, "repeat", str(seconds))
            rule = {WEEKLY: _weekday_bit(start), MONTHLY: REPEAT_SAME_DAY, YEARLY: REPEAT_SAME_DAY}.get(seconds, 0)
            s.set_draft(event, "rule", str(rule))
            s.finish()
        return act

    return _radio_dialog(ui, [(label, seconds == current, pick(seconds)) for seconds, label in REPETITIONS])


def _open_picker(parent: int, which: str, kind: str, seconds: int) -> Action:
    """A tap on a date or time: Android's date picker or the Material time picker on its value."""
    when = _utc(seconds)
    args = pickers.date_args(when.date()) if kind == "date" else pickers.time_args(when.hour, when.minute)
    return lambda s: s.push(kind, parent=parent, which=which, **args)


def _date_picker(ui: Session, frame: Frame) -> list[Node]:
    """EventActivity.setupStartDate / setupEndDate: Sunday first (Config.isSundayFirst in en-US)."""
    return pickers.date_dialog(ui, frame, lambda s, d: _move(frame, lambda old: old.replace(
        year=d.year, month=d.month, day=d.day))(s))


def _time_picker(ui: Session, frame: Frame) -> list[Node]:
    return pickers.time_dialog(ui, frame, lambda s, hour, minute: _move(frame, lambda old: old.replace(
        hour=hour, minute=minute))(s), pickers.material_look(PACKAGE))


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    ids = [int(i) for i in frame.args["events"]]
    body = lambda box: [widgets.text(ui, (box[0], box[1], box[2], box[1] + ui.m.dp(48)),  # noqa: E731
                                     "Are you sure you want to proceed with the deletion?",
                                     f"{ID}delete_event_description", size_dp=16)]
    yes = _delete(ids, int(frame.args.get("screens", 1)))
    return widgets.dialog(ui, "", owner=PACKAGE, body=body, body_dp=56, positive=("Yes", yes),
                          negative=("No", Session.finish))


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """INSERT of `vnd.android.cursor.dir/event` (or `content://com.android.calendar/events`) opens
    a new event filled in from CalendarContract's extras: `title`, `description`,
    `eventLocation`, `beginTime` and `endTime` (epoch milliseconds)."""
    if intent is None or intent.action != "android.intent.action.INSERT":
        return None
    if intent.mime_type != "vnd.android.cursor.dir/event" and not (intent.data or "").startswith("content://com.android.calendar/events"):
        return None
    extras = intent.extras
    drafts = {name: extras[key] for name, key in (("title", "title"), ("description", "description"),
                                                 ("location", "eventLocation")) if extras.get(key)}
    try:
        begin = int(extras["beginTime"]) // 1000 if extras.get("beginTime") else None
        end = int(extras["endTime"]) // 1000 if extras.get("endTime") else None
    except ValueError:
        begin = end = None
    if begin is not None:
        drafts["start"], drafts["end"] = str(begin), str(end if end is not None and end >= begin else begin + 3600)
    if str(extras.get("allDay", "")).lower() == "true":  # EventActivity: the allDay extra checks All-day
        drafts["all_day"] = "1"
    return [Opening("main"), Opening("event", focus="title", drafts=drafts)]


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "day": Screen(_opened_day), "views": Screen(_views), "overflow": Screen(_overflow),
     "go_to_date": Screen(_go_to_date_dialog), "selection": Screen(_selection),
     "delete_selected": Screen(_confirm_delete), "event": Screen(_event, EVENT), "date": Screen(_date_picker, EVENT),
     "time": Screen(_time_picker, EVENT), "repetition": Screen(_repetition, EVENT),
     "reminder": Screen(lambda ui, frame: calendar_rows.reminder_dialog(ui, frame, _radio_dialog), EVENT),
     "event_types": Screen(calendar_rows.event_types_dialog, EVENT),
     "delete": Screen(_confirm_delete, EVENT), "event_menu": Screen(_event_menu, EVENT)},
    first="main", opener=_opener))
