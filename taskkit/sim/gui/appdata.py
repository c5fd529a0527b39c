"""The apps' own stored data as their screens read and write it: SQLite databases and files.

Screens reach an app's database through the device's sandboxed SQLite connection (the one the
simulated `sqlite3` uses, confined to the device's state directory) and its files through the
state's confined host paths, so a screen changes exactly the rows and files the checks read.
A database that is missing or unreadable (after `pm clear`, before the app's first run) reads
as empty, as an app shows an empty list; a write to it fails loudly.
"""
from __future__ import annotations

import contextlib
import os
import posixpath
import re
import sqlite3
import unicodedata
from pathlib import Path
from typing import Any, Iterator, Sequence

from taskkit.sim import providers, sqlite_sandbox, storage
from taskkit.sim.gui import cache
from taskkit.sim.gui.session import Session

def now_ms(ui: Session) -> int:
    """The device clock in milliseconds, as the apps stamp their rows."""
    return int(ui.state.clock_epoch) * 1000


def _database(ui: Session, db_path: str) -> Path:
    """The host file of the app database at `db_path` (OperationalError when there is none)."""
    host = ui.state.host_path(db_path)
    if not host.is_file():
        raise sqlite3.OperationalError(f"no database at {db_path}")
    return host


@contextlib.contextmanager
def _connection(ui: Session, db_path: str) -> Iterator[sqlite3.Connection]:
    conn = sqlite_sandbox.connect(ui.state, _database(ui, db_path))
    try:
        yield conn
    finally:
        conn.close()


def rows(ui: Session, db_path: str, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The rows of a query on the app database at `db_path` (none if it cannot be read), through
    the device's kept query-only connection to it (sqlite_sandbox.reader; a fresh one per query
    when the GUI cache is off)."""
    try:
        if not cache.enabled:
            with _connection(ui, db_path) as conn:
                return _fetched(conn.execute(sql, tuple(params)))
        with sqlite_sandbox.reading(ui.state, _database(ui, db_path)) as conn:
            return _fetched(conn.execute(sql, tuple(params)))
    except sqlite3.Error:  # (no database there: OperationalError)
        return []


def query(ui: Session, uri: str, projection: list[str] | None = None, where: str | None = None,
          sort: str | None = None) -> providers.Cursor:
    """A content provider's rows (providers.query) through the device's kept query-only
    connection to its database, as `rows` reads (a fresh one when the GUI cache is off)."""
    return providers.query(ui.state, uri, projection, where, sort, kept=cache.enabled)


def _fetched(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [d[0] for d in cursor.description or ()]
    try:
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    finally:
        cursor.close()


def write(ui: Session, db_path: str, sql: str, params: Sequence[Any] = ()) -> int:
    """Run one statement on the app database and commit it; the new row's rowid for an INSERT.

    The database file and its folder get the device clock as their change time.
    """
    with _connection(ui, db_path) as conn:
        cursor = conn.execute(sql, tuple(params))
        conn.commit()
        rowid = int(cursor.lastrowid or 0)
    host_path = host(ui, db_path)
    ui.state.stamp(host_path, host_path.parent)
    return rowid


def insert(ui: Session, db_path: str, table: str, row: dict[str, Any]) -> int:
    """INSERT `row` into `table` (column names come from the app model, never from input)."""
    columns = ", ".join(f'"{name}"' for name in row)
    marks = ", ".join("?" for _ in row)
    return write(ui, db_path, f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(row.values()))


def update(ui: Session, db_path: str, table: str, key: str, key_value: Any, values: dict[str, Any]) -> None:
    """UPDATE the row of `table` whose `key` is `key_value`."""
    sets = ", ".join(f'"{name}" = ?' for name in values)
    write(ui, db_path, f'UPDATE "{table}" SET {sets} WHERE "{key}" = ?', [*values.values(), key_value])


def delete(ui: Session, db_path: str, table: str, key: str, key_value: Any) -> None:
    """DELETE the row of `table` whose `key` is `key_value`."""
    write(ui, db_path, f'DELETE FROM "{table}" WHERE "{key}" = ?', [key_value])


def search_tokens(value: str) -> list[str]:
    """The words an app's full-text search (SQLite FTS, unicode61) indexes and matches: runs of
    letters, digits and '#', case and accents folded."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", value) if not unicodedata.combining(c))
    return re.findall(r"(?:[^\W_]|#)+", plain.casefold())


# --- files ------------------------------------------------------------------------------------
def host(ui: Session, device_path: str) -> Path:
    """The confined host path of a device path (never outside the device's state directory)."""
    return ui.state.host_path(device_path)


def listing(ui: Session, folder: str) -> list[tuple[str, bool, int]]:
    """(name, is a folder, size in bytes) of each entry of device folder `folder`, by name
    (folders first); an absent folder lists nothing."""
    try:
        with os.scandir(host(ui, folder)) as listed:  # (an entry knows its type: no stat for is_dir)
            entries = list(listed)
    except OSError:
        return []
    found = [(e.name, e.is_dir(), 0 if e.is_dir() else e.stat().st_size) for e in entries]
    return sorted(found, key=lambda item: (not item[1], item[0].casefold()))


def read_text(ui: Session, device_path: str) -> str:
    try:
        return host(ui, device_path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


# Every file change below stamps what it changed (the file, the folders whose entries changed)
# with the device clock, never the host's: "last modified" labels and "newest" checks read them.
def write_text(ui: Session, device_path: str, text: str) -> None:
    write_bytes(ui, device_path, text.encode("utf-8"))


def write_bytes(ui: Session, device_path: str, data: bytes) -> None:
    path = host(ui, device_path)
    made = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()
    storage.write_file(ui.state, path, data)
    ui.state.stamp(path, *made, *(() if existed or made else (path.parent,)))
    if made:
        ui.state.stamp(made[-1].parent)


def rename(ui: Session, device_path: str, new_device_path: str) -> None:
    """Move a file to another device path (both confined to the device's state directory)."""
    source, target = host(ui, device_path), host(ui, new_device_path)
    source.rename(target)
    ui.state.stamp(source.parent, target.parent)


def make_folder(ui: Session, device_path: str) -> None:
    """Create a folder (and its missing parents) at a device path."""
    path = host(ui, device_path)
    made = [folder for folder in (path, *path.parents) if not folder.exists()]
    if made:
        path.mkdir(parents=True)
        ui.state.stamp(*made, made[-1].parent)


def remove(ui: Session, device_path: str) -> None:
    """Delete a file, or a folder with everything in it, at a device path."""
    path = host(ui, device_path)
    if path.is_dir():
        for name, _, _ in listing(ui, device_path):
            remove(ui, posixpath.join(device_path, name))
        path.rmdir()
    else:
        path.unlink(missing_ok=True)
    ui.state.stamp(path.parent)
