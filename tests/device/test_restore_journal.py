"""A run killed at any step of saving or restoring a restore point never loses the user's data.

The simulated device carries out each shell command through ordinary host file operations; the
kill is an exception raised at the N-th one of them (unlink, rmdir, rename, mkdir, symlink, a
file's contents copied, a time stamp set), for every N until the operation completes unkilled.
After each kill the next run's `recover` must leave the device exactly as it was before the
episode (every file, folder and setting), and leave no restore point behind. A restore point
that is damaged (a saved copy gone) is refused, with nothing deleted.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from typing import Callable, Iterator

import pytest

from taskkit.device import state
from taskkit.sim.device import SimDevice

APP = "/data/data/com.example.app"
DOCS = "/sdcard/Documents"
NEW = "/sdcard/Download/made-by-the-episode"
PATHS = (APP, DOCS, NEW)  # NEW does not exist when the restore point is saved


class Killed(BaseException):
    """The process died here."""


_MUTATORS = [(os, "unlink"), (os, "remove"), (os, "rmdir"), (os, "rename"), (os, "replace"), (os, "mkdir"),
             (os, "symlink"), (os, "utime"), (shutil, "copyfileobj")]


@contextlib.contextmanager
def killed_at(step: int) -> Iterator[list[int]]:
    """Raise Killed at the `step`-th host file operation inside the block; yields the count."""
    count = [0]
    saved = [(module, name, getattr(module, name)) for module, name in _MUTATORS]

    def counting(original: Callable) -> Callable:
        def operation(*args, **kwargs):
            count[0] += 1
            if count[0] == step:
                raise Killed
            return original(*args, **kwargs)
        return operation

    for module, name, original in saved:
        setattr(module, name, counting(original))
    try:
        yield count
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


def _user_data(device: SimDevice) -> None:
    device.files.write_text(f"{APP}/databases/app.db", "original rows")
    device.files.write_text(f"{APP}/shared_prefs/prefs.xml", "<map/>")
    device.files.write_text(f"{DOCS}/thesis.md", "four years of work")
    device.files.write_text(f"{DOCS}/notes/ideas.txt", "ideas")
    device.settings.put("global", "wifi_on", "0")


def _episode(device: SimDevice) -> None:
    """What an agent might do between save and restore."""
    device.files.write_text(f"{DOCS}/thesis.md", "deleted by mistake")
    device.run(f"rm -rf {DOCS}/notes {APP}/shared_prefs")
    device.files.write_text(f"{APP}/databases/app.db", "changed rows")
    device.files.write_text(f"{NEW}/x.txt", "new")
    device.settings.put("global", "wifi_on", "1")


def _steps(action: Callable[[], object]) -> int:
    """How many host file operations `action` performs unkilled."""
    with killed_at(0) as count:
        action()
    return count[0]


def _assert_recovered(device: SimDevice, before: set[str]) -> None:
    state.recover(device)
    assert state.difference(before, state.listing(device)) == "no difference"
    assert device.files.read_text(f"{DOCS}/thesis.md") == "four years of work"
    assert state.pending_restore_points(device) == []
    assert device.shell(f"ls -a {state.RESTORE_ROOT}").stdout.split() in ([], [".", ".."])


def test_a_kill_at_every_step_of_a_restore_loses_nothing(tmp_path) -> None:
    probe = SimDevice(tmp_path / "probe")
    _user_data(probe)
    point = state.save_restore_point(probe, "probe.1", PATHS, ("com.example.app",))
    _episode(probe)
    total = _steps(lambda: state.restore(probe, point))
    assert total > 20  # the restore really goes through many file operations
    for step in range(1, total + 1):
        device = SimDevice(tmp_path / f"restore-{step}")
        _user_data(device)
        before = state.listing(device)
        point = state.save_restore_point(device, "t.1", PATHS, ("com.example.app",))
        _episode(device)
        with pytest.raises(Killed), killed_at(step):
            state.restore(device, point)
        device.close()
        _assert_recovered(SimDevice(tmp_path / f"restore-{step}"), before)  # the next run


def test_a_kill_at_every_step_of_a_save_loses_nothing(tmp_path) -> None:
    probe = SimDevice(tmp_path / "probe")
    _user_data(probe)
    total = _steps(lambda: state.save_restore_point(probe, "probe.1", PATHS, ()))
    for step in range(1, total + 1):
        device = SimDevice(tmp_path / f"save-{step}")
        _user_data(device)
        before = state.listing(device)
        with pytest.raises(Killed), killed_at(step):
            state.save_restore_point(device, "t.1", PATHS, ("com.example.app",))
        _assert_recovered(device, before)


def test_a_kill_while_the_retired_point_is_deleted_keeps_the_users_folder(tmp_path) -> None:
    """The defect: deleting the point's saved copies before its manifest made `recover` read a
    missing copy as "this path did not exist" and delete the user's folder."""
    device = SimDevice(tmp_path / "d")
    _user_data(device)
    before = state.listing(device)
    point = state.save_restore_point(device, "t.1", PATHS, ())
    _episode(device)
    total = _steps(lambda: state.restore(SimDevice(tmp_path / "d"), point))
    device2 = SimDevice(tmp_path / "e")
    _user_data(device2)
    point = state.save_restore_point(device2, "t.1", PATHS, ())
    _episode(device2)
    with pytest.raises(Killed), killed_at(total - 1):  # inside the final deletion
        state.restore(device2, point)
    _assert_recovered(device2, before)


def _damage(device: SimDevice) -> str:
    point = state.save_restore_point(device, "t.1", PATHS, ())
    _episode(device)
    device.run(f"rm -rf {point.directory}/1")  # the saved copy of Documents is gone
    return point.directory


def test_a_damaged_restore_point_is_refused_and_nothing_is_deleted(tmp_path) -> None:
    device = SimDevice(tmp_path / "d")
    _user_data(device)
    directory = _damage(device)
    listing = state.listing(device)
    with pytest.raises(state.RestoreError, match=r"damaged \(a saved copy is missing\); nothing was restored"):
        state.recover(device)
    assert state.listing(device) == listing  # nothing restored, nothing deleted
    assert device.files.read_text(f"{DOCS}/thesis.md") == "deleted by mistake"
    assert device.check(f"ls {directory}").split() == ["0", "2.absent", "manifest.json", "settings.txt"]


def test_a_run_on_a_damaged_device_is_one_line_and_exit_3(tmp_path) -> None:
    device = SimDevice(tmp_path / "d")
    _user_data(device)
    _damage(device)
    device.close()
    run = subprocess.run([sys.executable, "-m", "taskkit.run", "--device", f"sim:{tmp_path / 'd'}",
                          "--tasks", "SystemWifiTurnOn", "--noside_effects"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 3, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert "restore point /data/local/tmp/taskkit/restore/t.1" in lines[0] and "damaged" in lines[0]
    assert SimDevice(tmp_path / "d").files.read_text(f"{DOCS}/thesis.md") == "deleted by mistake"
