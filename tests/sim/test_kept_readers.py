"""The simulator's own reads keep their SQLite connection (sqlite_sandbox.reading): one open per
thread and file, never stale: writes made through other connections are seen, a file removed
and made again (a new inode, as `pm clear` does) gets a new connection, and each read of a kept
connection still tells the GUI cache what it read (its audit event)."""
from __future__ import annotations

import sqlite3
import sys
import threading

import pytest

from taskkit.connect import sim_device
from taskkit.sim import sqlite_sandbox

DB = "/data/data/com.example/databases/kept.db"


@pytest.fixture
def device():
    phone = sim_device()
    yield phone
    phone.close()


def _events() -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    names = ("sqlite3.connect", sqlite_sandbox.READ_EVENT)
    mine = threading.get_ident()
    sys.addaudithook(lambda event, args: seen.append((event, str(args[0])))
                     if event in names and threading.get_ident() == mine and seen is not None else None)
    return seen


def _read(state, path) -> list[int]:
    with sqlite_sandbox.reading(state, path) as conn:
        return [row[0] for row in conn.execute("SELECT n FROM t ORDER BY n")]


def test_a_kept_reader_opens_once_and_sees_every_later_write_and_a_new_file(device) -> None:
    device.check(f"mkdir -p {DB.rsplit('/', 1)[0]} && sqlite3 {DB} 'CREATE TABLE t (n INT); INSERT INTO t VALUES (1)'")
    state, path = device.state, device.state.host_path(DB)
    seen = _events()
    assert _read(state, path) == [1]
    device.check(f"sqlite3 {DB} 'INSERT INTO t VALUES (2)'")  # another connection's write
    start = len(seen)
    assert _read(state, path) == [1, 2]
    assert seen[start:] == [(sqlite_sandbox.READ_EVENT, str(path))]  # kept: no connect, but the read is told
    device.check(f"rm {DB} && sqlite3 {DB} 'CREATE TABLE t (n INT); INSERT INTO t VALUES (7)'")  # made again
    start = len(seen)
    assert _read(state, path) == [7]
    assert [event for event, _ in seen[start:]].count("sqlite3.connect") >= 1  # a new connection
    device.check(f"rm {DB}")
    with pytest.raises(sqlite3.OperationalError):
        _read(state, path)


def test_a_reader_ends_with_no_transaction_and_the_kept_ones_are_bounded(device) -> None:
    state = device.state
    paths = []
    for i in range(sqlite_sandbox.MAX_KEPT_READERS + 3):
        name = f"/data/local/tmp/r{i}.db"
        device.check(f"sqlite3 {name} 'CREATE TABLE t (n INT); INSERT INTO t VALUES ({i})'")
        paths.append(state.host_path(name))
    for i, path in enumerate(paths):
        with sqlite_sandbox.reading(state, path) as conn:
            conn.execute("BEGIN")
            assert conn.execute("SELECT n FROM t").fetchone() == (i,)
        assert not conn.in_transaction
    assert len(sqlite_sandbox._kept()) == sqlite_sandbox.MAX_KEPT_READERS
