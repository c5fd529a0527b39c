"""Simple Calendar Pro: the event list, the event screen (title, location, description, start
and end date and time; save, delete) and its date and time dialogs, over `events.db`.

Ids and labels follow SimpleMobileTools/Simple-Calendar (app/src/main/res/layout/
activity_event.xml: `event_title` "Title", `event_location` "Location", `event_description`
"Description", `event_all_day` "All-day", `event_start_date`, `event_start_time`,
`event_end_date`, `event_end_time`; fragment_event_list.xml `calendar_events_list`;
event_list_item.xml `event_item_title`, `event_item_time`, `event_item_description`;
event_list_section_day.xml `event_section_title`; activity_main.xml `calendar_fab`; the event
menu's `save` and `delete`).

Saving writes the `events` row as the app's EventsDao does (start and end in epoch seconds,
the regular event type, `source` "simple-calendar", `last_updated` at the device clock); a new
event starts at the next full hour and lasts an hour; moving the start keeps the duration, as
the app does. Delete asks first, then deletes the row. Simplified: the main screen is the
app's "Event list" view (every event, by start; the app opens on the month view); the date
and time pickers are text dialogs (type "10/22/2023" or "October 22 2023"; "14:30" or
"2:30 PM"), as Material pickers offer in their keyboard mode; no reminders, repetition,
attendees, time zones or event types on the screen (their columns keep the app's defaults).
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from taskkit.apps.calendar import DB_PATH, DEFAULTS, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
EVENT = ".activities.EventActivity"
_TEXT_FIELDS = (widgets.Field("title", "Title", f"{ID}event_title"),
                widgets.Field("location", "Location", f"{ID}event_location"),
                widgets.Field("description", "Description", f"{ID}event_description", single_line=False, height_dp=80))
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


# --- dates and times --------------------------------------------------------------------------
def _utc(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def show_date(seconds: int) -> str:
    return _utc(seconds).strftime("%B %d %Y")


def show_time(seconds: int) -> str:
    return _utc(seconds).strftime("%H:%M")


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
            row = {"title": "", "location": "", "description": "", "start_ts": start, "end_ts": start + 3600}
        for name in ("title", "location", "description"):
            ui.set_draft(frame, name, str(row[name] or ""))
        ui.set_draft(frame, "start", str(int(row["start_ts"])))
        ui.set_draft(frame, "end", str(int(row["end_ts"])))
    return act


def _save(frame: Frame):
    def act(ui: Session) -> None:
        title = ui.draft(frame, "title").strip()
        if not title:
            return  # the app asks for a title first
        start, end = _times(ui, frame)
        values = {"title": title, "location": ui.draft(frame, "location").strip(),
                  "description": ui.draft(frame, "description").strip(), "start_ts": start, "end_ts": max(start, end),
                  "last_updated": appdata.now_ms(ui)}
        if frame.args.get("event") is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(frame.args["event"]), values)
        else:
            appdata.insert(ui, DB_PATH, TABLE, {**DEFAULTS, "source": "simple-calendar", **values})
        ui.finish()
    return act


def _delete(event_id: int):
    def act(ui: Session) -> None:
        appdata.delete(ui, DB_PATH, TABLE, KEY, event_id)
        ui.finish()  # the dialog
        ui.finish()  # the event screen
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
        else:
            drafts[f"{parent}:end"] = str(seconds)
        ui.finish()
    return act


# --- screens ----------------------------------------------------------------------------------
def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    now = _utc(ui.state.clock_epoch)
    nodes, top = widgets.app_bar(ui, now.strftime("%B"), up=False)
    rows: list[widgets.Row] = []
    day = None
    for event in events(ui):
        start, end = int(event["start_ts"]), int(event["end_ts"])
        if _utc(start).date() != day:
            day = _utc(start).date()
            label = _utc(start).strftime("%A, %B ") + str(day.day)
            rows.append(widgets.Row(m.dp(48), lambda b, t=label: widgets.text(ui, (b[0] + m.dp(16), b[1], b[2], b[3]), t,
                                                                             f"{ID}event_section_title")))
        rows.append(widgets.Row(m.dp(80), lambda b, e=event, s=start, t=end: widgets.list_item(
            ui, b, str(e["title"]), f"{show_time(s)} - {show_time(t)}", action=open_event(int(e[KEY])),
            title_rid=f"{ID}event_item_title", subtitle_rid=f"{ID}event_item_time")))
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}calendar_events_list", "No upcoming events",
                                       f"{ID}calendar_empty_list_placeholder"))
    nodes.append(widgets.fab(ui, open_event(None), f"{ID}calendar_fab", "New Event"))
    return nodes


def _event(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    actions = [widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Save", _save(frame), f"{ID}save")]
    if frame.args.get("event") is not None:
        actions.append(widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Delete",
                                           lambda s: s.push("delete", event=int(frame.args["event"])), f"{ID}delete"))
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
    return nodes


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
    return widgets.dialog(ui, "Delete event", message="Are you sure you want to delete this event?",
                          positive=("Yes", _delete(int(frame.args["event"]))), negative=("No", Session.finish))


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
    {"main": Screen(_main), "event": Screen(_event, EVENT), "date": Screen(_picker("date"), EVENT),
     "time": Screen(_picker("time"), EVENT), "delete": Screen(_confirm_delete, EVENT)},
    first="main", opener=_opener))
