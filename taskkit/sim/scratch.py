"""Where a simulated device made without a state directory (`--device sim`, `sim_device()`) keeps
its state for the life of the process: in memory when the machine has room for it.

A device's state is hundreds of small files and folders that every command reads and writes
(a fresh device: 260 entries, about 0.4 MB). On a RAM filesystem (tmpfs) building one costs
0.07 s of CPU against 0.25-0.5 s on this project's ext4 disks, and nothing is flushed; the state
is temporary either way (removed when the device closes). The order:

1. `$TASKKIT_SIM_DIR`, when set: that folder (it must exist and be writable);
2. `$TMPDIR`, when set: the user's choice of temporary space (the tests set it);
3. `/dev/shm` (Linux's tmpfs), when it is a writable folder with `MIN_FREE_BYTES` free;
4. otherwise the platform's temporary folder (`tempfile.gettempdir()`).

A process killed outright leaves its directory behind in any of them, as with any temporary file.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from taskkit.errors import TaskkitError

ENV = "TASKKIT_SIM_DIR"
RAM = Path("/dev/shm")
MIN_FREE_BYTES = 1 << 30  # room for many devices: a busy one holds tens of MB


class ScratchDirError(TaskkitError, ValueError):
    """$TASKKIT_SIM_DIR names no writable folder."""


def parent(environ: Mapping[str, str] = os.environ, ram: Path = RAM) -> str | None:
    """The folder to make a device's temporary state directory in (None: tempfile's default)."""
    chosen = environ.get(ENV, "")
    if chosen:
        if not (os.path.isdir(chosen) and os.access(chosen, os.W_OK | os.X_OK)):
            raise ScratchDirError(f"{ENV}={chosen}: not a writable folder; make it, or unset {ENV} "
                                  "to keep simulated devices in /dev/shm or $TMPDIR")
        return chosen
    if environ.get("TMPDIR"):
        return None  # tempfile reads it
    return str(ram) if _roomy(ram) else None


def _roomy(folder: Path) -> bool:
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK) and stats.f_bavail * stats.f_frsize >= MIN_FREE_BYTES
