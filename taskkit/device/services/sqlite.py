"""SQLite databases on the device, through the device's `sqlite3` command-line shell.

Every read is one `sqlite3 -header -quote DB SQL` round trip whose output `parse_quote_output`
turns back into exact Python values: quote mode prints NULL, integers, REALs with 20 significant
digits (`%!.20g`, enough to read back the same double), text in `'...'` with `''` doubling, and
blobs as `X'hex'`. Writes are one round trip too, or two for scripts over 64 KiB (pushed to a
file and fed to the shell on stdin, so no argument is ever longer than that).

Limits of the CLI, and therefore of this service:

- A TEXT value is printed up to its first NUL character (the shell prints C strings).
- `query` expects one statement that returns rows: the header row of a second statement would
  read as data.
- Scripts over 64 KiB run in the shell's line mode: a line that starts with `.` or `#` between
  statements is a dot command or a comment there (inside a statement every line is SQL).
"""
from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from taskkit.device.quoting import SqlValue, shell_join, shell_quote, sql_identifier, sql_literal

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

LONG_SCRIPT = 64 * 1024  # bytes: longer scripts travel as a file, not as an argument
SCRIPT_DIR = "/data/local/tmp"
TABLES_SQL = ("SELECT name FROM sqlite_master WHERE type = 'table' "
              "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
# Words of statements that change a connection (its settings, attached or temporary schema, its
# transaction) or read what an earlier statement on it did: see `joinable`.
_CONNECTION_WORDS = ("PRAGMA", "TEMP", "TEMPORARY", "ATTACH", "DETACH", "BEGIN", "COMMIT", "END", "ROLLBACK",
                     "SAVEPOINT", "RELEASE", "LAST_INSERT_ROWID", "CHANGES", "TOTAL_CHANGES")
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BARE = re.compile(r"[^,\n]*")
_INTEGER = re.compile(r"-?[0-9]+")

Row = tuple[SqlValue, ...]


# --- commands ---------------------------------------------------------------------------------
def _db_arg(db: str) -> str:
    """The database argument: a name starting with `-` would read as an option."""
    return "./" + db if db.startswith("-") else db


def _sql_arg(sql: str) -> str:
    """The SQL argument: leading `-` (an option) or `.` (a dot command) get a space first."""
    return " " + sql if sql[:1] in ("-", ".") else sql


def build_query(db: str, sql: str) -> str:
    """`sqlite3 -header -quote DB SQL`: rows in quote mode under a quoted header row."""
    return shell_join(["sqlite3", "-header", "-quote", _db_arg(db), _sql_arg(sql)])


def build_execute(db: str, script: str) -> str:
    """`sqlite3 DB SCRIPT`: runs the statements in order and stops at the first error."""
    return shell_join(["sqlite3", _db_arg(db), _sql_arg(script)])


def joinable(script: str) -> bool:
    """Whether `script` may share one `sqlite3` with the script run after it: it is complete
    statements that leave the connection as a fresh one (no pragma, attached or temporary
    schema, open transaction, or read of what an earlier statement changed). Its text holds
    none of those statements' words, quoted or not (so a value that spells one counts too), but
    one transaction around all of it (`build_insert_script`). The shell stops at the first
    error either way, and prints nothing else for a script run for its effect."""
    if not sqlite3.complete_statement(script):
        return False
    text = script.upper()
    words = []
    for word in _CONNECTION_WORDS:  # (str.find: a regex of these words takes ~50 times as long)
        at = text.find(word)
        while at >= 0:
            end = at + len(word)
            if text[at - 1:at] not in _WORD_CHARS and text[end:end + 1] not in _WORD_CHARS:
                words.append(word)
            at = text.find(word, end)
    if not words:
        return True
    body = text.strip()
    return sorted(words) == ["BEGIN", "COMMIT"] and body.startswith("BEGIN;") and body.endswith("COMMIT;")


def script_path(script: str) -> str:
    """Where a long script is pushed: named by its SHA-1, so equal scripts share a name."""
    return f"{SCRIPT_DIR}/taskkit-{hashlib.sha1(script.encode('utf-8')).hexdigest()}.sql"


def script_file(script: str) -> bytes:
    """The bytes to push for `script`: the shell's line reader drops a `\\r` before `\\n`, so
    every CR-LF is written CR-CR-LF and reads back as CR-LF."""
    return script.replace("\r\n", "\r\r\n").encode("utf-8")


def build_execute_file(db: str, path: str) -> str:
    """Run a pushed script (stopping at an error), remove it, and exit non-zero if it failed."""
    remove = shell_join(["rm", "-f", path])
    return (shell_join(["sqlite3", "-bail", _db_arg(db)]) + " < " + shell_quote(path)
            + f" && {remove} || {{ {remove}; false; }}")


DATABASE_FILES = ("", "-wal", "-shm")


def build_existing(paths: Sequence[str]) -> str:
    """Print, one a line, those of `paths` that exist (one round trip)."""
    return "; ".join(f"[ -e {shell_quote(p)} ] && echo {shell_quote(p)}" for p in paths) + "; true"


MAX_ROWS_PER_INSERT = 100  # rows one INSERT statement carries (one VALUES list)
MAX_INSERT_CHARS = 64 * 1024  # and at most about this much SQL (SQLite's default limit is 1,000,000 bytes)


def build_insert_statements(table: str, rows: Sequence[Mapping[str, SqlValue]]) -> list[str]:
    """The INSERT statements adding `rows` in order (each a column -> value mapping; {} inserts
    the defaults): consecutive rows naming the same columns share one statement, a multi-row
    VALUES list (SQLite 3.7.11 and later), as SQLite prepares a statement once for all its rows."""
    target = sql_identifier(table)
    statements: list[str] = []
    names: tuple[str, ...] | None = None  # the columns of the statement being built
    values: list[str] = []
    size = 0

    def flush() -> None:
        if values:
            columns = ", ".join(sql_identifier(name) for name in names or ())
            statements.append(f"INSERT INTO {target} ({columns}) VALUES {', '.join(values)};")
            values.clear()

    for row in rows:
        if not row:
            flush()
            statements.append(f"INSERT INTO {target} DEFAULT VALUES;")
            continue
        row_names = tuple(row)
        tuple_text = "(" + ", ".join(sql_literal(value) for value in row.values()) + ")"
        if row_names != names or len(values) >= MAX_ROWS_PER_INSERT or size + len(tuple_text) > MAX_INSERT_CHARS:
            flush()
            names, size = row_names, 0
        values.append(tuple_text)
        size += len(tuple_text) + 2
    flush()
    return statements


def build_insert_script(table: str, rows: Sequence[Mapping[str, SqlValue]]) -> str:
    """One transaction inserting `rows` into `table`."""
    return "\n".join(["BEGIN;", *build_insert_statements(table, rows), "COMMIT;"]) + "\n"


# --- output -----------------------------------------------------------------------------------
def _bare_value(token: str) -> SqlValue:
    """NULL, an integer, or a REAL (`%!.20g`, `Inf`/`-Inf`, or `1e999` in newer shells)."""
    if token == "NULL":
        return None
    if _INTEGER.fullmatch(token):
        return int(token)
    try:
        return float(token)
    except ValueError:
        raise ValueError(f"not a value of sqlite3 quote mode: {token!r}") from None


def _quoted(text: str, start: int) -> tuple[str, int]:
    """The text of the `'...'` literal at `start` and the index just after it."""
    parts: list[str] = []
    pos = start + 1
    while True:
        end = text.find("'", pos)
        if end < 0:
            raise ValueError(f"unterminated string in sqlite3 output at offset {start}")
        parts.append(text[pos:end])
        if not text.startswith("'", end + 1):
            return "".join(parts), end + 1
        parts.append("'")
        pos = end + 2


def _parse_rows(text: str) -> list[Row]:
    rows: list[Row] = []
    row: list[SqlValue] = []
    pos = 0
    while pos < len(text):
        value: SqlValue
        if text.startswith("'", pos):
            value, pos = _quoted(text, pos)
        elif text.startswith("X'", pos):
            end = text.find("'", pos + 2)
            if end < 0:
                raise ValueError(f"unterminated blob in sqlite3 output at offset {pos}")
            value, pos = bytes.fromhex(text[pos + 2:end]), end + 1
        else:
            bare = _BARE.match(text, pos)
            assert bare is not None
            value, pos = _bare_value(bare.group()), bare.end()
        row.append(value)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        if pos < len(text) and text[pos] != "\n":
            raise ValueError(f"unexpected {text[pos]!r} in sqlite3 output at offset {pos}")
        rows.append(tuple(row))
        row = []
        pos += 1
    return rows


def parse_quote_output(text: str) -> tuple[list[str], list[Row]]:
    """`sqlite3 -header -quote` output as (column names, rows of exact values).

    Values are separated by `,` and rows by a newline, but both may also sit inside a quoted
    string, so the text is scanned value by value. Nothing printed (no rows) gives `([], [])`.
    """
    rows = _parse_rows(text)
    if not rows:
        return [], []
    header, *data = rows
    if not all(isinstance(name, str) for name in header):
        raise ValueError(f"the first line of sqlite3 -header output is not a header: {header!r}")
    return [str(name) for name in header], data


# --- the service ------------------------------------------------------------------------------
class Sqlite:
    """Query and change the SQLite databases of a device."""

    def __init__(self, device: "Device"):
        self.device = device
        # the last `execute`: its command, database, script, and whether each script in it is joinable
        self._held: tuple[str, str, str, bool | None] | None = None

    def query(self, db: str, sql: str) -> list[dict[str, SqlValue]]:
        """The rows of one statement, as column -> value dicts (one round trip)."""
        header, rows = parse_quote_output(self.device.check(build_query(db, sql)))
        for row in rows:
            if len(row) != len(header):
                raise ValueError(f"sqlite3 printed a row of {len(row)} values under {len(header)} "
                                 "columns: query() takes one statement")
        return [dict(zip(header, row)) for row in rows]

    def execute(self, db: str, script: str) -> None:
        """Run `script` for its effect (batched with the next command: see `Device.run`).

        A failing statement raises `CommandFailed` with sqlite's error when the batch is sent.
        Held back right after another script for the same database, both run in one `sqlite3`
        (one connection instead of two) when each is `joinable`: the same statements in the same
        order, stopping at the same error; the `CommandFailed` then names both.
        """
        if len(script.encode("utf-8")) <= LONG_SCRIPT:
            held = self._held
            if held is not None and held[1] == db:
                joined = f"{held[2]}\n{script}"
                if (len(joined.encode("utf-8")) <= LONG_SCRIPT
                        and (held[3] if held[3] is not None else joinable(held[2])) and joinable(script)
                        and self.device.replace_held(held[0], command := build_execute(db, joined))):
                    self._held = (command, db, joined, True)
                    return
            command = build_execute(db, script)
            self.device.run(command)
            self._held = (command, db, script, None)
            return
        path = script_path(script)
        self.device.push(script_file(script), path)
        self.device.run(build_execute_file(db, path))

    def insert_rows(self, db: str, table: str, rows: Sequence[Mapping[str, SqlValue]]) -> None:
        """Insert `rows` into `table` in one transaction (nothing to do for no rows)."""
        if rows:
            self.execute(db, build_insert_script(table, rows))

    def tables(self, db: str) -> list[str]:
        """The names of the database's tables (not views, not sqlite_* tables), sorted."""
        return [str(row["name"]) for row in self.query(db, TABLES_SQL)]

    def columns(self, db: str, table: str) -> list[str]:
        """The column names of `table` in order ([] when there is no such table)."""
        rows = self.query(db, f"PRAGMA table_info({sql_identifier(table)})")
        return [str(row["name"]) for row in rows]

    def pull(self, db: str, into: str | Path) -> Path:
        """Copy `db` with its `-wal` and `-shm` files into the host directory `into`.

        SQLite replays the write-ahead log when the copy is opened, so rows the app wrote since
        its last checkpoint are there too (pulling the main file alone loses them). Stop the app
        first for a copy that no writer is changing. One round trip to list, one per file.
        """
        files = [db + suffix for suffix in DATABASE_FILES]
        listing = self.device.check(build_existing(files))
        present = set(listing.splitlines())
        if db not in present:
            raise FileNotFoundError(f"no database at {db}")
        target = Path(into)
        target.mkdir(parents=True, exist_ok=True)
        for path in files:
            if path in present:
                (target / path.rsplit("/", 1)[-1]).write_bytes(self.device.pull(path))
        return target / db.rsplit("/", 1)[-1]
