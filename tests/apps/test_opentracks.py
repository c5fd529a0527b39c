"""taskkit.apps.opentracks: realistic, seeded activity tracks, and their round trip through database.db."""
from __future__ import annotations

import pytest

from taskkit.apps import opentracks
from taskkit.apps.common import DAY_SECONDS, DEVICE_EPOCH, epoch, to_datetime, to_ms
from taskkit.rng import TaskRng

NOW_MS = to_ms(DEVICE_EPOCH)
FIRST_MS = NOW_MS - 14 * DAY_SECONDS * 1000


def test_same_seed_same_rows_and_different_seeds_differ():
    assert opentracks.noise_tracks(TaskRng(7), 10) == opentracks.noise_tracks(TaskRng(7), 10)
    assert opentracks.noise_tracks(TaskRng(7), 10) != opentracks.noise_tracks(TaskRng(8), 10)


def test_random_track_is_realistic():
    rows = opentracks.noise_tracks(TaskRng(1), 400)
    for row in rows:
        assert list(row) == list(opentracks.COLUMNS[1:])
        sport = opentracks.SPORTS[row["category"]]
        assert row["activity_type"] == row["category"] and row["icon"] == sport.icon
        assert FIRST_MS <= row["starttime"] < row["stoptime"] <= NOW_MS
        assert row["starttime"] % 60000 == 0
        assert opentracks.FIRST_HOUR <= to_datetime(row["starttime"] // 1000).hour <= opentracks.LAST_HOUR
        assert row["stoptime"] - row["starttime"] == row["totaltime"]
        assert sport.minutes[0] <= opentracks.duration_minutes(row) <= sport.minutes[1]
        assert 0 < row["movingtime"] <= row["totaltime"]
        assert isinstance(row["totaldistance"], float) and row["totaldistance"].is_integer()
        assert row["totaldistance"] >= 1
        moving = row["totaldistance"] / (row["movingtime"] / 1000)
        assert sport.speed[0] - 0.01 <= moving <= sport.speed[1] + 0.01
        assert row["avgmovingspeed"] == pytest.approx(moving)
        assert row["avgspeed"] <= row["avgmovingspeed"] < row["maxspeed"]
        assert 0 <= row["minelevation"] <= row["maxelevation"]
        assert row["elevationgain"] >= 0 and row["elevationloss"] >= 0
        assert isinstance(row["uuid"], bytes) and len(row["uuid"]) == 16
        assert row["name"].strip() and "," not in row["name"] and row["description"].strip()
    assert {r["category"] for r in rows} == set(opentracks.CATEGORIES)
    assert len({r["uuid"] for r in rows}) == len(rows)
    assert len({r["name"] for r in rows}) > 100
    water = [r for r in rows if r["category"] in ("swimming", "kayaking", "sailing")]
    assert water and all(r["elevationgain"] == 0 for r in water)


def test_fixed_fields():
    start = to_ms(epoch(2023, 10, 12, 7, 45))
    row = opentracks.random_track(TaskRng(2), category="running", start_ms=start, duration_min=42,
                                  distance_m=8123, name="Tempo run", elevation_gain_m=35.5)
    assert (row["name"], row["category"], row["starttime"]) == ("Tempo run", "running", start)
    assert opentracks.duration_minutes(row) == 42 and opentracks.distance_meters(row) == 8123
    assert row["elevationgain"] == 35.5
    assert opentracks.format_start_date(row) == "October 12 2023"
    assert opentracks.format_start_time(row) == "07:45"


def test_rejects_unknown_categories_and_columns():
    with pytest.raises(ValueError, match="knitting"):
        opentracks.random_track(TaskRng(0), category="knitting")
    with pytest.raises(ValueError, match="calories"):
        opentracks.random_track(TaskRng(0), calories=300)


def test_start_window_is_honoured():
    first, last = epoch(2023, 10, 9), epoch(2023, 10, 15, 15, 34)
    for _ in range(50):
        start = opentracks.random_start_ms(TaskRng(_), 120, first, last)
        assert first * 1000 <= start and start + 120 * 60000 <= last * 1000
    with pytest.raises(ValueError, match="no 600-minute track"):
        opentracks.random_start_ms(TaskRng(0), 600, epoch(2023, 10, 15), epoch(2023, 10, 15, 8))


def test_uuid_comes_from_the_rng():
    assert opentracks.random_uuid(TaskRng(5)) == opentracks.random_uuid(TaskRng(5))
    assert opentracks.random_uuid(TaskRng(5)) != opentracks.random_uuid(TaskRng(6))


def test_noise_respects_exclude():
    def running(row):
        return row["category"] == "running"

    noise = opentracks.noise_tracks(TaskRng(9), 100, exclude=running)
    assert len(noise) == 100 and not any(running(r) for r in noise)
    assert any(running(r) for r in opentracks.noise_tracks(TaskRng(9), 100))


def test_app_registration():
    app = opentracks.APP
    assert (app.name, app.package) == ("open tracks sports tracker", "de.dennisguse.opentracks")
    assert app.table("tracks") is opentracks.TRACKS
    assert opentracks.DB_PATH.startswith(app.data_paths[0] + "/")


# --- against the simulator ----------------------------------------------------------------------
def test_columns_match_the_simulator_image(device):
    assert list(opentracks.COLUMNS) == device.sqlite.columns(opentracks.DB_PATH, opentracks.TABLE)


def test_insert_read_round_trip_with_hostile_text(device, hostile):
    rng = TaskRng(21)
    rows = [opentracks.random_track(rng, name=text, description=text[::-1]) for text in hostile]
    rows[0]["uuid"] = bytes(range(16))  # NUL and every low byte survive as a BLOB
    opentracks.TRACKS.insert(device, rows)
    read = opentracks.TRACKS.rows(device)
    assert [r["_id"] for r in read] == list(range(1, len(rows) + 1))
    assert [{k: v for k, v in r.items() if k != "_id"} for r in read] == rows


def test_reset_empties_the_table_and_restarts_ids(device):
    opentracks.TRACKS.insert(device, opentracks.noise_tracks(TaskRng(3), 5))
    opentracks.APP.reset(device)
    assert opentracks.TRACKS.rows(device) == []
    opentracks.TRACKS.insert(device, opentracks.noise_tracks(TaskRng(3), 1))
    assert [r["_id"] for r in opentracks.TRACKS.rows(device)] == [1]


def test_pm_clear_recreates_the_empty_database(device):
    opentracks.TRACKS.insert(device, opentracks.noise_tracks(TaskRng(4), 3))
    device.check("pm clear de.dennisguse.opentracks")
    assert opentracks.TRACKS.rows(device) == []
    assert device.sqlite.columns(opentracks.DB_PATH, opentracks.TABLE) == list(opentracks.COLUMNS)
