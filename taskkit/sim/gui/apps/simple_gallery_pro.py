"""Simple Gallery Pro: the folders that hold media, a folder's media, one picture full screen and its
Copy to / Move to, over the files in shared storage.

Ids and labels follow SimpleMobileTools/Simple-Gallery: activity_main.xml (`directories_grid` of
`directory_item_grid_square.xml` tiles: `dir_holder`, `dir_thumbnail`, `dir_name`, `photo_cnt`; two
columns, `directory_columns_vertical_scroll`), activity_media.xml (`media_grid` of
`photo_item_grid.xml` tiles: `media_item_holder`, `medium_thumbnail`, `medium_name`; three columns),
activity_medium.xml (`medium_viewer_toolbar`), menu_viewpager.xml as
ViewPagerActivity.refreshMenuItems shows it for a picture (Rotate, Properties, Rename as icons; Copy
to, Move to, Create shortcut, Open with, Set as, Change orientation, Print, Resize, Show on map,
Slideshow, Settings in the overflow menu) and bottom_actions.xml's default buttons (Toggle favorite,
Edit, Share, Delete); the main screen's top is Simple-Commons' MySearchMenu
(taskkit/sim/gui/searchmenu.py) with menu_main.xml's Open camera and Show all folders content icons
and its overflow menu (Sort by ... About), with Simple-Commons' folder picker
(taskkit/sim/gui/folderpicker.py) choosing the target. Copy to writes the file under the same name
in the chosen folder and stays on the picture; Move to moves it and closes the picture. Screenshots
draw the pictures themselves, cut to the tiles' squares (Config.cropThumbnails, on by default:
extensions/Context.kt loadImageBase's CenterCrop), the names white over the tiles' gradient
(gradient_background.xml). A folder is any folder of internal storage (three levels down,
`Android` and hidden ones left out) holding a photo or video; folders and a folder's media are in
the app's default order, last modified first (`_sorted_folders`, `_media`). Simplified: the file
names are shown over the media thumbnails (the app's "Show file names" setting, off by default);
the items Copy to and Move to aside, menus and bottom buttons are there to be found and do
nothing; the search field takes text but does not search; Sort by does nothing (no other order);
no grouping, selection mode, favourites, recycle bin, editor, slideshow, video playback or swiping
between pictures; a file already in the target is replaced (the app asks whether to keep, replace
or merge).

Pinned: AndroidWorld installs com.simplemobiletools.gallery.pro_396.apk; this model follows
SimpleMobileTools/Simple-Gallery 6.28.1 (versionCode 396) with Simple-Commons 9e60e24790, the commit
its gradle/libs.versions.toml pins.
"""
from __future__ import annotations

import dataclasses
import posixpath

from taskkit.apps.simple_gallery_pro import PACKAGE, STORAGE_ROOT, is_media
from taskkit.sim.gui import appdata, folderpicker, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.searchmenu import search_menu
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source, simple_commons

SOURCE = Source("SimpleMobileTools/Simple-Gallery", "6.28.1", 396, (simple_commons("9e60e24790"),))
ID = f"{PACKAGE}:id/"
#: bottom_actions.xml's buttons Config.visibleBottomActions shows by default (DEFAULT_BOTTOM_ACTIONS)
_BOTTOM_ACTIONS = (("Toggle favorite", "bottom_favorite"), ("Edit", "bottom_edit"), ("Share", "bottom_share"),
                   ("Delete", "bottom_delete"))
_OVERFLOW_REST = ("Create shortcut", "Open with", "Set as", "Change orientation", "Print", "Resize", "Show on map",
                  "Slideshow", "Settings")
MEDIA = ".activities.MediaActivity"
VIEWER = ".activities.ViewPagerActivity"
_SKIPPED = ("Android",)
IMAGE_VIEW = "android.widget.ImageView"  # MySquareImageView, an AppCompatImageView


def _modified(ui: Session, path: str) -> int:
    """A file's last-modified time in ms (Medium.modified), 0 if it cannot be read."""
    try:
        return appdata.host(ui, path).stat().st_mtime_ns // 1_000_000
    except OSError:
        return 0


def _media(ui: Session, folder: str) -> list[tuple[str, int]]:
    """The folder's media (name, last modified in ms), newest first: the default sorting of a
    folder's media, Simple-Gallery 6.28.1 res/values/integers.xml `default_sorting` 33794 =
    SORT_BY_DATE_MODIFIED | SORT_DESCENDING | SORT_USE_NUMERIC_VALUE (Simple-Commons 9e60e24790
    helpers/Constants.kt), as helpers/MediaFetcher.kt sortMedia applies it; a tie keeps name order
    (the sort is stable)."""
    found = [(name, _modified(ui, posixpath.join(folder, name))) for name, is_dir, _ in appdata.listing(ui, folder)
             if not is_dir and is_media(name)]
    return sorted(found, key=lambda item: -item[1])


def _folders(ui: Session, folder: str = STORAGE_ROOT, depth: int = 3) -> list[tuple[str, list[tuple[str, int]]]]:
    """The folders under `folder` (itself included) that hold media, by path, with their media
    (newest first)."""
    media = _media(ui, folder) if folder != STORAGE_ROOT else []
    found = [(folder, media)] if media else []
    if depth:
        for name, is_dir, _ in appdata.listing(ui, folder):
            if is_dir and not name.startswith(".") and not (folder == STORAGE_ROOT and name in _SKIPPED):
                found += _folders(ui, posixpath.join(folder, name), depth - 1)
    return found


def _sorted_folders(ui: Session) -> list[tuple[str, list[tuple[str, int]]]]:
    """The folders that hold media, the one with the newest medium first: helpers/Config.kt
    `directorySorting` defaults to SORT_BY_DATE_MODIFIED | SORT_DESCENDING; extensions/Context.kt
    getDirectorySortingValue gives a folder its newest medium's time and getSortedDirectories
    sorts on it (stable: a tie keeps path order)."""
    return sorted(_folders(ui), key=lambda item: -item[1][0][1])


def _grid(ui: Session, frame: Frame, top: int, tiles: list, columns: int, rid: str, empty: str) -> Node:
    """`tiles` (builders of one tile in a box) in rows of `columns` square cells."""
    m = ui.m
    side = m.width // columns
    rows = [widgets.Row(side, lambda box, chunk=tiles[i:i + columns]: Node(
                "android.widget.LinearLayout", bounds=box,
                children=[build((box[0] + side * k, box[1], box[0] + side * (k + 1), box[3])) for k, build in enumerate(chunk)]))
            for i in range(0, len(tiles), columns)]
    return widgets.list_or_empty(ui, frame, top, rows, rid, empty, f"{ID}directories_empty_placeholder")


_WHITE = (255, 255, 255)  # dir_name, photo_cnt and medium_name: android:textColor white
_GRADIENT = pictures.resource("simple_gallery_pro/gradient_background")


def _folder_tile(ui: Session, box: Box, picture: str, name: str, count: int, action) -> Node:
    """directory_item_grid_square.xml: `dir_holder` (1 px padding) filled by `dir_thumbnail`, the
    folder's first (newest) picture cut to the square (cropThumbnails, on by default: Glide's CenterCrop);
    over its bottom the 70 dp `dir_shadow_holder` gradient and `dir_bottom_holder` (8 dp and 4 dp
    padding) with `dir_name` (4 dp under it) and `photo_cnt`, white 14 sp."""
    m = ui.m
    x1, y1, x2, y2 = inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
    line = m.dp(19)  # a 14 sp line
    holder = (x1, y2 - m.dp(4 + 4 + 4) - 2 * line, x2, y2)
    name_box = (x1 + m.dp(8), holder[1] + m.dp(4), x2 - m.dp(8), holder[1] + m.dp(8) + line)
    count_box = (x1 + m.dp(8), name_box[3], x2 - m.dp(8), name_box[3] + line)
    return Node("android.widget.RelativeLayout", resource_id=f"{ID}dir_holder", bounds=inner, clickable=True,
                focusable=True, action=action, children=[
                    Node(IMAGE_VIEW, resource_id=f"{ID}dir_thumbnail", bounds=inner,
                         image=pictures.cropped(str(appdata.host(ui, picture)))),
                    Node(IMAGE_VIEW, resource_id=f"{ID}dir_shadow_holder", bounds=(x1, y2 - m.dp(70), x2, y2),
                         image=_GRADIENT),
                    Node("android.widget.LinearLayout", resource_id=f"{ID}dir_bottom_holder", bounds=holder, children=[
                        dataclasses.replace(widgets.text(ui, name_box, name, f"{ID}dir_name", size_dp=14),
                                            text_color=_WHITE),
                        dataclasses.replace(widgets.text(ui, count_box, str(count), f"{ID}photo_cnt", size_dp=14),
                                            text_color=_WHITE)])])


def _medium_tile(ui: Session, box: Box, picture: str, name: str, action) -> Node:
    """photo_item_grid.xml: `media_item_holder` filled by `medium_thumbnail` (cut to the square) and
    `medium_name` at its bottom on the gradient, white 12 sp, 4 dp padding (shown here; the app's
    "Show file names" is off by default)."""
    m = ui.m
    x1, y1, x2, y2 = box
    label = (x1, y2 - m.dp(4 + 17 + 8), x2, y2)
    return Node("android.widget.RelativeLayout", resource_id=f"{ID}media_item_holder", bounds=box, clickable=True,
                focusable=True, action=action, children=[
                    Node(IMAGE_VIEW, resource_id=f"{ID}medium_thumbnail", bounds=box,
                         image=pictures.cropped(str(appdata.host(ui, picture)))),
                    Node(widgets.TEXT_VIEW, text=name, resource_id=f"{ID}medium_name", image=_GRADIENT,
                         bounds=label, text_size=m.dp(12), text_color=_WHITE)])


def _main(ui: Session, frame: Frame) -> list[Node]:
    icon = (0, 0, ui.m.dp(48), 0)
    nodes, top = search_menu(ui, frame, ID, (
        widgets.icon_button(ui, icon, "More options", lambda s: s.push("main_overflow")),
        widgets.icon_button(ui, icon, "Show all folders content", widgets.inert, f"{ID}show_all"),
        widgets.icon_button(ui, icon, "Open camera", widgets.inert, f"{ID}open_camera")))
    tiles = []
    for folder, media in _sorted_folders(ui):  # the thumbnail: the folder's first medium (createDirectoryFromMedia)
        tiles.append(lambda box, f=folder, first=media[0][0], n=len(media): _folder_tile(
            ui, box, posixpath.join(f, first), posixpath.basename(f), n, lambda s, path=f: s.push("media", path=path)))
    return nodes + [_scrolling(_grid(ui, frame, top, tiles, 2, f"{ID}directories_grid",
                                     "No media files have been found with the selected filters."), "directories")]


def _scrolling(grid: Node, prefix: str) -> Node:
    """activity_main.xml / activity_media.xml: the grid in its RecyclerViewFastScroller
    (`PREFIX_fastscroller`) in a SwipeRefreshLayout (`PREFIX_refresh_layout`); an empty folder
    list shows its placeholder instead."""
    if not grid.resource_id.endswith("_grid"):
        return grid
    return widgets.wrapper(f"{ID}{prefix}_refresh_layout", widgets.wrapper(f"{ID}{prefix}_fastscroller", grid))


def _main_overflow(ui: Session, frame: Frame) -> list[Node]:
    """menu_main.xml's overflow as MainActivity.refreshMenuItems leaves it by default (the recycle
    bin shows among the folders; an F-Droid build hides More apps from us)."""
    return widgets.popup_menu(ui, [(label, widgets.inert) for label in (
        "Sort by", "Filter media", "Change view type", "Temporarily show hidden", "Temporarily show excluded",
        "Create new folder", "Column count", "Settings", "About")])


def _folder(ui: Session, frame: Frame) -> list[Node]:
    """MediaActivity: MySearchMenu `media_menu` with the hint "Search in FOLDER" and the back
    arrow (toggleForceArrowBackIcon), menu_media.xml as refreshMenuItems leaves it for a folder
    in the grid view (Toggle filename visibility, then Sort by as icons; the rest in the
    overflow), over the grid."""
    folder = str(frame.args["path"])
    icon = (0, 0, ui.m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("media_overflow")),
               dataclasses.replace(widgets.icon_button(ui, icon, "Sort by", widgets.inert, f"{ID}sort"), icon="sort"),
               dataclasses.replace(widgets.icon_button(ui, icon, "Toggle filename visibility", widgets.inert,
                                                       f"{ID}toggle_filename"), icon="label"))  # ic_label_vector
    nodes, top = search_menu(ui, frame, ID, actions, rid="media_menu", hint=f"Search in {posixpath.basename(folder)}",
                             back=Session.finish)
    tiles = [lambda box, name=name: _medium_tile(ui, box, posixpath.join(folder, name), name,
                                                 lambda s, path=posixpath.join(folder, name): s.push("viewer", path=path))
             for name, _ in _media(ui, folder)]
    return nodes + [_scrolling(_grid(ui, frame, top, tiles, 3, f"{ID}media_grid",
                                     "No media files have been found with the selected filters."), "media")]


def _media_overflow(ui: Session, frame: Frame) -> list[Node]:
    """menu_media.xml's overflow for a folder by default (refreshMenuItems: the recycle bin on,
    Config.useRecycleBin; not the default folder; the ifRoom items that found no room)."""
    return widgets.popup_menu(ui, [(label, widgets.inert) for label in (
        "Filter media", "Change view type", "Temporarily show hidden", "Open the Recycle Bin", "Group by",
        "Set as default folder",
        "Create new folder", "Column count", "Slideshow", "Settings")])


def _viewer(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    path = str(frame.args["path"])
    if not appdata.host(ui, path).is_file():
        return [widgets.text(ui, (m.dp(16), m.height // 2, m.width - m.dp(16), m.height // 2 + m.dp(48)), "")]
    picture = Node("android.widget.ImageView", resource_id=f"{ID}gestures_view",
                   bounds=(0, m.status_bar, m.width, m.content_bottom), image=str(appdata.host(ui, path)),
                   background=(0, 0, 0))
    icon = (0, 0, m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("menu", path=path)),
               widgets.icon_button(ui, icon, "Rename", widgets.inert, f"{ID}menu_rename"),
               widgets.icon_button(ui, icon, "Properties", widgets.inert, f"{ID}menu_properties"),
               widgets.icon_button(ui, icon, "Rotate", widgets.inert, f"{ID}menu_rotate"))
    bar, _ = widgets.app_bar(ui, posixpath.basename(path), rid=f"{ID}medium_viewer_toolbar", actions=actions)
    bar = [dataclasses.replace(node, background=(0, 0, 0)) for node in bar]  # over the dark viewer
    appbar = Node("android.widget.LinearLayout", resource_id=f"{ID}medium_viewer_appbar", bounds=bar[0].bounds,
                  children=bar)
    shadow = Node(IMAGE_VIEW, resource_id=f"{ID}top_shadow", bounds=(0, 0, m.width, bar[0].bounds[3]))
    width = m.width // len(_BOTTOM_ACTIONS)
    bottom = Node("android.widget.LinearLayout", resource_id=f"{ID}bottom_actions",
                  bounds=(0, m.content_bottom - m.dp(56), m.width, m.content_bottom), background=(0, 0, 0),
                  children=[widgets.icon_button(ui, (width * i, m.content_bottom - m.dp(56), width * (i + 1),
                                                     m.content_bottom), desc, widgets.inert, f"{ID}{rid}",
                                                class_name="android.widget.ImageView")
                            for i, (desc, rid) in enumerate(_BOTTOM_ACTIONS)])
    pager = Node("androidx.viewpager.widget.ViewPager", resource_id=f"{ID}view_pager", bounds=picture.bounds,
                 children=[picture])
    return [pager, bottom, shadow, appbar]


def _transfer(how: str, path: str):
    def act(ui: Session) -> None:
        _, _, viewer = ui.top()  # the menu is gone: the viewer is in front
        if viewer is not None:
            ui.set_draft(viewer, "transfer", how)
        folderpicker.open_picker(posixpath.dirname(path))(ui)
    return act


def _menu(ui: Session, frame: Frame) -> list[Node]:
    """The viewer's overflow menu: menu_viewpager.xml's items ViewPagerActivity.refreshMenuItems
    leaves for a picture with the default bottom actions, in the menu's order."""
    path = str(frame.args["path"])
    items = [("Copy to", _transfer("copy", path)), ("Move to", _transfer("move", path))]
    return widgets.popup_menu(ui, items + [(label, widgets.inert) for label in _OVERFLOW_REST])


def _picked(ui: Session, below: Frame, folder: str) -> None:
    """Copy or move the viewer's picture into `folder` under its name."""
    if below.screen != "viewer":
        return
    source = str(below.args["path"])
    target = posixpath.join(folder, posixpath.basename(source))
    if target == source:
        return
    if ui.draft(below, "transfer") == "move":
        appdata.rename(ui, source, target)
        ui.finish()
    else:
        appdata.write_bytes(ui, target, appdata.host(ui, source).read_bytes())


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "media": Screen(_folder, MEDIA), "viewer": Screen(_viewer, VIEWER),
     "menu": Screen(_menu, VIEWER), "main_overflow": Screen(_main_overflow), "media_overflow": Screen(_media_overflow, MEDIA), 
     # PickDirectoryDialog.kt:170-176 (its "other folder"): showFAB and canAddShowHiddenButton
     folderpicker.SCREEN: folderpicker.screen(PACKAGE, _picked, VIEWER, show_hidden_button=True)},
    first="main"))
