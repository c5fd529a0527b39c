"""The screen is built once per change of what it shows (issue #37 item 2; taskkit/sim/gui/cache.py):
a dump, tap or screenshot of a state that has not changed answers from what was built for it,
and what it answers is always what a fresh build gives — after every step of GUI references
across the apps, after random steps, and whatever changes the files, databases and settings
a screen reads, in process or not."""
from __future__ import annotations

import dataclasses
import os
import sqlite3
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from taskkit import loading, registry
import taskkit.sim.gui as gui
from taskkit.agents.base import Action, Observation
from taskkit.agents.builtin import RandomPolicyAgent
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.connect import sim_device
from taskkit.device.state import build_recorder_start
from taskkit.env import Env
from taskkit.runner import run_episode
from taskkit.sim import audit_events
from taskkit.sim.gui import cache
from taskkit.suite import TaskInstance

loading.load_builtin()
_REFERENCED = sorted(cls.name for cls in registry.all_tasks() if cls.has_gui_reference() and not cls.real_device_only)
# One GUI reference per app (the first by name of the tasks whose first app it is): 23 tasks.
SAMPLE = sorted({registry.get(name).app_names[0]: name for name in reversed(_REFERENCED)}.values())
RANDOM_TASKS = ("FilesDeleteFile", "MarkorCreateNote", "SimpleSmsSend", "ExpenseAddSingle", "SystemWifiTurnOn")


def dump(device: Any) -> str:
    return device.check("uiautomator dump /dev/tty")


def fresh_dump(device: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(cache, "enabled", False)
        return dump(device)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the dumps built with the cache on but not answered from it."""
    counted: list[int] = []
    original = gui._xml

    def counting(view: Any) -> str:
        counted.extend([1] if cache.enabled else [])
        return original(view)

    monkeypatch.setattr(gui, "_xml", counting)
    return counted


class Comparing(GuiReferenceAgent):
    """The GUI reference, comparing before each step (after the one before) two dumps answered
    with the cache on with a fresh one, and counting how often the second was built again."""

    def __init__(self, device: Any, monkeypatch: pytest.MonkeyPatch, builds: list[int]) -> None:
        super().__init__()
        self.device, self.monkeypatch, self.builds = device, monkeypatch, builds
        self.differ: list[int] = []
        self.rebuilt = 0

    def step(self, observation: Observation) -> Action:
        kept = dump(self.device)
        built = len(self.builds)
        kept_again = dump(self.device)
        self.rebuilt += len(self.builds) - built
        if not kept == kept_again == fresh_dump(self.device, self.monkeypatch):
            self.differ.append(observation.step)
        return super().step(observation)


@pytest.mark.parametrize("task", SAMPLE)
def test_a_kept_screen_is_the_fresh_one_after_every_step_of_a_gui_reference(task: str, device: Any, builds: list[int],
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    agent = Comparing(device, monkeypatch, builds)
    result = run_episode(Env(device), TaskInstance(registry.get(task), 0, 1), agent, 1)
    assert result.error is None and result.score == 1.0, (result, agent.problem)
    assert agent.differ == []
    assert agent.rebuilt == 0  # a screen dumped again unchanged is answered from the cache
    assert len(builds) <= 3 * result.steps  # and not three builds a step as before (observe, two dumps)


def _random_run(task: str, with_cache: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], list[str]]:
    """A random-policy episode on a fresh device: its result row (but its duration) and the
    dump before each step."""
    seen: list[str] = []

    class Watching(RandomPolicyAgent):
        def step(self, observation: Observation) -> Action:
            seen.append(dump(phone))
            return super().step(observation)

    phone = sim_device()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(cache, "enabled", with_cache)
            result = run_episode(Env(phone), TaskInstance(registry.get(task), 0, 7), Watching(), 7)
    finally:
        phone.close()
    return {**dataclasses.asdict(result), "duration_s": None}, seen


@pytest.mark.parametrize("task", RANDOM_TASKS)
def test_a_random_episode_is_the_same_with_and_without_the_cache(task: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kept_row, kept_screens = _random_run(task, True, monkeypatch)
    fresh_row, fresh_screens = _random_run(task, False, monkeypatch)
    assert kept_row["steps"] >= 2
    assert kept_screens == fresh_screens
    assert kept_row == fresh_row


@pytest.mark.parametrize("change", [
    "mkdir /sdcard/Aaa",  # a new entry in the folder the screen lists
    "rmdir /sdcard/Alarms",
    "mv /sdcard/Alarms /sdcard/Aalarms",
])
def test_a_change_to_what_a_screen_lists_is_shown_at_once(change: str, device: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    device.check("am start -n com.google.android.documentsui/com.android.documentsui.files.FilesActivity")
    before = dump(device)  # the storage's folders
    device.check(change)
    assert dump(device) == fresh_dump(device, monkeypatch) != before


def test_a_screen_is_kept_across_writes_it_never_read(device: Any, builds: list[int]) -> None:
    device.check("input keyevent HOME")
    dump(device)
    built = len(builds)
    device.check("mkdir -p /sdcard/Music && echo x > /sdcard/Music/song.mp3")  # the home screen reads no file there
    device.check("uiautomator dump /sdcard/window_dump.xml && rm /sdcard/window_dump.xml")
    dump(device)
    assert len(builds) == built  # nothing the home screen read had changed


def test_the_first_screen_of_an_app_just_started_is_kept(device: Any, builds: list[int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A new task's window stack is made when its screen is first looked at; it is made before the
    lookup, so the build does not change what it is kept by and the next dump answers from it."""
    device.check("input keyevent HOME")
    home = dump(device)
    device.check("input tap 135 870")  # the launcher's Simple SMS Messenger icon
    first = dump(device)
    assert first != home and "com.simplemobiletools.smsmessenger" in first
    built = len(builds)
    assert dump(device) == first == fresh_dump(device, monkeypatch)
    assert len(builds) == built


def test_a_restore_points_journal_is_no_input_of_a_screen(device: Any, builds: list[int],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The first time a screen opens a database inside a restore point, the recorder copies it
    into the journal (taskkit.sim.changes): that is the recorder's work, not a read of the
    screen's, and its writes to the journal leave the screen kept."""
    device.check(build_recorder_start(("/data",), undo="screen"))
    journal = device.state.root / "undo" / "screen"
    before = sorted(os.listdir(journal))
    device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
    first = dump(device)
    assert sorted(os.listdir(journal)) != before  # the messages' database was copied as the screen read it
    built = len(builds)
    assert dump(device) == first == fresh_dump(device, monkeypatch)
    assert len(builds) == built


def test_a_restore_points_journal_writes_are_not_noted(device: Any) -> None:
    """The journal's copies are the recorder's own work (outside the device's filesystem, read
    by no screen): the GUI cache does not note them as writes it must check kept screens against."""
    device.check(build_recorder_start(("/data", "/storage/emulated"), undo="noted"))
    dump(device)
    device.check("sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db 'DELETE FROM sms'"
                 " && echo hi > /sdcard/Download/noted.txt")  # (the note's writes are noted)
    journal = (device.state.root / "undo" / "noted").resolve()
    assert len(os.listdir(journal)) > 1  # the index and the database's copy
    writes = cache._DEVICES[str(device.state.root.resolve())].writes
    assert writes and not any(path.startswith(f"{journal}/") for _, path, _, _ in writes)


def test_a_setting_changed_by_sql_from_outside_the_shell_is_shown(device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite writes raise no audit event: the database's header tells the change."""
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    before = dump(device)
    settings_db = device.state.host_path("/data/system/users/0/settings.db")
    with sqlite3.connect(settings_db) as con:  # as another process (or a test) would
        con.execute("INSERT OR REPLACE INTO secure (name, value) VALUES ('ui_night_mode', '2')")
    con.close()
    assert dump(device) == fresh_dump(device, monkeypatch) != before  # the Dark theme switch is on
    kept = cache._DEVICES[str(device.state.root.resolve())].results["settings"]
    assert kept.value["secure"]["ui_night_mode"] == "2"


def test_a_database_in_wal_mode_is_read_again_for_every_screen(device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """In WAL mode SQLite's header does not count the changes: the settings are never kept."""
    device.check("sqlite3 /data/system/users/0/settings.db 'PRAGMA journal_mode=WAL;'")
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    before = dump(device)
    con = sqlite3.connect(device.state.host_path("/data/system/users/0/settings.db"))
    con.execute("INSERT OR REPLACE INTO secure (name, value) VALUES ('ui_night_mode', '2')")
    con.commit()
    try:
        assert dump(device) == fresh_dump(device, monkeypatch) != before
        assert "settings" not in cache._DEVICES[str(device.state.root.resolve())].results
    finally:
        con.close()


def test_the_cache_can_be_turned_off(device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "enabled", False)
    for _ in range(2):
        dump(device)
    assert str(device.state.root.resolve()) not in cache._DEVICES  # nothing was kept


def test_a_closed_device_keeps_nothing() -> None:
    phone = sim_device()
    dump(phone)
    root = str(phone.state.root.resolve())
    assert root in cache._DEVICES
    phone.close()
    assert root not in cache._DEVICES


@pytest.fixture
def heads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose first bytes the cache read (a database's header)."""
    read: list[str] = []
    original = cache._head
    monkeypatch.setattr(cache, "_head", lambda path: read.append(path) or original(path))
    return read


def _night_mode_by_sql(device: Any) -> None:
    with sqlite3.connect(device.state.host_path("/data/system/users/0/settings.db")) as con:
        con.execute("INSERT OR REPLACE INTO secure (name, value) VALUES ('ui_night_mode', '2')")
    con.close()


def test_a_database_settled_before_its_mark_is_not_read_again(device: Any, heads: list[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A database last changed over audit_events.RACY_NS before its mark keeps its stat until the next
    write: its header is not read while the stat holds, and a SQLite write moves the stat."""
    monkeypatch.setattr(audit_events, "RACY_NS", 0)  # every change is old enough
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    before = dump(device)
    heads.clear()
    for _ in range(3):
        assert dump(device) == before
    assert heads == []
    _night_mode_by_sql(device)
    assert dump(device) == fresh_dump(device, monkeypatch) != before


def test_a_database_changed_within_the_racy_time_is_read_at_every_check(device: Any, heads: list[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A write in the clock tick of the last one can leave the stat as it was: then the header
    tells (here every stat is made to look unchanged)."""
    monkeypatch.setattr(audit_events, "RACY_NS", 1 << 62)  # every change is recent
    device.check("am start -a android.settings.DISPLAY_SETTINGS")
    before = dump(device)
    monkeypatch.setattr(cache, "_stat_mark", lambda st: (st.st_mode, st.st_ino))
    heads.clear()
    assert dump(device) == before
    settings_db = str(device.state.host_path("/data/system/users/0/settings.db"))
    assert any(path.endswith(settings_db.rsplit("/", 1)[-1]) for path in heads)
    _night_mode_by_sql(device)
    assert dump(device) == fresh_dump(device, monkeypatch) != before


def _touches_one(written: str, kind: str, read: str) -> bool:
    """The rule for one read path, as the module doc states it."""
    if kind == cache.METADATA:
        return written == read or os.path.dirname(written) == read
    return audit_events.under(written, read) or (kind == cache.STRUCTURE and audit_events.under(read, written))


_NAMES = st.sampled_from(["a", "b", "ab", "a-journal", "b.db"])
_PATHS = st.lists(_NAMES, max_size=4).map(lambda parts: "/" + "/".join(parts))  # ("/" too: a read of the root)


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(reads=st.frozensets(_PATHS, max_size=6), written=_PATHS,
                  kind=st.sampled_from([cache.CONTENT, cache.STRUCTURE, cache.METADATA]))
def test_the_indexed_reads_answer_as_each_read_would(reads: frozenset[str], written: str, kind: str) -> None:
    """A kept result's reads are looked up, not scanned; the answer is the one-read rule's for
    any of them (paths on, above, below and beside each other, names that share a prefix)."""
    assert cache._Reads(reads).touched_by(written, kind) == any(_touches_one(written, kind, read) for read in reads)
