"""Which paths the interpreter's audit events (PEP 578) change, read once for everything in this
process that watches a simulated device's files: taskkit.sim.changes (what a restore must undo),
taskkit.sim.gui.cache (when a kept screen no longer holds), taskkit.sim.jsonstore (parsed JSON files)
and taskkit.sim.sqlite_sandbox (kept SQLite readers). One audit hook serves them all (`on_write`,
`on_events`): each hook more would cost every audit event of the process a Python call. Each
changed path is resolved to its real path once per event, for every listener (`real_path`).
The hook also tells taskkit.sim.realpaths when a link, move or removal may change where a path
leads (`kept_real_paths`).

The positions follow CPython's audit events table (docs.python.org/3/library/audit_events.html):
`open(path, mode, flags)`, `os.remove(path, dir_fd)`, `os.rename(src, dst, src_dir_fd,
dst_dir_fd)` and so on.
"""
from __future__ import annotations

import os
import stat
import sys
import threading
from typing import Any, Callable

from taskkit.sim import realpaths

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
METADATA_EVENTS = frozenset({"os.utime", "os.chmod", "os.chown"})  # change a file's metadata only
FOLDER_GOES = frozenset({"os.rename", "os.rmdir", "shutil.rmtree"})  # can take a folder's files away
# may change where a path leads (taskkit.sim.realpaths keeps answers until one does: `_redirects`)
REDIRECTING = frozenset({"os.rename", "os.remove", "os.symlink", "os.link", "os.chdir"})

# event -> for each path it changes, the positions of that path and of its dir_fd (None: none)
_CHANGED: dict[str, tuple[tuple[int, int | None], ...]] = {
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.mkfifo": ((0, 2),),
    "os.mknod": ((0, 3),),
    "os.rename": ((0, 2), (1, 3)),
    "os.symlink": ((1, 2),),
    "os.link": ((1, 3),),
    "os.truncate": ((0, None),),
    "shutil.rmtree": ((0, 1),),
    "os.utime": ((0, 3),),
    "os.chmod": ((0, 2),),
    "os.chown": ((0, 3),),
}
EVENTS = frozenset(_CHANGED) | {"open"}


def event_path(path: Any, dir_fd: Any = None) -> str | None:
    """The path an event's argument names, as text: a file descriptor's path, or `path` joined to
    its `dir_fd`'s folder when relative (None for none)."""
    if isinstance(path, int):
        return os.readlink(f"/proc/self/fd/{path}")
    if path is None:
        return None
    text = os.fsdecode(path)
    if isinstance(dir_fd, int) and dir_fd >= 0 and not text.startswith("/"):
        text = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), text)
    return text


def changed_paths(event: str, args: tuple) -> list[str]:
    """The paths `event` changes: none for an event that changes nothing, or an `open` of a path
    (not a descriptor) for reading only."""
    if event == "open":
        path, _mode, flags = args[:3]
        if isinstance(path, int) or not isinstance(flags, int) or not flags & WRITE_FLAGS:
            return []
        positions: tuple[tuple[int, int | None], ...] = ((0, None),)
    else:
        positions = _CHANGED.get(event, ())
    found = (event_path(args[p], None if d is None or d >= len(args) else args[d]) for p, d in positions)
    return [path for path in found if path is not None]


def under(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or inside it (both absolute, `folder` with or without a final /)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


#: A file whose change time (ctime) is this recent may change again without its stat changing: the
#: kernel stamps ctime from a coarse clock, so a second write in the same tick can leave size, mtime
#: and ctime as they were. One older than this cannot (the clock has passed it since).
RACY_NS = 100_000_000


def identity(st: os.stat_result) -> tuple[int, ...]:
    """What a write by another process (which no audit hook of this one sees) changes in a file's
    stat: its device, inode, size, modification and change time."""
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


_MEMO = threading.local()  # per thread: the event being dispatched and the real paths found for it


def real_path(event_args: tuple, path: str, follow: bool, known: str | None = None) -> str:
    """The real path of `path` (absolute), changed by the event whose arguments are `event_args`:
    its folder resolved by the kernel (taskkit.sim.realpaths), its last link too if `follow`; `known` is
    the folder's real path when the caller has it. Every hook of one event gets the first
    answer: the memo holds the event's argument tuple itself, so its identity cannot be reused by
    another event while it is kept."""
    memo = getattr(_MEMO, "entry", None)
    if memo is None or memo[0] is not event_args:
        memo = _MEMO.entry = (event_args, {})
    key = (path, follow)
    found = memo[1].get(key)
    if found is None:
        found = memo[1][key] = _resolve(path, follow, known)
    return found


def _resolve(path: str, follow: bool, known: str | None) -> str:
    name = os.path.basename(path)
    if known is not None and name not in ("", ".", "..") and not (follow and os.path.islink(path)):
        return os.path.join(known, name)
    return realpaths.real_path(path, follow)


#: A write listener: called with the event, its arguments and the paths it changes (None when they
#: could not be read: forget everything that may depend on a path).
Listener = Callable[[str, tuple, "list[str] | None"], None]
#: An event listener: called with the event and its arguments.
EventListener = Callable[[str, tuple], None]
_WRITE_LISTENERS: tuple[Listener, ...] = ()
_EVENT_LISTENERS: dict[str, tuple[EventListener, ...]] = {}
_WATCHED: frozenset[str] = frozenset()  # the events _dispatch looks at
_LISTENERS_LOCK = threading.Lock()


def on_write(listener: Listener) -> None:
    """Call `listener` for every event of this process that changes paths."""
    global _WRITE_LISTENERS
    with _LISTENERS_LOCK:
        _WRITE_LISTENERS = (*_WRITE_LISTENERS, listener)
        _watch(EVENTS)


def on_events(events: frozenset[str], listener: EventListener) -> None:
    """Call `listener` for every one of `events` this process raises (before the write listeners
    of that event, if it changes paths)."""
    with _LISTENERS_LOCK:
        for event in events:
            _EVENT_LISTENERS[event] = (*_EVENT_LISTENERS.get(event, ()), listener)
        _watch(events)


def kept_real_paths() -> realpaths.KeptAnswers:
    """A block that keeps taskkit.sim.realpaths' answers (`with kept_real_paths(): ...`), the hook
    that tells it when the tree changes installed."""
    if not REDIRECTING <= _WATCHED:
        with _LISTENERS_LOCK:
            _watch(REDIRECTING)
    return realpaths.KeptAnswers()


def _watch(events: frozenset[str]) -> None:
    """Look at `events` too (with _LISTENERS_LOCK held); the hook is added with the first ones."""
    global _WATCHED
    if not _WATCHED:
        sys.addaudithook(_dispatch)
    _WATCHED = _WATCHED | events


def _dispatch(event: str, args: tuple) -> None:
    """The one hook. A listener's own calls raise events too, which come here again: `_listen`
    hands them to no listener."""
    if realpaths.kept.changing == realpaths.DISPATCHED:  # this thread's last change is done
        realpaths.tree_changed()
    if event not in _WATCHED:
        return
    if event in REDIRECTING and _redirects(event, args):  # no real path kept until the change is done
        realpaths.tree_changing()
        try:
            _listen(event, args)
        finally:
            realpaths.tree_announced()
    else:
        _listen(event, args)


def _redirects(event: str, args: tuple) -> bool:
    """Whether `event` may change where some path leads. Where a path leads depends on the links
    on its way alone (a missing file or folder is taken as written): a link made, removed or
    moved changes it, and so may a folder moved (the links inside it, relative ones included) or
    a chdir. A file or an empty folder removed, or a file moved, does not. (A tree removed goes
    entry by entry, each an `os.remove` or `os.rmdir` event.)"""
    kind = realpaths.file_kind
    if event == "os.remove":
        return kind(args[0], args[1]) != stat.S_IFREG
    if event == "os.rename":
        return kind(args[0], args[2]) != stat.S_IFREG or kind(args[1], args[3]) == stat.S_IFLNK
    return True


class _Listening(threading.local):
    now = False  # a listener runs in this thread


_LISTENING = _Listening()


class unheard:  # noqa: N801 - used as a `with` block, like a function's context manager
    """A block whose events reach no listener, as a listener's own work does not: the files a
    watcher keeps for itself outside every device's filesystem (an undo journal in the state
    directory), which nothing watches. (Answers of taskkit.sim.realpaths are still told of a
    change of where paths lead.)"""

    __slots__ = ("_before",)

    def __enter__(self) -> None:
        self._before = _LISTENING.now
        _LISTENING.now = True

    def __exit__(self, *exc: object) -> None:
        _LISTENING.now = self._before


def _listen(event: str, args: tuple) -> None:
    """Hand `event` to its listeners; not one raised by a listener's own work (a restore point's
    journal copying or hashing a file, a path resolved): that is no program's read or write, and
    a listener calling itself again would never end."""
    listening = _LISTENING
    if listening.now:
        return
    listening.now = True
    try:
        for listener in _EVENT_LISTENERS.get(event, ()):
            listener(event, args)
        if event not in EVENTS or not _WRITE_LISTENERS:
            return
        try:
            paths: list[str] | None = changed_paths(event, args)
        except Exception:  # noqa: BLE001 - never break the write: the listeners forget instead
            paths = None
        if paths != []:  # (an `open` for reading changes nothing)
            for listener in _WRITE_LISTENERS:
                listener(event, args, paths)
    finally:
        listening.now = False
