"""A step's work, counted (issue #37 item 2): what the GUI keeps across commands (kept SQLite
readers, parsed dumps) and that what it answers from them is always what fresh work gives."""
from __future__ import annotations

import gc
import json
import os
import shutil
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from taskkit.device.services import ui
from taskkit.sim import sqlite_sandbox, writeback
from taskkit.sim.gui import store
from taskkit.sim.state import SETTINGS_DB, SimState


@pytest.fixture
def state(tmp_path: Path) -> SimState:
    sim = SimState(tmp_path / "device")
    (sim.fs_root / "data").mkdir(parents=True)
    return sim


def recorded(event: str) -> Iterator[list[str]]:
    """The first argument of every `event` audit event while the test runs (a hook stays for the
    process: it records only until the test ends)."""
    seen: list[str] = []
    active = [True]
    sys.addaudithook(lambda name, args: seen.append(str(args[0])) if active[0] and name == event else None)
    yield seen
    active[0] = False


@pytest.fixture
def connects() -> Iterator[list[str]]:
    """The databases opened while the test runs (sqlite3.connect events)."""
    yield from recorded("sqlite3.connect")


def _database(state: SimState, *names: str) -> Path:
    """data/app.db with table t holding `names`."""
    host = state.fs_root / "data" / "app.db"
    _insert(state, host, *names)
    return host


def _insert(state: SimState, host: Path, *names: str) -> None:
    conn = sqlite_sandbox.connect(state, host)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS t (name TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [(name,) for name in names])
        conn.commit()
    finally:
        conn.close()


def _kept_rows(state: SimState, host: Path) -> list[str]:
    return [name for (name,) in sqlite_sandbox.reader(state, host).execute("SELECT name FROM t ORDER BY rowid")]


def _fresh_rows(state: SimState, host: Path) -> list[str]:
    conn = sqlite_sandbox.connect(state, host)
    try:
        return [name for (name,) in conn.execute("SELECT name FROM t ORDER BY rowid")]
    finally:
        conn.close()


def _counter(host: Path) -> bytes:
    return host.read_bytes()[24:28]  # SQLite's file change counter


def test_a_kept_reader_is_opened_once_for_many_reads(state: SimState, connects: list[str]) -> None:
    host = _database(state, "a")
    connects.clear()
    for _ in range(5):
        assert _kept_rows(state, host) == ["a"]
    assert connects == [str(host)]


def test_a_kept_reader_sees_every_write_of_another_connection(state: SimState) -> None:
    host = _database(state, "a")
    for name in ("b", "c"):
        assert _kept_rows(state, host) == _fresh_rows(state, host)
        _insert(state, host, name)
    assert _kept_rows(state, host) == _fresh_rows(state, host) == ["a", "b", "c"]


@pytest.mark.parametrize("stat_checked", [True, False], ids=["as-is", "hook-alone"])
def test_older_bytes_written_back_are_never_read_from_a_kept_page_cache(state: SimState, stat_checked: bool,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A restore writes a database's older bytes back (with their old times): its change counter
    goes back too, and a write after it brings the counter to the value the kept connection saw,
    with other rows (ExpenseDeleteDuplicates' second instance read the first one's rows)."""
    if not stat_checked:  # what a stat cannot tell apart (a restore within one kernel clock tick)
        monkeypatch.setattr(sqlite_sandbox, "_stat", lambda path: ())
    host = _database(state, "a")
    older, times = host.read_bytes(), os.stat(host)
    _insert(state, host, "first")
    assert _kept_rows(state, host) == ["a", "first"]
    seen = _counter(host)
    host.write_bytes(older)  # the restore
    os.utime(host, ns=(times.st_atime_ns, times.st_mtime_ns))
    _insert(state, host, "second")
    assert _counter(host) == seen  # the same counter, other rows
    assert _kept_rows(state, host) == _fresh_rows(state, host) == ["a", "second"]


def _write_back(host: Path, older: bytes, way: str) -> None:
    """Put `older` bytes back at `host` (or a new database with as many commits), one way or another."""
    if way == "link":
        link = host.with_name("link.db")
        link.symlink_to(host)
        link.write_bytes(older)
    elif way == "replace":
        (spare := host.with_name("spare")).write_bytes(older)
        os.replace(spare, host)
    elif way == "truncate":
        with open(host, "r+b") as file:
            file.write(older)
        os.truncate(host, len(older))
    elif way == "pm-clear":  # the app's folder goes, and its first run makes the database again
        shutil.rmtree(host.parent)
        host.parent.mkdir()
        host.write_bytes(older)
    else:
        raise AssertionError(way)


@pytest.mark.parametrize("way", ["link", "replace", "truncate", "pm-clear"])
def test_every_way_of_writing_older_bytes_back_drops_a_kept_connection(state: SimState, way: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_sandbox, "_stat", lambda path: ())  # the hook alone
    host = _database(state, "a")
    older = host.read_bytes()
    _insert(state, host, "first")
    assert _kept_rows(state, host) == ["a", "first"]
    seen = _counter(host)
    _write_back(host, older, way)
    _insert(state, host, "second")
    assert _counter(host) == seen
    assert _kept_rows(state, host) == _fresh_rows(state, host) == ["a", "second"]
    assert sqlite_sandbox.reader(state, host) is sqlite_sandbox.reader(state, host)  # kept again


def test_a_kept_reader_cannot_write_and_stays_confined(state: SimState, tmp_path: Path) -> None:
    host = _database(state, "a")
    reader = sqlite_sandbox.reader(state, host)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader.execute("INSERT INTO t VALUES ('x')")
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        reader.execute("ATTACH ? AS outside", (str(tmp_path / "outside.db"),))
    assert not (tmp_path / "outside.db").exists()
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        sqlite_sandbox.reader(state, tmp_path / "outside.db")
    assert _fresh_rows(state, host) == ["a"]


def test_kept_readers_are_bounded(state: SimState, connects: list[str]) -> None:
    hosts = []
    for index in range(sqlite_sandbox.MAX_KEPT + 2):
        hosts.append(host := state.fs_root / "data" / f"{index}.db")
        sqlite3.connect(host).close()
        sqlite_sandbox.reader(state, host)
    assert len(sqlite_sandbox._pool()) == sqlite_sandbox.MAX_KEPT
    connects.clear()
    sqlite_sandbox.reader(state, hosts[-1])
    sqlite_sandbox.reader(state, hosts[0])  # the least recently used went first
    assert connects == [str(hosts[0])]


@pytest.fixture
def encodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """gui.json texts encoded (store._text calls)."""
    texts: list[str] = []
    original = store._text
    monkeypatch.setattr(store, "_text", lambda data: texts.append(text := original(data)) or text)
    return texts


def test_a_store_with_nothing_changed_neither_encodes_nor_writes(state: SimState, encodes: list[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[str] = []
    original = store.jsonstore.write
    monkeypatch.setattr(store.jsonstore, "write", lambda path, text: writes.append(text) or original(path, text))
    first = store.Store(state)
    first.data["apps"]["a"] = {"frames": [1, 2.5, None, "x"]}
    first.save()
    assert writes == []  # held in memory until it is written back (taskkit.sim.writeback)
    writeback.write_back(state.root)
    assert json.loads((state.root / store.FILE_NAME).read_text())["apps"] == {"a": {"frames": [1, 2.5, None, "x"]}}
    encodes.clear()
    for _ in range(3):
        again = store.Store(state)
        again.save()
        again.data["shade"] = False  # the same value again
        again.save()
        writeback.write_back(state.root)
    assert encodes == [] and len(writes) == 1


@pytest.mark.parametrize("change", [True, 1.0, "1", [1]], ids=repr)
def test_a_store_writes_a_value_equal_to_the_old_one_in_another_type(state: SimState, change: Any) -> None:
    first = store.Store(state)
    first.data["next_id"] = 1
    first.save()
    again = store.Store(state)
    again.data["next_id"] = change  # == 1 for True and 1.0, but another text in gui.json
    again.save()
    writeback.write_back(state.root)
    assert json.loads((state.root / store.FILE_NAME).read_text())["next_id"] == change
    assert (state.root / store.FILE_NAME).read_text() == store._text(again.data)


def test_a_store_written_encodes_its_text_once(state: SimState, encodes: list[str]) -> None:
    first = store.Store(state)
    first.data["apps"]["a"] = {"frames": [1]}
    first.data["scroll"]["1:list"] = 3
    encodes.clear()
    first.save()
    writeback.write_back(state.root)  # the text encoded at save is the one written
    assert len(encodes) == 1
    again = store.Store(state)  # what the next command reads: the text written, not encoded again
    assert store._text(again.data) == (state.root / store.FILE_NAME).read_text() and len(encodes) == 2
    again.data["scroll"]["1:list"] = 4
    again.data["scroll"]["0:list"] = 1  # inserted out of gui.json's order: read back in another
    again.save()
    writeback.write_back(state.root)
    assert len(encodes) == 3
    assert list(store.Store(state).data["scroll"]) == ["0:list", "1:list"]  # as the file reads back
    assert (state.root / store.FILE_NAME).read_text() == store._text(again.data)


def _dump(*labels: str) -> str:
    nodes = "".join(f'<node index="{i}" text="{label}" class="android.widget.TextView" package="p" '
                    f'clickable="true" bounds="[0,{i * 10}][100,{i * 10 + 10}]" />' for i, label in enumerate(labels))
    return (f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
            f'<node index="0" text="" class="android.widget.FrameLayout" package="p" bounds="[0,0][100,100]">{nodes}'
            f"</node></hierarchy>")


def test_a_node_seen_in_an_earlier_dump_is_not_built_again() -> None:
    ui._element_of.cache_clear()
    first = ui.parse_window_dump(_dump("a", "b", "c"))
    assert ui._element_of.cache_info().misses == 3
    second = ui.parse_window_dump(_dump("a", "B", "c"))  # one label changed
    assert ui._element_of.cache_info().misses == 4
    assert [e.text for e in second] == ["a", "B", "c"] and second[0] is first[0]
    ui._element_of.cache_clear()
    assert ui.parse_window_dump(_dump("a", "B", "c")) == second  # built afresh: the same elements


def test_the_gym_writes_an_unchanged_screens_elements_once(monkeypatch: pytest.MonkeyPatch) -> None:
    gymnasium = pytest.importorskip("gymnasium", reason="taskkit.gym needs the gym extra")
    import taskkit.gym  # noqa: F401 - registers taskkit/Task-v0
    from taskkit.agents.base import Observation

    written: list[str] = []
    original = Observation.describe_elements
    monkeypatch.setattr(Observation, "describe_elements", lambda self: written.append(text := original(self)) or text)
    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn").unwrapped
    try:
        first, _ = env.reset(seed=1)
        seen = [env.step('{"action_type": "wait"}')[0]["elements"] for _ in range(3)]
        assert seen == [first["elements"]] * 3 and len(written) == 1
        env.device.check("am start -a android.settings.SETTINGS")  # the screen changes behind the policy's back
        assert env.step('{"action_type": "wait"}')[0]["elements"] != first["elements"] and len(written) == 2
    finally:
        env.close()


def test_a_threads_kept_readers_close_with_it(state: SimState) -> None:
    host = _database(state, "a")
    thread = threading.Thread(target=lambda: _kept_rows(state, host))
    thread.start()
    thread.join()
    del thread
    gc.collect()
    assert not [kept for kept in sqlite_sandbox._KEPT if kept.real == os.path.realpath(host)]


def test_a_state_directory_moved_in_drops_the_kept_connections(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_sandbox, "_stat", lambda path: ())  # the hook alone
    host = _database(state, "a")
    older = host.read_bytes()
    _insert(state, host, "first")
    assert _kept_rows(state, host) == ["a", "first"]
    spare = SimState(state.root.with_name("spare"))  # a device made elsewhere, then moved in its place
    spare.fs_root.joinpath("data").mkdir(parents=True)
    spare.fs_root.joinpath("data", "app.db").write_bytes(older)
    _insert(spare, spare.fs_root / "data" / "app.db", "second")
    os.rename(state.root, state.root.with_name("gone"))
    os.rename(spare.root, state.root)
    assert _kept_rows(state, host) == _fresh_rows(state, host) == ["a", "second"]


def test_settings_are_read_over_the_kept_reader_and_see_every_write(tmp_path: Path, connects: list[str]) -> None:
    """`settings get/list` (and the side-effect check's snapshot of all three namespaces) open the
    settings database once, and still read what `settings put`, a restore of older bytes and a
    rewrite by any path leave there."""
    from taskkit.sim import shell

    state = SimState(tmp_path / "device")
    shell.run(state, "settings put global wifi_on 1")
    connects.clear()
    for _ in range(3):
        assert shell.run(state, "settings list global; settings get global wifi_on").stdout.endswith("wifi_on=1\n1\n")
    assert len(connects) == 1, connects
    host = state.host_path(SETTINGS_DB)
    older = host.read_bytes()
    shell.run(state, "settings put global wifi_on 0")
    assert shell.run(state, "settings get global wifi_on").stdout == "0\n"
    host.write_bytes(older)  # a restore: the older bytes back
    assert shell.run(state, "settings get global wifi_on").stdout == "1\n"
    shutil.copyfile(host, tmp_path / "copy.db")
    with sqlite3.connect(tmp_path / "copy.db") as other:
        other.execute("UPDATE global SET value = '7' WHERE name = 'wifi_on'")
    os.replace(tmp_path / "copy.db", host)  # replaced by a rename
    assert shell.run(state, "settings get global wifi_on").stdout == "7\n"
