"""The launcher (Pixel Launcher): a home screen and an app drawer, from the package catalog.

The home screen holds one labelled icon per launchable app (a simplification: a real Pixel puts
a few there and the rest in the drawer) under a search box; a swipe up on it opens the app
drawer, the same apps in alphabetical order in a scrolling grid, which BACK or HOME closes.
Tapping an icon starts the app as the launcher does: its task comes back as it was left, or
the app starts at its launch activity. Icons are TextViews labelled with the app's label, as
the launcher's BubbleTextView reports them.
"""
from __future__ import annotations

import functools
import hashlib

from taskkit.sim import packages
from taskkit.sim.gui import appdata, theme, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session
from taskkit.device.catalog import CATALOG, LAUNCHER, Package

PACKAGE = LAUNCHER.name
_COLUMNS = 4


# B-MoCA's wallpapers (images) drawn as one colour each near the image's own; "00_default" and
# an unset wallpaper keep the theme's background.
WALLPAPERS: dict[str, tuple[int, int, int]] = {
    "01_red": (183, 28, 28), "02_blue": (21, 101, 192), "03_paper": (239, 235, 225), "04_sky": (129, 212, 250),
    "05_doughnut": (244, 143, 177), "07_food": (255, 183, 77), "08_colors": (126, 87, 194),
    "09_rainbow": (255, 112, 67), "10_galaxy": (26, 35, 126), "11_pyramid": (215, 179, 119),
    "12_ocean": (0, 105, 148), "13_canyon": (191, 87, 0),
}
LAUNCHER_DB = f"/data/data/{PACKAGE}/databases/launcher.db"
_DESKTOP, _APPLICATION = -100, 0  # Launcher3 LauncherSettings.Favorites: CONTAINER_DESKTOP, ITEM_TYPE_APPLICATION


# Launcher icons of taskkit's own drawing (no app artwork): a Material glyph per app on a circle
# of the app's primary colour (taskkit.sim.gui.theme) or, for an app without a modelled theme,
# one of these Material 500 colours chosen from the package name.
APP_GLYPHS: dict[str, str] = {
    "com.android.settings": "settings", "com.google.android.contacts": "contacts", "com.google.android.dialer": "phone",
    "com.google.android.deskclock": "alarm", "com.android.camera2": "camera_alt",
    "com.google.android.documentsui": "folder", "com.android.chrome": "language",
    "com.simplemobiletools.smsmessenger": "sms", "com.simplemobiletools.calendar.pro": "event",
    "com.arduia.expense": "attach_money", "com.flauschcode.broccoli": "restaurant_menu",
    "net.gsantner.markor": "description", "org.tasks": "check_circle", "de.dennisguse.opentracks": "directions_run",
    "net.cozic.joplin": "note", "code.name.monkey.retromusic": "music_note", "org.videolan.vlc": "play_circle_outline",
    "net.osmand": "map", "com.dimowner.audiorecorder": "mic", "com.simplemobiletools.gallery.pro": "photo_library",
    "com.simplemobiletools.draw.pro": "brush", "ca.zgrs.clipper": "content_paste",
}
_ICON_COLOURS = ((0x1E, 0x88, 0xE5), (0x43, 0xA0, 0x47), (0xE5, 0x39, 0x35), (0x8E, 0x24, 0xAA), (0x00, 0x89, 0x7B),
                 (0xF4, 0x51, 0x1E), (0x39, 0x49, 0xAB), (0x6D, 0x4C, 0x41))


def icon(label: str) -> tuple[str, tuple[int, int, int]]:
    """The launcher icon of the app labelled `label`: its Material glyph name and circle colour."""
    package = next((p.name for p in CATALOG if p.label == label), label)
    themed = theme.THEMES.get(package)
    colour = themed[0].toolbar or themed[0].primary if themed else \
        _ICON_COLOURS[int(hashlib.sha256(package.encode()).hexdigest(), 16) % len(_ICON_COLOURS)]
    return APP_GLYPHS.get(package, "apps"), colour


def wallpaper(ui: Session) -> tuple[int, int, int] | None:
    """The home screen's wallpaper colour (`secure taskkit_wallpaper`), None for the default."""
    return WALLPAPERS.get(ui.setting("secure", "taskkit_wallpaper") or "")


def _apps(ui: Session) -> list[Package]:
    """The installed apps with a launcher activity (taskkit.sim.packages)."""
    return [p for p in packages.all_installed(ui.state) if p.launch_component and p.name != PACKAGE]


def _home_apps(ui: Session) -> list[Package]:
    """The apps on the home screen: the launcher's layout (Launcher3's `favorites` rows on the
    desktop, by screen, row and column) when it has one, else every app."""
    rows = appdata.rows(ui, LAUNCHER_DB, "SELECT intent FROM favorites WHERE container = ? AND itemType = ? "
                                         "ORDER BY screen, cellY, cellX, _id", [_DESKTOP, _APPLICATION])
    by_name = {p.name: p for p in _apps(ui)}
    placed = []
    for row in rows:
        component = str(row["intent"] or "").partition("component=")[2].split(";")[0]
        package = by_name.get(component.split("/")[0])
        if package is not None and package not in placed:
            placed.append(package)
    return placed or _apps(ui)


def _icon(name: str, label: str, box: Box, text_size: int) -> Node:
    return Node("android.widget.TextView", text=label, content_desc=label, bounds=box,
                clickable=True, long_clickable=True, focusable=True, text_size=text_size,
                action=lambda session: session.launch(name), long_action=lambda session: None)


@functools.lru_cache(maxsize=64)
def _icon_row(apps: tuple[tuple[str, str], ...], row_box: Box, cell: int, gap: int, text_size: int) -> Node:
    """One row of the grid: the icons of `apps` ((package, label) each). Kept by what it shows:
    scroll_list puts a cut copy of it on the screen (node.clip), never the row itself."""
    x1, y1, _, y2 = row_box
    icons = [_icon(name, label, (x1 + i * cell, y1, x1 + (i + 1) * cell, y2 - gap), text_size)
             for i, (name, label) in enumerate(apps)]
    return Node("android.widget.LinearLayout", bounds=row_box, children=icons)


def _grid(ui: Session, box: Box, apps: list[Package], row_dp: float) -> list[widgets.Row]:
    cell, gap, text_size = (box[2] - box[0]) // _COLUMNS, ui.m.dp(8), ui.m.dp(12)
    rows = []
    for start in range(0, len(apps), _COLUMNS):
        chunk = tuple((p.name, p.label) for p in apps[start:start + _COLUMNS])
        rows.append(widgets.Row(ui.m.dp(row_dp), lambda row_box, chunk=chunk: _icon_row(chunk, row_box, cell, gap,
                                                                                       text_size)))
    return rows


def _search(ui: Session, top: int, rid: str, label: str) -> tuple[Node, int]:
    m = ui.m
    bottom = top + m.dp(56)
    return Node("android.widget.TextView", text=label, resource_id=f"{PACKAGE}:id/{rid}", clickable=True,
                focusable=True, bounds=(m.dp(16), top + m.dp(4), m.width - m.dp(16), bottom - m.dp(4)),
                text_size=m.dp(16)), bottom


def _home(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    search, top = _search(ui, m.status_bar, "search_container_workspace", "Search")
    box = (0, top + m.dp(16), m.width, m.content_bottom)
    grid = widgets.scroll_list(ui, frame, "workspace", box, _grid(ui, box, _home_apps(ui), 96),
                               rid=f"{PACKAGE}:id/workspace", class_name="android.widget.ScrollView")

    def drag(session: Session, dx: int, dy: int) -> None:
        if dy < -m.dp(48) and abs(dy) > abs(dx):  # a swipe up opens the app drawer
            session.push("drawer")

    grid.swipe, grid.scrollable = drag, False
    return [search, grid]


def _drawer(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    search, top = _search(ui, m.status_bar, "search_container_all_apps", "Search your phone and more")
    apps = sorted(_apps(ui), key=lambda p: p.label.casefold())
    box = (0, top + m.dp(8), m.width, m.content_bottom)
    grid = widgets.scroll_list(ui, frame, "apps", box, _grid(ui, box, apps, 104), rid=f"{PACKAGE}:id/apps_list_view")
    return [search, grid]


APP = register(AppScreens(PACKAGE, {"home": Screen(_home), "drawer": Screen(_drawer)}, first="home",
                          dark_theme=False))
