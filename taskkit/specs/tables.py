"""App tables as specs see them: an app's `Table`, typed from the app's own DDL.

The app model (`taskkit.apps.get(name)`) owns every fact about its tables — database, key,
columns with their SQLite types and NOT NULL constraints, and the values it wants in columns a
row leaves unset — so a spec about any registered app, built in or a user's, is type-checked
against that app's schema. A table declared without DDL is untyped: any value is accepted.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from taskkit import apps
from taskkit.apps.base import App
from taskkit.apps.table import Column, Table, affinity

__all__ = ["Column", "TableInfo", "affinity", "info", "resolve"]


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """An app table together with the app that owns it (specs name tables by app)."""

    app: App
    table: Table

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def columns(self) -> dict[str, Column]:
        return {column.name: column for column in self.table.columns}

    @property
    def typed(self) -> bool:
        return self.table.typed

    def column(self, name: str) -> Column | None:
        return self.table.column(name)

    def fill(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A full row to insert: `values` over the app's defaults (see `Table.fill`)."""
        return self.table.fill(values)


def info(app: App, table: Table) -> TableInfo:
    """The typed view of one of `app`'s tables."""
    return TableInfo(app, table)


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
