"""Clock (DeskClock): the four tabs, the alarms, the timer keypad and the stopwatch.

Ids and labels follow AOSP DeskClock (res/layout/timer_setup_time.xml `timer_setup_time`,
timer_setup_digits.xml `timer_setup_digit_0` … `_9` and `timer_setup_delete`; the shared
floating button `fab` described "Start" or "Pause"; the stopwatch's `left_button` "Reset" and
`right_button` "Lap"; the tabs Alarm, Clock, Timer and Stopwatch), with the Google Clock's
display "00h 00m 00s" that AndroidWorld's clock checks read. The keypad enters digits from the
right (1, 2, 3 shows "00h 01m 23s"); Start starts the timer (its countdown replaces the
keypad). The stopwatch runs on the device clock.

The Alarm tab (AlarmClockFragment, res/layout/alarm_clock.xml, alarm_time_collapsed.xml,
alarm_time_expanded.xml, alarm_time_summary.xml at LineageOS lineage-20.0): the alarms by time,
each its `digital_clock` (a tap opens the time picker), `onoff` switch, `days_of_week` summary
and `arrow` ("Expand alarm" / "Collapse alarm"); the expanded one adds `edit_label`, the repeat
chips `day_button_0` … `_6` ("S" … "S", described "Sunday" …, Sunday first on en-US) and
`delete` "Delete"; "No Alarms" (`alarms_empty_view`) when there are none; the `fab` "Add alarm"
opens Material's time picker (pickers.material_look), whose OK saves an enabled alarm and shows
it expanded. Rows, instances and log lines are taskkit.sim.deskclock's. Simplified: the Clock
tab is empty; one timer, no labels, +1 minute or laps list; the stopwatch's hundredths stay
"00"; an alarm's label, ringtone and vibrate cannot be edited. The list scrolls (at density 550 an
expanded alarm's chips and Delete are below the fold), opening at the expanded alarm.
"""
from __future__ import annotations

from typing import Callable

from taskkit.apps.clock import PACKAGE, TABS, alarms, timer_description, timer_text
from taskkit.sim.gui import deskclock
from taskkit.sim.devicetime import local_time
from taskkit.sim.gui import appdata, pickers, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session
from taskkit.sim.state import SimState

ID = f"{PACKAGE}:id/"
_STOPWATCH_KEYS = ("since", "elapsed")


def _stopwatch(frame: Frame) -> dict[str, int]:
    return {key: int(frame.args[key]) for key in _STOPWATCH_KEYS if key in frame.args}


def _go(frame: Frame, tab: str, **changes: object):
    """Show `tab`, keeping the stopwatch's state (it runs whatever tab shows)."""
    def act(ui: Session) -> None:
        args = {**_stopwatch(frame), **changes}
        ui.replace("main", tab=tab, **{k: v for k, v in args.items() if v is not None})
    return act


def _fab(ui: Session, action, desc: str) -> Node:
    """The floating button, centred above the tabs."""
    m = ui.m
    bottom, centre = m.content_bottom - m.dp(96), m.width // 2
    return widgets.icon_button(ui, (centre - m.dp(36), bottom - m.dp(72), centre + m.dp(36), bottom), desc, action,
                               f"{ID}fab")


def _digits(ui: Session, frame: Frame) -> str:
    return ui.draft(frame, "digits")


def _split(digits: str) -> tuple[int, int, int]:
    padded = digits.rjust(6, "0")
    return int(padded[:2]), int(padded[2:4]), int(padded[4:])


def _press(frame: Frame, key: str):
    def act(ui: Session) -> None:
        digits = _digits(ui, frame)
        if key == "delete":
            ui.set_draft(frame, "digits", digits[:-1])
        elif len(digits) < 6 and (digits or key != "0"):
            ui.set_draft(frame, "digits", digits + key)
    return act


def _tabs(ui: Session, frame: Frame, current: str) -> list[Node]:
    m = ui.m
    width, top = m.width // len(TABS), m.content_bottom - m.dp(80)
    nodes = []
    for index, tab in enumerate(TABS):
        box = (index * width, top, (index + 1) * width, m.content_bottom)
        label = widgets.text(ui, (box[0], top + m.dp(44), box[2], top + m.dp(72)), tab, f"{ID}navigation_bar_item_large_label_view")
        nodes.append(Node("android.widget.FrameLayout", content_desc=tab, bounds=box, clickable=True, focusable=True,
                          selected=tab == current, action=_tab_tapped(frame, tab), children=[label]))
    return nodes


def _tab_tapped(frame: Frame, tab: str):
    """A tab tapped: the tab, and its event line when it was not the selected one
    (DeskClock.selectedTabChanged sends the event on a change only)."""
    def act(ui: Session) -> None:
        if tab != _tab(frame):
            deskclock.tab_shown(ui.state, tab)
        _go(frame, tab)(ui)
    return act


# --- the Alarm tab ------------------------------------------------------------------------------
def _then_show(frame_args: dict[str, int], change: Callable[[SimState], object], expanded: int | None = None):
    """Run `change(state)` on the alarms, then show the Alarm tab with alarm `expanded` open
    (-1: the alarm whose id `change` returns, a new one)."""
    def act(ui: Session) -> None:
        result = change(ui.state)
        shown = result if expanded == -1 else expanded
        ui.replace("main", tab="Alarm", **{k: v for k, v in {**frame_args, "expanded": shown}.items() if v is not None})
    return act


def _alarm_row(ui: Session, frame: Frame, alarm: dict, top: int, expanded: bool) -> tuple[list[Node], int]:
    """One alarm of the list (alarm_time_collapsed.xml / alarm_time_expanded.xml); its bottom."""
    m, aid, keep = ui.m, int(alarm["_id"]), _stopwatch(frame)
    hour, minutes, bits = int(alarm["hour"]), int(alarm["minutes"]), int(alarm["daysofweek"])
    left, right = m.dp(16), m.width - m.dp(16)
    nodes = [widgets.text(ui, (left, top + m.dp(8), right - m.dp(120), top + m.dp(64)),
                          alarms.clock_text(hour, minutes, pickers.device_24h(ui)), f"{ID}digital_clock", size_dp=44,
                          action=lambda s: s.push("alarm_time", alarm=aid, **pickers.time_args(hour, minutes), **keep)),
             widgets.icon_button(ui, (right - m.dp(48), top + m.dp(64), right, top + m.dp(112)),
                                 "Collapse alarm" if expanded else "Expand alarm",
                                 _go(frame, "Alarm", expanded=None if expanded else aid), f"{ID}arrow"),
             Node("android.widget.Switch", resource_id=f"{ID}onoff", bounds=(right - m.dp(64), top + m.dp(16), right,
                  top + m.dp(56)), checkable=True, checked=bool(alarm["enabled"]), clickable=True, focusable=True,
                  action=_then_show(keep, lambda st: deskclock.update_alarm(st, aid, {"enabled": int(not alarm["enabled"])}),
                                    aid if expanded else None)),
             widgets.text(ui, (left, top + m.dp(72), right - m.dp(64), top + m.dp(96)),
                          alarms.repeat_summary(bits) or ("Not scheduled" if not alarm["enabled"] else "Tomorrow"),
                          f"{ID}days_of_week")]
    if alarm["label"] or expanded:
        nodes.append(widgets.text(ui, (left, top + m.dp(104), right, top + m.dp(128)), alarm["label"] or "Add label",
                                  f"{ID}edit_label" if expanded else f"{ID}label"))
    bottom = top + m.dp(136)
    if not expanded:
        return nodes, bottom
    size = (right - left) // 7
    for slot, day in enumerate(alarms.CHIP_ORDER):
        on = bool(bits & alarms.day_bit(day))
        flipped = bits ^ alarms.day_bit(day)
        nodes.append(Node("android.widget.ToggleButton", text=alarms.DAY_NAMES[day][0], content_desc=alarms.DAY_NAMES[day],
                          resource_id=f"{ID}day_button_{slot}", bounds=(left + slot * size, bottom, left + (slot + 1) * size,
                          bottom + m.dp(48)), checkable=True, checked=on, clickable=True, focusable=True,
                          action=_then_show(keep, lambda st, b=flipped: deskclock.update_alarm(st, aid, {"daysofweek": b}),
                                            aid)))
    bottom += m.dp(56)
    nodes.append(widgets.button(ui, (left, bottom, left + m.dp(120), bottom + m.dp(48)), "Delete",
                                _then_show(keep, lambda st: deskclock.delete_alarm(st, aid)), f"{ID}delete"))
    return nodes, bottom + m.dp(64)


def _alarm_tab(ui: Session, frame: Frame) -> list[Node]:
    """AlarmClockFragment: the alarms by time (one expanded) in `alarms_recycler_view`, scrolling
    when they do not fit, the expanded one scrolled into view (the fragment's scroll to the alarm
    it expands: setSmoothScrollStableId); or "No Alarms"; the Add alarm FAB over it."""
    m = ui.m
    alarm_rows = deskclock.alarm_rows(ui.state)
    expanded = int(frame.args.get("expanded") or 0)
    box = (0, m.status_bar + m.dp(64), m.width, m.content_bottom - m.dp(176))
    nodes: list[Node] = []
    if not alarm_rows:
        top = box[1]
        nodes.append(widgets.text(ui, (m.dp(16), top + m.dp(120), m.width - m.dp(16), top + m.dp(152)), "No Alarms",
                                  f"{ID}alarms_empty_view", desc="No Alarms"))
    rows, start, y = [], 0, 0
    for alarm in alarm_rows:
        opened = int(alarm["_id"]) == expanded
        height = _alarm_row(ui, frame, alarm, 0, opened)[1]
        if opened:  # the least scroll that shows it whole (or its top, when taller than the list)
            start = max(0, min(y, y + height - (box[3] - box[1])))
        rows.append(widgets.Row(height, lambda b, a=alarm, o=opened: Node(
            "android.view.ViewGroup", bounds=b, children=_alarm_row(ui, frame, a, b[1], o)[0])))
        y += height
    if rows:
        nodes.append(widgets.scroll_list(ui, frame, "alarms", box, rows, rid=f"{ID}alarms_recycler_view", start=start))
    now = local_time(ui.state)
    keep = _stopwatch(frame)
    nodes.append(_fab(ui, lambda s: s.push("alarm_time", alarm=0, **pickers.time_args(now.hour, now.minute), **keep),
                      "Add alarm"))
    return nodes


def _alarm_time(ui: Session, frame: Frame) -> list[Node]:
    """The time picker of a new alarm (`alarm` 0) or of alarm `alarm`: Material's, as Google Clock's."""
    aid, keep = int(frame.args["alarm"]), _stopwatch(frame)

    def on_set(s: Session, hour: int, minute: int) -> None:
        if aid:
            _then_show(keep, lambda st: deskclock.update_alarm(st, aid, {"hour": hour, "minutes": minute}), aid)(s)
        else:
            _then_show(keep, lambda st: deskclock.add_alarm(st, hour, minute), -1)(s)
    return pickers.time_dialog(ui, frame, on_set, pickers.material_look(PACKAGE))


def _timer(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    if "timer_ms" in frame.args:  # a started timer counts down in place of the keypad
        left = max(0, int(frame.args["timer_ms"]) - (appdata.now_ms(ui) - int(frame.args["timer_started"])))
        seconds = left // 1000
        text = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        return [widgets.text(ui, (m.dp(16), m.status_bar + m.dp(120), m.width - m.dp(16), m.status_bar + m.dp(200)),
                             text, f"{ID}timer_time_text", size_dp=56),
                _fab(ui, lambda s: None, "Pause")]
    hours, minutes, seconds = _split(_digits(ui, frame))
    top = m.status_bar + m.dp(48)
    nodes = [widgets.text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(72)), timer_text(hours, minutes, seconds),
                          f"{ID}timer_setup_time", desc=timer_description(hours, minutes, seconds), size_dp=44)]
    keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "", "0", "delete"]
    size, pad_top = m.width // 3, top + m.dp(96)
    # 88 dp rows, shrunk to fit above the Start button on a short screen (a high density): the
    # keypad stays on the screen, as an app laid out for small screens keeps it
    height = min(m.dp(88), (m.content_bottom - m.dp(176) - pad_top) // 4)
    for index, key in enumerate(keys):
        if not key:
            continue
        row, column = divmod(index, 3)
        box = (column * size, pad_top + row * height, (column + 1) * size, pad_top + (row + 1) * height)
        if key == "delete":
            nodes.append(widgets.button(ui, box, "\u232b", _press(frame, key), f"{ID}timer_setup_delete", desc="Delete"))
        else:
            nodes.append(widgets.button(ui, box, key, _press(frame, key), f"{ID}timer_setup_digit_{key}"))
    digits = _digits(ui, frame)
    if digits:
        total = (hours * 3600 + minutes * 60 + seconds) * 1000
        nodes.append(_fab(ui, _go(frame, "Timer", timer_ms=total, timer_started=appdata.now_ms(ui)), "Start"))
    return nodes


def _stopwatch_screen(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    state = _stopwatch(frame)
    running = "since" in state
    elapsed = state.get("elapsed", 0) + (appdata.now_ms(ui) - state["since"] if running else 0)
    seconds = elapsed // 1000
    top = m.status_bar + m.dp(120)
    nodes = [widgets.text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(80)),
                          f"{seconds // 60:02d}:{seconds % 60:02d}.00", f"{ID}stopwatch_time_text", size_dp=56)]
    if running:
        nodes += [_fab(ui, _paused(frame, elapsed), "Pause"),
                  widgets.button(ui, _beside(ui, +1), "", lambda s: None, f"{ID}right_button", desc="Lap")]
    else:
        nodes.append(_fab(ui, _started(frame, state.get("elapsed", 0)), "Start"))
        if elapsed:
            nodes.append(widgets.button(ui, _beside(ui, -1), "", _reset(frame), f"{ID}left_button", desc="Reset"))
    return nodes


def _beside(ui: Session, side: int) -> tuple[int, int, int, int]:
    """A 48 dp button left (-1) or right (+1) of the floating button."""
    m = ui.m
    centre, bottom = m.width // 2 + side * m.dp(96), m.content_bottom - m.dp(108)
    return centre - m.dp(24), bottom - m.dp(48), centre + m.dp(24), bottom


def _started(frame: Frame, elapsed: int):
    def start(ui: Session) -> None:
        deskclock.stopwatch_event(ui.state, "Start")
        ui.replace("main", tab="Stopwatch", since=appdata.now_ms(ui), elapsed=elapsed)
    return start


def _paused(frame: Frame, elapsed: int):
    def pause(ui: Session) -> None:
        deskclock.stopwatch_event(ui.state, "Pause")
        ui.replace("main", tab="Stopwatch", elapsed=elapsed)
    return pause


def _reset(frame: Frame):
    def reset(ui: Session) -> None:
        deskclock.stopwatch_event(ui.state, "Reset")
        ui.replace("main", tab="Stopwatch")
    return reset


def _tab(frame: Frame) -> str:
    """The selected tab; Clock on a first run (TabDAO's default, Tab.CLOCKS)."""
    return str(frame.args.get("tab") or "Clock")


def _main(ui: Session, frame: Frame) -> list[Node]:
    tab = _tab(frame)
    body = {"Alarm": _alarm_tab, "Timer": _timer, "Stopwatch": _stopwatch_screen}.get(tab)
    return (body(ui, frame) if body else []) + _tabs(ui, frame, tab)


APP = register(AppScreens(PACKAGE, {"main": Screen(_main), "alarm_time": Screen(_alarm_time)}, first="main"))
