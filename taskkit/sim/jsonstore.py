"""The small JSON files of a state directory (device.json, gui.json): read through a
per-process cache, written atomically (issue #37).

Every command reads them, few change them. `read(path)` answers from the last version this
process read or wrote while the file still has the identity it had then (device, inode, size,
modification and change time: one `stat`, no open, no decoding). Every write this process makes
to a cached file, whichever code path makes it (an `open` for writing, a rename, a removal: the
audit events of PEP 578, read by taskkit.sim.audit_events), forgets that version, so a rewrite
in the same clock tick at the same size is never missed in this process; `write` caches what it
wrote. Only another process rewriting a file in place within one kernel clock tick, keeping its
size, can go unseen (taskkit itself always writes through a new inode).

`write(path, text)` writes a temporary file beside `path` and swaps it in with
`renameat2(RENAME_EXCHANGE)`, then removes the temporary (which holds the old text): a killed
process leaves the old or the new file, never a part of one, as `os.replace` would. On ext4 a
rename over an existing file flushes the new file's data first (the `auto_da_alloc` mount
option, Documentation/admin-guide/ext4.rst); an exchange does not, and costs a fraction of it.
Where the exchange is not available (no such syscall, a file system without it, no file yet)
the write falls back to `os.replace`.
"""
from __future__ import annotations

import collections
import functools
import json
import marshal
import os
import sys
import threading
from typing import Any, Callable

from taskkit.sim import audit_events

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # linux/fs.h


class Entry:
    """One version of a JSON file: its text and its data (never changed in place)."""

    __slots__ = ("text", "identity", "_frozen", "memo")

    def __init__(self, text: str, identity: tuple[int, ...], frozen: bytes | None = None):
        self.text = text
        self.identity = identity
        self._frozen = marshal.dumps(json.loads(text)) if frozen is None else frozen
        self.memo: dict[str, Any] = {}  # what a reader derived from this version, by the reader's name

    def data(self) -> Any:
        """A private copy of the decoded data (the caller may change it)."""
        return marshal.loads(self._frozen)

    @property
    def frozen(self) -> bytes:
        """`marshal.dumps` of the decoded data."""
        return self._frozen


MAX_ENTRIES = 64  # files kept per process (the least recently read go first)
_ENTRIES: collections.OrderedDict[str, Entry] = collections.OrderedDict()
_LOCK = threading.RLock()  # one writer of a file at a time in this process (they share its temporary)
_HOOKED = False


def read(path: str | os.PathLike[str]) -> Entry | None:
    """The current version of the JSON file at `path` (None if there is none; ValueError if it is
    not JSON)."""
    key = os.path.abspath(path)
    try:
        identity = audit_events.identity(os.stat(key))
    except FileNotFoundError:
        return None
    entry = _ENTRIES.get(key)
    if entry is not None and entry.identity == identity:
        with _LOCK:
            if key in _ENTRIES:
                _ENTRIES.move_to_end(key)
        return entry
    with open(key, encoding="utf-8") as file:
        text = file.read()
        identity = audit_events.identity(os.fstat(file.fileno()))
    entry = Entry(text, identity)
    _remember(key, entry)
    return entry


def write(path: str | os.PathLike[str], text: str, frozen: bytes | None = None) -> Entry:
    """Replace the file at `path` by `text` atomically; the version written. `frozen`, when the
    caller has it, is `marshal.dumps(json.loads(text))` (the text is then not parsed again)."""
    key = os.path.abspath(path)
    tmp = os.path.splitext(key)[0] + ".tmp"
    with _LOCK:
        with open(tmp, "w", encoding="utf-8") as file:
            file.write(text)
        sys.audit("os.rename", tmp, key, -1, -1)  # what os.replace raises: the other hooks see the swap
        if _exchange(tmp, key):
            os.remove(tmp)
        else:
            os.replace(tmp, key)
        entry = Entry(text, audit_events.identity(os.stat(key)), frozen)
        _remember(key, entry)
    return entry


def copy(data: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples, text, numbers, None): `copy.deepcopy`'s
    result at a fraction of its cost."""
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:  # not plain data
        import copy as copying

        return copying.deepcopy(data)


def _remember(key: str, entry: Entry) -> None:
    global _HOOKED
    with _LOCK:
        if not _HOOKED:
            audit_events.on_write(_forget)
            _HOOKED = True
        _ENTRIES[key] = entry
        _ENTRIES.move_to_end(key)
        while len(_ENTRIES) > MAX_ENTRIES:
            _ENTRIES.popitem(last=False)


def _forget(event: str, args: tuple, paths: list[str] | None) -> None:
    """Forget the cached version of a file this process writes by any way (and of every file in
    a folder it removes or renames); every version when the paths are not known. (A change of
    metadata alone changes no text, and a version whose stat changed is read again anyway.)"""
    if not _ENTRIES or event in audit_events.METADATA_EVENTS:
        return
    if paths is None:
        _ENTRIES.clear()
        return
    try:
        folder_goes = event in audit_events.FOLDER_GOES
        with _LOCK:
            for path in map(os.path.abspath, paths):
                _ENTRIES.pop(path, None)
                if folder_goes:
                    prefix = path + "/"
                    for key in [key for key in _ENTRIES if key.startswith(prefix)]:
                        del _ENTRIES[key]
    except Exception:  # noqa: BLE001 - never break the write; forget every version instead
        _ENTRIES.clear()


@functools.cache
def _renameat2() -> Callable[[bytes, bytes], int] | None:
    """libc's renameat2 with RENAME_EXCHANGE (None where there is none: not Linux, glibc < 2.28);
    loaded on the first write, as ctypes costs start-up time."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2  # the C library this process runs on
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return lambda a, b: function(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE)


def _exchange(tmp: str, target: str) -> bool:
    """Swap `tmp` and `target` in one step; False where that cannot be done (nothing changed)."""
    exchange = _renameat2()
    return exchange is not None and exchange(os.fsencode(tmp), os.fsencode(target)) == 0
