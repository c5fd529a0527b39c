"""Clock (DeskClock): the four tabs, the timer keypad and the stopwatch.

Ids and labels follow AOSP DeskClock (res/layout/timer_setup_time.xml `timer_setup_time`,
timer_setup_digits.xml `timer_setup_digit_0` … `_9` and `timer_setup_delete`; the shared
floating button `fab` described "Start" or "Pause"; the stopwatch's `left_button` "Reset" and
`right_button` "Lap"; the tabs Alarm, Clock, Timer and Stopwatch), with the Google Clock's
display "00h 00m 00s" that AndroidWorld's clock checks read. The keypad enters digits from the
right (1, 2, 3 shows "00h 01m 23s"); Start starts the timer (its countdown replaces the
keypad). The stopwatch runs on the device clock. Simplified: Alarm and Clock are empty tabs; one
timer, no labels, +1 minute or laps list; the stopwatch's hundredths stay "00".
"""
from __future__ import annotations

from taskkit.apps.clock import PACKAGE, TABS, timer_description, timer_text
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

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
                          selected=tab == current, action=_go(frame, tab), children=[label]))
    return nodes


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
    for index, key in enumerate(keys):
        if not key:
            continue
        row, column = divmod(index, 3)
        box = (column * size, pad_top + row * m.dp(88), (column + 1) * size, pad_top + (row + 1) * m.dp(88))
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
    return lambda ui: ui.replace("main", tab="Stopwatch", since=appdata.now_ms(ui), elapsed=elapsed)


def _paused(frame: Frame, elapsed: int):
    return lambda ui: ui.replace("main", tab="Stopwatch", elapsed=elapsed)


def _reset(frame: Frame):
    return lambda ui: ui.replace("main", tab="Stopwatch")


def _main(ui: Session, frame: Frame) -> list[Node]:
    tab = str(frame.args.get("tab") or "Alarm")
    body = {"Timer": _timer, "Stopwatch": _stopwatch_screen}.get(tab)
    return (body(ui, frame) if body else []) + _tabs(ui, frame, tab)


APP = register(AppScreens(PACKAGE, {"main": Screen(_main)}, first="main"))
