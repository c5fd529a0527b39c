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
"""
from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any, Callable

from taskkit.sim import limits, sqlite_functions, sqlite_policy, storage
from taskkit.sim.state import SimState, is_inside

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
    text = os.fspath(name)
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
        device = storage.of(state)
        conn.growth = _Growth(device)
        conn.growth.watch(text)
        if sqlite_files(text):  # a file, not an in-memory database
            (page_size,) = conn.execute("PRAGMA page_size").fetchone()
            (pages,) = conn.execute("PRAGMA page_count").fetchone()
            room = pages + device.room(EXACT_ROOM_BELOW) // page_size
            conn.execute(f"PRAGMA max_page_count = {max(1, room)}")  # 0 would leave it unlimited
        functions = sqlite_functions.install(conn)
        conn.set_authorizer(authorizer(state.fs_root, functions.set_case_sensitive_like, conn.growth.watch))
        conn.set_progress_handler(limits.expired, PROGRESS_STEPS)  # a runaway query stops at the deadline
    except BaseException:
        conn.close()
        raise
    return conn
