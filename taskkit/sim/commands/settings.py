"""`settings get|put|delete|list NS ...`: the settings provider's shell command.

The three namespaces are tables of the settings database (`SETTINGS_DB`); the helpers below
are also what other simulated commands (`svc`, `cmd uimode`, `wm density`, ...) use to read
and write settings, so every write sets the database's mtime to the device clock.

Argument handling follows SettingsService's `MyShellCommand` (Android 13): namespaces are
case-insensitive, `--user N` may appear anywhere, `put` takes an optional TAG and `default`,
and every usage error prints one line on stderr and exits 255.
"""
from __future__ import annotations

import contextlib
import sqlite3
from typing import Callable, Iterator, Mapping, TypeVar

from taskkit.sim import sqlite_sandbox
from taskkit.sim.commands import Invocation, command
from taskkit.sim.state import SETTINGS_DB, SimState

T = TypeVar("T")

NAMESPACES = ("system", "secure", "global")
SETTINGS_DDL = "\n".join(
    f"CREATE TABLE IF NOT EXISTS {ns} (name TEXT PRIMARY KEY, value TEXT);" for ns in NAMESPACES
)
_VERBS = ("get", "put", "delete", "list", "reset")
_EXIT_ERROR = 255  # the Java shell command returns -1
_USAGE = """\
Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
  delete [--user <USER_ID> | current] NAMESPACE KEY
      Delete the entry for KEY.
  list [--user <USER_ID> | current] NAMESPACE
      Print all defined keys.
NAMESPACE is one of {system, secure, global}, case-insensitive
"""


# --- the settings database ------------------------------------------------------------------
def _check_namespace(ns: str) -> str:
    if ns not in NAMESPACES:
        raise ValueError(f"settings namespace must be one of {', '.join(NAMESPACES)}, not {ns!r}")
    return ns


@contextlib.contextmanager
def _database(state: SimState, write: bool) -> Iterator[sqlite3.Connection]:
    """Open the settings DB (creating its tables if needed); commit and stamp mtime on writes."""
    path = state.host_path(SETTINGS_DB)
    created = not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite_sandbox.connect(state, path)
    try:
        if created:
            con.executescript(SETTINGS_DDL)
        with con:
            yield con
    finally:
        con.close()
    if write or created:  # the file, and its folder, whose listing a rollback journal changed
        state.stamp(path, path.parent)


def _read(state: SimState, query: Callable[[sqlite3.Connection], T]) -> T:
    """`query(connection)` over the device's kept query-only connection to the settings database
    (sqlite_sandbox.reader: dropped by any write), or over a fresh one where the database is not
    there yet (it is created) or the kept one fails."""
    path = state.host_path(SETTINGS_DB)
    if path.is_file():
        with contextlib.suppress(sqlite3.Error), sqlite_sandbox.reading(state, path) as con:
            return query(con)
    with _database(state, write=False) as con:
        return query(con)


def get_setting(state: SimState, ns: str, key: str) -> str | None:
    """The stored value of `key`, or None when it is missing (or stored as NULL)."""
    sql = f"SELECT value FROM {_check_namespace(ns)} WHERE name = ?"
    row = _read(state, lambda con: con.execute(sql, (key,)).fetchone())
    return None if row is None else row[0]


def put_settings(state: SimState, ns: str, values: Mapping[str, str | None]) -> None:
    """Insert or replace every `key: value` of `values` in one transaction."""
    with _database(state, write=True) as con:
        con.executemany(
            f"INSERT OR REPLACE INTO {_check_namespace(ns)} (name, value) VALUES (?, ?)",
            list(values.items()),
        )


def put_setting(state: SimState, ns: str, key: str, value: str | None) -> None:
    put_settings(state, ns, {key: value})


def delete_setting(state: SimState, ns: str, key: str) -> int:
    """Delete `key`; the number of rows deleted (0 or 1)."""
    with _database(state, write=True) as con:
        return con.execute(f"DELETE FROM {_check_namespace(ns)} WHERE name = ?", (key,)).rowcount


def list_settings(state: SimState, ns: str) -> dict[str, str | None]:
    """Every key of `ns` with its value, in table order."""
    return all_settings(state, (ns,))[ns]


def all_settings(state: SimState, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, dict[str, str | None]]:
    """Every key of each namespace with its value, read over one connection."""
    queries = {ns: f"SELECT name, value FROM {_check_namespace(ns)}" for ns in namespaces}
    return _read(state, lambda con: {ns: dict(con.execute(sql).fetchall()) for ns, sql in queries.items()})


def format_list(values: Mapping[str, str | None]) -> str:
    """`settings list` output: `name=value` lines sorted as Java sorts strings (UTF-16 units)."""
    lines = [f"{name}={'null' if value is None else value}" for name, value in values.items()]
    lines.sort(key=lambda line: line.encode("utf-16-be", "surrogatepass"))
    return "".join(line + "\n" for line in lines)


# --- the command ----------------------------------------------------------------------------
class _Usage(Exception):
    """A usage error: its message goes to stderr and the command exits 255."""


def _parse(args: list[str]) -> tuple[str, str, str | None, str | None]:
    """(verb, namespace, key, value) from the arguments, or raise `_Usage`."""
    verb = table = key = value = tag = None
    user_seen = valid = False
    pending = list(args)
    while pending:
        arg = pending.pop(0)
        if arg == "--user":
            if user_seen:
                break  # given twice: "Bad arguments"
            user_seen = True
            if not pending:
                raise _Usage('Argument expected after "--user"')
            user = pending.pop(0)
            if user not in ("current", "cur") and not user.lstrip("-").isdigit():
                raise _Usage(f"Bad user number: {user}")
        elif verb is None:
            if arg.lower() not in _VERBS:
                raise _Usage(f"Invalid command: {arg}")
            verb = arg.lower()
        elif table is None:
            if arg.lower() not in NAMESPACES:
                raise _Usage(f"Invalid namespace '{arg}'")
            table = arg.lower()
            if verb == "list":
                valid = True
                break
        elif verb == "reset":
            raise _Usage("settings reset is not supported by this device")
        elif verb in ("get", "delete"):
            key = arg
            if pending:
                raise _Usage("Too many arguments")
            valid = True
            break
        elif key is None:
            key = arg
        elif value is None:
            value = arg
            valid = True
        elif tag is None and arg.lower() != "default":
            tag = arg
        else:
            if arg.lower() != "default":
                raise _Usage("Argument expected to be 'default'")
            if pending:
                raise _Usage("Too many arguments")
            break
    if not valid or verb is None or table is None:
        raise _Usage("Bad arguments")
    return verb, table, key, value


@command("settings")
def settings(inv: Invocation) -> int:
    """`settings get|put|delete|list [--user U] NS [KEY [VALUE [TAG] [default]]]`."""
    if not inv.args or inv.args[0] in ("help", "-h"):
        inv.out(_USAGE)
        return _EXIT_ERROR
    try:
        verb, ns, key, value = _parse(inv.args)
    except _Usage as usage:
        return inv.fail(str(usage), _EXIT_ERROR)
    if verb == "get":
        stored = get_setting(inv.state, ns, key or "")
        inv.out(("null" if stored is None else stored) + "\n")
    elif verb == "put":
        put_setting(inv.state, ns, key or "", value)
    elif verb == "delete":
        inv.out(f"Deleted {delete_setting(inv.state, ns, key or '')} rows\n")
    else:
        inv.out(format_list(list_settings(inv.state, ns)))
    return 0
