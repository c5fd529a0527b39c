"""One run per device: an exclusive lock per device, held for the whole run.

A lock is an `flock` on a host file — in the state directory of a `sim:DIR` device, else under
the host's temp directory for an adb serial — so it vanishes with the process that held it: a
stale lock of a dead process is simply taken over. The holder writes its pid and command line
into the file, so a second run can say who holds the device. An output directory is locked
the same way (taskkit.outdir), with its own error.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from taskkit.errors import TaskkitError

LOCK_NAME = ".taskkit.lock"


class DeviceBusy(TaskkitError, RuntimeError):
    """Another live process holds the device."""


class LockUnusable(TaskkitError, RuntimeError):
    """A lock file that cannot be opened as one (a planted link, a directory): nothing is locked."""


def key_for(spec: str, adb_host: str = "127.0.0.1", adb_port: int = 5037) -> Path | None:
    """The lock file for a `--device` spec, or None for a device nobody else can reach (`sim`)."""
    kind, _, argument = spec.partition(":")
    if kind == "sim":
        return Path(argument) / LOCK_NAME if argument else None
    name = hashlib.sha256(f"{adb_host}:{adb_port}:{argument}".encode("utf-8")).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / "taskkit-locks" / f"adb-{name}.lock"


def _device_busy(holder: str, path: Path) -> TaskkitError:
    return DeviceBusy(f"the device is in use by {holder} (lock {path}); wait for it to end or use another device")


@contextlib.contextmanager
def hold(path: Path | None, label: str | None = None, busy: Callable[[str, Path], TaskkitError] = _device_busy,
         dir_fd: int | None = None) -> Iterator[None]:
    """Hold the lock at `path` for the block; if it is taken, raises `busy(holder, path)` (by
    default DeviceBusy) naming the holder.

    The lock file is opened without following a symbolic link (O_NOFOLLOW): a link planted under
    its name is an OSError (ELOOP), never a file truncated through it. With `dir_fd` the file is
    `path.name` in that open directory (`path` names it in messages). The directory of an adb
    lock is created; a `sim:DIR` must exist (it is checked first).
    """
    if path is None:
        yield
        return
    if path.name != LOCK_NAME and dir_fd is None:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path.name if dir_fd is not None else path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o666, dir_fd=dir_fd)
    except OSError as error:  # a link planted under its name (ELOOP), a directory, no permission
        raise LockUnusable(f"the lock file {path} cannot be opened ({error.strerror or error}); remove it, or make "
                           "it a regular file this user can write") from None
    with open(fd, "r+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            raise busy(handle.read().strip() or "another process", path) from None
        handle.seek(0)
        handle.truncate()
        handle.write(label or f"pid {os.getpid()} ({' '.join(sys.argv)[:200]})")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
