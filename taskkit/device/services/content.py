"""Content providers through the `content` shell command (query, insert, update, delete).

One call = one `content ...` command. Values travel as typed `--bind COLUMN:TYPE:VALUE`
arguments chosen from the Python type: str `s`, bool `b`, int `i` (or `l` beyond 32 bits),
float `d`, None `n`. Inside a binding `\\` and `:` are escaped with a backslash, as Android 13's
Content.java splits bindings on unescaped colons.

`where` and `sort` are SQL text (quote literals with `taskkit.device.quoting.sql_literal`).

Limits of the command's output, and so of `parse_rows`:

* Each row prints as ``Row: N col=value, col=value`` with strings unquoted, so a value is exact
  unless it contains ", <its own column name>=" (columns are split from the right: the last
  occurrence of ", <name>=" wins), or a newline followed by "Row: <next row number> ".
* Without a projection the column names are inferred: a `, name=` inside a value looks like a
  column. With several rows only names present in every row, in order, are kept, which removes
  most false splits; with one row they cannot be told apart. Pass `projection` to be exact.
* NULL prints as `NULL`, so the string "NULL" reads back as None; blobs read as "BLOB";
  numbers read back as their decimal text (floats in Java's Float.toString form).
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from taskkit.device.errors import CommandFailed, ShellResult
from taskkit.device.quoting import shell_join
from taskkit.errors import TaskkitError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

Row = dict[str, "str | None"]
_INT32 = (-(2 ** 31), 2 ** 31 - 1)
_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PROVIDER_ERROR = "Error while accessing provider:"


class ContentError(TaskkitError, RuntimeError):
    """The content command or the provider refused the request."""


# --- building commands -------------------------------------------------------------------------
def escape_binding(text: str) -> str:
    """Escape `\\` and `:` for a --bind argument."""
    return text.replace("\\", "\\\\").replace(":", "\\:")


def bind_value(value: Any) -> tuple[str, str]:
    """(type letter, text) for a Python value."""
    if value is None:
        return "n", ""
    if isinstance(value, bool):
        return "b", "true" if value else "false"
    if isinstance(value, int):
        if _INT32[0] <= value <= _INT32[1]:
            return "i", str(value)
        if _INT64[0] <= value <= _INT64[1]:
            return "l", str(value)
        raise ValueError(f"integer {value} does not fit in a 64-bit column")
    if isinstance(value, float):
        if math.isnan(value):
            return "d", "NaN"
        if math.isinf(value):
            return "d", "Infinity" if value > 0 else "-Infinity"
        return "d", repr(value)
    if isinstance(value, str):
        return "s", value
    raise TypeError(f"cannot bind a {type(value).__name__} through the content command: {value!r}")


def build_binding(column: str, value: Any) -> str:
    """`COLUMN:TYPE:VALUE`, escaped."""
    if not column:
        raise ValueError("a column name must not be empty")
    kind, text = bind_value(value)
    return f"{escape_binding(column)}:{kind}:{escape_binding(text)}"


def _option(name: str, value: str | None) -> list[str]:
    """`[name, value]`, or nothing for None; Content.java refuses empty values and `--…` ones."""
    if value is None:
        return []
    if not value or value.startswith("--"):
        raise ValueError(f"the content command cannot take {value!r} as the value of {name}")
    return [name, value]


def _bindings(values: Mapping[str, Any]) -> list[str]:
    if not values:
        raise ValueError("at least one column value is required")
    words: list[str] = []
    for column, value in values.items():
        words += ["--bind", build_binding(column, value)]
    return words


def build_query(uri: str, projection: Sequence[str] | None = None, where: str | None = None,
                sort: str | None = None) -> str:
    words = ["content", "query"] + _option("--uri", uri)
    if projection:
        if any(":" in name or not name.strip() for name in projection):
            raise ValueError(f"projection names must be non-empty and free of ':': {list(projection)}")
        words += ["--projection", ":".join(projection)]
    return shell_join(words + _option("--where", where) + _option("--sort", sort))


def build_insert(uri: str, values: Mapping[str, Any]) -> str:
    return shell_join(["content", "insert"] + _option("--uri", uri) + _bindings(values))


def build_update(uri: str, values: Mapping[str, Any], where: str | None = None) -> str:
    return shell_join(["content", "update"] + _option("--uri", uri) + _bindings(values)
                      + _option("--where", where))


def build_delete(uri: str, where: str | None = None) -> str:
    return shell_join(["content", "delete"] + _option("--uri", uri) + _option("--where", where))


# --- parsing output ------------------------------------------------------------------------------
def check_result(command: str, result: ShellResult) -> str:
    """Raise ContentError for a usage or provider error (the command exits 0 for both)."""
    if result.exit_code != 0:
        raise CommandFailed(command, result)
    if _PROVIDER_ERROR in result.stderr:
        detail = result.stderr.strip().splitlines()
        raise ContentError(" ".join(detail[:2]))
    lines = result.stdout.rstrip("\n").splitlines()
    if result.stdout.startswith("usage:") and lines and lines[-1].startswith("[ERROR] "):
        raise ContentError(f"content: {lines[-1][len('[ERROR] '):]}")
    return result.stdout


def _row_texts(stdout: str) -> list[str]:
    """The text after `Row: N ` of each row."""
    if stdout.strip() == "No result found." or not stdout.strip():
        return []
    text = stdout[:-1] if stdout.endswith("\n") else stdout
    if not text.startswith("Row: 0 "):
        raise ValueError(f"not content query output: {stdout[:80]!r}")
    starts, number = [0], 1
    while True:
        found = text.find(f"\nRow: {number} ", starts[-1] + 1)
        if found < 0:
            break
        starts.append(found + 1)
        number += 1
    ends = [s - 1 for s in starts[1:]] + [len(text)]
    return [text[s + len(f"Row: {i} "):e] for i, (s, e) in enumerate(zip(starts, ends))]


def split_row(text: str, columns: Sequence[str]) -> list[str]:
    """The values of one row whose column names are known, split from the right."""
    if not columns or not text.startswith(columns[0] + "="):
        raise ValueError(f"row does not start with {columns[0] if columns else '?'}=: {text[:80]!r}")
    first = len(columns[0]) + 1
    values: list[str] = [""] * len(columns)
    end = len(text)
    for index in range(len(columns) - 1, 0, -1):
        marker = f", {columns[index]}="
        found = text.rfind(marker, first, end)
        if found < 0:
            raise ValueError(f"column {columns[index]!r} not found in row {text[:80]!r}")
        values[index] = text[found + len(marker):end]
        end = found
    values[0] = text[first:end]
    return values


def _candidates(text: str) -> list[str]:
    head = re.match(rf"({_NAME})=", text)
    if head is None:
        raise ValueError(f"row does not start with a column name: {text[:80]!r}")
    return [head.group(1)] + re.findall(rf", ({_NAME})=", text[head.end():])


def _common(a: list[str], b: list[str]) -> list[str]:
    """Longest common subsequence of two name lists."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def infer_columns(row_texts: Sequence[str]) -> list[str]:
    """Column names shared, in order, by every row (see the module docstring)."""
    columns: list[str] | None = None
    for text in row_texts:
        names = _candidates(text)
        columns = names if columns is None else _common(columns, names)
    return columns or []


def parse_rows(stdout: str, projection: Sequence[str] | None = None) -> list[Row]:
    """Rows of `content query` output as dicts (`NULL` → None, every other value a str)."""
    texts = _row_texts(stdout)
    if not texts:
        return []
    columns = list(projection) if projection else []
    if not columns or not texts[0].startswith(columns[0] + "="):
        columns = infer_columns(texts)
    rows = []
    for text in texts:
        values = split_row(text, columns)
        rows.append({name: None if value == "NULL" else value for name, value in zip(columns, values)})
    return rows


# --- the service -----------------------------------------------------------------------------
class Content:
    """`device.content`: query and change content providers."""

    def __init__(self, device: "Device"):
        self._device = device

    def _run(self, command: str) -> str:
        return check_result(command, self._device.shell(command))

    def query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
              sort: str | None = None) -> list[Row]:
        """Rows of `uri` (in the provider's order unless `sort` is given)."""
        return parse_rows(self._run(build_query(uri, projection, where, sort)), projection)

    def insert(self, uri: str, values: Mapping[str, Any]) -> None:
        """Insert one row into the provider at `uri` (`content insert --bind`)."""
        self._run(build_insert(uri, values))

    def update(self, uri: str, values: Mapping[str, Any], where: str | None = None) -> None:
        """Update the rows of `uri` that `where` selects (`content update`)."""
        self._run(build_update(uri, values, where))

    def delete(self, uri: str, where: str | None = None) -> None:
        """Delete the rows of `uri` that `where` selects (`content delete`)."""
        self._run(build_delete(uri, where))
