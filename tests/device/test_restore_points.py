"""Restore points fail loudly, survive a killed run (`recover`), and restore atomically."""
from __future__ import annotations

import pytest

from taskkit.device import state
from taskkit.device.errors import CommandFailed

DB_DIR = "/data/data/com.example.app/databases"
PATHS = ("/data/data/com.example.app",)


@pytest.fixture
def device(sim_device):
    sim_device.files.write_text(f"{DB_DIR}/app.db", "original")
    sim_device.settings.put("global", "wifi_on", "0")
    return sim_device


def test_save_is_one_round_trip_and_restore_puts_everything_back(device) -> None:
    before = state.listing(device)
    device.stats.reset()
    point = state.save_restore_point(device, "t.1", PATHS, ("com.example.app",))
    assert device.stats.round_trips == 1
    device.files.write_text(f"{DB_DIR}/app.db", "changed")
    device.files.write_text("/data/data/com.example.app/new.txt", "x")
    device.settings.put("global", "wifi_on", "1")
    state.restore(device, point)
    assert state.listing(device) == before
    assert state.pending_restore_points(device) == []


def test_a_killed_run_is_recovered_at_the_next_start(device) -> None:
    before = state.listing(device)
    state.save_restore_point(device, "t.2", PATHS, ("com.example.app",))
    device.files.remove(f"{DB_DIR}/app.db")
    device.settings.put("global", "wifi_on", "1")
    # the run is killed here: nothing restores; the next run recovers first
    pending = state.pending_restore_points(device)
    assert [p.directory for p in pending] == [f"{state.RESTORE_ROOT}/t.2"]
    assert pending[0].paths == PATHS and pending[0].settings["global"]["wifi_on"] == "0"
    assert state.recover(device) == [f"{state.RESTORE_ROOT}/t.2"]
    assert state.listing(device) == before
    assert state.recover(device) == []


def test_an_interrupted_restore_can_be_run_again(device) -> None:
    before = state.listing(device)
    point = state.save_restore_point(device, "t.3", PATHS, ())
    device.files.write_text(f"{DB_DIR}/app.db", "changed")
    # the restore was stopped right after removing the path, before swapping the staged copy in
    device.run(f"cp -a {point.directory}/0 /data/data/com.example.app.taskkit-restoring")
    device.run("rm -rf /data/data/com.example.app")
    state.recover(device)
    assert state.listing(device) == before
    assert device.files.read_text(f"{DB_DIR}/app.db") == "original"


def test_an_incomplete_restore_point_is_discarded(device) -> None:
    before = state.listing(device)
    device.run(f"mkdir -p {state.RESTORE_ROOT}/t.4/0")  # killed while saving: no manifest yet
    assert state.recover(device) == [f"{state.RESTORE_ROOT}/t.4"]
    assert state.listing(device) == before


def test_a_failing_save_raises_naming_the_command(device) -> None:
    device.files.write_text(state.SCRATCH_ROOT, "a file where the restore points should go")
    with pytest.raises(CommandFailed, match="mkdir -p /data/local/tmp/taskkit/restore/t.5"):
        state.save_restore_point(device, "t.5", PATHS, ())
    device.files.remove(state.SCRATCH_ROOT)


def test_the_listing_covers_local_tmp_but_not_taskkits_scratch(device) -> None:
    before = state.listing(device)
    device.files.write_text(f"{state.SCRATCH_ROOT}/restore/x/y", "scratch")
    assert state.listing(device) == before
    device.files.write_text("/data/local/tmp/leak.txt", "left behind")
    after = state.listing(device)
    assert state.difference(before, after) == "added: file /data/local/tmp/leak.txt"
