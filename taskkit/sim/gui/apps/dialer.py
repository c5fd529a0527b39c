"""Phone (Google's Dialer, `com.google.android.dialer`): Recents, the dial pad and the in-call screen.

Ids, labels and descriptions follow AOSP Dialer (packages/apps/Dialer, as LineageOS's copy has
it): main_activity.xml `fab` "key pad", `bottom_nav_bar` with bottom_nav_bar_layout.xml's
`speed_dial_tab` "Favorites", `call_log_tab` "Recents", `contacts_tab` "Contacts"; Recents as
call_log_fragment.xml (`recycler_view`, `empty_list_view` "Your call history is empty") and
call_log_list_item.xml (`call_log_row`, `name`, `call_location_and_date`);
dialpad_view_unthemed.xml `digits` and `deleteButton` "backspace"; dialpad.xml's keys `one` …
`nine`, `zero`, `star`, `pound` with `dialpad_key_number` and `dialpad_key_letters`, each key
described "2,ABC" (DialpadView.setupKeypad); dialpad_fragment.xml
`dialpad_floating_action_button` "dial"; InCallUI's frag_incall_voice.xml
`contactgrid_contact_name` and `incall_end_call` "End call". The digits field and the in-call
screen show the number formatted as in the US (`taskkit.apps.dialer.format_number`). The call
button places the call with Telecom (taskkit/sim/telecom.py: the emergency line for 911 and
112) and opens the in-call screen; End call writes the call-log row and returns to the dial
pad; `am start -a android.intent.action.CALL -d tel:N` opens Recents, the dial pad and the in-call
screen on top; the in-call screen shows Telecom's call in progress, so it survives the app's
force-stop, and "Call ended" once `input keyevent ENDCALL` ended it. Simplified: Favorites and
Contacts are empty tabs, no search, contact names, call timer, hold, mute or speaker; the call
never connects or drops by itself.
"""
from __future__ import annotations

from taskkit.apps.dialer import CALLS_URI, DIALPAD, PACKAGE, format_number
from taskkit.sim import telecom
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import EDIT_TEXT, Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
INCALL = "com.android.incallui.InCallActivity"
_CALL_TYPES = {1: "Incoming call", 2: "Outgoing call", 3: "Missed call"}
_TABS = (widgets.Tab("Favorites", rid=ID + "speed_dial_tab"), widgets.Tab("Recents", rid=ID + "call_log_tab"),
         widgets.Tab("Contacts", rid=ID + "contacts_tab"))


def _icon(node: Node, name: str) -> Node:
    """`node` drawing the Material icon `name` (screenshots)."""
    node.icon = name
    return node


def _recents(ui: Session) -> list[widgets.Row]:
    cursor = appdata.query(ui, CALLS_URI, ["_id", "number", "type"], sort="date DESC, _id DESC")
    rows = [dict(zip(cursor.columns, values)) for values in cursor.rows]
    return [widgets.Row(ui.m.dp(72), lambda box, r=r: widgets.list_item(
                ui, box, format_number(str(r["number"] or "")), _CALL_TYPES.get(int(r["type"] or 0), ""),
                rid=ID + "call_log_row", title_rid=ID + "name", subtitle_rid=ID + "call_location_and_date"))
            for r in rows]


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    tab = str(frame.args.get("tab") or "Recents")
    nav, nav_top = widgets.bottom_navigation(ui, _TABS, ID + "bottom_nav_bar",
                                             lambda label: lambda s: s.replace("main", tab=label), selected=tab)
    nodes: list[Node] = []
    box = (0, m.status_bar + m.dp(8), m.width, nav_top)
    if tab == "Recents":
        nodes.append(widgets.list_or_empty(ui, frame, box[1], _recents(ui), ID + "recycler_view",
                                           "Your call history is empty", ID + "empty_list_view", bottom=nav_top))
    fab = _icon(widgets.fab(ui, lambda s: s.push("dialpad", focus="digits"), ID + "fab", "key pad"), "dialpad")
    shift = m.content_bottom - nav_top
    fab.bounds = (fab.bounds[0], fab.bounds[1] - shift, fab.bounds[2], fab.bounds[3] - shift)
    return nodes + [nav, fab]


def _press(frame: Frame, number: str):
    return lambda ui: ui.set_draft(frame, "digits", ui.draft(frame, "digits") + number)


def _call(frame: Frame):
    def act(ui: Session) -> None:
        number = ui.draft(frame, "digits")
        if not number:
            return
        ui.set_draft(frame, "digits", "")  # the dial pad is cleared once the call is placed
        telecom.place_call(ui.state, number)
        ui.push("incall")
    return act


def _dialpad(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    digits = ui.draft(frame, "digits")
    key = frame.key("digits")
    top = m.status_bar + m.dp(96)
    focus = lambda s: s.focus(frame, "digits")  # noqa: E731
    nodes = [Node(EDIT_TEXT, text=format_number(digits) if digits else "", resource_id=ID + "digits",
                  bounds=(m.dp(64), top, m.width - m.dp(64), top + m.dp(64)), clickable=True, focusable=True,
                  focused=ui.focused_key == key, field=key, text_size=m.dp(32), action=focus),
             _icon(widgets.icon_button(ui, (m.width - m.dp(64), top, m.width - m.dp(8), top + m.dp(64)), "backspace",
                                       lambda s: s.set_draft(frame, "digits", digits[:-1]), ID + "deleteButton"),
                   "backspace")]
    width, pad_top = m.width // 3, top + m.dp(88)
    for index, (rid, number, letters) in enumerate(DIALPAD):
        row, column = divmod(index, 3)
        box = (column * width, pad_top + row * m.dp(80), (column + 1) * width, pad_top + (row + 1) * m.dp(80))
        middle, centre = (box[1] + box[3]) // 2, (box[0] + box[2]) // 2
        children = [widgets.text(ui, (centre - m.dp(12), box[1] + m.dp(8), centre + m.dp(12), middle + m.dp(8)), number,
                                 ID + "dialpad_key_number", size_dp=32)]
        if letters:
            children.append(widgets.text(ui, (centre - m.dp(18), middle + m.dp(8), centre + m.dp(18), box[3] - m.dp(8)),
                                         letters, ID + "dialpad_key_letters", size_dp=12))
        desc = f"{number},{letters}" if number.isdigit() and number != "0" else number
        nodes.append(Node("android.widget.FrameLayout", resource_id=ID + rid, content_desc=desc, bounds=box,
                          clickable=True, focusable=True, action=_press(frame, number), children=children))
    call_top = pad_top + 4 * m.dp(80) + m.dp(16)
    centre = m.width // 2
    nodes.append(_icon(widgets.icon_button(ui, (centre - m.dp(28), call_top, centre + m.dp(28), call_top + m.dp(56)),
                                           "dial", _call(frame), ID + "dialpad_floating_action_button"), "call"))
    return nodes


def _end(ui: Session) -> None:
    telecom.end_call(ui.state)
    ui.finish()


def _incall(ui: Session, frame: Frame) -> list[Node]:
    """The call in progress (Telecom's): the number and End call; once it ended, "Call ended"."""
    m = ui.m
    top = m.status_bar + m.dp(96)
    call = telecom.active_call(ui.state)
    box = (m.dp(24), top, m.width - m.dp(24), top + m.dp(56))
    if call is None:
        return [widgets.text(ui, box, "Call ended", ID + "contactgrid_bottom_text", size_dp=20)]
    centre = m.width // 2
    return [widgets.text(ui, box, format_number(str(call["number"])), ID + "contactgrid_contact_name", size_dp=34),
            _icon(widgets.icon_button(ui, (centre - m.dp(32), m.content_bottom - m.dp(100), centre + m.dp(32),
                                           m.content_bottom - m.dp(36)), "End call", _end, ID + "incall_end_call"),
                  "call_end")]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """CALL `tel:N` (InCallActivity; Telecom placed the call): Recents, the dial pad, the in-call
    screen on top."""
    if activity != INCALL or intent is None:
        return None
    return [Opening("main"), Opening("dialpad", focus="digits"), Opening("incall")]


APP = register(AppScreens(PACKAGE, {"main": Screen(_main), "dialpad": Screen(_dialpad),
                                    "incall": Screen(_incall, INCALL)}, first="main", opener=_opener))
