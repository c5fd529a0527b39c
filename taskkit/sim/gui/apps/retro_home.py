"""Retro Music's For you tab (HomeFragment), the screen the app opens on, as RetroMusicPlayer
v6.1.0 draws it under its default preferences for a library with no play history.

From the app's sources: fragment_home.xml (the `appBarLayout` of simple_appbar_layout.xml, the
`toolbar`: title "Retro Music" centred, the search icon as its navigation button (no
description: `app:navigationIcon` only), menu_main.xml's `action_settings` shown as an icon,
HomeFragment.onCreateMenu removing grid size, layout and sort order; the scrolling `container`),
user_image_layout.xml (HomeImageLayout without the banner, `toggle_home_banner` off: `userImage`,
`text` "Welcome,", `titleWelcome` the user name, "User Name" until one is set),
abs_playlists.xml (`history` "History", `lastAdded` "Last added", `topPlayed` "Most played",
`actionShuffle` "Shuffle"), item_suggestions.xml (`suggestions`: `title` "Suggestions",
`refresh_button`, the cards `card1`…`card8` and their covers, `message` "New Music Mix" on
`card6`; shown when `toggle_suggestions` is on, its default, and more than nine songs were not
played: Repository.suggestions), and the home sections of `recyclerView`
(Repository.homeSections: Top artists and Top albums need play counts, so they are empty here;
Recent artists and Recent albums hold the artists and albums of the songs added since the start
of this month, `last_added_interval` "this_month", newest first, five at most; Favorites the songs
of the playlist named "Favorites"), each a section_recycler_view.xml (`clickable_area` with
`title` and `arrow`, a row `recyclerView` of item_artist.xml, item_image.xml or
item_favourite_card.xml: `image`, `imageContainer`, `title`).

Simplified: every control here is shown to be found and does nothing (search, settings, the
profile, History, Last added, Most played, Shuffle, the suggestions and the sections open screens
this model lacks or play music, which it does not); the suggestions' covers stand for eight
songs the app picks at random; the cast button (menu_main.xml `action_cast`) is left out, as a
MediaRouteButton hides itself while no cast device is around.
"""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from typing import Any

from taskkit.apps.retro_music import PACKAGE
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Box, Node, clip
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
GROUP = "android.view.ViewGroup"
IMAGE = "android.widget.ImageView"
USER_NAME = "User Name"  # strings.xml `user_name`, PreferenceUtil.userName's default
SECTION_LIMIT = 5  # Repository.recentArtistsHome / recentAlbumsHome: take(5)
SUGGESTIONS_MIN = 10  # Repository.suggestions: more than nine songs
_COVER = (96, 96, 96)  # a cover Glide has no art for: the app's grey placeholder
_SECTION_DP = 48 + 156 + 40  # section_recycler_view.xml's title line, a 156 dp item, its title


@dataclasses.dataclass(frozen=True)
class Section:
    """One home section: its title, the layout of its items and their titles."""

    title: str
    layout: str  # "artist" (item_artist.xml), "album" (item_image.xml) or "song" (item_favourite_card.xml)
    items: tuple[str, ...]


def sections(ui: Session, songs: list[dict[str, Any]], favorites: list[str]) -> list[Section]:
    """The non-empty home sections in Repository.homeSections' order (Top artists and Top albums
    have no play counts to show)."""
    clock = datetime.fromtimestamp(appdata.now_ms(ui) // 1000, timezone.utc)
    month_start = int(clock.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp())
    recent = sorted((s for s in songs if s["date_modified"] > month_start),
                    key=lambda s: (-s["date_modified"], s["title"].casefold()))
    albums = _first_of_each(recent, "album_id")
    artists = _first_of_each(albums, "artist_id")
    found = [Section("Recent artists", "artist", tuple(s["artist_name"] for s in artists[:SECTION_LIMIT])),
             Section("Recent albums", "album", tuple(s["album_name"] for s in albums[:SECTION_LIMIT])),
             Section("Favorites", "song", tuple(favorites))]
    return [section for section in found if section.items]


def _first_of_each(songs: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The first song of each distinct `key`, in order (splitIntoAlbums / splitIntoArtists, unsorted)."""
    seen: set[Any] = set()
    return [s for s in songs if not (s[key] in seen or seen.add(s[key]))]


def screen(ui: Session, frame: Frame, bottom: int, songs: list[dict[str, Any]], favorites: list[str]) -> list[Node]:
    """The toolbar and the scrolling content above the bottom navigation (whose top is `bottom`)."""
    m = ui.m
    search = dataclasses.replace(widgets.icon_button(ui, (0, 0, 0, 0), "", widgets.inert), icon="search")
    settings = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Settings", widgets.inert, f"{ID}action_settings")
    bar, top = widgets.app_bar(ui, "Retro Music", up=search, rid=f"{ID}toolbar", actions=(settings,))
    parts = [(m.dp(144), lambda box: _shortcuts(ui, box))]
    if len(songs) >= SUGGESTIONS_MIN:
        inner = m.width - m.dp(32)
        parts.append((m.dp(64) + inner * 3 // 5, lambda box: _suggestions(ui, box)))
    shown = sections(ui, songs, favorites)
    if shown:
        parts.append((m.dp(_SECTION_DP) * len(shown), lambda box: _sections(ui, box, shown)))

    def content(box: Box) -> Node:
        """home_content.xml, included as `home_content`: the shortcuts, suggestions and sections stacked."""
        children, y = [], box[1]
        for height, build in parts:
            children.append(build((box[0], y, box[2], y + height)))
            y += height
        return Node(GROUP, resource_id=f"{ID}home_content", bounds=box, children=children)
    rows = [widgets.Row(m.dp(74), lambda box: _welcome(ui, box)),
            widgets.Row(sum(height for height, _ in parts), content)]
    scrolled = widgets.scroll_list(ui, frame, "home", (0, top, m.width, bottom), rows, rid=f"{ID}container",
                                   class_name="android.widget.ScrollView")
    # fragment_home.xml's TopAppBarLayout `appBarLayout` holds the toolbar (simple_appbar_layout.xml)
    return [widgets.wrapper(f"{ID}appBarLayout", bar[0], "android.widget.LinearLayout"), scrolled]


def _welcome(ui: Session, box: Box) -> Node:
    m = ui.m
    x1, y1, x2, _ = box
    image = Node(IMAGE, resource_id=f"{ID}userImage", icon="account_circle", clickable=True, focusable=True,
                 action=widgets.inert, bounds=(x1 + m.dp(16), y1 + m.dp(16), x1 + m.dp(58), y1 + m.dp(58)))
    left = x1 + m.dp(74)
    texts = [widgets.text(ui, (left, y1 + m.dp(14), x2 - m.dp(16), y1 + m.dp(34)), "Welcome,", f"{ID}text", size_dp=14),
             widgets.text(ui, (left, y1 + m.dp(34), x2 - m.dp(16), y1 + m.dp(60)), USER_NAME, f"{ID}titleWelcome",
                          size_dp=20)]
    return Node("android.widget.FrameLayout", resource_id=f"{ID}imageLayout", bounds=box,
                children=[Node(GROUP, bounds=box, children=[image, *texts])])


def _shortcuts(ui: Session, box: Box) -> Node:
    """abs_playlists.xml: two rows of two buttons."""
    m = ui.m
    x1, y1, x2, y2 = box
    half = (x2 - x1 - m.dp(48)) // 2
    buttons = []
    for i, (label, rid) in enumerate((("History", "history"), ("Last added", "lastAdded"),
                                      ("Most played", "topPlayed"), ("Shuffle", "actionShuffle"))):
        left = x1 + m.dp(16) + (half + m.dp(16)) * (i % 2)
        top = y1 + m.dp(16) + m.dp(64) * (i // 2)
        buttons.append(widgets.button(ui, (left, top, left + half, top + m.dp(56)), label, widgets.inert, f"{ID}{rid}"))
    return Node(GROUP, resource_id=f"{ID}abs_playlists", bounds=(x1, y1, x2, y2), children=buttons)


def _cover(ui: Session, box: Box, rid: str, card: str = "") -> Node:
    """A cover (a clickable image), in its card when `card` names one."""
    image = Node(IMAGE, resource_id=f"{ID}{rid}", bounds=box, background=_COVER, icon="music_note",
                 clickable=True, focusable=True, action=widgets.inert)
    return Node("android.widget.FrameLayout", resource_id=f"{ID}{card}", bounds=box, children=[image]) if card else image


def _suggestions(ui: Session, box: Box) -> Node:
    """item_suggestions.xml: New Music Mix (card6), two covers stacked (card7 and an unnamed card)
    and one more (card8) in the first row, five covers (card1 … card5) in the second."""
    m = ui.m
    x1, y1, x2, y2 = box
    unit = (x2 - x1 - m.dp(32)) // 5
    left, top = x1 + m.dp(16), y1 + m.dp(48)
    inset = m.dp(4)

    def square(col: int, row: int, size: int) -> Box:
        return (left + unit * col + inset, top + unit * row + inset, left + unit * (col + size) - inset,
                top + unit * (row + size) - inset)
    mix = square(0, 0, 2)
    message = widgets.text(ui, mix, "New Music Mix", f"{ID}message", size_dp=18, action=widgets.inert)
    children = [widgets.text(ui, (left, y1 + m.dp(8), x2 - m.dp(64), top), "Suggestions", f"{ID}title", size_dp=20),
                dataclasses.replace(widgets.icon_button(ui, (x2 - m.dp(56), y1 + m.dp(4), x2 - m.dp(16), top - m.dp(4)), "",
                                                        widgets.inert, f"{ID}refresh_button", class_name=IMAGE),
                                    icon="refresh"),
                Node("android.widget.FrameLayout", resource_id=f"{ID}card6", bounds=mix, children=[message]),
                _cover(ui, square(2, 0, 1), "image1", "card7"), _cover(ui, square(2, 1, 1), "image3", ""),
                _cover(ui, square(3, 0, 2), "image2", "card8")]
    children += [_cover(ui, square(i, 2, 1), f"image{i + 4}", f"card{i + 1}") for i in range(5)]
    return Node(GROUP, resource_id=f"{ID}suggestions", bounds=box, children=children)


def _sections(ui: Session, box: Box, shown: list[Section]) -> Node:
    """HomeAdapter's sections, each a title line and a row of items scrolling sideways."""
    m = ui.m
    x1, y1, x2, _ = box
    children = []
    for index, section in enumerate(shown):
        top = y1 + m.dp(_SECTION_DP) * index
        header = Node("android.widget.LinearLayout", resource_id=f"{ID}clickable_area", clickable=True, focusable=True,
                      action=widgets.inert, bounds=(x1, top, x2, top + m.dp(48)), children=[
                          widgets.text(ui, (x1 + m.dp(16), top, x2 - m.dp(56), top + m.dp(48)), section.title, f"{ID}title",
                                       size_dp=20),
                          Node(IMAGE, resource_id=f"{ID}arrow", icon="arrow_forward",
                               bounds=(x2 - m.dp(48), top + m.dp(12), x2 - m.dp(24), top + m.dp(36)))])
        row_top = top + m.dp(48)
        strip = (x1, row_top, x2, row_top + m.dp(196))
        items = [clip(_item(ui, (x1 + m.dp(16 + 164 * i), row_top, x1 + m.dp(172 + 164 * i), strip[3]), section.layout, title),
                      strip) for i, title in enumerate(section.items)]
        shown_items = [item for item in items if item is not None]
        row = Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}recyclerView", bounds=strip,
                   scrollable=len(shown_items) < len(items), children=shown_items)
        children.append(Node(GROUP, bounds=(x1, top, x2, top + m.dp(_SECTION_DP)), children=[header, row]))
    return Node(widgets.RECYCLER_VIEW, resource_id=f"{ID}recyclerView", bounds=box, children=children)


def _item(ui: Session, box: Box, layout: str, title: str) -> Node:
    """An artist (item_artist.xml), an album (item_image.xml) or a favourite song (item_favourite_card.xml)."""
    m = ui.m
    x1, y1, x2, y2 = box
    art = (x1, y1, x2, y1 + m.dp(156))
    under = (x1, art[3], x2, y2) if layout != "song" else (x1 + m.dp(8), art[3] - m.dp(40), x2 - m.dp(8), art[3])
    label = widgets.text(ui, under, title, f"{ID}title", size_dp=14)
    cover = Node(IMAGE, resource_id=f"{ID}image", bounds=art, background=_COVER,
                 icon={"artist": "person", "album": "album"}.get(layout, "music_note"))
    if layout == "artist":
        parts = [cover, label]
    elif layout == "album":
        parts = [Node("android.widget.FrameLayout", resource_id=f"{ID}imageContainer", bounds=art, children=[cover]), label]
    else:  # the song's title sits on its cover, inside the card
        parts = [Node("android.widget.FrameLayout", resource_id=f"{ID}imageContainer", bounds=art, children=[cover, label])]
    return Node(GROUP, bounds=box, clickable=True, focusable=True, action=widgets.inert, children=parts)
