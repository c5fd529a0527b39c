"""A JSON file of each state directory held in this process's memory between commands (issue #37):
gui.json (taskkit/sim/gui/store.py) and device.json (taskkit/sim/state.py).

A command reads the held version while the file still has the identity it had when this process
last read or wrote it (taskkit.sim.audit_events.identity: one `stat`); once another process (or
any other code path) rewrites the file, the file wins and is read again. A change is held, and the
file written when taskkit.sim.writeback says so (the device closes, a served command ends, the
process exits), or at once when its owner asks (`hold(..., write=True)`: what must outlive a
killed process). The owner derives what its commands start from (`derive`) once per version.
"""
from __future__ import annotations

import collections
import os
import threading
from typing import Any, Callable

from taskkit.sim import audit_events, jsonstore, writeback

MAX_HELD = 64  # devices whose file is held per process (the least recently used is written back and let go)


class Version:
    """One device's file as this process holds it: its text and what the owner derived from it;
    the file as last read or written here (its identity, None: no file, and its text: `written`);
    and the state directory's identity then (a folder made again in its place is another device)."""

    __slots__ = ("text", "derived", "identity", "written", "folder")

    def __init__(self, text: str, derived: Any, identity: tuple[int, ...] | None, written: str,
                 folder: tuple[int, int] | None):
        self.text, self.derived = text, derived
        self.identity, self.written, self.folder = identity, written, folder


def _folder(root: str) -> tuple[int, int] | None:
    try:
        st = os.stat(root)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class HeldFiles:
    """The file `name` of every state directory, held; `derive(entry)` (entry None: no file) gives
    what a command starts from and `blank(derived)` the text standing for no file."""

    def __init__(self, name: str, derive: Callable[[jsonstore.Entry | None], Any], blank: Callable[[Any], str]):
        self.name = name
        self._derive, self._blank = derive, blank
        self._memo = f"heldjson.{name}"  # what is derived from a version of the file (jsonstore.Entry.memo)
        self._held: collections.OrderedDict[str, Version] = collections.OrderedDict()  # by writeback.key
        self.lock = threading.RLock()
        writeback.register(self._keep)

    def path(self, root: str) -> str:
        return os.path.join(root, self.name)

    def identity(self, root: str) -> tuple[int, ...] | None:
        """The file's identity now (None: no file)."""
        try:
            return audit_events.identity(os.stat(self.path(root)))
        except (FileNotFoundError, NotADirectoryError):
            return None

    def held(self, root: str) -> Version | None:
        return self._held.get(root)

    def current(self, root: str) -> Version:
        """What a command of the device in `root` (writeback.key) starts from: the held version,
        unless the file changed since (or a new device took the folder): then the file's."""
        held = self._held.get(root)
        identity = self.identity(root)
        if held is None or held.identity != identity or (identity is None and held.folder != _folder(root)):
            held = self.load(root, identity)
        return held

    def load(self, root: str, identity: tuple[int, ...] | None) -> Version:
        """Hold the file as it is now (what was held and not written is dropped: another process
        wrote the file since, or it belongs to another device)."""
        try:
            entry = jsonstore.read(self.path(root)) if identity is not None else None
        except (OSError, ValueError):
            entry = None
        if entry is None:
            derived = self._derive(None)
            text = self._blank(derived)
        else:
            if self._memo not in entry.memo:  # the first read of this version in this process
                entry.memo[self._memo] = self._derive(entry)
            derived, text = entry.memo[self._memo], entry.text
        version = Version(text, derived, entry.identity if entry is not None else identity, text, _folder(root))
        self._put(root, version)
        return version

    def hold(self, root: str, text: str, derived: Any, write: bool = False) -> Version:
        """Hold `text` (and `derived`) as the device's file from now on; written at once if `write`."""
        with self.lock:
            base = self._held.get(root) or self.load(root, self.identity(root))
            version = Version(text, derived, base.identity, base.written, base.folder)
            self._put(root, version)
            if write:
                self._write(root, version, force=True)
            return version

    def _put(self, root: str, version: Version) -> None:
        with self.lock:
            self._held[root] = version
            self._held.move_to_end(root)
            while len(self._held) > MAX_HELD:
                self._keep(next(iter(self._held)), write=True, forget=True)

    def _keep(self, root: str | None, write: bool, forget: bool) -> None:
        """The keeper of taskkit.sim.writeback: write the held file of `root` (None: of every
        device) if it changed and the file is still the one it was read from, then forget it."""
        with self.lock:
            for name in list(self._held) if root is None else [root]:
                version = self._held.get(name)
                if version is None:
                    continue
                if write and version.text != version.written:
                    self._write(name, version)
                if forget:
                    self._held.pop(name, None)

    def _write(self, root: str, version: Version, force: bool = False) -> None:
        """Write `version` to the file, unless (and `force` is not given) another process wrote
        it since or the folder went: theirs stands (the next command reads it)."""
        identity = self.identity(root)
        if not force and (identity != version.identity or (identity is None and version.folder != _folder(root))):
            return
        try:
            entry = jsonstore.write(self.path(root), version.text)
        except (FileNotFoundError, NotADirectoryError):  # the state directory went meanwhile
            return
        version.identity, version.written = entry.identity, version.text
