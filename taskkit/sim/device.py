"""`SimDevice`: the embedded simulated Android device, in process."""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import Collection, Mapping

from taskkit.device.base import Device, ShellResult
from taskkit.errors import TaskkitError
from taskkit.sim import audit_events, changes, databases, image, limits, scratch, shell, storage, writeback
from taskkit.sim.state import SimState


COMMAND_TIMEOUT = 60.0
MARKER = "device.json"  # every taskkit simulated device's state directory holds it
_OWN_FILES = {MARKER, ".taskkit.lock"}


class StateDirError(TaskkitError, ValueError):
    """A directory that is neither empty nor a taskkit device's state directory, or a device
    that cannot be opened as configured (a storage quota that is not a number of bytes)."""


def check_state_dir(path: str | os.PathLike[str], marker: str = MARKER, own_files: Collection[str] = _OWN_FILES,
                    kind: str = "a taskkit device") -> Path:
    """`path` as a usable state directory: new, empty (but for `own_files`), or already `kind`
    (it holds the file `marker`). taskkit.outdir applies the same rule to output directories.

    Anything else (a file, a directory holding other things, a place that cannot be written)
    raises StateDirError and is left untouched.
    """
    root = Path(path)
    if root.exists() and not root.is_dir():
        raise StateDirError(f"{path} is a file, not a directory; give an empty or new directory")
    if root.is_dir():
        if (root / marker).is_file():
            return root
        others = sorted(entry.name for entry in root.iterdir() if entry.name not in own_files)
        if others:
            raise StateDirError(f"{path} is not empty and not {kind} (it holds {others[0]!r}"
                                f"{' and more' if len(others) > 1 else ''}); give an empty or new directory")
        if not os.access(root, os.W_OK):
            raise StateDirError(f"{path} is not writable")
        return root
    try:
        root.mkdir(parents=True)
    except OSError as error:
        raise StateDirError(f"cannot create {path}: {error.strerror or error}") from None
    return root


def _remove(state: SimState) -> None:
    """Remove a device's temporary directory, and forget what this process held for it (its
    change recorder first: an episode's watch would keep pre-images of what the removal takes)."""
    changes.forget(state)
    storage.forget(state)
    writeback.discard(state.root)
    shutil.rmtree(state.root, ignore_errors=True)


class SimDevice(Device):
    """An Android-13-like device whose whole state lives in one directory.

    `SimDevice()` makes a fresh device in a temporary directory (removed by `close()`, or when the
    device is dropped or the process exits);
    `SimDevice(path)` opens the device stored at `path`, building a fresh image there first if
    the directory is empty (a directory that holds anything else is refused: `StateDirError`).
    `app_databases` (device path -> DDL, from the app models:
    `taskkit.apps.first_run_databases()`) are the databases the installed apps create on their
    first run; those a stored device lacks are created when it is opened.
    """

    #: Seconds one command may run (None: no limit); a command past it exits 124.
    command_timeout: float | None = COMMAND_TIMEOUT
    #: It runs the change recorder (`taskkit-changes`): taskkit.device.state need not ask.
    change_recorder = True
    #: Its `uiautomator dump /dev/tty` prints the dump: observing the screen writes no file.
    dumps_to_terminal = True
    #: Its raw `screencap` is drawn in process and moved as bytes: `ui.pixels()` encodes no PNG.
    raw_screenshots = True
    _removal: weakref.finalize | None = None  # removes the temporary directory it made (none given)

    def __init__(self, state_dir: str | Path | None = None, app_databases: Mapping[str, str] | None = None):
        super().__init__()
        root = Path(tempfile.mkdtemp(prefix="taskkit-sim-", dir=scratch.parent())) if state_dir is None else check_state_dir(state_dir)
        self.state = SimState(root)
        if state_dir is None:  # a temporary directory goes with the device: at close(), when the
            # device is dropped, or at exit (it is often in /dev/shm, memory that outlives the process)
            self._removal = weakref.finalize(self, _remove, self.state)
        try:
            storage.quota_of(self.state)  # a bad quota (device.json, the environment) stops here
        except storage.QuotaError as error:
            if self._removal is not None:
                self._removal()
            raise StateDirError(str(error)) from None
        if not (root / MARKER).exists():
            writeback.discard(root)  # a new device: what this process held for an earlier one there is not its
            image.build(self.state, app_databases)
        elif app_databases:
            databases.install_app_databases(self.state, app_databases)
        self.serial = f"sim:{root}"

    def _shell(self, command: str) -> ShellResult:
        with limits.deadline(self.command_timeout):
            return shell.run(self.state, command)

    def _exec_out(self, command: str) -> tuple[bytearray, str, int]:
        with limits.deadline(self.command_timeout):
            stdout, stderr, exit_code = shell.run_bytes(self.state, command)
        return stdout, stderr.decode("utf-8", "replace"), exit_code  # (a new buffer per command: the caller's alone)

    def _push(self, data: bytes, path: str) -> None:
        with audit_events.kept_real_paths():  # (its writes' listeners resolve the same folders, as a command's do)
            target = self.state.host_path(path)
            if target.is_dir():
                raise IsADirectoryError(f"remote object '{path}' is a directory")
            created = []  # new directories, then the existing ancestor whose listing changed
            ancestor = target.parent
            while not ancestor.exists():
                created.append(ancestor)
                ancestor = ancestor.parent
            if created or not target.exists():
                created.append(ancestor)
            target.parent.mkdir(parents=True, exist_ok=True)
            storage.write_file(self.state, target, data)
            t = self.state.clock_epoch  # every write carries the device clock as its mtime
            for path in [target, *created]:
                os.utime(path, (t, t))

    def _pull(self, path: str) -> bytes:
        source = self.state.host_path(path)
        if not source.is_file():
            raise FileNotFoundError(f"remote object '{path}' does not exist")
        return source.read_bytes()

    def close(self) -> None:
        if self._removal is not None:
            self._removal()
        else:
            storage.forget(self.state)
            writeback.close(self.state.root)  # what it kept in memory (the GUI's state, log lines) goes to the directory
