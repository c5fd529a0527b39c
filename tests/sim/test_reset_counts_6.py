"""What a reset costs, counted, sixth pass (issue #37: cheaper resets): the shell's fixed cost per
command (the limit checks read per-thread defaults instead of raising AttributeError, the log
buffer's block is a plain context manager, a lone quoted expansion is its own field); one
`sqlite3` for a set-up's consecutive scripts on one database; and the sqlite3 shell's line
reader takes a closed stretch by one regex wherever it starts, not only at a line's start."""
from __future__ import annotations

import collections
import random
import re
import sys
import threading
from typing import Callable, Iterator

import pytest

from taskkit import connect
from taskkit.device.errors import CommandFailed
from taskkit.device.quoting import shell_quote
from taskkit.device.services import sqlite as sqlite_service
from taskkit.sim import limits, shell
from taskkit.sim.commands import sqlite3_cli
from taskkit.sim.device import SimDevice
from taskkit.sim.state import SimState
from tests.device.test_sqlite import recording

_LOOP = 'for p in a b c d e f g h i j; do if pidof "$p" >/dev/null; then am force-stop "$p"; fi; done'


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimDevice]:
    sim = connect.sim_device(tmp_path_factory.mktemp("counts6") / "device")
    yield sim
    sim.close()


def _calls(state: SimState, command: str) -> collections.Counter:
    """Python function calls ("call") and calls of C functions by name, running `command` once."""
    shell.run(state, command)  # parsed and warm
    counts: collections.Counter = collections.Counter()

    def profile(frame, event: str, arg: object) -> None:
        if event == "call":
            counts["call"] += 1
        elif event == "c_call":
            counts[getattr(arg, "__qualname__", "?")] += 1

    sys.setprofile(profile)
    try:
        shell.run(state, command)
    finally:
        sys.setprofile(None)
    return counts


def test_the_set_up_loop_costs_a_bounded_number_of_calls_per_package(device: SimDevice) -> None:
    counts = _calls(device.state, _LOOP)
    assert counts["getattr"] == 0  # the limit checks read attributes every thread has
    assert counts["call"] <= 630  # ten packages: ~62 Python calls each (74 before)
    assert sum(counts.values()) - counts["call"] <= 320  # and ~31 calls of C functions (43 before)


def test_limits_hold_per_thread_with_defaults_in_a_new_thread() -> None:
    seen: dict[str, object] = {}

    def without() -> None:
        limits.check()  # no deadline, no event: passes
        seen["without"] = limits.expired()

    def late() -> None:
        with limits.deadline(0):
            with pytest.raises(limits.LimitExceeded, match="timed out after 0 s") as info:
                while True:
                    limits.check()
            seen["late"] = info.value.status
        limits.check()  # the block ended: no limit again
        cancelled = threading.Event()
        with limits.deadline(None, cancelled):
            limits.check()
            cancelled.set()
            with pytest.raises(limits.LimitExceeded, match="client went away") as info:
                limits.check()
            seen["gone"] = info.value.status

    for target in (without, late):
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    assert seen == {"without": False, "late": limits.TIMEOUT_STATUS, "gone": limits.CLIENT_GONE_STATUS}


_PARTS = [
    ("V", "x", None, None, True), ("V", "empty", None, None, True), ("V", "unset", ":-", shell._make_word([("Q", "d e")]), True),
    ("V", "@", None, None, True), ("V", "*", None, None, True), ("V", "#", None, None, True),
    ("C", shell.parse("echo ' a  b '"), True), ("A", shell._make_word([("L", "1+2")]), True),
    ("V", "x", "len", None, True), ("V", "x", "#", shell._make_word([("L", "*")]), True),
]


@pytest.mark.parametrize("part", _PARTS)
@pytest.mark.parametrize("split", [True, False])
def test_a_lone_quoted_expansion_gives_the_fields_of_the_general_path(device: SimDevice, part: tuple,
                                                                     split: bool) -> None:
    """A quoted expansion alone in its word takes a short path; one more quoted empty text in
    the word changes none of its fields and takes the general one."""
    ctx = shell._Ctx(device.state, positional=["p 1", "", "p*3"])
    ctx.vars.update({"x": " a  *  b ", "empty": "", "IFS": " *"})
    err = bytearray()
    alone = shell._expand_fields(shell.Word((part,)), ctx, err, split)
    general = shell._expand_fields(shell.Word((part, ("Q", ""))), ctx, err, split)
    assert alone == general and not err


# --- one sqlite3 for a set-up's consecutive scripts on one database ---------------------------
_DDL = "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, n REAL);"
_CLEAR = "DELETE FROM \"t\"; DELETE FROM sqlite_sequence WHERE name = 't';"
_ROWS = [{"name": "a;b", "n": 1.5}, {"name": "it's", "n": None}]


def _sqlite3_runs(device: SimDevice, action: Callable[[], object]) -> int:
    """How many `sqlite3` commands the texts `action` sends hold."""
    return _runs(_sent(device, action))


def _sent(device: SimDevice, action: Callable[[], object], sent: list[str] | None = None) -> list[str]:
    """The texts `action` sends to the device's shell (kept in `sent` if given, also when it raises)."""
    sent = sent if sent is not None else []
    recorded = recording(device)
    try:
        action()
    finally:
        sent.extend(recorded)
        del device._shell
    return sent


def _runs(sent: list[str]) -> int:
    return sum(len(re.findall(r"(?:^|[{;&|\n] ?)sqlite3 ", text)) for text in sent)


def _fresh_database(device: SimDevice, name: str) -> str:
    db = f"/data/local/tmp/counts6/{name}.db"
    device.run(f"mkdir -p /data/local/tmp/counts6 && rm -f {db} && sqlite3 {db} {shell_quote(_DDL)}")
    return db


def _set_up(device: SimDevice, db: str, scripts: list[str], apart: bool) -> None:
    """Run `scripts` for their effect as a set-up does (held back), or each sent alone."""
    with device.batch():
        for script in scripts:
            device.sqlite.execute(db, script)
            if apart:
                device.flush()


@pytest.mark.parametrize("second", [
    sqlite_service.build_insert_script("t", _ROWS),
    sqlite_service.build_insert_script("t", [{"name": "a;b"}]),  # fails: UNIQUE, after the clear ran
    "INSERT INTO t(name) VALUES ('x'); INSERT INTO nowhere VALUES (1); INSERT INTO t(name) VALUES ('y');",
])
def test_a_clear_and_an_insert_share_one_sqlite3_and_leave_the_same_bytes(device: SimDevice, second: str) -> None:
    scripts = [sqlite_service.build_insert_script("t", [{"name": "a;b"}, {"name": "c"}]), _CLEAR, second]
    outcomes = []
    for apart in (False, True):
        db = _fresh_database(device, f"apart{apart}")
        error, sent = None, []
        try:
            _sent(device, lambda: _set_up(device, db, scripts, apart), sent)
        except CommandFailed as failed:
            error = (failed.result.stdout, failed.result.stderr, failed.result.exit_code)
        outcomes.append((device.pull(db), error, _runs(sent)))
    (joined, joined_error, joined_runs), (alone, alone_error, alone_runs) = outcomes
    assert joined == alone and joined_error == alone_error  # the same file, byte for byte; the same error
    assert (joined_runs, alone_runs) == (1, 3)


def test_a_script_that_changes_its_connection_runs_alone(device: SimDevice) -> None:
    db = _fresh_database(device, "alone")
    insert = sqlite_service.build_insert_script("t", _ROWS)
    assert sqlite_service.joinable(insert) and sqlite_service.joinable(_CLEAR)
    assert not sqlite_service.joinable("DELETE FROM t WHERE name = 'x'")  # incomplete: would run into the next
    for other in ["PRAGMA foreign_keys = ON;", "CREATE TEMP TABLE x(a);", "BEGIN; DELETE FROM t;",
                  "INSERT INTO t(name) VALUES (last_insert_rowid());", "INSERT INTO t(name) VALUES ('Temp');"]:
        assert not sqlite_service.joinable(other)
        assert _sqlite3_runs(device, lambda: _set_up(device, db, [_CLEAR, other, insert], False)) == 3
    # another database, or a command between them: two runs
    other_db = _fresh_database(device, "other")
    assert _sqlite3_runs(device, lambda: _set_up(device, db, [_CLEAR], False) or _set_up(device, other_db, [insert], False)) == 2

    def between() -> None:
        with device.batch():
            device.sqlite.execute(db, _CLEAR)
            device.run("true")
            device.sqlite.execute(db, insert)

    assert _sqlite3_runs(device, between) == 2


# --- the sqlite3 shell's line reader: a closed stretch by one regex, wherever it starts -------
def _quickscan_by_character(line: str, qss: int) -> int:
    """The shell's quickscan() as SQLite's shell.c steps it, one character at a time: the spec."""
    dark, semi, char = sqlite3_cli._QSS_DARK, sqlite3_cli._QSS_SEMI, sqlite3_cli._QSS_CHAR
    wait, i, n = chr(qss & char) if qss & char else "", 0, len(line)
    while True:
        while not wait and i < n:
            c, i = line[i], i + 1
            if c == "-" and line[i:i + 1] == "-":
                return qss
            if c == "/" and line[i:i + 1] == "*":
                wait, i, qss = "*", i + 1, ord("*") | (qss & (dark | semi))
            elif c in "[`'\"":
                wait = "]" if c == "[" else c
                qss = dark | ord(wait)
            elif c == ";":
                qss |= semi
            elif c not in sqlite3_cli._SPACES:
                qss = (qss & ~semi) | dark
        if not wait:
            return qss
        while i < n:
            c, i = line[i], i + 1
            if c == wait == "*" and line[i:i + 1] == "/":
                i += 1
                break
            if c == wait != "*" and (wait == "]" or line[i:i + 1] != wait):
                break
            if c == wait != "*":
                i += 1  # a doubled quote goes on
        else:
            return qss
        wait, qss = "", qss & (dark | semi)


def test_quickscan_answers_as_stepping_one_character_at_a_time() -> None:
    rng = random.Random(6)
    dark, semi = sqlite3_cli._QSS_DARK, sqlite3_cli._QSS_SEMI
    states = [0, dark, semi, dark | semi, *(dark | ord(c) for c in "'\"`]"), *(ord("*") | s for s in (0, dark, semi))]
    for _ in range(30_000):
        line = "".join(rng.choice(" \t-/*;[]`'\"ab\u00e9") for _ in range(rng.randint(0, 14)))
        qss = rng.choice(states)
        assert sqlite3_cli._quickscan(line, qss) == _quickscan_by_character(line, qss), (line, qss)


def test_a_line_whose_last_quote_goes_on_is_read_by_the_regex_up_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[int] = []
    stop = sqlite3_cli._QUICK_STOP

    class CountingStop:
        def search(self, line: str, pos: int = 0):  # type: ignore[no-untyped-def]
            searches.append(pos)
            return stop.search(line, pos)

    monkeypatch.setattr(sqlite3_cli, "_QUICK_STOP", CountingStop())
    values = ", ".join(f"'value {k}; it''s'" for k in range(40))
    qss = sqlite3_cli._quickscan(f"INSERT INTO notes VALUES ({values}, 'a body; going on", 0)
    assert qss & sqlite3_cli._QSS_CHAR == ord("'")
    qss = sqlite3_cli._quickscan(f"to here', {values}, 'and on", qss)
    assert qss & sqlite3_cli._QSS_CHAR == ord("'")
    assert len(searches) == 2  # one per line, at its open quote (before: one per quote, 82 a line)
