"""SQL functions whose one call the progress handler cannot interrupt are bounded before they run
(taskkit/sim/sqlite_functions.py): each bomb below runs in a child device process under a CPU
rlimit, so that a regression is killed instead of hanging the suite, and must fail at once with
SQLite's own `string or blob too big`."""
from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskkit.device.quoting import shell_join
from taskkit.sim import sqlite_functions, sqlite_policy

ROOT = Path(__file__).resolve().parents[2]
CPU_SECONDS = 30  # the child's whole CPU budget: building the device and every statement below
_LONG = "replace(hex(zeroblob({n})), '0', 'a')"  # 2n characters 'a'
BOMBS = {
    "printf_precision": "SELECT length(printf('%.*c',2000000000,'x')||printf('%.*c',2000000000,'y')"
                        "||printf('%.*c',2000000000,'z'))",
    "format_precision": "SELECT format('%.2000000000c', 'x')",
    # each conversion under the length limit, together far past it (SQLite 3.40 loops on after the limit)
    "printf_many": "SELECT printf(replace(hex(zeroblob(60)), '00', '%.*c'), " + ", ".join(["60000000, 'x'"] * 60) + ")",
    "printf_negative_star": "SELECT printf('%.*c', -2000000000, 'x')",
    "printf_width": "SELECT printf('%*d', 2147483647, 1)",
    "like": f"SELECT h LIKE n FROM (SELECT {_LONG.format(n=4_000_000)} h, '%' || {_LONG.format(n=25_000)} || 'b' n)",
    "glob": f"SELECT h GLOB n FROM (SELECT {_LONG.format(n=4_000_000)} h, '*' || {_LONG.format(n=25_000)} || 'b' n)",
    "case_sensitive_like": f"PRAGMA case_sensitive_like = 1; SELECT h LIKE n FROM (SELECT {_LONG.format(n=4_000_000)} h, "
                           f"'%' || {_LONG.format(n=25_000)} || 'b' n)",
    "instr": f"SELECT instr(h, n) FROM (SELECT {_LONG.format(n=16_000_000)} h, {_LONG.format(n=8_000_000)} || 'b' n)",
    "replace": f"SELECT length(replace(h, n, '')) FROM (SELECT {_LONG.format(n=16_000_000)} h, "
               f"{_LONG.format(n=8_000_000)} || 'b' n)",
    "trim": f"SELECT length(trim(h, n)) FROM (SELECT {_LONG.format(n=16_000_000)} h, "
            f"replace(hex(zeroblob(8000000)), '0', 'b') || 'a' n)",
}


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def test_function_bombs_fail_at_once_with_sqlites_error(tmp_path) -> None:
    child = subprocess.Popen([sys.executable, "-m", "tests.sim.sim_child", str(tmp_path / "device")],
                             cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=_limit_cpu)
    requests = "".join(json.dumps({"shell": shell_join(["sqlite3", ":memory:", sql])}) + "\n" for sql in BOMBS.values())
    out, err = child.communicate(requests, timeout=1800)
    assert child.returncode == 0, f"the device process died (CPU limit?): {child.returncode} {err[-500:]}"
    answers = [json.loads(line) for line in out.splitlines()]
    for name, answer in zip(BOMBS, answers, strict=True):
        assert answer["stderr"] == "Error: stepping, string or blob too big (18)\n", (name, answer)
        assert answer["exit_code"] == 18, (name, answer)


@pytest.mark.parametrize("sql, expected", [
    ("SELECT printf('%5d|%-5s|%.3f|%c|%.3c|%q', 42, 'ab', 3.14159, 'xyz', 'é', 'it''s')", "   42|ab   |3.142|x|ééé|it''s"),
    ("SELECT format('%s', NULL) IS NULL, printf(NULL) IS NULL, length(printf('%.*c', 1000000, 'x'))", "0|1|1000000"),
    ("SELECT 'abc' LIKE 'A%', 'abc' GLOB 'A*', 'a_c' LIKE 'a#_c' ESCAPE '#', 'abc' LIKE NULL IS NULL", "1|0|1|1"),
    ("PRAGMA case_sensitive_like = 1; SELECT 'abc' LIKE 'A%'; PRAGMA case_sensitive_like = off; SELECT 'abc' LIKE 'A%'", "0\n1"),
    ("SELECT instr('hello', 'll'), replace('hello', 'l', 'L'), trim('xxhixx', 'x'), ltrim('aab', 'a'), rtrim('baa', 'a')", "3|heLLo|hi|b|b"),
])
def test_bounded_functions_answer_as_sqlite_does(tmp_path, sql, expected) -> None:
    from taskkit.sim.device import SimDevice
    device = SimDevice(tmp_path / "device")
    assert device.check(shell_join(["sqlite3", ":memory:", sql])) == expected + "\n"


_FORMATS = st.lists(st.one_of(st.sampled_from(["%", "d", "c", "s", "f", "g", "x", "q", "*", ".", "l", "-", "0", "!",
                                               ",", "%%", "5", "12", ".3", "%.*c", "%*d", "%-*s", "n", "z"]),
                              st.text(max_size=2)), max_size=12).map("".join)
_ARGS = st.lists(st.one_of(st.integers(-300, 300), st.text(max_size=4), st.floats(allow_nan=False, width=32),
                           st.none(), st.binary(max_size=3)), max_size=6)


@settings(max_examples=400, deadline=None)
@given(_FORMATS, _ARGS)
def test_the_length_bound_never_passes_what_sqlite_prints(fmt, args) -> None:
    """The parser of printf formats agrees with the library's: its lower bound on the length
    never exceeds the length SQLite's printf actually produces."""
    conn = sqlite3.connect(":memory:")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, sqlite_policy.MAX_LENGTH)
    placeholders = ", ".join("?" * (len(args) + 1))
    (result,) = conn.execute(f"SELECT CAST(printf({placeholders}) AS BLOB)", (fmt, *args)).fetchone()
    assert sqlite_functions.least_length(fmt, tuple(args)) <= len(result or b"")
