"""Where a simulated device without a state directory keeps its state (taskkit/sim/scratch.py):
$TASKKIT_SIM_DIR, else $TMPDIR when set, else /dev/shm when it has room, else the platform's."""
from __future__ import annotations

import pytest

from taskkit import connect
from taskkit.connect import DeviceSpecError, sim_device
from taskkit.sim import scratch


def test_taskkit_sim_dir_holds_the_device_and_closing_removes_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(scratch.ENV, str(tmp_path))
    device = sim_device()
    try:
        root = device.state.fs_root
        assert root.parent.parent == tmp_path and root.is_dir()
    finally:
        device.close()
    assert list(tmp_path.iterdir()) == []


def test_a_bad_taskkit_sim_dir_is_bad_input_naming_the_variable(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(scratch.ENV, str(tmp_path / "missing"))
    with pytest.raises(DeviceSpecError, match="TASKKIT_SIM_DIR=.*missing: not a writable folder"):
        connect.open_device("sim")


def test_ram_is_chosen_only_with_room_and_never_over_the_users_tmpdir(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(scratch, "MIN_FREE_BYTES", 0)
    assert scratch.parent({}, ram=tmp_path) == str(tmp_path)
    assert scratch.parent({"TMPDIR": "/somewhere"}, ram=tmp_path) is None  # tempfile takes $TMPDIR
    assert scratch.parent({}, ram=tmp_path / "absent") is None
    monkeypatch.setattr(scratch, "MIN_FREE_BYTES", 1 << 62)
    assert scratch.parent({}, ram=tmp_path) is None  # no room: the platform's temporary folder
    assert scratch.parent({scratch.ENV: str(tmp_path)}, ram=tmp_path / "absent") == str(tmp_path)
