"""`sqlite3 [OPTIONS] FILENAME [SQL...]`: the SQLite command-line shell.

The option set is that of the 3.32.2 shell on eng/userdebug Android 13 builds (reference §6.13):
`-json`, `-markdown`, `-table`, `-box` and their `.mode`s do not exist there, so they are refused
as unknown, and `-version` answers 3.32.2. Output and messages are those of the 3.40 shell
(Debian's /usr/bin/sqlite3, which tests/sim/test_sqlite3_cli.py compares byte for byte):
`Error: in prepare, ...` / `Error: stepping, ... (19)` for SQL given as arguments, `Parse error
near line N: ...` for SQL read from stdin, and the `^--- error here` context lines.

Every value is formatted by SQLite itself: REAL through `CAST(? AS TEXT)` (list, csv, line) and
`printf('%!.20g', ?)` (quote) on a helper in-memory connection, so the text matches the library
byte for byte. TEXT and BLOB are printed as the C shell prints them: raw bytes up to the first NUL
(quote mode prints a BLOB as `X'hex'`).

Implemented: modes list, csv, quote, line, tabs, ascii; `-header`/`-noheader`, `-separator`,
`-nullvalue`, `-newline`, `-cmd`, `-bail`, `-batch`, `-readonly`, `-version`, `-help`; the dot
commands `.mode`, `.headers`, `.separator`, `.nullvalue`, `.tables`, `.schema`, `.quit`, `.exit`.
Any other dot command answers as an unknown one (`.dump`, `.import`, `.read` ... are not
simulated); `-column` and `-html` are refused as unknown options.

Known differences: SQL runs on the host's SQLite, so features newer than 3.32.2 (RETURNING,
json_*(), ...) work here; the row just before a mid-query runtime error is not printed (Python's
cursor drops it); EXPLAIN output is not laid out as the shell lays it out; `.schema PATTERN` does
not list eponymous virtual tables (json_each, ...) and has no `--indent`; error context lines are
shown for syntax errors, unrecognized tokens, unknown or ambiguous columns, unknown or misused
functions and existing names, where the 3.40 shell shows them for a few more.

Confinement (docs/security.md): database names, literal `ATTACH` names and `VACUUM INTO` targets
are device paths (plain or `file:` URIs), rewritten to the files backing them; the connection
comes from `sqlite_sandbox.connect`, whose authorizer denies any other file outside the device's
filesystem (`ATTACH (expr)`: `not authorized`) and keeps temporary storage in memory, so
`PRAGMA temp_store` answers 2 and `sqlite3 ''` is an in-memory database. SQL arguments that only
SELECT from an existing database run over the sandbox's kept query-only connection to it
(`sqlite_sandbox.reader`, the same confinement), and again on a connection of their own after
any error (`_Shell.read_kept`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import os
import re
import sqlite3
import threading
import urllib.parse
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

from taskkit.sim import limits, sqlite_sandbox
from taskkit.sim.realpaths import real_path
from taskkit.sim.commands import Invocation, command

VERSION = "3.32.2 2020-06-04 12:58:43 ec02243ea6ce33b090870ae55ab8aa2534b54d216d45c4aa2fdbb00e86861e8c"

_SPACES = " \t\n\v\f\r"  # C isspace()
_MAX_SETTING = 19  # colSeparator, rowSeparator and nullValue are char[20]
_SEPARATORS = {"list": (b"|", b"\n"), "csv": (b",", b"\r\n"), "quote": (b",", b"\n"),
               "tabs": (b"\t", b"\n"), "ascii": (b"\x1f", b"\x1e")}
# `.mode NAME`: NAME may be any prefix of one of these, tried in this order (as the 3.40 shell
# does); the sim implements line, list, csv, tabs, quote and ascii.
_MODE_NAMES = ("lines", "columns", "list", "html", "tcl", "csv", "tabs", "insert", "quote", "ascii")
_MODE_ERROR = "Error: mode should be one of: ascii column csv html insert line list quote tabs tcl"
# Dot commands: full name and the shortest prefix that selects it in the real shell.
_DOT_COMMANDS = {"headers": 1, "mode": 1, "nullvalue": 1, "quit": 1, "exit": 2, "separator": 2,
                 "tables": 2, "schema": 3}
_USAGE_HEAD = (
    "Usage: {argv0} [OPTIONS] FILENAME [SQL]\n"
    "FILENAME is the name of an SQLite database. A new database is created\n"
    "if the file does not previously exist.\n"
    "OPTIONS include:\n"
)
_USAGE_OPTIONS = (
    "   -ascii               set output mode to 'ascii'\n"
    "   -bail                stop after hitting an error\n"
    "   -batch               force batch I/O\n"
    "   -cmd COMMAND         run \"COMMAND\" before reading stdin\n"
    "   -csv                 set output mode to 'csv'\n"
    "   -[no]header          turn headers on or off\n"
    "   -help                show this message\n"
    "   -line                set output mode to 'line'\n"
    "   -list                set output mode to 'list'\n"
    "   -newline SEP         set output row separator. Default: '\\n'\n"
    "   -nullvalue TEXT      set text string for NULL values. Default ''\n"
    "   -quote               set output mode to 'quote'\n"
    "   -readonly            open the database read-only\n"
    "   -separator SEP       set output column separator. Default: '|'\n"
    "   -version             show SQLite version\n"
)
_SIZE_SUFFIXES = {"kib": 1024, "mib": 1024**2, "gib": 1024**3, "kb": 1000, "mb": 1000**2,
                  "gb": 1000**3, "k": 1000, "m": 1000**2, "g": 1000**3}
_VALUE_OPTIONS = ("-separator", "-nullvalue", "-newline", "-cmd")
# The SQL keywords (sqlite3_keyword_check): such column names are quoted in `.schema` comments.
_KEYWORDS = frozenset("""
ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN
BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT
CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC
DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER
FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN
INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE
LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS
OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP
REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET
TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM
VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT
""".split())
# SQL tokens, as far as statement splitting and error positions need them.
_TOKEN = re.compile(
    r"""(?P<space>[ \t\n\f\r]+|--[^\n]*|/\*.*?(?:\*/|\Z))
      |(?P<string>'[^']*(?:''[^']*)*'?)
      |(?P<qid>"[^"]*(?:""[^"]*)*"?|`[^`]*(?:``[^`]*)*`?|\[[^\]]*\]?)
      |(?P<id>[A-Za-z_\x80-\U0010ffff][A-Za-z0-9_$\x80-\U0010ffff]*)
      |(?P<other>.)""",
    re.S | re.X,
)
# quickscan(): what ends a stretch of plain text (a comment, `;`, a quote) and what is dark text
_QUICK_STOP = re.compile(r"--|/\*|[;\[`'\"]")
_DARK = re.compile(r"[^ \t\n\v\f\r]")
# A line of plain text, `;` and closed quotes (a doubled quote inside goes on, and the lookahead
# with its back reference makes each quoted stretch atomic: it ends where quickscan ends it)
_CLOSED_LINE = re.compile(
    r"""(?:[^-/;\[`'"]+|-(?!-)|/(?!\*)|;|\[[^\]]*\]"""
    r"""|'(?=(?P<single>[^']*(?:''[^']*)*))(?P=single)'"""
    r'''|"(?=(?P<double>[^"]*(?:""[^"]*)*))(?P=double)"'''
    r"""|`(?=(?P<back>[^`]*(?:``[^`]*)*))(?P=back)`)*""")
_CSV_PLAIN = frozenset(range(0x21, 0x7F)) - {ord('"'), ord("'")}
# QuickScanState of the shell's line reader.
_QSS_DARK, _QSS_SEMI, _QSS_CHAR = 0x100, 0x200, 0xFF
_FUNCTION_ERRORS = re.compile(
    r"(no such function: |wrong number of arguments to function |misuse of aggregate: "
    r"|misuse of aggregate function |misuse of window function )([^()]+)(?:\(\))?"
)


class _Exit(Exception):
    """Leave the shell now with `code` (what the C shell does with exit())."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


class _Text(bytes):
    """A TEXT value as raw UTF-8 bytes (the connection's text_factory), told apart from a BLOB."""


@dataclasses.dataclass
class _StatementError:
    rc: int
    message: str  # "in prepare, ..." or "stepping, ...", context lines included


class _DevicePaths:
    """Host file names put back as the device paths they stand for: SQLite names a database by
    the full host path it opened (PRAGMA database_list, some errors), where a phone names the
    device path. Known files map to the path the device named them by; anything else under
    the device's filesystem loses the host prefix."""

    def __init__(self, fs_root: Path, real_root: str):
        roots = {str(fs_root), real_root}
        self._known: dict[str, str] = {}
        self._roots = sorted(roots, key=len, reverse=True)
        self._encoded = tuple(os.fsencode(root) for root in self._roots)

    def add(self, host: Path, device: str) -> None:
        """Print host file `host` (and its real path) as `device`."""
        for name in {str(host), real_path(host)}:
            self._known.setdefault(name, device)

    def text(self, text: str) -> str:
        """`text` with every host path in it replaced by a device path."""
        if not any(root in text for root in self._roots):
            return text
        for host in sorted(self._known, key=len, reverse=True):
            text = text.replace(host, self._known[host])
        for root in self._roots:
            text = text.replace(root + "/", "/").replace(root, "/")
        return text

    def row(self, row: tuple) -> tuple:
        """A row's values (TEXT as `_Text`, BLOB as bytes) with host paths replaced.

        Its TEXT and BLOB values are searched joined by NULs: a root (a path, without NUL)
        found there lies within one value."""
        joined = b"\0".join([value for value in row if isinstance(value, bytes)])
        if not any(root in joined for root in self._encoded):
            return row
        return tuple(self._value(value) for value in row)

    def _value(self, value: object) -> object:
        if not isinstance(value, bytes) or not any(root in value for root in self._encoded):
            return value
        fixed = self.text(value.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        return type(value)(fixed)


# --- helpers that mirror the C shell ----------------------------------------------------------
def _setting(value: bytes) -> bytes:
    """A separator or null text as the shell stores it: at most 19 bytes, up to a NUL."""
    return value.split(b"\0", 1)[0][:_MAX_SETTING]


def _c_text(value: bytes) -> bytes:
    """What `%s` prints of a value: its bytes up to the first NUL."""
    return value.split(b"\0", 1)[0]


def _resolve_backslashes(text: bytes) -> bytes:
    r"""C escapes in a dot-command argument: \t \n \\ \NNN ...; a NUL ends the text."""
    escapes = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12,
               ord("r"): 13}
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == 0x5C and i + 1 < len(text):
            i += 1
            c = text[i]
            if c in escapes:
                c = escapes[c]
            elif 0x30 <= c <= 0x37:
                c -= 0x30
                for _ in range(2):
                    if i + 1 < len(text) and 0x30 <= text[i + 1] <= 0x37:
                        i += 1
                        c = ((c << 3) + text[i] - 0x30) & 0xFF
        if c == 0:
            break
        out.append(c)
        i += 1
    return bytes(out)


def _split_meta(line: bytes) -> list[bytes]:
    """The arguments of a dot command (after the dot), as do_meta_command splits them."""
    args: list[bytes] = []
    h, n = 1, len(line)
    while h < n:
        while h < n and chr(line[h]) in _SPACES:
            h += 1
        if h >= n:
            break
        if line[h] in b"'\"":
            delim = line[h]
            h += 1
            start = h
            while h < n and line[h] != delim:
                if line[h] == 0x5C and delim == 0x22 and h + 1 < n:
                    h += 1
                h += 1
            arg = line[start:h]
            if h < n:
                h += 1
            args.append(_resolve_backslashes(arg) if delim == 0x22 else arg)
        else:
            start = h
            while h < n and chr(line[h]) not in _SPACES:
                h += 1
            args.append(_resolve_backslashes(line[start:h]))
            h += 1
    return args


def _integer_value(text: bytes) -> int:
    """The shell's integerValue(): decimal or 0x-hex digits with an optional sign, else 0."""
    s = text.decode("latin-1")
    sign = -1 if s.startswith("-") else 1
    s = s[1:] if s[:1] in "+-" else s
    number = re.match(r"0x([0-9a-fA-F]*)|[0-9]*", s)
    assert number is not None
    if number.group(1) is not None:
        value = int(number.group(1) or "0", 16)
    else:
        value = int(number.group(0) or "0")
    value *= _SIZE_SUFFIXES.get(s[number.end():].lower(), 1)
    value = (sign * value) & 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >> 63 else value


def _boolean_value(arg: bytes, err: list[bytes]) -> bool:
    """The shell's booleanValue(): numbers, on/yes, off/no; anything else warns and is false."""
    if re.fullmatch(rb"0x[0-9a-fA-F]*|[0-9]+", arg):
        return (_integer_value(arg) & 0xFFFFFFFF) != 0
    if arg.lower() in (b"on", b"yes"):
        return True
    if arg.lower() not in (b"off", b"no"):
        err.append(b'ERROR: Not a boolean value: "' + arg + b'". Assuming "no".\n')
    return False


def _quote_char(name: str) -> str:
    """The shell's quoteChar(): '"' unless `name` is a plain identifier and not a keyword."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.upper() not in _KEYWORDS:
        return ""
    return '"'


def _quoted_name(name: str) -> str:
    quote = _quote_char(name)
    return quote + name.replace(quote, quote * 2) + quote if quote else name


def _error_context(rest: bytes, offset: int) -> bytes:
    """shell_error_context(): the SQL around byte `offset` of `rest` and a caret line."""
    start = 0
    while offset > 50:
        offset -= 1
        start += 1
        while start < len(rest) and rest[start] & 0xC0 == 0x80:
            start += 1
            offset -= 1
    code = rest[start:]
    if len(code) > 78:
        end = 78
        while end > 0 and code[end] & 0xC0 == 0x80:
            end -= 1
        code = code[:end]
    code = bytes(0x20 if chr(b) in _SPACES else b for b in code)
    if offset < 25:
        return b"\n  " + code + b"\n  " + b" " * offset + b"^--- error here"
    return b"\n  " + code + b"\n  " + b" " * (offset - 14) + b"error here ---^"


def _tokens(sql: str, pos: int = 0) -> Iterator[re.Match[str]]:
    return _TOKEN.finditer(sql, pos)


def _statement_end(sql: str, pos: int) -> int:
    """Where the statement starting at `pos` ends: just after its `;`, or the end of `sql`.

    The first `;` that completes the statement (sqlite3_complete) ends it, found without
    tokenizing: a prefix that ends inside a string, a quoted name or a comment is never complete
    (sqlite3_complete returns 0 there, or, at the end of a `--` comment, what it would have
    returned at the `;` token before it, which came first), so only a `;` token can be the one.
    """
    end = sql.find(";", pos)
    while end >= 0:
        if sqlite3.complete_statement(sql[pos:end + 1]):
            return end + 1
        end = sql.find(";", end + 1)
    return len(sql)


def _identifier(token: re.Match[str]) -> str | None:
    """The name an id or quoted-id token stands for."""
    text = token.group()
    if token.lastgroup == "id":
        return text
    if token.lastgroup == "qid" and len(text) >= 2:
        close = "]" if text[0] == "[" else text[0]
        inner = text[1:-1] if text.endswith(close) else text[1:]
        return inner if close == "]" else inner.replace(close * 2, close)
    return None


def _quickscan(line: str, qss: int) -> int:
    """The shell's quickscan(): track quotes, comments, dark text and a trailing `;`.

    Outside quotes and comments, a stretch of plain text, `;` and quotes that close on the line
    is read by one regex (a whole line, in most scripts; up to the quote going on to the next
    line, in a note's body); from there it steps from one character that matters (`--`, `/*`,
    `;`, a quote) to the next, not one character at a time: the text between them is only
    checked for anything but white space (dark text, which clears a pending `;`)."""
    wait = chr(qss & _QSS_CHAR) if qss & _QSS_CHAR else ""
    i, n = 0, len(line)
    while True:
        if not wait:
            end = _CLOSED_LINE.match(line, i).end()
            if end > i:  # dark if anything but white space and `;`; a `;` pending if it is the last
                tail = line[i:end].rstrip(_SPACES)
                if tail:
                    if tail.strip(_SPACES + ";"):
                        qss |= _QSS_DARK
                    qss = qss | _QSS_SEMI if tail[-1] == ";" else qss & ~_QSS_SEMI
                i = end
            while True:
                found = _QUICK_STOP.search(line, i)
                stop = n if found is None else found.start()
                if _DARK.search(line, i, stop):
                    qss = (qss & ~_QSS_SEMI) | _QSS_DARK
                if found is None:
                    return qss
                mark, i = found.group(), found.end()
                if mark == "--":
                    return qss
                if mark == ";":
                    qss |= _QSS_SEMI
                    continue
                if mark == "/*":
                    wait = "*"
                    qss = ord("*") | (qss & (_QSS_DARK | _QSS_SEMI))
                else:
                    wait = "]" if mark == "[" else mark
                    qss = _QSS_DARK | ord(wait)
                break
        while True:  # to the end of the comment or quoted text (a doubled quote goes on)
            found_at = line.find(wait, i)
            if found_at < 0:
                return qss
            i = found_at + 1
            if wait == "*":
                if i < n and line[i] == "/":
                    i += 1
                    break
                continue
            if wait != "]" and i < n and line[i] == wait:
                i += 1
                continue
            break
        wait = ""
        qss &= _QSS_DARK | _QSS_SEMI


def _is_command_terminator(line: str) -> bool:
    """A line holding only `/` or `go` (any case) ends the SQL before it."""
    line = line.lstrip(_SPACES)
    if line.startswith("/"):
        rest = line[1:]
    elif line[:2].lower() == "go":
        rest = line[2:]
    else:
        return False
    return _quickscan(rest, 0) == 0


def _stdin_lines(data: bytes) -> Iterator[str]:
    """local_getline(): lines without their `\\n` (and a `\\r` just before it)."""
    lines = data.split(b"\n")
    last = lines.pop()
    for line in lines:
        yield (line[:-1] if line.endswith(b"\r") else line).decode("utf-8", "replace")
    if last:
        yield last.decode("utf-8", "replace")


def _localized_collation(a: str, b: str) -> int:
    """Stand-in for Android's ICU collators LOCALIZED and UNICODE: case-insensitive first."""
    ka, kb = (a.casefold(), a), (b.casefold(), b)
    return (ka > kb) - (ka < kb)


_COLLATIONS = ("LOCALIZED", "UNICODE")


def _only_reads(sql: str) -> bool:
    """Is every statement of the SQL argument `sql` a SELECT that names no pragma? Such a
    statement changes neither a database nor the connection (a `pragma_*` function would read
    the connection's own settings). SQLite's keywords and pragma names are ASCII and caseless:
    upper case finds them in any spelling."""
    sql = sql.encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # (as exec_sql reads it)
    if sql.startswith(".") or "PRAGMA" in sql.upper():
        return False
    pos = 0
    while pos < len(sql):
        end = _statement_end(sql, pos)
        first = next((t for t in _tokens(sql, pos) if t.lastgroup != "space"), None)
        if first is not None and first.start() < end and first.group().upper() != "SELECT":
            return False
        pos = end
    return True


def _in_rollback_mode(host: Path) -> bool:
    """Is `host` a database file in rollback-journal mode (its header's read and write versions
    1)? Not one in WAL mode (2): closing its last connection checkpoints it and removes the
    WAL, which a kept connection, left open, would not do."""
    try:
        handle = os.open(host, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # (a FIFO does not wait)
    except OSError:
        return False
    try:
        header = os.read(handle, 20)
    except OSError:  # a folder ...
        return False
    finally:
        os.close(handle)
    return header[18:20] == b"\1\1"


@contextlib.contextmanager
def _as_shells(conn: sqlite3.Connection) -> Iterator[None]:
    """Kept connection `conn` set up as the shell sets up its own, for the block: TEXT as _Text,
    the ICU collations, no busy wait (`timeout=0`); all put back after."""
    (timeout,) = conn.execute("PRAGMA busy_timeout").fetchone()
    factory = conn.text_factory
    conn.execute("PRAGMA busy_timeout = 0")
    conn.text_factory = _Text
    for name in _COLLATIONS:
        conn.create_collation(name, _localized_collation)
    try:
        yield
    finally:
        for name in _COLLATIONS:
            conn.create_collation(name, None)
        conn.text_factory = factory
        conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")


# --- the shell -------------------------------------------------------------------------------
class _Shell:
    """The state of one sqlite3 run: output settings, the database and the output streams."""

    def __init__(self, inv: Invocation, db_name: str | None, readonly: bool):
        self.inv = inv
        self.db_name = db_name if db_name is not None else ":memory:"
        self.readonly = readonly
        self.mode = "list"
        self.header = False
        self.col_sep, self.row_sep = _SEPARATORS["list"]
        self.null = b""
        self.bail = False
        self._conn: sqlite3.Connection | None = None
        self._device_names: dict[str, str] = {}  # host file name -> the device name it stands for
        self._device_paths = _DevicePaths(inv.state.fs_root, inv.state.real_fs_root)
        try:
            self._host = self._host_file(self.db_name)
        except OSError as exc:  # the device path does not resolve: open_db() reports it
            self._host, self._unusable = None, exc
        else:
            self._unusable = None
        self._before = {p: _stat(p) for p in self._watched()}

    # --- the database --------------------------------------------------------------------
    def _host_file(self, name: str) -> Path | None:
        """The host file behind database name `name` (a device path, plain or as a `file:`
        URI, relative to the shell's cwd); None for in-memory and temporary databases."""
        if name in ("", ":memory:"):
            return None
        if name.startswith("file:"):
            name = urllib.parse.unquote(urllib.parse.urlsplit(name).path) or ":memory:"
            if name == ":memory:":
                return None
        host = self.inv.host_path(name)
        self._device_paths.add(host, self.inv.normalize(name))
        return host

    def _on_host(self, name: str, readonly: bool = False) -> str:
        """Database name `name` as the device reads it, turned into the name SQLite must open
        on the host: device paths become the files backing them, URI parameters are kept."""
        uri = urllib.parse.urlsplit(name) if name.startswith("file:") else None
        if uri is not None and uri.netloc not in ("", "localhost"):
            return name  # SQLite refuses the authority itself
        host = self._host if name == self.db_name else self._host_file(name)  # (the main one: known)
        query = uri.query if uri is not None else ""
        if readonly:
            query = "&".join(filter(None, [query, "mode=ro"]))
        if host is None:
            return "file::memory:?mode=ro" if readonly else name
        if not query and uri is None:
            return str(host)
        return "file:" + urllib.parse.quote(str(host)) + ("?" + query if query else "")

    def _watched(self) -> list[str]:  # the main database's files
        return [] if self._host is None else _files_of(self._host)

    def _watch(self, host: Path) -> None:
        """Stamp `host` (an attached database or a VACUUM INTO target) at close if it changes."""
        for path in _files_of(host):
            self._before.setdefault(path, _stat(path))

    @property
    def conn(self) -> sqlite3.Connection:
        """open_db(): the connection, opened on first use; failing to open ends the shell."""
        if self._conn is None:
            try:
                self._conn = self._connect()
            except sqlite3.Error as exc:
                self.inv.err(f'Error: unable to open database "{self.db_name}": {exc}\n')
                raise _Exit(1) from None
            self._conn.text_factory = _Text
            for name in _COLLATIONS:
                self._conn.create_collation(name, _localized_collation)
        return self._conn

    def read_kept(self, commands: list[str]) -> bool:
        """Run SQL arguments that only read (`_only_reads`) on the device's kept query-only
        connection to an existing database (sqlite_sandbox.reader) instead of opening one.

        True when every statement ran without an error. Otherwise nothing was written (the
        connection refuses writes), what they printed is taken back and the connection dropped,
        and the caller runs the commands as before, on a connection of the shell's own."""
        host = self._host
        if host is None or self.readonly or self._conn is not None \
                or not all(_only_reads(sql) for sql in commands) or not _in_rollback_mode(host):
            return False
        stdout = self.inv.stdout
        mark = len(stdout)
        try:
            conn = sqlite_sandbox.reader(self.inv.state, host)
            with _as_shells(conn):
                self._conn = conn
                failed = not all(self.exec_sql(sql) is None for sql in commands)
        except sqlite3.Error:
            failed = True
        finally:
            self._conn = None  # (never closed here: it is kept)
        if failed:
            sqlite_sandbox.discard(host)
            del stdout[mark:]
        return not failed

    def _connect(self) -> sqlite3.Connection:
        if self._unusable is not None:
            raise sqlite3.OperationalError("unable to open database file")
        name = ":memory:" if self._host is None and not self.readonly else \
            self._on_host(self.db_name, self.readonly)
        return sqlite_sandbox.connect(self.inv.state, name, isolation_level=None, timeout=0,
                                      check_same_thread=False)

    def close(self) -> None:
        """Close the database and stamp every file it changed with the device clock."""
        if self._conn is not None:
            self._conn.close()
        self.inv.state.stamp(*(path for path, before in self._before.items()
                               if (after := _stat(path)) is not None and after != before))

    # --- values ---------------------------------------------------------------------------
    def _text(self, value: object) -> bytes | None:
        """sqlite3_column_text() as the C shell sees it (None for NULL)."""
        if value is None:
            return None
        if isinstance(value, bytes):
            return _c_text(value)
        if isinstance(value, float):
            return _real_text("text", value)
        return str(value).encode("ascii")

    # --- output ---------------------------------------------------------------------------
    def _row_text(self, names: list[bytes], row: tuple, count: int) -> bytes:
        """shell_callback() for one row; `count` is the row's index within its statement."""
        row = self._device_paths.row(row)
        mode, col_sep, row_sep = self.mode, self.col_sep, self.row_sep
        if mode == "quote":
            line = col_sep.join([_QUOTED[value.__class__](value) for value in row]) + row_sep
            if count == 0 and self.header:
                return col_sep.join([_sql_quote(name) for name in names]) + row_sep + line
            return line
        text = self._text
        if mode == "line":
            width = max([5] + [len(name) for name in names])
            out = bytearray(row_sep if count else b"")
            for name, value in zip(names, row):
                shown = text(value)
                out += name.rjust(width) + b" = " + (self.null if shown is None else shown) + row_sep
            return bytes(out)
        if mode == "csv":
            csv = self._csv
            line = col_sep.join([csv(text(value)) for value in row]) + row_sep
            if count == 0 and self.header:
                return col_sep.join([csv(name) for name in names]) + row_sep + line
            return line
        # list, tabs, ascii
        null = self.null
        line = col_sep.join([null if shown is None else shown for shown in map(text, row)]) + row_sep
        if count == 0 and self.header:
            return col_sep.join(names) + row_sep + line
        return line

    def _emit_rows(self, cursor: sqlite3.Cursor) -> None:
        """Print a statement's rows, written out in one piece unless the output would pass the
        size limit (then row by row, as `Invocation.out` checks it: it fails at the same row)."""
        names = [column[0].encode("utf-8") for column in cursor.description]
        out = bytearray()
        stdout = self.inv.stdout
        try:
            for count, row in enumerate(cursor):
                out += self._row_text(names, row, count)
                if len(stdout) + len(out) > limits.MAX_SIZE:
                    pending, out = out, bytearray()
                    self.inv.out(bytes(pending))
        finally:
            if out:
                self.inv.out(bytes(out))

    def _csv(self, text: bytes | None) -> bytes:
        """output_csv(): quote text that is empty, holds a separator or a special byte."""
        if text is None:
            return self.null
        if text and self.col_sep not in text and all(b in _CSV_PLAIN for b in text):
            return text
        return b'"' + text.replace(b'"', b'""') + b'"'

    # --- SQL --------------------------------------------------------------------------------
    def exec_sql(self, sql: str) -> _StatementError | None:
        """shell_exec(): run every statement of `sql`, printing rows; stop at the first error."""
        sql = sql.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        pos = 0
        while pos < len(sql):
            end = _statement_end(sql, pos)
            error = self._run_statement(sql, pos, end)
            if error is not None:
                return error
            pos = end
            while pos < len(sql) and sql[pos] in _SPACES:
                pos += 1
        return None

    def _attach_on_device(self, stmt: str) -> str:
        """`ATTACH 'device/path' AS x`, `VACUUM INTO 'device/path'` (plain or `file:` URI): point
        the file name at the host file backing that path. Whatever is left (expressions, names
        that do not resolve) is judged by the connection's authorizer."""
        upper = stmt.upper()  # (per character, so a word's upper case is found in it)
        if "ATTACH" not in upper and "VACUUM" not in upper:
            return stmt
        # the keywords and the file name are among the first four words: tokenize no further
        words = list(itertools.islice((t for t in _tokens(stmt) if t.lastgroup != "space"), 4))
        keywords = [w.group().upper() for w in words[:3]]
        if keywords[:1] == ["ATTACH"]:
            index = 1 + (keywords[1:2] == ["DATABASE"])
        elif keywords[:1] == ["VACUUM"] and "INTO" in keywords:
            index = keywords.index("INTO") + 1
        else:
            return stmt
        literal = words[index] if index < len(words) else None
        if literal is None or literal.lastgroup != "string" or not literal.group().endswith("'") \
                or len(literal.group()) < 2:
            return stmt
        device_name = literal.group()[1:-1].replace("''", "'")
        try:
            name = self._on_host(device_name)
            host = self._host_file(device_name)
        except OSError:
            return stmt
        if host is not None:
            self._watch(host)
        if name != device_name:
            self._device_names[name] = device_name
        return stmt[:literal.start()] + "'" + name.replace("'", "''") + "'" + stmt[literal.end():]

    def _on_device(self, exc: sqlite3.Error) -> str:
        """An SQLite message with the host file names put back as the device names they came from."""
        text = str(exc)
        for host, device in self._device_names.items():
            text = text.replace(host, device)
        return self._device_paths.text(text)

    def _run_statement(self, sql: str, start: int, end: int) -> _StatementError | None:
        """Run the statement sql[start:end]; errors show the SQL from `start` on as context.

        The statement is prepared once, by `execute` (which prepares and takes the first step):
        only when that fails is it prepared alone, to tell a prepare error from a stepping one (a
        failed step leaves the schema as it found it, so the prepare answers as it would have).
        """
        conn = self.conn
        stmt = self._attach_on_device(sql[start:end])
        try:
            cursor = _execute(conn, stmt)
        except sqlite3.Error as exc:
            try:
                conn(stmt)  # prepare only (sqlite3.Connection.__call__)
            except sqlite3.Error as prepare_error:
                return self._prepare_error(sql, start, stmt, prepare_error)
            return self._stepping_error(exc)
        try:
            if cursor.description:
                self._emit_rows(cursor)
        except sqlite3.Error as exc:
            return self._stepping_error(exc)
        return None

    def _prepare_error(self, sql: str, start: int, stmt: str, exc: sqlite3.Error) -> _StatementError:
        """`in prepare, ...` for statement `stmt` (sql[start:] as written), with its context lines."""
        rc = _primary_code(exc)
        message = f"in prepare, {self._on_device(exc)}" + (f" ({rc})" if rc > 1 else "")
        context = b""
        offset = _error_offset(self.conn, stmt, str(exc))
        if offset is not None:
            rest = sql[start:start + offset + 80].encode("utf-8")
            context = _error_context(rest, len(stmt[:offset].encode("utf-8")))
        return _StatementError(rc, message + context.decode("utf-8", "replace"))

    def _stepping_error(self, exc: sqlite3.Error) -> _StatementError:
        rc = _primary_code(exc)
        return _StatementError(rc, f"stepping, {self._on_device(exc)}" + (f" ({rc})" if rc > 1 else ""))

    def run_argument(self, sql: str) -> int:
        """SQL given on the command line: an error ends the shell with the SQLite code."""
        error = self.exec_sql(sql)
        if error is None:
            return 0
        self.inv.err(f"Error: {error.message}\n")
        return error.rc or 1

    def run_input_sql(self, sql: str, line: int) -> int:
        """runOneSqlLine(): SQL read from stdin; errors name the line the SQL started on."""
        error = self.exec_sql(sql)
        if error is None:
            return 0
        kind, _, tail = error.message.partition(", ")
        label = {"in prepare": "Parse error", "stepping": "Runtime error"}.get(kind)
        if label is None:
            label, tail = "Error", error.message
        self.inv.err(f"{label} near line {line}: {tail}\n")
        return 1

    def process_input(self, data: bytes) -> int:
        """process_input(): read stdin line by line, running dot commands and complete SQL."""
        errors, qss, sql, start = 0, 0, "", 0
        for lineno, line in enumerate(_stdin_lines(data), 1):
            if errors and self.bail:
                break
            if not qss & _QSS_CHAR and _is_command_terminator(line) and \
                    sqlite3.complete_statement(sql + ";"):
                line = ";"
            qss = _quickscan(line, qss)
            if qss & ~_QSS_SEMI == 0 and not sql:
                qss = 0
                continue
            if line[:1] in (".", "#") and not sql:
                if line[:1] == ".":
                    rc = self.meta(line.encode("utf-8"))
                    if rc == 2:
                        return int(errors > 0)
                    errors += rc != 0
                qss = 0
                continue
            if not sql:
                sql, start = line.lstrip(_SPACES), lineno
            else:
                sql += "\n" + line
            if sql and qss & ~_QSS_DARK == _QSS_SEMI and sqlite3.complete_statement(sql):
                errors += self.run_input_sql(sql, start)
                sql, qss = "", 0
            elif sql and qss & ~_QSS_SEMI == 0:
                sql, qss = "", 0
        if sql:
            errors += self.run_input_sql(sql, start)
        return int(errors > 0)

    # --- dot commands -------------------------------------------------------------------
    def meta(self, line: bytes) -> int:
        """do_meta_command(): 0 done, 1 error, 2 quit."""
        args = _split_meta(line)
        if not args:
            return 0
        name = args[0].decode("utf-8", "replace")
        matches = [full for full, least in _DOT_COMMANDS.items()
                   if len(name) >= least and full.startswith(name)]
        if not name or not matches:
            self.inv.err(f'Error: unknown command or invalid arguments:  "{name}". '
                         'Enter ".help" for help\n')
            return 1
        try:
            return getattr(self, "_dot_" + matches[0])(args[1:])
        except sqlite3.Error as exc:
            return self._usage(f"Error: {exc}")

    def _dot_headers(self, args: list[bytes]) -> int:
        if len(args) != 1:
            return self._usage("Usage: .headers on|off")
        warning: list[bytes] = []
        self.header = _boolean_value(args[0], warning)
        for text in warning:
            self.inv.err(text)
        return 0

    def _dot_mode(self, args: list[bytes]) -> int:
        if not args:
            described = "list" if self.mode == "tabs" else self.mode
            self.inv.out(f"current output mode: {described}\n")
            return 0
        wanted = args[0].decode("utf-8", "replace")
        chosen = next((m for m in _MODE_NAMES if m.startswith(wanted)), None)
        if chosen == "lines":
            self.mode, self.row_sep = "line", b"\n"
        elif chosen in _SEPARATORS:
            self.mode = chosen
            self.col_sep, self.row_sep = _SEPARATORS[chosen]
        elif chosen is None:
            return self._usage(_MODE_ERROR)
        else:
            return self._usage(f"Error: the simulator has no {chosen.rstrip('s')} mode")
        return 0

    def _dot_separator(self, args: list[bytes]) -> int:
        rc = 0 if 1 <= len(args) <= 2 else self._usage("Usage: .separator COL ?ROW?")
        if args:
            self.col_sep = _setting(args[0])
        if len(args) >= 2:
            self.row_sep = _setting(args[1])
        return rc

    def _dot_nullvalue(self, args: list[bytes]) -> int:
        if len(args) != 1:
            return self._usage("Usage: .nullvalue STRING")
        self.null = _setting(args[0])
        return 0

    def _dot_quit(self, args: list[bytes]) -> int:
        return 2

    def _dot_exit(self, args: list[bytes]) -> int:
        code = _integer_value(args[0]) & 0xFFFFFFFF if args else 0
        if code:
            raise _Exit(code & 0xFF)
        return 2

    def _dot_tables(self, args: list[bytes]) -> int:
        pattern = args[0].decode("utf-8", "replace") if args else "%"
        where = "type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ?1"
        sql = (f"SELECT name FROM main.sqlite_master WHERE {where} UNION ALL "
               f"SELECT 'temp.'||name FROM temp.sqlite_master WHERE {where} ORDER BY 1")
        conn = self.conn
        names = [_c_text(name) for (name,) in conn.execute(sql, (pattern,))]
        if not names:
            return 0
        width = max(len(name) for name in names)
        columns = max(1, 80 // (width + 2))
        rows = (len(names) + columns - 1) // columns
        out = bytearray()
        for i in range(rows):
            for j in range(i, len(names), rows):
                out += (b"" if j < rows else b"  ") + names[j].ljust(width)
            out += b"\n"
        self.inv.out(bytes(out))
        return 0

    def _dot_schema(self, args: list[bytes]) -> int:
        pattern, no_system = None, False
        for arg in args:
            text = arg.decode("utf-8", "replace")
            if text in ("-nosys", "--nosys"):
                no_system = True
            elif text.startswith("-"):
                self.inv.err(f'Unknown option: "{text}"\n')
                return 1
            elif pattern is not None:
                return self._usage("Usage: .schema ?--indent? ?--nosys? ?LIKE-PATTERN?")
            else:
                pattern = text
        conn = self.conn
        sql = "SELECT sql, type, name FROM main.sqlite_master WHERE sql IS NOT NULL"
        params: tuple[str, ...] = ()
        if pattern is not None:
            glob = any(ch in pattern for ch in "*?[")
            sql += " AND lower(tbl_name) " + ("GLOB ?" if glob else "LIKE ? ESCAPE '\\'")
            params = (pattern,)
        if no_system:
            sql += " AND name NOT LIKE 'sqlite_%'"
        for text, kind, name in conn.execute(sql + " ORDER BY rowid", params):
            text = _c_text(text).decode("utf-8", "replace")
            name = _c_text(name).decode("utf-8", "replace")
            if re.match(r"CREATE (VIEW|VIRTUAL TABLE) ", text):
                fake = _fake_schema(conn, name)
                if fake:
                    text += f"\n/* {fake} */"
            self.inv.out(_schema_line(text).encode("utf-8"))
        return 0

    def _usage(self, text: str) -> int:
        self.inv.err(text + "\n")
        return 1


_REAL_CONNECTIONS = threading.local()  # .conn: this thread's in-memory connection for _real_text


@functools.lru_cache(maxsize=4096)
def _real_text(fmt: str, value: float) -> bytes:
    """A REAL as SQLite writes it: `text` = CAST(x AS TEXT), `quote` = printf('%!.20g').

    A function of the two alone (-0.0 and 0.0 both print `0.0`), worked out by this thread's
    in-memory connection, which runs nothing but these two statements."""
    conn = getattr(_REAL_CONNECTIONS, "conn", None)
    if conn is None:
        conn = _REAL_CONNECTIONS.conn = sqlite3.connect(":memory:")
    sql = "SELECT CAST(? AS TEXT)" if fmt == "text" else "SELECT printf('%!.20g', ?)"
    (text,) = conn.execute(sql, (value,)).fetchone()
    return text.encode("utf-8")


def _sql_quote(text: bytes) -> bytes:
    return b"'" + text.replace(b"'", b"''") + b"'"


# quote mode's text of a value, by its class (the cursor gives exactly these: TEXT as _Text)
_QUOTED: dict[type, Callable[[Any], bytes]] = {
    type(None): lambda _: b"NULL",
    int: lambda value: b"%d" % value,
    float: functools.partial(_real_text, "quote"),
    _Text: lambda value: _sql_quote(_c_text(value)),
    bytes: lambda value: b"X'" + value.hex().encode("ascii") + b"'",
}


def _files_of(database: Path) -> list[str]:
    """The files a database's change touches: itself, its folder, its WAL and shared memory."""
    name = os.fspath(database)
    return [name, os.path.dirname(name), name + "-wal", name + "-shm"]


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _primary_code(exc: sqlite3.Error) -> int:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return 19 if isinstance(exc, sqlite3.IntegrityError) else 1
    return code & 0xFF


def _execute(conn: sqlite3.Connection, stmt: str) -> sqlite3.Cursor:
    """Run `stmt` binding NULL to every parameter, as the shell does without .parameter."""
    try:
        return conn.execute(stmt)
    except sqlite3.ProgrammingError as exc:
        wanted = re.search(r"statement uses (\d+)", str(exc))
        if not wanted:
            raise
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return conn.execute(stmt, (None,) * int(wanted.group(1)))


def _error_offset(conn: sqlite3.Connection, stmt: str, message: str) -> int | None:
    """Where in `stmt` SQLite places the error (sqlite3_error_offset), when it can be found.

    A syntax error or unrecognized token is at the first token whose prefix of the statement
    fails to prepare with the same message; an unknown column or function is at its first use.
    """
    near = re.fullmatch(r'near "(.*)": syntax error|unrecognized token: "(.*)"', message, re.S)
    tokens = [t for t in _tokens(stmt) if t.lastgroup != "space"]
    if near:
        text = near.group(1) if near.group(1) is not None else near.group(2)
        for token in tokens:
            end = token.start() + len(text)
            if stmt.startswith(text, token.start()) and _fails_with(conn, stmt[:end], message):
                return token.start()
        return None
    name = re.fullmatch(r"(?:no such column|ambiguous column name): (.+)"
                        r"|(?:table|view|trigger) (.+) already exists", message, re.S)
    if name:
        parts = (name.group(1) or name.group(2)).lower().split(".")
        for i in range(len(tokens)):
            if _names_match(tokens[i:i + 2 * len(parts) - 1], parts):
                # An unknown column on the left of UPDATE's `=` has no position.
                assigned = tokens[0].group().upper() == "UPDATE" and \
                    tokens[i - 1].group().upper() in ("SET", ",") and \
                    i + 1 < len(tokens) and tokens[i + 1].group() == "="
                return None if assigned else tokens[i].start()
        return None
    function = _FUNCTION_ERRORS.fullmatch(message)
    if function:
        wanted = function.group(2).lower()
        calls = [token.start() for token, after in zip(tokens, tokens[1:])
                 if (_identifier(token) or "").lower() == wanted and after.group() == "("]
        if calls:  # a misused aggregate is the innermost or latest call, anything else the first
            return calls[-1] if function.group(1).startswith("misuse") else calls[0]
    return None


def _names_match(tokens: list[re.Match[str]], parts: list[str]) -> bool:
    """Do `tokens` spell the dotted name `parts` (a, ., b, ., c)?"""
    if len(tokens) != 2 * len(parts) - 1:
        return False
    for i, token in enumerate(tokens):
        if i % 2 and token.group() != ".":
            return False
        if not i % 2 and (_identifier(token) or "").lower() != parts[i // 2]:
            return False
    return True


def _fails_with(conn: sqlite3.Connection, sql: str, message: str) -> bool:
    try:
        conn(sql)
    except sqlite3.Error as exc:
        return str(exc) == message
    return False


def _fake_schema(conn: sqlite3.Connection, name: str) -> str | None:
    """shellFakeSchema(): `name(col,...)` from PRAGMA table_info, or None without columns."""
    columns = [_c_text(row[1]).decode("utf-8", "replace")
               for row in conn.execute("SELECT * FROM pragma_table_info(?)", (name,))]
    if not columns:
        return None
    return _quoted_name(name) + "(" + ",".join(_quoted_name(c) for c in columns) + ")"


def _schema_line(sql: str) -> str:
    """printSchemaLine(): one `.schema` entry with its `;` (kept out of a trailing comment)."""
    if "/*" in sql or "--" in sql:
        for ending in ("", "*/", "\n"):
            if sqlite3.complete_statement(sql + ending + ";"):
                sql += ending
                break
    if re.match(r"CREATE TABLE ['\"]", sql):
        sql = "CREATE TABLE IF NOT EXISTS " + sql[13:]
    return sql + ";\n"


# --- the command ------------------------------------------------------------------------------
@command("sqlite3")
def sqlite3_cmd(inv: Invocation) -> int:
    argv0 = inv.argv[0]
    argv = inv.args
    db_name: str | None = None
    commands: list[str] = []
    readonly = False
    i = 0
    while i < len(argv):  # first pass: the database, the SQL, -readonly, missing option values
        arg = argv[i]
        option = arg[1:] if arg.startswith("--") else arg
        if not arg.startswith("-"):
            if db_name is None:
                db_name = arg
            else:
                commands.append(arg)
        elif option in _VALUE_OPTIONS:
            i += 1
            if i == len(argv):
                return inv.fail(f"{argv0}: Error: missing argument to {argv[-1]}")
        readonly = readonly or option == "-readonly"
        i += 1
    shell = _Shell(inv, db_name, readonly)
    try:
        return _run(shell, argv0, argv, commands)
    except _Exit as leave:
        return leave.code
    finally:
        shell.close()


def _run(shell: _Shell, argv0: str, argv: list[str], commands: list[str]) -> int:
    inv = shell.inv
    i = 0
    while i < len(argv):  # second pass: options, in order; -cmd runs at once
        option = argv[i][1:] if argv[i].startswith("--") else argv[i]
        i += 1
        if not option.startswith("-") or option in ("-batch", "-readonly"):
            continue
        if option in ("-list", "-line", "-quote", "-csv", "-ascii"):
            shell.mode = option[1:]
            if option == "-csv" or option == "-quote":
                shell.col_sep = b","
            if option == "-quote":
                shell.row_sep = b"\n"
            if option == "-ascii":
                shell.col_sep, shell.row_sep = _SEPARATORS["ascii"]
        elif option in ("-header", "-noheader"):
            shell.header = option == "-header"
        elif option == "-bail":
            shell.bail = True
        elif option == "-version":
            inv.out(VERSION + "\n")
            return 0
        elif option == "-help":
            inv.err(_USAGE_HEAD.format(argv0=argv0) + _USAGE_OPTIONS)
            return 1
        elif option in _VALUE_OPTIONS:
            value = argv[i]
            i += 1
            if option == "-cmd":
                stop = _run_cmd_option(shell, value)
                if stop is not None:
                    return stop
            else:
                setting = _setting(value.encode("utf-8", "surrogateescape"))
                if option == "-separator":
                    shell.col_sep = setting
                elif option == "-newline":
                    shell.row_sep = setting
                else:
                    shell.null = setting
        else:
            inv.err(f"{argv0}: Error: unknown option: {option}\nUse -help for a list of options.\n")
            return 1
    if not commands:
        return shell.process_input(inv.stdin)
    if shell.read_kept(commands):
        return 0
    for sql in commands:
        if sql.startswith("."):
            rc = shell.meta(sql.encode("utf-8", "surrogateescape"))
            if rc:
                return 0 if rc == 2 else rc
        else:
            rc = shell.run_argument(sql)
            if rc:
                return rc
    return 0


def _run_cmd_option(shell: _Shell, text: str) -> int | None:
    """`-cmd COMMAND`: run a dot command or SQL first; the exit code if the shell must stop."""
    if text.startswith("."):
        rc = shell.meta(text.encode("utf-8", "surrogateescape"))
        return (0 if rc == 2 else rc) if rc and shell.bail else None
    error = shell.exec_sql(text)
    if error is None:
        return None
    shell.inv.err(f"Error: {error.message}\n")
    return (error.rc or 1) if shell.bail else None
