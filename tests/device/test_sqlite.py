"""The Sqlite service: command builders and the quote-mode parser with no device, values through
Debian's real sqlite3 and through the simulator, then the service against `SimDevice`."""
from __future__ import annotations

import math
import os
import shlex
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit.device.base import CommandFailed, ShellResult
from taskkit.device.quoting import SqlValue, sql_identifier, sql_literal
from taskkit.device.services import sqlite as svc
from taskkit.device.services.sqlite import Sqlite, build_query, parse_quote_output
from taskkit.sim.device import SimDevice

REAL = "/usr/bin/sqlite3"
DB = "/data/local/tmp/test.db"

no_nul = st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))
texts = st.one_of(
    st.text(no_nul, max_size=15),
    st.text(st.sampled_from("a'\",\n\r\t |;é😀\x01-.X"), max_size=10),
    st.sampled_from(["", "NULL", "'", "X'00'", "1.5", "-3", "Inf", "\r\n", "\n.tables\n", "#x"]),
)
floats = st.one_of(
    st.sampled_from([0.1, 1e300, -0.0, 1e-7, 3.0, 5e-324, 1.7976931348623157e308, 1e16,
                     123456789012345678.0, float("inf"), float("-inf")]),
    st.floats(allow_nan=False),
)
ints = st.one_of(st.sampled_from([0, 2**63 - 1, -(2**63)]),
                 st.integers(min_value=-(2**63), max_value=2**63 - 1))
values = st.one_of(st.none(), ints, floats, texts, st.binary(max_size=10))
names = st.lists(st.text(no_nul, min_size=1, max_size=8), min_size=1, max_size=4, unique_by=str.lower)
tables = names.flatmap(lambda cols: st.tuples(
    st.just(cols), st.lists(st.tuples(*[values] * len(cols)), max_size=4)))


def exact(rows: list[tuple]) -> list[tuple]:
    """Rows with every value tagged by its type, so 1 and 1.0 (or 0 and False) differ."""
    return [tuple((type(v).__name__, v) for v in row) for row in rows]


def table_script(columns: list[str], rows: list[tuple], table: str = "t") -> str:
    head = f"CREATE TABLE {sql_identifier(table)}({', '.join(sql_identifier(c) for c in columns)});"
    inserts = [f"INSERT INTO {sql_identifier(table)} VALUES ({', '.join(map(sql_literal, row))});"
               for row in rows]
    return "\n".join([head, *inserts])


# --- build_* ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(db=st.text(no_nul, min_size=1, max_size=20), sql=st.text(no_nul, max_size=40))
def test_build_query_passes_db_and_sql_as_single_words(db: str, sql: str) -> None:
    words = shlex.split(build_query(db, sql))
    assert words[:3] == ["sqlite3", "-header", "-quote"] and len(words) == 5
    assert words[3] == ("./" + db if db.startswith("-") else db)
    assert words[4] == (" " + sql if sql[:1] in ("-", ".") else sql)


def test_long_scripts_are_named_by_content_and_keep_crlf() -> None:
    assert svc.script_path("x") == "/data/local/tmp/taskkit-11f6ad8ec52a2984abaafd7c3b516503785c2072.sql"
    assert svc.script_file("a\r\nb\rc\n") == b"a\r\r\nb\rc\n"
    assert shlex.split(svc.build_execute_file("/d b.db", "/data/local/tmp/x.sql")) == [
        "sqlite3", "-bail", "/d b.db", "<", "/data/local/tmp/x.sql", "&&", "rm", "-f", "/data/local/tmp/x.sql",
        "||", "{", "rm", "-f", "/data/local/tmp/x.sql;", "false;", "}"]


def test_insert_script_is_one_transaction_of_literal_values() -> None:
    script = svc.build_insert_script('my "t"', [{"a": 1, "b c": "it's"}, {}, {"a": None}])
    assert script.split("\n") == [
        "BEGIN;",
        'INSERT INTO "my ""t""" ("a", "b c") VALUES (1, \'it\'\'s\');',
        'INSERT INTO "my ""t""" DEFAULT VALUES;',
        'INSERT INTO "my ""t""" ("a") VALUES (NULL);',
        "COMMIT;",
        "",
    ]


# --- parse_quote_output -----------------------------------------------------------------------
def test_parse_reads_every_kind_of_value() -> None:
    text = ("'n','i','r','t','b'\n"
            "NULL,-42,2.5,'a''b, c\nd',X'00ff'\n"
            "NULL,9223372036854775807,-Inf,'',X''\n"
            "1,0,1e999,'''',X'41'\n")
    header, rows = parse_quote_output(text)
    assert header == ["n", "i", "r", "t", "b"]
    assert exact(rows[:2]) == exact([(None, -42, 2.5, "a'b, c\nd", b"\x00\xff"),
                                     (None, 2**63 - 1, -math.inf, "", b"")])
    assert rows[2][2] == math.inf and rows[2][3] == "'" and rows[2][4] == b"A"


def test_parse_of_no_output_is_empty() -> None:
    assert parse_quote_output("") == ([], [])


@pytest.mark.parametrize("text", ["'unterminated\n", "'a'\n1,,2\n", "'a'\nX'00\n", "'a'\nnope\n",
                                  "1\n2\n", "'a'x\n"])
def test_parse_rejects_what_sqlite3_never_prints(text: str) -> None:
    with pytest.raises(ValueError):
        parse_quote_output(text)


@pytest.fixture(scope="module")
def real_cli() -> str:
    if not os.path.exists(REAL):
        pytest.skip(f"{REAL} is not installed (apt-get install sqlite3): no real CLI to read")
    return REAL


@settings(max_examples=60, deadline=None)
@given(table=tables)
def test_values_round_trip_through_the_real_cli(real_cli: str, table: tuple) -> None:
    columns, rows = table
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "t.db")
        with sqlite3.connect(db) as conn:
            conn.executescript(table_script(columns, rows))
        conn.close()
        words = shlex.split(build_query(db, "SELECT * FROM t"))
        out = subprocess.run(words, executable=real_cli, capture_output=True, check=True).stdout
    header, parsed = parse_quote_output(out.decode("utf-8"))
    assert (header, exact(parsed)) == ((columns, exact(rows)) if rows else ([], []))


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimDevice]:
    sim = sim_device(tmp_path_factory.mktemp("sqlite") / "device")
    yield sim
    sim.close()


@settings(max_examples=60, deadline=None)
@given(table=tables)
def test_values_round_trip_through_the_simulator(device: SimDevice, table: tuple) -> None:
    columns, rows = table
    device.sqlite.execute(DB, "DROP TABLE IF EXISTS t;\n" + table_script(columns, rows))
    result = device.shell(build_query(DB, "SELECT * FROM t"))
    assert result.exit_code == 0 and result.stderr == ""
    header, parsed = parse_quote_output(result.stdout)
    assert (header, exact(parsed)) == ((columns, exact(rows)) if rows else ([], []))


# --- the service on the simulator -------------------------------------------------------------
TRICKY: list[dict[str, SqlValue]] = [
    {"id": 1, "text": "it's \"quoted\", with commas,\nnewlines\r\nand CR-LF", "num": 0.1,
     "raw": b"\x00\xff'"},
    {"id": 2, "text": "'); DROP TABLE t; --", "num": -0.0, "raw": b""},
    {"id": 3, "text": "$(reboot) `id` ; | & > /sdcard/x", "num": 1e300, "raw": None},
    {"id": 4, "text": "é😀 unicode \x01\x7f", "num": 3.0, "raw": b"X'00'"},
    {"id": 5, "text": "\n.tables\n#not a comment\ngo\n/\n", "num": float("-inf"), "raw": b"\n"},
    {"id": 6, "text": "", "num": None, "raw": b"-"},
]


@pytest.fixture
def fresh(device: SimDevice) -> SimDevice:
    device.sqlite.execute(DB, 'DROP TABLE IF EXISTS t; DROP TABLE IF EXISTS "odd ""name"; '
                              "CREATE TABLE t(id INTEGER PRIMARY KEY, text TEXT, num REAL, raw BLOB);")
    device.flush()
    device.stats.reset()
    return device


def test_insert_rows_then_query_returns_the_same_values(fresh: SimDevice) -> None:
    with fresh.batch():
        fresh.sqlite.insert_rows(DB, "t", TRICKY)
        assert fresh.stats.round_trips == 0  # held back: it travels with the query
        rows = fresh.sqlite.query(DB, "SELECT * FROM t ORDER BY id")
    assert fresh.stats.round_trips == 1
    assert [exact([tuple(r.values())]) for r in rows] == [exact([tuple(r.values())]) for r in TRICKY]
    assert list(rows[0]) == ["id", "text", "num", "raw"]


def test_injected_sql_is_stored_as_text(fresh: SimDevice) -> None:
    canary = "'); DROP TABLE t; --"
    fresh.sqlite.insert_rows(DB, "t", [{"id": 1, "text": canary}])
    fresh.sqlite.execute(DB, f"UPDATE t SET num = 1 WHERE text = {sql_literal(canary)}")
    assert fresh.sqlite.query(DB, "SELECT text, num FROM t") == [{"text": canary, "num": 1.0}]
    assert "t" in fresh.sqlite.tables(DB)


def test_odd_table_and_column_names(fresh: SimDevice) -> None:
    table, columns = 'odd "name', ["a b", "it's", 'q"q', "-x", "é"]
    fresh.sqlite.execute(DB, f"CREATE TABLE {sql_identifier(table)}"
                             f"({', '.join(sql_identifier(c) for c in columns)})")
    fresh.sqlite.insert_rows(DB, table, [dict(zip(columns, [1, "2", 3.5, None, b"5"]))])
    assert fresh.sqlite.tables(DB) == sorted(["t", table])
    assert fresh.sqlite.columns(DB, table) == columns
    assert fresh.sqlite.query(DB, f"SELECT * FROM {sql_identifier(table)}") == [
        dict(zip(columns, [1, "2", 3.5, None, b"5"]))]
    assert fresh.sqlite.columns(DB, "no such table") == []


def test_empty_results_and_leading_comments(fresh: SimDevice) -> None:
    assert fresh.sqlite.query(DB, "SELECT * FROM t") == []
    assert fresh.sqlite.query(DB, "-- a comment first\nSELECT 1 AS one") == [{"one": 1}]
    fresh.sqlite.insert_rows(DB, "t", [])
    assert fresh.stats.round_trips == 2


def test_errors_raise_command_failed_with_sqlites_message(fresh: SimDevice) -> None:
    with pytest.raises(CommandFailed, match="no such table: nope"):
        fresh.sqlite.query(DB, "SELECT * FROM nope")
    with pytest.raises(CommandFailed, match="syntax error"):
        fresh.sqlite.execute(DB, "INSERT INTO t(id) VALUES (1); selec 2")
    with fresh.batch():
        fresh.sqlite.insert_rows(DB, "t", [{"id": 1}, {"id": 1}])
        with pytest.raises(CommandFailed, match="UNIQUE constraint failed") as raised:
            fresh.sqlite.query(DB, "SELECT 1 AS one")  # the held-back insert fails first
        assert "INSERT" in raised.value.command and "SELECT 1" not in raised.value.command
    assert fresh.sqlite.query(DB, "SELECT count(*) AS n FROM t") == [{"n": 1}]  # before the error
    with pytest.raises(ValueError, match="one statement"):
        fresh.sqlite.query(DB, "SELECT 1 AS a; SELECT 2 AS b, 3 AS c")


def long_rows(count: int) -> list[dict[str, SqlValue]]:
    return [{"id": i, "text": f"row {i}\r\n.line\n#{'x' * 300}", "num": i / 7, "raw": bytes([i % 256])}
            for i in range(count)]


def recording(device: SimDevice) -> list[str]:
    """Record every command `device` runs."""
    commands: list[str] = []
    real_shell = device._shell

    def shell(command: str) -> ShellResult:
        commands.append(command)
        return real_shell(command)

    device._shell = shell  # type: ignore[method-assign]
    return commands


def test_long_scripts_go_through_a_pushed_file(fresh: SimDevice) -> None:
    rows = long_rows(300)
    assert len(svc.build_insert_script("t", rows).encode()) > svc.LONG_SCRIPT
    commands = recording(fresh)
    try:
        fresh.sqlite.insert_rows(DB, "t", rows)
        assert fresh.stats.round_trips == 2
        assert max(len(c) for c in commands) < 1000 and len(commands) == 1
        assert fresh.shell("ls /data/local/tmp").stdout.count("taskkit-") == 0
        got = fresh.sqlite.query(DB, "SELECT * FROM t ORDER BY id")
        assert [exact([tuple(r.values())]) for r in got] == [exact([tuple(r.values())]) for r in rows]
    finally:
        del fresh._shell


def test_long_script_errors_raise_and_leave_no_file(fresh: SimDevice) -> None:
    script = svc.build_insert_script("t", long_rows(300))
    script = script.replace("COMMIT;", "INSERT INTO nope VALUES (1);\nCOMMIT;")
    with pytest.raises(CommandFailed, match="no such table: nope"):
        fresh.sqlite.execute(DB, script)
    assert fresh.sqlite.query(DB, "SELECT count(*) AS n FROM t") == [{"n": 0}]  # rolled back
    assert fresh.shell("ls /data/local/tmp").stdout.count("taskkit-") == 0


def test_execute_long_path_pushes_the_script_then_runs_it_for_effect() -> None:
    device = mock.Mock()
    Sqlite(device).execute(DB, "SELECT 1;\n" * 10000)
    data, path = device.push.call_args.args
    assert path == svc.script_path("SELECT 1;\n" * 10000) and data == ("SELECT 1;\n" * 10000).encode()
    device.run.assert_called_once_with(svc.build_execute_file(DB, path))
    device.check.assert_not_called()


def test_pull_copies_the_write_ahead_log_so_recent_rows_survive(sim_device, tmp_path) -> None:
    """A WAL-mode database whose last rows live only in -wal: the pulled copy still has them."""
    import sqlite3

    source = tmp_path / "live"
    source.mkdir()
    conn = sqlite3.connect(source / "notes.db")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE n(id INTEGER PRIMARY KEY, body TEXT)")
    conn.executemany("INSERT INTO n(body) VALUES (?)", [("it's",), ("line\nbreak",), ("🙂",)])
    conn.commit()  # committed to the -wal file, not yet checkpointed into notes.db
    device_dir = "/data/data/com.example.notes/databases"
    for name in ("notes.db", "notes.db-wal", "notes.db-shm"):
        sim_device.push((source / name).read_bytes(), f"{device_dir}/{name}")
    conn.close()

    main_only = tmp_path / "main-only"
    main_only.mkdir()
    (main_only / "notes.db").write_bytes(sim_device.pull(f"{device_dir}/notes.db"))
    assert sqlite3.connect(main_only / "notes.db").execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)

    copy = sim_device.sqlite.pull(f"{device_dir}/notes.db", tmp_path / "pulled")
    rows = sqlite3.connect(copy).execute("SELECT body FROM n ORDER BY id").fetchall()
    assert rows == [("it's",), ("line\nbreak",), ("🙂",)]
    with pytest.raises(FileNotFoundError):
        sim_device.sqlite.pull("/data/data/none/databases/x.db", tmp_path / "none")
