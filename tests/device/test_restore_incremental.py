"""Incremental restore points: on the simulated device a restore puts back what the episode
changed and nothing else, reads no setting, and stays safe to kill at every step.

Counted, not timed: the files the recorder copies back (`Recorder.restored`, `restored_bytes`)
and the round trips.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taskkit import TaskEval, loading, registry, suite
from taskkit.device import state
from taskkit.env import Env
from taskkit.sim import changes as recorder_lib
from taskkit.sim.device import SimDevice
from tests.device.test_restore_journal import (APP, DOCS, PATHS, Killed, _assert_recovered, _episode,
                                               _steps, _user_data, killed_at)

DB = f"{APP}/databases/app.db"


def _save(device: SimDevice, label: str = "t.1") -> state.RestorePoint:
    return state.save_restore_point(device, label, PATHS, ("com.example.app",), incremental=True)


def _copied(device: SimDevice) -> tuple[int, int]:
    recorder = recorder_lib.recorder(device.state)
    return recorder.restored, recorder.restored_bytes


@pytest.fixture
def device(sim_device):
    _user_data(sim_device)
    return sim_device


def test_an_episode_that_changed_one_file_gets_one_file_back(device) -> None:
    before = state.listing(device)
    point = _save(device)
    assert point.journaled and device.shell(f"ls {point.directory}").stdout.split() == ["manifest.json", "undo"]
    device.check(f"cat {DOCS}/thesis.md {DB} >/dev/null && settings get global wifi_on")  # read, not changed
    device.files.write_text(f"{DOCS}/thesis.md", "deleted by mistake")
    copied = _copied(device)
    device.stats.reset()
    state.restore(device, point)
    assert device.stats.round_trips == 1  # no setting read: the settings database is journaled
    assert _copied(device)[0] - copied[0] == 1
    assert _copied(device)[1] - copied[1] == len("four years of work")
    assert state.listing(device) == before and state.pending_restore_points(device) == []


def test_an_episode_that_changed_nothing_gets_nothing_back(device) -> None:
    before = state.listing(device)
    point = _save(device)
    device.check(f"cat {DOCS}/thesis.md >/dev/null && settings get global wifi_on >/dev/null")
    copied = _copied(device)
    state.restore(device, point)
    assert _copied(device) == copied
    assert state.listing(device) == before


def test_a_database_only_queried_is_not_copied_back(device) -> None:
    db = f"{APP}/databases/notes.db"
    device.check(f"sqlite3 {db} 'CREATE TABLE n (t TEXT); INSERT INTO n VALUES (1)'")
    point = _save(device)
    assert device.check(f"sqlite3 {db} 'SELECT count(*) FROM n'") == "1\n"  # journaled when opened
    copied = _copied(device)
    state.restore(device, point)
    assert _copied(device) == copied


def test_a_changed_setting_comes_back_with_its_database_alone(device) -> None:
    before = state.listing(device)
    point = _save(device)
    device.settings.put("global", "wifi_on", "1")
    device.settings.put("system", "new_key", "x")
    copied = _copied(device)
    state.restore(device, point)
    assert _copied(device)[0] - copied[0] == 1  # settings.db
    assert state.listing(device) == before


def test_a_device_without_the_recorder_copies_as_before(device, monkeypatch) -> None:
    monkeypatch.setattr(device, "change_recorder", False, raising=False)
    before = state.listing(device)
    point = _save(device)
    assert not point.journaled and point.settings["global"]["wifi_on"] == "0"
    _episode(device)
    state.restore(device, point)
    assert state.listing(device) == before


def test_a_task_episode_s_reset_is_two_round_trips_and_restores_only_what_changed(device) -> None:
    loading.load_builtin()
    env = Env(device)
    task = suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0).create()
    before = state.listing(device)
    device.stats.reset()
    task.initialize_state(env)  # closing the apps, the restore point and the set-up: one batch
    assert device.stats.round_trips == 1
    copied = _copied(device)
    device.stats.reset()
    task.teardown(env)
    assert device.stats.round_trips == 1
    assert _copied(device)[0] - copied[0] <= 1  # the settings database, if the set-up changed it
    assert state.listing(device) == before


class _Failing(TaskEval, register=False):
    """A set-up that removes the user's documents, then fails: on the device (`false`, surfacing
    when the batch holding the restore point and the set-up is sent), or in Python before
    anything was sent."""

    app_names = ("markor",)
    template = "Nothing"
    on_device = True

    def initialize_state(self, env: Env) -> None:
        super().initialize_state(env)
        env.device.run(f"rm -rf {DOCS}")
        if not self.on_device:
            raise RuntimeError("a set-up bug")
        env.device.run("false")

    def is_successful(self, env: Env) -> float:
        return 1.0


@pytest.mark.parametrize("on_device", [True, False])
def test_a_set_up_that_fails_leaves_the_device_as_it_was(device, on_device) -> None:
    env = Env(device)
    task = _Failing({})
    task.on_device = on_device
    before = state.listing(device)
    with pytest.raises(Exception, match="false" if on_device else "a set-up bug"):
        task.initialize_state(env)
    assert state.listing(device) == before and state.pending_restore_points(device) == []
    assert not task.initialized


def _copy_of(template: SimDevice, path: Path) -> SimDevice:
    """A device whose state directory (its undo journals too) is a copy of `template`'s: as the
    next run of the simulator finds it (cheaper than building each one)."""
    shutil.copytree(template.state.root, path, symlinks=True)
    return SimDevice(path)


@pytest.mark.parametrize("phase", ["save", "restore"])
def test_a_kill_at_every_step_loses_nothing(tmp_path, phase) -> None:
    template = SimDevice(tmp_path / "template")
    _user_data(template)
    before = state.listing(template)
    if phase == "restore":
        point = _save(template)
        _episode(template)
    probe = _copy_of(template, tmp_path / "probe")
    total = _steps(lambda: state.restore(probe, point) if phase == "restore" else _save(probe))
    assert total >= 5
    for step in range(1, total + 1):
        device = _copy_of(template, tmp_path / f"{phase}-{step}")
        with pytest.raises(Killed), killed_at(step):
            state.restore(device, point) if phase == "restore" else _save(device)
        device.close()
        _assert_recovered(SimDevice(tmp_path / f"{phase}-{step}"), before)  # the next run


def test_a_damaged_undo_journal_is_refused_and_nothing_is_changed(device) -> None:
    _save(device)
    _episode(device)
    copies = sorted((device.state.root / "undo" / "t.1").glob("[0-9]*"))
    copies[0].unlink()
    listing = state.listing(device)
    with pytest.raises(state.RestoreError, match="damaged"):
        state.recover(device)
    assert state.listing(device) == listing
    assert state.pending_restore_points(device)[0].journaled
