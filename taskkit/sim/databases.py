"""The databases a simulated device creates on a first run: the system's and the apps'.

The system's own databases (the settings provider) are data here; the apps' first-run
databases come from their app models (`taskkit.apps`, which own their schemas) and are recorded
in device.json, so that `pm clear` can recreate them and a stored device can be given the
databases of an app registered after it was built.
"""
from __future__ import annotations

import os
from typing import Mapping

from taskkit.sim import sqlite_sandbox
from taskkit.sim.commands.settings import SETTINGS_DDL
from taskkit.sim.state import SETTINGS_DB, SimState

# Device path -> the DDL that creates it: the system's own databases.
DATABASES: dict[str, str] = {
    SETTINGS_DB: SETTINGS_DDL,
}


def create_database(state: SimState, path: str, ddl: str) -> None:
    """(Re)create the SQLite file at device path `path` from `ddl`."""
    host = state.host_path(path)
    host.parent.mkdir(parents=True, exist_ok=True)
    host.unlink(missing_ok=True)
    con = sqlite_sandbox.connect(state, host)
    try:
        con.executescript(ddl)
        con.commit()
    finally:
        con.close()


def first_run_databases(state: SimState) -> dict[str, str]:
    """Device path -> DDL of every database the device creates on a first run (system and apps)."""
    return {**DATABASES, **state.config.get("app_databases", {})}


def install_app_databases(state: SimState, databases: Mapping[str, str]) -> list[str]:
    """Record apps' first-run databases and create those that do not exist yet; their paths."""
    recorded = state.config.setdefault("app_databases", {})
    created = []
    for path, ddl in databases.items():
        if recorded.get(path) == ddl and state.host_path(path).exists():
            continue
        recorded[path] = ddl
        if not state.host_path(path).exists():
            create_database(state, path, ddl)
            _stamp_database(state, path)
            created.append(path)
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
