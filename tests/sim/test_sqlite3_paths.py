"""The device's `sqlite3` never prints a host path: whatever names a database file (PRAGMA
database_list, pragma_database_list, errors naming a file that cannot be opened or attached) is
the device path, as on a phone."""
from __future__ import annotations

import itertools
import os

import pytest

from taskkit.device.quoting import shell_join
from taskkit.sim.device import SimDevice

DBS = ["/data/local/tmp/q.db", "q.db", "/sdcard/x.db", "file:/data/local/tmp/u.db?mode=rwc",
       "/data/local/tmp/sub/../q.db", "/nonexistent/dir/q.db", "/data/local/tmp", ":memory:", ""]
ATTACHED = ["/data/local/tmp/r.db", "r.db", "/sdcard/Download/s.db", "/nonexistent/r.db",
            "file:/data/local/tmp/r.db?mode=ro", "file:/data/local/tmp/missing.db?mode=ro",
            "/data/local/tmp", "file:///data/local/tmp/v.db"]
STATEMENTS = [
    "PRAGMA database_list;",
    "SELECT * FROM pragma_database_list;",
    "SELECT file FROM pragma_database_list WHERE name = 'main';",
    "SELECT seq, name, file FROM pragma_database_list ORDER BY seq DESC;",
    "ATTACH {attached} AS a;",
    "ATTACH {attached} AS a; ATTACH {attached} AS a;",
    "ATTACH {attached} AS a; PRAGMA database_list;",
    "ATTACH {attached} AS a; SELECT file FROM pragma_database_list;",
    "ATTACH {attached} AS a; CREATE TABLE a.t(x); PRAGMA a.table_list;",
    "VACUUM INTO {attached};",
    "CREATE TABLE IF NOT EXISTS t(x); PRAGMA database_list;",
    ".databases",
    ".dbinfo",
]
MODES = [[], ["-line"], ["-quote"], ["-csv", "-header"], ["-ascii"], ["-separator", "//"]]


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    phone = SimDevice(tmp_path_factory.mktemp("paths") / "device")
    phone.check("mkdir -p /sdcard/Download")
    yield phone
    phone.close()


def _host_names(device: SimDevice) -> set[str]:
    roots = {device.state.root, device.state.fs_root}
    return {str(p) for root in roots for p in (root, os.path.realpath(root))}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("statement", STATEMENTS)
def test_no_sqlite3_output_holds_a_host_path(device, statement, mode) -> None:
    """Every statement in every output mode, on every database and attached name, as an argument
    and on stdin (not a sample: 150 drawn of the 11,232 cases left most of them unrun)."""
    hosts = _host_names(device)
    for db, attached, on_stdin in itertools.product(DBS, ATTACHED, (False, True)):
        sql = statement.format(attached="'" + attached.replace("'", "''") + "'")
        argv = ["sqlite3", *mode, db]
        if on_stdin:
            command = f"cd /data/local/tmp && echo {shell_join([sql])} | {shell_join(argv)}"
        else:
            command = f"cd /data/local/tmp && {shell_join([*argv, sql])}"
        result = device.shell(command)
        output = result.stdout + result.stderr
        for host in hosts:
            assert host not in output, (command, output)


@pytest.mark.parametrize("db, sql, expected", [
    ("/data/local/tmp/q.db", "PRAGMA database_list", "0|main|/data/local/tmp/q.db\n"),
    ("q.db", "PRAGMA database_list", "0|main|/data/local/tmp/q.db\n"),
    ("/data/local/tmp/q.db", "ATTACH 'r.db' AS r; SELECT name, file FROM pragma_database_list",
     "main|/data/local/tmp/q.db\nr|/data/local/tmp/r.db\n"),
    (":memory:", "PRAGMA database_list", "0|main|\n"),
])
def test_database_list_names_device_paths(device, db, sql, expected) -> None:
    result = device.shell(f"cd /data/local/tmp && {shell_join(['sqlite3', db, sql])}")
    assert (result.stdout, result.exit_code) == (expected, 0), result
