"""The simulated device's storage quota: what its filesystem may hold, and a running total.

A phone's /data partition (with /sdcard on it) has a size; past it every write fails with ENOSPC,
`No space left on device`. A simulated device's quota is `storage_quota` in its device.json
(`python -m taskkit.sim serve --storage_quota BYTES` sets it), else the TASKKIT_SIM_STORAGE_QUOTA
environment variable (for `taskkit.run --device sim`), else DEFAULT_QUOTA. What counts is the
size of every regular file under STATE/fs.

**Accounting costs what is written, not what is stored.** The total is computed by one walk
of the tree the first time a device is used in a process; after that every write path adds
what it writes: `write_file` (shell redirections, toybox, the GUI, screencap...), `copy_file`
(cp), `account` (what a SQLite connection's files grew by, when it closes) and `reserve` /
`release` (an adb push being staged outside the tree, charged as its data arrives). Removing
files is not followed: the total can only be too high, and when a write would not fit, the tree
is walked once more (`resync`) before the write is refused, so a device is never refused space
it has.

SQLite writes its files itself: `sqlite_sandbox` caps each main database at the pages that fit
(`PRAGMA max_page_count`, so a full device answers `database or disk is full`, as Android's
SQLite does) and charges what the files grew by when the connection closes. Databases attached
during a connection are charged at its close but not capped while it runs.
"""
from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

from taskkit.errors import TaskkitError
from taskkit.sim.state import SimState

#: The storage a simulated device has unless told otherwise (a small phone's free /data).
DEFAULT_QUOTA = 4 << 30
#: The environment variable giving the quota (bytes) of devices whose device.json does not.
QUOTA_ENV = "TASKKIT_SIM_STORAGE_QUOTA"
#: The device.json key holding a device's quota in bytes.
QUOTA_KEY = "storage_quota"


class QuotaError(TaskkitError, ValueError):
    """A storage quota that is not a positive number of bytes."""


def no_space(path: str | os.PathLike[str] | None = None) -> OSError:
    """The error a write past the quota fails with (ENOSPC)."""
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), None if path is None else os.fspath(path))


def parse_quota(text: str, what: str) -> int:
    """A quota given as text (bytes); QuotaError naming `what` if it is not a positive integer."""
    try:
        value = int(text)
    except ValueError:
        raise QuotaError(f"{what}: {text!r} is not a number of bytes") from None
    if value <= 0:
        raise QuotaError(f"{what}: {value} is not a positive number of bytes")
    return value


def quota_of(state: SimState) -> int:
    """The device's quota in bytes: device.json, else the environment, else DEFAULT_QUOTA."""
    stored = state.config.get(QUOTA_KEY)
    if stored is not None:
        return parse_quota(str(stored), f"{state.root}/device.json {QUOTA_KEY}")
    env = os.environ.get(QUOTA_ENV)
    return parse_quota(env, QUOTA_ENV) if env else DEFAULT_QUOTA


def set_quota(state: SimState, quota: int | None) -> None:
    """Store the device's quota (None: back to the environment or DEFAULT_QUOTA)."""
    if quota is None:
        state.config.pop(QUOTA_KEY, None)
    else:
        state.config[QUOTA_KEY] = parse_quota(str(quota), "storage quota")
    state.save()


def tree_size(root: Path) -> int:
    """The bytes of every regular file under `root` (links not followed)."""
    total = 0
    stack = [os.fspath(root)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total


def _size(path: Path) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


class Storage:
    """One device's quota and the running total of what its filesystem holds (thread-safe)."""

    def __init__(self, fs_root: Path, quota: int):
        self.fs_root = fs_root
        self.quota = quota
        self.lock = threading.RLock()
        self._files: int | None = None  # bytes in the tree; None: walk it at the next use
        self._reserved = 0  # bytes charged for writes staged outside the tree
        self.walks = 0  # how many times the tree was walked (the accounting's cost)

    @property
    def used(self) -> int:
        """Bytes the device's files hold, and staged writes (an upper bound between walks)."""
        with self.lock:
            return self._tree() + self._reserved

    def _tree(self) -> int:
        """The running total of the tree, walked first if it never was."""
        if self._files is None:
            self.resync()
        assert self._files is not None
        return self._files

    @property
    def free(self) -> int:
        return max(0, self.quota - self.used)

    def resync(self) -> None:
        """Walk the tree for the exact total (what was removed since is then counted off)."""
        with self.lock:
            self._files = tree_size(self.fs_root)
            self.walks += 1

    def room(self, needed: int) -> int:
        """Free bytes, walking the tree first if fewer than `needed` seem free."""
        with self.lock:
            if needed > self.free:
                self.resync()
            return self.free

    def account(self, delta: int) -> None:
        """Add `delta` bytes (negative: freed) written to the tree without `write_file`."""
        with self.lock:
            self._files = self._tree() + delta

    def reserve(self, count: int, path: str | os.PathLike[str] | None = None) -> None:
        """Charge `count` bytes staged for a later write; ENOSPC (nothing charged) if they do not
        fit. `release` them once written (or dropped)."""
        with self.lock:
            if count > self.room(count):
                raise no_space(path)
            self._reserved += count

    def release(self, count: int) -> None:
        with self.lock:
            self._reserved -= count

    def write_file(self, host: Path, data: bytes, append: bool = False) -> None:
        """Write `data` to `host` (append, or create/truncate); past the quota only what fits is
        written, as the kernel does, then ENOSPC is raised."""
        with self.lock:
            old = _size(host) if os.path.lexists(host) else 0
            fits = self.room(len(data) - (0 if append else old)) + (0 if append else old)
            with open(host, "ab" if append else "wb") as out:
                out.write(data[:max(0, fits)])
            self.account(_size(host) - old)
            if len(data) > fits:
                raise no_space(host)

    def copy_file(self, source: Path, target: Path) -> None:
        """Copy `source` over `target`; ENOSPC (target untouched) if the copy does not fit."""
        with self.lock:
            old = _size(target) if os.path.lexists(target) else 0
            size = _size(source)
            if size - old > self.room(size - old):
                raise no_space(target)
            with open(source, "rb") as fin, open(target, "wb") as fout:
                while chunk := fin.read(1 << 20):
                    fout.write(chunk)
            self.account(_size(target) - old)


_DEVICES: dict[str, Storage] = {}
_DEVICES_LOCK = threading.Lock()


def of(state: SimState) -> Storage:
    """The storage of `state`'s device (one per filesystem in a process), with its current quota."""
    key = state.real_fs_root
    quota = quota_of(state)
    with _DEVICES_LOCK:
        storage = _DEVICES.get(key)
        if storage is None:
            storage = _DEVICES[key] = Storage(state.fs_root, quota)
    storage.quota = quota
    return storage


def forget(state: SimState) -> None:
    """Drop the running total of `state`'s device (closed, or changed behind the accounting's
    back, e.g. by an undo): the next use walks its tree again."""
    with _DEVICES_LOCK:
        _DEVICES.pop(state.real_fs_root, None)


def write_file(state: SimState, host: Path, data: bytes, append: bool = False) -> None:
    """`Storage.write_file` on `state`'s device."""
    of(state).write_file(host, data, append)
