"""taskkit.apps.osmand and its tasks: favourites GPX per group, map_markers rows, tracks, and the
checks of OsmAndFavorite / OsmAndMarker / OsmAndTrack (including where they are stricter than
AndroidWorld's)."""
from __future__ import annotations

from typing import Any

import pytest

from taskkit import loading, registry
from taskkit.apps import osmand
from taskkit.apps.common import DEVICE_EPOCH
from taskkit.env import Env
from taskkit.rng import TaskRng

BALZERS = "Balzers, Liechtenstein"


def _task(name: str, params: dict[str, Any]):
    loading.load_builtin()
    return registry.get(name)(params)


def test_locations_parse_as_androidworld_reads_them():
    assert osmand.parse_coords("47.1275785, 9.5387131") == (47.1275785, 9.5387131)
    assert osmand.parse_coords("-33.5, 151") == (-33.5, 151.0)
    assert osmand.parse_coords("Balzers") is None and osmand.parse_coords("1, 2, 3") is None
    assert osmand.location_coords(BALZERS) == (47.0688832, 9.5061564)
    assert osmand.location_coords("Vaduz, Liechtenstein") is None
    assert osmand.short_name(BALZERS) == "Balzers"
    assert osmand.coords_match((47.0, 9.0), (47.0009, 8.9991)) and not osmand.coords_match((47.0, 9.0), (47.0011, 9.0))


def test_favourites_round_trip_per_group_file(device, hostile):
    osmand.reset(device)
    saved = [osmand.Favorite(text, round(47.1 + i / 100, 4), 9.5, "" if i % 2 else "Trips/Alps", text, DEVICE_EPOCH - i)
             for i, text in enumerate(hostile)]
    for favorite in saved:
        osmand.add_favorite(device, favorite)
    assert set(osmand.favorite_files(device)) == {"", "Trips/Alps"}
    assert osmand.favorite_files(device)["Trips/Alps"].endswith("/favorites/favorites-Trips_%_Alps.gpx")
    assert osmand.favorite_files(device)[""] == osmand.FAVORITES_PATH
    assert sorted(osmand.read_favorites(device), key=saved.index) == saved


def test_a_favourites_file_is_gpx_1_1_with_osmands_group():
    text = osmand.favorites_gpx("Food", [osmand.Favorite("Café <1>", 47.1, 9.5, "Food")])
    assert 'xmlns="http://www.topografix.com/GPX/1/1"' in text and 'creator="OsmAnd~ 4.6.13"' in text
    assert '<wpt lat="47.1000000" lon="9.5000000">' in text and "<name>Café &lt;1&gt;</name>" in text
    assert '<group name="Food"' in text and "<type>Food</type>" in text
    assert osmand.parse_favorites("not xml") == [] and osmand.parse_favorites("<gpx/>") == []


def test_markers_are_linked_in_the_order_they_are_added(device):
    osmand.reset(device)
    osmand.MARKERS.insert(device, osmand.noise_markers(TaskRng(5), 2, 1))
    added = osmand.add_marker(device, 47.1, 9.5, "Balzers", DEVICE_EPOCH * 1000, suffix=42)
    active = {row["marker_id"]: row for row in osmand.active_markers(device)}
    assert len(active) == 3 and added == f"{DEVICE_EPOCH * 1000}142"
    heads = set(active) - {row["marker_next_key"] for row in active.values()}
    assert len(heads) == 1  # one chain, as MapMarkersDbHelper.buildLinkedList reads it
    chain, key = [], heads.pop()
    while key in active:
        chain.append(key)
        key = active[key]["marker_next_key"]
    assert key == osmand.TAIL_NEXT and chain == sorted(active, key=lambda k: active[k]["marker_added"])
    assert chain[-1] == added
    history = osmand.MARKERS.rows(device, {"marker_active": 0})
    assert len(history) == 1 and history[0]["marker_next_key"] == osmand.HISTORY_NEXT
    assert osmand.marker_name(active[added]) == "Balzers"


def test_noise_stays_away_from_the_places_to_avoid():
    avoid = [osmand.PLACES[BALZERS], (47.1396, 9.5243)]
    for seed in range(30):
        rng = TaskRng(seed)
        points = [f.coords for f in osmand.noise_favorites(rng, 4, avoid)]
        points += [(r["marker_lat"], r["marker_lon"]) for r in osmand.noise_markers(rng, 3, 2, avoid)]
        assert all(not osmand.coords_match(p, a, 0.005) for p in points for a in avoid)
    assert osmand.noise_markers(TaskRng(1), 2, 1) == osmand.noise_markers(TaskRng(1), 2, 1)


def test_tracks_visit_waypoints_in_order():
    a, b, c = (47.1, 9.5), (47.2, 9.5), (47.2, 9.6)
    route = osmand.straight_route([a, b, c])
    assert osmand.visits_in_order(route, [a, b, c]) and osmand.visits_in_order(route, [a, c])
    assert not osmand.visits_in_order(route, [c, a]) and not osmand.visits_in_order(route, [])
    text = osmand.track_gpx("A & B", route)
    read = osmand.track_points(text)
    assert [c for p in read for c in p] == pytest.approx([c for p in route for c in p])
    assert "<name>A &amp; B</name>" in text
    assert osmand.track_points("<html/>") is None and osmand.track_points("{") is None


def test_reset_empties_favourites_markers_and_tracks(device):
    osmand.add_favorite(device, osmand.Favorite("x", 47.1, 9.5))
    osmand.save_track(device, "t", [(47.1, 9.5)], folder=f"{osmand.TRACKS_DIR}/rec")
    osmand.add_marker(device, 47.1, 9.5, "x", 1)
    osmand.reset(device)
    assert osmand.read_favorites(device) == [] and osmand.track_files(device) == []
    assert osmand.MARKERS.rows(device) == []


# --- the tasks ---------------------------------------------------------------------------------------
def _run(device, name: str, params: dict[str, Any], act) -> float:
    env = Env(device)
    task = _task(name, params)
    task.initialize_state(env)
    try:
        act(env.device)
        return task.is_successful(env)
    finally:
        task.teardown(env)


@pytest.mark.parametrize("location", [BALZERS, "47.1275785, 9.5387131"])
def test_favourite_needs_the_coordinates_not_just_the_name(device, location):
    params = {"location": location, "noise_seed": 3}
    lat, lon = osmand.location_coords(location)
    assert _run(device, "OsmAndFavorite", params, lambda d: osmand.add_favorite(
        d, osmand.Favorite("anything", lat + 0.0005, lon - 0.0005))) == 1.0
    # AndroidWorld passes a favourite named after the place wherever it is; taskkit does not.
    assert _run(device, "OsmAndFavorite", params, lambda d: osmand.add_favorite(
        d, osmand.Favorite(location, lat + 0.01, lon))) == 0.0
    # Like AndroidWorld, only the default group's favorites.gpx is read.
    assert _run(device, "OsmAndFavorite", params, lambda d: osmand.add_favorite(
        d, osmand.Favorite("x", lat, lon, "Sights"))) == 0.0
    assert _run(device, "OsmAndFavorite", params, lambda d: None) == 0.0


def test_marker_must_be_active(device):
    params = {"location": BALZERS, "noise_seed": 8}
    lat, lon = osmand.PLACES[BALZERS]
    assert _run(device, "OsmAndMarker", params, lambda d: osmand.add_marker(d, lat, lon, "B", 5)) == 1.0
    # A marker moved to the history passes AndroidWorld's check; taskkit's rejects it.
    history = osmand.marker_row("1", lat, lon, "B", 5, active=False)
    assert _run(device, "OsmAndMarker", params, lambda d: osmand.MARKERS.insert(d, [history])) == 0.0
    assert _run(device, "OsmAndMarker", params, lambda d: osmand.add_marker(d, lat + 0.002, lon, "B", 5)) == 0.0


def test_track_needs_the_waypoints_in_order_in_a_gpx_file(device):
    names = ["Ruggell, Liechtenstein", "Schaan, Liechtenstein", "Malbun, Liechtenstein"]
    params = {"waypoints": names, "track_name": "Ruggell to Malbun", "noise_seed": 4}
    points = [osmand.PLACES[n] for n in names]
    assert _run(device, "OsmAndTrack", params, lambda d: osmand.save_track(
        d, "mine", osmand.straight_route(points), folder=f"{osmand.TRACKS_DIR}/planned")) == 1.0
    assert _run(device, "OsmAndTrack", params, lambda d: osmand.save_track(d, "x", [points[0], points[2], points[1]])) == 0.0
    assert _run(device, "OsmAndTrack", params, lambda d: osmand.save_track(d, "x", points[:2])) == 0.0
    assert _run(device, "OsmAndTrack", params, lambda d: d.files.write_text(
        f"{osmand.TRACKS_DIR}/x.txt", osmand.track_gpx("x", points))) == 0.0
    assert _run(device, "OsmAndTrack", params, lambda d: d.files.write_text(f"{osmand.TRACKS_DIR}/bad.gpx", "<gpx")) == 0.0


def test_the_track_task_starts_with_the_reversed_route_saved(device):
    names = ["Ruggell, Liechtenstein", "Malbun, Liechtenstein"]
    params = {"waypoints": names, "track_name": "x", "noise_seed": 4}
    env = Env(device)
    task = _task("OsmAndTrack", params)
    task.initialize_state(env)
    try:
        (path,) = osmand.track_files(device)
        assert path.endswith("/Malbun to Ruggell.gpx") and task.is_successful(env) == 0.0
    finally:
        task.teardown(env)


def test_params_follow_androidworld():
    loading.load_builtin()
    seen_names, seen_coords = set(), set()
    for seed in range(40):
        location = registry.get("OsmAndMarker").generate_random_params(TaskRng(seed))["location"]
        (seen_names if location in osmand.PLACES else seen_coords).add(location)
        track = registry.get("OsmAndTrack").generate_random_params(TaskRng(seed))
        assert 2 <= len(track["waypoints"]) <= 4 and len(set(track["waypoints"])) == len(track["waypoints"])
        assert track["track_name"] == f"{track['waypoints'][0]} to {track['waypoints'][-1]}"
    assert seen_names and seen_coords
    assert all(osmand.parse_coords(c) in osmand.PLACES.values() for c in seen_coords)
    goal = _task("OsmAndTrack", {"waypoints": ["Balzers, Liechtenstein", "Ruggell, Liechtenstein"],
                                 "track_name": "t", "noise_seed": 1}).goal
    assert goal == ("Save a track with waypoints Balzers, Liechtenstein, Ruggell, Liechtenstein in the OsmAnd maps "
                    "app in the same order as listed.")
