"""The GUI's own state, kept beside device.json in the state directory: STATE/gui.json.

What is not app data lives here, so it survives across shell invocations and adb connections:
each app's window stack (frames: a screen name, its arguments and its activity, tied to the
app's task id), the focused text field, typed-but-unsaved text (drafts) and where a field's cursor is when not at its end, list scroll offsets,
whether the quick-settings shade is open, the field whose floating text toolbar is open, and the last intent `am start` delivered to each app.
Drafts, cursors, focus and scroll offsets are keyed by the frame that owns them, so they go when their
frame is closed, as an activity's state goes when it finishes.
"""
from __future__ import annotations

import collections
import json
import marshal
import os
import threading
from typing import Any

from taskkit.sim import audit_events, jsonstore, writeback
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


def _prepared(entry: jsonstore.Entry | None) -> tuple[bytes, bytes, str]:
    """What a Store starts from for a version of gui.json (None: no file): its data marshalled
    twice — in marshal's current format, whose `loads` is a private copy at two thirds of the
    cost of format 0's (its strings interned; the data, parsed JSON, shares no container), and in
    format 0 (`_frozen`: what `save` compares) — and the file's text (a save of that text writes
    nothing: the file holds it already)."""
    data = _checked(entry.data()) if entry is not None else _empty()
    return marshal.dumps(data), _frozen(data), entry.text if entry is not None else _text(data)


class _Held:
    """A device's gui.json as this process holds it: the data (marshalled in the current format,
    and in format 0: `_frozen`) and its text; the file as last read or written here (its identity,
    None: no file, and its text: `written`), and the state directory's identity then."""

    __slots__ = ("source", "frozen", "text", "identity", "written", "folder")

    def __init__(self, source: bytes, frozen: bytes, text: str, identity: tuple[int, ...] | None,
                 written: str, folder: tuple[int, int] | None):
        self.source, self.frozen, self.text = source, frozen, text
        self.identity, self.written, self.folder = identity, written, folder


MAX_HELD = 64  # devices whose gui.json is held per process (the least recently used one is written back and let go)
_HELD: collections.OrderedDict[str, _Held] = collections.OrderedDict()  # by state directory (writeback.key)
_LOCK = threading.RLock()


class Store:
    """gui.json of one device, for one command: its data, read from what this process holds
    (taskkit.sim.writeback: written to the state directory when the device closes, when a served
    command ends and at exit) or from the file when another process changed it since."""

    def __init__(self, state: SimState):
        self.root = writeback.key(state.root)
        held = _HELD.get(self.root)
        identity = _identity(self.root)
        if held is None or held.identity != identity or (identity is None and held.folder != _folder(self.root)):
            held = _load(self.root, identity)  # another process wrote it, or a new device took the folder
        self.data = marshal.loads(held.source)
        self._frozen = held.frozen  # the data as read (unchanged data marshals to these bytes again)

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
        with _LOCK:
            held = _HELD.get(self.root) or _load(self.root, _identity(self.root))
            if text != held.text:
                read = _checked(json.loads(text))
                _hold(self.root, _Held(marshal.dumps(read), _frozen(read), text, held.identity, held.written, held.folder))
        self._frozen = frozen


def _path(root: str) -> str:
    return os.path.join(root, FILE_NAME)


def _identity(root: str) -> tuple[int, ...] | None:
    """gui.json's identity now (taskkit.sim.audit_events.identity; None: no file)."""
    try:
        return audit_events.identity(os.stat(_path(root)))
    except (FileNotFoundError, NotADirectoryError):
        return None


def _folder(root: str) -> tuple[int, int] | None:
    """The state directory's identity (a folder made again in its place is another device)."""
    try:
        st = os.stat(root)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _load(root: str, identity: tuple[int, ...] | None) -> _Held:
    """Hold gui.json as the file has it now (what was held and not written is dropped: the file
    was written by another process since, or belongs to another device)."""
    try:
        entry = jsonstore.read(_path(root)) if identity is not None else None
    except (OSError, ValueError):
        entry = None
    if entry is None:
        source, frozen, text = _prepared(None)
    else:
        if _MEMO not in entry.memo:  # the first read of this version in this process
            entry.memo[_MEMO] = _prepared(entry)
        source, frozen, text = entry.memo[_MEMO]
    held = _Held(source, frozen, text, entry.identity if entry is not None else identity, text, _folder(root))
    _hold(root, held)
    return held


def _hold(root: str, held: _Held) -> None:
    with _LOCK:
        _HELD[root] = held
        _HELD.move_to_end(root)
        while len(_HELD) > MAX_HELD:
            oldest = next(iter(_HELD))
            _keep(oldest, write=True, forget=True)


def _keep(root: str | None, write: bool, forget: bool) -> None:
    """The keeper of taskkit.sim.writeback: write the held gui.json of `root` (None: of every
    device) if it changed and the file is still the one it was read from, then forget it."""
    with _LOCK:
        for name in list(_HELD) if root is None else [root]:
            held = _HELD.get(name)
            if held is None:
                continue
            if write and held.text != held.written:
                _write(name, held)
            if forget:
                _HELD.pop(name, None)


def _write(root: str, held: _Held) -> None:
    """Write `held` to the device's gui.json, unless another process wrote the file since or the
    folder went (theirs stands: the next command reads it)."""
    identity = _identity(root)
    if identity != held.identity or (identity is None and held.folder != _folder(root)):
        return
    try:
        entry = jsonstore.write(_path(root), held.text)
    except (FileNotFoundError, NotADirectoryError):  # the state directory went meanwhile
        return
    held.identity, held.written = entry.identity, held.text


writeback.register(_keep)
