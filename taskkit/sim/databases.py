"""The databases a simulated device creates on a first run: the system's and the apps'.

The system's own databases (the settings provider) are data here; the apps' first-run
databases come from their app models (`taskkit.apps`, which own their schemas) and are recorded
in the state directory's `app_databases.json` (device path -> DDL), so that `pm clear` can
recreate them and a stored device can be given the databases of an app registered after it was
built. They lived in device.json until issue #37's ninth pass: 12 of its 13 KB, read, compared
and copied with every save of the activity manager's state. A device stored before that keeps
them there until its next `install_app_databases` moves them.

A first-run database is its DDL executed into an empty file once per process (per DDL text); every
later one is a copy of the bytes that left (`pm clear` recreates the same few databases on every
reset). SQLite's file format holds no time, name or path, so for one library the bytes depend on
the DDL alone (https://www.sqlite.org/fileformat2.html, "The Database Header").
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Mapping

from taskkit.sim import jsonstore, sqlite_sandbox, storage
from taskkit.sim.commands.settings import SETTINGS_DDL
from taskkit.sim.state import SETTINGS_DB, SimState

# Device path -> the DDL that creates it: the system's own databases.
DATABASES: dict[str, str] = {
    SETTINGS_DB: SETTINGS_DDL,
}
_SIDE_FILES = ("-journal", "-wal", "-shm")
# DDL text -> the bytes of the database file executing it into an empty file left (this process)
_BUILT: dict[str, bytes] = {}


def create_database(state: SimState, path: str, ddl: str) -> Path:
    """(Re)create the SQLite file at device path `path` from `ddl` (and no journal beside it): the
    first time in this process by executing `ddl`, then by writing the bytes that left (a device
    without room for them: ENOSPC, and no file, rather than a torn one). Returns its host path."""
    host = state.host_path(path)
    if not host.parent.is_dir():
        host.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", *_SIDE_FILES):  # looked at first: a removal is a write the change recorder journals
        if os.path.lexists(old := f"{host}{suffix}"):
            os.unlink(old)
    built = _BUILT.get(ddl)
    if built is not None:
        device = storage.of(state)
        with device.lock:
            if device.room(len(built)) < len(built):
                raise storage.no_space(host)
            device.write_file(host, built)
        return host
    con = sqlite_sandbox.connect(state, host)
    try:
        con.executescript(ddl)
        con.commit()
    finally:
        con.close()
    if not any(os.path.lexists(f"{host}{suffix}") for suffix in _SIDE_FILES):  # the file is whole
        _BUILT[ddl] = host.read_bytes()
    return host


APP_DATABASES = "app_databases.json"  # in the state directory, beside device.json
_LEGACY_KEY = "app_databases"  # where a device stored before recorded them (device.json)


def recorded_app_databases(state: SimState) -> dict[str, str]:
    """The apps' first-run databases recorded for the device (device path -> DDL; a copy)."""
    entry = jsonstore.read(state.root / APP_DATABASES)
    if entry is not None:
        return entry.data()
    return dict(state.config.get(_LEGACY_KEY, {}))


def record_app_databases(state: SimState, recorded: Mapping[str, str]) -> None:
    """Record the apps' first-run databases (all of them: `recorded` replaces what was there),
    dropping them from `state.config` if a device stored before kept them there (the caller
    saves it)."""
    state.root.mkdir(parents=True, exist_ok=True)
    jsonstore.write(state.root / APP_DATABASES, json.dumps(dict(recorded), sort_keys=True, separators=(",", ":")))
    state.config.pop(_LEGACY_KEY, None)


def first_run_databases(state: SimState) -> dict[str, str]:
    """Device path -> DDL of every database the device creates on a first run (system and apps)."""
    return {**DATABASES, **recorded_app_databases(state)}


def install_app_databases(state: SimState, databases: Mapping[str, str]) -> list[str]:
    """Record apps' first-run databases and create those that do not exist yet; their paths."""
    before = recorded_app_databases(state)
    recorded = dict(before)
    created = []
    for path, ddl in databases.items():
        if recorded.get(path) == ddl and state.host_path(path).exists():
            continue
        recorded[path] = ddl
        if not state.host_path(path).exists():
            create_database(state, path, ddl)
            _stamp_database(state, path)
            created.append(path)
    if recorded != before or _LEGACY_KEY in state.config or not (state.root / APP_DATABASES).exists():
        record_app_databases(state, recorded)
        state.save()
    return created


def _stamp_database(state: SimState, path: str) -> None:
    host = state.host_path(path)
    os.utime(host, (state.clock_epoch, state.clock_epoch))
    os.utime(host.parent, (state.clock_epoch, state.clock_epoch))


def create_package_databases(state: SimState, package: str) -> list[str]:
    """Recreate the first-run databases of `package` (e.g. after `pm clear`); their paths."""
    prefixes = (f"/data/data/{package}/", f"/data/user_de/0/{package}/")  # credential and device-encrypted storage
    databases = first_run_databases(state)
    paths = [path for path in databases if path.startswith(prefixes)]
    for path in paths:
        create_database(state, path, databases[path])
        _stamp_database(state, path)
    return paths
