"""taskkit.apps.calendar: realistic, seeded event rows, and their round trip through events.db."""
from __future__ import annotations

import datetime as dt

import pytest

from taskkit.apps import calendar
from taskkit.apps.common import DEVICE_EPOCH, epoch
from taskkit.rng import TaskRng

OCTOBER_START, NOVEMBER_START = epoch(2023, 10, 1), epoch(2023, 11, 1)


def test_same_seed_same_rows_and_different_seeds_differ():
    assert calendar.noise_events(TaskRng(7), 10) == calendar.noise_events(TaskRng(7), 10)
    assert calendar.noise_events(TaskRng(7), 10) != calendar.noise_events(TaskRng(8), 10)


def test_random_event_is_realistic():
    rng = TaskRng(1)
    events = [calendar.random_event(rng) for _ in range(300)]
    for event in events:
        assert set(event) == set(calendar.COLUMNS) - {"id"}
        assert OCTOBER_START <= event["start_ts"] < NOVEMBER_START
        assert event["start_ts"] % 3600 == 0  # on the hour, minute 0
        assert calendar.duration_minutes(event) in calendar.DURATIONS_MIN
        assert event["title"].strip() and event["location"].strip()
        assert event["description"].startswith("We will ") and event["description"].endswith(".")
        for column, value in calendar.DEFAULTS.items():
            assert event[column] == value
        assert all(isinstance(event[c], int) for c in ("start_ts", "end_ts", "repeat_interval", "flags"))
    assert len({e["title"] for e in events}) > 100
    assert any(e["title"].startswith("Meeting with") for e in events)
    days = {dt.datetime.fromtimestamp(e["start_ts"], dt.timezone.utc).day for e in events}
    assert days == set(range(1, 32))


def test_random_event_takes_fixed_fields_and_extra_columns():
    event = calendar.random_event(
        TaskRng(2), day=22, hour=14, minute=30, duration_min=45, title="Dentist",
        repeat_interval=calendar.REPEAT_WEEKLY, repeat_rule=calendar.WEEKDAY_BITS["Sunday"],
    )  # fmt: skip
    assert event["start_ts"] == epoch(2023, 10, 22, 14, 30)
    assert event["end_ts"] - event["start_ts"] == 45 * 60
    assert event["title"] == "Dentist"
    assert (event["repeat_interval"], event["repeat_rule"]) == (604800, 64)
    assert calendar.format_when(event) == "October 22 2023 at 14:30"
    assert calendar.format_day(event) == "October 22 2023"
    assert calendar.format_start_time(event) == "14:30"
    assert calendar.format_duration(event) == "45 minutes"


def test_random_event_rejects_unknown_columns():
    with pytest.raises(ValueError, match="colour"):
        calendar.random_event(TaskRng(0), colour=3)


def test_first_day_bounds_the_dates():
    events = calendar.noise_events(TaskRng(4), 100, first_day=15)
    assert all(e["start_ts"] >= epoch(2023, 10, 15) for e in events)


def test_noise_respects_exclude():
    target = calendar.random_event(TaskRng(9), day=20, hour=9)

    def same_day(event):
        return calendar.format_day(event) == calendar.format_day(target)

    noise = calendar.noise_events(TaskRng(9), 200, exclude=same_day)
    assert len(noise) == 200 and not any(same_day(e) for e in noise)
    # The exclusion really bites: without it, some of the same stream falls on that day.
    assert any(same_day(e) for e in calendar.noise_events(TaskRng(9), 200))


def test_generators_do_not_read_the_wall_clock():
    # Dates derive from the fixed device time, not from when the test runs.
    assert DEVICE_EPOCH == 1697384040
    assert calendar.random_event(TaskRng(5)) == calendar.random_event(TaskRng(5))


def test_app_registration():
    assert calendar.APP.package == "com.simplemobiletools.calendar.pro"
    assert calendar.APP.data_paths == ("/data/data/com.simplemobiletools.calendar.pro/databases",)
    assert calendar.DB_PATH.startswith(calendar.APP.data_paths[0] + "/")


# --- against the simulator ----------------------------------------------------------------------
def test_columns_match_the_simulator_image(device):
    assert list(calendar.COLUMNS) == list(device.sqlite.columns(calendar.DB_PATH, calendar.TABLE))


def test_insert_read_round_trip_with_hostile_text(device, hostile):
    rng = TaskRng(21)
    rows = [
        calendar.random_event(rng, title=text, description=text[::-1], location=text.upper())
        for text in hostile
    ]
    calendar.EVENTS.insert(device, rows)
    read = calendar.EVENTS.rows(device)
    assert [r["id"] for r in read] == list(range(1, len(rows) + 1))
    assert [{k: v for k, v in r.items() if k != "id"} for r in read] == rows


def test_a_large_seeding_round_trips(device, hostile):
    # Enough rows that the insert script is long (over 64 KiB): AndroidWorld seeds up to 75.
    rows = calendar.noise_events(TaskRng(8), 150) + [calendar.random_event(TaskRng(8), description=t) for t in hostile]
    calendar.EVENTS.insert(device, rows)
    assert [{k: v for k, v in r.items() if k != "id"} for r in calendar.EVENTS.rows(device)] == rows


def test_reset_empties_the_table_and_restarts_ids(device):
    calendar.EVENTS.insert(device, calendar.noise_events(TaskRng(3), 5))
    calendar.APP.reset(device)
    assert calendar.EVENTS.rows(device) == []
    calendar.EVENTS.insert(device, calendar.noise_events(TaskRng(3), 1))
    assert [r["id"] for r in calendar.EVENTS.rows(device)] == [1]


def test_insert_nothing_sends_nothing(device):
    before = device.stats.round_trips
    calendar.EVENTS.insert(device, [])
    assert device.stats.round_trips == before


@pytest.mark.parametrize("name", ["SimpleCalendarAddOneEvent", "SimpleCalendarAddOneEventSpec",
                                  "SimpleCalendarAddOneEventTomorrow"])
def test_a_one_off_goal_fails_when_the_event_repeats(env, name):
    """Every field the goal names is compared: a repeating event is not the one-off event asked for."""
    from taskkit import loading, registry, suite

    loading.load_builtin()
    task = suite.instantiate(registry.get(name), 30, 0).create()
    task.initialize_state(env)
    try:
        task.solve(env)
        assert task.is_successful(env) == 1.0
        calendar.EVENTS.update(env.device, "id = (SELECT max(id) FROM events)", {"repeat_interval": 86400})
        assert task.is_successful(env) == 0.0
    finally:
        task.teardown(env)
