"""What every app model declares: identity, where its state lives, and how to reset it."""
from __future__ import annotations

import dataclasses
from typing import Callable

from taskkit.apps.table import Database, Table
from taskkit.device import catalog
from taskkit.device.base import Device


@dataclasses.dataclass(frozen=True)
class App:
    """One Android app as tasks see it.

    `name` is AndroidWorld's lowercase app name ("simple calendar pro"); `activity`, the launch
    activity, comes from the device image's package catalog (`taskkit.device.catalog`) unless
    given (an app the catalog does not list must give it). `data_paths` are the
    device paths (directories or files) whose contents are the app's state: `TaskEval`
    snapshots them before `initialize_state` and restores them in `teardown`. `settings` lists
    the settings namespaces the app's tasks change (snapshotted the same way). `reset` brings
    the app's data to its clean first-run state (by default: its declared tables emptied). `databases` are the SQLite databases the app
    creates on its first run (device path and DDL): the simulated device is built from them.
    `tables` lists the tables tasks and specs name (typed from that DDL, with the app's
    defaults), so specs are type-checked against the app's own schema.
    """

    name: str
    package: str
    activity: str = ""
    data_paths: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    reset: Callable[[Device], None] | None = None  # None: empty every declared table
    aliases: tuple[str, ...] = ()
    databases: tuple[Database, ...] = ()
    tables: tuple[Table, ...] = ()
    #: The module that defines the app (a fresh process imports it to find a user's app).
    module: str = ""

    def __post_init__(self) -> None:
        if not self.activity:
            listed = catalog.get(self.package)
            if listed is None or listed.launch_activity is None:
                raise ValueError(f"app {self.name!r}: {self.package} is not in taskkit.device.catalog; give its activity")
            object.__setattr__(self, "activity", listed.launch_activity)
        if self.reset is None:
            object.__setattr__(self, "reset", self.clear_tables)

    def clear_tables(self, device: Device) -> None:
        """Delete the rows of every declared table and restart their keys (one command per database)."""
        scripts: dict[str, list[str]] = {}
        for table in self.tables:
            scripts.setdefault(table.db, []).append(table.clear_sql())
        for db, statements in scripts.items():
            device.sqlite.execute(db, " ".join(statements))

    def table(self, name: str) -> Table:
        """The table called `name`; KeyError names the app's tables."""
        for table in self.tables:
            if table.name == name:
                return table
        known = ", ".join(t.name for t in self.tables) or "none"
        raise KeyError(f"app {self.name!r} has no table {name!r} (tables: {known})")

    def first_run_databases(self) -> dict[str, str]:
        """Device path -> DDL of every database the app creates on its first run."""
        return {database.path: database.ddl for database in self.databases}

    @property
    def component(self) -> str:
        return f"{self.package}/{self.activity}"

    def launch(self, device: Device) -> None:
        device.activity.start(self.component)

    def force_stop(self, device: Device) -> None:
        device.activity.force_stop(self.package)
