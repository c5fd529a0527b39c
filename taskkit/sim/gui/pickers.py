"""Android's date and time pickers as system dialogs any app model opens.

An app registers a screen whose builder calls `date_dialog`, `spinner_date_dialog` or
`time_dialog` with what OK does (`on_set`), and opens it with `ui.push(screen, **date_args(d))`
or `**time_args(hour, minute)` plus its own arguments. The dialogs keep their state (the month
shown, the day picked, the hand's value, the mode) in their frame's drafts.

What they show, as Android 13 dumps them (AOSP frameworks/base, core/res/res/layout/):
- `date_dialog`: DatePickerDialog in calendar mode (date_picker_dialog.xml `datePicker`;
  date_picker_view_animator_material.xml `animator`, `date_picker_day_picker`,
  `date_picker_year_picker`; date_picker_header_material.xml `date_picker_header_year` "2023"
  and `date_picker_header_date` "Sun, Oct 15" (DatePickerCalendarDelegate: the best pattern of
  "EMMMd"); DayPickerView.java `day_picker_view_pager`, `prev` "Previous month", `next` "Next
  month"; SimpleMonthView's MonthViewTouchHelper: one node per day, its text the
  day's number, its description "dd MMMM yyyy" ("05 October 2023"), the picked day checked);
  a tap on the year shows YearPickerView (`date_picker_year_picker`, 1900–2100), a tap on a year
  picks it and shows its month again; OK and Cancel are alert_dialog's `button1` and `button2`.
- `spinner_date_dialog`: a DatePicker in spinner mode inside an AlertDialog
  (DatePickerSpinnerDelegate: `pickers` holding the NumberPickers `month`, `day`, `year` in
  the order of the locale's "yyyyMMMdd" pattern, short month names, two-digit days, month and
  day wheels that wrap; NumberPicker: the previous value, the `numberpicker_input` EditText,
  the next value). A typed value
  counts when it is valid (NumberPicker's InputTextFilter), else the old one stays.
- `time_dialog`: TimePickerDialog in clock mode (time_picker_material.xml,
  time_picker_header_material.xml: `hours`, `minutes`, `am_label`/`pm_label` in 12-hour time,
  `radial_picker` whose RadialTimePickerView nodes are the numbers, described by their value;
  `toggle_mode` "Switch to text input mode for the time input."; the keyboard mode's
  time_picker_text_input_material.xml `top_label` "Type in time", `input_hour`,
  `input_minute`, `label_hour` "hour", `label_minute` "minute", `am_pm_spinner`), or with
  `MATERIAL` the Material Components MaterialTimePicker an app bundles (material 1.9.0,
  timepicker/res/layout: material_timepicker_dialog.xml `header_title` "Select time",
  `material_timepicker_mode_button`, `material_timepicker_cancel_button`,
  `material_timepicker_ok_button`; material_clock_display.xml `material_hour_tv`,
  `material_minute_tv` (chips described "16 hours" / "4 o'clock", "30 minutes");
  material_clock_period_toggle.xml `material_clock_period_am_button`/`_pm_button`;
  ClockFaceView's numbers ("00", "1" … "23"; minutes "00", "5" … "55") described the same way;
  the keyboard mode's `material_hour_text_input` / `material_minute_text_input`, each an
  EditText and its `material_label` "Hour" / "Minute"). A tap on an hour picks it and turns to
  the minutes, as both pickers do.

The month's title ("October 2023"), the weekday letters and the clock's hand are painted by the
real views, so screenshots show them and the dump has no node for them (`Node.paint`, `ink`).

Simplified: the keyboard mode's AM/PM spinner toggles on a tap (the real one opens a
drop-down); an invalid typed time keeps the dialog open.
"""
from __future__ import annotations

import calendar
import dataclasses
import math
from datetime import date
from typing import Callable

from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import EDIT_TEXT, Action, Box, Node, Painted
from taskkit.sim.gui.session import Session

A = "android:id/"
VIEW, BUTTON, IMAGE_BUTTON = "android.view.View", "android.widget.Button", "android.widget.ImageButton"
SHORT_MONTHS = tuple(calendar.month_abbr[1:])
FIRST_YEAR, LAST_YEAR = 1900, 2100  # DatePicker's default minDate and maxDate
PANEL = (250, 250, 250)
DateSet = Callable[[Session, date], None]
TimeSet = Callable[[Session, int, int], None]


# --- shared ---------------------------------------------------------------------------------
def date_args(when: date) -> dict[str, str]:
    """The frame arguments that open a date dialog on `when`."""
    return {"date": when.isoformat()}


def time_args(hour: int, minute: int) -> dict[str, int]:
    """The frame arguments that open a time dialog on `hour`:`minute`."""
    return {"hour": hour, "minute": minute}


def device_24h(ui: Session) -> bool:
    """DateFormat.is24HourFormat: the device's `system time_12_24` (24 unless set to 12)."""
    return ui.setting("system", "time_12_24") != "12"


def _dialog_box(ui: Session, height: int) -> Box:
    """Where a dialog window `height` px tall sits: centred, 24 dp from the sides."""
    m = ui.m
    top = max(m.status_bar, (m.height - height) // 2)
    return m.dp(24), top, m.width - m.dp(24), top + height


def _panel(box: Box, children: list[Node], rid: str = "") -> Node:
    return Node("android.widget.FrameLayout", resource_id=rid, bounds=box, background=PANEL, children=children)


def _buttons(ui: Session, y: int, right: int, ok: Action, ok_rid: str = f"{A}button1",
             cancel_rid: str = f"{A}button2") -> list[Node]:
    """Cancel and OK at the end of the dialog's last row (the positive button last)."""
    m = ui.m
    return [widgets.button(ui, (right - m.dp(188), y, right - m.dp(104), y + m.dp(48)), "Cancel", Session.finish,
                           cancel_rid),
            widgets.button(ui, (right - m.dp(96), y, right - m.dp(16), y + m.dp(48)), "OK", ok, ok_rid)]


def _apply(on_set: Callable[..., None], *values: int | date) -> Action:
    """OK: close the dialog, then hand the values to the app (whose screen is on top again)."""
    def act(ui: Session) -> None:
        ui.finish()
        on_set(ui, *values)
    return act


# --- DatePickerDialog, calendar mode ----------------------------------------------------------
def _picked(ui: Session, frame: Frame) -> date:
    return date.fromisoformat(ui.draft(frame, "picked") or str(frame.args["date"]))


def _shown_month(ui: Session, frame: Frame) -> tuple[int, int]:
    picked = _picked(ui, frame)
    shown = ui.draft(frame, "month") or f"{picked.year}-{picked.month}"
    year, month = shown.split("-")
    return int(year), int(month)


def _move_month(frame: Frame, year: int, month: int, delta: int) -> Action:
    index = year * 12 + month - 1 + delta
    target_year, target_month = divmod(index, 12)

    def act(ui: Session) -> None:
        if FIRST_YEAR <= target_year <= LAST_YEAR:
            ui.set_draft(frame, "month", f"{target_year}-{target_month + 1}")
    return act


def day_description(day: date) -> str:
    """SimpleMonthView's description of a day: "dd MMMM yyyy" ("05 October 2023")."""
    return f"{day.day:02d} {day:%B %Y}"


def _month_grid(ui: Session, frame: Frame, box: Box, first_weekday: int) -> list[Node]:
    """The pager's month: one node per day under a row for the weekday letters, 6 rows of 7."""
    m = ui.m
    year, month = _shown_month(ui, frame)
    picked = _picked(ui, frame)
    x1, y1, x2, y2 = box
    top = y1 + m.dp(32)  # the weekday letters (painted by the view)
    width, height = (x2 - x1) // 7, (y2 - top) // 6
    offset = (calendar.weekday(year, month, 1) - first_weekday) % 7
    days = []
    for number in range(1, calendar.monthrange(year, month)[1] + 1):
        row, col = divmod(offset + number - 1, 7)
        day = date(year, month, number)
        cell = (x1 + col * width, top + row * height, x1 + (col + 1) * width, top + (row + 1) * height)
        days.append(Node(VIEW, text=str(number), content_desc=day_description(day), bounds=cell, clickable=True,
                         focusable=True, checked=day == picked, text_size=m.dp(14),
                         background=widgets.ACCENT if day == picked else None,
                         action=lambda s, d=day: s.set_draft(frame, "picked", d.isoformat())))

    def swipe(ui: Session, dx: int, dy: int) -> None:
        if abs(dx) > abs(dy):
            _move_month(frame, year, month, 1 if dx < 0 else -1)(ui)
    letters = tuple(Painted((x1 + col * width, y1, x1 + (col + 1) * width, top), "MTWTFSS"[(first_weekday + col) % 7],
                            size=m.dp(12), center=True, color="muted") for col in range(7))  # painted, not dumped
    return [Node("android.view.ViewGroup", resource_id=f"{A}day_picker_view_pager", bounds=box, swipe=swipe,
                 children=[Node(VIEW, bounds=box, children=days, paint=letters)])]


def _year_list(ui: Session, frame: Frame, box: Box) -> Node:
    """YearPickerView: 1900–2100, opened with the picked year in the middle."""
    m = ui.m
    picked = _picked(ui, frame)
    row_height = m.dp(48)

    def choose(year: int) -> Action:
        def act(s: Session) -> None:
            last = calendar.monthrange(year, picked.month)[1]
            s.set_draft(frame, "picked", picked.replace(year=year, day=min(picked.day, last)).isoformat())
            s.set_draft(frame, "month", f"{year}-{picked.month}")
            s.set_draft(frame, "years", "")
        return act

    rows = [widgets.Row(row_height, lambda b, y=y: Node(widgets.TEXT_VIEW, text=str(y), bounds=b, clickable=True,
                                                       focusable=True, checked=y == picked.year,
                                                       text_size=m.dp(24 if y == picked.year else 16),
                                                       action=choose(y)))
            for y in range(FIRST_YEAR, LAST_YEAR + 1)]
    if ui.scroll(frame, "years") is None:
        ui.set_scroll(frame, "years", max(0, (picked.year - FIRST_YEAR) * row_height - (box[3] - box[1] - row_height) // 2))
    return widgets.scroll_list(ui, frame, "years", box, rows, rid=f"{A}date_picker_year_picker",
                               class_name="android.widget.ListView")


def date_dialog(ui: Session, frame: Frame, on_set: DateSet, first_weekday: int = calendar.SUNDAY) -> list[Node]:
    """DatePickerDialog (calendar mode) opened on `frame.args["date"]`; OK calls `on_set(ui, date)`
    after closing. `first_weekday`: 0 Monday … 6 Sunday (the app's setting)."""
    m = ui.m
    picked = _picked(ui, frame)
    years = ui.draft(frame, "years") == "1"
    box = _dialog_box(ui, m.dp(96 + 48 + 32 + 6 * 40 + 64))
    x1, y1, x2, y2 = box
    header_bottom = y1 + m.dp(96)
    header = Node("android.widget.LinearLayout", resource_id=f"{A}date_picker_header", bounds=(x1, y1, x2, header_bottom),
                  background=widgets.ACCENT, children=[
                      widgets.text(ui, (x1 + m.dp(24), y1 + m.dp(16), x2 - m.dp(24), y1 + m.dp(40)), str(picked.year),
                                   f"{A}date_picker_header_year", size_dp=16,
                                   action=lambda s: s.set_draft(frame, "years", "1")),
                      widgets.text(ui, (x1 + m.dp(24), y1 + m.dp(40), x2 - m.dp(24), header_bottom - m.dp(12)),
                                   f"{picked:%a, %b} {picked.day}", f"{A}date_picker_header_date", size_dp=32,
                                   action=lambda s: s.set_draft(frame, "years", ""))])
    body = (x1, header_bottom, x2, y2 - m.dp(64))
    if years:
        content = [_year_list(ui, frame, body)]
    else:
        year, month = _shown_month(ui, frame)
        arrows = (body[1], body[1] + m.dp(48))
        grid = (x1 + m.dp(8), arrows[1], x2 - m.dp(8), body[3])
        title = Painted((x1 + m.dp(56), arrows[0], x2 - m.dp(56), arrows[1]), f"{calendar.month_name[month]} {year}",
                        size=m.dp(14), center=True)  # SimpleMonthView paints "MMMMy"
        content = [Node("android.view.ViewGroup", resource_id=f"{A}date_picker_day_picker", bounds=body, paint=(title,),
                        children=[
            *_month_grid(ui, frame, grid, first_weekday),
            widgets.icon_button(ui, (x1 + m.dp(8), arrows[0], x1 + m.dp(56), arrows[1]), "Previous month",
                                _move_month(frame, year, month, -1), f"{A}prev"),
            widgets.icon_button(ui, (x2 - m.dp(56), arrows[0], x2 - m.dp(8), arrows[1]), "Next month",
                                _move_month(frame, year, month, 1), f"{A}next")])]
    picker = Node("android.widget.DatePicker", resource_id=f"{A}datePicker", bounds=(x1, y1, x2, body[3]),
                  children=[header, Node("android.widget.ViewAnimator", resource_id=f"{A}animator", bounds=body,
                                         children=content)])
    return [_panel(box, [picker, *_buttons(ui, y2 - m.dp(56), x2, _apply(on_set, picked))], f"{A}parentPanel")]


# --- DatePicker, spinner mode -------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class _Wheel:
    """One NumberPicker of the spinner: its id, its values and how a value shows."""

    name: str
    low: int
    high: int
    show: Callable[[int], str]

    def parse(self, typed: str) -> int | None:
        """The value a typed text names, if it is one of the wheel's."""
        typed = typed.strip()
        if self.name == "month":
            found = [i + 1 for i, name in enumerate(calendar.month_name[1:]) if typed and name.lower().startswith(typed.lower())]
            value = found[0] if found and len(typed) >= 3 else (int(typed) if typed.isdigit() else None)
        else:
            value = int(typed) if typed.isdigit() else None
        return value if value is not None and self.low <= value <= self.high else None


def _spinner_value(ui: Session, frame: Frame) -> date:
    return date.fromisoformat(ui.draft(frame, "value") or str(frame.args["date"]))


def _wheels(value: date) -> tuple[_Wheel, ...]:
    return (_Wheel("month", 1, 12, lambda v: SHORT_MONTHS[v - 1]),
            _Wheel("day", 1, calendar.monthrange(value.year, value.month)[1], lambda v: f"{v:02d}"),
            _Wheel("year", FIRST_YEAR, LAST_YEAR, str))


def _with(value: date, wheel: str, number: int) -> date:
    """`value` with one field changed, the day clamped to the month's length (as the spinner does)."""
    year, month, day = value.year, value.month, value.day
    year, month, day = {"month": (year, number, day), "day": (year, month, number), "year": (number, month, day)}[wheel]
    return date(year, month, min(day, calendar.monthrange(year, month)[1]))


def _commit(ui: Session, frame: Frame) -> date:
    """Take the typed values that are valid into the spinner's date; clear what was typed."""
    value = _spinner_value(ui, frame)
    for wheel in _wheels(value):
        typed = ui.draft(frame, wheel.name)
        if typed:
            number = next(w for w in _wheels(value) if w.name == wheel.name).parse(typed)  # the day's range may move
            if number is not None:
                value = _with(value, wheel.name, number)
            ui.set_draft(frame, wheel.name, "")
    ui.set_draft(frame, "value", value.isoformat())
    return value


def spinner_date_dialog(ui: Session, frame: Frame, on_set: DateSet, rid: str, with_day: bool = True) -> list[Node]:
    """An AlertDialog holding a spinner DatePicker (`rid`) opened on `frame.args["date"]`; OK
    calls `on_set(ui, date)` after closing. `with_day=False` hides the day wheel (a month picker)."""
    m = ui.m
    value = _spinner_value(ui, frame)
    wheels = [w for w in _wheels(value) if with_day or w.name != "day"]

    def step(wheel: _Wheel, delta: int) -> Action:
        def act(s: Session) -> None:
            current = _commit(s, frame)
            number = {"month": current.month, "day": current.day, "year": current.year}[wheel.name]
            span = wheel.high - wheel.low + 1
            shifted = wheel.low + (number - wheel.low + delta) % span if wheel.name != "year" else \
                min(wheel.high, max(wheel.low, number + delta))
            s.set_draft(frame, "value", _with(current, wheel.name, shifted).isoformat())
        return act

    def ok(s: Session) -> None:
        _apply(on_set, _commit(s, frame))(s)

    box = _dialog_box(ui, m.dp(24 + 168 + 64))
    x1, y1, x2, y2 = box[0] + m.dp(24), box[1] + m.dp(24), box[2] - m.dp(24), box[3] - m.dp(64)
    width = (x2 - x1) // len(wheels)
    numbers = {"month": value.month, "day": value.day, "year": value.year}
    columns = [_wheel_node(ui, frame, wheel, numbers[wheel.name], (x1 + i * width, y1, x1 + (i + 1) * width, y2),
                           step) for i, wheel in enumerate(wheels)]
    picker = Node("android.widget.DatePicker", resource_id=rid, bounds=(x1, y1, x2, y2), children=[
        Node("android.widget.LinearLayout", resource_id=f"{A}pickers", bounds=(x1, y1, x2, y2), children=columns)])
    return [_panel(box, [picker, *_buttons(ui, box[3] - m.dp(56), box[2], ok)], f"{A}parentPanel")]


def _wheel_node(ui: Session, frame: Frame, wheel: _Wheel, number: int, box: Box,
                step: Callable[[_Wheel, int], Action]) -> Node:
    """One NumberPicker: the value before (a tap: back one), the field, the value after."""
    x1, y1, x2, y2 = box
    third = (y2 - y1) // 3
    span = wheel.high - wheel.low + 1
    before, after = (wheel.low + (number - wheel.low + d) % span for d in (-1, 1))
    key = frame.key(wheel.name)
    field = Node(EDIT_TEXT, text=ui.draft(frame, wheel.name), hint=wheel.show(number),
                 resource_id=f"{A}numberpicker_input", bounds=(x1, y1 + third, x2, y2 - third), clickable=True,
                 focusable=True, long_clickable=True, focused=ui.focused_key == key, field=key,
                 text_size=ui.m.dp(20), action=lambda s: s.focus(frame, wheel.name))
    return Node("android.widget.NumberPicker", resource_id=f"{A}{wheel.name}", bounds=box, children=[
        widgets.button(ui, (x1, y1, x2, y1 + third), wheel.show(before), step(wheel, -1)), field,
        widgets.button(ui, (x1, y2 - third, x2, y2), wheel.show(after), step(wheel, 1))])


# --- TimePickerDialog and MaterialTimePicker ----------------------------------------------------
@dataclasses.dataclass(frozen=True)
class TimeLook:
    """The ids and labels of one time picker (None: that part has no id)."""

    hours: str
    minutes: str
    am: str
    pm: str
    face: str
    toggle: str
    input_hour: str | None  # the keyboard mode's hour field, or None: it sits in `hour_box`
    input_minute: str | None
    hour_box: str
    minute_box: str
    hour_label: tuple[str, str]  # (id, text) of the field's label
    minute_label: tuple[str, str]
    ok: str
    cancel: str
    title: tuple[str, str] | None  # (id, text) of the title, or None
    prompt: tuple[str, str] | None  # the keyboard mode's heading
    face_class: str
    hour_desc: Callable[[str, bool], str]  # (shown value, 24-hour) -> the description of an hour
    minute_desc: Callable[[str], str]
    material: bool  # Material Components' picker: value texts on the face ("00", "5", …), chips, a toggle group


ANDROID = TimeLook(
    hours=f"{A}hours", minutes=f"{A}minutes", am=f"{A}am_label", pm=f"{A}pm_label", face=f"{A}radial_picker",
    toggle=f"{A}toggle_mode", input_hour=f"{A}input_hour", input_minute=f"{A}input_minute", hour_box=f"{A}input_block",
    minute_box=f"{A}input_block", hour_label=(f"{A}label_hour", "hour"), minute_label=(f"{A}label_minute", "minute"),
    ok=f"{A}button1", cancel=f"{A}button2", title=None, prompt=(f"{A}top_label", "Type in time"),
    face_class=VIEW, hour_desc=lambda value, _: str(int(value)), minute_desc=lambda value: str(int(value)),
    material=False)


def material_look(package: str) -> TimeLook:
    """MaterialTimePicker as an app bundling Material Components 1.9 shows it (ids in `package`)."""
    p = f"{package}:id/"
    return TimeLook(
        hours=f"{p}material_hour_tv", minutes=f"{p}material_minute_tv", am=f"{p}material_clock_period_am_button",
        pm=f"{p}material_clock_period_pm_button", face=f"{p}material_clock_face",
        toggle=f"{p}material_timepicker_mode_button", input_hour=None, input_minute=None,
        hour_box=f"{p}material_hour_text_input", minute_box=f"{p}material_minute_text_input",
        hour_label=(f"{p}material_label", "Hour"), minute_label=(f"{p}material_label", "Minute"),
        ok=f"{p}material_timepicker_ok_button", cancel=f"{p}material_timepicker_cancel_button",
        title=(f"{p}header_title", "Select time"), prompt=None, face_class="android.view.ViewGroup",
        hour_desc=lambda value, h24: f"{value} hours" if h24 else f"{value} o'clock",
        minute_desc=lambda value: f"{value} minutes", material=True)


TOGGLE_TO_KEYBOARD = "Switch to text input mode for the time input."
TOGGLE_TO_CLOCK = "Switch to clock mode for the time input."


def _clock(ui: Session, frame: Frame) -> tuple[int, int]:
    hour = ui.draft(frame, "hour")
    minute = ui.draft(frame, "minute")
    return (int(hour) if hour else int(frame.args["hour"])), (int(minute) if minute else int(frame.args["minute"]))


def _shown_hour(hour: int, h24: bool) -> int:
    return hour if h24 else (hour % 12 or 12)


def face_numbers(selecting_minutes: bool, h24: bool, look: TimeLook) -> list[tuple[int, str]]:
    """The face's (value, text) in drawing order: hours (24 in two rings, or 12 to 11) or minutes by 5."""
    if selecting_minutes:
        return [(v, f"{v:02d}" if look.material and v == 0 else str(v)) for v in range(0, 60, 5)]
    if h24:
        return [(v, "00" if v == 0 and look.material else str(v)) for v in range(24)]
    return [(v, str(v)) for v in (12, *range(1, 12))]


def _face(ui: Session, frame: Frame, box: Box, look: TimeLook, h24: bool) -> Node:
    """The clock face: each number a node described as its picker describes it; a tap picks it."""
    m = ui.m
    hour, minute = _clock(ui, frame)
    minutes = ui.draft(frame, "selecting") == "minute"
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    radius = min(x2 - x1, y2 - y1) // 2 - m.dp(20)
    nodes, hand = [], (cx, cy)
    for value, label in face_numbers(minutes, h24, look):
        ring = radius * (0.62 if h24 and not minutes and (value == 0 or value > 12) else 1.0)
        position = (value / 5 if minutes else value % 12)
        angle = math.radians(position * 30 - 90)
        x, y = cx + int(ring * math.cos(angle)), cy + int(ring * math.sin(angle))
        # neighbours 30° apart on a small face (high density) must not reach each other's centre:
        # a tap there would land on the next (ClockHandView picks by angle, never by bounds). Their
        # centres are >= chord / sqrt 2 apart on one axis, so a half side of 0.65 chord stays short
        size = min(m.dp(40), int(1.3 * 2 * ring * math.sin(math.radians(15))))
        if minutes:
            picked = value == minute
            desc = look.minute_desc(label)

            def act(s: Session, v: int = value) -> None:
                s.set_draft(frame, "minute", str(v))
        else:
            picked = value == (hour if h24 else _shown_hour(hour, False))
            desc = look.hour_desc(label, h24)

            def act(s: Session, v: int = value) -> None:
                pm = _clock(s, frame)[0] >= 12
                s.set_draft(frame, "hour", str(v if h24 else v % 12 + (12 if pm else 0)))
                s.set_draft(frame, "selecting", "minute")
        nodes.append(Node(widgets.TEXT_VIEW if look.material else VIEW, text=label if look.material else "",
                          content_desc=desc, bounds=(x - size // 2, y - size // 2, x + size // 2, y + size // 2),
                          clickable=True, focusable=True, selected=picked, text_size=m.dp(16),
                          background=widgets.ACCENT if picked else None, action=act))
        hand = (x, y) if picked else hand
    dot = m.dp(4)  # the hand from the centre to the picked number, painted (no node in the dump)
    return Node(look.face_class, resource_id=look.face, bounds=box, children=nodes,
                ink=((((cx, cy), hand), widgets.ACCENT, m.dp(2)),),
                paint=(Painted((cx - dot, cy - dot, cx + dot, cy + dot), fill=widgets.ACCENT, oval=True),))


def _period(ui: Session, frame: Frame, look: TimeLook, box: Box) -> list[Node]:
    """AM and PM (12-hour time only): a tap moves the hour to that half of the day."""
    m = ui.m
    hour, _ = _clock(ui, frame)
    x1, y1, x2, y2 = box
    middle = (y1 + y2) // 2

    def half(pm: bool) -> Action:
        return lambda s: s.set_draft(frame, "hour", str(_clock(s, frame)[0] % 12 + (12 if pm else 0)))
    return [Node("android.widget.RadioButton", text=label, resource_id=rid, bounds=b, checkable=True,
                 checked=(hour >= 12) == pm, clickable=True, focusable=True, text_size=m.dp(16), action=half(pm))
            for label, rid, b, pm in (("AM", look.am, (x1, y1, x2, middle), False),
                                      ("PM", look.pm, (x1, middle, x2, y2), True))]


def _typed_time(ui: Session, frame: Frame, h24: bool) -> tuple[int, int] | None:
    """The keyboard mode's hour and minute, if they make a time."""
    hour, minute = _clock(ui, frame)
    typed_hour, typed_minute = ui.draft(frame, "in_hour"), ui.draft(frame, "in_minute")
    shown = f"{_shown_hour(hour, h24):02d}" if h24 else str(_shown_hour(hour, h24))
    text_hour, text_minute = (typed_hour or shown).strip(), (typed_minute or f"{minute:02d}").strip()
    if not (text_hour.isdigit() and text_minute.isdigit()):
        return None
    new_hour, new_minute = int(text_hour), int(text_minute)
    if new_minute > 59 or (h24 and new_hour > 23) or (not h24 and not 1 <= new_hour <= 12):
        return None
    if not h24:
        new_hour = new_hour % 12 + (12 if hour >= 12 else 0)
    return new_hour, new_minute


def _input_field(ui: Session, frame: Frame, name: str, box: Box, value: str, rid: str | None, label: tuple[str, str],
                 holder: str | None) -> list[Node]:
    """One keyboard-mode field (an EditText showing `value` until typed into) and its label."""
    m = ui.m
    key = frame.key(name)
    x1, y1, x2, y2 = box
    field = Node(EDIT_TEXT, text=ui.draft(frame, name), hint=value, resource_id=rid or "",
                 bounds=(x1, y1, x2, y2 - m.dp(24)), clickable=True, focusable=True, long_clickable=True,
                 focused=ui.focused_key == key, field=key, text_size=m.dp(32),
                 action=lambda s: s.focus(frame, name))
    caption = widgets.text(ui, (x1, y2 - m.dp(24), x2, y2), label[1], label[0], size_dp=12)
    if holder is None:
        return [field, caption]
    return [Node("android.widget.FrameLayout", resource_id=holder, bounds=box, children=[field, caption])]


def _keyboard_body(ui: Session, frame: Frame, look: TimeLook, h24: bool, box: Box, on_set: TimeSet
                   ) -> tuple[list[Node], Action]:
    """The keyboard mode from the top of `box`: the prompt, the hour and minute fields, AM/PM;
    and OK (nothing while the fields make no time)."""
    m = ui.m
    x1, y, x2, _ = box
    hour, minute = _clock(ui, frame)
    nodes: list[Node] = []
    if look.prompt is not None:
        nodes.append(widgets.text(ui, (x1 + m.dp(24), y, x2 - m.dp(24), y + m.dp(32)), look.prompt[1], look.prompt[0],
                                  size_dp=14))
        y += m.dp(40)
    shown_hour = f"{_shown_hour(hour, h24):02d}" if h24 or look.material else str(_shown_hour(hour, h24))
    holders = (look.hour_box, look.minute_box) if look.material else (None, None)
    fields = (_input_field(ui, frame, "in_hour", (x1 + m.dp(24), y, x1 + m.dp(124), y + m.dp(96)), shown_hour,
                           look.input_hour, look.hour_label, holders[0])
              + _input_field(ui, frame, "in_minute", (x1 + m.dp(148), y, x1 + m.dp(248), y + m.dp(96)),
                             f"{minute:02d}", look.input_minute, look.minute_label, holders[1]))
    nodes += fields if look.material else [Node("android.widget.RelativeLayout", resource_id=look.hour_box,
                                                bounds=(x1 + m.dp(24), y, x1 + m.dp(248), y + m.dp(96)),
                                                children=fields)]
    period = (x2 - m.dp(88), y, x2 - m.dp(24), y + m.dp(80))
    if not h24 and look.material:
        nodes += _period(ui, frame, look, period)
    elif not h24:
        flip = lambda s: s.set_draft(frame, "hour", str((_clock(s, frame)[0] + 12) % 24))  # noqa: E731
        nodes.append(Node("android.widget.Spinner", resource_id=f"{A}am_pm_spinner", bounds=period, clickable=True,
                          focusable=True, action=flip,
                          children=[widgets.text(ui, period, "PM" if hour >= 12 else "AM", f"{A}text1")]))
    typed = _typed_time(ui, frame, h24)
    return nodes, (_apply(on_set, *typed) if typed is not None else (lambda s: None))


def _clock_body(ui: Session, frame: Frame, look: TimeLook, h24: bool, box: Box, on_set: TimeSet
                ) -> tuple[list[Node], Action]:
    """The clock mode from the top of `box`: the hour and minute (a tap selects which the face
    sets), AM/PM, the face; and OK."""
    m = ui.m
    x1, y, x2, _ = box
    hour, minute = _clock(ui, frame)
    minutes = ui.draft(frame, "selecting") == "minute"
    chips = (x1 + m.dp(24), y, x2 - m.dp(96), y + m.dp(80))
    half = (chips[2] - chips[0]) // 2
    shown_hour = str(_shown_hour(hour, h24))
    chip_class = "com.google.android.material.chip.Chip" if look.material else widgets.TEXT_VIEW
    parts = ((shown_hour, look.hour_desc(shown_hour, h24), look.hours, chips[0], chips[0] + half - m.dp(8), "hour"),
             (f"{minute:02d}", look.minute_desc(str(minute)), look.minutes, chips[0] + half + m.dp(8), chips[2],
              "minute"))
    nodes = [Node(chip_class, text=value, content_desc=desc if look.material else "", resource_id=rid,
                  bounds=(left, chips[1], right, chips[3]), clickable=True, focusable=True, checkable=look.material,
                  checked=look.material and minutes == (which == "minute"), text_size=m.dp(48),
                  action=lambda s, w=which: s.set_draft(frame, "selecting", w))
             for value, desc, rid, left, right, which in parts]
    if not h24:
        nodes += _period(ui, frame, look, (x2 - m.dp(88), y, x2 - m.dp(24), y + m.dp(80)))
    nodes.append(_face(ui, frame, (x1 + m.dp(24), chips[3] + m.dp(8), x2 - m.dp(24), chips[3] + m.dp(280)), look, h24))
    return nodes, _apply(on_set, hour, minute)


def time_dialog(ui: Session, frame: Frame, on_set: TimeSet, look: TimeLook = ANDROID, h24: bool | None = None) -> list[Node]:
    """A time picker opened on `frame.args` hour and minute, in clock mode (the keyboard mode
    after its toggle); OK calls `on_set(ui, hour, minute)` after closing. `h24`: the picker's
    24-hour setting (None: the device's)."""
    m = ui.m
    h24 = device_24h(ui) if h24 is None else h24
    keyboard = ui.draft(frame, "mode") == "keyboard"
    box = _dialog_box(ui, m.dp((64 + 48 + 104 + 64) if keyboard else (64 + 88 + 280 + 64)))
    x1, y1, x2, y2 = box
    nodes: list[Node] = []
    top = y1 + m.dp(16)
    if look.title is not None:
        nodes.append(widgets.text(ui, (x1 + m.dp(24), top, x2 - m.dp(24), top + m.dp(32)), look.title[1],
                                  look.title[0], size_dp=14))
        top += m.dp(40)
    body, ok = (_keyboard_body if keyboard else _clock_body)(ui, frame, look, h24, (x1, top, x2, y2), on_set)

    def toggle_mode(s: Session) -> None:
        s.set_draft(frame, "mode", "" if keyboard else "keyboard")
        for name in ("in_hour", "in_minute"):
            s.set_draft(frame, name, "")
        s.focus(frame, None if keyboard else "in_hour")
    toggle = dataclasses.replace(  # ic_keyboard_black_24dp in clock mode, ic_clock_black_24dp in keyboard mode
        widgets.icon_button(ui, (x1 + m.dp(12), y2 - m.dp(56), x1 + m.dp(60), y2 - m.dp(8)),
                            TOGGLE_TO_CLOCK if keyboard else TOGGLE_TO_KEYBOARD, toggle_mode, look.toggle,
                            class_name=BUTTON if look.material else IMAGE_BUTTON),
        icon="schedule" if keyboard else "keyboard")
    buttons = _buttons(ui, y2 - m.dp(56), x2, ok, look.ok, look.cancel)
    return [_panel(box, [*nodes, *body, toggle, *buttons], "" if look.material else f"{A}parentPanel")]
