"""The simulator's `sqlite3` against Debian's /usr/bin/sqlite3, byte for byte.

Each case builds one database, copies it beside the real binary, runs the same argv (and stdin)
through both, and compares stdout, stderr and the exit code. Where the simulator is Android 13
on purpose (-version, -json) the test says so.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.device.quoting import sql_identifier, sql_literal
from taskkit.sim.commands import Invocation
from taskkit.sim.commands.sqlite3_cli import VERSION, sqlite3_cmd
from taskkit.sim.state import SimState

REAL = "/usr/bin/sqlite3"
DEVICE_DIR = "/data/local/tmp"
Result = tuple[bytes, bytes, int]


@pytest.fixture(autouse=True)
def _real_binary() -> None:
    if not os.path.exists(REAL):
        pytest.skip(f"{REAL} is not installed (apt-get install sqlite3): no reference to compare with")


# --- values -----------------------------------------------------------------------------------
no_nul = st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))
tricky_text = st.one_of(
    st.text(no_nul, max_size=12),
    st.text(st.sampled_from("a'\",\n\r\t |;é😀\x01\x7f-."), max_size=8),
    st.sampled_from(["", " ", "'", "''", '"', ",", "\n", "\r\n", "NULL", "1.5", "-3", "X'00'"]),
)
tricky_float = st.one_of(
    st.sampled_from([0.1, 1e300, -0.0, 0.0, 1e-7, 3.0, -2.5, 1e15, 1e16, 123456789012345678.0,
                     5e-324, 1.7976931348623157e308, float("inf"), float("-inf"), 0.30000000000000004]),
    st.floats(allow_nan=False),
)
tricky_int = st.one_of(
    st.sampled_from([0, -1, 2**63 - 1, -(2**63), 2**53 + 1, 10**18]),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
)
values = st.one_of(st.none(), tricky_int, tricky_float, tricky_text, st.binary(max_size=8))
column_names = st.lists(st.text(no_nul, min_size=1, max_size=6), min_size=1, max_size=4,
                        unique_by=str.lower)
tables = column_names.flatmap(lambda names: st.tuples(
    st.just(names), st.lists(st.tuples(*[values] * len(names)), max_size=4)))
# What -separator / -nullvalue may be given: any argument text (the CLI keeps 19 bytes).
option_text = st.text(no_nul, max_size=22)


# --- running both -----------------------------------------------------------------------------
def write_db(path: Path, names: list[str], rows: list[tuple]) -> None:
    columns = ", ".join(sql_identifier(name) for name in names)
    script = [f"CREATE TABLE t({columns});"]
    script += [f"INSERT INTO t VALUES ({', '.join(sql_literal(v) for v in row)});" for row in rows]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(script))
    conn.close()


def run_sim(root: Path, argv: list[str], stdin: bytes) -> Result:
    inv = Invocation(argv=["sqlite3", *argv], state=SimState(root), stdin=stdin, cwd=DEVICE_DIR)
    code = sqlite3_cmd(inv)
    return bytes(inv.stdout), bytes(inv.stderr), code


def run_real(cwd: Path, argv: list[str], stdin: bytes) -> Result:
    done = subprocess.run(["sqlite3", *argv], executable=REAL, input=stdin, capture_output=True,
                          cwd=cwd, timeout=30)
    return done.stdout, done.stderr, done.returncode


class Pair:
    """A simulated device and a host directory holding the same database, `t.db`."""

    def __init__(self, root: Path):
        self.root = root
        self.device_dir = root / "sim" / "fs" / DEVICE_DIR.strip("/")
        self.real_dir = root / "real"
        self.device_dir.mkdir(parents=True)
        self.real_dir.mkdir()

    def load(self, names: list[str], rows: list[tuple]) -> None:
        write_db(self.real_dir / "t.db", names, rows)
        shutil.copy(self.real_dir / "t.db", self.device_dir / "t.db")

    def load_sql(self, script: str) -> None:
        with sqlite3.connect(self.real_dir / "t.db") as conn:
            conn.executescript(script)
        conn.close()
        shutil.copy(self.real_dir / "t.db", self.device_dir / "t.db")

    def both(self, argv: list[str], stdin: bytes = b"") -> tuple[Result, Result]:
        return run_sim(self.root / "sim", argv, stdin), run_real(self.real_dir, argv, stdin)


@pytest.fixture
def pair(tmp_path: Path) -> Pair:
    return Pair(tmp_path)


def fresh_pair() -> Iterator[Pair]:
    with tempfile.TemporaryDirectory() as tmp:
        yield Pair(Path(tmp))


def assert_same(pair: Pair, argv: list[str], stdin: bytes = b"") -> Result:
    sim, real = pair.both(argv, stdin)
    assert sim == real, f"argv={argv!r} stdin={stdin!r}"
    return sim


# --- output modes: random tables --------------------------------------------------------------
@pytest.mark.parametrize("mode", ["-list", "-quote", "-csv", "-line"])
@settings(max_examples=60, deadline=None)
@given(table=tables, header=st.sampled_from(["-header", "-noheader"]),
       separator=st.none() | option_text, null=st.none() | option_text)
def test_modes_match_the_real_cli(mode: str, table: tuple, header: str, separator: str | None,
                                  null: str | None) -> None:
    names, rows = table
    options = [header, mode]
    if separator is not None:
        options += ["-separator", separator]
    if null is not None:
        options += ["-nullvalue", null]
    for pair in fresh_pair():
        pair.load(names, rows)
        assert_same(pair, [*options, "t.db", "SELECT * FROM t"])


@settings(max_examples=40, deadline=None)
@given(table=tables, mode=st.sampled_from(["list", "quote", "csv", "line", "tabs"]),
       headers=st.sampled_from(["on", "off"]), crlf=st.booleans())
def test_dot_commands_on_stdin_match_the_real_cli(table: tuple, mode: str, headers: str,
                                                   crlf: bool) -> None:
    names, rows = table
    newline = "\r\n" if crlf else "\n"
    script = newline.join([f".mode {mode}", f".headers {headers}", "SELECT *", "  FROM t;",
                           "SELECT count(*) AS n FROM t; SELECT 'a''b' AS q;", ""])
    for pair in fresh_pair():
        pair.load(names, rows)
        assert_same(pair, ["t.db"], script.encode("utf-8"))


def test_floats_use_sqlite_text_conversion(pair: Pair) -> None:
    pair.load(["x"], [(0.1,), (1e300,), (-0.0,), (1e-7,), (3.0,), (float("inf"),)])
    listed = assert_same(pair, ["t.db", "SELECT x FROM t"])[0]
    assert listed == b"0.1\n1.0e+300\n0.0\n1.0e-07\n3.0\nInf\n"
    quote = assert_same(pair, ["-quote", "t.db", "SELECT x FROM t"])[0]
    assert quote.split(b"\n")[:2] == [b"0.10000000000000000555", b"1.0000000000000000047e+300"]


def test_blobs_and_nul_text_are_printed_as_c_strings(pair: Pair) -> None:
    pair.load(["b"], [(b"A\x00B",), (b"\xff\x80",), (b"",)])
    assert assert_same(pair, ["t.db", "SELECT b FROM t"])[0] == b"A\n\xff\x80\n\n"
    assert assert_same(pair, ["-quote", "t.db", "SELECT b FROM t"])[0] == b"X'410042'\nX'ff80'\nX''\n"
    assert assert_same(pair, ["-csv", "t.db", "SELECT b FROM t"])[0] == b'A\n"\xff\x80"\n""\n'
    assert_same(pair, ["t.db", "SELECT CAST(X'41004243' AS TEXT), 'x'"])


# --- schema commands --------------------------------------------------------------------------
SCHEMA = """
CREATE TABLE t(a -- trailing comment
);
CREATE TABLE u(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, "order" INT, [select], `g h`);
CREATE TABLE "we ird"(a);
CREATE TABLE "Äpfel und Birnen"(x);
CREATE INDEX u_name ON u(name);
CREATE VIEW v AS SELECT "order", name AS "x y", 1 AS "1", name AS _ok FROM u;
CREATE TRIGGER tr AFTER INSERT ON u BEGIN INSERT INTO t VALUES (new.name); END;
INSERT INTO u(name) VALUES ('a');
""" + "".join(f"CREATE TABLE table_{i:02d}(x);\n" for i in range(14))


@pytest.mark.parametrize("command", [
    ".tables", ".tables u%", ".tables %E%", ".tables nothing", ".schema", ".schema u",
    ".schema U", ".schema *ird*", ".schema table_0?", ".schema --nosys", ".schema v",
    ".schema nothing", ".schema a b",
    ".schema --bad", ".ta", ".sch u",
])
def test_schema_commands_match_the_real_cli(pair: Pair, command: str) -> None:
    pair.load_sql(SCHEMA)
    assert_same(pair, ["t.db", command])


# --- dot commands and options -----------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["t.db", ".headers on", "SELECT 1 AS a, NULL AS b"],
    ["t.db", ".headers", "SELECT 1"],
    ["t.db", ".headers maybe", "SELECT 1 AS a"],
    ["t.db", ".headers 0x10", "SELECT 1 AS a"],
    ["t.db", ".h off", "SELECT 1 AS a"],
    ["t.db", ".mode", ".mode csv", ".mode", "SELECT 'a b', 2"],
    ["t.db", ".mode q", "SELECT 'x'"],
    ["t.db", ".mode l", "SELECT 1, 2"],
    ["t.db", ".mode tabs", "SELECT 1, 2"],
    ["t.db", ".mode ascii", "SELECT 1, 2"],
    ["t.db", r".separator \t X", "SELECT 1, 2"],
    ["t.db", '.separator "a b" \\n', "SELECT 1, 2"],
    ["t.db", ".separator a b c", "SELECT 1, 2"],
    ["t.db", ".separator"],
    ["t.db", '.nullvalue "a\\tb\\101\\0c"', "SELECT NULL"],
    ["t.db", ".nullvalue N A", "SELECT NULL"],
    ["t.db", ".nullvalue 'x y'", "SELECT NULL"],
    ["t.db", ".quit", "SELECT 1"],
    ["t.db", ".exit 3", "SELECT 1"],
    ["t.db", ".exit 0x10"],
    ["t.db", ".exit abc", "SELECT 1"],
    ["t.db", ".bogus"],
    ["t.db", ""],
    ["t.db", ";;", "-- comment only"],
    ["t.db", " SELECT 1"],
    ["t.db", 'SELECT "zz", "a" FROM t'],
    ["t.db", "SELECT ?, :x, @y, ?5"],
    ["-csv", "-separator", "X", "t.db", "SELECT 'aXb', 'c'"],
    ["-separator", "X", "-csv", "t.db", "SELECT 'aXb', 'c'"],
    ["-quote", "-separator", "X", "t.db", "SELECT 1, 'a'"],
    ["-separator", "X", "-quote", "t.db", "SELECT 1, 'a'"],
    ["-quote", "-newline", "X", "-header", "t.db", "SELECT 1 AS a, 2"],
    ["-newline", "X", "-line", "t.db", "SELECT 1, 'a' UNION ALL SELECT 2, 3"],
    ["-line", "-header", "t.db", "SELECT 1 AS 'é', 2 AS 'a_long_column_name'"],
    ["-ascii", "-header", "t.db", "SELECT 1 AS a, 2 AS b"],
    ["--header", "t.db", "SELECT 1 AS a"],
    ["t.db", "SELECT 1", "-csv", "SELECT 'a b'"],
    ["-cmd", ".mode csv", "-cmd", "SELECT 'c d'", "t.db", "SELECT 1, 2"],
    ["-cmd", "selec", "t.db", "SELECT 1"],
    ["-bail", "-cmd", "selec", "t.db", "SELECT 1"],
    ["-bail", "-cmd", ".quit", "t.db", "SELECT 1"],
    ["-batch", "-bail", "-readonly", "t.db", "SELECT count(*) FROM t"],
    ["-separator", "-readonly", "t.db", "CREATE TABLE x(a)", "SELECT 1, 2"],
    ["-foo", "t.db"],
    ["--foo"],
    ["t.db", "-- x"],
    ["t.db", "-separator"],
    ["t.db", "-cmd"],
])
def test_options_and_dot_commands_match_the_real_cli(pair: Pair, argv: list[str]) -> None:
    pair.load(["a"], [(1,)])
    assert_same(pair, argv)


# --- errors -----------------------------------------------------------------------------------
ERRORS = [
    "SELECT * FROM nope",
    "selec 1",
    "SELECT 1; selec 2",
    "SELECT 1;\n   selec 2",
    "  selec 1",
    "SELECT (1",
    "SELECT 'abc",
    "SELECT 1 FROM t WHERE a = @",
    "SELECT zz FROM t",
    "SELECT t.zz FROM t",
    "SELECT zz, a FROM t AS zz",
    "SELECT a FROM t, t AS t2",
    "UPDATE t SET zz = 1",
    "UPDATE t SET a = zz",
    "CREATE VIEW t AS SELECT 1",
    "SELECT selector selec FROM t",
    "SELECT nofunc(1)",
    "SELECT count(1, 2)",
    "SELECT sum(sum(a)) FROM t",
    "SELECT 1 WHERE 1 = 1 AND 2 = 2 AND 3 = 3 AND 4 = 4 AND 5 = 5 AND 6 = 6 AND 7 = 7 ) AND 8",
    "SELECT '" + "é" * 54 + "' FROM WHERE",
    "INSERT INTO u VALUES (1); INSERT INTO u VALUES (1)",
    "SELECT abs(-9223372036854775808)",
    "CREATE TABLE t(x)",
    "CREATE INDEX i ON t(a); CREATE INDEX i ON t(a)",
]


@pytest.mark.parametrize("sql", ERRORS)
def test_sql_argument_errors_match_the_real_cli(pair: Pair, sql: str) -> None:
    pair.load_sql("CREATE TABLE t(a); CREATE TABLE u(x UNIQUE); INSERT INTO t VALUES (1);")
    out, err, code = assert_same(pair, ["t.db", sql])
    assert code != 0 and err.startswith(b"Error: ")


@pytest.mark.parametrize("sql", ERRORS)
@pytest.mark.parametrize("bail", [[], ["-bail"]])
def test_stdin_errors_match_the_real_cli(pair: Pair, sql: str, bail: list[str]) -> None:
    pair.load_sql("CREATE TABLE t(a); CREATE TABLE u(x UNIQUE); INSERT INTO t VALUES (1);")
    script = f"SELECT 'before';\n\n{sql};\nSELECT 'after';\n"
    out, err, code = assert_same(pair, [*bail, "t.db"], script.encode("utf-8"))
    assert code == 1 and b" near line " in err


@pytest.mark.parametrize("script", [
    ".headers on\nSELECT 1 AS x;\n.mode csv\nSELECT 2 AS y;\n-- c\n.bogus\nSELECT 3;\n",
    "  .headers on\nSELECT 1 AS x;\n",
    "SELECT 1 AS a\n/\nSELECT 2\ngo\n",
    "SELECT hex('a\r\nb');\nSELECT hex('c\rd');\n",
    "#comment\nSELECT 1;\n",
    "SELECT 1;\n.quit\nSELECT 2;\n",
    "SELECT 1;\n.exit 4\nSELECT 2;\n",
    "SELECT 'multi\n.line\n;\n/\ngo';\n",
    "SELECT 1 /* ; */ ; SELECT 2; -- tail\n",
    "CREATE TEMP TABLE x(a);\nCREATE TRIGGER tr AFTER INSERT ON x BEGIN SELECT 1; SELECT 2; END;\n"
    "INSERT INTO x VALUES (1);\n.tables\n",
    "SELECT 'no newline at the end'",
    "SELECT (1",
    "",
])
def test_stdin_scripts_match_the_real_cli(pair: Pair, script: str) -> None:
    pair.load(["a"], [(1,)])
    assert_same(pair, ["t.db"], script.encode("utf-8"))


def test_missing_directory_and_readonly_errors(pair: Pair) -> None:
    out, err, code = assert_same(pair, ["nodir/x.db", "SELECT 1"])
    assert err == b'Error: unable to open database "nodir/x.db": unable to open database file\n'
    assert_same(pair, ["-readonly", "missing.db", "SELECT 1"])
    pair.load(["a"], [(1,)])
    assert assert_same(pair, ["-readonly", "t.db", "INSERT INTO t VALUES (2)"])[2] == 8


def test_a_missing_database_is_created_only_when_used(pair: Pair) -> None:
    assert_same(pair, ["new.db", ".mode csv"])
    assert not (pair.device_dir / "new.db").exists() and not (pair.real_dir / "new.db").exists()
    assert_same(pair, ["new.db", "SELECT 1"])
    assert (pair.device_dir / "new.db").exists() and (pair.real_dir / "new.db").exists()


# --- Android 13 on purpose --------------------------------------------------------------------
@pytest.mark.parametrize("option", ["-json", "-markdown", "-table", "-box", "--json"])
def test_options_newer_than_android_13_are_unknown(pair: Pair, option: str) -> None:
    out, err, code = run_sim(pair.root / "sim", [option, "t.db", "SELECT 1"], b"")
    name = option.lstrip("-")
    assert (out, err, code) == (b"", f"sqlite3: Error: unknown option: -{name}\n"
                                     "Use -help for a list of options.\n".encode(), 1)


@pytest.mark.parametrize("mode", ["json", "box", "--bad"])
def test_modes_newer_than_android_13_are_unknown(pair: Pair, mode: str) -> None:
    out, err, code = run_sim(pair.root / "sim", ["t.db", f".mode {mode}", "SELECT 1"], b"")
    assert (out, err, code) == (b"", b"Error: mode should be one of: "
                                     b"ascii column csv html insert line list quote tabs tcl\n", 1)


def test_version_is_android_13s(pair: Pair) -> None:
    assert run_sim(pair.root / "sim", ["-version"], b"") == ((VERSION + "\n").encode(), b"", 0)
    assert VERSION.startswith("3.32.2 ")


def test_help_lists_only_what_the_simulator_does(pair: Pair) -> None:
    out, err, code = run_sim(pair.root / "sim", ["-help"], b"")
    assert (out, code) == (b"", 1)
    assert err.startswith(b"Usage: sqlite3 [OPTIONS] FILENAME [SQL]\n") and b"-json" not in err


# --- the device clock -------------------------------------------------------------------------
def test_writes_stamp_the_database_and_its_directory_with_the_device_clock(pair: Pair) -> None:
    state = SimState(pair.root / "sim")
    db = pair.device_dir / "t.db"
    run_sim(pair.root / "sim", ["t.db", "CREATE TABLE x(a); INSERT INTO x VALUES (1)"], b"")
    assert db.stat().st_mtime == state.clock_epoch
    assert pair.device_dir.stat().st_mtime == state.clock_epoch
    os.utime(db, (1000, 1000))
    run_sim(pair.root / "sim", ["t.db", "SELECT * FROM x"], b"")
    assert db.stat().st_mtime == 1000  # a read leaves the file alone
