"""Chrome: a tab showing a page opened by a VIEW intent (from the Files app's "Open with" or
`am start -d file://…`), with taskkit's game pages (taskkit.apps.chrome) rendered natively.

The toolbar has Chrome's ids (chromium chrome/browser/ui/android/toolbar `toolbar_phone.xml`:
`home_button`, `tab_switcher_button`, `menu_button`; omnibox `location_bar.xml`: `url_bar`
showing the page's URL). The page's nodes are what Chrome's accessibility tree gives a web page
(android.webkit.WebView with the title as its text; headings and text as views with text;
`<button>` as android.widget.Button, `<input>` as android.widget.EditText, an element with an
aria-label as its content description). The game's state (where the X is, how often Next was
pressed, the strokes drawn, the last verdict) is kept in the tab's frame in the GUI store, so a
tap changes it exactly as the page's script would, and "Success!" shows exactly when the page
would show it (the rules are taskkit.apps.chrome's, the same as the page's script).

The tab switcher button is described by the number of open tabs as Chrome describes it ("1 open
tab, tap to switch tabs", "2 open tabs, …", `accessibility_toolbar_btn_tabswitcher_toggle_default`);
the menu button opens the app menu with "New tab" (a blank tab in front, one more tab counted)
and "History", which starts org.chromium.chrome.browser.history.HistoryActivity as
HistoryManagerUtils.showHistoryManager does on a phone (an explicit intent with the parent
component extra, from Chrome's uid: ActivityTaskManager's START line, taskkit/sim/commands/
activity.py `log_start`). The number of open tabs is kept in the app's data, as Chrome keeps
its tabs across a restart (taskkit.apps.chrome.TABS_FILE).

Simplified: no page of another kind is run — a page the simulator does not recognise shows its
<title> and its text, a missing file Chrome's "Your file couldn’t be accessed"; no omnibox
editing, tab switcher, other menu items or history entries (the History page is empty); the
page does not scroll; a tap on the canvas draws nothing (a drag draws a straight line from where
the finger went down to where it came up).
"""
from __future__ import annotations

import html
import json
import re
from typing import Any

from taskkit.apps import chrome, files
from taskkit.sim.commands.activity import Intent as StartIntent, log_start, process_uid
from taskkit.sim.gui import appdata, openwith, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session

ID = f"{chrome.PACKAGE}:id/"
WEB_VIEW = "android.webkit.WebView"
VIEW = "android.view.View"
BUTTON = "android.widget.Button"
NEW_TAB = "Search or type web address"
HISTORY = "org.chromium.chrome.browser.history.HistoryActivity"
PARENT_COMPONENT = "org.chromium.chrome.browser.parent_component"  # IntentHandler.EXTRA_PARENT_COMPONENT
_WALL, _GOAL, _OPEN = (34, 34, 34), (76, 175, 80), (230, 230, 230)


# --- the page's state, kept in the tab's frame ------------------------------------------------
def _page(ui: Session, frame: Frame) -> dict[str, Any]:
    """What the tab loaded (read from the file once, as a browser keeps a loaded page)."""
    stored = ui.draft(frame, "page")
    if stored:
        return json.loads(stored)
    url = str(frame.args.get("url") or "")
    path = files.path_of_uri(url) if url else None
    loaded: dict[str, Any] = {"kind": "blank"}
    if path is not None:
        host = appdata.host(ui, path)
        if not host.is_file():
            loaded = {"kind": "missing"}
        else:
            text = appdata.read_text(ui, path)
            found = chrome.parse_page(text)
            loaded = {"kind": found[0], "seed": found[1]} if found else {"kind": "other", **_title_and_text(text)}
    ui.set_draft(frame, "page", json.dumps(loaded))
    return loaded


def _title_and_text(document: str) -> dict[str, str]:
    title = re.search(r"<title[^>]*>(.*?)</title>", document, re.S | re.I)
    body = re.sub(r"<(script|style|title)[^>]*>.*?</\1>", " ", document, flags=re.S | re.I)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return {"title": html.unescape(title.group(1)).strip() if title else "", "text": text[:500]}


def _state(ui: Session, frame: Frame) -> dict[str, Any]:
    return json.loads(ui.draft(frame, "game", "{}"))


def _update(ui: Session, frame: Frame, **changes: Any) -> None:
    ui.set_draft(frame, "game", json.dumps({**_state(ui, frame), **changes}))


# --- page building blocks ---------------------------------------------------------------------
def _text(ui: Session, box: Box, value: str, size_dp: float = 16) -> Node:
    return Node(VIEW, text=value, bounds=box, text_size=ui.m.dp(size_dp))


def _button(ui: Session, box: Box, label: str, action, desc: str = "",  # type: ignore[no-untyped-def]
            background: tuple[int, int, int] | None = None) -> Node:
    return Node(BUTTON, text=label, content_desc=desc, bounds=box, clickable=True, focusable=True, action=action,
                background=background, text_size=ui.m.dp(18))


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[1:3], 16), int(hex_[3:5], 16), int(hex_[5:7], 16)


def _row(ui: Session, y: int, width_dp: float, height_dp: float, count: int, gap_dp: float = 8) -> list[Box]:
    """`count` boxes side by side, centred, each `width_dp` × `height_dp`, from `y`."""
    m = ui.m
    total = count * m.dp(width_dp) + (count - 1) * m.dp(gap_dp)
    x = (m.width - total) // 2
    return [(x + i * (m.dp(width_dp) + m.dp(gap_dp)), y, x + i * (m.dp(width_dp) + m.dp(gap_dp)) + m.dp(width_dp),
             y + m.dp(height_dp)) for i in range(count)]


def _success(ui: Session, top: int) -> list[Node]:
    m = ui.m
    return [_text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(48)), chrome.SUCCESS, 28)]


# --- the three games --------------------------------------------------------------------------
def _maze(ui: Session, frame: Frame, seed: int, top: int) -> list[Node]:
    state = _state(ui, frame)
    if state.get("done"):
        return _success(ui, top)
    m = ui.m
    layout = chrome.maze(seed)
    at = tuple(state.get("at", (0, 0)))
    nodes = [_text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(48)), "Maze", 28)]
    y = top + m.dp(64)
    for r in range(chrome.MAZE_SIZE):
        for c, box in enumerate(_row(ui, y, 72, 72, chrome.MAZE_SIZE, 2)):
            goal = (r, c) == (chrome.MAZE_SIZE - 1, chrome.MAZE_SIZE - 1)
            wall = layout[r][c] == "#"
            label = "Wall" if wall else "Goal" if goal else "Open"
            nodes.append(Node(VIEW, text="X" if (r, c) == at else "", content_desc=label, bounds=box,
                              background=_WALL if wall else _GOAL if goal else _OPEN))
        y += m.dp(74)

    def press(button: str):  # type: ignore[no-untyped-def]
        def act(s: Session) -> None:
            moved = chrome.maze_step(layout, at, button)  # type: ignore[arg-type]
            _update(s, frame, at=list(moved), done=moved == (chrome.MAZE_SIZE - 1, chrome.MAZE_SIZE - 1))
        return act

    boxes = _row(ui, y + m.dp(16), 76, 52, len(chrome.MOVES))
    return nodes + [_button(ui, box, button, press(button)) for box, button in zip(boxes, chrome.MOVES)]


def _multiply(ui: Session, frame: Frame, seed: int, top: int) -> list[Node]:
    m = ui.m
    state = _state(ui, frame)
    presses = int(state.get("presses", 0))
    nodes = [_text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(48)), "Multiply", 28),
             _text(ui, (m.dp(16), top + m.dp(56), m.width - m.dp(16), top + m.dp(104)),
                   "Press Next until the numbers run out, then enter their product.")]
    y = top + m.dp(120)
    if presses < chrome.NUMBER_COUNT:
        value = chrome.numbers(seed)[presses]
        nodes.append(_text(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(72)), str(value), 56))
        box = _row(ui, y + m.dp(88), 120, 52, 1)[0]
        nodes.append(_button(ui, box, "Next", lambda s: _update(s, frame, presses=presses + 1)))
        return nodes

    def submit(s: Session) -> None:
        answer = chrome.answer_value(s.draft(frame, "answer"))
        _update(s, frame, result=chrome.SUCCESS if answer == chrome.product(seed) else "")

    field, button = _row(ui, y, 200, 56, 1)[0], _row(ui, y + m.dp(72), 120, 52, 1)[0]
    nodes += [widgets.edit_text(ui, frame, "answer", field, "Product"), _button(ui, button, "Submit", submit)]
    if state.get("result"):
        nodes += _success(ui, y + m.dp(140))
    return nodes


def _draw(ui: Session, frame: Frame, seed: int, top: int) -> list[Node]:
    m = ui.m
    state = _state(ui, frame)
    strokes = [tuple(stroke) for stroke in state.get("strokes", [])]
    nodes = [_text(ui, (m.dp(16), top, m.width - m.dp(16), top + m.dp(48)), "Colours", 28),
             _text(ui, (m.dp(16), top + m.dp(56), m.width - m.dp(16), top + m.dp(96)),
                   "Draw with each of these colours, then press Submit.")]
    targets = chrome.target_colours(seed)
    nodes += [Node(VIEW, content_desc=chrome.COLOUR_NAMES[hex_], bounds=box, background=_rgb(hex_))
              for box, hex_ in zip(_row(ui, top + m.dp(104), 48, 48, len(targets)), targets)]
    y = top + m.dp(168)
    canvas = _row(ui, y, chrome.CANVAS, chrome.CANVAS, 1)[0]
    x0, y0, x1, y1 = canvas
    scale = chrome.CANVAS / (x1 - x0)

    def drag(s: Session, path: Box) -> None:
        ax, ay, bx, by = path
        line = [_state(s, frame).get("ink", chrome.INK), (ax - x0) * scale, (ay - y0) * scale,
                (bx - x0) * scale, (by - y0) * scale]
        _update(s, frame, strokes=[*_state(s, frame).get("strokes", []), line])

    ink = tuple((((x0 + a / scale, y0 + b / scale), (x0 + c / scale, y0 + d / scale)), _rgb(colour), m.dp(8))
                for colour, a, b, c, d in strokes)
    nodes.append(Node("android.widget.Image", content_desc=chrome.CANVAS_LABEL, bounds=canvas,
                      background=(255, 255, 255), drag=drag, ink=ink))  # type: ignore[arg-type]
    y = y1 + m.dp(16)
    half = (len(chrome.PALETTE) + 1) // 2
    for line in (chrome.PALETTE[:half], chrome.PALETTE[half:]):
        for box, (name, hex_) in zip(_row(ui, y, 36, 36, len(line), 6), line):
            nodes.append(_button(ui, box, "", lambda s, h=hex_: _update(s, frame, ink=h), name, _rgb(hex_)))
        y += m.dp(42)

    def submit(s: Session) -> None:
        drawn = [stroke[0] for stroke in _state(s, frame).get("strokes", [])]
        _update(s, frame, result=chrome.SUCCESS if chrome.drawing_succeeds(seed, drawn) else "")

    clear, send = _row(ui, y + m.dp(8), 110, 52, 2)
    nodes += [_button(ui, clear, "Clear", lambda s: _update(s, frame, strokes=[])), _button(ui, send, "Submit", submit)]
    if state.get("result"):
        nodes += _success(ui, y + m.dp(72))
    return nodes


_GAMES = {"maze": _maze, "multiply": _multiply, "draw": _draw}


# --- the tab ----------------------------------------------------------------------------------
def tab_switcher_description(tabs: int) -> str:
    """The tab switcher button's description for `tabs` open tabs."""
    return f"{tabs} open tab{'' if tabs == 1 else 's'}, tap to switch tabs"


def open_tabs(ui: Session) -> int:
    """How many tabs are open (taskkit.apps.chrome.TABS_FILE; 1 when it is absent or unreadable)."""
    try:
        return max(1, int(appdata.read_text(ui, chrome.TABS_FILE).strip() or 1))
    except (OSError, ValueError):
        return 1


def _new_tab(ui: Session) -> None:
    """A new blank tab in front of the tab shown (which stays open, not shown)."""
    appdata.write_text(ui, chrome.TABS_FILE, f"{open_tabs(ui) + 1}\n")
    ui.replace("tab", url="")


def _menu(ui: Session, frame: Frame) -> list[Node]:
    """The app menu (the rows modelled): New tab, History."""
    return widgets.popup_menu(ui, [("New tab", _new_tab), ("History", _open_history)])


def _open_history(ui: Session) -> None:
    """HistoryManagerUtils.showHistoryManager on a phone: HistoryActivity, named, from Chrome."""
    log_start(ui.state, StartIntent(extras={PARENT_COMPONENT: chrome.APP.activity}), chrome.PACKAGE, HISTORY,
              process_uid(chrome.PACKAGE))
    ui.push("history")


def _history(ui: Session, frame: Frame) -> list[Node]:
    nodes, _ = widgets.app_bar(ui, "History")
    return nodes


def _toolbar(ui: Session, url: str) -> tuple[Node, int]:
    m = ui.m
    top, bottom = m.status_bar, m.status_bar + m.dp(56)
    children = [
        widgets.icon_button(ui, (0, top, m.dp(48), bottom), "Open the home page", None, f"{ID}home_button"),
        Node("android.widget.FrameLayout", resource_id=f"{ID}location_bar", bounds=(m.dp(48), top + m.dp(8),
             m.width - m.dp(96), bottom - m.dp(8)), children=[
            Node(widgets.EDIT_TEXT, text=url or NEW_TAB, resource_id=f"{ID}url_bar", bounds=(m.dp(64), top + m.dp(8),
                 m.width - m.dp(104), bottom - m.dp(8)), text_size=m.dp(16))]),
        widgets.icon_button(ui, (m.width - m.dp(96), top, m.width - m.dp(48), bottom),
                            tab_switcher_description(open_tabs(ui)), None, f"{ID}tab_switcher_button"),
        widgets.icon_button(ui, (m.width - m.dp(48), top, m.width, bottom), "Customize and control Google Chrome",
                            lambda s: s.push("menu"), f"{ID}menu_button"),
    ]
    return Node("android.view.ViewGroup", resource_id=f"{ID}toolbar", bounds=(0, top, m.width, bottom),
                children=children), bottom


def _tab(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    url = str(frame.args.get("url") or "")
    bar, top = _toolbar(ui, url)
    page = _page(ui, frame)
    kind = page["kind"]
    if kind == "blank":
        return [bar]
    content = (0, top, m.width, m.content_bottom)
    if kind in _GAMES:
        seed = int(page["seed"])
        title = chrome.TITLES[kind]
        children = _GAMES[kind](ui, frame, seed, top + m.dp(16))
    elif kind == "missing":
        title = ""
        children = [_text(ui, (m.dp(16), top + m.dp(32), m.width - m.dp(16), top + m.dp(80)),
                          "Your file couldn\u2019t be accessed", 22),
                    _text(ui, (m.dp(16), top + m.dp(88), m.width - m.dp(16), top + m.dp(128)), "ERR_FILE_NOT_FOUND")]
    else:
        title = page.get("title", "")
        children = [_text(ui, (m.dp(16), top + m.dp(16), m.width - m.dp(16), top + m.dp(400)), page.get("text", ""))]
    # the title is the WebView's text in the tree; a phone's tab shows it nowhere (text_size 1)
    web = Node(WEB_VIEW, text=title, bounds=content, background=(255, 255, 255), text_size=1,
               children=[c for c in children if c.text or c.content_desc or c.clickable or c.field])
    return [bar, Node("android.widget.FrameLayout", resource_id=f"{ID}compositor_view_holder", bounds=content,
                      children=[web])]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """A VIEW intent with a URI opens it in a tab."""
    if intent is not None and intent.data:
        return [Opening("tab", {"url": intent.data}, activity=activity)]
    return None


APP = register(AppScreens(chrome.PACKAGE, {"tab": Screen(_tab), "menu": Screen(_menu),
                                           "history": Screen(_history, HISTORY)},
                          first="tab", opener=_opener, dark_theme=False))
openwith.register_viewer((".html", ".htm"), openwith.Viewer("Chrome", chrome.PACKAGE, chrome.APP.activity, "text/html",
                                                            files.document_uri))
