"""The simulated device's content providers: telephony (SMS), contacts, call log, settings.

Each provider keeps its data in the SQLite file a real device uses (android-apps.md §4.2–4.4),
so `sqlite3 <db>` on the device and `content query --uri ...` see the same rows. This module
owns the schemas (`DATABASES`), the URI → table mapping (`resolve`) and the write semantics the
real providers add on top of plain SQL:

* SMS: inserting into `content://sms/<box>` forces `type`; `date` defaults to the device clock in
  ms; `thread_id` comes from the address (canonical_addresses + threads are created on demand);
  non-inbox messages are marked read; `creator` is the calling package. Triggers inside
  mmssms.db keep each thread's message_count / snippet / date / read current and delete a thread
  (and its unreferenced canonical address) with its last message, so plain `sqlite3` edits of the
  `sms` table keep the bookkeeping too. Default order: newest first (`date DESC`, ties broken by
  `_id DESC` because the simulated clock does not tick between commands).
* Contacts: each raw contact gets its own aggregate `contacts` row (no merging); a data row's
  `mimetype` string maps to `mimetypes`; the raw contact's display name is recomputed from its
  data (structured name > nickname > organization > phone > email) and the contact's
  `has_phone_number` from its phone rows. Deleting a raw contact deletes it outright (local
  account), with its data and, when it was the last one, its contact.
* Call log: `date` defaults to the device clock (ms), `last_modified` is stamped on writes.
* Settings: `content://settings/<ns>` reads and writes the settings database
  (`taskkit.sim.state.SETTINGS_DB`), `_id` being the row id.
* `content://media/...` is a stand-in that holds no rows (AndroidWorld only deletes from it).

Values always travel as SQL parameters; only `where`, `sort` and projection names are SQL text,
as on a device (the caller writes them as SQL by definition).
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import sqlite3
from typing import Any, Iterator, Mapping
from urllib.parse import urlsplit

from taskkit.device.quoting import sql_identifier
from taskkit.errors import TaskkitError
from taskkit.sim.commands.settings import NAMESPACES as SETTINGS_NAMESPACES, SETTINGS_DDL
from taskkit.sim import databases, sqlite_sandbox
from taskkit.sim.state import SETTINGS_DB, SimState

TELEPHONY_PACKAGE = "com.android.providers.telephony"
CONTACTS_PACKAGE = "com.android.providers.contacts"
MMSSMS_DB = f"/data/data/{TELEPHONY_PACKAGE}/databases/mmssms.db"
CONTACTS_DB = f"/data/data/{CONTACTS_PACKAGE}/databases/contacts2.db"
CALLLOG_DB = f"/data/data/{CONTACTS_PACKAGE}/databases/calllog.db"

# Telephony.Sms.MESSAGE_TYPE_*: the box names of content://sms/<box>.
SMS_BOXES = {"inbox": 1, "sent": 2, "draft": 3, "outbox": 4, "failed": 5, "queued": 6}
SMS_TYPE_INBOX, SMS_TYPE_DRAFT = 1, 3

MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
MIME_NICKNAME = "vnd.android.cursor.item/nickname"
MIME_ORGANIZATION = "vnd.android.cursor.item/organization"
# Pre-registered in this order when contacts2.db is created (ids 1..11).
MIMETYPES = (
    MIME_EMAIL, "vnd.android.cursor.item/im", MIME_NICKNAME, MIME_ORGANIZATION, MIME_PHONE,
    "vnd.android.cursor.item/sip_address", MIME_NAME, "vnd.android.cursor.item/postal-address_v2",
    "vnd.android.cursor.item/identity", "vnd.android.cursor.item/photo",
    "vnd.android.cursor.item/group_membership",
)
# ContactsContract.DisplayNameSources, by the mimetype that supplies the name.
_NAME_SOURCES = ((MIME_NAME, 40), (MIME_NICKNAME, 35), (MIME_ORGANIZATION, 30), (MIME_PHONE, 20),
                 (MIME_EMAIL, 10))

_METADATA = "CREATE TABLE android_metadata (locale TEXT);\nINSERT INTO android_metadata VALUES ('en_US');\n"


# --- schemas ---------------------------------------------------------------------------------
def _refresh_thread(ref: str) -> str:
    """SQL that recomputes the bookkeeping columns of thread `ref` from its messages."""
    latest = f"FROM sms WHERE thread_id = {ref} ORDER BY date DESC, _id DESC LIMIT 1"
    return f"""
  UPDATE threads SET
    date = COALESCE((SELECT date {latest}), date),
    snippet = (SELECT body {latest}),
    message_count = (SELECT COUNT(*) FROM sms WHERE thread_id = {ref} AND type != {SMS_TYPE_DRAFT}),
    read = NOT EXISTS (SELECT 1 FROM sms WHERE thread_id = {ref} AND read = 0)
  WHERE _id = {ref};"""


def _drop_empty_thread(ref: str) -> str:
    return f"""
  DELETE FROM threads WHERE _id = {ref} AND NOT EXISTS (SELECT 1 FROM sms WHERE thread_id = {ref});
  DELETE FROM canonical_addresses WHERE NOT EXISTS (
    SELECT 1 FROM threads WHERE ' ' || recipient_ids || ' ' LIKE '% ' || canonical_addresses._id || ' %');"""


MMSSMS_DDL = _METADATA + f"""
CREATE TABLE sms (
    _id INTEGER PRIMARY KEY,
    thread_id INTEGER,
    address TEXT,
    person INTEGER,
    date INTEGER,
    date_sent INTEGER DEFAULT 0,
    protocol INTEGER,
    read INTEGER DEFAULT 0,
    status INTEGER DEFAULT -1,
    type INTEGER,
    reply_path_present INTEGER,
    subject TEXT,
    body TEXT,
    service_center TEXT,
    locked INTEGER DEFAULT 0,
    sub_id INTEGER DEFAULT -1,
    error_code INTEGER DEFAULT 0,
    creator TEXT,
    seen INTEGER DEFAULT 0
);
CREATE TABLE threads (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    date INTEGER DEFAULT 0,
    message_count INTEGER DEFAULT 0,
    recipient_ids TEXT,
    snippet TEXT,
    snippet_cs INTEGER DEFAULT 0,
    read INTEGER DEFAULT 1,
    archived INTEGER DEFAULT 0,
    type INTEGER DEFAULT 0,
    error INTEGER DEFAULT 0,
    has_attachment INTEGER DEFAULT 0
);
CREATE TABLE canonical_addresses (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    address TEXT
);
CREATE INDEX typeThreadIdIndex ON sms (type, thread_id);
CREATE TRIGGER sms_update_thread_on_insert AFTER INSERT ON sms
BEGIN{_refresh_thread("new.thread_id")}
END;
CREATE TRIGGER sms_update_thread_on_update AFTER UPDATE ON sms
BEGIN{_refresh_thread("old.thread_id")}{_refresh_thread("new.thread_id")}{_drop_empty_thread("old.thread_id")}
END;
CREATE TRIGGER sms_update_thread_on_delete AFTER DELETE ON sms
BEGIN{_refresh_thread("old.thread_id")}{_drop_empty_thread("old.thread_id")}
END;
"""



def _aliases(table: str, names: tuple[str, ...]) -> str:
    """`table.a AS a, table.b AS b, ...` for a view's select list."""
    return ", ".join(f"{table}.{name} AS {name}" for name in names)


_RAW_VIEW_COLUMNS = (
    "_id", "contact_id", "aggregation_mode", "raw_contact_is_read_only", "deleted", "display_name_source",
    "display_name", "display_name_alt", "phonetic_name", "phonetic_name_style", "sort_key", "phonebook_label",
    "sort_key_alt", "custom_ringtone", "send_to_voicemail", "times_contacted", "last_time_contacted", "starred",
    "pinned", "account_id", "sourceid", "backup_id", "version", "dirty", "sync1", "sync2", "sync3", "sync4",
)
_DATA_COLUMNS = ",\n".join(f"    data{i} TEXT" for i in range(1, 16))
_DATA_SYNC_COLUMNS = ",\n".join(f"    data_sync{i} TEXT" for i in range(1, 5))
_VIEW_DATA_COLUMNS = ", ".join(f"data.data{i} AS data{i}" for i in range(1, 16))

CONTACTS_DDL = _METADATA + f"""
CREATE TABLE accounts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_name TEXT,
    account_type TEXT,
    data_set TEXT
);
INSERT INTO accounts (_id, account_name, account_type, data_set) VALUES (1, NULL, NULL, NULL);
CREATE TABLE contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    name_raw_contact_id INTEGER REFERENCES raw_contacts(_id),
    photo_id INTEGER REFERENCES data(_id),
    photo_file_id INTEGER,
    custom_ringtone TEXT,
    send_to_voicemail INTEGER NOT NULL DEFAULT 0,
    times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER,
    starred INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    has_phone_number INTEGER NOT NULL DEFAULT 0,
    lookup TEXT,
    status_update_id INTEGER REFERENCES data(_id),
    contact_last_updated_timestamp INTEGER
);
CREATE TABLE raw_contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER REFERENCES accounts(_id) DEFAULT 1,
    sourceid TEXT,
    backup_id TEXT,
    raw_contact_is_read_only INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    dirty INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    metadata_dirty INTEGER NOT NULL DEFAULT 0,
    contact_id INTEGER REFERENCES contacts(_id),
    aggregation_mode INTEGER NOT NULL DEFAULT 0,
    aggregation_needed INTEGER NOT NULL DEFAULT 1,
    custom_ringtone TEXT,
    send_to_voicemail INTEGER NOT NULL DEFAULT 0,
    times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER,
    starred INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    display_name TEXT,
    display_name_alt TEXT,
    display_name_source INTEGER NOT NULL DEFAULT 0,
    phonetic_name TEXT,
    phonetic_name_style TEXT,
    sort_key TEXT,
    phonebook_label TEXT,
    phonebook_bucket INTEGER,
    sort_key_alt TEXT,
    phonebook_label_alt TEXT,
    phonebook_bucket_alt INTEGER,
    name_verified INTEGER NOT NULL DEFAULT 0,
    sync1 TEXT,
    sync2 TEXT,
    sync3 TEXT,
    sync4 TEXT
);
CREATE INDEX raw_contacts_contact_id_index ON raw_contacts (contact_id);
CREATE TABLE mimetypes (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    mimetype TEXT NOT NULL
);
CREATE UNIQUE INDEX mime_type ON mimetypes (mimetype);
{"".join(f"INSERT INTO mimetypes (mimetype) VALUES ('{m}');{chr(10)}" for m in MIMETYPES)}
CREATE TABLE data (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    package_id INTEGER,
    mimetype_id INTEGER REFERENCES mimetypes(_id) NOT NULL,
    raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL,
    hash_id TEXT,
    is_read_only INTEGER NOT NULL DEFAULT 0,
    is_primary INTEGER NOT NULL DEFAULT 0,
    is_super_primary INTEGER NOT NULL DEFAULT 0,
    data_version INTEGER NOT NULL DEFAULT 0,
{_DATA_COLUMNS},
{_DATA_SYNC_COLUMNS},
    carrier_presence INTEGER NOT NULL DEFAULT 0,
    preferred_phone_account_componentname TEXT,
    preferred_phone_account_id TEXT
);
CREATE INDEX data_raw_contact_id ON data (raw_contact_id);
CREATE VIEW view_raw_contacts AS SELECT
    {_aliases("raw_contacts", _RAW_VIEW_COLUMNS)},
    {_aliases("accounts", ("account_name", "account_type", "data_set"))}
  FROM raw_contacts JOIN accounts ON accounts._id = raw_contacts.account_id;
CREATE VIEW view_contacts AS SELECT
    contacts._id AS _id, contacts.name_raw_contact_id AS name_raw_contact_id,
    {_aliases("raw_contacts", ("display_name", "display_name_alt", "display_name_source", "phonetic_name",
                               "sort_key", "phonebook_label"))},
    {_aliases("contacts", ("custom_ringtone", "has_phone_number", "lookup", "photo_id", "send_to_voicemail",
                           "starred", "pinned", "times_contacted", "last_time_contacted",
                           "contact_last_updated_timestamp"))}
  FROM contacts LEFT JOIN raw_contacts ON raw_contacts._id = contacts.name_raw_contact_id;
CREATE VIEW view_data AS SELECT
    data._id AS _id, data.raw_contact_id AS raw_contact_id, raw_contacts.contact_id AS contact_id,
    mimetypes.mimetype AS mimetype, data.is_primary AS is_primary,
    data.is_super_primary AS is_super_primary, data.data_version AS data_version,
    data.is_read_only AS is_read_only, {_VIEW_DATA_COLUMNS},
    raw_contacts.display_name AS display_name, raw_contacts.display_name_alt AS display_name_alt,
    raw_contacts.deleted AS deleted, raw_contacts.starred AS starred,
    contacts.has_phone_number AS has_phone_number, contacts.lookup AS lookup,
    accounts.account_name AS account_name, accounts.account_type AS account_type
  FROM data
    JOIN mimetypes ON mimetypes._id = data.mimetype_id
    JOIN raw_contacts ON raw_contacts._id = data.raw_contact_id
    JOIN accounts ON accounts._id = raw_contacts.account_id
    LEFT JOIN contacts ON contacts._id = raw_contacts.contact_id;
CREATE VIEW view_v1_phones AS SELECT
    data._id AS _id, data.raw_contact_id AS person, data.is_primary AS isprimary,
    data.data2 AS type, data.data3 AS label, data.data1 AS number,
    raw_contacts.display_name AS name, raw_contacts.display_name AS display_name,
    raw_contacts.phonetic_name AS phonetic_name, raw_contacts.times_contacted AS times_contacted,
    raw_contacts.last_time_contacted AS last_time_contacted,
    raw_contacts.custom_ringtone AS custom_ringtone,
    raw_contacts.send_to_voicemail AS send_to_voicemail, raw_contacts.starred AS starred
  FROM data
    JOIN mimetypes ON mimetypes._id = data.mimetype_id
    JOIN raw_contacts ON raw_contacts._id = data.raw_contact_id
  WHERE mimetypes.mimetype = '{MIME_PHONE}' AND raw_contacts.deleted = 0;
"""

CALLLOG_DDL = _METADATA + """
CREATE TABLE calls (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    number TEXT,
    presentation INTEGER NOT NULL DEFAULT 1,
    post_dial_digits TEXT NOT NULL DEFAULT '',
    via_number TEXT NOT NULL DEFAULT '',
    date INTEGER,
    duration INTEGER,
    data_usage INTEGER,
    type INTEGER,
    features INTEGER NOT NULL DEFAULT 0,
    subscription_component_name TEXT,
    subscription_id TEXT,
    phone_account_address TEXT,
    phone_account_hidden INTEGER NOT NULL DEFAULT 0,
    sub_id INTEGER DEFAULT -1,
    new INTEGER,
    name TEXT,
    numbertype INTEGER,
    numberlabel TEXT,
    countryiso TEXT,
    voicemail_uri TEXT,
    is_read INTEGER,
    geocoded_location TEXT,
    lookup_uri TEXT,
    matched_number TEXT,
    normalized_number TEXT,
    photo_id INTEGER NOT NULL DEFAULT 0,
    photo_uri TEXT,
    formatted_number TEXT,
    add_for_all_users INTEGER NOT NULL DEFAULT 1,
    last_modified INTEGER DEFAULT 0,
    call_screening_component_name TEXT,
    call_screening_app_name TEXT,
    block_reason INTEGER NOT NULL DEFAULT 0,
    missed_reason INTEGER NOT NULL DEFAULT 0,
    priority INTEGER NOT NULL DEFAULT 0,
    subject TEXT,
    location TEXT,
    composer_photo_uri TEXT
);
"""

DATABASES: dict[str, str] = {MMSSMS_DB: MMSSMS_DDL, CONTACTS_DB: CONTACTS_DDL, CALLLOG_DB: CALLLOG_DDL}
PACKAGE_DATABASES: dict[str, tuple[str, ...]] = {
    TELEPHONY_PACKAGE: (MMSSMS_DB,),
    CONTACTS_PACKAGE: (CONTACTS_DB, CALLLOG_DB),
}


# --- files -----------------------------------------------------------------------------------
def _stamp(state: SimState, host: os.PathLike[str]) -> None:
    """Set the device clock as mtime on a database file and its directory."""
    state.stamp(host, os.path.dirname(host))


def _create(state: SimState, path: str) -> None:
    """(Re)create the database at device path `path` with its schema, and no rows."""
    _stamp(state, databases.create_database(state, path, DATABASES[path]))


def create_databases(state: SimState) -> None:
    """Create mmssms.db, contacts2.db and calllog.db with empty tables (a fresh device)."""
    for path in DATABASES:
        _create(state, path)


def reset_package_data(state: SimState, package: str) -> bool:
    """Recreate the empty databases of a provider package (`pm clear`); False if it has none."""
    paths = PACKAGE_DATABASES.get(package)
    if not paths:
        return False
    for path in paths:
        _create(state, path)
    return True


@contextlib.contextmanager
def _open(state: SimState, path: str, ddl: str | None) -> Iterator[sqlite3.Connection]:
    """Open a provider database, recreating it first if it was deleted (as SQLiteOpenHelper
    does); commits on success and, if any row changed, stamps the file with the device clock."""
    host = state.host_path(path)
    created = not host.exists()
    if created:
        if ddl is None:
            _create(state, path)
        else:
            host.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite_sandbox.connect(state, host)
    try:
        if ddl is not None:
            con.executescript(ddl)
        with con:
            yield con
        changed = con.total_changes > 0
    finally:
        con.close()
    if changed or created:
        _stamp(state, host)


@contextlib.contextmanager
def _reading(state: SimState, path: str, ddl: str | None, kept: bool) -> Iterator[sqlite3.Connection]:
    """A connection for one query: with `kept`, the device's kept query-only reader of the database
    (sqlite_sandbox.reader, dropped after an error) when it exists and needs no schema script;
    else `_open`'s (which first creates a missing database, as a write would)."""
    host = state.host_path(path) if kept and ddl is None else None
    if host is None or not host.exists():
        with _open(state, path, ddl) as con:
            yield con
        return
    with sqlite_sandbox.reading(state, host) as con:
        yield con


# --- errors and results ----------------------------------------------------------------------
class ProviderError(TaskkitError):
    """A provider call failed the way a device reports it: a Java exception class + message."""

    def __init__(self, authority: str | None, exception: str, message: str):
        super().__init__(f"{exception}: {message}")
        self.authority = authority
        self.exception = exception
        self.message = message


@dataclasses.dataclass
class Cursor:
    """A query result: column names and row tuples (int, float, str, bytes or None)."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def _sql_error(authority: str, error: sqlite3.Error, sql: str) -> ProviderError:
    return ProviderError(authority, "android.database.sqlite.SQLiteException",
                         f"{error} (code 1 SQLITE_ERROR): , while compiling: {' '.join(sql.split())}")


def _unknown(authority: str, uri: str) -> ProviderError:
    return ProviderError(authority, "java.lang.IllegalArgumentException", f"Unknown URL {uri}")


# --- routing ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Endpoint:
    """What one URI reads and writes.

    `source` is the table, view or parenthesized subquery read by queries (and searched by the
    `where` of updates and deletes); `table` is the table written, whose key column `key`
    matches the `_id` column of `source`. `condition` (with `params`) restricts every statement.
    """

    provider: "Provider"
    uri: str
    db: str
    source: str
    table: str | None
    key: str = "_id"
    condition: str | None = None
    params: tuple[Any, ...] = ()
    default_sort: str | None = None
    kind: str = ""  # provider-specific sub-route ("inbox", "data", ...)


@dataclasses.dataclass(frozen=True)
class Caller:
    """Who calls: `root` or `com.android.shell`, as Content.java's resolveCallingPackage."""

    package: str = "com.android.shell"


def _now_ms(state: SimState) -> int:
    return state.clock_epoch * 1000


def _where(endpoint: Endpoint, where: str | None) -> tuple[str, tuple[Any, ...]]:
    parts = [f"({endpoint.condition})"] if endpoint.condition else []
    if where and where.strip():
        parts.append(f"({where})")
    return (" WHERE " + " AND ".join(parts) if parts else ""), endpoint.params


class Provider:
    """A provider over SQLite tables; subclasses route URIs and add write semantics."""

    authority = ""
    ddl: str | None = None  # None: the database comes from DATABASES

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        raise _unknown(self.authority, uri)

    # --- generic operations -------------------------------------------------------------
    def query(self, state: SimState, ep: Endpoint, projection: list[str] | None,
              where: str | None, sort: str | None, kept: bool = False) -> Cursor:
        """The matching rows; with `kept`, read through the device's kept reader (`_reading`)."""
        columns = ", ".join(projection) if projection else "*"
        clause, params = _where(ep, where)
        order = sort if sort and sort.strip() else ep.default_sort
        sql = f"SELECT {columns} FROM {ep.source}{clause}" + (f" ORDER BY {order}" if order else "")
        with _reading(state, ep.db, self.ddl, kept) as con:
            try:
                cur = con.execute(sql, params)
            except sqlite3.Error as error:
                raise _sql_error(self.authority, error, sql) from None
            try:
                return Cursor([d[0] for d in cur.description], cur.fetchall())
            finally:
                cur.close()

    def insert(self, state: SimState, ep: Endpoint, values: dict[str, Any], caller: Caller) -> str:
        self._writable(ep)
        with self._db(state, ep) as con:
            values = self.before_insert(state, con, ep, dict(values), caller)
            row_id = self._insert_row(con, ep.table, values)
            self.after_write(state, con, ep, [row_id])
        return f"{ep.uri.rstrip('/')}/{row_id}"

    def update(self, state: SimState, ep: Endpoint, values: dict[str, Any], where: str | None) -> int:
        self._writable(ep)
        with self._db(state, ep) as con:
            ids = self._matching(con, ep, where)
            if not ids:
                return 0
            values = self.before_update(state, con, ep, dict(values), ids)
            assignments = ", ".join(f"{sql_identifier(k)} = ?" for k in values)
            sql = f"UPDATE {ep.table} SET {assignments} WHERE {ep.key} = ?"
            try:
                con.executemany(sql, [tuple(values.values()) + (i,) for i in ids])
            except sqlite3.Error as error:
                raise _sql_error(self.authority, error, sql) from None
            self.after_write(state, con, ep, ids, set(values))
            return len(ids)

    def delete(self, state: SimState, ep: Endpoint, where: str | None) -> int:
        self._writable(ep)
        with self._db(state, ep) as con:
            ids = self._matching(con, ep, where)
            self.delete_rows(state, con, ep, ids)
            return len(ids)

    # --- hooks ------------------------------------------------------------------------------
    def before_insert(self, state: SimState, con: sqlite3.Connection, ep: Endpoint,
                      values: dict[str, Any], caller: Caller) -> dict[str, Any]:
        return values

    def before_update(self, state: SimState, con: sqlite3.Connection, ep: Endpoint,
                      values: dict[str, Any], ids: list[Any]) -> dict[str, Any]:
        return values

    def after_write(self, state: SimState, con: sqlite3.Connection, ep: Endpoint, ids: list[Any],
                    changed: set[str] | None = None) -> None:
        """Called after rows `ids` were inserted (changed=None) or updated."""

    def delete_rows(self, state: SimState, con: sqlite3.Connection, ep: Endpoint, ids: list[Any]) -> None:
        con.executemany(f"DELETE FROM {ep.table} WHERE {ep.key} = ?", [(i,) for i in ids])

    # --- helpers ------------------------------------------------------------------------------
    def _collection(self, uri: str, segments: list[str], name: str) -> dict[str, Any]:
        """Endpoint keywords for `<name>` or `<name>/<id>`; any other path is unknown."""
        if segments[:1] != [name] or len(segments) > 2:
            raise _unknown(self.authority, uri)
        if len(segments) == 1:
            return {}
        if _id_segment(segments[1]) is None:
            raise _unknown(self.authority, uri)
        return {"condition": "_id = ?", "params": (int(segments[1]),)}

    def _db(self, state: SimState, ep: Endpoint) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return _open(state, ep.db, self.ddl)

    def _writable(self, ep: Endpoint) -> None:
        if ep.table is None:
            raise ProviderError(self.authority, "java.lang.UnsupportedOperationException",
                                f"Cannot modify {ep.uri}")

    def _matching(self, con: sqlite3.Connection, ep: Endpoint, where: str | None) -> list[Any]:
        clause, params = _where(ep, where)
        sql = f"SELECT _id FROM {ep.source}{clause}"
        try:
            return [row[0] for row in con.execute(sql, params)]
        except sqlite3.Error as error:
            raise _sql_error(self.authority, error, sql) from None

    def _insert_row(self, con: sqlite3.Connection, table: str, values: Mapping[str, Any]) -> int:
        if values:
            names = ", ".join(sql_identifier(k) for k in values)
            sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(values))})"
        else:
            sql = f"INSERT INTO {table} DEFAULT VALUES"
        try:
            return int(con.execute(sql, tuple(values.values())).lastrowid)
        except sqlite3.Error as error:
            raise _sql_error(self.authority, error, sql) from None


def _as_int(value: Any) -> Any:
    """ContentValues.getAsLong: numbers and numeric strings as int, anything else unchanged."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return value


def _id_segment(segment: str) -> int | None:
    return int(segment) if segment.isdigit() else None


# --- telephony -------------------------------------------------------------------------------
def _phone_key(address: str) -> str:
    """Digits of a phone number, for PHONE_NUMBERS_EQUAL-style matching (last 10 digits)."""
    digits = re.sub(r"\D", "", address)
    return digits[-10:] if len(digits) >= 7 else ""


def thread_id_for(con: sqlite3.Connection, address: str, date_ms: int) -> int:
    """The thread of a one-recipient conversation with `address`, created when missing."""
    key = _phone_key(address)
    canonical = None
    for row_id, known in con.execute("SELECT _id, address FROM canonical_addresses ORDER BY _id"):
        if known == address or (key and _phone_key(known or "") == key):
            canonical = row_id
            break
    if canonical is None:
        canonical = con.execute("INSERT INTO canonical_addresses (address) VALUES (?)", (address,)).lastrowid
    row = con.execute("SELECT _id FROM threads WHERE recipient_ids = ?", (str(canonical),)).fetchone()
    if row:
        return int(row[0])
    return int(con.execute("INSERT INTO threads (date, recipient_ids, message_count) VALUES (?, ?, 0)",
                           (date_ms, str(canonical))).lastrowid)


class SmsProvider(Provider):
    """content://sms[/<box>][/<id>], content://sms/conversations[/<thread_id>]."""

    authority = "sms"
    _SORT = "date DESC, _id DESC"

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        base = dict(provider=self, uri=uri, db=MMSSMS_DB, source="sms", table="sms",
                    default_sort=self._SORT)
        if not segments:
            return Endpoint(**base, kind="all")
        head, rest = segments[0], segments[1:]
        if head in SMS_BOXES and not rest:
            return Endpoint(**base, condition="type = ?", params=(SMS_BOXES[head],), kind=head)
        if head in SMS_BOXES and len(rest) == 1 and _id_segment(rest[0]) is not None:
            return Endpoint(**base, condition="type = ? AND _id = ?",
                            params=(SMS_BOXES[head], int(rest[0])), kind=head)
        if _id_segment(head) is not None and not rest:
            return Endpoint(**base, condition="_id = ?", params=(int(head),), kind="id")
        if head == "conversations" and not rest:
            source = ("(SELECT sms.thread_id AS thread_id, groups.msg_count AS msg_count, "
                      "sms.body AS snippet, sms.date AS date, sms.thread_id AS _id FROM sms, "
                      "(SELECT thread_id, MAX(date) AS max_date, MAX(_id) AS last_id, COUNT(*) AS msg_count "
                      "FROM sms GROUP BY thread_id) AS groups "
                      "WHERE sms._id = (SELECT _id FROM sms AS s WHERE s.thread_id = groups.thread_id "
                      "ORDER BY s.date DESC, s._id DESC LIMIT 1))")
            return Endpoint(self, uri, MMSSMS_DB, source, None, default_sort="date DESC",
                            kind="conversations")
        if head == "conversations" and len(rest) == 1 and _id_segment(rest[0]) is not None:
            return Endpoint(**base, condition="thread_id = ?", params=(int(rest[0]),), kind="thread")
        raise _unknown(self.authority, uri)

    def before_insert(self, state, con, ep, values, caller):
        for column in ("type", "date", "thread_id"):
            values[column] = _as_int(values.get(column))
        if ep.kind in SMS_BOXES:
            values["type"] = SMS_BOXES[ep.kind]
        elif ep.kind == "thread":
            values["thread_id"] = ep.params[0]
        elif ep.kind != "all":
            raise _unknown(self.authority, ep.uri)
        if values["type"] is None:
            values["type"] = SMS_TYPE_INBOX
        if values.get("date") is None:
            values["date"] = _now_ms(state)
        if values["type"] != SMS_TYPE_INBOX:
            values["read"] = 1
        if values.get("thread_id") is None:
            values["thread_id"] = thread_id_for(con, str(values.get("address") or ""), int(values["date"]))
        values.setdefault("creator", caller.package)
        return values


# --- contacts --------------------------------------------------------------------------------
def normalize_number(number: str) -> str | None:
    """The E.164 form stored in phone rows' data4 (US numbering for 10-digit numbers)."""
    digits = re.sub(r"\D", "", number)
    if number.strip().startswith("+") and len(digits) >= 7:
        return "+" + digits
    if len(digits) == 10:
        return "+1" + digits
    if len(digits) == 11 and digits.startswith("1"):
        return "+" + digits
    return None


def split_name(display_name: str) -> dict[str, str | None]:
    """Given / middle / family parts (data2, data5, data3) of a display name."""
    words = display_name.split()
    given = words[0] if words else None
    family = words[-1] if len(words) > 1 else None
    middle = " ".join(words[1:-1]) or None
    return {"data2": given, "data5": middle, "data3": family}


def join_name(parts: Mapping[str, Any]) -> str | None:
    """The display name (data1) from prefix, given, middle, family, suffix (data4,2,5,3,6)."""
    words = [str(parts[k]).strip() for k in ("data4", "data2", "data5", "data3", "data6")
             if parts.get(k) not in (None, "")]
    return " ".join(w for w in words if w) or None


def _label(name: str | None) -> str | None:
    if not name:
        return None
    first = name.strip()[:1].upper()
    return first if first.isalpha() else "#"


def _lookup_key(raw_id: int, name: str | None) -> str:
    compact = "".join(ch for ch in (name or "").casefold() if ch.isalnum())
    return f"0r{raw_id}-" + compact.encode("utf-8")[:12].hex().upper()


class ContactsProvider(Provider):
    """content://com.android.contacts/{raw_contacts,contacts,data,data/phones,data/emails}[/<id>]."""

    authority = "com.android.contacts"
    _DATA_FILTERS = {"phones": MIME_PHONE, "emails": MIME_EMAIL}

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        base = dict(provider=self, uri=uri, db=CONTACTS_DB)
        ident = segments[-1] if segments else ""
        tail_id = _id_segment(ident)
        head = segments[:-1] if tail_id is not None else segments
        by_id = dict(condition="_id = ?", params=(tail_id,)) if tail_id is not None else {}
        if head == ["raw_contacts"]:
            return Endpoint(**base, source="view_raw_contacts", table="raw_contacts", kind="raw", **by_id)
        if head == ["contacts"]:
            return Endpoint(**base, source="view_contacts", table="contacts", kind="contacts", **by_id)
        if head == ["data"]:
            return Endpoint(**base, source="view_data", table="data", kind="data", **by_id)
        if len(head) == 2 and head[0] == "data" and head[1] in self._DATA_FILTERS:
            condition = "mimetype = ?" + (" AND _id = ?" if tail_id is not None else "")
            params = (self._DATA_FILTERS[head[1]],) + ((tail_id,) if tail_id is not None else ())
            return Endpoint(**base, source="view_data", table="data", kind="data",
                            condition=condition, params=params)
        raise _unknown(self.authority, uri)

    # --- inserts ----------------------------------------------------------------------------
    def before_insert(self, state, con, ep, values, caller):
        if ep.kind == "raw":
            return self._raw_values(con, values)
        if ep.kind == "data":
            return self._data_values(con, ep, values)
        raise ProviderError(self.authority, "java.lang.UnsupportedOperationException",
                            "Aggregate contacts are created automatically")

    def _raw_values(self, con: sqlite3.Connection, values: dict[str, Any]) -> dict[str, Any]:
        name, kind = values.pop("account_name", None), values.pop("account_type", None)
        data_set = values.pop("data_set", None)
        if kind is not None or name is not None:
            row = con.execute("SELECT _id FROM accounts WHERE account_name IS ? AND account_type IS ? "
                              "AND data_set IS ?", (name, kind, data_set)).fetchone()
            values["account_id"] = row[0] if row else con.execute(
                "INSERT INTO accounts (account_name, account_type, data_set) VALUES (?, ?, ?)",
                (name, kind, data_set)).lastrowid
        values.pop("contact_id", None)  # aggregation decides
        return values

    def _data_values(self, con: sqlite3.Connection, ep: Endpoint, values: dict[str, Any]) -> dict[str, Any]:
        mimetype = values.pop("mimetype", None)
        if ep.condition and ep.condition.startswith("mimetype"):
            mimetype = ep.params[0]
        if mimetype is None:
            raise ProviderError(self.authority, "java.lang.IllegalArgumentException", "mimetype is required")
        raw_id = values.get("raw_contact_id")
        if raw_id is None or con.execute("SELECT 1 FROM raw_contacts WHERE _id = ?", (raw_id,)).fetchone() is None:
            raise ProviderError(self.authority, "java.lang.IllegalArgumentException",
                                "raw_contact_id is required" if raw_id is None
                                else f"Raw contact {raw_id} does not exist")
        row = con.execute("SELECT _id FROM mimetypes WHERE mimetype = ?", (mimetype,)).fetchone()
        values["mimetype_id"] = row[0] if row else con.execute(
            "INSERT INTO mimetypes (mimetype) VALUES (?)", (mimetype,)).lastrowid
        _complete_data(mimetype, values, set(values))
        return values

    def before_update(self, state, con, ep, values, ids):
        if ep.kind == "data" and "mimetype" in values:
            raise ProviderError(self.authority, "java.lang.IllegalArgumentException",
                                "mimetype cannot be changed")
        if ep.kind == "raw":
            values = self._raw_values(con, values)
        return values

    # --- bookkeeping --------------------------------------------------------------------------
    def after_write(self, state, con, ep, ids, changed=None):
        if ep.kind == "raw":
            for raw_id in ids:
                if changed is None:
                    contact = con.execute(
                        "INSERT INTO contacts (name_raw_contact_id, starred, custom_ringtone, "
                        "send_to_voicemail) SELECT _id, starred, custom_ringtone, send_to_voicemail "
                        "FROM raw_contacts WHERE _id = ?", (raw_id,)).lastrowid
                    con.execute("UPDATE raw_contacts SET contact_id = ?, aggregation_needed = 0 "
                                "WHERE _id = ?", (contact, raw_id))
                self._recompute(state, con, raw_id)
        elif ep.kind == "data":
            raws = set()
            for data_id in ids:
                row = con.execute("SELECT data.raw_contact_id, mimetypes.mimetype FROM data JOIN mimetypes "
                                  "ON mimetypes._id = data.mimetype_id WHERE data._id = ?", (data_id,)).fetchone()
                if row is None:
                    continue
                raws.add(row[0])
                if changed is not None:
                    self._complete_updated(con, data_id, row[1], changed)
            for raw_id in sorted(raws):
                self._recompute(state, con, raw_id)

    def _complete_updated(self, con: sqlite3.Connection, data_id: int, mimetype: str, changed: set[str]) -> None:
        cur = con.execute("SELECT * FROM data WHERE _id = ?", (data_id,))
        row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
        before = dict(row)
        _complete_data(mimetype, row, changed)
        updates = {k: v for k, v in row.items() if v != before[k]}
        if updates:
            con.execute(f"UPDATE data SET {', '.join(f'{k} = ?' for k in updates)} WHERE _id = ?",
                        tuple(updates.values()) + (data_id,))

    def _recompute(self, state: SimState, con: sqlite3.Connection, raw_id: int) -> None:
        """Derive the raw contact's display name and its contact's summary columns from data."""
        rows = con.execute(
            "SELECT mimetypes.mimetype, data.data1, data.data2, data.data3, data.data5 FROM data "
            "JOIN mimetypes ON mimetypes._id = data.mimetype_id WHERE data.raw_contact_id = ? "
            "ORDER BY data.is_super_primary DESC, data.is_primary DESC, data._id", (raw_id,)).fetchall()
        name, alt, source = None, None, 0
        for mimetype, priority in _NAME_SOURCES:
            found = [r for r in rows if r[0] == mimetype and r[1] not in (None, "")]
            if found:
                _, name, given, family, middle = found[0]
                source = priority
                alt = name
                if mimetype == MIME_NAME and given and family:
                    alt = f"{family}, {given}" + (f" {middle}" if middle else "")
                break
        con.execute("UPDATE raw_contacts SET display_name = ?, display_name_alt = ?, display_name_source = ?, "
                    "sort_key = ?, sort_key_alt = ?, phonebook_label = ?, phonebook_label_alt = ? "
                    "WHERE _id = ?", (name, alt, source, name, alt, _label(name), _label(alt), raw_id))
        contact = con.execute("SELECT contact_id FROM raw_contacts WHERE _id = ?", (raw_id,)).fetchone()
        if contact and contact[0] is not None:
            self._recompute_contact(state, con, contact[0])

    def _recompute_contact(self, state: SimState, con: sqlite3.Connection, contact_id: int) -> None:
        raws = con.execute("SELECT _id, display_name FROM raw_contacts WHERE contact_id = ? AND deleted = 0 "
                           "ORDER BY display_name_source DESC, _id", (contact_id,)).fetchall()
        if not raws:
            con.execute("DELETE FROM contacts WHERE _id = ?", (contact_id,))
            return
        has_phone = con.execute(
            "SELECT EXISTS (SELECT 1 FROM data JOIN mimetypes ON mimetypes._id = data.mimetype_id "
            "JOIN raw_contacts ON raw_contacts._id = data.raw_contact_id WHERE raw_contacts.contact_id = ? "
            "AND raw_contacts.deleted = 0 AND mimetypes.mimetype = ? AND data.data1 IS NOT NULL "
            "AND data.data1 != '')", (contact_id, MIME_PHONE)).fetchone()[0]
        con.execute("UPDATE contacts SET name_raw_contact_id = ?, has_phone_number = ?, lookup = ?, "
                    "contact_last_updated_timestamp = ? WHERE _id = ?",
                    (raws[0][0], has_phone, _lookup_key(raws[0][0], raws[0][1]), _now_ms(state), contact_id))

    # --- deletes ------------------------------------------------------------------------------
    def delete_rows(self, state, con, ep, ids):
        if ep.kind == "contacts":
            raws = [r[0] for c in ids for r in con.execute("SELECT _id FROM raw_contacts WHERE contact_id = ?", (c,))]
            self._delete_raw(state, con, raws)
            con.executemany("DELETE FROM contacts WHERE _id = ?", [(c,) for c in ids])
        elif ep.kind == "raw":
            self._delete_raw(state, con, ids)
        else:
            raws = {r[0] for i in ids for r in con.execute("SELECT raw_contact_id FROM data WHERE _id = ?", (i,))}
            con.executemany("DELETE FROM data WHERE _id = ?", [(i,) for i in ids])
            for raw_id in sorted(raws):
                self._recompute(state, con, raw_id)

    def _delete_raw(self, state: SimState, con: sqlite3.Connection, raw_ids: list[int]) -> None:
        contacts = {r[0] for i in raw_ids for r in con.execute("SELECT contact_id FROM raw_contacts WHERE _id = ?", (i,))}
        con.executemany("DELETE FROM data WHERE raw_contact_id = ?", [(i,) for i in raw_ids])
        con.executemany("DELETE FROM raw_contacts WHERE _id = ?", [(i,) for i in raw_ids])
        for contact_id in sorted(c for c in contacts if c is not None):
            self._recompute_contact(state, con, contact_id)


def _complete_data(mimetype: str, row: dict[str, Any], given: set[str]) -> None:
    """Fill the derived columns of a data row as ContactsProvider does, in place.

    Name rows: a display name (data1) without parts is split into given/middle/family; parts
    without a display name are joined into one. Phone rows: data4 gets the E.164 number.
    """
    if mimetype == MIME_NAME:
        parts = {"data2", "data3", "data4", "data5", "data6"}
        if "data1" in given and not (parts & given) and row.get("data1"):
            row.update(split_name(str(row["data1"])))
        elif parts & given and ("data1" not in given or not row.get("data1")):
            row["data1"] = join_name(row)
    elif mimetype == MIME_PHONE and "data1" in given and "data4" not in given:
        row["data4"] = normalize_number(str(row["data1"])) if row.get("data1") else None


class LegacyContactsProvider(Provider):
    """content://contacts/phones[/<id>]: the Contacts.Phones API (read-only here)."""

    authority = "contacts"

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        return Endpoint(self, uri, CONTACTS_DB, "view_v1_phones", None, default_sort="name ASC",
                        **self._collection(uri, segments, "phones"))


# --- call log --------------------------------------------------------------------------------
class CallLogProvider(Provider):
    """content://call_log/calls[/<id>]."""

    authority = "call_log"

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        return Endpoint(self, uri, CALLLOG_DB, "calls", "calls", default_sort="date DESC",
                        **self._collection(uri, segments, "calls"))

    def before_insert(self, state, con, ep, values, caller):
        if values.get("date") is None:
            values["date"] = _now_ms(state)
        values["last_modified"] = _now_ms(state)
        return values

    def before_update(self, state, con, ep, values, ids):
        values["last_modified"] = _now_ms(state)
        return values


# --- settings --------------------------------------------------------------------------------
class SettingsProvider(Provider):
    """content://settings/{system,secure,global}[/<name>] over the settings database."""

    authority = "settings"
    ddl = SETTINGS_DDL  # CREATE TABLE IF NOT EXISTS: the settings command owns this database

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        if not segments or segments[0] not in SETTINGS_NAMESPACES or len(segments) > 2:
            raise ProviderError(self.authority, "java.lang.IllegalArgumentException", f"Invalid URI: {uri}")
        ns = segments[0]
        source = f"(SELECT rowid AS _id, name, value FROM {ns})"
        by_name = dict(condition="name = ?", params=(segments[1],)) if len(segments) == 2 else {}
        return Endpoint(self, uri, SETTINGS_DB, source, ns, key="rowid", kind=ns, **by_name)

    def insert(self, state, ep, values, caller):
        if values.get("name") in (None, ""):
            raise ProviderError(self.authority, "java.lang.IllegalArgumentException", "name must not be empty")
        sql = f"INSERT OR REPLACE INTO {ep.table} (name, value) VALUES (?, ?)"
        with self._db(state, ep) as con:
            con.execute(sql, (str(values["name"]), None if values.get("value") is None else str(values["value"])))
        return f"content://settings/{ep.kind}/{values['name']}"


class MediaProvider(Provider):
    """content://media/...: a stand-in that holds no rows, so queries find nothing and deletes
    remove nothing (the simulator does not index shared storage)."""

    authority = "media"

    def route(self, uri: str, segments: list[str]) -> Endpoint:
        return Endpoint(self, uri, "", "", None, kind="media")

    def query(self, state, ep, projection, where, sort, kept=False):
        return Cursor(list(projection or ["_id"]), [])

    def delete(self, state, ep, where):
        return 0


PROVIDERS: dict[str, Provider] = {
    p.authority: p for p in (SmsProvider(), ContactsProvider(), LegacyContactsProvider(),
                             CallLogProvider(), SettingsProvider(), MediaProvider())
}


# --- the API the content command uses --------------------------------------------------------
def parse_uri(uri: str) -> tuple[str | None, list[str]]:
    """(authority, non-empty path segments) of a `content://` URI; authority None otherwise."""
    parts = urlsplit(uri)
    if parts.scheme != "content" or not parts.netloc:
        return None, []
    return parts.netloc, [s for s in parts.path.split("/") if s]


def resolve(uri: str) -> Endpoint:
    """The endpoint of `uri`; raises ProviderError for an unknown authority or path."""
    authority, segments = parse_uri(uri)
    provider = PROVIDERS.get(authority or "")
    if provider is None:
        raise ProviderError(authority, "java.lang.IllegalStateException",
                            f"Could not find provider: {authority}")
    return provider.route(uri, segments)


def query(state: SimState, uri: str, projection: list[str] | None = None, where: str | None = None,
          sort: str | None = None, kept: bool = False) -> Cursor:
    """The matching rows; `kept` reads through the device's kept query-only connection to the
    database (sqlite_sandbox.reader, as the GUI's screens do), else through a fresh one."""
    ep = resolve(uri)
    return ep.provider.query(state, ep, projection, where, sort, kept)


def insert(state: SimState, uri: str, values: Mapping[str, Any], caller: Caller = Caller()) -> str:
    """Insert one row; returns the new row's URI."""
    ep = resolve(uri)
    return ep.provider.insert(state, ep, dict(values), caller)


def update(state: SimState, uri: str, values: Mapping[str, Any], where: str | None = None) -> int:
    """Update the matching rows; returns how many."""
    ep = resolve(uri)
    return ep.provider.update(state, ep, dict(values), where)


def delete(state: SimState, uri: str, where: str | None = None) -> int:
    """Delete the matching rows; returns how many."""
    ep = resolve(uri)
    return ep.provider.delete(state, ep, where)

