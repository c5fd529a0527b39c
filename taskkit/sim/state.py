"""The simulated device's state: a directory anyone can inspect afterwards.

Layout of a state directory::

    STATE/fs/                      the Android filesystem (/data/data/<pkg>/..., /data/media/0 = /sdcard)
    STATE/fs/data/system/users/0/settings.db   settings provider (tables system, secure, global)
    STATE/device.json              clock, time zone, system properties, foreground activity
    STATE/app_databases.json       the apps' first-run databases (device path -> DDL)
    STATE/logcat.txt               the log buffer, one `threadtime` line per entry

Every app database is an ordinary SQLite file, so `sqlite3 STATE/fs/data/data/<pkg>/databases/x.db`
works on it with the stock CLI.
"""
from __future__ import annotations

import collections
import errno
import functools
import json
import marshal
import os
import posixpath
import threading
from pathlib import Path
from typing import Any

from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim import heldjson, jsonstore, writeback
from taskkit.sim.realpaths import real_path


SDCARD = "/storage/emulated/0"
SDCARD_BACKING = "/data/media/0"
# Every name under which apps and the shell reach shared storage.
STORAGE_ALIASES = ("/sdcard", "/storage/self/primary", "/mnt/sdcard", SDCARD)
SETTINGS_DB = "/data/system/users/0/settings.db"
MAX_SYMLINK_HOPS = 40  # Linux's MAXSYMLINKS: more links in one lookup is ELOOP
LOG_NAME = "logcat.txt"  # the log buffer's file in the state directory


def is_inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Does `path`, with every host link in it followed, lie in (or be) directory `root`?"""
    return _real_inside(real_path(path), real_path(root))


def _real_inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


class _Reads(threading.local):
    """Per thread: while a caller records what it reads (taskkit.sim.gui.cache), the set that
    `SimState.host_path` adds every host path it resolves to; None otherwise."""

    paths: set[str] | None = None


READS = _Reads()


class SimState:
    """Paths, the device clock, properties and the foreground app of one simulated device."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root)
        self.fs_root = self.root / "fs"
        self._key = writeback.key(self.root)
        self._version = _CONFIG.current(self._key)  # the version `config` was read from
        self.config: dict[str, Any] = _data(self._version) or {}
        self.config.setdefault("clock_epoch", DEVICE_EPOCH)
        self.config.setdefault("props", {})
        self.config.setdefault("foreground", None)  # "pkg/.Activity" or None
        self.config.setdefault("is_root", True)
        self.config.setdefault("log_seq", 0)
        self._loaded = jsonstore.copy(self.config)  # what this view read: the base of `save`'s merge

    # --- persistence -----------------------------------------------------------------------
    def save(self) -> None:
        """Keep device.json as `config` now has it (call after changing `config`).

        What only the running system holds on a phone (`HELD_KEYS`: the activity manager's
        tasks and foreground, the clipboard) is held in this process (taskkit.sim.heldjson) and
        written back later (taskkit.sim.writeback), like gui.json; any other change (the clock,
        properties, the quota...) is written at once. Several views of one
        device (concurrent adb streams) may save: each keeps only what it changed since it read,
        merged into the current version, so none undoes another.
        """
        with _SAVE_LOCK:
            version = _CONFIG.current(self._key)
            if version is self._version and version.derived is not None and self.config == self._loaded:
                return  # the file `config` was read from is current, and neither has changed
            current = _data(version)
            merged = _merge(current or {}, self._loaded, self.config)
            if merged != current:  # nothing new (and a file already there): nothing to keep
                lasting = current is None or any(
                    current.get(key) != merged.get(key) for key in set(current) | set(merged) if key not in HELD_KEYS)
                if current is None:  # no file yet (a mkdir is an event the change hooks follow)
                    self.root.mkdir(parents=True, exist_ok=True)
                version = _CONFIG.hold(self._key, *config_text(merged), write=lasting)
            self.config.clear()
            self.config.update(merged)
            self._loaded = jsonstore.copy(self.config)
            self._version = version

    # --- paths -----------------------------------------------------------------------------
    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        """The absolute, `..`-free device path that `path` names from `cwd`."""
        joined = path if path.startswith("/") else posixpath.join(cwd, path)
        normal = posixpath.normpath(joined)
        return "/" + normal.lstrip("/") if normal != "/" else "/"

    @staticmethod
    def canonical(path: str) -> str:
        """Map every shared-storage alias onto its backing directory (/data/media/0)."""
        if not path.startswith(STORAGE_ALIASES):  # (what every alias below starts with)
            return path
        for alias in STORAGE_ALIASES:
            if path == alias or path.startswith(alias + "/"):
                return SDCARD_BACKING + path[len(alias):]
        return path

    def host_path(self, path: str, cwd: str = "/", follow: bool = True) -> Path:
        """The host file that backs device path `path`, resolved as the device's kernel would.

        This is the only way from a device path to a host path, and its result is always inside
        `fs_root`: symbolic links met on the way are read from the state directory and their
        targets taken as *device* paths (an absolute target starts again at the device root, `..`
        stops there), so the host never follows a link itself. With `follow=False` a link in
        the last component is left as it is (lstat, unlink and rename semantics). Raises
        OSError(ELOOP) after 40 links, as Linux does.
        """
        norm = self.normalize(path, cwd)
        if follow or norm == "/":
            host = self._followed(norm, norm)
        else:
            parent, name = posixpath.split(norm)
            host = self._followed(parent, norm) / name
        if READS.paths is not None:
            READS.paths.add(str(host))
        return host

    def _followed(self, device_path: str, norm: str) -> Path:
        """The host path of normalized `device_path` with every link in it followed, confined
        to `fs_root` (`norm`: the path a refusal names)."""
        canonical = self.canonical(device_path)
        return self._unlinked(canonical) or self._confined(self._resolve(canonical), norm)

    def _unlinked(self, device_path: str) -> Path | None:
        """The host path of absolute, normalized `device_path` when no link lies on its way
        (None otherwise: `_resolve` walks it): the kernel's real path of the host path as
        written is then that path below the real state folder. (A link followed changes the
        text, unless it leads back to where it stands: a loop, which the kernel refuses.)"""
        if device_path == "/":
            return None
        host = self._fs_text + device_path
        return _path(host) if real_path(host) == self.real_fs_root + device_path else None

    def _resolve(self, device_path: str) -> Path:
        """The host path of absolute `device_path` with every symbolic link in it resolved."""
        pending = [part for part in reversed(device_path.split("/")) if part]  # next one last
        done: list[str] = []
        root = os.fspath(self.fs_root)
        hops = 0
        while pending:
            name = pending.pop()
            if name in (".", ".."):
                if name == ".." and done:
                    done.pop()
                continue
            try:
                target = os.readlink("/".join((root, *done, name)))  # (no pathlib here: every command resolves many)
            except OSError:  # not a link, missing, or below a file: the syscall will tell
                done.append(name)
                continue
            hops += 1
            if hops > MAX_SYMLINK_HOPS:
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), device_path)
            if target.startswith("/"):
                done.clear()
            pending.extend(part for part in reversed(target.split("/")) if part)
        return self.fs_root.joinpath(*done)

    def _confined(self, host: Path, device_path: str) -> Path:
        """`host` if the host's own resolution of it stays inside `fs_root`; else EACCES.

        A second guard: `_resolve` leaves no link on the way, so this fails only if the tree
        changes between the two steps.
        """
        if not _real_inside(real_path(host), self.real_fs_root):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), device_path)
        return host

    @functools.cached_property
    def _fs_text(self) -> str:
        return os.fspath(self.fs_root)

    @functools.cached_property
    def real_fs_root(self) -> str:
        """`fs_root` with every host link in it resolved (read once: the directory stays put)."""
        return os.path.realpath(self.fs_root)

    # --- clock -----------------------------------------------------------------------------
    @property
    def clock_epoch(self) -> int:
        return int(self.config["clock_epoch"])

    def set_clock(self, epoch: int) -> None:
        self.config["clock_epoch"] = int(epoch)
        self.save()

    def stamp(self, *hosts: str | os.PathLike[str]) -> None:
        """Give each existing host path (not following a last link) the device clock as its
        access and change time, as the device's kernel stamps what it writes with its clock."""
        t = self.clock_epoch
        for host in hosts:
            try:
                os.utime(host, (t, t), follow_symlinks=False)
            except (FileNotFoundError, NotADirectoryError):  # (one system call, not a test and then this)
                pass

    # --- log buffer ------------------------------------------------------------------------
    @property
    def logcat_path(self) -> Path:
        return self.root / LOG_NAME


_PATHS: dict[str, Path] = {}  # host path objects by their text (immutable, so shared)
MAX_PATHS = 1024


def _path(text: str) -> Path:
    """`Path(text)`, made once per text (parsing one costs more than the lookup that needs it)."""
    found = _PATHS.get(text)
    if found is None:
        if len(_PATHS) >= MAX_PATHS:
            _PATHS.clear()
        found = _PATHS[text] = Path(text)
    return found


_SAVE_LOCK = threading.Lock()
#: device.json's keys a phone keeps only in memory (held between commands, not written at once)
HELD_KEYS = frozenset({"foreground", "tasks", "next_task_id", "clipboard"})


def _frozen_of(entry: jsonstore.Entry | None) -> bytes | None:
    return entry.frozen if entry is not None else None


_CONFIG = heldjson.HeldFiles("device.json", _frozen_of, lambda frozen: "")


def _data(version: heldjson.Version) -> dict[str, Any] | None:
    """A private copy of the config `version` holds (None: no device.json yet)."""
    return marshal.loads(version.derived) if version.derived is not None else None


MAX_ENCODED = 64  # device.json entries (key and value) kept encoded per process


def config_text(config: dict[str, Any]) -> tuple[str, bytes]:
    """device.json's text for `config` (sorted keys: the same data gives the same file; no
    indent, which takes json's pure-Python encoder) and `marshal.dumps` of the data that text
    reads back as. Each top-level entry is encoded once per value: a save changes one or two
    of them (the foreground, the tasks), the rest (the app databases' schemas: most of the
    file) is joined as it was."""
    try:
        parts = [_encoded_entry(key, config[key]) for key in sorted(config)]
    except (TypeError, ValueError):  # a key that is not text, a value marshal cannot take
        text = json.dumps(config, sort_keys=True, separators=(",", ":"))
        return text, marshal.dumps(json.loads(text))
    return "{" + ",".join(text for text, _ in parts) + "}", marshal.dumps(dict(read for _, read in parts))


_ENCODED: collections.OrderedDict[bytes, tuple[str, tuple[str, Any]]] = collections.OrderedDict()
_ENCODED_LOCK = threading.Lock()


def _encoded_entry(key: str, value: Any) -> tuple[str, tuple[str, Any]]:
    """`"key":value` as device.json holds it, and the (key, value) a read of it gives, kept by
    the entry's marshal at version 0 (no references or interning: equal bytes are equal values,
    types and order, so the same text). The value read is shared: never handed out unmarshalled."""
    if type(key) is not str:
        raise TypeError(key)
    frozen = marshal.dumps((key, value), 0)
    with _ENCODED_LOCK:
        found = _ENCODED.get(frozen)
        if found is not None:
            _ENCODED.move_to_end(frozen)  # (the least recently saved go first)
    if found is None:
        text = json.dumps({key: value}, separators=(",", ":"), sort_keys=True)[1:-1]
        found = text, next(iter(json.loads("{" + text + "}").items()))
        with _ENCODED_LOCK:  # kept as given and as read back (what the next save starts from)
            _ENCODED[frozen] = _ENCODED[marshal.dumps(found[1], 0)] = found
            while len(_ENCODED) > MAX_ENCODED:
                _ENCODED.popitem(last=False)
    return found


def _merge(current: dict[str, Any], base: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """Three-way merge: `current` plus what changed from `base` to `mine` (dicts merged by key)."""
    merged = dict(current)
    for key in set(base) | set(mine):
        if key not in mine:
            merged.pop(key, None)
        elif key not in current:  # a default this view filled in, or a key it added
            merged[key] = jsonstore.copy(mine[key])
        elif base.get(key) != mine[key]:
            if isinstance(mine[key], dict) and isinstance(base.get(key), dict) and isinstance(current.get(key), dict):
                merged[key] = _merge(current[key], base[key], mine[key])
            else:
                merged[key] = jsonstore.copy(mine[key])
    return merged
