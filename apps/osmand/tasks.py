"""OsmAnd tasks (AndroidWorld's OsmAndFavorite, OsmAndMarker and OsmAndTrack).

The params, goals and tolerance follow AndroidWorld's `task_evals/single/osmand.py`: a location
is one of the twelve pre-loaded Liechtenstein places, given by name ("Balzers, Liechtenstein")
or, half of the time, by its coordinates ("47.0688832, 9.5061564"); a point matches it when
both coordinates are within 0.001° (Chebyshev). Where AndroidWorld's check passes things the goal
does not ask for, taskkit is stricter:

* OsmAndFavorite: AndroidWorld also passes a favourite whose *name* contains the location text,
  wherever it is on the map; taskkit requires the favourite's coordinates to match (and, as
  AndroidWorld, reads only the default group's `favorites.gpx`; a point there at the start
  does not count).
* OsmAndMarker: AndroidWorld reads every `map_markers` row, so a marker already moved to the
  history (`marker_active` 0, removed from the map) passes; taskkit counts active markers only.
* OsmAndTrack: as AndroidWorld, a saved track passes when its points visit the waypoints in the
  given order; taskkit reads only `.gpx` files (in the tracks folder and its subfolders, where
  the app's save dialog can put them) and treats a file that is not GPX as no track, where
  AndroidWorld's parser raises.

The start state adds noise AndroidWorld's does not have: favourites at other places in named
groups, active and history markers elsewhere, and (OsmAndTrack) a saved track through the same
waypoints in the reverse order.
"""
from __future__ import annotations

import unicodedata
from typing import Any

from taskkit.apps import osmand
from taskkit.apps.common import DEVICE_EPOCH
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, Locator, open_app, resource_id, tap, text, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

_PLACE_NAMES = sorted(osmand.PLACES)


def random_location(rng: TaskRng) -> str:
    """A place's name or, half of the time, its coordinates as AndroidWorld formats them."""
    name = rng.choice(_PLACE_NAMES)
    if rng.getrandbits(1):
        return name
    lat, lon = osmand.PLACES[name]
    return f"{lat}, {lon}"


def _target(location: str) -> osmand.Coords:
    coords = osmand.location_coords(location)
    if coords is None:
        raise ValueError(f"{location!r} is neither 'lat, lon' nor one of {', '.join(_PLACE_NAMES)}")
    return coords


def _place_label(location: str) -> str:
    """The name the app gives the point: the place's short name, or its formatted coordinates."""
    if location in osmand.PLACES:
        return osmand.short_name(location)
    return osmand.format_coords(*_target(location))


# A place's name or "lat, lon" (AndroidWorld's two forms; coordinates as Python prints floats).
LOCATION_PATTERN = "^(-?[0-9]+(\\.[0-9]+)?, -?[0-9]+(\\.[0-9]+)?|" + "|".join(_PLACE_NAMES) + ")$"
_LOCATION_SCHEMA = {
    "type": "object",
    "properties": {"location": {"type": "string", "pattern": LOCATION_PATTERN},
                   "noise_seed": {"type": "integer", "minimum": 0}},
    "required": ["location", "noise_seed"],
}


def _noise_favorites(device: Any, rng: TaskRng, avoid: list[osmand.Coords]) -> None:
    """2-4 favourites in named groups, and the default group's file with no points."""
    favorites = osmand.noise_favorites(rng, rng.randint(2, 4), avoid)
    for group in sorted({f.group for f in favorites}):
        osmand.write_group(device, group, [f for f in favorites if f.group == group])
    osmand.write_group(device, "", [])


def _typed(text: str) -> str:
    """`text` as `input text` can type it (ASCII): the search ignores accents."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def search_result(title: str) -> Locator:
    """The search result whose title is exactly `title`."""
    return text(title) & resource_id("title")


def find_place(location: str) -> list[Step]:
    """Search a place name or coordinates and open the result's context menu."""
    if location in osmand.PLACES:
        return [tap("map_search_button"), type_text("searchEditText", _typed(location)),
                tap(search_result(osmand.short_name(location)))]
    lat, lon = osmand.location_coords(location)
    return [tap("map_search_button"), type_text("searchEditText", f"{lat}, {lon}"),
            tap(search_result(osmand.format_coords(lat, lon)))]


class _OsmAndTask(TaskEval):
    app_names = ("osmand",)
    abstract = True


class _LocationTask(_OsmAndTask):
    """A task about one location: a place's name or its coordinates."""

    abstract = True
    schema = _LOCATION_SCHEMA

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"location": random_location(rng), "noise_seed": rng.getrandbits(32)}


class OsmAndFavorite(_LocationTask):
    """Add a favourite at a place (found by name or by coordinates)."""

    complexity = 1.3  # AndroidWorld's
    template = "Add a favorite location marker for {{ location }} in the OsmAnd maps app."

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        _noise_favorites(env.device, rng, [_target(self.params["location"])])
        osmand.MARKERS.insert(env.device, osmand.noise_markers(rng, rng.randint(0, 2), rng.randint(0, 1)))
        self.before = set(osmand.read_favorites(env.device, ""))

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        target = _target(self.params["location"])
        added = [f for f in osmand.read_favorites(env.device, "") if f not in self.before]
        return 1.0 if any(osmand.coords_match(f.coords, target) for f in added) else 0.0

    def solve(self, env: TaskEnv) -> None:
        lat, lon = _target(self.params["location"])
        osmand.add_favorite(env.device, osmand.Favorite(_place_label(self.params["location"]), lat, lon,
                                                        time=DEVICE_EPOCH))

    def gui_reference(self) -> list[Step]:
        return [open_app("osmand"), *find_place(self.params["location"]), tap("context_menu_fav_text_view"),
                tap("right_bottom_button")]


class OsmAndMarker(_LocationTask):
    """Add a map marker at a place (found by name or by coordinates)."""

    complexity = 2.0  # AndroidWorld's
    template = "Add a location marker for {{ location }} in the OsmAnd maps app."

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        avoid = [_target(self.params["location"])]
        osmand.MARKERS.insert(env.device, osmand.noise_markers(rng, rng.randint(1, 3), rng.randint(0, 2), avoid))
        _noise_favorites(env.device, rng, avoid)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        target = _target(self.params["location"])
        return 1.0 if any(osmand.coords_match((row["marker_lat"], row["marker_lon"]), target)
                          for row in osmand.active_markers(env.device)) else 0.0

    def solve(self, env: TaskEnv) -> None:
        lat, lon = _target(self.params["location"])
        osmand.add_marker(env.device, lat, lon, _place_label(self.params["location"]), DEVICE_EPOCH * 1000)

    def gui_reference(self) -> list[Step]:
        return [open_app("osmand"), *find_place(self.params["location"]), tap("context_menu_route_text_view")]


class OsmAndTrack(_OsmAndTask):
    """Save a track (Plan a route) through 2-4 places in a given order."""

    complexity = 12  # AndroidWorld's
    schema = {
        "type": "object",
        "properties": {
            "waypoints": {"type": "array", "items": {"type": "string", "enum": _PLACE_NAMES},
                          "minItems": 2, "maxItems": 4},
            "track_name": {"type": "string", "minLength": 1},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["waypoints", "track_name", "noise_seed"],
    }
    template = ("Save a track with waypoints {{ waypoints | join(', ') }} in the OsmAnd maps app in the same order "
                "as listed.")

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        waypoints = rng.sample(_PLACE_NAMES, rng.randint(2, 4))
        return {"waypoints": waypoints, "track_name": f"{waypoints[0]} to {waypoints[-1]}",
                "noise_seed": rng.getrandbits(32)}

    def _targets(self) -> list[osmand.Coords]:
        return [_target(name) for name in self.params["waypoints"]]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        _noise_favorites(env.device, rng, [])
        osmand.MARKERS.insert(env.device, osmand.noise_markers(rng, rng.randint(0, 2), 0))
        backwards = osmand.straight_route(self._targets()[::-1])
        if not osmand.visits_in_order(backwards, self._targets()):  # a near miss, never a pass
            names = [osmand.short_name(n) for n in self.params["waypoints"]]
            osmand.save_track(env.device, f"{names[-1]} to {names[0]}", backwards)

    def _passes(self, text: str) -> bool:
        points = osmand.track_points(text)
        return points is not None and osmand.visits_in_order(points, self._targets())

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        return 1.0 if any(self._passes(env.device.files.read_text(path))
                          for path in osmand.track_files(env.device)) else 0.0

    def solve(self, env: TaskEnv) -> None:
        osmand.save_track(env.device, self.params["track_name"], osmand.straight_route(self._targets()))

    def gui_reference(self) -> list[Step]:
        steps = [open_app("osmand"), tap("map_menu_button"), tap("Plan a route")]
        for name in self.params["waypoints"]:
            steps += [*find_place(name), tap("add_point_button")]
        return steps + [tap("save_button"), tap("Save")]  # the goal names no track: the offered name will do
