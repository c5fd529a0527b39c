"""`android_world.task_evals.utils.sqlite_utils`: read and change an app's SQLite table on the device.

`execute_query` reads a host database file, as AndroidWorld's does. The remote functions go through
taskkit's sqlite service instead of pulling and pushing the database: one round trip per call,
typed values, every value quoted by taskkit, and the app's `-wal` file is never lost.
"""
from __future__ import annotations

import dataclasses
import sqlite3
from typing import Any, Type

from taskkit.compat.android_world.env import adb_utils
from taskkit.compat.android_world._device import device_of
from taskkit.compat.android_world.task_evals.utils import sqlite_schema_utils
from taskkit.device.errors import CommandFailed
from taskkit.device.quoting import sql_identifier


def execute_query(query: str, db_path: str, row_type: Type[sqlite_schema_utils.RowType]
                  ) -> list[sqlite_schema_utils.RowType]:
    """The rows of `query` on a host database file, each built as `row_type(**columns)`."""
    connection = sqlite3.connect(db_path)
    try:
        connection.row_factory = sqlite3.Row
        return [row_type(**dict(row)) for row in connection.execute(query).fetchall()]
    finally:
        connection.close()


def get_rows_from_remote_device(table_name: str, remote_db_file_path: str,
                                row_type: Type[sqlite_schema_utils.RowType], env: Any,
                                timeout_sec: float | None = None, n_retries: int = 3
                                ) -> list[sqlite_schema_utils.RowType]:
    """Every row of the device table, in rowid order; ValueError when it cannot be read."""
    device = device_of(env)
    try:
        rows = device.sqlite.query(remote_db_file_path, f"SELECT * FROM {sql_identifier(table_name)}")
    except CommandFailed as error:
        raise ValueError(f"cannot read {table_name} from {remote_db_file_path}: {error}") from None
    return [row_type(**row) for row in rows]


def table_exists(table_name: str, remote_db_file_path: str, env: Any) -> bool:
    device = device_of(env)
    return device.files.exists(remote_db_file_path) and table_name in device.sqlite.tables(remote_db_file_path)


def delete_all_rows_from_table(table_name: str, remote_db_file_path: str, env: Any, app_name: str,
                               timeout_sec: float | None = None) -> None:
    """Empty the table (the app is launched first if its database is not there yet), then stop
    the app so it reads the change."""
    if not table_exists(table_name, remote_db_file_path, env):
        adb_utils.launch_app(app_name, env)
    device_of(env).sqlite.execute(remote_db_file_path, f"DELETE FROM {sql_identifier(table_name)};")
    adb_utils.close_app(app_name, env)


def insert_rows_to_remote_db(rows: list[sqlite_schema_utils.RowType], exclude_key: str | None, table_name: str,
                             remote_db_file_path: str, app_name: str, env: Any,
                             timeout_sec: float | None = None) -> None:
    """Insert the rows (leaving out `exclude_key`, typically the auto-increment id) in one
    transaction, then stop the app so it reads them."""
    columns = [{name: getattr(row, name) for name in _field_names(row) if name != exclude_key} for row in rows]
    device_of(env).sqlite.insert_rows(remote_db_file_path, table_name, columns)
    adb_utils.close_app(app_name, env)


def _field_names(row: Any) -> list[str]:
    if isinstance(row, sqlite_schema_utils.GenericRow):
        return list(row.__dict__)
    return [field.name for field in dataclasses.fields(row)]
