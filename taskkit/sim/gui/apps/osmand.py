"""OsmAnd: the map, search by name or coordinates, a place's context menu (add a favourite, add a
marker, plan a route), the favourite editor, "Plan a route" and its save dialog, and the My
places / Map markers lists — over the favourites GPX files, `map_markers` rows and track files
the OsmAnd checks read.

Ids and labels follow osmandapp/OsmAnd (res/layout/map_context_menu_fragment.xml:
`context_menu_line1` / `context_menu_line2`, the action row `context_menu_fav_view` "Add",
`context_menu_route_view` "Marker", `context_menu_share_view` "Share", `context_menu_more_view`
"Actions" and `context_menu_directions_button` "Directions"; point_editor_fragment_new.xml:
`name_edit` "Name", `description_edit` "Description", `group_recycler_view`, and the bottom
buttons `dismiss_button` "Cancel" / `right_bottom_button` "Save"; fragment_measurement_tool.xml:
`measurement_distance_text_view`, `measurement_points_text_view`, `previous_dot_icon` (Undo) and
`add_point_button` "Add"; search_dialog_fragment.xml with the search field `searchEditText`; the
map buttons `map_search_button` "Search" and `map_menu_button` "Menu"). Saving a favourite writes
its group's file (`favorites.gpx` for the default group "Favorites", `favorites-<group>.gpx`
otherwise); "Marker" inserts an active `map_markers` row at the tail of the marker list, as
MapMarkersDbHelper.insertLast does; saving a planned route writes `tracks/<name>.gpx` with the
route's points as one track segment.

Simplified: the map is a plain drawn surface (the place names of the pre-loaded Liechtenstein
map at their positions; a drag pans it, no zoom, no tiles); search finds the map's places and
landmarks by name and any "lat, lon" pair, nothing else (no addresses, POI categories or
history); "Plan a route" joins its points by straight lines (no routing profiles, options or
redo), keeps the map's search button so a point can be centred by name (the app hides it there:
there one pans the map), and starts without the app's "Create new route" sheet; the save dialog
names the track by the date (as the app's recorded tracks) and overwrites a file of that name;
"Share", "Directions" and the other main-menu items are not modelled; the context menu closes
after adding a marker.
"""
from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

from taskkit.apps import osmand as model
from taskkit.apps.common import to_datetime
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session

PACKAGE = model.PACKAGE
ID = f"{PACKAGE}:id/"
DEFAULT_CENTER = (47.15, 9.54)  # the pre-loaded map's middle
DP_PER_DEGREE = 4000  # north-south; east-west shrinks by cos(latitude)
LAND = (236, 232, 222)
ROUTE = (33, 150, 243)
Point = dict[str, Any]  # {"name", "lat", "lon", "type"}


# --- places ---------------------------------------------------------------------------------------
def _places() -> list[Point]:
    """Every named place of the map: the pre-loaded places, then the landmarks."""
    found = [{"name": model.short_name(name), "lat": lat, "lon": lon,
              "type": f"{model.PLACE_TYPES[model.short_name(name)]}, Liechtenstein"}
             for name, (lat, lon) in model.PLACES.items()]
    return found + [{"name": name, "lat": lat, "lon": lon, "type": f"{kind}, Liechtenstein"}
                    for name, (lat, lon, kind) in model.LANDMARKS.items()]


def fold(text: str) -> str:
    """Case and accents ignored, as OsmAnd's search matches ("schonberg" finds "Schönberg")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def search_results(query: str) -> list[Point]:
    """What the search lists for `query`: a "lat, lon" pair as a location, then the places whose
    name contains the query (case, accents and ", Liechtenstein" ignored), those starting with it
    first."""
    text = query.strip()
    if not text:
        return []
    found: list[Point] = []
    coords = model.parse_coords(text)
    if coords is not None and abs(coords[0]) <= 90 and abs(coords[1]) <= 180:
        found.append({"name": model.format_coords(*coords), "lat": coords[0], "lon": coords[1], "type": "Location"})
    words = fold(text).removesuffix(", liechtenstein").removesuffix(" liechtenstein").strip()
    if words and coords is None:
        named = [p for p in _places() if words in fold(p["name"])]
        found += sorted(named, key=lambda p: (not fold(p["name"]).startswith(words), p["name"]))
    return found


# --- the map surface ------------------------------------------------------------------------------
def _center(ui: Session, frame: Frame) -> tuple[float, float]:
    """The map's centre: where it was panned or moved to, else the frame's point, else the map's middle."""
    point = frame.args.get("point")
    default = [point["lat"], point["lon"]] if point else list(DEFAULT_CENTER)
    lat, lon = json.loads(ui.draft(frame, "center", json.dumps(default)))
    return float(lat), float(lon)


def _set_center(ui: Session, frame: Frame, lat: float, lon: float) -> None:
    ui.set_draft(frame, "center", json.dumps([lat, lon]))


def _scale(ui: Session, lat: float) -> tuple[float, float]:
    """Pixels per degree of latitude and of longitude."""
    per_lat = ui.m.dp(DP_PER_DEGREE)
    return per_lat, per_lat * math.cos(math.radians(lat))


def _to_screen(ui: Session, box: Box, center: tuple[float, float], lat: float, lon: float) -> tuple[int, int]:
    per_lat, per_lon = _scale(ui, center[0])
    x1, y1, x2, y2 = box
    return round((x1 + x2) / 2 + (lon - center[1]) * per_lon), round((y1 + y2) / 2 - (lat - center[0]) * per_lat)


def _map(ui: Session, frame: Frame, box: Box, *, on_place: bool = True, route: list[list[float]] | None = None,
         pin: Point | None = None, crosshair: bool = False) -> list[Node]:
    """The map in `box` centred on the frame's centre: a drag pans it; place names are labels a tap
    opens (when `on_place`); `route` is drawn as a line, `pin` as a marker at its point, and
    `crosshair` marks the centre (where "Add" puts a route point)."""
    m = ui.m
    center = _center(ui, frame)

    def pan(session: Session, dx: int, dy: int) -> None:
        per_lat, per_lon = _scale(session, center[0])
        _set_center(session, frame, center[0] + dy / per_lat, center[1] - dx / per_lon)

    ink = []
    if crosshair:
        cx, cy = _to_screen(ui, box, center, *center)
        ink += [(((cx - m.dp(12), cy), (cx + m.dp(12), cy)), (0, 0, 0), m.dp(2)),
                (((cx, cy - m.dp(12)), (cx, cy + m.dp(12))), (0, 0, 0), m.dp(2))]
    if route:
        line = tuple(_to_screen(ui, box, center, lat, lon) for lat, lon in route)
        ink.append((line if len(line) > 1 else line * 2, ROUTE, m.dp(4)))
    if pin is not None:
        px, py = _to_screen(ui, box, center, pin["lat"], pin["lon"])
        ink.append((((px, py - m.dp(28)), (px, py)), (229, 57, 53), m.dp(8)))
    surface = Node("android.view.View", resource_id=f"{ID}map_view", content_desc="Map", bounds=box,
                   background=LAND, swipe=pan, ink=tuple(ink))
    labels = []
    x1, y1, x2, y2 = box
    for place in _places():
        x, y = _to_screen(ui, box, center, place["lat"], place["lon"])
        half = m.dp(5 * len(place["name"]) + 8)
        label = (x - half, y - m.dp(14), x + half, y + m.dp(14))
        if label[0] >= x1 and label[2] <= x2 and label[1] >= y1 and label[3] <= y2:
            act = (lambda s, p=place: open_point(s, p)) if on_place else None
            labels.append(widgets.text(ui, label, place["name"], size_dp=13, action=act))
    return [surface, *labels]


def open_point(ui: Session, point: Point) -> None:
    """Show a point's context menu (on the map, centred on it)."""
    ui.push("context", point=dict(point))


# --- data -----------------------------------------------------------------------------------------
def favorites(ui: Session) -> list[model.Favorite]:
    found = []
    for name, is_dir, _ in appdata.listing(ui, model.FAVORITES_DIR):
        if is_dir or not name.endswith(".gpx"):
            continue
        if name == "favorites.gpx":
            group = ""
        elif name.startswith("favorites-"):
            group = name[len("favorites-"):-len(".gpx")].replace("_%_", "/")
        else:
            continue
        found += model.parse_favorites(appdata.read_text(ui, f"{model.FAVORITES_DIR}/{name}"), group)
    return found


def _save_favorite(ui: Session, favorite: model.Favorite) -> None:
    group = [f for f in favorites(ui) if f.group == favorite.group] + [favorite]
    appdata.write_text(ui, model.favorites_path(favorite.group), model.favorites_gpx(favorite.group, group))


def markers(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, model.MARKERS_DB, f"SELECT * FROM {model.MARKERS_TABLE} WHERE marker_active = 1 "
                                              "ORDER BY marker_added, marker_id")


def _add_marker(ui: Session, point: Point) -> None:
    now = appdata.now_ms(ui)
    active = markers(ui)
    marker_id = f"{now}{100 + len(active) % 900}"
    appdata.write(ui, model.MARKERS_DB, f"UPDATE {model.MARKERS_TABLE} SET marker_next_key = ? "
                                        "WHERE marker_next_key = ? AND marker_active = 1", [marker_id, model.TAIL_NEXT])
    appdata.insert(ui, model.MARKERS_DB, model.MARKERS_TABLE,
                   model.marker_row(marker_id, point["lat"], point["lon"], point["name"], now,
                                    color=len(active) % model.MARKER_COLORS))


# --- screens --------------------------------------------------------------------------------------
def _map_buttons(ui: Session, top: int, search: Any) -> list[Node]:
    m = ui.m
    size = m.dp(48)
    right = m.width - m.dp(12)
    return [widgets.icon_button(ui, (right - size, top + m.dp(12), right, top + m.dp(12) + size), "Search", search,
                                f"{ID}map_search_button")]


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    box = (0, m.status_bar, m.width, m.content_bottom)
    nodes = _map(ui, frame, box)
    nodes += _map_buttons(ui, m.status_bar, lambda s: s.push("search", focus="query"))
    size = m.dp(56)
    nodes.append(widgets.icon_button(ui, (m.dp(12), m.content_bottom - m.dp(12) - size, m.dp(12) + size,
                                          m.content_bottom - m.dp(12)), "Menu", lambda s: s.push("menu"),
                                     f"{ID}map_menu_button"))
    return nodes


def _action(ui: Session, box: Box, label: str, rid: str, act: Any) -> Node:
    """One button of the context menu's action row: a view with its label under an icon."""
    x1, y1, x2, y2 = box
    caption = Node(widgets.TEXT_VIEW, text=label, resource_id=f"{ID}{rid}_text_view", text_size=ui.m.dp(13),
                   bounds=(x1, y2 - ui.m.dp(28), x2, y2 - ui.m.dp(8)))
    return Node("android.widget.LinearLayout", resource_id=f"{ID}{rid}_view", bounds=box, clickable=act is not None,
                focusable=True, action=act, children=[caption])


def _context(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    point: Point = dict(frame.args.get("point") or {})
    panel_top = m.content_bottom - m.dp(232)
    nodes = _map(ui, frame, (0, m.status_bar, m.width, panel_top), on_place=False, pin=point)
    left, right = m.dp(16), m.width - m.dp(16)
    y = panel_top + m.dp(12)
    children = [widgets.text(ui, (left, y, right, y + m.dp(32)), point["name"], f"{ID}context_menu_line1", size_dp=20),
                widgets.text(ui, (left, y + m.dp(36), right, y + m.dp(60)), point["type"], f"{ID}context_menu_line2",
                             size_dp=14),
                widgets.text(ui, (left, y + m.dp(64), right, y + m.dp(88)), model.format_coords(point["lat"], point["lon"]),
                             f"{ID}context_menu_line3", size_dp=14)]
    row_top, row_bottom = y + m.dp(96), y + m.dp(168)
    width = (m.width - m.dp(16)) // 4

    def favorite(s: Session) -> None:
        s.push("favorite", point=point, drafts={"name": point["name"]})

    def marker(s: Session) -> None:
        _add_marker(s, point)
        s.finish()

    actions = [("Add", "context_menu_fav", favorite), ("Marker", "context_menu_route", marker),
               ("Share", "context_menu_share", None),
               ("Actions", "context_menu_more", lambda s: s.push("actions", point=point))]
    for index, (label, rid, act) in enumerate(actions):
        x = m.dp(8) + index * width
        children.append(_action(ui, (x, row_top, x + width, row_bottom), label, rid, act))
    children.append(widgets.button(ui, (m.width // 2, row_bottom + m.dp(8), right, row_bottom + m.dp(48)), "Directions",
                                   None, f"{ID}context_menu_directions_button", class_name=widgets.TEXT_VIEW))
    nodes.append(Node("android.widget.LinearLayout", resource_id=f"{ID}context_menu_main",
                      bounds=(0, panel_top, m.width, m.content_bottom), background=(255, 255, 255), children=children))
    return nodes


def _search(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    top = m.status_bar
    nodes = [widgets.icon_button(ui, (0, top, m.dp(56), top + m.dp(56)), "Navigate up", Session.finish),
             widgets.edit_text(ui, frame, "query", (m.dp(56), top, m.width - m.dp(8), top + m.dp(56)), "Search",
                               f"{ID}searchEditText")]
    top += m.dp(56)

    def pick(point: Point):
        def act(s: Session) -> None:
            target = frame.args.get("plan")
            if target is None:
                s.replace("context", point=point)
                return
            s.finish()
            plan = next((f for f in s.frames(PACKAGE) if f.id == int(target)), None)
            if plan is not None:
                _set_center(s, plan, point["lat"], point["lon"])
        return act

    rows = [widgets.Row(m.dp(72), lambda b, p=p: widgets.list_item(
        ui, b, p["name"], p["type"], action=pick(p), title_rid=f"{ID}title", subtitle_rid=f"{ID}type_name"))
        for p in search_results(ui.draft(frame, "query"))]
    if rows:
        nodes.append(widgets.scroll_list(ui, frame, "results", (0, top, m.width, m.content_bottom), rows,
                                         rid=f"{ID}list"))
    elif ui.draft(frame, "query").strip():
        nodes.append(widgets.text(ui, (m.dp(16), top + m.dp(24), m.width - m.dp(16), top + m.dp(72)),
                                  "Nothing found", f"{ID}no_search_results_description"))
    return nodes


def _sheet(ui: Session, items: list[tuple[str, Any]], rid: str) -> list[Node]:
    """A list of text rows over the bottom of the screen (a bottom sheet or the main menu)."""
    m = ui.m
    top = m.content_bottom - m.dp(56) * len(items) - m.dp(16)
    rows = [widgets.text(ui, (0, top + m.dp(8) + i * m.dp(56), m.width, top + m.dp(8) + (i + 1) * m.dp(56)), label,
                         f"{ID}title", size_dp=16, action=act) for i, (label, act) in enumerate(items)]
    return [Node("android.widget.LinearLayout", resource_id=rid, bounds=(0, top, m.width, m.content_bottom),
                 background=(255, 255, 255), children=rows)]


def _actions(ui: Session, frame: Frame) -> list[Node]:
    point: Point = dict(frame.args.get("point") or {})

    def plan(s: Session) -> None:
        s.finish()  # the sheet
        s.finish()  # the context menu
        start_plan(s, [[point["lat"], point["lon"]]], (point["lat"], point["lon"]))

    return _sheet(ui, [("Plan a route", plan)], f"{ID}actions_sheet")


def start_plan(ui: Session, points: list[list[float]], center: tuple[float, float] | None = None) -> None:
    """Open "Plan a route" with `points`, its map centred on `center` (else the main map's)."""
    below = ui.top()[2]
    lat, lon = center or (_center(ui, below) if below is not None else DEFAULT_CENTER)
    ui.push("plan", drafts={"points": json.dumps(points), "center": json.dumps([lat, lon])})


def _menu(ui: Session, frame: Frame) -> list[Node]:
    def plan(s: Session) -> None:
        s.finish()
        start_plan(s, [])
    return _sheet(ui, [("My places", lambda s: s.replace("places")), ("Map markers", lambda s: s.replace("markers")),
                       ("Plan a route", plan)], f"{ID}drawer_list")


def _points(ui: Session, frame: Frame) -> list[list[float]]:
    return json.loads(ui.draft(frame, "points", "[]"))


def _plan(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    points = _points(ui, frame)
    save = widgets.button(ui, (0, 0, m.dp(88), 0), "Save", _open_save(frame) if points else None, f"{ID}save_button")
    nodes, top = widgets.app_bar(ui, "Plan a route", actions=(save,))
    panel_top = m.content_bottom - m.dp(120)
    box = (0, top, m.width, panel_top)
    nodes += _map(ui, frame, box, on_place=False, route=points, crosshair=True)
    nodes += _map_buttons(ui, top, lambda s: s.push("search", focus="query", plan=frame.id))
    total = sum(model.distance_m(tuple(a), tuple(b)) for a, b in zip(points, points[1:]))

    def add(s: Session) -> None:
        lat, lon = _center(s, frame)
        s.set_draft(frame, "points", json.dumps(_points(s, frame) + [[lat, lon]]))

    def undo(s: Session) -> None:
        s.set_draft(frame, "points", json.dumps(_points(s, frame)[:-1]))

    y = panel_top + m.dp(8)
    children = [widgets.text(ui, (m.dp(56), y, m.dp(200), y + m.dp(40)), f"{total / 1000:.2f} km,",
                             f"{ID}measurement_distance_text_view", size_dp=16),
                widgets.text(ui, (m.dp(200), y, m.width - m.dp(16), y + m.dp(40)), f"points: {len(points)}",
                             f"{ID}measurement_points_text_view", size_dp=16),
                widgets.icon_button(ui, (m.dp(16), y + m.dp(52), m.dp(64), y + m.dp(100)), "Undo",
                                    undo if points else None, f"{ID}previous_dot_icon"),
                widgets.button(ui, (m.width - m.dp(120), y + m.dp(52), m.width - m.dp(16), y + m.dp(100)), "Add", add,
                               f"{ID}add_point_button")]
    nodes.append(Node("android.widget.LinearLayout", resource_id=f"{ID}main_view",
                      bounds=(0, panel_top, m.width, m.content_bottom), background=(255, 255, 255), children=children))
    return nodes


def suggested_track_name(ui: Session) -> str:
    """"2023-10-15_15-34_Sun": the date-and-time name the app gives a new track."""
    return to_datetime(ui.state.clock_epoch).strftime("%Y-%m-%d_%H-%M_%a")


def _invalid(name: str) -> bool:
    return not name.strip() or any(ch in name for ch in '/\\:*?"<>|')


def _open_save(plan: Frame):
    def act(ui: Session) -> None:
        ui.push("save", focus="name", plan=plan.id, drafts={"name": suggested_track_name(ui)})
    return act


def _save_dialog(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m

    def save(s: Session) -> None:
        name = s.draft(frame, "name").strip()
        plan = next((f for f in s.frames(PACKAGE) if f.id == int(frame.args["plan"])), None)
        if _invalid(name) or plan is None:
            return
        points = [tuple(p) for p in _points(s, plan)]
        appdata.write_text(s, f"{model.TRACKS_DIR}/{name}.gpx", model.track_gpx(name, points, int(s.state.clock_epoch)))
        s.finish()  # the dialog
        s.finish()  # Plan a route

    def body(box: Box) -> list[Node]:
        x1, y, x2, _ = box
        return [widgets.edit_text(ui, frame, "name", (x1, y, x2, y + m.dp(56)), "File name", f"{ID}file_name_edit")]

    return widgets.dialog(ui, "Save as new track", body=body, body_dp=72, positive=("Save", save))


def _favorite(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    point: Point = dict(frame.args.get("point") or {})
    nodes, top = widgets.app_bar(ui, "Add favorite", rid=f"{ID}toolbar")
    fields, y = widgets.form(ui, frame, (widgets.Field("name", "Name", f"{ID}name_edit"),
                                         widgets.Field("description", "Description", f"{ID}description_edit")), top)
    nodes += fields
    chosen = ui.draft(frame, "group", "")
    groups = [""] + sorted({f.group for f in favorites(ui) if f.group})
    chips, x = [], m.dp(16)
    for group in groups:
        label = group or model.DEFAULT_GROUP_LABEL
        width = m.dp(24 + 9 * len(label))
        chips.append(Node(widgets.TEXT_VIEW, text=label, bounds=(x, y + m.dp(32), x + width, y + m.dp(72)),
                          clickable=True, focusable=True, selected=group == chosen, text_size=m.dp(14),
                          background=widgets.ACCENT if group == chosen else (230, 230, 230),
                          action=lambda s, g=group: s.set_draft(frame, "group", g)))
        x += width + m.dp(8)
    nodes.append(widgets.text(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(28)), "Select group", size_dp=14))
    nodes.append(Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}group_recycler_view",
                      bounds=(0, y + m.dp(28), m.width, y + m.dp(76)), children=chips))

    def save(s: Session) -> None:
        name = s.draft(frame, "name").strip()
        if not name:
            return  # the app refuses an empty name
        _save_favorite(s, model.Favorite(name, float(point["lat"]), float(point["lon"]), s.draft(frame, "group", ""),
                                         s.draft(frame, "description").strip(), int(s.state.clock_epoch)))
        s.finish()

    bottom = m.content_bottom
    half = m.width // 2
    nodes += [widgets.button(ui, (m.dp(16), bottom - m.dp(64), half - m.dp(8), bottom - m.dp(16)), "Cancel",
                             Session.finish, f"{ID}dismiss_button"),
              widgets.button(ui, (half + m.dp(8), bottom - m.dp(64), m.width - m.dp(16), bottom - m.dp(16)), "Save",
                             save, f"{ID}right_bottom_button")]
    return nodes


def _places_list(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "My places")
    rows = [widgets.Row(m.dp(72), lambda b, f=f: widgets.list_item(
        ui, b, f.name, f.group or model.DEFAULT_GROUP_LABEL, title_rid=f"{ID}favourite_label",
        subtitle_rid=f"{ID}group_name",
        action=lambda s, f=f: s.push("context", point={"name": f.name, "lat": f.lat, "lon": f.lon, "type": "Favorite"})))
        for f in favorites(ui)]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}favourites_list", "No favorites"))
    return nodes


def _markers_list(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, "Map markers")
    rows = [widgets.Row(m.dp(72), lambda b, r=r: widgets.list_item(
        ui, b, model.marker_name(r) or model.format_coords(r["marker_lat"], r["marker_lon"]),
        model.format_coords(r["marker_lat"], r["marker_lon"]), title_rid=f"{ID}name_text_view",
        subtitle_rid=f"{ID}description_text_view")) for r in markers(ui)]
    nodes.append(widgets.list_or_empty(ui, frame, top, rows, f"{ID}list", "No active markers"))
    return nodes


APP = register(AppScreens(
    PACKAGE,
    {"map": Screen(_main), "context": Screen(_context), "search": Screen(_search), "actions": Screen(_actions),
     "menu": Screen(_menu), "plan": Screen(_plan), "save": Screen(_save_dialog), "favorite": Screen(_favorite),
     "places": Screen(_places_list), "markers": Screen(_markers_list)},
    first="map"))
