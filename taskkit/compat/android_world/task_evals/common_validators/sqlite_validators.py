"""`android_world.task_evals.common_validators.sqlite_validators`: the bases of AndroidWorld's
SQLite-app tasks (add rows, delete rows, delete duplicates) and the row-integrity checks they use.

The bases are never registered as tasks (they are abstract); a task deriving from one sets
`app_name_with_db`, `db_path`, `db_key`, `table_name` and `row_type` as AndroidWorld's do.
"""
from __future__ import annotations

import abc
import dataclasses
import logging
from typing import Any, Type

from taskkit.compat.android_world.env import interface
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.utils import sqlite_schema_utils, sqlite_utils
from taskkit.compat.android_world.utils import fuzzy_match_lib

_LOG = logging.getLogger(__name__)
ROW_OBJECTS = "row_objects"
NOISE_ROW_OBJECTS = "noise_row_objects"


def verify_playlist(device_playlist_rows: list[sqlite_schema_utils.PlaylistInfo], candidate_playlist_name: str,
                    candidate_files: list[str]) -> bool:
    """The playlist (name matched loosely) holds exactly `candidate_files`, in that order."""
    entries = [row for row in device_playlist_rows
               if fuzzy_match_lib.fuzzy_match(row.playlist_name, candidate_playlist_name, ignore_case=True)]
    if len(entries) != len(candidate_files):
        return False
    return all(any(row.media_file_name == name and row.order_in_playlist == index for row in entries)
               for index, name in enumerate(candidate_files))


def validate_rows_removal_integrity(before: list[Any], after: list[Any], ids: list[int], id_name: str) -> bool:
    """The rows with `ids` are gone, every other row of `before` is unchanged and nothing was added.
    An id that was not in `before` is a ValueError (the task's own mistake)."""
    before_ids = {getattr(row, id_name) for row in before}
    missing = [row_id for row_id in ids if row_id not in before_ids]
    if missing:
        raise ValueError(f"row ID {missing[0]} not present in before.")
    for row in before:
        if (getattr(row, id_name) in ids) == (row in after):
            return False
    return all(row in before for row in after)


def validate_rows_addition_integrity(before: list[Any], after: list[Any], reference_rows: list[Any],
                                     compare_fields: list[str], free_form_fields: list[str] | None = None) -> bool:
    """Each reference row is in `after` (compared on `compare_fields`, loosely on
    `free_form_fields`), exactly that many rows were added, and every row of `before` is unchanged."""
    if not compare_fields:
        raise ValueError("compare_fields must not be empty.")
    loose = set(free_form_fields or ())

    def matches(reference: Any, row: Any) -> bool:
        for field in compare_fields:
            expected, actual = getattr(reference, field), getattr(row, field)
            same = fuzzy_match_lib.fuzzy_match(expected, actual) if field in loose else expected == actual
            if not same:
                return False
        return True

    for reference in reference_rows:
        if not any(matches(reference, row) for row in after):
            _LOG.info("expected row %s not found after the episode", reference)
            return False
    if len(after) != len(before) + len(reference_rows):
        _LOG.info("%d rows after, expected %d + %d", len(after), len(before), len(reference_rows))
        return False
    return all(row in after for row in before)


class SQLiteApp(task_eval.TaskEval, abc.ABC):
    """A task on one table of an app's database: listing, adding and clearing its rows."""

    app_name_with_db: str
    db_path: str
    db_key: str
    table_name: str
    row_type: Type[sqlite_schema_utils.SQLiteRow]

    def list_rows(self, env: interface.AsyncEnv, timeout_sec: float | None = None) -> list[Any]:
        return sqlite_utils.get_rows_from_remote_device(self.table_name, self.db_path, self.row_type, env, timeout_sec)

    def add_rows(self, rows: list[Any], env: interface.AsyncEnv, timeout_sec: float | None = None) -> None:
        sqlite_utils.insert_rows_to_remote_db(rows, self.db_key, self.table_name, self.db_path,
                                              self.app_name_with_db, env, timeout_sec)

    def _clear_db(self, env: interface.AsyncEnv) -> None:
        sqlite_utils.delete_all_rows_from_table(self.table_name, self.db_path, env, self.app_name_with_db)

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        self._clear_db(env)
        if NOISE_ROW_OBJECTS in self.params:
            self.add_rows(self.params[NOISE_ROW_OBJECTS], env)

    def tear_down(self, env: interface.AsyncEnv) -> None:
        super().tear_down(env)
        self._clear_db(env)


class AddMultipleRows(SQLiteApp, abc.ABC):
    """Add `n_rows` rows (params[ROW_OBJECTS]); scored by `validate_addition_integrity`."""

    n_rows: int = -1

    def __init__(self, params: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(params, **kwargs)
        self.before: list[Any] = []

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        self.before = self.list_rows(env)

    @abc.abstractmethod
    def validate_addition_integrity(self, before: list[Any], after: list[Any], reference_rows: list[Any]) -> bool:
        """Whether `reference_rows` were added to `before`, giving `after`."""

    def is_successful(self, env: interface.AsyncEnv) -> float:
        after = self.list_rows(env)
        return 1.0 if self.validate_addition_integrity(self.before, after, self.params[ROW_OBJECTS]) else 0.0

    @classmethod
    @abc.abstractmethod
    def _get_random_target_row(cls) -> Any:
        """One random row to add."""

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        if cls.n_rows == -1:
            raise ValueError("n_rows must be defined in subclasses.")
        return {ROW_OBJECTS: [cls._get_random_target_row() for _ in range(cls.n_rows)]}


class DeleteMultipleRows(SQLiteApp, abc.ABC):
    """Delete the rows params[ROW_OBJECTS] (inserted last, after the noise rows)."""

    n_rows: int
    n_rows_noise: int

    def __init__(self, params: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(params, **kwargs)
        self.rows_to_delete: list[Any] = []
        self.before: list[Any] = []

    def _validate_initial_state(self, before: list[Any]) -> None:
        if len(before) != self.n_rows + self.n_rows_noise:
            raise RuntimeError(f"{len(before)} rows before the episode, expected {self.n_rows + self.n_rows_noise}")

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        targets = self.params.get(ROW_OBJECTS) or []
        if targets:
            self.add_rows(targets, env)
        self.before = self.list_rows(env)
        self.rows_to_delete = self.before[len(self.before) - len(targets):] if targets else []
        self._validate_initial_state(self.before)

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        return 1.0 if self.validate_deletion_integrity(self.before, self.list_rows(env)) else 0.0

    @abc.abstractmethod
    def validate_deletion_integrity(self, before: list[Any], after: list[Any]) -> bool:
        """Whether exactly the target rows of `before` are gone in `after`."""


class DeleteDuplicateRows(DeleteMultipleRows, abc.ABC):
    """Delete one of two identical rows (identical but for `db_key`) among noise rows."""

    def _validate_candidates(self, candidates: list[Any]) -> None:
        if len(candidates) != 2:
            raise ValueError("a duplicate-rows task inserts exactly two rows")
        first, second = candidates
        for field in dataclasses.fields(first):
            if field.name != self.db_key and getattr(first, field.name) != getattr(second, field.name):
                raise ValueError(f"the two rows differ in {field.name}: they are not duplicates")

    def _validate_initial_state(self, before: list[Any]) -> None:
        if len(before) != 2 + self.n_rows_noise:
            raise ValueError(f"{len(before)} rows before the episode, expected {2 + self.n_rows_noise}")

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        self._validate_candidates(self.params[ROW_OBJECTS])
        self.duplicate_rows = self.rows_to_delete
