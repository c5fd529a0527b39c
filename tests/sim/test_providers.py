"""The simulated content providers and the `content` command (no shell, no adb)."""
from __future__ import annotations

import os
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.sim import packages, providers
from taskkit.sim.commands import Invocation
from taskkit.sim.commands.content import (
    UsageError, content, format_rows, java_float_str, parse_args, parse_binding, split_escaped,
)
from taskkit.sim.commands.settings import put_settings
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SimState

NOW_MS = DEVICE_EPOCH * 1000


@pytest.fixture
def state(tmp_path) -> SimState:
    sim = SimState(tmp_path)
    providers.create_databases(sim)
    packages.install_all(sim)
    put_settings(sim, "secure", {"sms_default_application": "com.simplemobiletools.smsmessenger"})
    return sim


def run(state: SimState, *args: str) -> tuple[str, str, int]:
    inv = Invocation(argv=["content", *args], state=state)
    code = content(inv)
    return inv.stdout.decode(), inv.stderr.decode(), code


def db(state: SimState, path: str) -> sqlite3.Connection:
    return sqlite3.connect(state.host_path(path))


def rows(state: SimState, path: str, sql: str) -> list[tuple]:
    con = db(state, path)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# --- schemas and files ---------------------------------------------------------------------------
def columns(state: SimState, path: str, table: str) -> list[str]:
    return [r[1] for r in rows(state, path, f"PRAGMA table_info({table})")]


def test_mmssms_schema_has_the_aosp_columns(state):
    sms = columns(state, providers.MMSSMS_DB, "sms")
    for name in ("_id", "thread_id", "address", "person", "date", "date_sent", "protocol", "read", "status",
                 "type", "reply_path_present", "subject", "body", "service_center", "locked", "error_code",
                 "sub_id", "seen"):
        assert name in sms
    assert columns(state, providers.MMSSMS_DB, "canonical_addresses") == ["_id", "address"]
    assert {"_id", "date", "message_count", "recipient_ids", "snippet", "read"} <= set(
        columns(state, providers.MMSSMS_DB, "threads"))


def test_contacts_and_calllog_schemas(state):
    assert {"_id", "account_id", "contact_id", "deleted", "display_name"} <= set(
        columns(state, providers.CONTACTS_DB, "raw_contacts"))
    data = columns(state, providers.CONTACTS_DB, "data")
    assert {"_id", "raw_contact_id", "mimetype_id"} <= set(data) and "data15" in data
    assert {"_id", "name_raw_contact_id", "has_phone_number", "lookup", "starred"} <= set(
        columns(state, providers.CONTACTS_DB, "contacts"))
    mimes = {m for (m,) in rows(state, providers.CONTACTS_DB, "SELECT mimetype FROM mimetypes")}
    assert {providers.MIME_NAME, providers.MIME_PHONE, providers.MIME_EMAIL} <= mimes
    assert {"number", "date", "duration", "type", "presentation", "new", "is_read", "name"} <= set(
        columns(state, providers.CALLLOG_DB, "calls"))


def test_databases_carry_the_device_clock_as_mtime(state):
    for path in providers.DATABASES:
        assert os.stat(state.host_path(path)).st_mtime == DEVICE_EPOCH


def test_only_changes_restamp_a_database(state):
    state.set_clock(DEVICE_EPOCH + 3600)
    host = state.host_path(providers.MMSSMS_DB)
    providers.query(state, "content://sms")
    providers.delete(state, "content://sms")  # nothing to delete
    assert os.stat(host).st_mtime == DEVICE_EPOCH
    providers.insert(state, "content://sms/inbox", {"address": "1", "body": "x"})
    assert os.stat(host).st_mtime == DEVICE_EPOCH + 3600
    assert rows(state, providers.MMSSMS_DB, "SELECT date FROM sms") == [((DEVICE_EPOCH + 3600) * 1000,)]


def test_install_all_makes_data_dirs_at_the_clock(state):
    for name in ("com.android.settings", "com.simplemobiletools.smsmessenger", "org.tasks"):
        root = state.host_path(f"/data/data/{name}")
        assert (root / "databases").is_dir() and (root / "shared_prefs").is_dir()
        assert os.stat(root).st_mtime == DEVICE_EPOCH


# --- SMS -----------------------------------------------------------------------------------------
def test_insert_into_sent_sets_type_date_read_and_thread(state):
    providers.insert(state, "content://sms/sent", {"address": "+15551234567", "body": "hello"})
    ((type_, date, read, thread, creator),) = rows(
        state, providers.MMSSMS_DB, "SELECT type, date, read, thread_id, creator FROM sms")
    assert (type_, date, read) == (2, NOW_MS, 1)
    assert creator == "com.android.shell"
    assert rows(state, providers.MMSSMS_DB, "SELECT _id, message_count, snippet, date FROM threads") == [
        (thread, 1, "hello", NOW_MS)]
    assert rows(state, providers.MMSSMS_DB, "SELECT address FROM canonical_addresses") == [("+15551234567",)]


def test_inbox_insert_forces_type_and_stays_unread(state):
    providers.insert(state, "content://sms/inbox", {"address": "5551234567", "body": "x", "type": 2})
    assert rows(state, providers.MMSSMS_DB, "SELECT type, read FROM sms") == [(1, 0)]
    assert rows(state, providers.MMSSMS_DB, "SELECT read FROM threads") == [(0,)]


def test_explicit_date_is_kept_and_base_uri_defaults_to_inbox(state):
    providers.insert(state, "content://sms", {"address": "+1 555 000 1111", "body": "b", "date": 5})
    assert rows(state, providers.MMSSMS_DB, "SELECT type, date FROM sms") == [(1, 5)]


def test_numbers_in_different_formats_share_one_thread(state):
    for address in ("+15551234567", "555-123-4567", "(555) 123 4567"):
        providers.insert(state, "content://sms/inbox", {"address": address, "body": address})
    providers.insert(state, "content://sms/inbox", {"address": "+4930123456", "body": "other"})
    assert rows(state, providers.MMSSMS_DB, "SELECT message_count FROM threads ORDER BY _id") == [(3,), (1,)]


def test_thread_bookkeeping_follows_deletes_and_drafts(state):
    providers.insert(state, "content://sms/inbox", {"address": "+15551234567", "body": "old", "date": 1000})
    providers.insert(state, "content://sms/sent", {"address": "+15551234567", "body": "new", "date": 2000})
    providers.insert(state, "content://sms/draft", {"address": "+15551234567", "body": "draft", "date": 500})
    assert rows(state, providers.MMSSMS_DB, "SELECT message_count, snippet, date FROM threads") == [(2, "new", 2000)]
    assert providers.delete(state, "content://sms", "body = 'new'") == 1
    assert rows(state, providers.MMSSMS_DB, "SELECT message_count, snippet, date FROM threads") == [(1, "old", 1000)]
    providers.delete(state, "content://sms")
    assert rows(state, providers.MMSSMS_DB, "SELECT COUNT(*) FROM threads") == [(0,)]
    assert rows(state, providers.MMSSMS_DB, "SELECT COUNT(*) FROM canonical_addresses") == [(0,)]


def test_plain_sqlite_deletes_keep_threads_consistent(state):
    """AndroidWorld clears SMS with `sqlite3 mmssms.db "DELETE FROM sms"`: triggers do the rest."""
    providers.insert(state, "content://sms/inbox", {"address": "+15551234567", "body": "a"})
    con = db(state, providers.MMSSMS_DB)
    with con:
        con.execute("DELETE FROM sms")
    con.close()
    assert rows(state, providers.MMSSMS_DB, "SELECT COUNT(*) FROM threads") == [(0,)]


def test_sms_sorts_newest_first_and_boxes_filter(state):
    for date, box in ((3000, "inbox"), (1000, "sent"), (2000, "inbox")):
        providers.insert(state, f"content://sms/{box}", {"address": "+15551234567", "body": str(date), "date": date})
    everything = providers.query(state, "content://sms", ["body"])
    assert [r[0] for r in everything.rows] == ["3000", "2000", "1000"]
    assert [r[0] for r in providers.query(state, "content://sms/inbox", ["body"]).rows] == ["3000", "2000"]
    assert [r[0] for r in providers.query(state, "content://sms/sent", ["body"]).rows] == ["1000"]
    assert providers.query(state, "content://sms/outbox").rows == []
    assert providers.query(state, "content://sms/2", ["body"]).rows == [("1000",)]
    conversations = providers.query(state, "content://sms/conversations", ["thread_id", "msg_count", "snippet"])
    assert conversations.rows == [(1, 3, "3000")]


def test_equal_dates_list_the_latest_insert_first(state):
    for body in ("first", "second"):
        providers.insert(state, "content://sms/sent", {"address": "+15551234567", "body": body})
    assert [r[0] for r in providers.query(state, "content://sms/sent", ["body"]).rows] == ["second", "first"]


def test_values_are_bound_not_spliced(state):
    body = "'); DROP TABLE sms; --"
    providers.insert(state, "content://sms/sent", {"address": "x", "body": body})
    assert rows(state, providers.MMSSMS_DB, "SELECT body FROM sms") == [(body,)]


# --- contacts ------------------------------------------------------------------------------------
def add_contact(state: SimState, name: str, number: str | None = None) -> int:
    uri = providers.insert(state, "content://com.android.contacts/raw_contacts", {})
    raw_id = int(uri.rsplit("/", 1)[1])
    providers.insert(state, "content://com.android.contacts/data",
                     {"raw_contact_id": raw_id, "mimetype": providers.MIME_NAME, "data1": name})
    if number is not None:
        providers.insert(state, "content://com.android.contacts/data",
                         {"raw_contact_id": raw_id, "mimetype": providers.MIME_PHONE, "data1": number, "data2": 2})
    return raw_id


def test_raw_contact_gets_an_aggregate_and_a_display_name(state):
    raw_id = add_contact(state, "Ada Maria Lovelace", "(555) 123-4567")
    ((contact_id, name, alt, source),) = rows(
        state, providers.CONTACTS_DB, "SELECT contact_id, display_name, display_name_alt, display_name_source FROM raw_contacts")
    assert (name, alt, source) == ("Ada Maria Lovelace", "Lovelace, Ada Maria", 40)
    assert rows(state, providers.CONTACTS_DB, "SELECT _id, name_raw_contact_id, has_phone_number FROM contacts") == [
        (contact_id, raw_id, 1)]
    name_parts = rows(state, providers.CONTACTS_DB,
                      "SELECT data2, data5, data3 FROM data WHERE mimetype_id = (SELECT _id FROM mimetypes "
                      f"WHERE mimetype = '{providers.MIME_NAME}')")
    assert name_parts == [("Ada", "Maria", "Lovelace")]
    assert rows(state, providers.CONTACTS_DB, "SELECT data4 FROM data WHERE data1 = '(555) 123-4567'") == [("+15551234567",)]


def test_name_parts_compose_a_display_name(state):
    raw = int(providers.insert(state, "content://com.android.contacts/raw_contacts", {}).rsplit("/", 1)[1])
    providers.insert(state, "content://com.android.contacts/data",
                     {"raw_contact_id": raw, "mimetype": providers.MIME_NAME, "data2": "Grace", "data3": "Hopper"})
    assert rows(state, providers.CONTACTS_DB, "SELECT display_name FROM raw_contacts") == [("Grace Hopper",)]


def test_legacy_phones_uri_answers_androidworld_query(state):
    add_contact(state, "Bob Smith", "+1 555 000 1234")
    add_contact(state, "No Phone")
    out, err, code = run(state, "query", "--uri", "content://contacts/phones/", "--projection", "display_name:number")
    assert (out, err, code) == ("Row: 0 display_name=Bob Smith, number=+1 555 000 1234\n", "", 0)


def test_phone_removal_and_contact_deletion_update_aggregates(state):
    add_contact(state, "Bob Smith", "5550001234")
    providers.delete(state, "content://com.android.contacts/data/phones")
    assert rows(state, providers.CONTACTS_DB, "SELECT has_phone_number FROM contacts") == [(0,)]
    providers.delete(state, "content://com.android.contacts/raw_contacts")
    for table in ("raw_contacts", "contacts", "data"):
        assert rows(state, providers.CONTACTS_DB, f"SELECT COUNT(*) FROM {table}") == [(0,)]


def test_display_name_falls_back_to_phone(state):
    raw = int(providers.insert(state, "content://com.android.contacts/raw_contacts", {}).rsplit("/", 1)[1])
    providers.insert(state, "content://com.android.contacts/data/phones", {"raw_contact_id": raw, "data1": "555"})
    assert rows(state, providers.CONTACTS_DB, "SELECT display_name, display_name_source FROM raw_contacts") == [("555", 20)]


def test_updating_a_name_row_renames_the_contact(state):
    add_contact(state, "Old Name")
    providers.update(state, "content://com.android.contacts/data", {"data1": "New Person"},
                     f"mimetype = '{providers.MIME_NAME}'")
    assert rows(state, providers.CONTACTS_DB, "SELECT display_name FROM raw_contacts") == [("New Person",)]
    assert rows(state, providers.CONTACTS_DB, "SELECT data2, data3 FROM data") == [("New", "Person")]


def test_split_and_join_name():
    assert providers.split_name("Cher") == {"data2": "Cher", "data5": None, "data3": None}
    assert providers.join_name({"data4": "Dr.", "data2": "A", "data3": "B"}) == "Dr. A B"
    assert providers.normalize_number("555-123-4567") == "+15551234567"
    assert providers.normalize_number("12") is None


# --- call log, settings, media -------------------------------------------------------------------
def test_call_log_defaults_and_order(state):
    providers.insert(state, "content://call_log/calls", {"number": "555", "type": 1, "duration": 5, "date": 10})
    providers.insert(state, "content://call_log/calls", {"number": "556", "type": 2, "duration": 0})
    assert providers.query(state, "content://call_log/calls", ["number", "date", "last_modified"]).rows == [
        ("556", NOW_MS, NOW_MS), ("555", 10, NOW_MS)]


def test_settings_uris_read_and_write_the_settings_database(state):
    out, _, _ = run(state, "query", "--uri", "content://settings/secure", "--projection", "name:value",
                    "--where", "name='sms_default_application'")
    assert out == "Row: 0 name=sms_default_application, value=com.simplemobiletools.smsmessenger\n"
    run(state, "insert", "--uri", "content://settings/global", "--bind", "name:s:k", "--bind", "value:s:v 1")
    run(state, "update", "--uri", "content://settings/global", "--bind", "value:s:v2", "--where", "name='k'")
    assert providers.query(state, "content://settings/global/k", ["value"]).rows == [("v2",)]
    run(state, "delete", "--uri", "content://settings/global", "--where", "name='k'")
    assert providers.query(state, "content://settings/global/k").rows == []


def test_media_stand_in_is_empty(state):
    assert run(state, "delete", "--uri", "content://media/external/downloads") == ("", "", 0)
    assert run(state, "query", "--uri", "content://media/external/file")[0] == "No result found.\n"


# --- pm clear support ----------------------------------------------------------------------------
def test_reset_package_data_empties_provider_databases(state):
    add_contact(state, "Someone", "555")
    providers.insert(state, "content://call_log/calls", {"number": "555"})
    providers.insert(state, "content://sms/inbox", {"address": "555", "body": "x"})
    assert providers.reset_package_data(state, providers.CONTACTS_PACKAGE)
    for table in ("raw_contacts", "contacts", "data"):
        assert rows(state, providers.CONTACTS_DB, f"SELECT COUNT(*) FROM {table}") == [(0,)]
    assert rows(state, providers.CALLLOG_DB, "SELECT COUNT(*) FROM calls") == [(0,)]
    assert rows(state, providers.MMSSMS_DB, "SELECT COUNT(*) FROM sms") == [(1,)]
    assert providers.reset_package_data(state, providers.TELEPHONY_PACKAGE)
    assert rows(state, providers.MMSSMS_DB, "SELECT COUNT(*) FROM sms") == [(0,)]
    assert not providers.reset_package_data(state, "org.tasks")


def test_a_deleted_database_is_recreated_on_access(state):
    os.remove(state.host_path(providers.MMSSMS_DB))
    assert run(state, "query", "--uri", "content://sms")[0] == "No result found.\n"


# --- the content command -------------------------------------------------------------------------
def test_query_prints_rows_with_types(state):
    providers.insert(state, "content://sms/inbox", {"address": "+15551234567", "body": "a, b=c", "date": 7})
    out, err, code = run(state, "query", "--uri", "content://sms", "--projection", "_id : body:subject:date")
    assert (out, err, code) == ("Row: 0 _id=1, body=a, b=c, subject=NULL, date=7\n", "", 0)


def test_format_rows_java_style():
    cursor = providers.Cursor(["a", "b", "c", "d", "A"], [(1.5, b"\x00", None, 2 ** 40, "x")])
    assert format_rows(cursor) == "Row: 0 a=1.5, b=BLOB, c=NULL, d=1099511627776, A=1.5\n"
    assert format_rows(providers.Cursor(["a"], [])) == "No result found.\n"


@pytest.mark.parametrize("value, text", [
    (1.5, "1.5"), (1e10, "1.0E10"), (0.001, "0.001"), (1234567.0, "1234567.0"), (12345678.0, "1.2345678E7"),
    (0.1, "0.1"), (1.1, "1.1"), (-2.0, "-2.0"), (0.0, "0.0"), (5e-4, "5.0E-4"), (1e39, "Infinity"),
    (1.401298464324817e-45, "1.4E-45"), (1 / 3, "0.33333334"),
])
def test_java_float_str(value, text):
    assert java_float_str(value) == text


@pytest.mark.parametrize("argument, expected", [
    ("body:s:a\\:b", ("body", "a:b")), ("body:s:", ("body", "")), ("x:S:", None), ("flag:B:TRUE", ("flag", 1)),
    ("flag:b:yes", ("flag", 0)), ("n:i:-12", ("n", -12)), ("n:L:9999999999", ("n", 9999999999)),
    ("n:n:whatever", ("n", None)), ("v:d:1e3", ("v", 1000.0)), ("v:f:1.1", ("v", 1.100000023841858)),
    ("p:s:C\\\\dir", ("p", "C\\dir")),
])
def test_parse_binding(argument, expected):
    if expected is None:
        with pytest.raises(UsageError, match="Unsupported type: S"):
            parse_binding(argument)
    else:
        assert parse_binding(argument) == expected


@pytest.mark.parametrize("argument, message", [
    ("a:s", "Binding not well formed: a:s"), ("a:s:b:c", "Binding not well formed: a:s:b:c"),
    ("a:i:1.5", 'For input string: "1.5"'), ("a:i:99999999999", 'For input string: "99999999999"'),
    ("a:s:x\\", "Invalid escaping"), ("", "Binding not well formed: "),
])
def test_bad_bindings(argument, message):
    with pytest.raises(UsageError) as error:
        parse_binding(argument)
    assert str(error.value) == message


@given(st.lists(st.text(), min_size=1, max_size=4))
@settings(max_examples=60)
def test_split_escaped_inverts_escaping(parts):
    escaped = ":".join(p.replace("\\", "\\\\").replace(":", "\\:") for p in parts)
    assert split_escaped(escaped) == parts


@pytest.mark.parametrize("args, message", [
    ([], None),
    (["frob"], "Unsupported operation: frob"),
    (["query"], "Content provider URI not specified. Did you specify --uri argument?"),
    (["query", "--uri"], "No value for argument: --uri"),
    (["query", "--uri", "content://sms", "--where", ""], "No value for argument: --where"),
    (["query", "--uri", "content://sms", "--bind", "a:s:b"], "Unsupported argument: --bind"),
    (["insert", "--uri", "content://sms"], "Bindings not specified. Did you specify --bind argument(s)?"),
    (["query", "--uri", "content://sms", "--user", "me"], 'For input string: "me"'),
])
def test_usage_errors_go_to_stdout_with_exit_0(state, args, message):
    out, err, code = run(state, *args)
    assert code == 0 and err == ""
    assert out.startswith("usage: adb shell content")
    if message is None:
        assert "[ERROR]" not in out
    else:
        assert out.endswith(f"[ERROR] {message}\n")


def test_projection_split_and_sort_parse():
    parsed = parse_args(["query", "--uri", "content://sms", "--projection", "a : b:c:", "--sort", "a DESC"])
    assert parsed.projection == ["a", "b", "c"] and parsed.sort == "a DESC"


def test_provider_errors_go_to_stderr_with_exit_0(state):
    out, err, code = run(state, "query", "--uri", "content://nope/x")
    assert (out, code) == ("", 0)
    assert err.startswith("Error while accessing provider:nope\njava.lang.IllegalStateException: "
                          "Could not find provider: nope\n\tat ")
    out, err, _ = run(state, "query", "--uri", "content://sms/bogus/path")
    assert err.startswith("Error while accessing provider:sms\njava.lang.IllegalArgumentException: Unknown URL")
    _, err, _ = run(state, "query", "--uri", "content://sms", "--where", "no_such_column = 1")
    assert "android.database.sqlite.SQLiteException: no such column: no_such_column" in err
    _, err, _ = run(state, "insert", "--uri", "content://sms", "--bind", "nope:s:1")
    assert "has no column named nope" in err
    _, err, _ = run(state, "insert", "--uri", "content://sms/conversations", "--bind", "body:s:1")
    assert "Error while accessing provider:sms" in err


def test_insert_caller_is_root_when_adb_runs_as_root(state):
    state.config["is_root"] = True
    run(state, "insert", "--uri", "content://sms/sent", "--bind", "address:s:1", "--bind", "body:s:x")
    assert rows(state, providers.MMSSMS_DB, "SELECT creator FROM sms") == [("root",)]


body_text = st.text(alphabet=st.sampled_from(list("ab ,=:\\'\"\n$()é漢🙂")), max_size=30)


@given(body=body_text)
@settings(max_examples=40)
def test_content_insert_then_query_round_trips_bodies(tmp_path_factory, body):
    sim = SimState(tmp_path_factory.mktemp("rt"))
    escaped = body.replace("\\", "\\\\").replace(":", "\\:")
    run(sim, "insert", "--uri", "content://sms/sent", "--bind", "address:s:+1", "--bind", f"body:s:{escaped}")
    assert providers.query(sim, "content://sms/sent", ["body"]).rows == [(body,)]
    out, _, _ = run(sim, "query", "--uri", "content://sms/sent", "--projection", "body")
    assert out == f"Row: 0 body={body}\n"
