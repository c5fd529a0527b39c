"""Building blocks of app screens: app bars, text, buttons, text fields, rows and scrolling lists.

Each returns `Node`s laid out in pixels from the session's metrics; screens combine them. Text
fields keep what was typed in the session's drafts (keyed by frame), report their hint as text
while empty (as Android's TextView does for accessibility) and take focus when tapped; lists
taller than their box are scrollable, scroll by a vertical drag, and leave out the rows scrolled
out of view (cutting the ones half in view at the list's edge, as the dumper's visible bounds do).
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import EDIT_TEXT, Action, Box, Node, clip
from taskkit.sim.gui.session import Session

TEXT_VIEW = "android.widget.TextView"
RECYCLER_VIEW = "androidx.recyclerview.widget.RecyclerView"
ACCENT = (26, 115, 232)
# A view a list cuts thinner than this is left out (`scroll_list`): a title cut to 2 px shows nothing
# to read or to tap. Android's dumper would list it (its visible rectangle is not empty); left out on
# purpose, so that the dump names only what the screenshot shows (taskkit.sim.gui.audit).
SLIVER_PX = 4


def text(ui: Session, box: Box, value: str, rid: str = "", *, desc: str = "", size_dp: float = 0,
         action: Action | None = None) -> Node:
    """A TextView (clickable when it has an action)."""
    return Node(TEXT_VIEW, text=value, resource_id=rid, content_desc=desc, bounds=box,
                clickable=action is not None, focusable=action is not None, action=action,
                text_size=ui.m.dp(size_dp) if size_dp else 0)


def button(ui: Session, box: Box, label: str, action: Action | None, rid: str = "", *, desc: str = "",
           class_name: str = "android.widget.Button") -> Node:
    """A button; without an action it is shown but not clickable (as an app disables it)."""
    return Node(class_name, text=label, resource_id=rid, content_desc=desc, bounds=box,
                clickable=action is not None, focusable=True, action=action, text_size=ui.m.dp(14))


def icon_button(ui: Session, box: Box, desc: str, action: Action | None, rid: str = "", *,
                class_name: str = "android.widget.ImageButton") -> Node:
    """An icon with a content description (Navigate up, More options, a FAB)."""
    return Node(class_name, content_desc=desc, resource_id=rid, bounds=box, clickable=action is not None,
                focusable=True, action=action)


def app_bar(ui: Session, title: str, *, up: bool | Node = True, rid: str = "", title_rid: str = "",
            actions: tuple[Node, ...] = (), title_dp: float = 22) -> tuple[list[Node], int]:
    """A 64 dp toolbar under the status bar: Navigate up (BACK; or the navigation button `up` is,
    placed at the start), the title, action views at the end (placed right to left in the order
    given). Returns the nodes and the bar's bottom edge."""
    m = ui.m
    top, bottom = m.status_bar, m.status_bar + m.dp(64)
    children: list[Node] = []
    left = m.dp(16)
    if up is not False:
        box = (0, top, m.dp(56), bottom)
        children.append(dataclasses.replace(up, bounds=box) if isinstance(up, Node) else
                        icon_button(ui, box, "Navigate up", Session.finish))
        left = m.dp(72)
    right = m.width
    placed = []
    inset = m.dp(12)
    for view in actions:
        width = view.bounds[2] - view.bounds[0] or m.dp(48)
        placed.append(dataclasses.replace(view, bounds=(right - width, top + inset, right - m.dp(8), bottom - inset)))
        right -= width
    if title:
        children.append(text(ui, (left, top, right - m.dp(8), bottom), title, title_rid, size_dp=title_dp))
    children.extend(reversed(placed))
    bar = Node("android.view.ViewGroup", resource_id=rid, bounds=(0, top, m.width, bottom), children=children)
    return [bar], bottom


def edit_text(ui: Session, frame: Frame, name: str, box: Box, hint: str, rid: str = "", *,
              password: bool = False, single_line: bool = True, on_enter: Action | None = None) -> Node:
    """An EditText bound to the draft `name` of `frame`; a tap focuses it, `input text` types into it.

    `on_enter` is its IME action (KEYCODE_ENTER on a single-line field); a multi-line field takes
    ENTER as a new line.
    """
    key = frame.key(name)
    focus = lambda session: session.focus(frame, name)  # noqa: E731
    return Node(EDIT_TEXT, text=ui.draft(frame, name), hint=hint, resource_id=rid, bounds=box,
                clickable=True, focusable=True, long_clickable=True, focused=ui.focused_key == key,
                password=password, field=key, multiline=not single_line, enter=on_enter,
                text_size=ui.m.dp(18), action=focus, long_action=focus)


def fab(ui: Session, action: Action, rid: str, desc: str = "") -> Node:
    """A 56 dp floating action button at the bottom end of the app window."""
    m = ui.m
    right, bottom = m.width - m.dp(16), m.content_bottom - m.dp(16)
    return icon_button(ui, (right - m.dp(56), bottom - m.dp(56), right, bottom), desc, action, rid)


def pref_row(ui: Session, box: Box, title: str, summary: str = "", action: Action | None = None,
             switch: bool | None = None) -> Node:
    """A preference row: `android:id/title`, `android:id/summary`, and a Switch when `switch` is
    not None; the whole row is what a tap hits."""
    m = ui.m
    x1, y1, x2, y2 = box
    texts = [Node(TEXT_VIEW, text=title, resource_id="android:id/title", text_size=m.dp(18),
                  bounds=(m.dp(72), y1 + m.dp(16), x2 - m.dp(88), y1 + m.dp(40)))]
    if summary:
        texts.append(Node(TEXT_VIEW, text=summary, resource_id="android:id/summary", text_size=m.dp(14),
                          bounds=(m.dp(72), y1 + m.dp(40), x2 - m.dp(88), y2 - m.dp(12))))
    children = [Node("android.widget.RelativeLayout", bounds=(m.dp(72), y1, x2 - m.dp(88), y2), children=texts)]
    if switch is not None:
        children.append(Node("android.widget.Switch", resource_id="android:id/switch_widget", checkable=True,
                             checked=switch, focusable=True,
                             bounds=(x2 - m.dp(76), y1 + m.dp(20), x2 - m.dp(16), y2 - m.dp(20))))
    return Node("android.widget.LinearLayout", bounds=box, clickable=True, focusable=True, action=action,
                children=children)


def list_item(ui: Session, box: Box, title: str, subtitle: str = "", *, action: Action | None = None,
              long_action: Action | None = None, rid: str = "", title_rid: str = "", subtitle_rid: str = "",
              trailing: str = "", trailing_rid: str = "", leading: Node | None = None, indent_dp: float = 72) -> Node:
    """A clickable two-line list row (a conversation, a contact): title, subtitle, trailing text,
    and the `leading` picture in the gutter before the title (placed by the caller); the texts
    start `indent_dp` in."""
    m = ui.m
    x1, y1, x2, y2 = box
    middle = (y1 + y2) // 2
    end = x2 - (m.dp(96) if trailing else m.dp(16))
    start = x1 + m.dp(indent_dp)
    children = [leading] if leading is not None else []
    children += [Node(TEXT_VIEW, text=title, resource_id=title_rid, text_size=m.dp(18),
                      bounds=(start, y1 + m.dp(10), end, middle if subtitle else y2 - m.dp(10)))]
    if subtitle:
        children.append(Node(TEXT_VIEW, text=subtitle, resource_id=subtitle_rid, text_size=m.dp(14),
                             bounds=(start, middle, end, y2 - m.dp(10))))
    if trailing:
        children.append(Node(TEXT_VIEW, text=trailing, resource_id=trailing_rid, text_size=m.dp(12),
                             bounds=(end, y1 + m.dp(10), x2 - m.dp(16), middle)))
    return Node("android.widget.FrameLayout", resource_id=rid, bounds=box, clickable=action is not None,
                long_clickable=long_action is not None, focusable=True, action=action,
                long_action=long_action, children=children)


def list_item_with_menu(ui: Session, box: Box, title: str, subtitle: str, menu: tuple[str, str, Action], *,
                        action: Action | None = None, long_action: Action | None = None, selected: bool = False,
                        title_rid: str = "", subtitle_rid: str = "", leading: Node | None = None,
                        indent_dp: float = 72) -> Node:
    """A two-line row with its own menu button at the end (`menu`: description, resource id, action)."""
    m = ui.m
    x1, y1, x2, y2 = box
    row = list_item(ui, (x1, y1, x2 - m.dp(48), y2), title, subtitle, action=action, long_action=long_action,
                    title_rid=title_rid, subtitle_rid=subtitle_rid, leading=leading, indent_dp=indent_dp)
    row.selected = selected
    desc, rid, open_menu = menu
    button = icon_button(ui, (x2 - m.dp(48), y1 + m.dp(12), x2, y2 - m.dp(12)), desc, open_menu, rid,
                         class_name="android.widget.ImageView")
    return Node("android.widget.FrameLayout", bounds=box, children=[row, button])


@dataclasses.dataclass(frozen=True)
class Row:
    """One row of a scrolling list: its height in px and how to build it in a given box."""

    height: int
    build: Callable[[Box], Node]


def scroll_list(ui: Session, frame: Frame, name: str, box: Box, rows: list[Row], *, rid: str = "",
                class_name: str = RECYCLER_VIEW, from_end: bool = False, start: int = 0) -> Node:
    """A vertical list in `box`: the rows in view, scrollable when they do not all fit.

    `from_end` stacks the rows from the bottom and starts scrolled to the end (a message
    thread, RecyclerView's stackFromEnd); otherwise it starts scrolled by `start` px (an app
    that scrolls to a row it shows); the offset is kept per frame.
    Only the rows in view are built.
    """
    x1, top, x2, bottom = box
    total = sum(row.height for row in rows)
    limit = max(0, total - (bottom - top))
    stored = ui.scroll(frame, name)
    offset = min(limit, max(0, (limit if from_end else start) if stored is None else stored))
    children, y = [], top - offset
    if from_end and total < bottom - top:
        y = bottom - total  # stacked from the end: a short thread sits at the bottom
    for row in rows:
        if y + row.height > top and y < bottom:
            shown = clip(row.build((x1, y, x2, y + row.height)), box, SLIVER_PX)
            if shown is not None:
                children.append(shown)
        y += row.height

    def drag(session: Session, dx: int, dy: int) -> None:
        session.set_scroll(frame, name, min(limit, max(0, offset - dy)))

    return Node(class_name, resource_id=rid, bounds=box, scrollable=limit > 0, focusable=limit > 0,
                children=children, swipe=drag if limit > 0 else None)


def wrapper(rid: str, child: Node, class_name: str = "android.view.ViewGroup") -> Node:
    """A view that only holds `child`, at its bounds, taking no touch and drawing nothing of its
    own: a SwipeRefreshLayout, a RecyclerViewFastScroller around its list."""
    return Node(class_name, resource_id=rid, bounds=child.bounds, children=[child])


@dataclasses.dataclass(frozen=True)
class Field:
    """One text field of a form: its draft name, hint and resource id."""

    name: str
    hint: str
    rid: str = ""
    single_line: bool = True
    height_dp: float = 56


def form(ui: Session, frame: Frame, fields: tuple[Field, ...], top: int, gap_dp: float = 16) -> tuple[list[Node], int]:
    """Text fields stacked from `top` (each a tap to focus, `input text` to fill); returns the
    nodes and the bottom edge of the last one."""
    m = ui.m
    nodes, y = [], top + m.dp(gap_dp)
    for f in fields:
        bottom = y + m.dp(f.height_dp)
        nodes.append(edit_text(ui, frame, f.name, (m.dp(16), y, m.width - m.dp(16), bottom), f.hint, f.rid,
                               single_line=f.single_line))
        y = bottom + m.dp(gap_dp)
    return nodes, y


FRAMEWORK = "android"  # the package of the framework's own views and ids


def dialog(ui: Session, title: str, *, owner: str = FRAMEWORK, message: str = "",
           items: list[tuple[str, Action]] | None = None, body: Callable[[Box], list[Node]] | None = None,
           body_dp: float = 0, positive: tuple[str, Action | None] | None = None,
           negative: tuple[str, Action] | None = ("Cancel", Session.finish),
           neutral: tuple[str, Action] | None = None) -> list[Node]:
    """An AlertDialog in the middle of the screen, its parts named and placed as AOSP's
    alert_dialog_material.xml does (AppCompat's abc_alert_dialog_material.xml and Material's
    mtrl_alert_dialog.xml declare the same ids): the panel `parentPanel`; `topPanel` with the
    title `alertTitle` (left out when `title` is empty, as a dialog built without one hides it);
    `contentPanel` with the message `android:id/message` or the `items` (setItems: a row
    `android:id/text1` each, a tap runs its action); `customPanel` with the `body` (a custom view:
    a field, a list); `buttonPanel` with `android:id/button1` (positive) and `android:id/button2`
    (negative) at the end, `android:id/button3` (neutral) at the start.

    `owner` is the package whose ids the panels and the title carry: `android` for the
    framework's android.app.AlertDialog, the app's package for AppCompat's
    androidx.appcompat.app.AlertDialog (MaterialAlertDialogBuilder builds one too), whose layouts
    declare them with `@+id/`; the message, the items and the buttons are `android:id/` in both.
    """
    m = ui.m
    own = f"{owner}:id/"
    content_dp = (56 if message else 0) + (48 * len(items) if items else 0)
    left, right = m.dp(24), m.width - m.dp(24)
    height = m.dp(64) + m.dp(content_dp) + m.dp(body_dp) + m.dp(64)
    top = (m.height - height) // 2
    inner = (left + m.dp(24), right - m.dp(24))
    y = top + m.dp(64)
    panels = []
    if title:
        heading = Node(TEXT_VIEW, text=title, resource_id=f"{own}alertTitle", text_size=m.dp(20),
                       bounds=(inner[0], top + m.dp(16), inner[1], top + m.dp(56)))
        panels.append(Node("android.widget.LinearLayout", resource_id=f"{own}topPanel", bounds=(left, top, right, y),
                           children=[heading]))
    if content_dp:
        box = (inner[0], y, inner[1], y + m.dp(content_dp))
        shown = [Node(TEXT_VIEW, text=message, resource_id="android:id/message", text_size=m.dp(16),
                      bounds=(box[0], box[1], box[2], box[1] + m.dp(48)))] if message else []
        shown += choice_rows(ui, (box[0], box[1] + (m.dp(56) if message else 0), box[2], box[3]), items or [],
                             "android:id/text1")
        panels.append(Node("android.widget.FrameLayout", resource_id=f"{own}contentPanel",
                           bounds=(left, box[1], right, box[3]), children=shown))
        y = box[3]
    if body is not None:
        box = (inner[0], y, inner[1], y + m.dp(body_dp))
        panels.append(Node("android.widget.FrameLayout", resource_id=f"{own}customPanel", bounds=(left, y, right, box[3]),
                           children=body(box)))
        y = box[3]
    buttons = []
    x = right - m.dp(8)
    for choice, rid in ((positive, "android:id/button1"), (negative, "android:id/button2")):
        if choice is not None:
            label, act = choice
            width = m.dp(24 + 10 * len(label))
            buttons.append(button(ui, (x - width, y + m.dp(8), x, y + m.dp(56)), label, act, rid))
            x -= width + m.dp(8)
    if neutral is not None:
        label, act = neutral
        x = left + m.dp(8)
        buttons.append(button(ui, (x, y + m.dp(8), x + m.dp(24 + 10 * len(label)), y + m.dp(56)), label, act,
                              "android:id/button3"))
    if buttons:
        panels.append(Node("android.widget.LinearLayout", resource_id=f"{own}buttonPanel",
                           bounds=(left, y, right, y + m.dp(64)), children=buttons))
    panel = Node("android.widget.FrameLayout", resource_id=f"{own}parentPanel", bounds=(left, top, right, y + m.dp(64)),
                 background=(250, 250, 250), children=panels)
    return [panel]


def is_dialog_panel(node: Node) -> bool:
    """An AlertDialog's panel, the framework's (`android:id/parentPanel`) or AppCompat's (`PKG:id/parentPanel`)."""
    return node.resource_id.endswith(":id/parentPanel")


def is_dialog_title(node: Node) -> bool:
    """An AlertDialog's title, the framework's or AppCompat's (`…:id/alertTitle`)."""
    return node.resource_id.endswith(":id/alertTitle")


def choice_rows(ui: Session, box: Box, choices: list[tuple[str, Action]], rid: str = "") -> list[Node]:
    """A dialog's list of choices: a 48 dp text row per (label, action), from the top of `box`."""
    x1, y1, x2, _ = box
    h = ui.m.dp(48)
    return [text(ui, (x1, y1 + h * i, x2, y1 + h * (i + 1)), label, rid, size_dp=16, action=act)
            for i, (label, act) in enumerate(choices)]


def details(ui: Session, top: int, pairs: list[tuple[str, str, str]], label_dp: float = 112) -> tuple[list[Node], int]:
    """Label/value lines from `top` (a details sheet): (label, value, the value's resource id).
    Returns the nodes and the bottom edge."""
    m = ui.m
    nodes, y = [], top + m.dp(16)
    for label, value, rid in pairs:
        lines = max(1, min(6, -(-len(value) // 34) + value.count("\n")))
        bottom = y + m.dp(8 + 28 * lines)
        nodes.append(text(ui, (m.dp(16), y, m.dp(16 + label_dp), y + m.dp(32)), label, size_dp=14))
        nodes.append(text(ui, (m.dp(24 + label_dp), y, m.width - m.dp(16), bottom), value, rid, size_dp=16))
        y = bottom + m.dp(8)
    return nodes, y


def list_or_empty(ui: Session, frame: Frame, top: int, rows: list[Row], rid: str, empty: str,
                  empty_rid: str = "", *, bottom: int = 0, name: str = "list") -> Node:
    """The app window's list from `top` down (to `bottom`, default the window's end), or the line
    an app shows when it has nothing; `name` keeps its scroll offset apart from other lists'."""
    m = ui.m
    if rows:
        return scroll_list(ui, frame, name, (0, top, m.width, bottom or m.content_bottom), rows, rid=rid)
    return text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)), empty, empty_rid)


@dataclasses.dataclass(frozen=True)
class Tab:
    """A bottom navigation item: its label, the id of its menu item (which the item view takes)
    and the Material icon it draws (screenshots)."""

    label: str
    rid: str = ""
    icon: str = ""


def bottom_navigation(ui: Session, tabs: tuple[str | Tab, ...], rid: str, open_tab: Callable[[str], Action], *,
                      selected: str = "", selected_label_only: bool = False) -> tuple[Node, int]:
    """A BottomNavigationView (Material's NavigationBarItemView per tab): a FrameLayout described
    by the tab's label and carrying its menu item's id, a tap running `open_tab(label)`; in it
    the icon `navigation_bar_item_icon_view` (when the tab names one) and the label,
    `navigation_bar_item_large_label_view` on the `selected` tab (which reports itself not
    clickable), `navigation_bar_item_small_label_view` on the others, none on them when
    `selected_label_only` (LABEL_VISIBILITY_SELECTED, and AUTO with more than three tabs).
    Returns the node and its top edge."""
    m = ui.m
    top = m.content_bottom - m.dp(64)
    width = m.width // len(tabs)
    own = rid.partition(":id/")[0] + ":id/navigation_bar_item_"
    items = []
    for i, tab in enumerate(Tab(tab) if isinstance(tab, str) else tab for tab in tabs):
        x1, x2 = width * i, width * (i + 1)
        chosen = tab.label == selected
        children = [Node("android.widget.ImageView", resource_id=f"{own}icon_view", icon=tab.icon,
                         bounds=(x1 + width // 2 - m.dp(12), top + m.dp(12), x1 + width // 2 + m.dp(12), top + m.dp(36)))
                    ] if tab.icon else []
        if chosen or not selected_label_only:
            size = 14 if chosen else 12
            half = min(width, m.dp(size * 0.6 * len(tab.label) + 8)) // 2  # wrap_content, centred under the icon
            middle = x1 + width // 2
            children.append(text(ui, (middle - half, top + m.dp(36) if tab.icon else top, middle + half, m.content_bottom),
                                 tab.label, f"{own}{'large' if chosen else 'small'}_label_view", size_dp=size))
        items.append(Node("android.widget.FrameLayout", resource_id=tab.rid, content_desc=tab.label,
                          bounds=(x1, top, x2, m.content_bottom), clickable=not chosen, focusable=True,
                          selected=chosen, action=None if chosen else open_tab(tab.label), children=children))
    return Node("com.google.android.material.bottomnavigation.BottomNavigationView", resource_id=rid,
                bounds=(0, top, m.width, m.content_bottom), children=items), top


def inert(ui: Session) -> None:
    """The action of a menu item, icon or tab a model shows but does not carry out (so that the
    right item is found among the app's others)."""


def popup_menu(ui: Session, items: list[tuple[str, Action]]) -> list[Node]:
    """An overflow or popup menu: a ListView of rows at the top end, each row's action finishing
    the menu first. Each row's title is `PKG:id/title`, the app's own id: the apps' menus are
    AppCompat's (abc_popup_menu_item_layout.xml declares `@+id/title`), not the framework's."""
    m = ui.m
    title_rid = f"{ui.foreground()[0]}:id/title"
    left, top = m.width - m.dp(220), m.status_bar + m.dp(8)
    top = min(top, m.content_bottom - m.dp(48) * len(items) - m.dp(8))

    def choose(act: Action) -> Action:
        def run(session: Session) -> None:
            session.finish()
            act(session)
        return run

    rows = [Node("android.widget.LinearLayout", bounds=(left, top + m.dp(48) * i, m.width - m.dp(8), top + m.dp(48) * (i + 1)),
                 clickable=True, focusable=True, action=choose(act),
                 children=[Node(TEXT_VIEW, text=label, resource_id=title_rid, text_size=m.dp(16),
                                bounds=(left + m.dp(16), top + m.dp(48) * i, m.width - m.dp(24), top + m.dp(48) * (i + 1)))])
            for i, (label, act) in enumerate(items)]
    return [Node("android.widget.ListView", bounds=(left, top, m.width - m.dp(8), top + m.dp(48) * len(rows)),
                 background=(250, 250, 250), children=rows)]
