"""Simple Calendar Pro: the event list, the daily view, the event screen (title, location,
description, start and end date and time, repetition; save, delete) and its dialogs, over
`events.db`.

Ids and labels follow SimpleMobileTools/Simple-Calendar (app/src/main/res/layout/
activity_event.xml: `event_title` "Title", `event_location` "Location", `event_description`
"Description", `event_all_day` "All-day", `event_start_date`, `event_start_time`,
`event_end_date`, `event_end_time`, `event_repetition` ("No repetition", "Daily", "Weekly",
"Monthly", "Yearly": Context.getRepetitionText), `event_repetition_rule_label` "Repeat on" with
`event_repetition_rule`, `event_repetition_limit_label` "Repeat" with `event_repetition_limit`
"Forever"; fragment_event_list.xml `calendar_events_list`; event_list_item.xml
`event_item_holder`, `event_item_title`, `event_item_time`; event_list_section_day.xml
`event_section_title`; activity_main.xml `calendar_fab`, `search_results_list`,
`search_placeholder` "No items found.", `search_placeholder_2`; Simple-Commons' menu_search.xml
`top_toolbar_search` "Search"; menu_main.xml `change_view` "Change view", `go_to_today` "Go to
today"; fragment_day.xml `day_events` under top_navigation.xml's `top_left_arrow`, `top_value`,
`top_right_arrow`; cab_day.xml `cab_delete` "Delete"; dialog_delete_event.xml
`delete_event_description`; the event menu's `save` and `delete`).

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

Simplified: the app opens on its "Simple event list" (it opens on the month view), and "Change
view" offers the daily view and the list alone; the chosen view lasts while the app's screens
do; repeating events are listed once, at their first start; the date and time pickers are text
dialogs (type "10/22/2023" or "October 22 2023"; "14:30" or "2:30 PM"), as Material pickers
offer in their keyboard mode; BACK does not close the search first; no reminders, custom
repetition or repetition limits, attendees, time zones or event types on the screen (their
columns keep the app's defaults).
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Callable

from taskkit.apps.calendar import DB_PATH, DEFAULTS, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
EVENT = ".activities.EventActivity"
DAY = 86400
_TEXT_FIELDS = (widgets.Field("title", "Title", f"{ID}event_title"),
                widgets.Field("location", "Location", f"{ID}event_location"),
                widgets.Field("description", "Description", f"{ID}event_description", single_line=False, height_dp=80))
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# repeat_interval seconds and their labels (Constants.kt DAY, WEEK, MONTH, YEAR; getRepetitionText)
REPETITIONS = ((0, "No repetition"), (86400, "Daily"), (604800, "Weekly"), (2592001, "Monthly"), (31536000, "Yearly"))
WEEKLY, MONTHLY, YEARLY, REPEAT_SAME_DAY = 604800, 2592001, 31536000, 1
_WEEKDAYS = ((1, "Mon"), (2, "Tue"), (4, "Wed"), (8, "Thu"), (16, "Fri"), (32, "Sat"), (64, "Sun"))
_VIEWS = (("Daily view", "day"), ("Simple event list", "list"))  # MainActivity.showViewDialog, in its order
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


def parse_date(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of "10/22/2023", "2023-10-22", "October 22 2023", "Oct 22, 2023"."""
    text = text.strip().lower().replace(",", " ")
    found = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if found:
        month, day, year = map(int, found.groups())
    elif found := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text):
        year, month, day = map(int, found.groups())
    elif found := re.fullmatch(r"([a-z]+)\.?\s+(\d{1,2})\s+(\d{4})", text):
        names = [m for m in _MONTHS if m.startswith(found.group(1)) and len(found.group(1)) >= 3]
        if not names:
            return None
        month, day, year = _MONTHS.index(names[0]) + 1, int(found.group(2)), int(found.group(3))
    else:
        return None
    try:
        datetime(year, month, day)
    except ValueError:
        return None
    return year, month, day


def parse_time(text: str) -> tuple[int, int] | None:
    """(hour, minute) of "14:30", "2:30 PM", "2 pm"."""
    found = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?", text.strip().lower())
    if not found:
        return None
    hour, minute = int(found.group(1)), int(found.group(2) or 0)
    if found.group(3):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if found.group(3).startswith("p") else 0)
    elif found.group(2) is None:
        return None
    return (hour, minute) if hour < 24 and minute < 60 else None


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


def open_event(event_id: int | None):
    """The action that opens the event screen: a stored event, or a new one."""
    def act(ui: Session) -> None:
        ui.push("event", focus="title" if event_id is None else None,
                **({} if event_id is None else {"event": event_id}))
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
    return act


def _save(frame: Frame):
    def act(ui: Session) -> None:
        title = ui.draft(frame, "title").strip()
        if not title:
            return  # the app asks for a title first
        start, end = _times(ui, frame)
        repeat = int(ui.draft(frame, "repeat") or 0)
        values = {"title": title, "location": ui.draft(frame, "location").strip(),
                  "description": ui.draft(frame, "description").strip(), "start_ts": start, "end_ts": max(start, end),
                  "repeat_interval": repeat, "repeat_rule": int(ui.draft(frame, "rule") or 0), "repeat_limit": 0,
                  "last_updated": appdata.now_ms(ui)}
        if frame.args.get("event") is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(frame.args["event"]), values)
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


def _set(parent: int, which: str, kind: str, frame: Frame):
    """The dialog's OK: put the typed date or time into the event screen's start or end."""
    def act(ui: Session) -> None:
        typed = ui.draft(frame, "value")
        drafts = ui.store.data["drafts"]
        start, end = _times(ui, Frame(parent, "event", {}, ""))
        old = _utc(start if which == "start" else end)
        if kind == "date":
            parsed = parse_date(typed)
            new = old.replace(year=parsed[0], month=parsed[1], day=parsed[2]) if parsed else None
        else:
            clock = parse_time(typed)
            new = old.replace(hour=clock[0], minute=clock[1]) if clock else None
        if new is None:
            return  # an unreadable value: the dialog stays open
        seconds = int(new.timestamp())
        if which == "start":
            drafts[f"{parent}:start"], drafts[f"{parent}:end"] = str(seconds), str(seconds + (end - start))
            rule = int(drafts.get(f"{parent}:rule") or 0)
            if int(drafts.get(f"{parent}:repeat") or 0) == WEEKLY and rule in dict(_WEEKDAYS):
                drafts[f"{parent}:rule"] = str(_weekday_bit(seconds))  # checkRepeatRule: the one day moves along
        else:
            drafts[f"{parent}:end"] = str(seconds)
        ui.finish()
    return act


# --- the main screen: the event list or the daily view ----------------------------------------
def _today(ui: Session) -> int:
    return ui.state.clock_epoch - ui.state.clock_epoch % DAY


def _shown_day(ui: Session, frame: Frame) -> int:
    return int(ui.draft(frame, "day") or _today(ui))


def _event_row(ui: Session, event: dict[str, Any], action: Any = None, long_action: Any = None,
               selected: bool = False) -> widgets.Row:
    start, end = int(event["start_ts"]), int(event["end_ts"])

    def build(box: tuple[int, int, int, int]) -> Node:
        row = widgets.list_item(ui, box, str(event["title"]), f"{show_time(start)} - {show_time(end)}",
                                action=action or open_event(int(event[KEY])), long_action=long_action,
                                rid=f"{ID}event_item_holder", title_rid=f"{ID}event_item_title",
                                subtitle_rid=f"{ID}event_item_time")
        row.selected = selected
        return row
    return widgets.Row(ui.m.dp(80), build)


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


def _top_navigation(ui: Session, frame: Frame, top: int, day: int, active: bool = True) -> list[Node]:
    """top_navigation.xml: the previous day, the date (a tap: Go to date), the next day."""
    m = ui.m
    y1, y2 = top, top + m.dp(56)
    step = lambda delta: (lambda s: s.set_draft(frame, "day", str(day + delta * DAY))) if active else None  # noqa: E731
    go_to = (lambda s: s.push("go_to_date", focus="value", main=frame.id, day=day)) if active else None
    title = day_title(day, ui.state.clock_epoch)
    return [widgets.icon_button(ui, (0, y1, m.dp(56), y2), "", step(-1), f"{ID}top_left_arrow",
                                class_name="android.widget.ImageView"),
            widgets.text(ui, (m.dp(56), y1, m.width - m.dp(56), y2), title, f"{ID}top_value", desc=title, size_dp=18,
                         action=go_to),
            widgets.icon_button(ui, (m.width - m.dp(56), y1, m.width, y2), "", step(1), f"{ID}top_right_arrow",
                                class_name="android.widget.ImageView")]


def _day_view(ui: Session, frame: Frame, top: int, day: int, chosen: list[int] | None = None) -> list[Node]:
    """The daily view from `top`; `chosen`: the events of a selection (a tap adds or drops one)."""
    m = ui.m
    nodes = _top_navigation(ui, frame, top, day, active=chosen is None)
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


def _main(ui: Session, frame: Frame) -> list[Node]:
    """MySearchMenu (the search field, Go to today, Change view) over the list or the daily view."""
    m = ui.m
    daily = ui.draft(frame, "view") == "day"
    day = _shown_day(ui, frame)
    actions = [widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Change view", lambda s: s.push("views", main=frame.id),
                                   f"{ID}change_view")]
    if daily and day != _today(ui):
        actions.append(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Go to today",
                                           lambda s: s.set_draft(frame, "day", str(_today(s))), f"{ID}go_to_today"))
    nodes, top = widgets.app_bar(ui, "", up=False, rid=f"{ID}main_menu", actions=tuple(actions))
    nodes.append(widgets.edit_text(ui, frame, "search", (m.dp(16), m.status_bar + m.dp(8),
                                                         m.width - m.dp(56) * len(actions) - m.dp(8), top - m.dp(8)),
                                   "Search", f"{ID}top_toolbar_search"))
    query = ui.draft(frame, "search").strip()
    if query:
        return nodes + [_search_results(ui, frame, top, query)]
    nodes += _day_view(ui, frame, top, day) if daily else [_event_list(ui, frame, top)]
    nodes.append(widgets.fab(ui, open_event(None), f"{ID}calendar_fab", "New Event"))
    return nodes


def _views(ui: Session, frame: Frame) -> list[Node]:
    """Change view: a tap on a view picks it and closes the dialog."""
    main = Frame(int(frame.args["main"]), "main", {}, "")
    current = ui.draft(main, "view") or "list"

    def pick(view: str):
        def act(s: Session) -> None:
            s.set_draft(main, "view", view)
            s.store.data["drafts"].pop(main.key("day"), None)  # a view opens on today
            s.finish()
        return act

    return _radio_dialog(ui, [(label, view == current, pick(view)) for label, view in _VIEWS])


def _radio_dialog(ui: Session, items: list[tuple[str, bool, Any]]) -> list[Node]:
    """Simple-Commons' RadioGroupDialog: one radio button per (label, checked, action); a tap
    picks and closes it (no buttons)."""
    m = ui.m

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y, x2, _ = box
        h = m.dp(48)
        return [Node("android.widget.RadioButton", text=label, bounds=(x1, y + h * i, x2, y + h * (i + 1)),
                     checkable=True, checked=checked, clickable=True, focusable=True, text_size=m.dp(16), action=act)
                for i, (label, checked, act) in enumerate(items)]
    return widgets.dialog(ui, "", body=body, body_dp=48 * len(items), positive=None, negative=None)


def _go_to_date(ui: Session, frame: Frame) -> list[Node]:
    """Go to date: a date dialog whose empty field shows the shown day as its hint."""
    main = Frame(int(frame.args["main"]), "main", {}, "")

    def ok(s: Session) -> None:
        parsed = parse_date(s.draft(frame, "value"))
        if parsed is None:
            return  # an unreadable date: the dialog stays open
        s.set_draft(main, "day", str(int(datetime(*parsed, tzinfo=timezone.utc).timestamp())))
        s.finish()
    hint = _utc(int(frame.args["day"])).strftime("%m/%d/%Y")

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        return [widgets.edit_text(ui, frame, "value", (box[0], box[1], box[2], box[1] + ui.m.dp(56)), hint,
                                  f"{ID}date_picker_input", on_enter=ok)]
    return widgets.dialog(ui, "", body=body, body_dp=64, positive=("OK", ok))


def _selection(ui: Session, frame: Frame) -> list[Node]:
    """A selection of the day's events (Simple-Commons' MyRecyclerViewAdapter action mode): the
    title "2 / 3" (a tap selects all, or ends the selection when all are), Delete; BACK ends it."""
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
    nodes, top = widgets.app_bar(ui, "", actions=(delete,))
    nodes.append(widgets.text(ui, (m.dp(72), m.status_bar, m.width - m.dp(64), top), f"{len(chosen)} / {len(every)}",
                              f"{ID}actionbar_title", size_dp=20, action=title_tapped))
    return nodes + _day_view(ui, frame, top, day, chosen)


# --- the event screen ---------------------------------------------------------------------------
def _short_days(rule: int) -> str:
    if rule == 127:
        return "Every day"
    return ", ".join(name for bit, name in _WEEKDAYS if rule & bit)


def _event(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    actions = [widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Save", _save(frame), f"{ID}save")]
    if frame.args.get("event") is not None:
        actions.append(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Delete",
                                           lambda s: s.push("delete", events=[int(frame.args["event"])], screens=1),
                                           f"{ID}delete"))
    nodes, top = widgets.app_bar(ui, "Edit Event" if frame.args.get("event") is not None else "New Event",
                                 actions=tuple(actions))
    fields, y = widgets.form(ui, frame, _TEXT_FIELDS, top)
    nodes += fields
    start, end = _times(ui, frame)
    for which, seconds in (("start", start), ("end", end)):
        for kind, shown, x1, x2 in (("date", show_date(seconds), m.dp(16), m.width * 2 // 3),
                                    ("time", show_time(seconds), m.width * 2 // 3, m.width - m.dp(16))):
            pick = lambda s, w=which, k=kind, v=seconds: _open_picker(s, frame.id, w, k, v)  # noqa: E731
            nodes.append(widgets.text(ui, (x1, y, x2, y + m.dp(48)), shown, f"{ID}event_{which}_{kind}", action=pick))
        y += m.dp(56)
    repeat = int(ui.draft(frame, "repeat") or 0)
    label = dict(REPETITIONS).get(repeat, f"{repeat // DAY} days")
    nodes.append(widgets.text(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(48)), label, f"{ID}event_repetition",
                              action=lambda s: s.push("repetition", event=frame.id)))
    y += m.dp(56)
    if repeat:
        rule = int(ui.draft(frame, "rule") or 0)
        shown = _short_days(rule) if repeat % WEEKLY == 0 else "Same day"
        for label_rid, label_text, value_rid, value in (
                ("event_repetition_rule_label", "Repeat on", "event_repetition_rule", shown),
                ("event_repetition_limit_label", "Repeat", "event_repetition_limit", "Forever")):
            nodes += [widgets.text(ui, (m.dp(16), y, m.width // 2, y + m.dp(48)), label_text, f"{ID}{label_rid}"),
                      widgets.text(ui, (m.width // 2, y, m.width - m.dp(16), y + m.dp(48)), value, f"{ID}{value_rid}")]
            y += m.dp(56)
    return nodes


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


def _open_picker(ui: Session, parent: int, which: str, kind: str, seconds: int) -> None:
    """A date or time dialog whose empty field shows the current value as its hint."""
    current = _utc(seconds).strftime("%m/%d/%Y" if kind == "date" else "%H:%M")
    ui.push(kind, focus="value", parent=parent, which=which, current=current)


def _picker(kind: str):
    def build(ui: Session, frame: Frame) -> list[Node]:
        ok = _set(int(frame.args["parent"]), str(frame.args["which"]), kind, frame)
        hint = str(frame.args.get("current", ""))
        body = lambda box: [widgets.edit_text(ui, frame, "value", (box[0], box[1], box[2], box[1] + ui.m.dp(56)), hint,  # noqa: E731
                                              f"{ID}{kind}_picker_input", on_enter=ok)]
        return widgets.dialog(ui, "Set date" if kind == "date" else "Set time", body=body, body_dp=64, positive=("OK", ok))
    return build


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    ids = [int(i) for i in frame.args["events"]]
    body = lambda box: [widgets.text(ui, (box[0], box[1], box[2], box[1] + ui.m.dp(48)),  # noqa: E731
                                     "Are you sure you want to proceed with the deletion?",
                                     f"{ID}delete_event_description", size_dp=16)]
    yes = _delete(ids, int(frame.args.get("screens", 1)))
    return widgets.dialog(ui, "", body=body, body_dp=56, positive=("Yes", yes), negative=("No", Session.finish))


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
    return [Opening("main"), Opening("event", focus="title", drafts=drafts)]


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "views": Screen(_views), "go_to_date": Screen(_go_to_date), "selection": Screen(_selection),
     "delete_selected": Screen(_confirm_delete), "event": Screen(_event, EVENT), "date": Screen(_picker("date"), EVENT),
     "time": Screen(_picker("time"), EVENT), "repetition": Screen(_repetition, EVENT),
     "delete": Screen(_confirm_delete, EVENT)},
    first="main", opener=_opener))
