"""gui.json, device.json's foreground, tasks and clipboard, and the log lines are held in memory
between commands and written back (taskkit.sim.writeback): never during a step, always when the
device closes, when a served command ends and when the process exits (the log also when it is
read, and past a size; device.json at once when anything else in it changes); a write by another
process wins; a new device in a reused folder starts afresh."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit.connect import sim_device
from taskkit.sim import heldjson, jsonstore, logbuffer, writeback
from taskkit.sim.gui import store
from taskkit.sim.state import SimState
from tests.device.test_adb_device import requires_adb, served_adb_device
from tests.sim.gui.helpers import texts

COMPOSE = "am start -a android.intent.action.SENDTO -d smsto:+12125550134"


def _inputs(root: Path) -> list[str]:
    """The `Input` lines logcat.txt holds on disk."""
    return [line.split(": ", 1)[1] for line in (root / "logcat.txt").read_text().splitlines() if " I Input   : " in line]


def _config(root: Path) -> dict:
    """device.json as it is on disk."""
    return json.loads((root / "device.json").read_text())


def _drafts(root: Path) -> list[str]:
    """The drafts gui.json holds on disk (none when there is no file)."""
    path = root / store.FILE_NAME
    return list(json.loads(path.read_text())["drafts"].values()) if path.exists() else []


@pytest.fixture
def gui_json_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The gui.json files written (jsonstore.write calls), by path."""
    written: list[str] = []
    original = jsonstore.write

    def counted(path, text, frozen=None):
        if str(path).endswith(store.FILE_NAME):
            written.append(str(path))
        return original(path, text, frozen)

    monkeypatch.setattr(jsonstore, "write", counted)
    return written


def test_steps_write_no_gui_json_and_closing_writes_it_once(tmp_path: Path, gui_json_writes: list[str]) -> None:
    device = sim_device(tmp_path / "phone")
    try:
        device.check(COMPOSE)
        for word in ("running", "late"):
            device.check(f"input text {word}")
            assert "running" in " ".join(texts(device))  # the next command reads what the last one left
        device.check("input keyevent KEYCODE_HOME")
        device.check("am start -n com.simplemobiletools.smsmessenger/.activities.ThreadActivity")
        assert "runninglate" in texts(device)
        assert gui_json_writes == [] and _drafts(tmp_path / "phone") == []
    finally:
        device.close()
    assert len(gui_json_writes) == 1 and _drafts(tmp_path / "phone") == ["runninglate"]
    again = sim_device(tmp_path / "phone")  # another view of the device reads it back
    try:
        assert "runninglate" in texts(again)
    finally:
        again.close()


def test_a_write_by_another_process_wins_over_what_is_held(tmp_path: Path) -> None:
    device = sim_device(tmp_path / "phone")
    try:
        device.check(COMPOSE)
        device.check("input text mine")
        writeback.write_back(device.state.root)
        path = tmp_path / "phone" / store.FILE_NAME
        device.check("input text more")  # held, not written
        data = json.loads(path.read_text())
        data["drafts"] = {key: "theirs" for key in data["drafts"]}
        path.write_text(json.dumps(data))  # another process rewrites the file meanwhile
        assert "theirs" in texts(device) and "minemore" not in texts(device)
    finally:
        device.close()
    assert _drafts(tmp_path / "phone") == ["theirs"]


def test_a_new_device_in_a_reused_folder_starts_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heldjson, "_folder", lambda root: (0, 0))  # the folder made again with its inode number
    gone = sim_device(tmp_path / "phone")
    gone.check(COMPOSE)
    gone.check("input text stale")  # held, never written: its folder goes without a close
    shutil.rmtree(tmp_path / "phone")
    fresh = sim_device(tmp_path / "phone")
    try:
        assert "stale" not in json.dumps(store.Store(fresh.state).data)
        fresh.check(COMPOSE)
        assert "stale" not in " ".join(texts(fresh))
    finally:
        fresh.close()
    assert "stale" not in json.dumps(_drafts(tmp_path / "phone"))


def test_a_process_that_exits_without_closing_leaves_its_gui_state_behind(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        from taskkit.connect import sim_device
        device = sim_device({str(tmp_path / "phone")!r})
        device.check({COMPOSE!r})
        device.check("input text bye")
    """)  # no close: the exit writes it back
    subprocess.run([sys.executable, "-c", script], check=True, timeout=300)
    assert _drafts(tmp_path / "phone") == ["bye"] and _inputs(tmp_path / "phone") == ["text bye"]
    assert _config(tmp_path / "phone")["foreground"].startswith("com.simplemobiletools.smsmessenger/")


def test_held_devices_are_bounded_and_the_oldest_is_written_back(tmp_path: Path) -> None:
    roots = [tmp_path / f"d{i}" for i in range(heldjson.MAX_HELD + 1)]
    for index, root in enumerate(roots):
        root.mkdir()
        held = store.Store(SimState(root))
        held.data["drafts"]["1:text"] = f"draft {index}"
        held.save()
    assert sum(store._HELD.held(writeback.key(root)) is not None for root in roots) == heldjson.MAX_HELD
    assert _drafts(roots[0]) == ["draft 0"] and _drafts(roots[1]) == []  # let go: written first
    for root in roots:
        writeback.close(root)
    assert _drafts(roots[1]) == ["draft 1"] and not any(store._HELD.held(writeback.key(root)) for root in roots)


@requires_adb
def test_a_served_device_writes_its_gui_state_at_the_end_of_every_command(tmp_path: Path) -> None:
    with served_adb_device(tmp_path / "served") as device:
        device.check(COMPOSE)
        device.check("input text served")
        assert _drafts(tmp_path / "served") == ["served"]  # read from the directory, as another process would
        assert _inputs(tmp_path / "served") == ["text served"]
        assert _config(tmp_path / "served")["foreground"].startswith("com.simplemobiletools.smsmessenger/")


def test_log_lines_are_appended_when_read_or_past_a_size_and_not_into_a_new_device(tmp_path: Path) -> None:
    device = sim_device(tmp_path / "phone")
    try:
        device.check("input tap 1 1")
        assert _inputs(tmp_path / "phone") == []  # held
        assert device.check("logcat -d -s Input -v raw").splitlines()[-1] == "tap 1 1"  # read: written first
        assert _inputs(tmp_path / "phone") == ["tap 1 1"]
        line = len(" I Input   : tap 1 1\n") + 18
        for _ in range(logbuffer.MAX_HELD_BYTES // line + 1):
            device.check("input tap 1 1")
        assert len(_inputs(tmp_path / "phone")) > 1  # held lines past the bound went to the file
        device.check("input tap 2 2")  # held, never written: its folder goes without a close
    finally:
        shutil.rmtree(tmp_path / "phone")
    fresh = sim_device(tmp_path / "phone")
    try:
        writeback.write_back(fresh.state.root)
        assert _inputs(tmp_path / "phone") == []
    finally:
        fresh.close()


SMS = "com.simplemobiletools.smsmessenger"


def test_the_foreground_and_tasks_are_held_and_the_clock_is_written_at_once(tmp_path: Path) -> None:
    device = sim_device(tmp_path / "phone")
    try:
        home = _config(tmp_path / "phone")
        device.check(COMPOSE)
        device.check("input keyevent KEYCODE_HOME")
        device.check(COMPOSE)
        assert device.check("dumpsys activity activities").count(SMS) > 0  # the next command sees the task
        assert _config(tmp_path / "phone") == home  # held: the file is as the image left it
        device.check("date 010203042024.00")  # the clock (as a phone's RTC) is written at once...
        on_disk = _config(tmp_path / "phone")
        assert on_disk["clock_epoch"] != home["clock_epoch"] and on_disk["foreground"].startswith(f"{SMS}/")
        device.check("input keyevent KEYCODE_HOME")  # ... with what was held; then holding goes on
        assert _config(tmp_path / "phone")["foreground"].startswith(f"{SMS}/")
    finally:
        device.close()
    assert not _config(tmp_path / "phone")["foreground"].startswith(f"{SMS}/")  # written at close
    assert SimState(tmp_path / "phone").config == _config(tmp_path / "phone")


def test_a_device_json_write_by_another_process_wins_over_what_is_held(tmp_path: Path) -> None:
    device = sim_device(tmp_path / "phone")
    try:
        device.check(COMPOSE)  # held: the messenger in front
        data = _config(tmp_path / "phone")
        data["clipboard"] = "theirs"
        (tmp_path / "phone" / "device.json").write_text(json.dumps(data))  # another process, meanwhile
        assert SimState(tmp_path / "phone").config["clipboard"] == "theirs"
        assert not SimState(tmp_path / "phone").config["foreground"].startswith(f"{SMS}/")
    finally:
        device.close()
    assert _config(tmp_path / "phone")["clipboard"] == "theirs"
