"""App tables as specs see them: the app model's `AppTable` plus each column's SQLite type.

One source of truth for each fact: the app model (`apps.get(name).tables`) says which tables
an app has, where they live, their key and columns; the column *types*, NOT NULL constraints
and SQL defaults come from the DDL that creates the database on the simulated device
(`taskkit.sim.image.DATABASES`), read once with SQLite's own `PRAGMA table_info`. A table whose
database has no DDL there is untyped: any value is accepted for its columns.

`register_defaults(app, table, values)` gives the values an app model wants in columns a spec
leaves unset (e.g. Simple Calendar Pro's reminder columns are -1, not 0).
"""
from __future__ import annotations

import dataclasses
import functools
import sqlite3
from typing import Any, Mapping

from taskkit import apps
from taskkit.apps.base import App
from taskkit.apps.common import AppTable

_DEFAULTS: dict[tuple[str, str], dict[str, Any]] = {}


@dataclasses.dataclass(frozen=True)
class Column:
    name: str
    affinity: str  # INTEGER, REAL, TEXT, BLOB, NUMERIC, or "" when untyped
    nullable: bool
    has_default: bool


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """An app table with typed columns."""

    app: App
    table: AppTable
    columns: dict[str, Column]

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def typed(self) -> bool:
        return any(c.affinity for c in self.columns.values())

    def column(self, name: str) -> Column | None:
        return self.columns.get(name)

    def fill(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A full row to insert: `values` over the app's defaults; NOT NULL columns without an
        SQL default get 0 or "" by type. The key is left to the database."""
        row: dict[str, Any] = {}
        defaults = _DEFAULTS.get((self.app.name, self.name), {})
        for name, column in self.columns.items():
            if name == self.table.key:
                continue
            if name in defaults:
                row[name] = defaults[name]
            elif not column.nullable and not column.has_default:
                row[name] = "" if column.affinity == "TEXT" else 0
        row.update({k: v for k, v in values.items() if k in self.columns})
        return row


def affinity(declared: str) -> str:
    """SQLite's type affinity of a declared column type (§3.1 of its datatype rules)."""
    text = declared.upper()
    if not text:
        return "BLOB"
    if "INT" in text:
        return "INTEGER"
    if any(word in text for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in text:
        return "BLOB"
    if any(word in text for word in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


@functools.lru_cache(maxsize=None)
def _ddl_columns(db: str, table: str) -> tuple[tuple[str, str, bool, bool], ...]:
    """(name, affinity, nullable, has_default) of each column, from the simulator's DDL."""
    from taskkit.sim import image

    ddl = image.DATABASES.get(db)
    if ddl is None:
        return ()
    con = sqlite3.connect(":memory:")
    try:
        con.executescript(ddl)
        rows = con.execute(f"PRAGMA table_info(\"{table.replace(chr(34), chr(34) * 2)}\")").fetchall()
    finally:
        con.close()
    # table_info: cid, name, type, notnull, dflt_value, pk (an INTEGER PRIMARY KEY is never NULL)
    return tuple((name, affinity(type_), not notnull and not pk, default is not None)
                 for _, name, type_, notnull, default, pk in rows)


def info(app: App, table: AppTable) -> TableInfo:
    """The typed view of one of `app`'s tables."""
    typed = {name: Column(name, aff, nullable, has_default)
             for name, aff, nullable, has_default in _ddl_columns(table.db, table.name)}
    columns = {name: typed.get(name, Column(name, "", True, False)) for name in table.columns}
    return TableInfo(app, table, columns)


def resolve(app_name: str, table_name: str, spec_apps: list[App]) -> TableInfo:
    """The table `table_name` of app `app_name`, or of the one spec app that has it.

    Raises KeyError with a message naming what exists.
    """
    if app_name:
        app = apps.get(app_name)
        return info(app, app.table(table_name))
    owners = [app for app in spec_apps if any(t.name == table_name for t in app.tables)]
    if len(owners) == 1:
        return info(owners[0], owners[0].table(table_name))
    if not owners:
        known = ", ".join(f"{app.name}: {t.name}" for app in spec_apps for t in app.tables) or "none"
        raise KeyError(f"no app of this spec has a table {table_name!r} (tables: {known})")
    raise KeyError(f"apps {', '.join(a.name for a in owners)} all have a table {table_name!r}; set `app`")


def register_defaults(app_name: str, table_name: str, values: Mapping[str, Any]) -> None:
    """Values for the columns of `app_name`'s `table_name` that a spec leaves unset."""
    app = apps.get(app_name)
    app.table(table_name)  # raises for an unknown table
    _DEFAULTS[(app.name, table_name)] = dict(values)


def _register_builtin_defaults() -> None:
    from taskkit.apps import calendar, joplin, tasks_org

    register_defaults("simple calendar pro", calendar.TABLE, calendar.DEFAULTS)
    register_defaults("tasks", tasks_org.TABLE, tasks_org.DEFAULTS)
    register_defaults("joplin", joplin.NOTES_TABLE, joplin.NOTE_DEFAULTS)
    register_defaults("joplin", joplin.FOLDERS_TABLE, joplin.FOLDER_DEFAULTS)


_register_builtin_defaults()
