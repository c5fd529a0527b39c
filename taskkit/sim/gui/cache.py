"""What the GUI computed from a device's state, kept until something it read changes (issue #37).

Every `uiautomator dump`, tap and screenshot builds the screen from the stored state
(taskkit/sim/gui/__init__.py). An agent's step observes the screen and acts on it: the tap finds
its target on the screen the dump just showed. `remember(state, name, compute, key)` answers
from the last result of `compute` for that device while it still holds, and computes again
otherwise. A result holds while:

* `key()` (the caller's in-memory inputs: the GUI store, device.json's config, the settings)
  equals what it was when the result was made;
* no write since then touched a path the computation read. What it read is recorded while it
  runs: every host path `SimState.host_path` resolved (taskkit/sim/state.py `READS`, so a file
  only tested for existence counts) and every file opened, folder listed or SQLite database
  connected (audit events, PEP 578). Writes are seen as taskkit.sim.changes sees them: one
  audit hook on the interpreter's events raised before every `open` for writing, `os.remove`,
  `rmdir`, `mkdir`, `rename`/`replace`, `symlink`, `link`, `truncate`, `shutil.rmtree`,
  `utime`, `chmod` and `chown`, whichever code path makes it (but the listeners' own: a restore
  point's journal, in the state directory, which no screen reads). A content or structure write
  counts when it is on a read path, below one (a listed folder's entries) or, for a folder,
  above one; a metadata write (`utime`, `chmod`, `chown`) when it is on a read path or on an
  entry of a read folder;
* each read file or folder still has the stat it had (inode, size, mtime, ctime), and each
  read SQLite database the header it had: SQLite changes a database without an audit event,
  and its file change counter (header offset 24) moves on every committed write in a rollback
  journal mode. A database in WAL mode (header byte 18 is 2) is never kept. The stat also
  catches most writes by other processes, which the hook cannot see; only one by another
  process within the same kernel clock tick, changing neither size nor inode, can go unseen.
  A database whose stat has not changed since a mark taken more than `audit_events.RACY_NS`
  after its last change (ctime) is not read again: the kernel stamps ctime on every write, from
  a clock that has passed the old value by then, so no write since can have left the stat as it
  was.

A result computed while another thread wrote to the device is checked against those writes
too. `enabled = False` (or TASKKIT_GUI_CACHE=0 in the environment) computes everything afresh,
as before; `clear()` forgets every result.
"""
from __future__ import annotations

import bisect
import collections
import dataclasses
import itertools
import os
import stat
import threading
import time
from typing import Any, Callable, TypeVar

from taskkit.sim import audit_events
from taskkit.sim.audit_events import METADATA_EVENTS, event_path, real_path, under
from taskkit.sim.state import READS, SimState

T = TypeVar("T")

#: Off (TASKKIT_GUI_CACHE=0): every dump, tap and screenshot builds the screen afresh.
enabled = os.environ.get("TASKKIT_GUI_CACHE", "1") != "0"
MAX_WRITES = 4096  # writes kept per device: a result older than the oldest kept one is computed again
MAX_DEVICES = 16  # devices with kept results per process (the least recently used go first)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER = 100  # bytes of a SQLite header read to tell whether the database changed
CONTENT, STRUCTURE, METADATA = "content", "structure", "metadata"
Write = tuple[int, str, str, int]  # (sequence number, real host path, kind, thread id)


class _Reads:
    """The real paths a computation read, indexed to tell in a few set lookups whether a write
    touches one of them (a step's writes are checked against results that read dozens of
    paths). A content or structure write touches a read path it is on or below; a structure
    write (a folder made, moved or removed) also one below it; a metadata write one it is on,
    or the folder it is in (a listing shows its entries' metadata)."""

    __slots__ = ("paths", "_shortest", "_sorted")

    def __init__(self, paths: frozenset[str]):
        self.paths = paths  # normalized absolute paths (no final /, no . or ..)
        self._shortest = min(map(len, paths), default=0)
        self._sorted: tuple[str, ...] | None = None

    def touched_by(self, written: str, kind: str) -> bool:
        """Whether a write of `kind` on `written` (a normalized absolute path) may change a read."""
        paths = self.paths
        if kind == METADATA:
            return written in paths or _parent(written) in paths
        path, shortest = written, self._shortest
        while len(path) >= shortest:  # the write itself or a folder above it was read (none is shorter)
            if path in paths:
                return True
            if path == "/":
                break
            path = _parent(path)
        return self._below(written, kind)

    def _below(self, written: str, kind: str) -> bool:
        """A structure write: whether a read lies below `written`."""
        if kind != STRUCTURE:
            return False
        if self._sorted is None:
            self._sorted = tuple(sorted(self.paths))
        inside = written.rstrip("/") + "/"  # a read below a folder moved or removed
        at = bisect.bisect_left(self._sorted, inside)
        return at < len(self._sorted) and self._sorted[at].startswith(inside)


def _parent(path: str) -> str:
    """os.path.dirname of a normalized absolute path, for a fraction of its cost."""
    return path[:path.rfind("/")] or "/"


@dataclasses.dataclass
class _Result:
    value: Any
    key: Any  # a copy of the key
    reads: _Reads
    marks: dict[str, Any]  # read path -> its stat or SQLite header (`_Database`) when the result was made
    start: int  # the device's write count when the computation began,
    end: int  # and when it ended
    thread: int  # the thread that computed it (its own writes in between are part of it)


class _Device:
    """One device's kept results and the writes made to it since the oldest of them."""

    def __init__(self, root: str, named: str):
        self.root = root  # real path of the state directory
        self.named = named  # and the path its SimState names it by
        self.names = (root, named)
        self.inside = (root + "/", named + "/")
        self.results: dict[Any, _Result] = {}
        self.writes: collections.deque[Write] = collections.deque(maxlen=MAX_WRITES)
        self.count = 0

    def since(self, result: _Result) -> list[Write] | None:
        """The writes after `result` began (or was last found to hold), but its own; None if
        some were not kept."""
        found = []
        for write in reversed(self.writes):  # the newest first: a kept result was checked lately
            if write[0] <= result.start:
                return found
            if not (write[0] <= result.end and write[3] == result.thread):
                found.append(write)
        return found if self.count - len(self.writes) <= result.start else None

    def real(self, read: str) -> str | None:
        """The real path of a path read inside the state directory (None for one outside).
        Only the directory's own path is resolved: `SimState.host_path`, which every device path
        goes through, follows the device's links itself."""
        for name, inside in zip(self.names, self.inside):  # (the write listener's test, spelled the same)
            if read == name or read.startswith(inside):
                return os.path.normpath(self.root + read[len(name):])  # (link-free below the root)
        return None


_DEVICES: collections.OrderedDict[str, _Device] = collections.OrderedDict()
_LOCK = threading.RLock()


class _Thread(threading.local):
    """Per thread: the set the running computation records its reads into (None: none runs) and
    the last key copy (`_key_copy`)."""

    reads: set[str] | None = None
    key: Any = None


_LOCAL = _Thread()
_HOOKED = False


def remember(state: SimState, name: Any, compute: Callable[[], T], key: Callable[[], Any] = lambda: None) -> T:
    """`compute()`, or its last result for this device while that still holds (see the module doc).

    `key()` gives the in-memory inputs of `compute` (plain data: dicts, lists and tuples of
    immutable values, compared by equality); `name` tells apart the results kept for one
    device. A computation that changes its own key or writes what it read is not kept: what it
    gives may not be what the next one would.
    """
    if not enabled:
        return compute()
    device = _device(state)
    with _LOCK:
        kept = device.results.get(name)
    current = key()
    if kept is not None and kept.key == current and _holds(device, kept):
        _note_reads(kept.reads.paths)
        return kept.value
    before = _key_copy(current)
    outer = _LOCAL.reads
    reads: set[str] = set()
    with _LOCK:
        start = device.count
    _LOCAL.reads, READS.paths = reads, reads
    try:
        value = compute()
    finally:
        _LOCAL.reads, READS.paths = outer, outer
    if outer is not None:
        outer.update(reads)
    real = frozenset(path for path in (device.real(read) for read in reads) if path is not None)
    marks = {path: _mark(path) for path in real}
    with _LOCK:
        result = _Result(value, before, _Reads(real), marks, start, device.count, threading.get_ident())
        own = [w for w in itertools.takewhile(lambda w: w[0] > start, reversed(device.writes)) if w[3] == result.thread]
        device.results.pop(name, None)
        if (_UNKEPT not in marks.values() and key() == before
                and not any(result.reads.touched_by(path, kind) for _, path, kind, _ in own)):
            device.results[name] = result
    return value


class Same:
    """A part of a key that is compared by identity and never copied: a value no one changes in
    place (another kept result), which a change replaces by a new one."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value

    __hash__ = None  # type: ignore[assignment]


def _snapshot(value: Any, like: Any = None) -> Any:
    """A copy of plain data, its immutable leaves shared (a fraction of `copy.deepcopy`'s cost).
    A part equal to the same part of `like` (an earlier copy: never changed) is that part, found
    equal by one comparison in C instead of copied in Python: a step changes a key's store or
    config in a place or two, the rest (the app databases' schemas, the other apps' stacks) is
    as it was."""
    if isinstance(value, dict):
        olds = like if type(like) is dict else {}
        return {name: _part(item, olds.get(name)) if isinstance(item, _CONTAINERS) else item
                for name, item in value.items()}
    if isinstance(value, _CONTAINERS):
        olds = like if type(like) is type(value) else ()
        return type(value)(_part(item, olds[i] if i < len(olds) else None) if isinstance(item, _CONTAINERS) else item
                           for i, item in enumerate(value))
    return value


def _part(item: Any, old: Any) -> Any:
    """`old` if it is a copy of `item` (of its type and equal), else a new copy of `item`."""
    return old if type(old) is type(item) and old == item else _snapshot(item, old)


_CONTAINERS = (dict, list, tuple)


def _key_copy(key: Any) -> Any:
    """A copy of `key` to keep: the last one made in this thread while it still equals `key`
    (the dump, its screen and the settings of one command share their key), else a new one that
    shares with it the parts that did not change. Kept copies are only ever compared, never changed."""
    last = _LOCAL.key
    if last is None or last != key:
        last = _LOCAL.key = _snapshot(key, last)
    return last


def clear() -> None:
    """Forget every kept result (and the writes kept for them)."""
    with _LOCK:
        _DEVICES.clear()


def _note_reads(reads: frozenset[str]) -> None:
    """A kept result used inside another computation: that one read what this one read."""
    outer = _LOCAL.reads
    if outer is not None:
        outer.update(reads)


def _holds(device: _Device, result: _Result) -> bool:
    """Does `result` still hold? If so, the writes checked now need no second look."""
    with _LOCK:
        writes, upto = device.since(result), device.count
    if writes is None:
        return False
    if any(result.reads.touched_by(path, kind) for _, path, kind, _ in writes):
        return False
    for path, mark in result.marks.items():
        now = _unchanged(path, mark)
        if now is _CHANGED:
            return False
        if now is not mark:  # a database whose header holds (its stat moved): kept from now on
            result.marks[path] = now
    with _LOCK:
        if upto > result.end:
            result.start = result.end = upto
    return True


_UNKEPT = object()  # the mark of a database whose changes its header does not show (WAL)


@dataclasses.dataclass(frozen=True)
class _Database:
    """The mark of a SQLite database in a rollback journal mode."""

    header: tuple[Any, ...]  # what must not change: mode, inode, file format, change counter, version
    stat: tuple[int, ...]  # its stat then,
    settled: bool  # and whether its last change was over audit_events.RACY_NS before (see the module doc)


def _mark(path: str) -> Any:
    """What must not change in `path` for a result that read it to hold."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    mark: tuple[Any, ...] = _stat_mark(st)
    if stat.S_ISREG(st.st_mode) and st.st_size >= _HEADER:
        try:
            header = _head(path)
        except OSError:
            return None
        if header.startswith(_SQLITE_MAGIC):
            if header[18] == 2 or os.path.exists(path + "-wal"):
                return _UNKEPT
            return _Database((st.st_mode, st.st_ino, header[18:20], header[24:28], header[92:100]), mark,
                             time.time_ns() - st.st_ctime_ns > audit_events.RACY_NS)
    return mark


def _stat_mark(st: os.stat_result) -> tuple[int, ...]:
    return st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


_CHANGED = object()  # what _unchanged answers for a path that changed


def _unchanged(path: str, mark: Any) -> Any:
    """`mark` if `path` still answers to it, or a new mark that means the same (a database whose
    header holds while its stat moved); `_CHANGED` if it changed."""
    if isinstance(mark, _Database):
        try:
            st = os.lstat(path)
        except OSError:
            return _CHANGED
        if mark.settled and _stat_mark(st) == mark.stat and not os.path.exists(path + "-wal"):
            return mark
        now = _mark(path)
        return now if isinstance(now, _Database) and now.header == mark.header else _CHANGED
    return mark if _mark(path) == mark else _CHANGED


def _head(path: str) -> bytes:
    """The first `_HEADER` bytes of a file (read without a buffered file object: a third of its cost)."""
    handle = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.pread(handle, _HEADER, 0)
    finally:
        os.close(handle)


# --- the devices and their writes ----------------------------------------------------------------
def _device(state: SimState) -> _Device:
    global _HOOKED
    real = os.path.dirname(state.real_fs_root)
    with _LOCK:
        device = _DEVICES.get(real)
        if device is None:
            device = _DEVICES[real] = _Device(real, os.fspath(state.root))
            while len(_DEVICES) > MAX_DEVICES:
                _DEVICES.popitem(last=False)
            if not _HOOKED:
                audit_events.on_write(_written)
                audit_events.on_events(frozenset(_READ_EVENTS), _read)
                _HOOKED = True
        else:
            _DEVICES.move_to_end(real)
        return device


def _kind(event: str, path: str) -> str | None:
    """What `event` does to `path`: its content, its place in the tree, or its metadata (None: an
    existing folder made again, which changes nothing)."""
    if event in ("open", "os.truncate"):
        return CONTENT
    if event in METADATA_EVENTS:
        return METADATA
    if event == "os.mkdir" and os.path.isdir(path):
        return None
    return STRUCTURE


def _lookup_only(flags: Any) -> bool:
    """Whether an `open` event's flags open a path without reading it (O_PATH: a lookup, as when
    taskkit.sim.realpaths resolves it)."""
    return isinstance(flags, int) and bool(flags & os.O_PATH)


# event -> the path it reads (while a computation records)
_READ_EVENTS: dict[str, Callable[[tuple], str | None]] = {
    "open": lambda a: None if isinstance(a[0], int) or _lookup_only(a[2]) else event_path(a[0]),
    "os.listdir": lambda a: event_path(a[0]),
    "os.scandir": lambda a: event_path(a[0]),
    "sqlite3.connect": lambda a: event_path(a[0]) if isinstance(a[0], (str, bytes, os.PathLike)) else None,
}


def _read(event: str, args: tuple) -> None:
    """Record what a running computation of this thread reads (what a listener's own work opens,
    a restore point's journal, reaches no listener: taskkit.sim.audit_events)."""
    reads = _LOCAL.reads
    if reads is None:
        return
    try:
        path = _READ_EVENTS[event](args)
        if path is not None and not path.startswith(":") and not path.startswith("file:"):
            reads.add(path)
    except Exception:  # noqa: BLE001 - never break the read; forget what may no longer hold instead
        clear()


def _written(event: str, args: tuple, paths: list[str] | None) -> None:
    """Note a write to a device with kept results (forget them all if its paths are not known).
    What a listener writes for its own work, a restore point's journal (STATE/undo,
    taskkit.sim.changes) that no screen reads, reaches no listener (taskkit.sim.audit_events)."""
    if not _DEVICES:
        return
    try:
        if paths is None:
            clear()
        else:
            _note_writes(args, [(path, _kind(event, path)) for path in paths])
    except Exception:  # noqa: BLE001 - never break the write; forget what may no longer hold instead
        clear()


def _note_writes(args: tuple, targets: list[tuple[str, str | None]]) -> None:
    thread = threading.get_ident()
    for path, kind in targets:
        if kind is None:
            continue
        text = os.path.abspath(path)
        devices = [d for d in list(_DEVICES.values()) if text.startswith(d.inside) or text in d.names]
        if not devices:
            continue
        folder = os.path.dirname(text)  # a state directory's own files (device.json, gui.json, logcat.txt):
        known = next((d.root for d in devices if folder in d.names), None)  # resolved already
        real = real_path(args, text, follow=kind == CONTENT, known=known)
        with _LOCK:
            for device in devices:
                if kind == STRUCTURE and under(device.root, real):  # the device itself goes (closed)
                    _DEVICES.pop(device.root, None)
                elif under(real, device.root):
                    device.count += 1
                    device.writes.append((device.count, real, kind, thread))
