"""`content query|insert|update|delete`: Android 13's `cmds/content` over the simulated providers.

Argument rules follow Content.java (Android 13):

* `--uri U` is required; `--user N` must be an integer; an option's value may not be empty or
  start with `--` (`No value for argument: --where`).
* `--projection a:b` splits on `:` (spaces around it ignored). `--where` and `--sort` are SQL
  text handed to the provider as they are.
* `--bind COLUMN:TYPE:VALUE` (and `--extra`, accepted and ignored) splits on `:` with `\\` as the
  escape character: `\\:` is a literal colon and `\\\\` a literal backslash, so a value holding
  `:` or `\\` must be escaped (`body:s:10\\:30`). Exactly three parts are required. TYPE is `s`
  string, `b` boolean (only "true", any case, is true; stored 1/0), `i` int, `l` long, `f`
  float (rounded to 32 bits), `d` double, `n` null; the letter is case-insensitive except `s`.
  `col:s:` binds the empty string.

Output: `Row: <i> col=value, col=value` per row (i from 0); integers in decimal, floats as
Java's `Float.toString` (`1.5`, `1.0E10`), NULL as `NULL`, blobs as `BLOB`, strings raw (they
may contain `, `, `=` and newlines: the output is ambiguous by design); `No result found.` for
no rows. Usage errors print the usage text and `[ERROR] <message>` on stdout; provider failures
print `Error while accessing provider:<authority>` and a Java-style stack trace on stderr. The
exit code is 0 in every case, as on a device. `call`, `read`, `write` and `gettype` parse but
report an unsupported operation.
"""
from __future__ import annotations

import math
import re
import struct
from typing import Any

from taskkit.errors import TaskkitError
from taskkit.sim import providers
from taskkit.sim.commands import Invocation, command

USAGE = """\
usage: adb shell content [subcommand] [options]

usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] [--extra <BINDING>...]
  <URI> a content provider URI.
  <BINDING> a typed value for a column: <COLUMN_NAME>:<TYPE>:<COLUMN_VALUE>
  <TYPE> one of: b boolean, s string, i integer, l long, f float, d double, n null.
  Write \\: for a colon and \\\\ for a backslash inside a binding; col:s: binds the empty string.
  Example: adb shell content insert --uri content://settings/secure --bind name:s:my_key --bind value:s:my_value

usage: adb shell content update --uri <URI> [--user <USER_ID>] [--where <WHERE>] [--extra <BINDING>...] --bind <BINDING> [--bind <BINDING>...]
  <WHERE> an SQL WHERE clause, quoted for the shell.
  Example: adb shell content update --uri content://settings/secure --bind value:s:other --where "name='my_key'"

usage: adb shell content delete --uri <URI> [--user <USER_ID>] [--where <WHERE>] [--extra <BINDING>...]
  Example: adb shell content delete --uri content://settings/secure --where "name='my_key'"

usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>] [--extra <BINDING>...]
  <PROJECTION> column names separated by colons: <COLUMN_NAME>[:<COLUMN_NAME>...]
  <SORT_ORDER> an SQL ORDER BY clause, e.g. "name ASC".
  Example: adb shell content query --uri content://settings/secure --projection name:value --where "name='my_key'" --sort "name ASC"

usage: adb shell content call --uri <URI> --method <METHOD> [--arg <ARG>] [--extra <BINDING> ...]
usage: adb shell content read --uri <URI> [--user <USER_ID>]
usage: adb shell content write --uri <URI> [--user <USER_ID>]
usage: adb shell content gettype --uri <URI> [--user <USER_ID>]
"""

_OPERATIONS = ("insert", "delete", "update", "query", "call", "read", "write", "gettype")
# The options each operation accepts (besides --uri and --user, which all accept).
_OPTIONS = {
    "insert": {"--bind", "--extra"},
    "delete": {"--where", "--extra"},
    "update": {"--where", "--bind", "--extra"},
    "query": {"--where", "--sort", "--projection", "--extra"},
    "call": {"--method", "--arg", "--extra"},
    "read": set(), "write": set(), "gettype": set(),
}
_INT32 = (-(2 ** 31), 2 ** 31 - 1)
_INT64 = (-(2 ** 63), 2 ** 63 - 1)


class UsageError(TaskkitError, ValueError):
    """An IllegalArgumentException thrown while parsing: usage + `[ERROR] message`."""


# --- Java number parsing and formatting ------------------------------------------------------
def _number_error(text: str) -> UsageError:
    return UsageError(f'For input string: "{text}"')


def parse_java_int(text: str, bits: int) -> int:
    """Integer.parseInt / Long.parseLong: optional sign and ASCII digits only, in range."""
    low, high = _INT32 if bits == 32 else _INT64
    if not re.fullmatch(r"[+-]?[0-9]+", text) or not low <= int(text) <= high:
        raise _number_error(text)
    return int(text)


def parse_java_double(text: str) -> float:
    """Double.parseDouble (decimal forms, NaN, Infinity, an f/d suffix; whitespace trimmed)."""
    trimmed = text.strip(" \t\n\r\x0b\x0c\x00")
    if not trimmed:
        raise UsageError("empty String")
    match = re.fullmatch(r"([+-]?)(?:(NaN|Infinity)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?)", trimmed)
    if not match:
        raise _number_error(text)
    sign, special, number = match.groups()
    if special == "NaN":
        return math.nan
    value = math.inf if special else float(number)
    return -value if sign == "-" else value


def to_float32(value: float) -> float:
    """Round a double to the nearest 32-bit float (overflowing to ±Infinity)."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def java_float_str(value: float) -> str:
    """Java's Float.toString of `value` rounded to a 32-bit float: the shortest digits that
    read back as the same float, in plain notation for 1e-3 <= |x| < 1e7, else `d.dddE±n`."""
    f = to_float32(value)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "-0.0" if math.copysign(1.0, f) < 0 else "0.0"
    for precision in range(2, 10):  # Java picks the closest 2-digit decimal when 1 digit would do
        text = f"{abs(f):.{precision - 1}e}"
        if to_float32(float(text)) == abs(f):
            break
    mantissa, exponent_text = text.split("e")
    digits = mantissa.replace(".", "").rstrip("0") or "0"
    exponent = int(exponent_text)
    sign = "-" if f < 0 else ""
    if -3 <= exponent < 7:
        if exponent >= 0:
            whole = digits[: exponent + 1].ljust(exponent + 1, "0")
            fraction = digits[exponent + 1:] or "0"
        else:
            whole, fraction = "0", "0" * (-exponent - 1) + digits
        return f"{sign}{whole}.{fraction}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent}"


def format_value(value: Any) -> str:
    """One cursor value as Content.java prints it."""
    if value is None:
        return "NULL"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "BLOB"
    if isinstance(value, float):
        return java_float_str(value)
    return str(value)


def format_rows(cursor: providers.Cursor) -> str:
    """The stdout of `content query` for `cursor`."""
    if not cursor.rows:
        return "No result found.\n"
    lowered = [name.lower() for name in cursor.columns]
    # getColumnIndex(name) across binder finds the first column of that name (any case).
    source = [lowered.index(name.lower()) for name in cursor.columns]
    lines = []
    for number, row in enumerate(cursor.rows):
        cells = ", ".join(f"{name}={format_value(row[source[i]])}" for i, name in enumerate(cursor.columns))
        lines.append(f"Row: {number} {cells}\n")
    return "".join(lines)


# --- argument parsing ------------------------------------------------------------------------
def split_escaped(text: str, separator: str = ":") -> list[str]:
    """Split on `separator`, `\\` escaping the next character (Content.splitWithEscaping)."""
    parts, current, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 1
            if i == len(text):
                raise UsageError("Invalid escaping")
            current.append(text[i])
        elif ch == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def parse_binding(argument: str | None) -> tuple[str, Any]:
    """`COLUMN:TYPE:VALUE` → (column, typed value)."""
    if not argument:
        raise UsageError(f"Binding not well formed: {'null' if argument is None else argument}")
    parts = split_escaped(argument)
    if len(parts) != 3:
        raise UsageError(f"Binding not well formed: {argument}")
    column, kind, value = parts
    lowered = kind.lower()
    if kind == "s":
        return column, value
    if lowered == "b":
        return column, 1 if value.lower() == "true" else 0
    if lowered in ("i", "l"):
        return column, parse_java_int(value, 32 if lowered == "i" else 64)
    if lowered in ("f", "d"):
        number = parse_java_double(value)
        number = to_float32(number) if lowered == "f" else number
        return column, None if math.isnan(number) else number  # SQLite stores NaN as NULL
    if lowered == "n":
        return column, None
    raise UsageError(f"Unsupported type: {kind}")


class ParsedCommand:
    """The operation and options of one `content` invocation."""

    def __init__(self, operation: str):
        self.operation = operation
        self.uri: str | None = None
        self.user = 0
        self.where: str | None = None
        self.sort: str | None = None
        self.projection: list[str] | None = None
        self.values: dict[str, Any] = {}


def parse_args(args: list[str]) -> ParsedCommand:
    """Parse `content` arguments as Content.Parser does; raises UsageError."""
    tokens = iter(args)
    operation = next(tokens, None)
    if operation not in _OPERATIONS:
        raise UsageError(f"Unsupported operation: {operation if operation is not None else 'null'}")
    parsed = ParsedCommand(operation)
    allowed = _OPTIONS[operation] | {"--uri", "--user"}

    def value_of(option: str) -> str:
        value = next(tokens, None)
        if not value or value.startswith("--"):
            raise UsageError(f"No value for argument: {option}")
        return value

    for option in tokens:
        if option not in allowed:
            raise UsageError(f"Unsupported argument: {option}")
        if option == "--uri":
            parsed.uri = value_of(option)
        elif option == "--user":
            parsed.user = parse_java_int(value_of(option), 32)
        elif option == "--where":
            parsed.where = value_of(option)
        elif option == "--sort":
            parsed.sort = value_of(option)
        elif option == "--projection":
            names = re.split(r"\s*:\s*", value_of(option))
            while names and names[-1] == "":  # Java's split drops trailing empty strings
                names.pop()
            parsed.projection = names
        elif option == "--bind":
            column, value = parse_binding(next(tokens, None))
            parsed.values[column] = value
        elif option == "--extra":
            parse_binding(next(tokens, None))
        else:  # --method / --arg of `call`
            value_of(option)
    if parsed.uri is None:
        raise UsageError("Content provider URI not specified. Did you specify --uri argument?")
    if operation in ("insert", "update") and not parsed.values:
        raise UsageError("Bindings not specified. Did you specify --bind argument(s)?")
    return parsed


# --- execution -------------------------------------------------------------------------------
_TRACE = {
    "query": "ContentProviderProxy.query(ContentProviderNative.java:472)",
    "insert": "ContentProviderProxy.insert(ContentProviderNative.java:518)",
    "update": "ContentProviderProxy.update(ContentProviderNative.java:636)",
    "delete": "ContentProviderProxy.delete(ContentProviderNative.java:594)",
}


def _report(inv: Invocation, operation: str, error: providers.ProviderError) -> None:
    inv.err(f"Error while accessing provider:{error.authority}\n{error.exception}: {error.message}\n")
    if operation in _TRACE and not error.exception.endswith("IllegalStateException"):
        inv.err("\tat android.database.DatabaseUtils.readExceptionFromParcel(DatabaseUtils.java:172)\n"
                f"\tat android.content.{_TRACE[operation]}\n")
    inv.err("\tat com.android.commands.content.Content$Command.execute(Content.java:522)\n"
            "\tat com.android.commands.content.Content.main(Content.java:740)\n")


def execute(inv: Invocation, parsed: ParsedCommand) -> None:
    """Run a parsed command against the simulated providers, printing like a device."""
    state = inv.state
    try:
        if parsed.operation == "query":
            cursor = providers.query(state, parsed.uri, parsed.projection, parsed.where, parsed.sort)
            inv.out(format_rows(cursor))
        elif parsed.operation == "insert":
            caller = providers.Caller("root" if state.config.get("is_root") else "com.android.shell")
            providers.insert(state, parsed.uri, parsed.values, caller)
        elif parsed.operation == "update":
            providers.update(state, parsed.uri, parsed.values, parsed.where)
        elif parsed.operation == "delete":
            providers.delete(state, parsed.uri, parsed.where)
        else:
            endpoint = providers.resolve(parsed.uri)
            raise providers.ProviderError(endpoint.provider.authority, "java.lang.UnsupportedOperationException",
                                          f"{parsed.operation} is not supported by this provider")
    except providers.ProviderError as error:
        _report(inv, parsed.operation, error)


@command("content")
def content(inv: Invocation) -> int:
    """`content OPERATION --uri U ...` (see the module docstring)."""
    if not inv.args:
        inv.out(USAGE)
        return 0
    try:
        parsed = parse_args(inv.args)
    except UsageError as error:
        inv.out(USAGE + f"[ERROR] {error}\n")
        return 0
    execute(inv, parsed)
    return 0
