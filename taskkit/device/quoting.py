"""The one quoting function for shell words and the one for SQL literals.

Every value that reaches a device shell goes through `shell_quote`; every value that reaches
SQL goes through `sql_literal`. Both are property-tested (tests/device/test_quoting.py) so
that no parameter can ever run a command or change a statement.
"""
from __future__ import annotations

import math
import re
from typing import Union

SqlValue = Union[None, bool, int, float, str, bytes]

_SAFE_SHELL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")
_SAFE_WORD = re.compile("[" + re.escape("".join(sorted(_SAFE_SHELL))) + "]+")  # a word of those only


def shell_quote(value: object) -> str:
    """Quote `value` as one word for mksh/toybox `sh -c` (and POSIX shells).

    Inside single quotes every byte is literal, newlines included; a single quote is written
    as `'\\''`. NUL cannot travel through an `exec` argument, so it is refused.
    """
    text = value if isinstance(value, str) else str(value)
    if "\x00" in text:
        raise ValueError("a shell argument cannot contain a NUL character")
    if _SAFE_WORD.fullmatch(text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def shell_join(words: list[object]) -> str:
    """Quote each word and join them with spaces into one command line."""
    return " ".join(shell_quote(word) for word in words)


def sql_literal(value: SqlValue) -> str:
    """Render `value` as an SQLite literal that reads back as exactly the same value."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NULL"  # SQLite stores NaN as NULL
        if math.isinf(value):
            return "1e999" if value > 0 else "-1e999"
        return repr(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "X'" + bytes(value).hex().upper() + "'"
    if isinstance(value, str):
        if "\x00" in value:
            # A NUL would end the SQL text early in the sqlite3 CLI: spell the bytes instead.
            return "CAST(X'" + value.encode("utf-8").hex().upper() + "' AS TEXT)"
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"cannot write {type(value).__name__} as an SQL literal: {value!r}")


def sql_identifier(name: str) -> str:
    """Quote a table or column name."""
    if "\x00" in name:
        raise ValueError("an SQL identifier cannot contain a NUL character")
    return '"' + name.replace('"', '""') + '"'
