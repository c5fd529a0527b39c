"""Row sources: on-device snapshots and SQL diffs agree with a host diff, and stay cheap."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit.device.base import CommandFailed
from taskkit.device.quoting import sql_literal
from taskkit.env import Env
from taskkit.sim.device import SimDevice
from taskkit.validators.sources import ProviderUri, Table, diff_rows, where_sql

DB = "/data/local/tmp/sources.db"
TABLE = Table(DB, "t", "id")
values = st.one_of(st.none(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(max_size=8), st.binary(max_size=4))


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("sources") / "device")
    yield Env(device)
    device.close()


def reset(env, rows):
    env.device.sqlite.execute(DB, "DROP TABLE IF EXISTS t; CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT);")
    env.device.sqlite.insert_rows(DB, "t", rows)


@settings(max_examples=25)
@given(
    start=st.lists(st.tuples(values, values), max_size=6),
    removals=st.sets(st.integers(1, 6), max_size=3),
    updates=st.dictionaries(st.integers(1, 6), st.tuples(values, values), max_size=3),
    additions=st.lists(st.tuples(values, values), max_size=3),
)
def test_device_diff_equals_the_host_diff(env, start, removals, updates, additions):
    reset(env, [{"id": i + 1, "a": a, "b": None if b is None else str(b)} for i, (a, b) in enumerate(start)])
    before = TABLE.read(env.device)
    snapshot = TABLE.snapshot(env)
    for key in removals:
        env.device.sqlite.execute(DB, f"DELETE FROM t WHERE id = {key};")
    for key, (a, b) in updates.items():
        text = None if b is None else str(b)
        env.device.sqlite.execute(DB, f"UPDATE t SET a = {sql_literal(a)}, b = {sql_literal(text)} WHERE id = {key};")
    env.device.sqlite.insert_rows(DB, "t", [{"a": a, "b": None if b is None else str(b)} for a, b in additions])
    assert TABLE.diff(env, snapshot) == diff_rows(before, TABLE.read(env.device))


def test_check_traffic_does_not_grow_with_the_table(env):
    received = []
    for size in (100, 5000):
        reset(env, [{"id": i, "a": i * 1.5, "b": f"row {i} " * 3} for i in range(1, size + 1)])
        snapshot = TABLE.snapshot(env)
        env.device.sqlite.insert_rows(DB, "t", [{"a": 1, "b": "new"}])
        env.device.flush()
        env.device.stats.reset()
        diff = TABLE.diff(env, snapshot)
        assert len(diff.added) == 1 and not diff.removed and not diff.changed
        assert env.device.stats.round_trips == 1
        received.append(env.device.stats.bytes_received)
    assert max(received) < 200 and abs(received[0] - received[1]) <= 2  # only the new key's digits differ


def test_where_sql_uses_is_for_null_and_quotes_values():
    assert where_sql({"name": "it's", "note": None}) == "\"name\" IS 'it''s' AND \"note\" IS NULL"
    assert where_sql("a > 1") == "a > 1"
    assert where_sql({}) == "1"


def test_select_by_dict_sql_and_predicate(env):
    reset(env, [{"id": 1, "a": 1, "b": "x"}, {"id": 2, "a": 2, "b": None}, {"id": 3, "a": 2, "b": "y"}])
    assert set(TABLE.select(env.device, {"b": None})) == {2}
    assert set(TABLE.select(env.device, "a = 2")) == {2, 3}
    assert set(TABLE.select(env.device, lambda row: row["b"] == "y")) == {3}


def test_provider_source_diffs_on_the_host(env):
    sent = ProviderUri("content://sms/sent", projection=("address", "body"))
    snapshot = sent.snapshot(env)
    env.device.content.insert("content://sms/sent", {"address": "+15550100", "body": "hi, there"})
    diff = sent.diff(env, snapshot)
    assert [row["body"] for row in diff.added.values()] == ["hi, there"]


def test_a_snapshot_that_fails_starts_no_change_log(env):
    """The copy and the change log start in one transaction: a copy that fails (here its unique
    key index, over a table whose key repeats) leaves no trigger behind to log into a snapshot
    that does not exist."""
    env.device.sqlite.execute(DB, "DROP TABLE IF EXISTS d; DROP TABLE IF EXISTS taskkit_changes; CREATE TABLE d(k, v);"
                                  " INSERT INTO d VALUES (1, 'a'), (1, 'b');")
    with pytest.raises(CommandFailed, match="UNIQUE constraint failed"):
        Table(DB, "d", "k").snapshot(env)
        env.device.flush()
    names = env.device.sqlite.query(DB, "SELECT name FROM sqlite_master WHERE name LIKE 'taskkit%' ORDER BY name")
    assert names == []
