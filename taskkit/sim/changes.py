"""Where a simulated device's files change: the recorder behind the `taskkit-changes` command.

The side-effect check (taskkit.side_effects) asks what changed in shared storage, app data and
/data/local/tmp since it started watching. On the simulated device the answer comes from here,
so that it costs what changed, never the number or size of the files left alone.

**How writes are seen: one hook on the interpreter's audit events (PEP 578).** The simulator is
Python code in this process and has no subprocesses: every host write it makes — the toybox
tools, shell redirections, `push`/`sync` over adbd, the GUI, content providers, settings,
restore points — is an `open` for writing, an `os.remove`/`rmdir`/`mkdir`/`rename`/`replace`/
`symlink`/`link`/`truncate`, a `shutil.rmtree` or a `sqlite3.connect`, and CPython raises an
audit event *before* each of them, whichever code path made the call. Hooking those events,
rather than the write sites one by one, cannot miss a write path, including ones added later.
The one write SQLite makes without an event — opening the file of an `ATTACH` (also used by
`VACUUM INTO`) — is announced by the sandbox's authorizer with the `taskkit.sqlite.attach`
event (taskkit.sim.sqlite_sandbox).

**What is kept.** `start` begins a watch over some roots (device paths) minus some skipped paths;
a device has one watch at a time, until the next `start`. The first time an event names a path
under the roots, the path's state just before the write is kept (its *pre-image*): absent, a
folder, or a file with the md5 of its content. A rename or `rmtree` of a folder keeps the
pre-image of every entry under it, and its subtree is listed again at `diff`. A
`sqlite3.connect` may only read, so it keeps the file's stat (size, mtime, ctime, inode) instead,
and the md5 too when the file changed within the last `RACY_NS` (the kernel stamps ctime with a
coarse clock: a write in the same tick would leave the stat as it was).

**`diff`** compares each kept path with what is there now and prints the lines that differ, in
`taskkit.device.state.listing`'s format (`dir PATH`, `file PATH MD5`), `- ` before and `+ ` after.
It reads only the kept paths (and the subtrees of renamed or removed folders): with 10,000
unchanged files or one unchanged 100 MB file on the device it hashes nothing more than with none
(`Recorder.hashed` and `hashed_bytes` count what it read).

**What it cannot see**: writes by another process to the state directory (nothing taskkit runs
makes any), and writes through a file descriptor opened before `start` (the simulator holds none
between commands: every file and SQLite connection is closed when its command ends). An event it
cannot interpret fails the watch: `diff` then exits 1 with the reason instead of answering.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
import os
import posixpath
import stat
import sys
import threading
import time
from typing import Any, Callable, Iterator

from taskkit.errors import TaskkitError
from taskkit.sim.sqlite_sandbox import ATTACH_EVENT, sqlite_files
from taskkit.sim.state import SimState

_WATCH_IDS = itertools.count(1)  # with the pid: a watch id this process never gave before
RACY_NS = 100_000_000  # a file changed this recently (ns) at a `sqlite3.connect` is hashed then
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_UNKNOWN = "unknown"  # the md5 shown for a file whose content before was not read (never equal)
Stat = tuple[int, int, int, int]


@dataclasses.dataclass(frozen=True)
class Image:
    """A path's state at one moment: absent (kind None), "dir", "file" (with md5 or stat) or "other"."""

    kind: str | None
    md5: str | None = None
    stat: Stat | None = None


ABSENT = Image(None)


@dataclasses.dataclass
class Watch:
    """One watch: its roots (canonical host-side path -> displayed device path), what it skips,
    and the pre-image of every path written since it started."""

    id: str
    roots: tuple[tuple[str, str], ...]
    skip: tuple[str, ...]  # canonical paths
    before: dict[str, Image] = dataclasses.field(default_factory=dict)
    trees: set[str] = dataclasses.field(default_factory=set)
    failure: str | None = None


class WatchError(TaskkitError):
    """No such watch, or one whose recording failed."""


class Recorder:
    """The watch of one device filesystem (`SimState.fs_root`) and the files it hashed."""

    def __init__(self, fs_root: str):
        self.fs_root = fs_root  # real path, no trailing slash
        self.watch: Watch | None = None
        self.hashed = 0  # files read to hash them since this recorder was made (tests count it)
        self.hashed_bytes = 0  # and their bytes

    # --- paths -------------------------------------------------------------------------------
    def canonical(self, host: str) -> str | None:
        """The device-side path (links resolved: /data/media/0/...) of real host path `host`."""
        if host == self.fs_root:
            return "/"
        if host.startswith(self.fs_root + "/"):
            return host[len(self.fs_root):]
        return None

    def host(self, canonical: str) -> str:
        return self.fs_root + canonical

    def _watched(self, watch: Watch, canonical: str) -> bool:
        return not any(_under(canonical, s) for s in watch.skip) and any(_under(canonical, r) for r, _ in watch.roots)

    def shown(self, watch: Watch, canonical: str) -> str:
        """`canonical` as the device lists it under the watch's root (/storage/emulated/0/...)."""
        for root, display in watch.roots:
            if _under(canonical, root):
                return display + canonical[len(root):]
        return canonical

    # --- recording ---------------------------------------------------------------------------
    def note(self, canonical: str, how: str) -> None:
        """Keep the pre-image of `canonical` ("content", "stat" or "tree") if it is watched."""
        watch = self.watch
        if watch is None or not self._watched(watch, canonical):
            return
        kept = watch.before.get(canonical)
        if kept is None:
            watch.before[canonical] = self._start_image(watch, canonical, content=how != "stat")
        elif how != "stat" and kept.kind == "file" and kept.md5 is None:  # now it is written: pin the content
            image = self._image(canonical, content=False)
            watch.before[canonical] = self._image(canonical, content=True) if image == kept else kept
        if how == "tree":  # a folder moved or removed whole (or one that a folder will replace)
            for path in self._walk(canonical):
                if path not in watch.before and self._watched(watch, path):
                    watch.before[path] = self._start_image(watch, path, content=True)
            watch.trees.add(canonical)

    def _start_image(self, watch: Watch, canonical: str, content: bool) -> Image:
        """What `canonical`, not kept yet, was at `start`: absent if a kept folder above it was
        absent or a file then, or is a tree (its entries were all kept when it was walked, and
        any removed since were kept by that event); otherwise as it is now (nothing wrote it)."""
        parent = posixpath.dirname(canonical)
        while parent != "/" and self._watched(watch, parent):
            kept = watch.before.get(parent)
            if parent in watch.trees or (kept is not None and kept.kind != "dir"):
                return ABSENT
            parent = posixpath.dirname(parent)
        return self._image(canonical, content)

    def _image(self, canonical: str, content: bool) -> Image:
        host = self.host(canonical)
        try:
            st = os.lstat(host)
        except (FileNotFoundError, NotADirectoryError):
            return ABSENT
        if stat.S_ISDIR(st.st_mode):
            return Image("dir")
        if not stat.S_ISREG(st.st_mode):
            return Image("other")
        key = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        if content or st.st_ctime_ns >= time.time_ns() - RACY_NS:
            return Image("file", md5=self._md5(host), stat=key)
        return Image("file", stat=key)

    def _md5(self, host: str) -> str:
        self.hashed += 1
        digest = hashlib.md5()
        with open(host, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
                self.hashed_bytes += len(chunk)
        return digest.hexdigest()

    def _walk(self, canonical: str) -> Iterator[str]:
        """Every path under folder `canonical` (links not followed)."""
        try:
            entries = list(os.scandir(self.host(canonical)))
        except OSError:
            return
        for entry in entries:
            path = f"{canonical}/{entry.name}"
            yield path
            if entry.is_dir(follow_symlinks=False):
                yield from self._walk(path)

    # --- answering ---------------------------------------------------------------------------
    def start(self, roots: dict[str, str], skip: tuple[str, ...]) -> str:
        """Begin a new watch (ending the device's earlier one); returns its id."""
        self.watch = Watch(f"{os.getpid():x}-{next(_WATCH_IDS)}", tuple(roots.items()), skip)
        return self.watch.id

    def diff(self, watch_id: str) -> list[str]:
        """`- LINE` / `+ LINE` for every watched path whose state differs from its pre-image."""
        watch = self.watch
        if watch is None or watch.id != watch_id:
            raise WatchError(f"no watch {watch_id} (a later start replaced it, or the device restarted)")
        if watch.failure is not None:
            raise WatchError(f"watch {watch_id} failed: {watch.failure}")
        paths = set(watch.before)
        for tree in watch.trees:
            paths.update(path for path in self._walk(tree) if self._watched(watch, path))
        lines = []
        for path in sorted(paths):
            old = watch.before.get(path, ABSENT)
            new = self._image(path, content=False)
            if new.kind == "file" and not (old.md5 is None and old.stat == new.stat):
                new = dataclasses.replace(new, md5=new.md5 or self._md5(self.host(path)))
            elif new.kind == "file":
                new = old  # read-only: the stat did not move
            shown = self.shown(watch, path)
            before, after = _line(shown, old), _line(shown, new)
            if before != after:
                lines += [f"- {before}"] * (before is not None) + [f"+ {after}"] * (after is not None)
        return lines


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _line(shown: str, image: Image) -> str | None:
    if image.kind == "dir":
        return f"dir {shown}"
    if image.kind == "file":
        return f"file {shown} {image.md5 or _UNKNOWN}"
    return None


# --- the hook ------------------------------------------------------------------------------------
_RECORDERS: dict[str, Recorder] = {}  # real fs root -> its recorder
_LOCK = threading.RLock()
_LOCAL = threading.local()
_HOOKED = False


def recorder(state: SimState) -> Recorder:
    """The recorder of `state`'s device (one per filesystem in this process); installs the hook."""
    global _HOOKED
    real = os.path.realpath(state.fs_root)
    with _LOCK:
        for root in [r for r in _RECORDERS if not os.path.isdir(r)]:  # devices since deleted
            del _RECORDERS[root]
        if not _HOOKED:
            sys.addaudithook(_audit)
            _HOOKED = True
        return _RECORDERS.setdefault(real, Recorder(real))


def _fd_path(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


def _host(path: Any, dir_fd: Any = None, follow: bool = False) -> str | None:
    """The real host path an event's path (and dir_fd) names; the last link followed if `follow`."""
    if isinstance(path, int):
        return _fd_path(path)
    if path is None:
        return None
    text = os.fsdecode(path)
    if isinstance(dir_fd, int) and dir_fd >= 0 and not text.startswith("/"):
        text = os.path.join(_fd_path(dir_fd), text)
    text = os.path.abspath(text)
    if follow:
        return os.path.realpath(text)
    parent, name = os.path.split(text)
    return os.path.join(os.path.realpath(parent), name) if name else os.path.realpath(text)


def _open(args: tuple) -> list[tuple[str | None, str]]:
    path, _mode, flags = args[:3]
    if isinstance(path, int) or not isinstance(flags, int) or not flags & _WRITE_FLAGS:
        return []
    return [(_host(path, follow=True), "content")]


def _connect(args: tuple) -> list[tuple[str | None, str]]:
    files = sqlite_files(os.fsdecode(args[0])) if isinstance(args[0], (str, bytes, os.PathLike)) else None
    return [(_host(f, follow=True), "stat") for f in files or []]


# event -> the (host path, how) pairs it writes; every other event is not a write of file content
# (os.chmod, os.utime and os.chown change metadata only, which the listing never compared).
_EVENTS: dict[str, Callable[[tuple], list[tuple[str | None, str]]]] = {
    "open": _open,
    "os.remove": lambda a: [(_host(a[0], a[1]), "content")],
    "os.rmdir": lambda a: [(_host(a[0], a[1]), "content")],
    "os.mkdir": lambda a: [(_host(a[0], a[2]), "content")],
    "os.mkfifo": lambda a: [(_host(a[0], a[2]), "content")],
    "os.mknod": lambda a: [(_host(a[0], a[3] if len(a) > 3 else None), "content")],
    "os.rename": lambda a: [(_host(a[0], a[2]), "tree"), (_host(a[1], a[3]), "tree")],
    "os.symlink": lambda a: [(_host(a[1], a[2]), "content")],
    "os.link": lambda a: [(_host(a[1], a[3]), "content")],
    "os.truncate": lambda a: [(_host(a[0], follow=True), "content")],
    "shutil.rmtree": lambda a: [(_host(a[0], a[1]), "tree")],
    "sqlite3.connect": _connect,
    ATTACH_EVENT: _connect,
}


def _audit(event: str, args: tuple) -> None:
    handler = _EVENTS.get(event)
    if handler is None or not _RECORDERS or getattr(_LOCAL, "busy", False):
        return
    _LOCAL.busy = True  # hashing opens files too
    try:
        with _LOCK:
            active = [r for r in _RECORDERS.values() if r.watch is not None]
            if not active:
                return
            try:
                targets = handler(args)
            except Exception as error:  # noqa: BLE001 - never break the write; fail the watches instead
                for rec in active:
                    rec.watch.failure = f"could not read the {event} event: {error}"  # type: ignore[union-attr]
                return
            for host, how in targets:
                for rec in active:
                    canonical = rec.canonical(host) if host else None
                    if canonical is not None:
                        try:
                            rec.note(canonical, how)
                        except Exception as error:  # noqa: BLE001 - as above
                            rec.watch.failure = f"could not keep {canonical} before the {event}: {error}"  # type: ignore[union-attr]
    finally:
        _LOCAL.busy = False
