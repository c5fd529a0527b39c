"""The simulated OsmAnd screens: search, favourites into groups, markers in order, planning a
route (the OsmAnd tasks' reference scripts are in test_gui_references.py)."""
from __future__ import annotations

import pytest

from taskkit import loading, registry, suite
from taskkit.apps import osmand
from tests.sim.gui.helpers import find, tap, texts
from taskkit.apps.osmand.tasks import search_result as _result


def test_both_location_forms_are_covered_by_the_seeds() -> None:
    """The favourite and marker reference cases meet a place name and a coordinate pair."""
    loading.load_builtin()
    forms = {osmand.parse_coords(suite.instantiate(registry.get(task), 30, i).create().params["location"]) is None
             for task in ("OsmAndFavorite", "OsmAndMarker") for i in range(3)}
    assert forms == {True, False}


def _start(device) -> None:
    osmand.reset(device)
    device.check(f"am start -n {osmand.APP.component}")


def test_search_lists_every_place_containing_the_words_and_a_typed_location(device) -> None:
    _start(device)
    tap(device, "map_search_button")
    tap(device, "searchEditText")
    device.check("input text Planken")
    assert [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith(":id/title")] == \
        ["Planken", "Oberplanken"]
    device.check("input keyevent 4")
    tap(device, "map_search_button")
    tap(device, "searchEditText")
    device.check("input text '47.1, 9.5'")
    assert "47.10000, 9.50000" in texts(device) and "Location" in texts(device)


def test_a_favourite_saved_into_a_group_goes_to_that_groups_file(device) -> None:
    _start(device)
    osmand.write_group(device, "Hiking", [osmand.Favorite("Gaflei", 47.143, 9.544, "Hiking")])
    tap(device, "map_search_button")
    tap(device, "searchEditText")
    device.check("input text Malbun")
    tap(device, _result("Malbun"))
    tap(device, "context_menu_fav_text_view")
    tap(device, "Hiking")
    tap(device, "right_bottom_button")
    saved = osmand.read_favorites(device, "Hiking")
    assert [(f.name, f.coords) for f in saved] == [("Gaflei", (47.143, 9.544)),
                                                   ("Malbun", osmand.PLACES["Malbun, Liechtenstein"])]
    assert osmand.read_favorites(device, "") == []


def test_adding_markers_links_them_in_order_and_the_markers_list_shows_them(device) -> None:
    _start(device)
    for name in ("Schaan", "Triesen"):
        tap(device, "map_search_button")
        tap(device, "searchEditText")
        device.check(f"input text {name}")
        tap(device, _result(name))
        tap(device, "context_menu_route_text_view")
    first, second = osmand.active_markers(device)
    assert first["marker_next_key"] == second["marker_id"] and second["marker_next_key"] == osmand.TAIL_NEXT
    assert [osmand.marker_name(r) for r in (first, second)] == ["Schaan", "Triesen"]
    tap(device, "map_menu_button")
    tap(device, "Map markers")
    assert {"Schaan", "Triesen"} <= set(texts(device))


def test_plan_a_route_from_a_place_panning_and_undo(device) -> None:
    _start(device)
    tap(device, "map_search_button")
    tap(device, "searchEditText")
    device.check("input text Nendeln")
    tap(device, _result("Nendeln"))
    tap(device, "context_menu_more_text_view")
    tap(device, "Plan a route")
    assert "points: 1" in texts(device)
    x, y = find(device, "map_view").bbox.center
    device.check(f"input swipe {x} {y} {x} {y + 400} 300")  # drag south: the centre moves north
    tap(device, "add_point_button")
    assert "points: 2" in texts(device)
    tap(device, "previous_dot_icon")
    assert "points: 1" in texts(device)
    tap(device, "add_point_button")
    tap(device, "save_button")
    tap(device, "Save")
    (path,) = osmand.track_files(device)
    points = osmand.track_points(device.files.read_text(path))
    assert points[0] == pytest.approx(osmand.PLACES["Nendeln, Liechtenstein"]) and points[1][0] > points[0][0]
