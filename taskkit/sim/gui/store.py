"""The GUI's own state, kept beside device.json in the state directory: STATE/gui.json.

What is not app data lives here, so it survives across shell invocations and adb connections:
each app's window stack (frames: a screen name, its arguments and its activity, tied to the
app's task id), the focused text field, typed-but-unsaved text (drafts) and where a field's cursor is when not at its end, list scroll offsets,
whether the quick-settings shade is open, the field whose floating text toolbar is open, and the last intent `am start` delivered to each app.
Drafts, cursors, focus and scroll offsets are keyed by the frame that owns them, so they go when their
frame is closed, as an activity's state goes when it finishes.
"""
from __future__ import annotations

import json
import marshal
from typing import Any

from taskkit.sim import heldjson, jsonstore, writeback
from taskkit.sim.state import SimState

FILE_NAME = "gui.json"


def _empty() -> dict[str, Any]:
    return {"next_id": 1, "apps": {}, "focus": None, "selected": None, "text_toolbar": None, "drafts": {}, "scroll": {},
            "cursor": {}, "shade": False, "intents": {}}


def _text(data: dict[str, Any]) -> str:
    """gui.json's text for `data` (what `save` compares: cheaper than keeping a deep copy)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


_MEMO = "gui.store"  # this module's name for what it derives from a version of gui.json (jsonstore.Entry.memo)


def _checked(loaded: Any) -> dict[str, Any]:
    """The store's data from what gui.json holds: a part of the wrong shape (a hand edit) starts over."""
    data = _empty()
    if isinstance(loaded, dict):
        for key, default in _empty().items():
            if key in loaded and isinstance(loaded[key], type(default) if default is not None else (str, type(None))):
                data[key] = loaded[key]
        if isinstance(loaded.get("intent_seq"), int):
            data["intent_seq"] = loaded["intent_seq"]
    return data


def _frozen(data: dict[str, Any]) -> bytes:
    """`data` marshalled in format 0: no shared references and no interned strings recorded, so two
    structures with the same values, types and order give the same bytes (and equal bytes mean the
    same gui.json text)."""
    return marshal.dumps(data, 0)


def _prepared(entry: jsonstore.Entry | None) -> tuple[bytes, bytes]:
    """What a Store starts from for a version of gui.json (None: no file): its data marshalled
    twice — in marshal's current format, whose `loads` is a private copy at two thirds of the
    cost of format 0's (its strings interned; the data, parsed JSON, shares no container), and in
    format 0 (`_frozen`: what `save` compares)."""
    data = _checked(entry.data()) if entry is not None else _empty()
    return marshal.dumps(data), _frozen(data)


def _blank(prepared: tuple[bytes, bytes]) -> str:
    """The text standing for no gui.json (a save of it writes nothing)."""
    return _text(marshal.loads(prepared[0]))


_HELD = heldjson.HeldFiles(FILE_NAME, _prepared, _blank)


class Store:
    """gui.json of one device, for one command: its data, read from what this process holds
    (taskkit.sim.writeback: written to the state directory when the device closes, when a served
    command ends and at exit) or from the file when another process changed it since."""

    def __init__(self, state: SimState):
        self.root = writeback.key(state.root)
        source, self._frozen = _HELD.current(self.root).derived  # (unchanged data marshals to _frozen again)
        self.data = marshal.loads(source)

    def new_id(self) -> int:
        """A frame id never used before on this device."""
        value = int(self.data["next_id"])
        self.data["next_id"] = value + 1
        return value

    def forget_frames(self, ids: set[int]) -> None:
        """Drop the drafts, scroll offsets and focus that belong to frames `ids`."""
        if not ids:
            return
        owned = lambda key: int(key.split(":", 1)[0]) in ids  # noqa: E731 - "frame:name" keys
        for table in ("drafts", "scroll", "cursor"):
            self.data[table] = {k: v for k, v in self.data[table].items() if not owned(k)}
        for table in ("focus", "selected", "text_toolbar"):  # a field's focus, select-all selection and toolbar
            key = self.data.get(table)
            if key and owned(key):
                self.data[table] = None

    def save(self) -> None:
        """Hold the data as this command left it, if it changed (what did not change is told by its
        marshalled bytes), as gui.json's text reads back: the next command sees what it would
        read from the file, which is written later (taskkit.sim.writeback)."""
        frozen = _frozen(self.data)
        if frozen == self._frozen:
            return
        text = _text(self.data)
        with _HELD.lock:
            held = _HELD.held(self.root) or _HELD.current(self.root)
            if text != held.text:
                read = _checked(json.loads(text))
                _HELD.hold(self.root, text, (marshal.dumps(read), _frozen(read)))
        self._frozen = frozen
