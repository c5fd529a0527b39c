"""A simulated device made in a temporary directory takes it along: at close(), when the device is
dropped, and when the process exits without closing it (the directory is usually in /dev/shm,
memory that outlives the process); a device given a directory leaves it in place."""
from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from taskkit.connect import sim_device
from taskkit.sim.device import SimDevice

_ROOT = Path(__file__).resolve().parents[2]


def test_close_removes_the_temporary_directory_once() -> None:
    device = sim_device()
    root = device.state.root
    device.shell("echo hi > /sdcard/note.txt")
    device.close()
    device.close()
    assert not root.exists()


def test_a_dropped_device_takes_its_directory_along() -> None:
    device = SimDevice()
    root = device.state.root
    assert root.is_dir()
    del device
    gc.collect()
    assert not root.exists()


def test_a_process_that_never_closes_its_devices_leaves_no_directory() -> None:
    script = ("import gymnasium, taskkit.gym\n"
              "from taskkit.connect import sim_device\n"
              "device = sim_device(); device.shell('echo hi > /sdcard/note.txt'); print(device.state.root)\n"
              "env = gymnasium.make('taskkit/Task-v0', task='SimpleSmsSend', screenshot=False).unwrapped\n"
              "env.reset(seed=1); print(env.device.state.root)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=_ROOT)
    assert done.returncode == 0, done.stderr
    roots = [Path(line) for line in done.stdout.split()]
    assert len(roots) == 2 and all(root.name.startswith("taskkit-sim-") for root in roots)
    assert [root for root in roots if root.exists()] == []


def test_a_given_directory_stays(tmp_path: Path) -> None:
    device = sim_device(tmp_path / "phone")
    device.shell("echo hi > /sdcard/note.txt")
    device.close()
    del device
    gc.collect()
    assert (tmp_path / "phone" / "fs").is_dir()
