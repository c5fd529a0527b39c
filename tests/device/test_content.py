"""The Content service: builders and parsers with no device, then round trips through the simulator."""
from __future__ import annotations

import shlex

import pytest
from hypothesis import assume, given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit.device.base import CommandFailed, ShellResult
from taskkit.device.services import content as svc
from taskkit.device.services.content import ContentError
from taskkit.sim import providers
from taskkit.sim.commands.content import format_rows, parse_binding
from taskkit.sim.device import SimDevice

plain_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40)
# Text made of the characters that trouble shells, SQL and the row format.
tricky_text = st.text(st.sampled_from(list("ab Z,=:;\\'\"`\n\t$()&|*?é漢🙂")), max_size=30)
column_names = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)


# --- building commands -------------------------------------------------------------------------
@pytest.mark.parametrize("value, binding", [
    ("x:y", "c:s:x\\:y"), ("a\\b", "c:s:a\\\\b"), ("", "c:s:"), (True, "c:b:true"), (False, "c:b:false"),
    (7, "c:i:7"), (-2 ** 31, "c:i:-2147483648"), (2 ** 31, "c:l:2147483648"), (1.5, "c:d:1.5"),
    (float("inf"), "c:d:Infinity"), (None, "c:n:"),
])
def test_build_binding_types(value, binding):
    assert svc.build_binding("c", value) == binding


def test_build_binding_rejects_what_cannot_travel():
    with pytest.raises(TypeError):
        svc.build_binding("c", b"bytes")
    with pytest.raises(ValueError):
        svc.build_binding("c", 2 ** 64)
    with pytest.raises(ValueError):
        svc.build_binding("", "x")


@given(column=column_names, value=st.one_of(plain_text, st.booleans(), st.integers(-2 ** 63, 2 ** 63 - 1),
                                             st.floats(allow_nan=False), st.none()))
@settings(max_examples=80)
def test_bindings_parse_back_on_the_simulated_command(column, value):
    """What the builder writes, Content.java's parser (as simulated) reads back as the same value."""
    parsed_column, parsed = parse_binding(svc.build_binding(column, value))
    expected = int(value) if isinstance(value, bool) else value
    assert (parsed_column, parsed) == (column, expected)


def test_build_commands_are_single_quoted_words():
    command = svc.build_query("content://sms/sent", ["_id", "body"], "address = '+1'", "date DESC")
    assert shlex.split(command) == ["content", "query", "--uri", "content://sms/sent", "--projection", "_id:body",
                                    "--where", "address = '+1'", "--sort", "date DESC"]
    command = svc.build_insert("content://sms/sent", {"body": "$(reboot) `x`", "date": 5})
    assert shlex.split(command) == ["content", "insert", "--uri", "content://sms/sent",
                                    "--bind", "body:s:$(reboot) `x`", "--bind", "date:i:5"]
    assert shlex.split(svc.build_update("content://x/y", {"a": None}, "a=1")) == [
        "content", "update", "--uri", "content://x/y", "--bind", "a:n:", "--where", "a=1"]
    assert shlex.split(svc.build_delete("content://x/y")) == ["content", "delete", "--uri", "content://x/y"]


@pytest.mark.parametrize("call", [
    lambda: svc.build_query("content://x", where=""),
    lambda: svc.build_query("content://x", sort="--x"),
    lambda: svc.build_query("content://x", ["a:b"]),
    lambda: svc.build_insert("content://x", {}),
    lambda: svc.build_delete(""),
])
def test_builders_refuse_what_the_command_would_misread(call):
    with pytest.raises(ValueError):
        call()


# --- parsing output ------------------------------------------------------------------------------
def test_parse_rows_basics():
    assert svc.parse_rows("No result found.\n") == []
    out = "Row: 0 _id=1, body=hi, there=you\nsecond line, subject=NULL\nRow: 1 _id=2, body=, subject=x\n"
    assert svc.parse_rows(out, ["_id", "body", "subject"]) == [
        {"_id": "1", "body": "hi, there=you\nsecond line", "subject": None},
        {"_id": "2", "body": "", "subject": "x"},
    ]


def test_inference_across_rows_drops_names_seen_in_one_row_only():
    out = "Row: 0 _id=1, body=a, fake=b, date=5\nRow: 1 _id=2, body=c, date=6\n"
    assert svc.parse_rows(out) == [{"_id": "1", "body": "a, fake=b", "date": "5"},
                                   {"_id": "2", "body": "c", "date": "6"}]


def test_inference_with_one_row_is_ambiguous_as_documented():
    assert svc.parse_rows("Row: 0 body=a, fake=b\n") == [{"body": "a", "fake": "b"}]
    assert svc.parse_rows("Row: 0 body=a, fake=b\n", ["body"]) == [{"body": "a, fake=b"}]


def test_parse_rows_refuses_other_text():
    with pytest.raises(ValueError):
        svc.parse_rows("something else\n")


def row_values(columns: list[str]):
    """Values a row can hold and still parse exactly (see the module docstring of the service)."""
    return st.lists(tricky_text, min_size=len(columns), max_size=len(columns)).filter(
        lambda values: all(f", {c}=" not in v and v != "NULL" for c, v in zip(columns, values)))


@given(data=st.data(), columns=st.lists(column_names, min_size=1, max_size=5, unique=True))
@settings(max_examples=60)
def test_rows_printed_by_the_simulated_command_parse_back(data, columns):
    table = data.draw(st.lists(row_values(columns), max_size=3))
    assume(not any(f"\nRow: {i} " in v for row in table for v in row for i in range(1, len(table) + 1)))
    printed = format_rows(providers.Cursor(columns, [tuple(row) for row in table]))
    assert svc.parse_rows(printed, columns) == [dict(zip(columns, row)) for row in table]


def test_check_result_turns_errors_into_exceptions():
    ok = ShellResult("Row: 0 a=1\n", "", 0)
    assert svc.check_result("content query", ok) == "Row: 0 a=1\n"
    with pytest.raises(ContentError, match="Unsupported argument: --x"):
        svc.check_result("c", ShellResult("usage: adb shell content ...\n[ERROR] Unsupported argument: --x\n", "", 0))
    with pytest.raises(ContentError, match="Could not find provider: nope"):
        svc.check_result("c", ShellResult("", "Error while accessing provider:nope\njava.lang.IllegalStateException: "
                                          "Could not find provider: nope\n", 0))
    with pytest.raises(CommandFailed):
        svc.check_result("c", ShellResult("", "/system/bin/sh: content: inaccessible or not found\n", 127))


# --- through the simulator ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def device(tmp_path_factory):
    sim = sim_device(tmp_path_factory.mktemp("content") / "device")
    yield sim
    sim.close()


@given(body=st.one_of(tricky_text, plain_text))
@settings(max_examples=40)
def test_sms_bodies_round_trip_through_content_insert_and_query(device, body):
    assume(body != "NULL" and "\nRow: 1 " not in body and ", body=" not in body)
    device.content.delete("content://sms")
    device.content.insert("content://sms/sent", {"address": "+15551234567", "body": body})
    rows = device.content.query("content://sms/sent", ["address", "body", "type"])
    assert rows == [{"address": "+15551234567", "body": body, "type": "2"}]


@given(name=tricky_text.filter(lambda n: n.strip() != "" and n != "NULL" and ", display_name=" not in n))
@settings(max_examples=30)
def test_contact_names_round_trip_through_the_legacy_phones_uri(device, name):
    device.content.delete("content://com.android.contacts/raw_contacts")
    device.content.insert("content://com.android.contacts/raw_contacts", {"account_type": None})
    (raw,) = device.content.query("content://com.android.contacts/raw_contacts", ["_id"])
    for mimetype, value in ((providers.MIME_NAME, name), (providers.MIME_PHONE, "+1 (555) 010-9999")):
        device.content.insert("content://com.android.contacts/data",
                              {"raw_contact_id": int(raw["_id"]), "mimetype": mimetype, "data1": value})
    rows = device.content.query("content://contacts/phones/", ["display_name", "number"])
    assert rows == [{"display_name": name, "number": "+1 (555) 010-9999"}]


def test_androidworld_sms_check_flow(device):
    device.content.delete("content://sms")
    for body in ("first", "second"):
        device.content.insert("content://sms/sent", {"address": "+15550001111", "body": body})
    device.content.insert("content://sms/inbox", {"address": "+15550001111", "body": "reply", "date": 1})
    sent = device.content.query("content://sms/sent")
    assert [r["body"] for r in sent] == ["second", "first"]  # newest first
    assert sent[0]["date"] == str(device.state.clock_epoch * 1000)
    assert set(sent[0]) >= {"_id", "thread_id", "address", "date", "read", "type", "body"}
    rows = device.content.query("content://sms", ["body"], where="type = 1")
    assert rows == [{"body": "reply"}]


def test_update_and_delete_with_where(device):
    device.content.delete("content://sms")
    device.content.insert("content://sms/inbox", {"address": "1", "body": "x", "read": False})
    device.content.update("content://sms/inbox", {"read": True, "body": "it's read"}, where="address = '1'")
    assert device.content.query("content://sms", ["read", "body"]) == [{"read": "1", "body": "it's read"}]
    device.content.delete("content://sms", where="body = 'it''s read'")
    assert device.content.query("content://sms") == []


def test_each_call_is_one_round_trip(device):
    before = device.stats.round_trips
    device.content.query("content://sms")
    device.content.insert("content://call_log/calls", {"number": "5", "type": 3})
    assert device.stats.round_trips - before == 2


def test_errors_raise(device):
    with pytest.raises(ContentError, match="Could not find provider"):
        device.content.query("content://no.such.authority/x")
    with pytest.raises(ContentError, match="no such column"):
        device.content.query("content://sms", where="nonexistent = 1")
    with pytest.raises(ContentError, match="has no column named"):
        device.content.insert("content://sms", {"nonexistent": 1})
