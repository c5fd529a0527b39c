"""SQL functions whose cost SQLite's progress handler cannot interrupt, bounded before they run.

The progress handler (`sqlite_sandbox.PROGRESS_STEPS`) stops a statement between virtual-machine
instructions; a single function call is one instruction, however long it runs. Some of the
library's functions loop on their arguments without bound:

* `printf` / `format`: `%.*c` repeats a character `precision` times one append at a time, and
  SQLite 3.40 keeps looping after the result has passed SQLITE_LIMIT_LENGTH (it then returns
  NULL): `printf('%.*c', 2000000000, 'x')` burns ~30 s of CPU. A call whose widths and
  precisions alone ask for more than `sqlite_policy.MAX_LENGTH` bytes fails at once, and so does
  one whose result SQLite drops, with SQLite's own `string or blob too big` (SQLITE_TOOBIG, what
  newer SQLite's printf() answers for a result past the length limit);
* `like`, `glob`, `instr`, `replace` and the two-argument `trim`, `ltrim`, `rtrim`: their cost is
  up to the product of their arguments' lengths (`'%aaa…ab'` against a long `aaa…`: minutes for
  two values well under the length limit). A call whose product passes MAX_PATTERN_WORK (the
  matchers) or MAX_COMPARE_WORK (memcmp-based search) fails the same way.

Every other call runs the library's own function, on a per-thread in-memory connection
(`_builtin`), so results are SQLite's byte for byte. `install(conn)` puts the bounded versions on
a connection (sqlite_sandbox.connect does, for every device connection).

Known differences: a TEXT argument that is not valid UTF-8 makes these functions fail with
`user-defined function raised exception` (Python's sqlite3 cannot hand such a value to a Python
function); LIKE no longer uses an index (the LIKE optimization needs the built-in function); and
each call costs a few microseconds more.
"""
from __future__ import annotations

import functools
import sqlite3
import threading
from typing import Any, Callable, Iterator

from taskkit.sim import sqlite_policy

#: At most this many character steps for one LIKE or GLOB (string length × pattern length): a
#: few seconds of CPU at most; a real pattern over a real value needs far fewer.
MAX_PATTERN_WORK = 1 << 31
#: At most this many bytes compared by one instr / replace / trim call (haystack × needle, or
#: value × trim set); memcmp-based, so about as long as MAX_PATTERN_WORK steps of LIKE.
MAX_COMPARE_WORK = 1 << 36

# The conversions of SQLite's printf (printf.c fmtinfo) by what they do with width and precision.
_INTEGER = frozenset("diuxXopr")   # precision: at least that many digits
_FLOAT = frozenset("feEgG")        # precision: digits, in a temporary buffer of that size
_TEXT = frozenset("szqQw")         # precision: at most that many characters of the argument
_NO_ARGUMENT = frozenset("n%")
_FLAGS = frozenset("-+ #!0,")


class _TooBig(OverflowError):
    """The call's result would pass the length limit: SQLite's `string or blob too big`
    (Python's sqlite3 reports an OverflowError from a function as SQLITE_TOOBIG)."""


_LOCAL = threading.local()


def _builtin(case_sensitive_like: bool = False) -> sqlite3.Connection:
    """This thread's in-memory connection that runs the library's own functions."""
    key = "sensitive" if case_sensitive_like else "insensitive"
    conn = getattr(_LOCAL, key, None)
    if conn is None:
        conn = sqlite3.connect(":memory:")
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, sqlite_policy.MAX_LENGTH)
        if case_sensitive_like:
            conn.execute("PRAGMA case_sensitive_like = ON")
        setattr(_LOCAL, key, conn)
    return conn


@functools.lru_cache(maxsize=None)
def _select(name: str, arity: int) -> str:
    return f"SELECT {name}({', '.join('?' * arity)})"


def _call(name: str, args: tuple[Any, ...], case_sensitive_like: bool = False) -> Any:
    """The library's `name(*args)`."""
    return _builtin(case_sensitive_like).execute(_select(name, len(args)), args).fetchone()[0]


def _int32(value: Any) -> int:
    """`(int)sqlite3_value_int64(value)`: SQLite's integer conversion, truncated to 32 bits."""
    wide = int(_call("printf", ("%lld", value)))
    wide &= 0xFFFFFFFF
    return wide - (1 << 32) if wide & 0x80000000 else wide


def conversions(fmt: str, args: tuple[Any, ...]) -> Iterator[tuple[str, int, int]]:
    """(conversion, width, precision) of each `%` conversion of `fmt` with SQL arguments `args`,
    read as sqlite3_str_vappendf() reads them (SQLite 3.40 printf.c); precision -1 if none."""
    fmt = fmt.split("\0", 1)[0]
    used, i, c = 0, 0, ""

    def char(index: int) -> str:
        return fmt[index] if index < len(fmt) else "\0"

    def star(overflow: int) -> int:
        """The next argument as a width or precision: its magnitude (`overflow` for INT_MIN)."""
        nonlocal used
        if used >= len(args):
            return 0
        used += 1
        value = _int32(args[used - 1])
        return value if value >= 0 else -value if value >= -0x7FFFFFFF else overflow

    def digits() -> int:
        """The decimal number at fmt[i] (C unsigned arithmetic), i and c moved past it."""
        nonlocal i, c
        wide = 0
        while "0" <= c <= "9":
            wide = (wide * 10 + ord(c) - 48) & 0xFFFFFFFF
            i += 1
            c = char(i)
        return wide & 0x7FFFFFFF

    while (i := fmt.find("%", i)) >= 0:
        i += 1
        c = char(i)
        if c == "\0":
            return
        width, precision = 0, -1
        while True:
            done = False
            if c == "l":
                i += 1
                if char(i) == "l":
                    i += 1
                c, done = char(i), True
            elif c in "123456789":
                width = digits()
                if c in ".l":
                    i -= 1
                else:
                    done = True
            elif c == "*":
                width = star(0)
                if char(i + 1) not in ".l":
                    i += 1
                    c, done = char(i), True
            elif c == ".":
                i += 1
                c = char(i)
                if c == "*":
                    precision = star(-1)
                    i += 1
                    c = char(i)
                else:
                    precision = digits()
                if c == "l":
                    i -= 1
                else:
                    done = True
            elif c not in _FLAGS:
                done = True
            if done:
                break
            i += 1
            c = char(i)
            if c == "\0":
                return
        if c not in _INTEGER | _FLOAT | _TEXT | _NO_ARGUMENT | {"c"}:
            return  # an unknown conversion (or %T, %S) ends the output there
        if c not in _NO_ARGUMENT:
            used += 1
        yield c, (0 if c == "n" else width), precision
        i += 1


def least_length(fmt: str, args: tuple[Any, ...]) -> int:
    """A lower bound on the length of printf(fmt, args...) from widths and precisions alone;
    more than MAX_LENGTH where SQLite's own temporary buffer for one conversion would be."""
    total = 0
    for conversion, width, precision in conversions(fmt, args):
        if conversion in _FLOAT and precision > sqlite_policy.MAX_LENGTH:
            return precision
        floor = precision if conversion == "c" or conversion in _INTEGER else 0
        total += max(width, floor)
    return total


def _text_of(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("latin-1")  # only `%`, digits and letters matter
    return value if isinstance(value, str) else str(value)


def bounded_printf(*args: Any) -> Any:
    """printf(FORMAT, ...) / format(...), refused as too big before a costly call."""
    fmt = _text_of(args[0]) if args else None
    if fmt is None:
        return None
    if least_length(fmt, args[1:]) > sqlite_policy.MAX_LENGTH:
        raise _TooBig
    result = _call("printf", args)
    if result is None:
        raise _TooBig  # SQLite dropped a result past the length limit
    return result


def _size(value: Any) -> int:
    """How long `value` is for SQLite's byte loops (UTF-8 bytes of a text)."""
    if isinstance(value, str):
        return len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))
    return len(value) if isinstance(value, bytes) else 24


def _bounded(name: str, work: Callable[[tuple[Any, ...]], int], limit: int,
             case: Callable[[], bool] = lambda: False) -> Callable[..., Any]:
    """`name` run by the library unless `work(args)` passes `limit`."""
    def call(*args: Any) -> Any:
        if any(arg is None for arg in args):
            return _call(name, args, case())
        if work(args) > limit:
            raise _TooBig
        return _call(name, args, case())
    call.__name__ = f"bounded_{name}"
    return call


def _product(args: tuple[Any, ...]) -> int:
    return _size(args[0]) * _size(args[1])


class BoundedFunctions:
    """The bounded functions of one connection, and its `PRAGMA case_sensitive_like` (which
    the library applies by registering its own LIKE again: `sqlite_sandbox`'s authorizer hands
    the setting here instead, through `set_case_sensitive_like`)."""

    def __init__(self, conn: sqlite3.Connection):
        self.case_sensitive_like = False
        like = _bounded("like", _product, MAX_PATTERN_WORK, lambda: self.case_sensitive_like)
        for name, arity, func in (
                ("printf", -1, bounded_printf), ("format", -1, bounded_printf),
                ("like", 2, like), ("like", 3, like),
                ("glob", 2, _bounded("glob", _product, MAX_PATTERN_WORK)),
                ("instr", 2, _bounded("instr", _product, MAX_COMPARE_WORK)),
                ("replace", 3, _bounded("replace", _product, MAX_COMPARE_WORK)),
                ("trim", 2, _bounded("trim", _product, MAX_COMPARE_WORK)),
                ("ltrim", 2, _bounded("ltrim", _product, MAX_COMPARE_WORK)),
                ("rtrim", 2, _bounded("rtrim", _product, MAX_COMPARE_WORK))):
            conn.create_function(name, arity, func, deterministic=True)

    def set_case_sensitive_like(self, argument: object) -> None:
        """`PRAGMA case_sensitive_like = argument`, as sqlite3GetBoolean(argument, 0) reads it."""
        text = str(argument).strip().lower()
        if text.lstrip("+-").isdigit():
            self.case_sensitive_like = int(text) != 0
        else:
            self.case_sensitive_like = text in ("on", "yes", "true", "full", "extra")


def install(conn: sqlite3.Connection) -> BoundedFunctions:
    """Replace the unbounded functions of `conn` with their bounded versions."""
    return BoundedFunctions(conn)
