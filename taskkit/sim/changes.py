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
and the md5 too when the file changed within the last `audit_events.RACY_NS` (the kernel stamps
ctime with a coarse clock: a write in the same tick would leave the stat as it was).

**`diff`** compares each kept path with what is there now and prints the lines that differ, in
`taskkit.device.state.listing`'s format (`dir PATH`, `file PATH MD5`), `- ` before and `+ ` after.
It reads only the kept paths (and the subtrees of renamed or removed folders): with 10,000
unchanged files or one unchanged 100 MB file on the device it hashes nothing more than with none
(`Recorder.hashed` and `hashed_bytes` count what it read).

**Undo journals.** A watch started with a journal (`start --undo NAME`) also keeps what it needs
to put every watched path back as it was at `start`: one index line per path it kept (absent, a
folder, or a file with a copy of its content, taken before the write; a SQLite file is copied
when it is first opened, since SQLite writes without events). The journal is a folder of the
state directory (STATE/undo/NAME), outside the device's filesystem: the device cannot see or
write it, and it outlives the process, so an interrupted run's journal can still be applied.
`undo NAME` ends the watch, removes what was not there, recreates folders and copies back (with
their old times) the files whose content differs from their copy: its cost follows what changed,
and a file only read (a SQLite database opened to query it) is not written. It keeps the journal,
so that a run killed in the middle can undo again; `drop NAME` then deletes it (renamed away
first, in one atomic step), and `check NAME` tells a complete journal from a damaged one (a copy
or the index gone) without changing anything. A restore point (taskkit.device.state) begins one
over what the episode may write: on this device that is its task's own data and the settings
database too, instead of copies of them. Links, fifos and other special files are kept as they
are (none of the apps has them).

**What it cannot see**: writes by another process to the state directory (nothing taskkit runs
makes any), and writes through a file descriptor opened before `start` (the simulator holds none
between commands: every file and SQLite connection is closed when its command ends). An event it
cannot interpret fails the watch: `diff` then exits 1 with the reason instead of answering.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import posixpath
import re
import shutil
import stat
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from taskkit.errors import TaskkitError
from taskkit.sim import audit_events
from taskkit.sim.audit_events import METADATA_EVENTS, real_path, under as _under
from taskkit.sim.sqlite_sandbox import ATTACH_EVENT, sqlite_files
from taskkit.sim.state import SimState

_WATCH_IDS = itertools.count(1)  # with the pid: a watch id this process never gave before
_UNKNOWN = "unknown"  # the md5 shown for a file whose content before was not read (never equal)
JOURNAL_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")  # an undo journal's folder name
MAX_JOURNALS = 64  # undo watches kept at once; the oldest beyond is failed (its undo refuses)
_INDEX = "index"
_DROPPED = ".dropped-"  # a journal being deleted (a journal's name never starts with ".")
_FAILED = "failed"
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
    journal: Journal | None = None  # an undo watch's journal

    def fail(self, why: str) -> None:
        self.failure = self.failure or why
        if self.journal is not None:
            self.journal.fail(why)


class Journal:
    """An undo watch's folder: `index` (one `KIND COPY PATH` line per kept path: `absent`, `dir`,
    `file` with the name of its copy, or `other`; the path as a JSON string, so that a name with
    a newline keeps to its line) and the copies, numbered. Its files, in the state directory, are
    the recorder's own: what it writes there reaches no listener (`audit_events.unheard`)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.count = 0

    def create(self) -> None:
        with audit_events.unheard():
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder.mkdir(parents=True)
            (self.folder / _INDEX).write_text("")

    def keep(self, canonical: str, image: Image, host: str) -> None:
        """Note `canonical`'s state before its first write (copying a file's content)."""
        copy = "-"
        with audit_events.unheard():
            if image.kind == "file":
                self.count += 1
                copy = str(self.count)
                shutil.copy2(host, self.folder / copy, follow_symlinks=False)
            with open(self.folder / _INDEX, "a", encoding="utf-8", errors="surrogateescape") as index:
                index.write(f"{image.kind or 'absent'} {copy} {json.dumps(canonical)}\n")  # any name, one line

    def fail(self, why: str) -> None:
        with audit_events.unheard(), open(self.folder / _INDEX, "a", encoding="utf-8") as index:
            index.write(f"{_FAILED} - {why.replace(chr(10), ' ')}\n")

    def entries(self, complete: bool = True) -> dict[str, tuple[str, str]]:
        """path -> (kind, copy): each path's first line, as it was at `start`. WatchError if
        there is no journal, if a copy it names is missing, or (`complete`) if its recording failed."""
        try:
            text = (self.folder / _INDEX).read_text(encoding="utf-8", errors="surrogateescape")
        except FileNotFoundError:
            raise WatchError(f"no undo journal {self.folder.name}") from None
        kept: dict[str, tuple[str, str]] = {}
        failure = None
        for line in text.splitlines():
            kind, copy, path = line.split(" ", 2)
            if kind == _FAILED:
                failure = failure or path
                continue
            if path.startswith('"'):
                path = json.loads(path)
            kept.setdefault(path, (kind, copy))
        folder = os.fspath(self.folder)
        for path, (kind, copy) in kept.items():
            if kind == "file" and not os.path.isfile(f"{folder}/{copy}"):
                raise WatchError(f"undo journal {self.folder.name} is damaged: the copy of {path} is missing")
        if failure is not None and complete:
            raise WatchError(f"undo journal {self.folder.name} is incomplete: {failure}")
        return kept


class WatchError(TaskkitError):
    """No such watch, or one whose recording failed."""


class Recorder:
    """The watch of one device filesystem (`SimState.fs_root`) and the files it hashed."""

    def __init__(self, fs_root: str):
        self.fs_root = fs_root  # real path, no trailing slash
        self.watches: dict[str, Watch] = {}  # the newest plain watch, and the undo watches
        self.hashed = 0  # files read to hash them since this recorder was made (tests count it)
        self.hashed_bytes = 0  # and their bytes
        self.restored = 0  # files an undo copied back (tests count it)
        self.restored_bytes = 0  # and their bytes

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
        """Keep the pre-image of `canonical` ("content", "stat" or "tree") in every watch of it."""
        for watch in list(self.watches.values()):
            if watch.failure is None and self._watched(watch, canonical):
                try:
                    self._note(watch, canonical, how)
                except Exception as error:  # noqa: BLE001 - never break the write; fail the watch instead
                    watch.fail(f"could not keep {canonical}: {error}")

    def _note(self, watch: Watch, canonical: str, how: str) -> None:
        kept = watch.before.get(canonical)
        if kept is None:
            self._keep(watch, canonical, self._start_image(watch, canonical, content=how != "stat"))
        elif how != "stat" and kept.kind == "file" and kept.md5 is None:  # now it is written: pin the content
            image = self._image(canonical, content=False)
            watch.before[canonical] = self._image(canonical, content=True) if image == kept else kept
        if how == "tree":  # a folder moved or removed whole (or one that a folder will replace)
            for path in self._walk(canonical):
                if path not in watch.before and self._watched(watch, path):
                    self._keep(watch, path, self._start_image(watch, path, content=True))
            watch.trees.add(canonical)

    def _keep(self, watch: Watch, canonical: str, image: Image) -> None:
        watch.before[canonical] = image
        if watch.journal is not None:
            watch.journal.keep(canonical, image, self.host(canonical))

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
        if content or st.st_ctime_ns >= time.time_ns() - audit_events.RACY_NS:  # (hashed then)
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
    def start(self, roots: dict[str, str], skip: tuple[str, ...], journal: Path | None = None) -> str:
        """Begin a new watch and return its id. A plain watch ends the device's earlier plain one;
        one with an undo `journal` (a folder, made afresh) lasts until its `undo`."""
        watch = Watch(f"{os.getpid():x}-{next(_WATCH_IDS)}", tuple(roots.items()), skip)
        if journal is None:
            self.watches = {key: w for key, w in self.watches.items() if w.journal is not None}
        else:
            watch.journal = Journal(journal)
            watch.journal.create()
            journaled = [key for key, w in self.watches.items() if w.journal is not None]
            for key in journaled[:max(0, len(journaled) + 1 - MAX_JOURNALS)]:
                self.watches.pop(key).fail(f"more than {MAX_JOURNALS} undo journals were open at once")
        self.watches[watch.id] = watch
        return watch.id

    def undo(self, journal: Path) -> list[str]:
        """Put every path kept in `journal` back as it was when its watch started and end the
        watch (the journal stays until `drop`); returns the host folders whose entries changed
        (to be stamped). A damaged journal raises WatchError before anything is changed."""
        for key, watch in list(self.watches.items()):  # ended first: its own writes are not noted
            if watch.journal is not None and watch.journal.folder == journal:
                del self.watches[key]
        kept = Journal(journal).entries()
        touched: set[str] = set()
        for path in sorted(kept, key=lambda p: p.count("/"), reverse=True):  # what was not there, deepest first
            kind, host = kept[path][0], self.host(path)
            now = _kind(host)
            if now is not None and kind != "other" and now != kind:
                if now == "dir":
                    shutil.rmtree(host)
                else:
                    os.remove(host)
                touched.add(os.path.dirname(host))
        for path in sorted(kept, key=lambda p: p.count("/")):  # then folders, then files' content
            (kind, copy), host = kept[path], self.host(path)
            if kind == "dir" and _kind(host) is None:
                os.mkdir(host)
                touched.add(os.path.dirname(host))
            elif kind == "file" and not _same_content(journal / copy, host):
                if _kind(host) is None:
                    touched.add(os.path.dirname(host))
                shutil.copy2(journal / copy, host)
                self.restored += 1
                self.restored_bytes += os.path.getsize(host)
        return sorted(touched)

    @staticmethod
    def check(journal: Path) -> None:
        """WatchError unless `journal` is whole: its index is there and every copy it names (one
        whose recording failed is whole: its `undo` says what failed)."""
        Journal(journal).entries(complete=False)

    @staticmethod
    def drop(journal: Path) -> None:
        """Delete `journal` (renamed away first, so that a half-deleted one is never read as one)
        and any that an earlier drop left half-deleted."""
        with audit_events.unheard():
            if os.path.isdir(journal):
                os.rename(journal, journal.with_name(_DROPPED + journal.name))
            try:
                with os.scandir(journal.parent) as entries:
                    dropped = [entry.path for entry in entries if entry.name.startswith(_DROPPED)]
            except FileNotFoundError:  # no journal was ever started
                dropped = []
            for path in dropped:
                shutil.rmtree(path, ignore_errors=True)

    def diff(self, watch_id: str) -> list[str]:
        """`- LINE` / `+ LINE` for every watched path whose state differs from its pre-image."""
        watch = self.watches.get(watch_id)
        if watch is None:
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


def _kind(host: str) -> str | None:
    """What is at `host` now, as an Image's kind (links not followed)."""
    try:
        mode = os.lstat(host).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


def _same_content(copy: Path, host: str) -> bool:
    """Whether regular file `host` holds exactly the bytes of `copy`."""
    try:
        if not stat.S_ISREG(os.lstat(host).st_mode) or os.path.getsize(host) != os.path.getsize(copy):
            return False
        with open(copy, "rb") as old, open(host, "rb") as new:
            while True:
                chunk = old.read(1 << 20)
                if chunk != new.read(1 << 20):
                    return False
                if not chunk:
                    return True
    except (FileNotFoundError, NotADirectoryError):
        return False


def _line(shown: str, image: Image) -> str | None:
    if image.kind == "dir":
        return f"dir {shown}"
    if image.kind == "file":
        return f"file {shown} {image.md5 or _UNKNOWN}"
    return None


# --- the hook ------------------------------------------------------------------------------------
_RECORDERS: dict[str, Recorder] = {}  # real fs root -> its recorder
_LOCK = threading.RLock()
_HOOKED = False


def recorder(state: SimState) -> Recorder:
    """The recorder of `state`'s device (one per filesystem in this process); installs the hook."""
    global _HOOKED
    real = state.real_fs_root
    with _LOCK:
        for root in [r for r in _RECORDERS if not os.path.isdir(r)]:  # devices since deleted
            del _RECORDERS[root]
        if not _HOOKED:
            audit_events.on_write(_written)
            audit_events.on_events(frozenset({"sqlite3.connect", ATTACH_EVENT}), _connected)
            _HOOKED = True
        return _RECORDERS.setdefault(real, Recorder(real))


def forget(state: SimState) -> None:
    """Drop the recorder of `state`'s device (it is going: its removal keeps no pre-image)."""
    with _LOCK:
        _RECORDERS.pop(state.real_fs_root, None)


def _host(args: tuple, path: str, follow: bool = False) -> str:
    """The real host path of an event's path; the last link followed if `follow`."""
    return real_path(args, os.path.abspath(path), follow)


def _written(event: str, args: tuple, paths: list[str] | None) -> None:
    """A write: keep the pre-image of what it changes, its content ("content") or a folder moved
    or removed whole ("tree"). Events that change metadata only (os.chmod, os.utime, os.chown)
    keep none: the listing never compared metadata."""
    if event in METADATA_EVENTS:
        return
    how = "tree" if event in ("os.rename", "shutil.rmtree") else "content"
    follow = event in ("open", "os.truncate")
    _note(event, lambda: None if paths is None else [(_host(args, path, follow), how) for path in paths])


def _connected(event: str, args: tuple) -> None:
    """A database SQLite opens (a connection or an ATTACH), whose pages it may write without an
    event: keep its files' stat ("stat")."""
    def targets() -> list[tuple[str, str]]:
        name = args[0]
        files = sqlite_files(os.fsdecode(name)) if isinstance(name, (str, bytes, os.PathLike)) else None
        return [(_host(args, f, follow=True), "stat") for f in files or []]

    _note(event, targets)


def _note(event: str, targets: Callable[[], list[tuple[str, str]] | None]) -> None:
    """Keep the pre-images of `targets()`, (host path, how) pairs (None: they could not be read),
    in every active recorder."""
    if not _RECORDERS:  # (what hashing and copying open is no event of the program's: audit_events)
        return
    with _LOCK:
        active = [r for r in _RECORDERS.values() if r.watches]
        if not active:
            return
        try:
            found = targets()
            if found is None:
                raise ValueError("its paths could not be read")
        except Exception as error:  # noqa: BLE001 - never break the write; fail the watches instead
            for rec in active:
                for watch in rec.watches.values():
                    watch.fail(f"could not read the {event} event: {error}")
            return
        for host, how in found:
            for rec in active:
                canonical = rec.canonical(host) if host else None
                if canonical is not None:
                    rec.note(canonical, how)
