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
import os
from typing import Any

from taskkit.sim.state import SimState

FILE_NAME = "gui.json"


def _empty() -> dict[str, Any]:
    return {"next_id": 1, "apps": {}, "focus": None, "selected": None, "text_toolbar": None, "drafts": {}, "scroll": {},
            "cursor": {}, "shade": False, "intents": {}}


def _text(data: dict[str, Any]) -> str:
    """gui.json's text for `data` (what `save` compares: cheaper than keeping a deep copy)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class Store:
    """gui.json of one device, read once per command and written back only if it changed."""

    def __init__(self, state: SimState):
        self.path = state.root / FILE_NAME
        self.data = _empty()
        try:
            loaded = json.loads(self.path.read_text())
        except (OSError, ValueError):
            loaded = None
        if isinstance(loaded, dict):  # a part of the wrong shape (a hand edit) starts over
            for key, default in _empty().items():
                if key in loaded and isinstance(loaded[key], type(default) if default is not None else (str, type(None))):
                    self.data[key] = loaded[key]
            if isinstance(loaded.get("intent_seq"), int):
                self.data["intent_seq"] = loaded["intent_seq"]
        self._saved = _text(self.data)

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
        """Write gui.json (atomically) when something changed."""
        text = _text(self.data)
        if text == self._saved:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(text)
        os.replace(tmp, self.path)
        self._saved = text
