"""An app's SQLite schema, and the one table object every layer above uses.

`Database(path, ddl)` is a database an app creates on its first run: its device path and the
DDL (plus seed rows) that creates it. The app model owns it; the simulated device builds its
image from it and spec type checks read the column types from it. `database.table(name, key)`
gives a `Table`: columns typed from the DDL (inspected on the host: SQLite's `table_info`), the
app's defaults for columns a row leaves unset, and every SQL statement taskkit runs against the
table — select, insert, update, delete, duplicates, and the change-logging snapshot that
validators diff — built here and nowhere else, each value through `sql_literal`.

A `Table` is also a validator row source (`snapshot` / `diff`): the snapshot copies the table
into a scratch database on the device and installs three triggers that log the key of every
row inserted, updated or deleted afterwards into a `taskkit_changes` table of the app's
database; a diff is then one query over the logged keys only, so its cost follows the rows
that changed, not the table's size. The triggers and the log live in the app's database
directory, which the task's restore point puts back at teardown.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import sqlite3
from typing import Any, Callable, Mapping, Sequence, Union


from taskkit.device.base import Device
from taskkit.device.quoting import shell_quote, sql_identifier, sql_literal
from taskkit.device.services.sqlite import build_insert_statements
from taskkit.env import TaskEnv

Row = dict[str, Any]
Rows = dict[Any, Row]
#: Which rows an operation is about: column equalities, an SQL condition, or a Python predicate.
Where = Union[Mapping[str, Any], str, Callable[[Row], bool]]

_CHANGE = "__taskkit_change__"
_LOG = "taskkit_changes"  # in the app's database: triggers can only write to their own database
_SCRATCH = "/data/local/tmp/taskkit/scratch"
_COUNTER = itertools.count(1)


@dataclasses.dataclass(frozen=True)
class Column:
    """One column as the DDL declares it."""

    name: str
    affinity: str  # INTEGER, REAL, TEXT, BLOB or NUMERIC; "" when the table is untyped
    nullable: bool = True
    has_default: bool = False


@dataclasses.dataclass(frozen=True)
class RowDiff:
    """What happened to a source's rows between a snapshot and now."""

    added: Rows
    removed: Rows
    changed: dict[Any, tuple[Row, Row]]  # key -> (old, new)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


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


def where_sql(where: Mapping[str, Any] | str) -> str:
    """An SQL condition from equalities (`IS`, so None matches NULL) or from SQL text."""
    if isinstance(where, str):
        return where
    if not where:
        return "1"
    return " AND ".join(f"{sql_identifier(column)} IS {sql_literal(value)}" for column, value in where.items())


def key_value(key: Any) -> Any:
    """A key as read from a provider ("12") back to the integer it is."""
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        return int(key)
    return key


def diff_rows(before: Rows, after: Rows) -> RowDiff:
    """The diff of two full reads, computed on the host."""
    return RowDiff(
        added={k: row for k, row in after.items() if k not in before},
        removed={k: row for k, row in before.items() if k not in after},
        changed={k: (row, after[k]) for k, row in before.items() if k in after and after[k] != row},
    )


def duplicated_rows(rows: Rows, fields: Sequence[str]) -> Rows:
    """The rows that share their values of `fields` with at least one other row."""
    counts: dict[tuple, int] = {}
    for row in rows.values():
        signature = tuple(row.get(f) for f in fields)
        counts[signature] = counts.get(signature, 0) + 1
    return {k: row for k, row in rows.items() if counts[tuple(row.get(f) for f in fields)] > 1}


def scratch_path(env: TaskEnv, name: str) -> str:
    """A fresh device path for a snapshot file, removed with the episode's restore point."""
    directory = getattr(env, "scratch_dir", None) or _SCRATCH
    return f"{directory}/{name}-{next(_COUNTER)}.db"


@dataclasses.dataclass(frozen=True)
class Mirror:
    """A table an app writes in step with another: `copy(row)` is what lands there per row."""

    table: "Table"
    copy: Callable[[Row], Row]


@dataclasses.dataclass(frozen=True)
class Table:
    """A table of an app's SQLite database on the device, keyed by its primary key column.

    `columns` (typed, in DDL order) and `defaults` come from the app model; a table built by
    hand as `Table(db, name, key)` is untyped and accepts any column.
    """

    db: str
    name: str
    key: str
    columns: tuple[Column, ...] = ()
    defaults: Mapping[str, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    #: A table the app keeps in step with this one (Joplin's search copy of its notes).
    mirror: Mirror | None = dataclasses.field(default=None, compare=False)
    #: Columns the app sets itself on every write of a row (its "last modified" time).
    stamped: tuple[str, ...] = dataclasses.field(default=(), compare=False)
    #: Tables of the same database the app rewrites from this one's rows whenever they change
    #: (DeskClock's alarm instances, scheduled from its alarms): a change here explains one there.
    derived: tuple[str, ...] = dataclasses.field(default=(), compare=False)

    # --- the schema ---------------------------------------------------------------------
    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    @property
    def typed(self) -> bool:
        return any(column.affinity for column in self.columns)

    def column(self, name: str) -> Column | None:
        """The column called `name` (None when unknown; any name of an untyped table)."""
        for column in self.columns:
            if column.name == name:
                return column
        return None if self.columns else Column(name, "")

    def fill(self, values: Mapping[str, Any]) -> Row:
        """A full row to insert (without the key): `values` over the app's defaults; NOT NULL
        columns without an SQL default get 0 or "" by type."""
        row: Row = {}
        for column in self.columns:
            if column.name == self.key:
                continue
            if column.name in self.defaults:
                row[column.name] = self.defaults[column.name]
            elif not column.nullable and not column.has_default:
                row[column.name] = "" if column.affinity == "TEXT" else 0
        names = set(self.column_names)
        row.update({k: v for k, v in values.items() if not names or k in names})
        return row

    # --- SQL, built in one place --------------------------------------------------------
    def _id(self) -> str:
        return sql_identifier(self.name)

    def select_sql(self, where: Mapping[str, Any] | str = "", order: bool = False,
                   columns: Sequence[str] | None = None) -> str:
        """The SELECT of the rows matching `where`: every column, or only `columns`."""
        what = "*" if columns is None else ", ".join(sql_identifier(c) for c in columns)
        sql = f"SELECT {what} FROM {self._id()} WHERE {where_sql(where or {})}"
        return sql + (f" ORDER BY {sql_identifier(self.key)}" if order else "")

    def insert_statements(self, rows: Sequence[Mapping[str, Any]]) -> str:
        """The INSERT statements for `rows` and their mirror copies, one statement a line."""
        lines = build_insert_statements(self.name, rows)
        if self.mirror is not None and rows:
            lines.append(self.mirror.table.insert_statements([self.mirror.copy(row) for row in rows]))
        return "\n".join(lines)

    def insert_sql(self, rows: Sequence[Mapping[str, Any]]) -> str:
        """One transaction inserting `rows`."""
        return f"BEGIN;\n{self.insert_statements(rows)}\nCOMMIT;\n"

    def update_sql(self, where: Mapping[str, Any] | str, changes: Mapping[str, Any]) -> str:
        sets = ", ".join(f"{sql_identifier(c)} = {sql_literal(v)}" for c, v in changes.items())
        return f"UPDATE {self._id()} SET {sets} WHERE {where_sql(where)};"

    def delete_sql(self, where: Mapping[str, Any] | str) -> str:
        return f"DELETE FROM {self._id()} WHERE {where_sql(where)};"

    def clear_sql(self) -> str:
        """Every row gone and (for an integer key) the key sequence restarted."""
        key = self.column(self.key)
        sql = f"DELETE FROM {self._id()};"
        if key is None or key.affinity in ("INTEGER", ""):
            sql += f" DELETE FROM sqlite_sequence WHERE name = {sql_literal(self.name)};"
        return sql + (" " + self.mirror.table.clear_sql() if self.mirror is not None else "")

    def key_where(self, key: Any) -> dict[str, Any]:
        return {self.key: key_value(key)}

    def keys_in(self, keys: Sequence[Any]) -> str:
        """An SQL condition matching the rows whose key is one of `keys`."""
        return f"{sql_identifier(self.key)} IN ({', '.join(sql_literal(key_value(k)) for k in keys)})"

    # --- reads ----------------------------------------------------------------------------
    def rows(self, device: Device, where: Mapping[str, Any] | str = "") -> list[Row]:
        """The matching rows, with exact values, in key order (one round trip)."""
        return device.sqlite.query(self.db, self.select_sql(where, order=True))

    def select(self, device: Device, where: Where, columns: Sequence[str] | None = None) -> Rows:
        """The rows matching `where` by key (one round trip; a Python predicate reads every row).

        `columns`: the fields the caller reads (None: all). The rows hold at least those, the key
        and, for a predicate that names the fields it reads (`where.fields`), those too.
        """
        read = self._columns_read(where, columns)
        if callable(where):
            rows = device.sqlite.query(self.db, self.select_sql(columns=read))
            return {row[self.key]: row for row in rows if where(row)}
        return {row[self.key]: row for row in device.sqlite.query(self.db, self.select_sql(where, columns=read))}

    def _columns_read(self, where: Where, columns: Sequence[str] | None) -> list[str] | None:
        """The columns `select` reads, in the table's order (None: all of them, `*`). A name the
        table lacks is left out: a row read whole has no such field either."""
        fields = getattr(where, "fields", None) if callable(where) else ()
        if columns is None or fields is None or not self.columns:
            return None
        names = {self.key, *columns, *fields}
        read = [name for name in self.column_names if name in names]
        return None if len(read) == len(self.columns) else read

    def read(self, device: Device) -> Rows:
        """Every row by key (moves the whole table: for tests and small tables)."""
        return self.select(device, {})

    def duplicates(self, device: Device, fields: Sequence[str]) -> Rows:
        """The rows that have a duplicate on `fields` (NULLs equal), found by SQL on the device."""
        t = self._id()
        cols = ", ".join(sql_identifier(f) for f in fields)
        same = " AND ".join(f"t.{sql_identifier(f)} IS d.{sql_identifier(f)}" for f in fields)
        sql = (f"SELECT t.* FROM {t} AS t JOIN (SELECT {cols} FROM {t} GROUP BY {cols} "
               f"HAVING count(*) > 1) AS d ON {same}")
        return {row[self.key]: row for row in device.sqlite.query(self.db, sql)}

    # --- writes (each one command, run for its effect) ------------------------------------
    def insert(self, device: Device, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert `rows` (normally without keys) in one transaction; nothing for no rows."""
        if rows:
            device.sqlite.execute(self.db, self.insert_sql(rows))

    def update(self, device: Device, where: Mapping[str, Any] | str, changes: Mapping[str, Any]) -> None:
        device.sqlite.execute(self.db, self.update_sql(where, changes))

    def delete(self, device: Device, where: Mapping[str, Any] | str) -> None:
        device.sqlite.execute(self.db, self.delete_sql(where))

    def clear(self, device: Device) -> None:
        device.sqlite.execute(self.db, self.clear_sql())

    # --- snapshots and diffs (a validator row source) ---------------------------------------
    def change_log_sql(self) -> str:
        """Start logging the key of every row inserted, updated or deleted (idempotent)."""
        t, key, name = self._id(), sql_identifier(self.key), sql_literal(self.name)

        def trigger(event: str, body: str) -> str:
            trigger_name = sql_identifier(f"taskkit_{event.lower()}_{self.name}")
            return f"CREATE TRIGGER IF NOT EXISTS {trigger_name} AFTER {event} ON {t} BEGIN {body} END;"

        def log(row: str) -> str:
            return f"INSERT INTO {_LOG}(tbl, key) VALUES ({name}, {row}.{key});"

        return " ".join([f"CREATE TABLE IF NOT EXISTS {_LOG}(tbl TEXT, key);", trigger("INSERT", log("NEW")),
                         trigger("UPDATE", log("OLD") + " " + log("NEW")), trigger("DELETE", log("OLD"))])

    def snapshot(self, env: TaskEnv) -> str:
        """Save the table and start logging changed keys (run for effect: no round trip), in one
        transaction: the copy and the log start together or not at all, with one journal
        written and deleted for all of it."""
        path = scratch_path(env, self.name)
        t, key = self._id(), sql_identifier(self.key)
        env.device.run(f"mkdir -p {shell_quote(path.rsplit('/', 1)[0])}")
        env.device.sqlite.execute(self.db, " ".join([
            f"ATTACH {sql_literal(path)} AS taskkit_snap;",  # (SQLite attaches outside a transaction only)
            "BEGIN;",
            self.change_log_sql(),
            f"CREATE TABLE taskkit_snap.{t} AS SELECT * FROM main.{t};",
            f"CREATE UNIQUE INDEX taskkit_snap.{sql_identifier('taskkit_key_' + self.name)} ON {t}({key});",
            f"CREATE TABLE taskkit_snap.taskkit_since AS SELECT coalesce(max(rowid), 0) AS since FROM main.{_LOG};",
            "COMMIT;",
            "DETACH taskkit_snap;",
        ]))
        return path

    def diff(self, env: TaskEnv, snapshot: str) -> RowDiff:
        """Added, removed and changed rows: one query over the logged keys only."""
        t, key = self._id(), sql_identifier(self.key)
        changed_keys = (f"SELECT key FROM main.{_LOG} WHERE tbl = {sql_literal(self.name)} "
                        "AND rowid > (SELECT since FROM taskkit_snap.taskkit_since)")
        query = (
            f"ATTACH {sql_literal(snapshot)} AS taskkit_snap; "
            f"SELECT 'now' AS {_CHANGE}, * FROM main.{t} WHERE {key} IN ({changed_keys}) "
            f"UNION ALL SELECT 'then', * FROM taskkit_snap.{t} WHERE {key} IN ({changed_keys});"
        )
        now: Rows = {}
        then: Rows = {}
        for row in env.device.sqlite.query(self.db, query):
            (now if row.pop(_CHANGE) == "now" else then)[row[self.key]] = row
        return diff_rows(then, now)

    def describe(self) -> str:
        return f"table {self.name}"


def change_log_position_sql() -> str:
    """The query for where a database's change log ends now (0 when it is empty): one row, `since`."""
    return f"SELECT coalesce(max(rowid), 0) AS since FROM {_LOG};"


def changes_since_sql(since: int) -> str:
    """The query for the keys logged after `since`, per table: rows `tbl`, `changes`, `keys`."""
    return (f"SELECT tbl, count(DISTINCT key) AS changes, group_concat(DISTINCT key) AS keys FROM {_LOG} "
            f"WHERE rowid > {int(since)} GROUP BY tbl ORDER BY tbl;")


@dataclasses.dataclass(frozen=True)
class Database:
    """A SQLite database an app creates on its first run: device path and DDL (+ seed rows)."""

    path: str
    ddl: str

    def table(self, name: str, key: str, defaults: Mapping[str, Any] | None = None,
              mirror: Mirror | None = None, stamped: tuple[str, ...] = (),
              derived: tuple[str, ...] = ()) -> Table:
        """The table `name` of this database, its columns typed from the DDL.

        Raises ValueError naming the database when the DDL has no such table or key column.
        """
        columns = _ddl_columns(self.ddl, name)
        if not columns:
            raise ValueError(f"the DDL of {self.path} creates no table {name!r}")
        names = {column.name for column in columns}
        unknown = sorted((set(defaults or {}) | set(stamped)) - names)
        if key not in names or unknown:
            raise ValueError(f"table {name!r} of {self.path} has no column(s) {', '.join([key] if key not in names else unknown)}")
        missing = [table for table in derived if not _ddl_columns(self.ddl, table)]
        if missing:
            raise ValueError(f"the DDL of {self.path} creates no table {missing[0]!r} (derived from {name!r})")
        return Table(self.path, name, key, columns, dict(defaults or {}), mirror, tuple(stamped), tuple(derived))

    def create(self, host_path: str) -> None:
        """Create the database as the app would on first run, in the host file `host_path`."""
        db = sqlite3.connect(host_path)
        try:
            db.executescript(self.ddl)
        finally:
            db.close()


@functools.lru_cache(maxsize=None)
def _ddl_columns(ddl: str, table: str) -> tuple[Column, ...]:
    """The typed columns of `table` as `ddl` creates it, from SQLite's own `table_info` in memory
    (the query sqlite-utils' `Table.columns` runs: importing sqlite-utils would load pandas and
    numpy wherever they are installed, for every process that imports an app model)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(ddl)
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is None:
            return ()
        rows = db.execute("SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)",
                          (table,)).fetchall()
        # An INTEGER PRIMARY KEY is never NULL, whatever its NOT NULL says.
        return tuple(Column(name, affinity(kind), not notnull and not pk, default is not None)
                     for _, name, kind, notnull, default, pk in rows)
    finally:
        db.close()
