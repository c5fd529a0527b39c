"""The simulated device's state: a directory anyone can inspect afterwards.

Layout of a state directory::

    STATE/fs/                      the Android filesystem (/data/data/<pkg>/..., /data/media/0 = /sdcard)
    STATE/fs/data/system/users/0/settings.db   settings provider (tables system, secure, global)
    STATE/device.json              clock, time zone, system properties, foreground activity
    STATE/logcat.txt               the log buffer, one `threadtime` line per entry

Every app database is an ordinary SQLite file, so `sqlite3 STATE/fs/data/data/<pkg>/databases/x.db`
works on it with the stock CLI.
"""
from __future__ import annotations

import json
import os
import posixpath
from pathlib import Path
from typing import Any

# 2023-10-15 15:34:00 UTC, AndroidWorld's fixed device time (a Sunday).
DEFAULT_CLOCK_EPOCH = 1697384040

SDCARD = "/storage/emulated/0"
SDCARD_BACKING = "/data/media/0"
# Every name under which apps and the shell reach shared storage.
_STORAGE_ALIASES = ("/sdcard", "/storage/self/primary", "/mnt/sdcard", SDCARD)
SETTINGS_DB = "/data/system/users/0/settings.db"


class SimState:
    """Paths, the device clock, properties and the foreground app of one simulated device."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root)
        self.fs_root = self.root / "fs"
        self._config_path = self.root / "device.json"
        self.config: dict[str, Any] = (
            json.loads(self._config_path.read_text()) if self._config_path.exists() else {}
        )
        self.config.setdefault("clock_epoch", DEFAULT_CLOCK_EPOCH)
        self.config.setdefault("props", {})
        self.config.setdefault("foreground", None)  # "pkg/.Activity" or None
        self.config.setdefault("is_root", True)
        self.config.setdefault("log_seq", 0)

    # --- persistence -----------------------------------------------------------------------
    def save(self) -> None:
        """Write device.json (call after changing `config`)."""
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self._config_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.config, indent=1, sort_keys=True))
        os.replace(tmp, self._config_path)

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
        for alias in _STORAGE_ALIASES:
            if path == alias or path.startswith(alias + "/"):
                return SDCARD_BACKING + path[len(alias):]
        return path

    def host_path(self, path: str, cwd: str = "/") -> Path:
        """The host file that backs device path `path` (never outside the state directory)."""
        device_path = self.canonical(self.normalize(path, cwd))
        return self.fs_root / device_path.lstrip("/")

    # --- clock -----------------------------------------------------------------------------
    @property
    def clock_epoch(self) -> int:
        return int(self.config["clock_epoch"])

    def set_clock(self, epoch: int) -> None:
        self.config["clock_epoch"] = int(epoch)
        self.save()

    # --- log buffer ------------------------------------------------------------------------
    @property
    def logcat_path(self) -> Path:
        return self.root / "logcat.txt"
