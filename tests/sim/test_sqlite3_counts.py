"""What one run of the device's `sqlite3` costs, counted: prepares per statement, tokenized
statements, writes of its output, connections opened, and the same bytes as before (or as the
real CLI) where a shortcut is taken."""
from __future__ import annotations

import os
import sqlite3
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.sim import limits, sqlite_sandbox
from taskkit.sim.commands import Invocation
from taskkit.sim.commands import sqlite3_cli
from taskkit.sim.state import SimState
from tests.sim.test_sqlite3_cli import Pair, assert_same

DB = "/data/local/tmp/t.db"


@pytest.fixture
def state(tmp_path: Path) -> SimState:
    (tmp_path / "fs" / "data" / "local" / "tmp").mkdir(parents=True)
    return SimState(tmp_path)


def run(state: SimState, *argv: str) -> Invocation:
    inv = Invocation(argv=["sqlite3", *argv], state=state, cwd="/")
    assert sqlite3_cli.sqlite3_cmd(inv) == 0, bytes(inv.stderr)
    return inv


def series(first: int, last: int) -> str:
    """SQL inserting first..last into t."""
    return (f"WITH RECURSIVE c(v) AS (SELECT {first} UNION ALL SELECT v + 1 FROM c WHERE v < {last}) "
            "INSERT INTO t SELECT v FROM c;")


def test_each_statement_is_prepared_once(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    prepared: list[str] = []
    make = sqlite_sandbox.authorizer

    def counting(*args, **kwargs):
        authorize = make(*args, **kwargs)

        def counted(action, arg1, arg2, db, trigger):
            if action == sqlite3.SQLITE_INSERT:
                prepared.append(arg1)
            return authorize(action, arg1, arg2, db, trigger)
        return counted

    monkeypatch.setattr(sqlite_sandbox, "authorizer", counting)
    run(state, DB, "CREATE TABLE t(x);" + "".join(f" INSERT INTO t VALUES ({i});" for i in range(5)))
    assert prepared.count("t") == 5  # (10 when each was prepared, then prepared again to run)
    assert run(state, DB, "SELECT count(*) FROM t").stdout == b"5\n"


@pytest.mark.parametrize("sql", [
    "SELECT * FROM x; DROP TABLE x; SELECT * FROM x;",  # the cached statement fails at its step
    "INSERT INTO u VALUES (1); INSERT INTO u VALUES (1);",
    "SELECT abs(-9223372036854775808);",
    "CREATE TABLE IF NOT EXISTS y(a); DROP TABLE y; SELECT a FROM y;",
])
def test_prepare_and_stepping_errors_are_told_apart_as_by_the_real_cli(tmp_path: Path, sql: str) -> None:
    pair = Pair(tmp_path)
    pair.load_sql("CREATE TABLE x(a); CREATE TABLE u(v UNIQUE); INSERT INTO x VALUES (1);")
    out, err, code = assert_same(pair, ["t.db", sql])
    assert code != 0 and err.startswith(b"Error: ")
    assert_same(pair, ["t.db"], sql.replace("; ", ";\n").encode("utf-8"))


def test_only_attach_and_vacuum_statements_are_tokenized(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Besides the look at an argument's first statement that tells whether it only reads.)"""
    tokenized: list[str] = []
    tokens = sqlite3_cli._tokens
    monkeypatch.setattr(sqlite3_cli, "_tokens", lambda sql, pos=0: tokenized.append(sql[pos:]) or tokens(sql, pos))
    script = "CREATE TABLE t(x);" + " INSERT INTO t VALUES ('attach?');" * 3
    run(state, DB, script)
    assert tokenized == [script] + ["INSERT INTO t VALUES ('attach?');"] * 3  # (a word of it, in any case)
    tokenized.clear()
    run(state, DB, "CREATE TABLE u(x); INSERT INTO u VALUES (2); SELECT 1;")
    assert tokenized == ["CREATE TABLE u(x); INSERT INTO u VALUES (2); SELECT 1;"]
    tokenized.clear()
    run(state, DB, "ATTACH 'other.db' AS o; CREATE TABLE o.v(y); DETACH o;")
    assert tokenized == ["ATTACH 'other.db' AS o; CREATE TABLE o.v(y); DETACH o;", "ATTACH 'other.db' AS o;"]
    assert (state.fs_root / "other.db").exists()  # (the device path was rewritten: the cwd is /)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=8), st.sampled_from(["attach", "ATTACH", "aTtAcH", "vacuum", "Vacuum"]), st.text(max_size=8))
def test_a_words_upper_case_is_found_in_the_statements(before: str, word: str, after: str) -> None:
    """What lets `_attach_on_device` skip statements: str.upper maps character by character, so a
    keyword the tokenizer would find (its token's upper case) is in the statement's upper case."""
    assert word.upper() in (before + " " + word + " " + after).upper()


def test_rows_are_written_once_per_statement(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[int] = []
    out = Invocation.out
    monkeypatch.setattr(Invocation, "out", lambda self, data: writes.append(len(data)) or out(self, data))
    run(state, DB, "CREATE TABLE t(x); " + series(1, 50))
    writes.clear()
    inv = run(state, "-header", "-quote", DB, "SELECT x, x * 0.5, 'a' || x FROM t; SELECT 1;")
    assert len(writes) == 2  # (one a row before)
    assert bytes(inv.stdout).splitlines()[:3] == [b"'x','x * 0.5','''a'' || x'", b"1,0.5,'a1'", b"2,1.0,'a2'"]
    assert len(bytes(inv.stdout).splitlines()) == 53


@pytest.mark.parametrize("limit", [0, 7, 8, 30, 31, 32, 60])
def test_the_output_limit_stops_at_the_same_row(state: SimState, monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Each row is `NNN\\n` (4 bytes) after `SELECT 'start'` (6): the output fails at the first row
    that takes it past the limit, holding that row and nothing after it, as row-by-row writes did."""
    run(state, DB, "CREATE TABLE t(x); " + series(100, 120))
    monkeypatch.setattr(limits, "MAX_SIZE", limit)
    inv = Invocation(argv=["sqlite3", DB, "SELECT 'start'; SELECT x FROM t;"], state=state, cwd="/")
    with pytest.raises(limits.LimitExceeded):
        sqlite3_cli.sqlite3_cmd(inv)
    expected = b"start\n" + b"".join(b"%d\n" % x for x in range(100, 121))
    shown = 6 if limit < 6 else 6 + 4 * ((limit - 6) // 4 + 1)
    assert bytes(inv.stdout) == expected[:shown]


def test_reals_need_no_connection_of_their_own(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    connect = sqlite_sandbox.connect
    monkeypatch.setattr(sqlite_sandbox, "connect", lambda st, name, **kw: opened.append(os.fspath(name)) or connect(st, name, **kw))
    for mode in ("-quote", "-list", "-csv", "-line"):
        run(state, mode, ":memory:", "SELECT 0.1, -0.0, 1e300, 3.0, 1e-7")
    assert opened == [":memory:"] * 4  # (each opened a second one for its REALs)


@settings(max_examples=150, deadline=None)
@given(st.floats(allow_nan=False))
def test_kept_real_texts_are_sqlites(value: float) -> None:
    fresh = sqlite3.connect(":memory:")
    try:
        for fmt, sql in (("text", "SELECT CAST(? AS TEXT)"), ("quote", "SELECT printf('%!.20g', ?)")):
            (text,) = fresh.execute(sql, (value,)).fetchone()
            assert sqlite3_cli._real_text(fmt, value) == text.encode("utf-8")
            other = struct.unpack("d", struct.pack("d", -value))[0]  # (0.0 and -0.0 share a key)
            assert sqlite3_cli._real_text(fmt, other) == fresh.execute(sql, (other,)).fetchone()[0].encode("utf-8")
    finally:
        fresh.close()


ROOTS = ("/host/state/fs", "/real/state/fs")
pieces = st.lists(st.sampled_from([b"/host/state/fs", b"/real/state/fs/x", b"\0", b"/host", b"a", b"/", b"\xff"]),
                  max_size=4).map(b"".join)
values = st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), pieces, pieces.map(sqlite3_cli._Text))


@settings(max_examples=150, deadline=None)
@given(st.lists(values, max_size=5))
def test_a_rows_host_paths_are_replaced_as_value_by_value(row: list) -> None:
    paths = sqlite3_cli._DevicePaths(Path(ROOTS[0]), ROOTS[1])
    paths.add(Path(ROOTS[0] + "/x"), "/x.db")
    fixed = paths.row(tuple(row))
    expected = tuple(paths._value(value) for value in row)
    assert fixed == expected
    assert [type(value) for value in fixed] == [type(value) for value in expected]


# --- host paths -------------------------------------------------------------------------------
def test_a_host_path_is_parsed_once_and_still_looked_up_every_time(state: SimState) -> None:
    """The Path object is kept by its text; the lookup that yields the text is not: a folder
    replaced by a link behind its back is followed at the next call."""
    folder = state.fs_root / "data" / "local" / "tmp"
    first = state.host_path("/data/local/tmp/x/t.db")
    assert first == folder / "x" / "t.db"
    assert state.host_path("x/t.db", "/data/local/tmp") is first  # (another Path each time before)
    (folder / "y").mkdir()
    (folder / "x").symlink_to("/data/local/tmp/y")  # a device path: it lands in y
    assert state.host_path("/data/local/tmp/x/t.db") == folder / "y" / "t.db"
    (folder / "x").unlink()
    (folder / "x").mkdir()
    assert state.host_path("/data/local/tmp/x/t.db") is first


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["", "sdcard", "storage", "self", "primary", "emulated", "0", "mnt",
                                 "sdcard0", "storagex", "data", "media"]), max_size=5))
def test_shared_storage_aliases_map_as_the_full_scan(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    expected = path
    for alias in ("/sdcard", "/storage/self/primary", "/mnt/sdcard", "/storage/emulated/0"):
        if path == alias or path.startswith(alias + "/"):
            expected = "/data/media/0" + path[len(alias):]
            break
    assert SimState.canonical(path) == expected


# --- reads over the kept query-only connection --------------------------------------------------
READS = [
    ["-header", "-quote", DB, "SELECT * FROM t ORDER BY rowid"],
    ["-line", DB, "SELECT x FROM t ORDER BY x COLLATE LOCALIZED; SELECT count(*) AS n FROM t"],
    ["-csv", "-header", DB, "SELECT typeof(x), x FROM t WHERE x IS NOT NULL ORDER BY 1, 2"],
    ["-separator", "~", "-nullvalue", "N", DB, "SELECT x, changes(), total_changes(), last_insert_rowid() FROM t"],
    ["-cmd", ".mode csv", "-cmd", ".headers on", DB, "SELECT * FROM t", "SELECT 1 AS one"],
]


def fill(state: SimState) -> None:
    run(state, DB, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2.5), ('b'), ('A'), (NULL), (x'00ff'), ('a');")


def counted_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    open_ = sqlite_sandbox._open
    monkeypatch.setattr(sqlite_sandbox, "_open", lambda st, text, *rest: opened.append(text) or open_(st, text, *rest))
    return opened


def fresh(state: SimState, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    with monkeypatch.context() as patch:
        patch.setattr(sqlite3_cli._Shell, "read_kept", lambda self, commands: False)
        inv = Invocation(argv=["sqlite3", *argv], state=state, cwd="/")
        sqlite3_cli.sqlite3_cmd(inv)
    return bytes(inv.stdout), bytes(inv.stderr)


def test_reads_open_no_connection_and_print_the_same(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(state)
    opened = counted_opens(monkeypatch)
    for argv in READS * 2:
        assert (bytes(run(state, *argv).stdout), b"") == fresh(state, argv, monkeypatch)
    host = str(state.host_path(DB))
    assert opened.count(host) == 1 + len(READS) * 2  # the kept one, then one per fresh run
    conn = sqlite_sandbox.reader(state, host)  # as the GUI's reads find it
    assert conn.execute("SELECT x FROM t WHERE x = 'b'").fetchone() == ("b",)
    assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    with pytest.raises(sqlite3.OperationalError, match="no such collation sequence: LOCALIZED"):
        conn.execute("SELECT x FROM t ORDER BY x COLLATE LOCALIZED")


def test_sql_run_by_cmd_first_keeps_its_own_connection(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(state)
    opened = counted_opens(monkeypatch)
    inv = run(state, "-cmd", "CREATE TEMP TABLE z AS SELECT 5 AS v", DB, "SELECT v FROM z")
    assert bytes(inv.stdout) == b"5\n"
    assert opened == [str(state.host_path(DB))]  # (the temp table lives on that connection alone)


@pytest.mark.parametrize("sql, reads", [
    ("SELECT 1", True), ("select 1; SeLeCt 2;", True), ("-- c\nSELECT 1; /* d */", True),
    ("SELECT 1; INSERT INTO t VALUES (1)", False), ("WITH c AS (SELECT 1) SELECT * FROM c", False),
    ("SELECT * FROM pragma_query_only", False), ("SELECT * FROM \"Pragma_Max_Page_Count\"", False),
    (".tables", False), ("PRAGMA user_version", False), ("  SELECT 1; DELETE FROM t", False),
])
def test_what_counts_as_only_reading(sql: str, reads: bool) -> None:
    assert sqlite3_cli._only_reads(sql) is reads


def test_writes_through_the_cli_and_behind_its_back_are_seen(state: SimState) -> None:
    fill(state)
    host = state.host_path(DB)
    older = host.read_bytes()
    query = ["-quote", DB, "SELECT count(*), max(rowid) FROM t"]
    assert bytes(run(state, *query).stdout) == b"7,7\n"
    run(state, DB, "INSERT INTO t VALUES (8)")
    assert bytes(run(state, *query).stdout) == b"8,8\n"
    host.write_bytes(older)  # a restore writing the older bytes back
    assert bytes(run(state, *query).stdout) == b"7,7\n"


@pytest.mark.parametrize("sql", ["SELECT 1; SELECT * FROM missing", "SELECT x FROM t; SELECT abs(-9223372036854775808)"])
def test_a_failed_read_is_taken_back_and_run_as_before(state: SimState, monkeypatch: pytest.MonkeyPatch, sql: str) -> None:
    fill(state)
    host = str(state.host_path(DB))
    kept = sqlite_sandbox.reader(state, host)
    opened = counted_opens(monkeypatch)
    inv = Invocation(argv=["sqlite3", DB, sql], state=state, stdout=bytearray(b"earlier\n"), cwd="/")
    assert sqlite3_cli.sqlite3_cmd(inv) == 1
    shown = fresh(state, [DB, sql], monkeypatch)
    assert (bytes(inv.stdout), bytes(inv.stderr)) == (b"earlier\n" + shown[0], shown[1])
    assert opened.count(host) == 2  # its own connection, then the fresh run's: the kept one was dropped
    assert sqlite_sandbox.reader(state, host) is not kept


def test_a_wal_database_is_read_on_a_connection_of_its_own(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(state)
    run(state, DB, "PRAGMA journal_mode = WAL")
    host = str(state.host_path(DB))
    opened = counted_opens(monkeypatch)
    assert bytes(run(state, DB, "SELECT count(*) FROM t").stdout) == b"7\n"
    assert opened == [host]  # (no kept one)
    assert not os.path.exists(host + "-wal")  # its close checkpointed and removed the WAL, as before


@pytest.mark.parametrize("make", ["folder", "fifo", "empty", "text", "rollback header only"])
def test_files_that_are_no_database_answer_as_before(state: SimState, monkeypatch: pytest.MonkeyPatch, make: str) -> None:
    path = state.fs_root / "data" / "local" / "tmp" / "odd.db"
    if make == "folder":
        path.mkdir()
    elif make == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes({"empty": b"", "text": b"not a database at all" * 10,
                          "rollback header only": b"SQLite format 3\0" + b"\x10\0\1\1" + b"\0" * 80}[make])
    argv = ["-quote", "/data/local/tmp/odd.db", "SELECT 1; SELECT count(*) FROM sqlite_master"]
    inv = Invocation(argv=["sqlite3", *argv], state=state, cwd="/")
    code = sqlite3_cli.sqlite3_cmd(inv)
    assert (bytes(inv.stdout), bytes(inv.stderr)) == fresh(state, argv, monkeypatch)
    assert code == (0 if make == "empty" else 1)
