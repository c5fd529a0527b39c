"""State a simulated device keeps in this process's memory between commands and writes to its
state directory later (issue #37): the GUI's window stacks, focus and drafts (gui.json,
taskkit/sim/gui/store.py), which every tap and dump reads and most taps change, the activity
manager's tasks, foreground and the clipboard in device.json (taskkit/sim/state.py; both files
through taskkit/sim/heldjson.py), and the log lines not yet in logcat.txt
(taskkit/sim/logbuffer.py, which also appends them when the log is read).

What keeps such state registers a `Keeper` here. It is written to the state directory:

* when the device closes (`close`: `SimDevice.close`), and then forgotten;
* when a served device's command ends (taskkit/sim/adbd.py), so that a served device's
  directory always holds what its clients did;
* at the exit of the process (`write_back` runs at exit), so that a process that opens a
  `sim:DIR` device and exits without closing it leaves its change behind;
* whenever someone asks (`write_back(root)`), e.g. before copying a state directory.

A process killed outright (SIGKILL) loses what it had not written: the screens its device showed,
its task stack and its latest log lines, as a phone that reboots loses its activities and its
log; app data, settings, files, the clock and properties are written by every command as before.
The held files' keeper lets a write by another process win over what it holds.
"""
from __future__ import annotations

import atexit
import os
import threading
from typing import Protocol


class Keeper(Protocol):
    def __call__(self, root: str | None, write: bool, forget: bool) -> None:
        """For the device in `root` (an absolute path; None: every device): write what is kept
        to its state directory if `write`, then forget it if `forget`."""


_KEEPERS: list[Keeper] = []
_LOCK = threading.Lock()


def register(keeper: Keeper) -> None:
    """Have `keeper` written back and forgotten with the devices (once per keeper)."""
    with _LOCK:
        if keeper not in _KEEPERS:
            _KEEPERS.append(keeper)


def key(root: str | os.PathLike[str]) -> str:
    """The name a device's kept state goes by: its state directory's absolute path."""
    return os.path.abspath(root)


def write_back(root: str | os.PathLike[str] | None = None) -> None:
    """Write what is kept for the device in `root` (None: every device) to its state directory."""
    _each(root, write=True, forget=False)


def close(root: str | os.PathLike[str]) -> None:
    """The device in `root` closes: write what is kept to its directory, then forget it."""
    _each(root, write=True, forget=True)


def discard(root: str | os.PathLike[str]) -> None:
    """Forget what is kept for the device in `root` without writing it (its directory goes)."""
    _each(root, write=False, forget=True)


def _each(root: str | os.PathLike[str] | None, write: bool, forget: bool) -> None:
    named = None if root is None else key(root)
    for keeper in list(_KEEPERS):
        keeper(named, write, forget)


def _at_exit() -> None:
    try:
        write_back()
    except OSError:  # a directory full or unwritable at exit: nothing more can be done
        pass


atexit.register(_at_exit)
