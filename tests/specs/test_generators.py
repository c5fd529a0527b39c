"""Param generators: draws stay inside their ranges and windows, exclusions and uniqueness hold
for every seed, and a seed always gives the same params."""
from __future__ import annotations

import datetime as dt
import tempfile
import textwrap
from pathlib import Path

from hypothesis import given, settings, strategies as st

from taskkit import specs
from taskkit.params import validate

SPEC = '''
name: "GeneratorsProbe"
apps: "simple calendar pro"
complexity: 1
goal: "{{ day_ts | date }} {{ picks | join(', ') }} {{ other }}"
params { name: "day_ts" datetime { anchor: START_OF_DAY min { days: 1 } max { days: 20 } step_minutes: 1440 } }
params { name: "picks" count: 3 unique: true choice { strings: ["a", "b", "c", "d"] } }
params { name: "other" distinct_from: "picks" choice { strings: ["a", "b", "c", "d"] } }
params { name: "price" float_range { min: 1 max: 2 decimals: 2 } }
params { name: "slot" datetime { anchor: START_OF_DAY min { hours: -48 } max { hours: 48 } step_minutes: 15 earliest_hour: 9 latest_hour: 17 output: FORMATTED format: "%Y-%m-%d %H:%M" } }
params {
  name: "events"
  rows {
    table: "events"
    count: 5
    max_count: 12
    unique_by: "title"
    fields { name: "title" faker { provider: "word" } }
    fields { name: "start_ts" datetime { anchor_param: "day_ts" min { days: -3 } max { days: 3 } step_minutes: 60 } }
    fields { name: "end_ts" expr: "start_ts + 1800" }
    exclude_if { all { condition { field: "start_ts" op: GE param: "day_ts" } condition { field: "start_ts" op: LT expr: "day_ts + 86400" } } }
  }
}
success { row_exists { table: "events" where { field: "title" op: EQ str: "x" } } }
oracle { insert_rows { table: "events" rows { set { column: "title" str: "x" } } } }
'''


def _load() -> type:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "probe.textproto"
        path.write_text(textwrap.dedent(SPEC))
        return specs.load_file(path, register=False)


TASK = _load()


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_draw_keeps_its_constraints(seed):
    params = TASK.from_seed(seed).params
    validate(params, TASK.schema)
    day = params["day_ts"]
    assert day % 86400 == 0 and 1 <= (day - 1697328000) // 86400 <= 20
    assert len(set(params["picks"])) == 3 and params["other"] not in params["picks"]
    assert 1 <= params["price"] <= 2 and round(params["price"], 2) == params["price"]
    slot = dt.datetime.strptime(params["slot"], "%Y-%m-%d %H:%M")
    assert 9 <= slot.hour <= 17 and slot.minute % 15 == 0
    events = params["events"]
    assert 5 <= len(events) <= 12
    assert len({e["title"].lower() for e in events}) == len(events)
    for event in events:
        assert not day <= event["start_ts"] < day + 86400  # the exclusion holds for every row
        assert abs(event["start_ts"] - day) <= 3 * 86400 and event["end_ts"] == event["start_ts"] + 1800
        assert set(event) == {"title", "start_ts", "end_ts"}


def test_same_seed_same_params_and_goal():
    a, b = TASK.from_seed(99), TASK.from_seed(99)
    assert a.params == b.params and a.goal == b.goal
    assert TASK.from_seed(100).params != a.params
