"""`input` on the simulated screen: taps, long presses, swipes, key events and text.

* `tap X Y` reaches the topmost touchable node under the point (the last one drawn, as Android
  dispatches a touch): a slider takes the position, a text field takes focus, anything else runs
  its action. A press held still for the long-press timeout (`input swipe X Y X Y 1000`) runs
  the node's long-click action; on a text field it focuses it and opens the floating text
  toolbar (Paste, Select all: taskkit/sim/gui/texttoolbar.py); otherwise its click (as a View
  does on release).
* `swipe X1 Y1 X2 Y2 [MS]` (and `draganddrop`): from the top edge down pulls the shade; from the
  gesture bar up goes home; on a slider it sets the slider; otherwise it drags the node under
  its start that takes drags (a list scrolls by the finger's travel plus the fling OverScroller
  computes from the release velocity, `fling_distance`; the home screen opens the
  app drawer on a swipe up, the shade closes on a swipe up, a drawing canvas draws a line from
  the start to the end).
* `keyevent`: BACK, HOME, MENU (the action bar's overflow menu opens, or closes when open),
  ENTER (the focused field's IME action, or a new line in a multi-line
  field), DEL / FORWARD_DEL (delete before / after the cursor, which is at the end but where an
  app's action put it: Markor's formatting bar), SPACE,
  letters, digits and common punctuation (typed into the focused field); by name, with or
  without KEYCODE_, or by number. Other keys change nothing.
* `keycombination`: Ctrl+A (KEYCODE_CTRL_LEFT or _RIGHT with KEYCODE_A) selects the focused
  field's whole text: the next DEL deletes it, the next typed text replaces it; anything else
  (a tap, another key) drops the selection. Other combinations change nothing.
* `text STR` types into the focused text field (`%s` was already turned into a space).
"""
from __future__ import annotations

import math

from taskkit.sim import telecom
from taskkit.sim.gui import bars, localize, texttoolbar
from taskkit.sim.gui.layout import LONG_PRESS_MS, SWIPE_DEFAULT_MS, TOUCH_SLOP_DP, Metrics
from taskkit.sim.gui.node import Node, find_field, hit, reachable, swipeable
from taskkit.sim.gui.screen import build
from taskkit.sim.gui.session import Session

# KeyEvent codes the screen reacts to, by number (android.view.KeyEvent).
_NAMED = {3: "HOME", 4: "BACK", 6: "ENDCALL", 82: "MENU",
          66: "ENTER", 67: "DEL", 112: "FORWARD_DEL", 62: "SPACE", 61: "TAB", 278: "COPY", 279: "PASTE"}
_CHARS = {**{7 + i: str(i) for i in range(10)}, **{29 + i: chr(ord("a") + i) for i in range(26)},
          55: ",", 56: ".", 68: "`", 69: "-", 70: "=", 71: "[", 72: "]", 73: "\\", 74: ";", 75: "'",
          76: "/", 77: "@", 81: "+", 17: "*", 18: "#"}
_BY_NAME = {**{name: code for code, name in _NAMED.items()},
            **{f"{c.upper()}": code for code, c in _CHARS.items() if c.isalnum()},
            "COMMA": 55, "PERIOD": 56, "GRAVE": 68, "MINUS": 69, "EQUALS": 70, "LEFT_BRACKET": 71,
            "RIGHT_BRACKET": 72, "BACKSLASH": 73, "SEMICOLON": 74, "APOSTROPHE": 75, "SLASH": 76,
            "AT": 77, "PLUS": 81, "STAR": 17, "POUND": 18, "CTRL_LEFT": 113, "CTRL_RIGHT": 114}


_CTRL, _A = (113, 114), 29


def key_code(word: str) -> int | None:
    """KeyEvent.keyCodeFromString: a number, or a name with or without KEYCODE_."""
    if word.isdigit():
        return int(word)
    name = word.upper().removeprefix("KEYCODE_")
    return _BY_NAME.get(name)


# The fling a scrolling view starts when the finger lifts (frameworks/base, android-13.0.0_r1):
# ViewConfiguration.MINIMUM_FLING_VELOCITY 50 dp/s and MAXIMUM_FLING_VELOCITY 8000 dp/s (scaled as
# getScaledMinimumFlingVelocity does: (int)(density * dp + 0.5f)), SCROLL_FRICTION 0.015f
# (ViewConfiguration.getScrollFriction); OverScroller.SplineOverScroller's INFLEXION 0.35f,
# DECELERATION_RATE log(0.78) / log(0.9), and its physical coefficient GRAVITY_EARTH (SensorManager,
# 9.80665) x 39.37 (inches per metre) x ppi (density x 160) x 0.84, "look and feel tuning".
_MIN_FLING_DP, _MAX_FLING_DP = 50, 8000
_SCROLL_FRICTION, _INFLEXION = 0.015, 0.35
_DECELERATION_RATE = math.log(0.78) / math.log(0.9)
_GRAVITY_EARTH, _INCHES_PER_METRE, _TUNING = 9.80665, 39.37, 0.84


def fling_distance(m: Metrics, travel: float, duration_ms: float) -> int:
    """How far a list flings on after a finger moved `travel` px at constant speed over
    `duration_ms` (VelocityTracker's velocity: travel / duration): SplineOverScroller's
    getSplineFlingDistance of that velocity, clamped to the maximum fling velocity; 0 under the
    minimum (the list stops where the finger left it). Signed as `travel`."""
    density = m.density / 160
    velocity = abs(travel) * 1000 / max(duration_ms, 1.0)
    if velocity < int(density * _MIN_FLING_DP + 0.5):
        return 0
    velocity = min(velocity, int(density * _MAX_FLING_DP + 0.5))
    physical = _GRAVITY_EARTH * _INCHES_PER_METRE * (density * 160) * _TUNING
    deceleration = math.log(_INFLEXION * velocity / (_SCROLL_FRICTION * physical))
    distance = _SCROLL_FRICTION * physical * math.exp(_DECELERATION_RATE / (_DECELERATION_RATE - 1) * deceleration)
    return int(math.copysign(distance, travel))


def _slide(ui: Session, node: Node, x: float) -> None:
    x1, _, x2, _ = node.bounds
    assert node.slide is not None
    node.slide(ui, min(1.0, max(0.0, (x - x1) / max(1, x2 - x1))))


def _take_selection(ui: Session, key: str) -> bool:
    """Whether the field `key` had its whole text selected (the selection is gone after)."""
    selected, ui.store.data["selected"] = ui.store.data.get("selected"), None
    return selected == key


def tap(ui: Session, x: float, y: float, long: bool = False) -> None:
    """A touch at (x, y), held for a long press when `long`."""
    target = hit(build(ui).window, int(x), int(y))  # before the touch drops the selection and the toolbar
    if target is None and not ui.shade_open and y >= ui.m.content_bottom:  # the navigation bar's buttons
        target = hit(bars.navigation_bar(ui), int(x), int(y))
    ui.store.data["selected"] = None
    texttoolbar.hide(ui)  # any touch closes it (a tap on its own item still runs that item)
    if target is None:
        return
    if target.slide is not None:
        _slide(ui, target, x)
    elif long and target.field is not None:  # a text field: focus, then the floating toolbar
        if target.action is not None:
            target.action(ui)
        texttoolbar.show(ui, target.field)
    elif long and target.long_clickable and target.long_action is not None:
        target.long_action(ui)
    elif target.action is not None and target.clickable:
        target.action(ui)


def swipe(ui: Session, x1: float, y1: float, x2: float, y2: float, duration_ms: float = SWIPE_DEFAULT_MS) -> None:
    """A finger from (x1, y1) to (x2, y2) over `duration_ms`."""
    m = ui.m
    dx, dy = int(x2 - x1), int(y2 - y1)
    slop = m.dp(TOUCH_SLOP_DP)
    if abs(dx) <= slop and abs(dy) <= slop:
        tap(ui, x1, y1, long=duration_ms >= LONG_PRESS_MS)
        return
    if not ui.shade_open and y1 < m.status_bar and dy > slop:
        ui.set_shade(True)
        return
    if not ui.shade_open and y1 >= m.content_bottom and dy < -slop:
        ui.home()
        return
    window = build(ui).window
    target = hit(window, int(x1), int(y1))
    if target is not None and target.slide is not None:
        _slide(ui, target, x2)
        return
    dragged = swipeable(window, int(x1), int(y1))
    if dragged is not None and dragged.drag is not None:
        dragged.drag(ui, (int(x1), int(y1), int(x2), int(y2)))
    elif dragged is not None and dragged.swipe is not None:
        if dragged.scrollable:  # a scrolling view flings on (the list clamps it to its ends)
            dx, dy = dx + fling_distance(m, dx, duration_ms), dy + fling_distance(m, dy, duration_ms)
        dragged.swipe(ui, dx, dy)


def _focused(ui: Session) -> Node | None:
    key = ui.focused_key
    return find_field(build(ui).window, key) if key else None


def type_text(ui: Session, text: str) -> None:
    """Type `text` at the end of the focused field (nothing happens without one)."""
    texttoolbar.hide(ui)
    field = _focused(ui)
    if field is not None and field.field is not None:
        replace = _take_selection(ui, field.field)
        ui.type_into(field.field, lambda old: text if replace else old + text)


def key(ui: Session, code: int) -> None:
    """One key press."""
    name = _NAMED.get(code)
    if name not in ("DEL", "FORWARD_DEL", "SPACE", "PASTE", "COPY") and code not in _CHARS:
        ui.store.data["selected"] = None
    toolbar = texttoolbar.hide(ui)
    if name == "BACK":
        if not toolbar:  # BACK first closes the floating toolbar
            ui.back()
    elif name == "HOME":
        ui.home()
    elif name == "MENU":
        _menu_key(ui)
    elif name == "ENDCALL":  # PhoneWindowManager hands it to Telecom: the call in progress ends
        telecom.end_call(ui.state)
    elif name in ("DEL", "FORWARD_DEL"):
        field = _focused(ui)
        if field is not None and field.field is not None:
            everything = _take_selection(ui, field.field)
            after = ui.cursor(field.field)
            if name == "FORWARD_DEL" and after and not everything:  # the character after the cursor
                ui.set_cursor(field.field, after - 1)
            if everything or name == "DEL" or after:
                ui.type_into(field.field, lambda old: "" if everything else old[:-1])
    elif name == "ENTER":
        field = _focused(ui)
        if field is not None and field.multiline:
            type_text(ui, "\n")
        elif field is not None and field.enter is not None:
            field.enter(ui)
    elif name == "SPACE":
        type_text(ui, " ")
    elif name == "PASTE":  # TextView pastes the clipboard at the cursor (the end, here)
        type_text(ui, str(ui.state.config.get("clipboard") or ""))
    elif name == "COPY":  # TextView copies its selection; here the whole field is selected
        field = _focused(ui)
        if field is not None and field.field is not None:
            ui.state.config["clipboard"] = ui.store.data["drafts"].get(field.field, "")
            ui.state.save()
    elif code in _CHARS:
        type_text(ui, _CHARS[code])


def _is_menu(node: Node) -> bool:
    """An open overflow or popup menu: a ListView of rows titled by AppCompat's `PKG:id/title`."""
    return node.class_name == "android.widget.ListView" and bool(node.children) and all(
        any(c.resource_id.endswith(":id/title") for c in row.children) for row in node.children)


def _menu_key(ui: Session) -> None:
    """KEYCODE_MENU as the window takes it on key up (frameworks/base PhoneWindow.onKeyUpPanel;
    AppCompatDelegateImpl.onKeyUpPanel for the AppCompat apps): the action bar's overflow menu
    opens (showOverflowMenu), or closes when it is open; a screen without one ignores the key."""
    if ui.shade_open:
        return
    window = build(ui).window
    if any(_is_menu(node) for node in window.walk()):
        ui.back()
        return
    labels = {"More options", localize.translations(ui.locale, ui.foreground()[0]).get("More options", "More options")}
    bar_bottom = ui.m.status_bar + ui.m.dp(64)  # the top app bar's overflow, not a list row's menu
    overflow = next((n for n in reachable(window) if n.content_desc in labels and n.clickable and n.action is not None
                     and n.bounds[1] < bar_bottom), None)
    if overflow is not None and overflow.action is not None:
        overflow.action(ui)


def handle(ui: Session, verb: str, args: list[str]) -> None:
    """`input VERB ARGS` (already checked as Android checks them, numbers parse as floats)."""
    numbers = lambda: [float(a.rstrip("fFdD")) for a in args]  # noqa: E731
    if verb == "tap":
        tap(ui, *numbers()[:2])
    elif verb in ("swipe", "draganddrop"):
        values = numbers()
        swipe(ui, *values[:4], duration_ms=values[4] if len(values) > 4 else SWIPE_DEFAULT_MS)
    elif verb == "text":
        type_text(ui, args[0])
    elif verb == "keycombination":
        words = [w for i, w in enumerate(args) if not w.startswith("-") and (i == 0 or args[i - 1] != "-t")]
        codes = {key_code(w) for w in words}
        field = _focused(ui)
        if codes & set(_CTRL) and _A in codes and field is not None and field.field is not None:
            ui.select_all(field.field)
    elif verb == "keyevent":
        for word in args:
            code = None if word.startswith("--") else key_code(word)
            if code is not None:
                key(ui, code)
