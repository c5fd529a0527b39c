"""Simple Calendar Pro's event screen rows below the text fields: All-day, the reminders, the event
type and the event colour, with the reminder picker and the event types dialog.

From SimpleMobileTools/Simple-Calendar 6.22.2 (read, not copied): res/layout/activity_event.xml
(`event_all_day_holder` holding the CheckBox `event_all_day` "All-day", which takes no clicks of its
own; `event_reminder_1` to `_3` beside `event_reminder_image`; `event_type_holder` with
`event_type`; `event_color_holder` with `event_color_text` "Event color" and the swatch
`event_color`), activities/EventActivity.kt (`toggleAllDay`: the start and end times gone;
`getStartEndTimes`: an all-day event from its first day's start to noon of its last day;
`updateReminder2Text` / `3Text`: "Add another reminder" under a set reminder; a new event's first
reminder is Config.lastEventReminderMinutes1, 10 on a fresh install; `saveEvent`: `flags` with
FLAG_ALL_DAY 1, `reminder_N_minutes`, `event_type`, `color`), dialogs/SelectEventTypeDialog.kt and
res/layout/dialog_select_event_type.xml, radio_button_with_color.xml; Simple-Commons 71d66584bd
extensions/Activity.kt `showPickSecondsDialog` (the choices) and extensions/Context.kt
`getFormattedSeconds` (their labels), strings from res/values/strings.xml.
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.calendar import DB_PATH, PACKAGE
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Action, Node, Painted
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
REMINDER_OFF, FLAG_ALL_DAY, REGULAR_EVENT_TYPE = -1, 1, 1
#: a new event's drafts (EventActivity: lastEventReminderMinutes1 10, the others off; the regular type)
NEW_EVENT = {"all_day": 0, "reminder_1": 10, "reminder_2": REMINDER_OFF, "reminder_3": REMINDER_OFF,
             "event_type": REGULAR_EVENT_TYPE, "color": 0}
# Simple-Commons' helpers/Constants.kt: YEAR, MONTH (30 days), WEEK, DAY, HOUR and MINUTE seconds
_UNITS = ((31536000, "year"), (2592000, "month"), (604800, "week"), (86400, "day"), (3600, "hour"), (60, "minute"))


def number(ui: Session, frame: Frame, name: str) -> int:
    """An event screen's draft `name` as a number (a new event's value when it has none)."""
    return int(ui.draft(frame, name) or NEW_EVENT[name])


def reminder_text(seconds: int) -> str:
    """getFormattedSeconds(seconds, showBefore = true): "No reminder", "At start", "10 minutes before"."""
    if seconds == -1:
        return "No reminder"
    if seconds == 0:
        return "At start"
    if -86400 < seconds < 0:
        minutes = -seconds // 60
        return f"During the day at {minutes // 60:02d}:{minutes % 60:02d}"
    for size, unit in _UNITS:
        if seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'} before"
    return f"{seconds} seconds before"


def _seconds(minutes: int) -> int:
    return minutes if minutes == -1 else minutes * 60  # showPickSecondsDialogHelper


def icon_row(ui: Session, rid: str, icon: str, box: tuple[int, int, int, int], child: Node) -> Node:
    """A row: the row's 24 dp icon (`smaller_icon_size` with its padding, at `normal_margin`) and `child`."""
    m = ui.m
    x1, y1, x2, y2 = box
    image = Node("android.widget.ImageView", resource_id=f"{ID}{rid}", icon=icon,
                 bounds=(x1 + m.dp(16), (y1 + y2) // 2 - m.dp(20), x1 + m.dp(56), (y1 + y2) // 2 + m.dp(20)))
    return Node("android.widget.FrameLayout", bounds=box, children=[image, child])


def all_day(ui: Session, frame: Frame) -> widgets.Row:
    """`event_all_day_holder`: a tap toggles the CheckBox (`event_all_day.toggle()`)."""
    m = ui.m
    checked = number(ui, frame, "all_day") == 1

    def toggle(s: Session) -> None:
        s.set_draft(frame, "all_day", "0" if checked else "1")

    def build(box: tuple[int, int, int, int]) -> Node:
        x1, y1, x2, y2 = box
        check = Node("android.widget.CheckBox", text="All-day", resource_id=f"{ID}event_all_day", checkable=True,
                     checked=checked, focusable=True, text_size=m.dp(16),
                     bounds=(x1 + m.dp(64), y1 + m.dp(8), x2 - m.dp(16), y2 - m.dp(8)))
        holder = Node("android.widget.RelativeLayout", resource_id=f"{ID}event_all_day_holder", clickable=True,
                      focusable=True, action=toggle, bounds=(x1 + m.dp(60), y1, x2, y2), children=[check])
        return icon_row(ui, "event_time_image", "schedule", box, holder)
    return widgets.Row(m.dp(56), build)


def reminders(ui: Session, frame: Frame) -> list[widgets.Row]:
    """`event_reminder_1`, and "Add another reminder" under each set one (updateReminder2Text /
    updateReminder3Text); a tap opens the reminder picker for that reminder."""
    m = ui.m
    values = [number(ui, frame, f"reminder_{n}") for n in (1, 2, 3)]
    shown = 1 + (values[0] != REMINDER_OFF) + (values[0] != REMINDER_OFF and values[1] != REMINDER_OFF)
    found = []
    for n in range(1, shown + 1):
        minutes = values[n - 1]
        label = reminder_text(_seconds(minutes)) if n == 1 or minutes != REMINDER_OFF else "Add another reminder"
        dim = n > 1 and minutes == REMINDER_OFF  # alpha 0.4

        def build(box: tuple[int, int, int, int], n: int = n, label: str = label, dim: bool = dim) -> Node:
            x1, y1, x2, y2 = box
            row = widgets.text(ui, (x1 + m.dp(64), y1, x2 - m.dp(16), y2), label, f"{ID}event_reminder_{n}", size_dp=16,
                               action=lambda s: s.push("reminder", event=frame.id, which=n))
            if dim:
                row.text_color = (0xA0, 0xA0, 0xA0)
            return icon_row(ui, "event_reminder_image", "notifications", box, row) if n == 1 else row
        found.append(widgets.Row(m.dp(56), build))
    return found


def type_and_colour(ui: Session, frame: Frame) -> list[widgets.Row]:
    """`event_type_holder` (the type's title; a tap opens the event types dialog) and
    `event_color_holder` ("Event color" and the swatch: the event's colour, else its type's)."""
    m = ui.m
    types = event_types(ui)
    chosen = next((t for t in types if int(t["id"]) == number(ui, frame, "event_type")), types[0] if types else None)
    colour = number(ui, frame, "color") or (int(chosen["color"]) if chosen else 0)

    def type_row(box: tuple[int, int, int, int]) -> Node:
        x1, y1, x2, y2 = box
        title = widgets.text(ui, (x1 + m.dp(64), y1, x2 - m.dp(16), y2), str(chosen["title"]) if chosen else "",
                             f"{ID}event_type", size_dp=16)
        holder = Node("android.widget.RelativeLayout", resource_id=f"{ID}event_type_holder", clickable=True, focusable=True,
                      action=lambda s: s.push("event_types", event=frame.id), bounds=(x1 + m.dp(60), y1, x2, y2),
                      children=[title])
        return icon_row(ui, "event_type_image", "category", box, holder)

    def colour_row(box: tuple[int, int, int, int]) -> Node:
        x1, y1, x2, y2 = box
        side, middle = m.dp(24), (y1 + y2) // 2  # color_sample_size
        swatch_box = (x2 - m.dp(16) - side, middle - side // 2, x2 - m.dp(16), middle + side // 2)
        swatch = Node("android.widget.ImageView", resource_id=f"{ID}event_color", bounds=swatch_box,
                      paint=(Painted(swatch_box, fill=argb_rgb(colour), oval=True),))
        label = widgets.text(ui, (x1 + m.dp(64), y1, swatch_box[0] - m.dp(8), y2), "Event color", f"{ID}event_color_text",
                             size_dp=16)
        holder = Node("android.widget.RelativeLayout", resource_id=f"{ID}event_color_holder", clickable=True,
                      focusable=True, action=widgets.inert, bounds=(x1 + m.dp(60), y1, x2, y2), children=[label, swatch])
        return icon_row(ui, "event_color_image", "palette", box, holder)
    return [widgets.Row(m.dp(56), type_row), widgets.Row(m.dp(56), colour_row)]


def argb_rgb(value: int) -> tuple[int, int, int]:
    """An Android colour int (signed ARGB) as RGB."""
    value &= 0xFFFFFF
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def event_types(ui: Session) -> list[dict[str, Any]]:
    """The local event types (EventTypesDao.getEventTypes: by title; SelectEventTypeDialog leaves
    CalDAV calendars out)."""
    return appdata.rows(ui, DB_PATH, "SELECT * FROM event_types WHERE caldav_calendar_id = 0 ORDER BY title ASC")


RadioDialog = Callable[[Session, list[tuple[str, bool, Any]]], list[Node]]


def reminder_dialog(ui: Session, frame: Frame, radio_dialog: RadioDialog) -> list[Node]:
    """showPickSecondsDialog: No reminder, At start, 1, 5, 10, 30 minutes, 1 hour before (and the
    current value), Custom, and for an all-day event "During the day at hh:mm"; a tap picks
    (Custom and During the day open pickers the simulator does not have: they do nothing)."""
    event, which = Frame(int(frame.args["event"]), "event", {}, ""), int(frame.args["which"])
    current = _seconds(number(ui, event, f"reminder_{which}"))
    choices = sorted({-1, 0, 60, 300, 600, 1800, 3600, current})

    def pick(seconds: int) -> Action:
        def act(s: Session) -> None:
            s.set_draft(event, f"reminder_{which}", str(seconds if seconds in (-1, 0) else seconds // 60))
            s.finish()
        return act
    items: list[tuple[str, bool, Any]] = [(reminder_text(seconds), seconds == current, pick(seconds)) for seconds in choices]
    items.append(("Custom", False, widgets.inert))
    if number(ui, event, "all_day") == 1:
        items.append(("During the day at hh:mm", False, widgets.inert))
    return radio_dialog(ui, items)


def event_types_dialog(ui: Session, frame: Frame) -> list[Node]:
    """SelectEventTypeDialog (dialog_select_event_type.xml: `dialog_radio_holder` › `dialog_wrapper` ›
    the RadioGroup `dialog_radio_group`, the divider `dialog_radio_divider`, "Manage event types"):
    a radio button per local event type (`dialog_radio_button`, its colour `dialog_radio_color`
    beside it), "Add a new type", then "Manage event types"; a tap on a type
    picks it and closes the dialog (the new type's dialog and the manager are not modeled)."""
    m = ui.m
    event = Frame(int(frame.args["event"]), "event", {}, "")
    current = number(ui, event, "event_type")

    def pick(type_id: int) -> Action:
        def act(s: Session) -> None:
            s.set_draft(event, "event_type", str(type_id))
            s.finish()
        return act
    entries = [(str(t["title"]), int(t["id"]), int(t["color"])) for t in event_types(ui)]

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y, x2, y2 = box
        h = m.dp(48)
        nodes = []
        rows = [*entries, ("Add a new type", -2, 0)]
        for i, (title, type_id, colour) in enumerate(rows):
            top = y + h * i
            radio = Node("android.widget.RadioButton", text=title, resource_id=f"{ID}dialog_radio_button",
                         bounds=(x1, top, x2 - m.dp(40), top + h), checkable=True, checked=type_id == current,
                         clickable=True, focusable=True, text_size=m.dp(16),
                         action=pick(type_id) if type_id > 0 else widgets.inert)
            nodes.append(radio)
            if colour:
                swatch = (x2 - m.dp(32), top + m.dp(12), x2 - m.dp(8), top + m.dp(36))
                nodes.append(Node("android.widget.ImageView", resource_id=f"{ID}dialog_radio_color", bounds=swatch,
                                  paint=(Painted(swatch, fill=argb_rgb(colour), oval=True),)))
        bottom = y + h * len(rows) + m.dp(8)
        group = Node("android.widget.RadioGroup", resource_id=f"{ID}dialog_radio_group", bounds=(x1, y, x2, bottom - 2),
                     children=nodes)
        divider = Node("android.widget.ImageView", resource_id=f"{ID}dialog_radio_divider", background=(0xD8, 0xD8, 0xD8),
                       bounds=(x1, bottom - 2, x2, bottom))
        manage = widgets.text(ui, (x1, bottom, x2, bottom + h), "Manage event types", f"{ID}dialog_manage_event_types",
                              size_dp=16, action=widgets.inert)
        wrapper = Node("android.widget.LinearLayout", resource_id=f"{ID}dialog_wrapper", bounds=box,
                       children=[group, divider, manage])
        return [Node("android.widget.ScrollView", resource_id=f"{ID}dialog_radio_holder", bounds=box, children=[wrapper])]
    return widgets.dialog(ui, "", owner=PACKAGE, body=body, body_dp=48 * (len(entries) + 2) + 8, positive=None,
                          negative=None)
