"""OsmAnd (`net.osmand`, AndroidWorld pins 4.6.13): offline maps; favourites, map markers and tracks.

Where the app keeps what AndroidWorld's OsmAnd tasks read (reference android-apps.md §4.13):

* **Favourites** are GPX 1.1 files in `Android/data/net.osmand/files/favorites/`, one file per
  group: the default group (name "") in `favorites.gpx`, a group "G" in `favorites-G.gpx`
  (OsmAnd `FavouritesFileHelper.getExternalFile`: prefix "favorites", separator "-"). Each point
  is a `<wpt lat lon>` with `<time>`, `<name>`, optional `<desc>` and OsmAnd's extensions (icon,
  background, colour); the file's `<osmand:points_groups>` names its group. A legacy copy is
  `/data/data/net.osmand/files/favourites_bak.gpx`, backups are zipped in `files/backup/`.
* **Map markers** are rows of `map_markers` in `/data/data/net.osmand/databases/map_markers_db`
  (`MapMarkersDbHelper`, DB_VERSION 13): `marker_id` TEXT key (the creation time in ms followed
  by three random digits), `marker_lat`/`marker_lon`, `marker_description` (a serialized
  `PointDescription`, "type#name"), `marker_active` (1 active, 0 moved to history),
  `marker_added` (ms), `marker_visited` (ms), `group_name`/`group_key` (NULL for a single
  marker), `marker_color` (index), `marker_next_key` (the id of the next active marker,
  "tail_next" for the last, "history_next" in history), `marker_disabled`, `marker_selected`,
  `marker_map_object_name`. AndroidWorld's row type also names a `title` column that the app's
  DDL does not create; taskkit follows the app.
* **Tracks** are GPX files under `Android/data/net.osmand/files/tracks/` (`trk`/`trkseg`/`trkpt`);
  "Plan a route" saves there.

The map is AndroidWorld's pre-loaded Liechtenstein map: `PLACES` are the twelve place names and
coordinates AndroidWorld's tasks draw from; `LANDMARKS` are further real places of the country
(approximate coordinates) that taskkit uses for noise favourites, markers and search results.
"""
from __future__ import annotations

import dataclasses
import math
import posixpath
import re
import types
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence
from xml.etree import ElementTree

from taskkit.apps.base import App
from taskkit.apps.common import DEVICE_EPOCH
from taskkit.apps.table import Database
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "net.osmand"
VERSION = "OsmAnd~ 4.6.13"  # the GPX `creator` the pinned APK writes (Version.getFullVersion)

EXTERNAL_DIR = "/storage/emulated/0/Android/data/net.osmand"
FILES_DIR = f"{EXTERNAL_DIR}/files"
FAVORITES_DIR = f"{FILES_DIR}/favorites"
FAVORITES_PATH = f"{FAVORITES_DIR}/favorites.gpx"
TRACKS_DIR = f"{FILES_DIR}/tracks"
PRIVATE_FILES = f"/data/data/{PACKAGE}/files"
LEGACY_FAVORITES_PATH = f"{PRIVATE_FILES}/favourites_bak.gpx"
BACKUP_DIR = f"{PRIVATE_FILES}/backup"
DB_DIR = f"/data/data/{PACKAGE}/databases"
MARKERS_DB = f"{DB_DIR}/map_markers_db"
MARKERS_TABLE = "map_markers"
MARKERS_KEY = "marker_id"
TAIL_NEXT, HISTORY_NEXT = "tail_next", "history_next"

GPX_NS = "http://www.topografix.com/GPX/1/1"
OSMAND_NS = "https://osmand.net"
TOLERANCE_DEG = 0.001  # AndroidWorld's delta: a Chebyshev distance in degrees (about 50-100 m)
DEFAULT_COLOR = "#eecc22"  # the default favourite colour
DEFAULT_GROUP_LABEL = "Favorites"  # how the app names the group whose name is ""

# AndroidWorld's places of the pre-loaded Liechtenstein map (osmand.py _PRELOADED_MAP_LOCATIONS).
PLACES: dict[str, tuple[float, float]] = {
    "Balzers, Liechtenstein": (47.0688832, 9.5061564),
    "Bendern, Liechtenstein": (47.2122151, 9.5062101),
    "Malbun, Liechtenstein": (47.1026191, 9.6083057),
    "Nendeln, Liechtenstein": (47.1973857, 9.5430636),
    "Oberplanken, Liechtenstein": (47.1784977, 9.5450163),
    "Planken, Liechtenstein": (47.1858882, 9.5452201),
    "Rotenboden, Liechtenstein": (47.1275785, 9.5387131),
    "Ruggell, Liechtenstein": (47.23976, 9.5262837),
    "Schaan, Liechtenstein": (47.1663432, 9.5103085),
    "Schaanwald, Liechtenstein": (47.2165476, 9.5699984),
    "Schönberg, Liechtenstein": (47.1303814, 9.5930117),
    "Triesen, Liechtenstein": (47.106997, 9.5274854),
}
# Other real places of the country (approximate), for noise and search: name -> (lat, lon, type).
LANDMARKS: dict[str, tuple[float, float, str]] = {
    "Vaduz Castle": (47.1396, 9.5243, "Castle"),
    "Kunstmuseum Liechtenstein": (47.1390, 9.5215, "Museum"),
    "Rheinpark Stadion": (47.1412, 9.5113, "Stadium"),
    "Gutenberg Castle": (47.0647, 9.4991, "Castle"),
    "Steg": (47.1147, 9.5708, "Village"),
    "Gaflei": (47.1430, 9.5440, "Hamlet"),
    "Eschen": (47.2105, 9.5225, "Village"),
    "Mauren": (47.2190, 9.5430, "Village"),
    "Triesenberg": (47.1180, 9.5420, "Village"),
    "Gamprin": (47.2200, 9.5080, "Village"),
    "Sücka": (47.1210, 9.5700, "Alpine hut"),
}
# The place type OsmAnd's search shows under each of PLACES (OSM `place=*`).
PLACE_TYPES: dict[str, str] = {
    "Balzers": "Village", "Bendern": "Village", "Malbun": "Village", "Nendeln": "Village",
    "Oberplanken": "Hamlet", "Planken": "Village", "Rotenboden": "Hamlet", "Ruggell": "Village",
    "Schaan": "Town", "Schaanwald": "Village", "Schönberg": "Locality", "Triesen": "Village",
}
FAVORITE_GROUPS = ("Sights", "Food", "Hiking")  # groups noise favourites are filed under

Coords = tuple[float, float]


# --- locations -----------------------------------------------------------------------------------
_NUMBER = re.compile(r"-?\d*\.?\d+")


def parse_coords(text: str) -> Coords | None:
    """(lat, lon) when `text` holds exactly two numbers ("47.1, 9.5"), else None."""
    numbers = _NUMBER.findall(text)
    return (float(numbers[0]), float(numbers[1])) if len(numbers) == 2 else None


def location_coords(location: str) -> Coords | None:
    """The coordinates a goal's location names: "lat, lon" or one of `PLACES`."""
    return parse_coords(location) or PLACES.get(location)


def short_name(location: str) -> str:
    """"Balzers" for "Balzers, Liechtenstein" (a coordinate string stays as it is)."""
    return location[: -len(", Liechtenstein")] if location.endswith(", Liechtenstein") else location


def coords_match(a: Coords, b: Coords, tolerance: float = TOLERANCE_DEG) -> bool:
    """Both coordinates within `tolerance` degrees (AndroidWorld's Chebyshev test)."""
    return abs(a[0] - b[0]) < tolerance and abs(a[1] - b[1]) < tolerance


def format_coords(lat: float, lon: float) -> str:
    """"47.06888, 9.50616": OsmAnd's default coordinate format (degrees, five decimals)."""
    return f"{lat:.5f}, {lon:.5f}"


def gpx_time(epoch_s: int) -> str:
    return datetime.fromtimestamp(epoch_s, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- favourites ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Favorite:
    """One favourite point; `group` "" is the default group ("Favorites")."""

    name: str
    lat: float
    lon: float
    group: str = ""
    description: str = ""
    time: int = DEVICE_EPOCH
    color: str = DEFAULT_COLOR

    @property
    def coords(self) -> Coords:
        return (self.lat, self.lon)


def favorites_path(group: str) -> str:
    """The file of a group (FavouritesFileHelper: "/" becomes "_%_" in the name)."""
    if not group:
        return FAVORITES_PATH
    return f"{FAVORITES_DIR}/favorites-{group.replace('/', '_%_')}.gpx"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _saxutils() -> types.ModuleType:
    """xml.sax.saxutils, imported on first use: it loads urllib.request, http and ssl (about 30 ms
    of every process's start otherwise)."""
    from xml.sax import saxutils

    return saxutils


def _text(value: str) -> str:
    """Element text escaped so it parses back as written (a bare CR would read as LF); the
    control characters XML 1.0 cannot carry at all are left out."""
    return _saxutils().escape(_NOT_XML.sub("", value), {"\r": "&#13;"})


def _gpx_header() -> str:
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
            f'<gpx version="1.1" creator={_saxutils().quoteattr(VERSION)} xmlns="{GPX_NS}" xmlns:osmand="{OSMAND_NS}" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n')


def favorites_gpx(group: str, favorites: Sequence[Favorite]) -> str:
    """The file OsmAnd writes for one favourites group (GPX 1.1 with OsmAnd's extensions)."""
    parts = [_gpx_header(), "  <metadata>\n    <name>favorites</name>\n  </metadata>\n"]
    for f in favorites:
        parts.append(f'  <wpt lat="{f.lat:.7f}" lon="{f.lon:.7f}">\n    <time>{gpx_time(f.time)}</time>\n'
                     f"    <name>{_text(f.name)}</name>\n")
        if f.description:
            parts.append(f"    <desc>{_text(f.description)}</desc>\n")
        if f.group:
            parts.append(f"    <type>{_text(f.group)}</type>\n")
        parts.append("    <extensions>\n      <osmand:icon>special_star</osmand:icon>\n"
                     "      <osmand:background>circle</osmand:background>\n"
                     f"      <osmand:color>{f.color}</osmand:color>\n    </extensions>\n  </wpt>\n")
    parts.append("  <extensions>\n    <osmand:points_groups>\n"
                 f'      <group name={_saxutils().quoteattr(group)} color="{DEFAULT_COLOR}" icon="special_star" '
                 'background="circle" />\n    </osmand:points_groups>\n  </extensions>\n</gpx>\n')
    return "".join(parts)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    """Children called `name` in the GPX 1.1 namespace."""
    return [child for child in element if child.tag == f"{{{GPX_NS}}}{name}"]


def parse_favorites(text: str, group: str = "") -> list[Favorite]:
    """The `<wpt>` points of a GPX text (none if it is not GPX 1.1 XML)."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return []
    found = []
    for wpt in _children(root, "wpt"):
        try:
            lat, lon = float(wpt.attrib["lat"]), float(wpt.attrib["lon"])
        except (KeyError, ValueError):
            continue
        name = next((e.text or "" for e in _children(wpt, "name")), "")
        desc = next((e.text or "" for e in _children(wpt, "desc")), "")
        stamp = next((e.text or "" for e in _children(wpt, "time")), "")
        try:
            when = int(datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())
        except ValueError:
            when = DEVICE_EPOCH
        found.append(Favorite(name, lat, lon, group, desc, when))
    return found


def favorite_files(device: Device) -> dict[str, str]:
    """Group name -> path of each favourites file the app loads (FavouritesFileHelper.getFavoritesFiles)."""
    if not device.files.is_dir(FAVORITES_DIR):
        return {}
    files = {}
    for name in device.files.listdir(FAVORITES_DIR):
        if name == "favorites.gpx":
            files[""] = f"{FAVORITES_DIR}/{name}"
        elif name.startswith("favorites-") and name.endswith(".gpx"):
            files[name[len("favorites-"):-len(".gpx")].replace("_%_", "/")] = f"{FAVORITES_DIR}/{name}"
    return files


def read_favorites(device: Device, group: str | None = None) -> list[Favorite]:
    """Every favourite (or those of `group`), groups in file-name order."""
    found = []
    for name, path in sorted(favorite_files(device).items()):
        if group is None or name == group:
            found += parse_favorites(device.files.read_text(path), name)
    return found


def write_group(device: Device, group: str, favorites: Sequence[Favorite]) -> None:
    """Write one group's file with exactly `favorites`."""
    device.files.write_text(favorites_path(group), favorites_gpx(group, favorites))


def add_favorite(device: Device, favorite: Favorite) -> None:
    """Append `favorite` to its group's file, as saving the favourite editor does."""
    write_group(device, favorite.group, read_favorites(device, favorite.group) + [favorite])


# --- map markers ---------------------------------------------------------------------------------
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE map_markers (
    marker_id TEXT PRIMARY KEY,
    marker_lat double,
    marker_lon double,
    marker_description TEXT,
    marker_active int,
    marker_added long,
    marker_visited long,
    group_name TEXT,
    group_key TEXT,
    marker_color int,
    marker_next_key TEXT,
    marker_disabled int,
    marker_selected int,
    marker_map_object_name TEXT
);
PRAGMA user_version = 13;
"""
DATABASE = Database(MARKERS_DB, DDL)
#: The `map_markers` table (key `marker_id`) of `/data/data/net.osmand/databases/map_markers_db`.
MARKERS = DATABASE.table(MARKERS_TABLE, MARKERS_KEY)
MARKER_COLORS = 7  # MapMarker colour indexes 0..6


def marker_description(name: str) -> str:
    """PointDescription.serializeToString of a marker's point: "map_marker#<name>"."""
    return f"map_marker#{name}"


def marker_row(marker_id: str, lat: float, lon: float, name: str, added_ms: int, *, active: bool = True,
               color: int = 0, next_key: str = TAIL_NEXT, visited_ms: int = 0) -> dict[str, Any]:
    """A `map_markers` row as MapMarkersDbHelper.insertLast writes it."""
    return {"marker_id": marker_id, "marker_lat": lat, "marker_lon": lon,
            "marker_description": marker_description(name), "marker_active": 1 if active else 0,
            "marker_added": added_ms, "marker_visited": visited_ms, "group_name": None, "group_key": None,
            "marker_color": color, "marker_next_key": next_key if active else HISTORY_NEXT,
            "marker_disabled": 0, "marker_selected": 0, "marker_map_object_name": None}


def marker_name(row: dict[str, Any]) -> str:
    """The name part of a marker's description ("Balzers" for "map_marker#Balzers")."""
    description = str(row.get("marker_description") or "")
    return description.split("#", 2)[1] if "#" in description else description


def add_marker(device: Device, lat: float, lon: float, name: str, added_ms: int, suffix: int = 100) -> str:
    """Insert an active marker at the tail of the list (the previous tail now points to it); its id."""
    marker_id = f"{added_ms}{suffix % 900 + 100}"
    MARKERS.update(device, {"marker_next_key": TAIL_NEXT, "marker_active": 1}, {"marker_next_key": marker_id})
    count = len(MARKERS.rows(device, {"marker_active": 1}))
    MARKERS.insert(device, [marker_row(marker_id, lat, lon, name, added_ms, color=count % MARKER_COLORS)])
    return marker_id


def active_markers(device: Device) -> list[dict[str, Any]]:
    return MARKERS.rows(device, {"marker_active": 1})


# --- tracks --------------------------------------------------------------------------------------
def track_gpx(name: str, points: Sequence[Coords], epoch_s: int = DEVICE_EPOCH) -> str:
    """A track as "Plan a route" saves it: one `trk` with one `trkseg` of the route's points."""
    parts = [_gpx_header(), f"  <metadata>\n    <name>{_text(name)}</name>\n    <time>{gpx_time(epoch_s)}</time>\n"
             "  </metadata>\n", f"  <trk>\n    <name>{_text(name)}</name>\n    <trkseg>\n"]
    parts += [f'      <trkpt lat="{lat:.7f}" lon="{lon:.7f}" />\n' for lat, lon in points]
    parts.append("    </trkseg>\n  </trk>\n</gpx>\n")
    return "".join(parts)


def track_points(text: str) -> list[Coords] | None:
    """The `trkpt` coordinates of every `trk`/`trkseg`, in order; None if the text is not GPX XML."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None
    if _local(root.tag) != "gpx":
        return None
    points = []
    for trk in _children(root, "trk"):
        for segment in _children(trk, "trkseg"):
            for point in _children(segment, "trkpt"):
                try:
                    points.append((float(point.attrib["lat"]), float(point.attrib["lon"])))
                except (KeyError, ValueError):
                    continue
    return points


def visits_in_order(points: Iterable[Coords], targets: Sequence[Coords], tolerance: float = TOLERANCE_DEG) -> bool:
    """Each target is matched by a point, in order, with any points between (AndroidWorld's test)."""
    if not targets:
        return False
    at = 0
    for point in points:
        if coords_match(point, targets[at], tolerance):
            at += 1
            if at == len(targets):
                return True
    return False


def track_files(device: Device) -> list[str]:
    """The `.gpx` files under the tracks folder (its subfolders included), sorted."""
    if not device.files.is_dir(TRACKS_DIR):
        return []
    return [p for p in device.files.find(TRACKS_DIR, type="f") if p.lower().endswith(".gpx")]


_ILLEGAL_FILE_CHARS = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def track_file_name(name: str) -> str:
    """The file name (without ".gpx") a track called `name` gets: characters a file name cannot
    hold become "_", and it is cut to 120 characters (a file name's 255 bytes in UTF-8)."""
    return _ILLEGAL_FILE_CHARS.sub("_", name).strip()[:120] or "track"


def save_track(device: Device, name: str, points: Sequence[Coords], folder: str = TRACKS_DIR) -> str:
    """Write a track GPX named `name` into `folder` (its file name made safe); its path."""
    path = posixpath.join(folder, f"{track_file_name(name)}.gpx")
    device.files.write_text(path, track_gpx(name, points))
    return path


def straight_route(points: Sequence[Coords], steps: int = 4) -> list[Coords]:
    """`points` joined by straight lines with `steps - 1` points between each pair (a drawn route)."""
    out: list[Coords] = []
    for (a_lat, a_lon), (b_lat, b_lon) in zip(points, points[1:]):
        out += [(a_lat + (b_lat - a_lat) * i / steps, a_lon + (b_lon - a_lon) * i / steps) for i in range(steps)]
    return out + list(points[-1:])


def distance_m(a: Coords, b: Coords) -> float:
    """The great-circle distance in metres (haversine, OsmAnd's MapUtils earth radius)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371000 * math.asin(math.sqrt(h))


# --- noise ---------------------------------------------------------------------------------------
def _far_from(coords: Coords, avoid: Sequence[Coords], margin: float = 0.005) -> bool:
    return all(not coords_match(coords, other, margin) for other in avoid)


def noise_favorites(rng: TaskRng, n: int, avoid: Sequence[Coords] = ()) -> list[Favorite]:
    """`n` favourites at distinct landmarks (none near `avoid`), each filed under a named group."""
    names = [name for name, (lat, lon, _) in LANDMARKS.items() if _far_from((lat, lon), avoid)]
    picked = rng.sample(sorted(names), min(n, len(names)))
    return [Favorite(name, LANDMARKS[name][0], LANDMARKS[name][1], rng.choice(FAVORITE_GROUPS),
                     time=DEVICE_EPOCH - rng.randint(2, 60) * 86400 - rng.randint(0, 86399)) for name in picked]


def noise_markers(rng: TaskRng, active: int, history: int, avoid: Sequence[Coords] = ()) -> list[dict[str, Any]]:
    """Marker rows at distinct landmarks (none near `avoid`): `active` linked in order, then `history`."""
    names = [name for name, (lat, lon, _) in LANDMARKS.items() if _far_from((lat, lon), avoid)]
    picked = rng.sample(sorted(names), min(active + history, len(names)))
    added = sorted(DEVICE_EPOCH * 1000 - rng.randint(1, 30 * 86400) * 1000 for _ in picked)
    ids = [f"{ms}{rng.randint(100, 999)}" for ms in added]
    rows = []
    for index, name in enumerate(picked):
        is_active = index < active
        next_key = (ids[index + 1] if index + 1 < active else TAIL_NEXT) if is_active else HISTORY_NEXT
        lat, lon, _ = LANDMARKS[name]
        rows.append(marker_row(ids[index], lat, lon, name, added[index], active=is_active, color=index % MARKER_COLORS,
                               next_key=next_key, visited_ms=0 if is_active else added[index] + 3600_000))
    return rows


# --- the app -------------------------------------------------------------------------------------
def reset(device: Device) -> None:
    """First-run state: no favourites, markers or tracks (the folders themselves stay)."""
    for folder in (FAVORITES_DIR, TRACKS_DIR, BACKUP_DIR):
        device.files.remove(folder, recursive=True)
        device.files.mkdir(folder)
    device.files.remove(LEGACY_FAVORITES_PATH)
    MARKERS.clear(device)


APP = App(name="osmand", package=PACKAGE, data_paths=(EXTERNAL_DIR, PRIVATE_FILES, DB_DIR),
          reset=reset, databases=(DATABASE,), tables=(MARKERS,))
