"""What building a screen costs, counted (issue #37 item 2): the app screens' provider reads go
through kept connections, and what they answer is always what a fresh connection answers."""
from __future__ import annotations

import os
import shutil
import sqlite3
import types
from pathlib import Path
from typing import Any

import pytest

from taskkit.sim import providers
from taskkit.sim.gui import appdata, cache, launcher
from taskkit.sim.gui.apps import calendar
from taskkit.sim.gui.node import Painted
from taskkit.sim.state import SimState
from tests.sim.test_step_counts import connects  # noqa: F401 - a fixture

SMS = "content://sms"
INBOX = "content://sms/inbox"
PHONES = "content://com.android.contacts/data/phones"


@pytest.fixture
def state(tmp_path: Path) -> SimState:
    sim = SimState(tmp_path / "device")
    providers.create_databases(sim)
    return sim


def _sms(state: SimState, *bodies: str) -> None:
    for body in bodies:
        providers.insert(state, INBOX, {"address": "+15550100", "body": body})


def _both(state: SimState, uri: str = SMS, **query: Any) -> tuple[Any, Any]:
    """The kept and the fresh answer (rows, or the error's text) to one query."""
    answers = []
    for kept in (True, False):
        try:
            answers.append(providers.query(state, uri, kept=kept, **query))
        except providers.ProviderError as error:
            answers.append(str(error))
    return answers[0], answers[1]


def test_a_screen_s_provider_reads_open_one_connection_per_database(state: SimState, connects: list[str]) -> None:
    _sms(state, "hello")
    ui = types.SimpleNamespace(state=state)
    connects.clear()
    for _ in range(4):
        assert [row[0] for row in appdata.query(ui, SMS, ["body"]).rows] == ["hello"]
        appdata.query(ui, PHONES, ["display_name", "data1"])
    assert len(connects) == 2  # mmssms.db and contacts2.db, once each


def test_with_the_gui_cache_off_each_read_opens_a_fresh_connection(state: SimState, connects: list[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "enabled", False)
    ui = types.SimpleNamespace(state=state)
    connects.clear()
    for _ in range(3):
        appdata.query(ui, SMS, ["body"])
    assert len(connects) == 3


def test_kept_reads_answer_as_fresh_ones_after_every_kind_of_change(state: SimState) -> None:
    host = state.host_path(providers.MMSSMS_DB)
    query = dict(projection=["_id", "thread_id", "body", "read"], sort="_id ASC")
    seen = []

    def check() -> None:
        kept, fresh = _both(state, **query)
        assert kept == fresh
        seen.append(len(fresh.rows))

    check()
    _sms(state, "one", "two")  # the provider's own writes
    check()
    providers.update(state, INBOX, {"read": 1}, "body = 'one'")
    check()
    outside = sqlite3.connect(host)  # another connection, as `sqlite3` on the device
    outside.execute("DELETE FROM sms WHERE body = 'two'")
    outside.commit()
    outside.close()
    check()
    # A restore writing other bytes with the same file change counter back: the hook drops the reader.
    copy = host.with_name("copy.db")
    shutil.copyfile(host, copy)
    for path, body in ((copy, "from the copy"), (host, "kept")):
        con = sqlite3.connect(path)
        con.execute("INSERT INTO sms (thread_id, body, type) VALUES (1, ?, 1)", (body,))
        con.commit()
        con.close()
    assert copy.read_bytes()[24:28] == host.read_bytes()[24:28]
    check()
    host.write_bytes(copy.read_bytes())
    check()
    assert [row[2] for row in providers.query(state, SMS, kept=True, **query).rows][-1] == "from the copy"
    providers.reset_package_data(state, providers.TELEPHONY_PACKAGE)  # pm clear
    check()
    _sms(state, "after the clear")
    check()
    host.unlink()  # a deleted database is created again by the read, as before
    check()
    assert host.exists()
    assert seen == [0, 2, 2, 1, 2, 2, 0, 1, 0]


def test_a_failed_kept_read_reports_as_a_fresh_one_and_the_next_read_works(state: SimState) -> None:
    _sms(state, "hello")
    kept, fresh = _both(state, projection=["nope"])
    assert kept == fresh and "no such column: nope" in kept
    kept, fresh = _both(state, projection=["body"])
    assert kept == fresh and kept.rows == [("hello",)]


def test_the_launcher_builds_a_row_of_icons_once_for_what_it_shows(sim_device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[Any, ...]] = []
    original = launcher._icon
    monkeypatch.setattr(launcher, "_icon", lambda *args: made.append(args) or original(*args))
    launcher._icon_row.cache_clear()
    sim_device.check("input keyevent KEYCODE_HOME")
    home = sim_device.check("uiautomator dump /dev/tty")
    icons = len(made)
    cache.clear()  # the screen is built again: its rows of icons are the kept ones
    assert sim_device.check("uiautomator dump /dev/tty") == home
    assert icons > 8 and len(made) == icons
    sim_device.check("pm uninstall net.gsantner.markor")  # other rows: built afresh, the same as without keeping
    shown = sim_device.check("uiautomator dump /dev/tty")
    assert "Markor" in home and "Markor" not in shown
    launcher._icon_row.cache_clear()
    cache.clear()
    assert sim_device.check("uiautomator dump /dev/tty") == shown


def test_the_month_view_paints_its_days_once_for_what_they_show(sim_device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    painted: list[Painted] = []
    monkeypatch.setattr(calendar, "Painted", lambda *args, **kwargs: painted.append(Painted(*args, **kwargs)) or painted[-1])
    calendar._days_paint.cache_clear()
    sim_device.check("am start -n com.simplemobiletools.calendar.pro/.activities.MainActivity")
    first = sim_device.exec_out("screencap")
    days = len(painted)
    cache.clear()  # the screen is built again: the month's letters and days are the kept ones
    assert sim_device.exec_out("screencap") == first
    assert days == 7 + 42 and len(painted) == days
    calendar._days_paint.cache_clear()
    cache.clear()
    assert sim_device.exec_out("screencap") == first  # and they are what a fresh paint gives


def test_a_folder_listing_takes_each_entry_s_type_from_the_listing(state: SimState, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = state.fs_root / "data" / "pictures"
    (folder / "Trips").mkdir(parents=True)
    (folder / "b.jpg").write_bytes(b"12345")
    (folder / "A.png").write_bytes(b"1")
    (folder / "to_trips").symlink_to("Trips")
    (folder / "to_b").symlink_to("b.jpg")
    stats: list[str] = []
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *args, **kwargs: stats.append(str(path)) or real_stat(path, *args, **kwargs))
    listed = appdata.listing(types.SimpleNamespace(state=state), "/data/pictures")
    assert listed == [("to_trips", True, 0), ("Trips", True, 0), ("A.png", False, 1), ("b.jpg", False, 5),
                      ("to_b", False, 5)]
    assert [path for path in stats if path.startswith(f"{folder}/")] == []  # a stat of its own per entry before
