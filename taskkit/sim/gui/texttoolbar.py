"""The floating text toolbar: a long press on a text field focuses it and shows "Paste" (when the
clipboard holds text) and "Select all" (when the field holds text) just above it; once the text
is selected, "Cut" and "Copy" take the selection to the clipboard.

Android's editor does this (`android.widget.Editor` starts a selection action mode drawn by
`com.android.internal.widget.FloatingToolbar`; the item labels are the framework strings
`cut` "Cut", `copy` "Copy", `paste` "Paste" and `selectAll` "Select all",
frameworks/base core/res/res/values/strings.xml).
It is how an agent limited to taps pastes. Simplified: on a field with text the real editor
also selects the word under the finger and offers Share; here only Select all selects (the whole
text: the next typed text or DEL replaces it, as Ctrl+A does). Any other touch, key
or BACK closes the toolbar (BACK closes only the toolbar).
"""
from __future__ import annotations

from typing import Sequence

from taskkit.sim.gui.node import Node, find_field
from taskkit.sim.gui.session import Session

_KEY = "text_toolbar"  # the GUI state's entry: the draft key of the field the toolbar is for


def show(ui: Session, field: str) -> None:
    ui.store.data[_KEY] = field


def hide(ui: Session) -> bool:
    """Close the toolbar; whether it was open."""
    was, ui.store.data[_KEY] = ui.store.data.get(_KEY), None
    return was is not None


def overlay(ui: Session, content: Sequence[Node]) -> Node | None:
    """The toolbar over the field it is for, if it is open and the field is on the screen."""
    key = ui.store.data.get(_KEY)
    field = next((found for node in content if key and (found := find_field(node, key)) is not None), None)
    if field is None:
        return None
    items = []
    text = ui.store.data.get("drafts", {}).get(key)
    if text and ui.store.data.get("selected") == key:
        items += [("Cut", _copy(key, cut=True)), ("Copy", _copy(key, cut=False))]
    if ui.state.config.get("clipboard"):
        items.append(("Paste", _paste(key)))
    if text and ui.store.data.get("selected") != key:
        items.append(("Select all", _select_all(key)))
    if not items:
        return None
    m = ui.m
    height, width = m.dp(48), m.dp(112)
    x1, y1, _, y2 = field.bounds
    top = y1 - height - m.dp(8) if y1 - height - m.dp(8) >= m.content[1] else y2 + m.dp(8)
    buttons = [Node("android.widget.Button", text=label, package=field.package, clickable=True, focusable=True,
                    action=action, bounds=(x1 + i * width, top, x1 + (i + 1) * width, top + height), text_size=m.dp(14))
               for i, (label, action) in enumerate(items)]
    return Node("android.widget.LinearLayout", package=field.package,
                bounds=(x1, top, x1 + len(items) * width, top + height), children=buttons)


def _paste(key: str):
    def act(ui: Session) -> None:
        text = str(ui.state.config.get("clipboard") or "")
        ui.type_into(key, lambda old: old + text)
    return act


def _select_all(key: str):
    """Select the whole text; the toolbar stays, now offering Cut and Copy."""
    def act(ui: Session) -> None:
        ui.select_all(key)
        show(ui, key)
    return act


def _copy(key: str, cut: bool):
    def act(ui: Session) -> None:
        ui.state.config["clipboard"] = ui.store.data["drafts"].get(key, "")
        ui.state.save()
        if cut:
            ui.type_into(key, lambda old: "")
    return act
