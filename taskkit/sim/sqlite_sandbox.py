"""SQLite confined to a simulated device's filesystem.

Every connection the simulator opens on behalf of a device command comes from `connect()`:

* an authorizer lets ATTACH through (VACUUM INTO and plain VACUUM attach internally, so they
  pass here too) only when every host file SQLite would open for that name, read exactly as
  SQLite reads it (`sqlite_files`), resolves inside the device's filesystem; a file name that
  is an expression is judged by its value where SQLite gives one, and denied where it does not
  (a prepared `ATTACH (expr)`), with SQLite's own `not authorized` error;
* temporary tables, indices, sorts and `''` databases live in memory (`temp_store = MEMORY`), and
  the pragmas that would move them to a host directory or back to files are denied;
* extension loading stays off;
* SQL functions, virtual-table modules and pragmas pass by an allowlist (`policy`): what Android's
  SQLite build offers apps and its `sqlite3` (AOSP external/sqlite dist/Android.bp: FTS3/FTS4,
  dbstat, the core, date and JSON functions). Anything else the host library has — the
  memory-unsafe `fts3_tokenizer()` (it hands out and takes raw code pointers), FTS5, R-Tree,
  `sqlite_dbpage`, `sqlite_stmt`, `writable_schema`, process-wide heap and mmap pragmas — is
  denied with SQLite's own `not authorized` error. Names the library does not have fall through
  to SQLite's own `no such function` / `no such module` (pragmas it does not know do nothing);
* SQLITE_LIMIT_ATTACHED bounds the files one connection holds open, SQLITE_LIMIT_LENGTH the size
  of one string or blob (`zeroblob`, `randomblob`, `printf` widths), and one process-wide SQLite
  heap limit keeps a runaway query from exhausting the host's memory;
* a progress handler stops a statement at the command's deadline, and the functions whose one
  call could outlast it (`printf` widths, LIKE over long values ...) are bounded before they run
  (`sqlite_functions`);
* the device's storage quota (`storage`): the main database may grow only by the free space
  (`max_page_count`, which device SQL may read but not set: past it SQLite answers `database or
  disk is full`, as on a full phone), and what every database file of the connection grew by
  is charged to the device when the connection closes.

URI file names are always on, as in the sqlite3 shell (which sets SQLITE_CONFIG_URI).

`reader()` gives the GUI's reads a query-only connection of the same kind, kept open across
commands (opening one costs more than most queries it runs) while nothing can have changed the
file behind its page cache: SQLite's own writes through other connections move the file change
counter, which a connection checks before each read; every Python-level write to the file, its
journal, its WAL or a folder above (a restore writing older bytes back, whose counter may then
equal the one the kept connection cached, `pm clear`, a push) drops it, seen by an audit hook
(PEP 578, the events of taskkit.sim.audit_events); and a changed stat (inode, size, mtime,
ctime: a writer in another process) drops it too.
"""
from __future__ import annotations

import collections
import contextlib
import os
import sqlite3
import sys
import threading
import weakref
from typing import Any, Callable, Iterator

from taskkit.sim import audit_events, limits, realpaths, sqlite_functions, sqlite_policy, storage
from taskkit.sim.state import READS, SimState, is_inside

# At most this many attached databases per connection: SQLite's default SQLITE_MAX_ATTACHED, set
# explicitly so that no host library built with a larger one lets a device hold more files open.
MAX_ATTACHED = 10
# The audit event raised for a database file an ATTACH (or VACUUM INTO) is about to open.
ATTACH_EVENT = "taskkit.sqlite.attach"
_HEX = "0123456789abcdefABCDEF"


def _uri_parts(uri: str) -> tuple[str, list[tuple[str, str]]] | None:
    """sqlite3ParseUri() on a `file:` URI: its decoded path and query parameters, in order.

    None when SQLite refuses the URI (an authority other than empty or `localhost`).
    """
    i, n = 5, len(uri)
    if uri[5:7] == "//":
        end = uri.find("/", 7)
        end = n if end < 0 else end
        if uri[7:end] not in ("", "localhost"):
            return None
        i = end
    out: list[str] = []  # path NUL name NUL value NUL ..., as SQLite lays out zFile
    state = 0  # 0 path, 1 parameter name, 2 parameter value
    while i < n and uri[i] != "#":
        c = uri[i]
        i += 1
        if c == "%" and i + 1 < n and uri[i] in _HEX and uri[i + 1] in _HEX:
            octet = int(uri[i:i + 2], 16)
            i += 2
            if octet == 0:  # %00 drops the rest of the current path, name or value
                stops = ("?", "=&", "&")[state]
                while i < n and uri[i] != "#" and uri[i] not in stops:
                    i += 1
                continue
            c = chr(octet)
        elif state == 1 and c in "&=":
            if out[-1] == "\0":  # an empty name: the parameter is ignored
                while i < n and uri[i] != "#" and uri[i - 1] != "&":
                    i += 1
                continue
            if c == "&":
                out.append("\0")  # a name without `=`: an empty value
            else:
                state = 2
            c = "\0"
        elif (state == 0 and c == "?") or (state == 2 and c == "&"):
            c, state = "\0", 1
        out.append(c)
    if state == 1:
        out.append("\0")
    path, *fields = "".join(out).split("\0")
    params = []
    for k in range(0, len(fields) - 1, 2):
        if not fields[k]:
            break
        params.append((fields[k], fields[k + 1]))
    return path, params


def sqlite_files(name: str) -> list[str] | None:
    """The host files SQLite opens (or stats) for database name `name`, as SQLite reads it.

    Relative paths are relative to the process's working directory; `[]` means no file at
    all (`:memory:`, `''` or `mode=memory`, temporary storage being in memory); None means
    SQLite would not open it.
    """
    if name.startswith("file:"):
        parts = _uri_parts(name)
        if parts is None:
            return None
        path, params = parts
        modes = [value for key, value in params if key == "mode"]
        if modes and modes[-1] == "memory":  # the last mode= wins
            return []
        extra = [value for key, value in params if key == "modeof"]
    else:
        path, extra = name, []
    files = [] if path in ("", ":memory:") else [path]
    return [os.path.join(os.getcwd(), f) for f in files + extra]  # `..` is left to realpath


def allowed_database(name: str, root: str | os.PathLike[str]) -> bool:
    """May a connection confined to `root` open database name `name`?"""
    files = sqlite_files(name)
    return files is not None and all(is_inside(f, root) for f in files)


def _is_memory_temp_store(value: str) -> bool:
    """getTempStore(): '2…' or 'memory' select memory; anything else files or the default."""
    return value[:1] == "2" or value.lower() == "memory"


def authorizer(root: str | os.PathLike[str],
               case_sensitive_like: Callable[[object], None] | None = None,
               attached: Callable[[str], None] | None = None) -> Callable[..., int]:
    """An sqlite3 authorizer that keeps every file a connection opens inside `root`.

    `PRAGMA case_sensitive_like = X` goes to `case_sensitive_like(X)` instead of the library
    (which would register its own, unbounded LIKE again: `sqlite_functions`); the name of each
    database an ATTACH (or VACUUM INTO) opens goes to `attached`.
    """

    def authorize(action: int, arg1: Any, arg2: Any, _db: Any, _trigger: Any) -> int:
        if action == sqlite3.SQLITE_ATTACH:
            if arg1 is None or not allowed_database(arg1, root):
                return sqlite3.SQLITE_DENY
            sys.audit(ATTACH_EVENT, arg1)  # SQLite opens it with no event of its own (taskkit.sim.changes)
            if attached is not None:
                attached(arg1)
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA:
            pragma = str(arg1).lower()
            if pragma == "case_sensitive_like" and case_sensitive_like is not None:
                if arg2 is not None:
                    case_sensitive_like(arg2)
                return sqlite3.SQLITE_IGNORE
            if pragma == "temp_store" and arg2 is not None:
                return sqlite3.SQLITE_OK if _is_memory_temp_store(str(arg2)) else sqlite3.SQLITE_DENY
            return sqlite3.SQLITE_OK if sqlite_policy.pragma_allowed(pragma, arg2) else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION:
            return sqlite3.SQLITE_OK if sqlite_policy.function_allowed(str(arg2)) else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_CREATE_VTABLE:
            return sqlite3.SQLITE_OK if sqlite_policy.module_allowed(str(arg2)) else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_READ and arg1 is not None:  # an eponymous virtual table
            return sqlite3.SQLITE_OK if sqlite_policy.module_allowed(str(arg1)) else sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    return authorize


PROGRESS_STEPS = 10_000  # SQLite VM instructions between deadline checks
#: Free bytes below which opening a database first walks the device's tree for the exact total
#: (the running total only overestimates: this keeps a cap from being set too low).
EXACT_ROOM_BELOW = 64 << 20


class _Growth:
    """The database files one connection opened and their sizes then, to charge what they grew
    by to the device's storage."""

    def __init__(self, device: storage.Storage):
        self.device = device
        self.sizes: dict[str, int] = {}

    def watch(self, name: str) -> None:
        """Follow the files of database name `name` (and their journals)."""
        for path in sqlite_files(name) or []:
            for file in (path, path + "-journal", path + "-wal"):
                self.sizes.setdefault(file, _size(file))

    def settle(self) -> None:
        """Charge what the files grew by (once)."""
        sizes, self.sizes = self.sizes, {}
        delta = sum(_size(file) - before for file, before in sizes.items())
        if delta:
            self.device.account(delta)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


class DeviceConnection(sqlite3.Connection):
    """A connection to a device's databases: at close, what its files grew by is charged to the
    device's storage (`storage`)."""

    growth: _Growth | None = None

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.growth is not None:
                self.growth.settle()

    def __del__(self) -> None:  # a connection dropped without close(): its files are final now
        if self.growth is not None:
            self.growth.settle()


def connect(state: SimState, name: str | os.PathLike[str], **options: Any) -> DeviceConnection:
    """sqlite3.connect(name, uri=True, **options), confined to the device's filesystem and its
    storage quota.

    A name whose files lie outside it raises sqlite3.DatabaseError("not authorized").
    """
    return _open(state, os.fspath(name), False, options)


def _open(state: SimState, text: str, query_only: bool, options: dict[str, Any]) -> DeviceConnection:
    """A confined connection to `text`: charged to the storage quota, or `query_only` (it cannot
    write, so it neither grows nor is charged)."""
    if not allowed_database(text, state.fs_root):
        raise sqlite3.DatabaseError("not authorized")
    conn = sqlite3.connect(text, uri=True, factory=DeviceConnection, **options)
    try:
        if hasattr(conn, "enable_load_extension"):
            conn.enable_load_extension(False)
        conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, MAX_ATTACHED)
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, sqlite_policy.MAX_LENGTH)
        conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, sqlite_policy.MAX_LENGTH)
        conn.execute("PRAGMA temp_store = MEMORY")
        # No fsync per commit: a simulated device's state must survive its process being killed
        # (it does: SQLite's journal is still written) but not the host losing power
        conn.execute("PRAGMA synchronous = OFF")
        sqlite_policy.cap_process_heap(conn)
        watch: Callable[[str], None] | None = None
        if query_only:
            conn.execute("PRAGMA query_only = ON")
        else:
            device = storage.of(state)
            conn.growth = _Growth(device)
            conn.growth.watch(text)
            watch = conn.growth.watch
            if sqlite_files(text):  # a file, not an in-memory database
                (page_size,) = conn.execute("PRAGMA page_size").fetchone()
                (pages,) = conn.execute("PRAGMA page_count").fetchone()
                room = pages + device.room(EXACT_ROOM_BELOW) // page_size
                conn.execute(f"PRAGMA max_page_count = {max(1, room)}")  # 0 would leave it unlimited
        functions = sqlite_functions.install(conn)
        conn.set_authorizer(authorizer(state.fs_root, functions.set_case_sensitive_like, watch))
        conn.set_progress_handler(limits.expired, PROGRESS_STEPS)  # a runaway query stops at the deadline
    except BaseException:
        conn.close()
        raise
    return conn


# --- kept query-only connections -----------------------------------------------------------------
MAX_KEPT = 16  # kept connections per thread (the least recently used one goes first)


class _Kept:
    """A kept connection of one thread: `stale` once a write may have changed its file."""

    __slots__ = ("conn", "real", "roots", "mark", "stale", "__weakref__")

    def __init__(self, conn: DeviceConnection, real: str, roots: tuple[str, str], mark: tuple[int, ...]):
        self.conn = conn
        self.real = real  # the database file's real path
        self.roots = roots  # its device's filesystem root, as named and real (where writes may touch it)
        self.mark = mark
        self.stale = False


_KEPT: weakref.WeakSet[_Kept] = weakref.WeakSet()  # every thread's live kept connections, for the hook
_ROOTS: tuple[str, ...] = ()  # the filesystem roots (each with a final "/") of kept connections: writes elsewhere pass
MAX_ROOTS = 32  # roots listed before the list is made again from the kept connections alone
# What the hook compares a written real path with first (kept connections that went may stay listed
# until the next one is kept: a write there is only looked at closer): their files, their files'
# names followed by "-" (the journal, WAL and shared-memory files) and the folders above them.
_FILES: frozenset[str] = frozenset()
_SIDES: tuple[str, ...] = ()
_FOLDERS: frozenset[str] = frozenset()
_KEPT_LOCK = threading.Lock()
_LOCAL = threading.local()  # .pool: this thread's kept connections, path -> _Kept (least recently used first)
_HOOKED = False


def reader(state: SimState, host: str | os.PathLike[str]) -> DeviceConnection:
    """A query-only confined connection to the database file `host`, kept for the next call in this
    thread while nothing may have changed the file behind its page cache (see the module doc).

    Use it for reads only and never close it; `discard(host)` drops it (after an error).
    """
    global _HOOKED, _ROOTS
    text = os.fspath(host)
    if READS.paths is not None:  # what a fresh connection's sqlite3.connect event tells the GUI cache
        READS.paths.add(text)
    pool = _pool()
    mark = _stat(text)
    kept = pool.get(text)
    if kept is not None:
        if not kept.stale and kept.mark == mark:
            pool.move_to_end(text)
            return kept.conn
        _drop(pool, text)
    conn = _open(state, text, True, {})
    kept = _Kept(conn, realpaths.real_path(text), (os.fspath(state.fs_root), state.real_fs_root), mark)
    with _KEPT_LOCK:
        if not _HOOKED:
            audit_events.on_write(_forget)
            _HOOKED = True
        _KEPT.add(kept)
        _list_kept()
        new = {root + "/" for root in kept.roots}.difference(_ROOTS)
        if new:  # (roots whose connections all went stay listed until MAX_ROOTS: a write there is only looked at closer)
            listed = _ROOTS if len(_ROOTS) < MAX_ROOTS else {root + "/" for k in _KEPT for root in k.roots}
            _ROOTS = tuple(new.union(listed))
    pool[text] = kept
    while len(pool) > MAX_KEPT:
        _drop(pool, next(iter(pool)))
    return conn


def discard(host: str | os.PathLike[str]) -> None:
    """Close this thread's kept connection to `host`, if any."""
    _drop(_pool(), os.fspath(host))


@contextlib.contextmanager
def reading(state: SimState, host: str | os.PathLike[str]) -> Iterator[DeviceConnection]:
    """`reader(state, host)` for one read, dropped if the read fails (what its connection holds is
    then unknown)."""
    conn = reader(state, host)
    try:
        yield conn
    except BaseException:
        discard(host)
        raise


def _pool() -> collections.OrderedDict[str, _Kept]:
    pool = getattr(_LOCAL, "pool", None)
    if pool is None:
        pool = _LOCAL.pool = collections.OrderedDict()
    for path in [path for path, kept in pool.items() if kept.stale]:  # closed by their own thread
        _drop(pool, path)
    return pool


def _drop(pool: collections.OrderedDict[str, _Kept], path: str) -> None:
    kept = pool.pop(path, None)
    if kept is not None:
        with _KEPT_LOCK:
            _KEPT.discard(kept)
        kept.conn.close()


def _list_kept() -> None:
    """List the kept connections' files for the hook (with _KEPT_LOCK held)."""
    global _FILES, _SIDES, _FOLDERS
    files = {k.real for k in _KEPT}
    _FILES, _SIDES = frozenset(files), tuple(f + "-" for f in files)
    _FOLDERS = frozenset(folder + "/" for f in files for folder in _folders(f))


def _folders(path: str) -> list[str]:
    """The folders above `path` (absolute), the nearest first."""
    found = []
    while (parent := os.path.dirname(path)) != path:
        found.append(parent)
        path = parent
    return found


def _stat(path: str) -> tuple[int, ...]:
    """What a writer in another process changes (the hook sees this process's writes)."""
    try:
        return audit_events.identity(os.stat(path))
    except OSError:
        return ()


def _forget(event: str, args: tuple, paths: list[str] | None) -> None:
    """A write: every kept connection whose file, journal, WAL or folder it may change is stale
    (its thread closes it); every one when the paths are not known. (A change of metadata alone
    changes no page; a connection whose file's stat changed is not used again anyway.)"""
    if not _ROOTS or event in audit_events.METADATA_EVENTS:
        return
    if paths is None:
        _all_stale()
        return
    try:
        for path in paths:
            text = os.path.abspath(path) + "/"
            if not text.startswith(_ROOTS) and not (event in audit_events.FOLDER_GOES and any(r.startswith(text) for r in _ROOTS)):
                continue  # neither in nor above a filesystem with kept connections
            real = audit_events.real_path(args, text[:-1], event in ("open", "os.truncate"))
            if real in _FILES or real.startswith(_SIDES) or (event in audit_events.FOLDER_GOES and real + "/" in _FOLDERS):
                with _KEPT_LOCK:  # the file, its -journal/-wal/-shm, or a folder above it
                    for k in [k for k in _KEPT if audit_events.under(k.real, real) or real.startswith(k.real + "-")]:
                        k.stale = True
                        _KEPT.discard(k)
    except Exception:  # noqa: BLE001 - never break the write; drop every kept connection instead
        _all_stale()


def _all_stale() -> None:
    with _KEPT_LOCK:
        for k in _KEPT:
            k.stale = True
        _KEPT.clear()
