"""Retro Music: the For you tab it opens on (apps/retro_home.py), the library's Songs and
Playlists tabs, a song's menu, the Add to playlist and New playlist dialogs, a playlist's songs
with its menu ("Save as file"), and the system's save-document screen, over the song files and
the databases the Retro checks read.

Labels follow RetroMusicPlayer/RetroMusicPlayer (res/values/strings.xml: "Songs", "Playlists",
"Add to playing queue", "Add to playlist", "New playlist", "Playlist name", "Create",
"Save as file", "You have no songs", "You have no playlists"; layout item_list.xml: the album-art
placeholder `image` in `imageTextContainer`, `title`,
`text`, `menu`). Menus are complete: a song's (menu_item_song.xml: Play next, Add to playing
queue, Add to playlist, Go to album, Go to artist, Share, Tag editor, Details, Set as ringtone,
Add to Blacklist, Delete from device), a playlist's (menu_playlist_detail.xml: Shuffle playlist
as an icon; Play, Play next, Add to playing queue, Add to playlist, Rename, Delete, Save as
file), the bottom navigation `navigationView` (bottom_navigation_main.xml: `action_home` For you,
`action_song` Songs, `action_album` Albums, `action_artist` Artists, `action_playlist`
Playlists; under PreferenceUtil.tabTitleMode's default, LABEL_VISIBILITY_AUTO, only the selected
tab shows its label, the others their icon and description). A tap on a song plays the list
from it, as the app does: the playing queue becomes the whole list. A long press starts a
multi-selection (taps add or remove songs, in the order tapped): AppCompat's action mode
`action_context_bar` with Done (`action_mode_close_button`), the count `selection_mode_number`
(NumberRollView) and menu_media_selection.xml's items (Play next, Add to playing queue
`action_add_to_current_playing`, Add to playlist `action_add_to_playlist` as icons; Share,
Delete from device, Select all in the overflow menu), which add the selection to the queue or a
playlist. The dialogs are MaterialAlertDialogBuilder's (extensions/DialogExtension.kt
`materialDialog`: AppCompat's AlertDialog in Material's mtrl_alert_dialog.xml), so their panels
and title carry the app's ids (`PKG:id/parentPanel`, `PKG:id/alertTitle`) and Add to playlist's
items (AddToPlaylistDialog.kt `setItems`) are `android:id/text1` rows
(mtrl_alert_select_dialog_item.xml). "Save as file" opens the system's create-document screen
(Android 11 and later, dialogs/SavePlaylistDialog.kt) at Downloads with the playlist's name;
SAVE writes the M3U there.
Simplified: the library is the MP3s of Music (the media store holds every audio file); the app
opens on For you at every start (it reopens on the last tab chosen: `remember_last_tab`, on by
default); no player screen, albums, artists, genres, folders, search or sorting: the items and
tabs that lead there (and Play next, Share, Tag editor, Details, Set as ringtone, Add to
Blacklist, Delete from device, Select all, Play, Rename, Delete, Shuffle playlist) are there to
be found and do nothing; the save screen cannot change folders and is drawn inside the app's
window (on a phone it is DocumentsUI's activity; its nodes carry DocumentsUI's package).

Pinned: AndroidWorld installs code.name.monkey.retromusic_10603.apk; this model follows
RetroMusicPlayer/RetroMusicPlayer v6.1.0 (versionCode 10603).
"""
from __future__ import annotations

import dataclasses
import posixpath
import random
from typing import Any

from taskkit.apps import media, retro_music
from taskkit.apps.files import DOWNLOAD_DIR
from taskkit.apps.retro_music import MUSIC_DIR, PACKAGE, PLAYBACK_DB, PLAYLIST_DB
from taskkit.sim.gui import appdata, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.apps import retro_home as home
from taskkit.sim.gui.node import Box, Node
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("RetroMusicPlayer/RetroMusicPlayer", "v6.1.0", 10603)
ID = f"{PACKAGE}:id/"
PLAYLIST_ACTIVITY = ".activities.PlaylistDetailActivity"
DOCUMENTS_UI = "com.google.android.documentsui"
CARD = "androidx.cardview.widget.CardView"  # what a MaterialCardView reports to accessibility
# bottom_navigation_main.xml: each item's id, title and icon (ic_home, ic_audiotrack, ic_album,
# ic_artist, ic_queue_music)
_TABS = (widgets.Tab("For you", f"{ID}action_home", "home"), widgets.Tab("Songs", f"{ID}action_song", "audiotrack"),
         widgets.Tab("Albums", f"{ID}action_album", "album"), widgets.Tab("Artists", f"{ID}action_artist", "person"),
         widgets.Tab("Playlists", f"{ID}action_playlist", "queue_music"))
_MODELLED_TABS = ("For you", "Songs", "Playlists")
_HOME = "For you"
FAVORITES = "Favorites"  # the playlist the home screen's Favorites section shows (strings.xml `favorites`)


def library(ui: Session) -> list[dict[str, Any]]:
    """The songs the app lists (library entries), by title as its default sort."""
    songs = []
    for name, is_dir, _ in appdata.listing(ui, MUSIC_DIR):
        path = posixpath.join(MUSIC_DIR, name)
        if is_dir or not name.lower().endswith(".mp3"):
            continue
        host = appdata.host(ui, path)
        with host.open("rb") as handle:
            tags = media.mp3_tags(handle.read(4096))
        if tags is not None:
            songs.append(retro_music.library_entry(path, tags, int(host.stat().st_mtime)))
    return sorted(songs, key=lambda entry: entry["title"].casefold())


def _playlists(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, PLAYLIST_DB, "SELECT playlist_id, playlist_name, (SELECT count(*) FROM SongEntity "
                        "WHERE playlist_creator_id = playlist_id) AS songs FROM PlaylistEntity ORDER BY playlist_name")


def _playlist_titles(ui: Session, name: str) -> list[str]:
    """The titles of the songs of the playlist called `name` (none when there is no such playlist)."""
    return [row["title"] for row in appdata.rows(
        ui, PLAYLIST_DB, "SELECT title FROM SongEntity JOIN PlaylistEntity ON playlist_creator_id = playlist_id "
        "WHERE playlist_name = ? ORDER BY song_key", (name,))]


def _playlist_songs(ui: Session, playlist_id: int) -> list[dict[str, Any]]:
    return appdata.rows(ui, PLAYLIST_DB, "SELECT * FROM SongEntity WHERE playlist_creator_id = ? ORDER BY song_key",
                        (playlist_id,))


def _enqueue(entries: list[dict[str, Any]]):
    def act(ui: Session) -> None:
        for table in retro_music.QUEUE_TABLES:
            for entry in entries:
                appdata.insert(ui, PLAYBACK_DB, table, retro_music.queue_row(entry))
    return act


def _set_queue(ui: Session, entries: list[dict[str, Any]]) -> None:
    for table in retro_music.QUEUE_TABLES:
        appdata.write(ui, PLAYBACK_DB, f"DELETE FROM {table}")
    _enqueue(entries)(ui)


def _add_to_playlist(ui: Session, playlist_id: int, entries: list[dict[str, Any]]) -> None:
    """Append the songs the playlist does not have yet (the table's unique index)."""
    for entry in entries:
        if not appdata.rows(ui, PLAYLIST_DB, "SELECT 1 FROM SongEntity WHERE playlist_creator_id = ? AND id = ?",
                            (playlist_id, entry["id"])):
            appdata.insert(ui, PLAYLIST_DB, "SongEntity", retro_music.song_entity(playlist_id, entry))


def _album_art(ui: Session, row: Box) -> Node:
    """item_list.xml's `image` (45 dp, 16 dp in, centred) in its card `imageTextContainer`: the
    songs carry no album art here, so it shows the placeholder Glide puts there
    (RetroGlideExtension's DEFAULT_SONG_IMAGE, default_audio_art)."""
    m = ui.m
    x, middle = row[0] + m.dp(17), (row[1] + row[3]) // 2  # the row's 1 dp margin and the card's 16 dp
    box = (x, middle - m.dp(45) // 2, x + m.dp(45), middle - m.dp(45) // 2 + m.dp(45))
    image = Node("android.widget.ImageView", resource_id=f"{ID}image", bounds=box,
                 image=pictures.resource("retro_music/default_audio_art"))
    return Node(CARD, resource_id=f"{ID}imageTextContainer", bounds=box, children=[image])


def _song_row(ui: Session, entry: dict[str, Any], play: Any, select: Any = None, selected: bool = False) -> widgets.Row:
    menu = ("More options", f"{ID}menu", lambda s: s.push("song_menu", entries=[entry]))
    return widgets.Row(ui.m.dp(72), lambda box: widgets.list_item_with_menu(
        ui, box, entry["title"], entry["artist_name"], menu, action=play, long_action=select, selected=selected,
        title_rid=f"{ID}title", subtitle_rid=f"{ID}text", leading=_album_art(ui, box), indent_dp=1 + 16 + 45 + 16))


def _main(ui: Session, frame: Frame) -> list[Node]:
    """sliding_music_panel_layout.xml: the `fragment_container` above the bottom navigation; the
    library's tabs in fragment_library.xml (`appBarLayout` holding the `toolbar` titled by
    `appNameText`, menu_main.xml's items in its overflow menu: the cast button hides itself
    without a cast device) around the tab's fragment_main_recycler.xml (`recycler_view`, and on
    Songs the `shuffle_button` FAB)."""
    m = ui.m
    tab = str(frame.args.get("tab") or _HOME)
    # PreferenceUtil.tabTitleMode's default, LABEL_VISIBILITY_AUTO: with five tabs only the selected one is labelled
    navigation, bottom = widgets.bottom_navigation(
        ui, _TABS, f"{ID}navigationView", lambda t: (lambda s: s.replace("main", tab=t)) if t in _MODELLED_TABS else widgets.inert,
        selected=tab, selected_label_only=True)
    panel = mini_player(ui, bottom)
    bottom = panel[0].bounds[1] if panel else bottom  # the lists end above it (bottom_nav_mini_player_height)
    if tab == _HOME:
        return [_container(ui, bottom, home.screen(ui, frame, bottom, library(ui), _playlist_titles(ui, FAVORITES))),
                *panel, navigation]
    chosen = [str(path) for path in frame.args.get("selected") or []]
    songs = library(ui) if tab == "Songs" else []
    items = _LIBRARY_MENU if tab == "Songs" else _PLAYLISTS_MENU
    more = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options", lambda s: s.push("library_menu", items=items))
    nodes, top = widgets.app_bar(ui, "Retro Music", up=False, rid=f"{ID}toolbar", title_rid=f"{ID}appNameText",
                                 actions=(more,))
    over: list[Node] = []
    if chosen:  # the action mode's bar lies over the toolbar, which stays in the window
        nodes = [dataclasses.replace(nodes[0], covered_by_design=_UNDER_ACTION_MODE)]
        over = _selection_bar(ui, [entry for path in chosen for entry in songs if entry["data"] == path])
    bar = Node("android.widget.LinearLayout", resource_id=f"{ID}appBarLayout", bounds=nodes[-1].bounds, children=nodes)
    if tab == "Songs":
        def toggle(path: str):
            picked = [p for p in chosen if p != path] + ([] if path in chosen else [path])

            def act(s: Session) -> None:  # the list keeps its place (the adapter redraws the row only)
                offset = s.scroll(frame, tab)
                s.replace("main", tab=tab, selected=picked)
                if offset is not None:
                    s.set_scroll(s.top()[2], tab, offset)
            return act
        rows = [_song_row(ui, entry, toggle(entry["data"]) if chosen else
                          (lambda s, at=index: _set_queue(s, songs[at:] + songs[:at])),
                          select=None if chosen else toggle(entry["data"]), selected=entry["data"] in chosen)
                for index, entry in enumerate(songs)]
        empty = "You have no songs"
    else:
        rows = _playlist_grid(ui)
        empty = "You have no playlists"
    listed = widgets.list_or_empty(ui, frame, top, rows, f"{ID}recycler_view", empty, f"{ID}emptyText", bottom=bottom,
                                   name=tab)
    content = [bar, listed]
    if tab == "Songs":  # SongsFragment.isShuffleVisible (PlaylistsFragment hides it)
        fab = widgets.fab(ui, _shuffle_all(songs), f"{ID}shuffle_button", "Shuffle")
        x1, y1, x2, y2 = fab.bounds
        lift = m.content_bottom - bottom
        content.append(dataclasses.replace(fab, bounds=(x1, y1 - lift, x2, y2 - lift), icon="shuffle"))
    return [_container(ui, bottom, content), *panel, navigation, *over]


def mini_player(ui: Session, bottom: int) -> list[Node]:
    """sliding_music_panel_layout.xml's bottom sheet `slidingPanel`, collapsed to the mini-player
    (fragment_mini_player.xml, 56 dp, as `miniPlayerFragment`) right above `bottom`, while the
    playing queue holds songs (AbsSlidingMusicPanelActivity.onQueueChanged: hideBottomSheet when
    it is empty): the album art `image` in `imageTextContainer`, "Title • Artist"
    `miniPlayerTitle` (MiniPlayerFragment.updateSongTitle) of the queue's current song, the
    progress ring `progressBar` round the play/pause button `miniPlayerPlayPauseButton`
    (`actionPrevious` and `actionNext` are gone on a phone: PreferenceUtil.isExtraControls is off).
    Not modeled: the player screen a tap expands it to, playback (the button does nothing)."""
    queue = appdata.rows(ui, PLAYBACK_DB, "SELECT title, artist FROM playing_queue ORDER BY rowid LIMIT 1")
    if not queue:
        return []
    m = ui.m
    top = bottom - m.dp(56)
    box = (0, top, m.width, bottom)
    middle = (top + bottom) // 2
    art = (m.dp(16), middle - m.dp(20), m.dp(56), middle + m.dp(20))
    button = (m.width - m.dp(56), middle - m.dp(20), m.width - m.dp(16), middle + m.dp(20))
    song = queue[0]
    children = [Node(CARD, resource_id=f"{ID}imageTextContainer", bounds=art, children=[
                    Node("android.widget.ImageView", resource_id=f"{ID}image", bounds=art,
                         image=pictures.resource("retro_music/default_audio_art"))]),
                widgets.text(ui, (art[2] + m.dp(16), middle - m.dp(12), button[0] - m.dp(8), middle + m.dp(12)),
                             f"{song['title']} \u2022 {song['artist']}", f"{ID}miniPlayerTitle", size_dp=14),
                Node("android.widget.FrameLayout", bounds=button, children=[
                    Node("android.widget.ProgressBar", resource_id=f"{ID}progressBar", bounds=button),
                    Node("android.widget.ImageView", resource_id=f"{ID}miniPlayerPlayPauseButton", bounds=button,
                         clickable=True, focusable=True, action=widgets.inert, icon="pause")])]
    fragment = Node("android.widget.LinearLayout", resource_id=f"{ID}miniPlayerFragment", bounds=box, clickable=True,
                    focusable=True, action=widgets.inert, children=children)
    return [Node("android.widget.FrameLayout", resource_id=f"{ID}slidingPanel", bounds=box, background="background",
                 children=[fragment])]


def _container(ui: Session, bottom: int, content: list[Node]) -> Node:
    """sliding_music_panel_layout.xml's FragmentContainerView `fragment_container`, above the navigation."""
    return Node("android.widget.FrameLayout", resource_id=f"{ID}fragment_container",
                bounds=(0, ui.m.status_bar, ui.m.width, bottom), children=content)


# menu_main.xml's overflow items as LibraryFragment shows them on Songs (Grid size, Grid style, Sort
# order, Settings) and as PlaylistsFragment.onCreateMenu leaves them (no Grid style; New playlist
# and Import playlist added; Settings last, its orderInCategory 10); their sub-menus are not modeled
_LIBRARY_MENU = ("Grid size", "Grid style", "Sort order", "Settings")
_PLAYLISTS_MENU = ("Grid size", "Sort order", "New playlist", "Import playlist", "Settings")


def _library_menu(ui: Session, frame: Frame) -> list[Node]:
    new = lambda s: s.push("new_playlist", entries=[])  # noqa: E731
    return widgets.popup_menu(ui, [(label, new if label == "New playlist" else widgets.inert)
                                   for label in frame.args.get("items") or ()])


def _shuffle_all(songs: list[dict[str, Any]]):
    """The Songs tab's shuffle button (LibraryViewModel.shuffleSongs → openAndShuffleQueue): every
    song in a shuffled order (seeded by the device clock, so a replay repeats it) becomes the
    playing queue; the original queue keeps the library's order."""
    def act(ui: Session) -> None:
        shuffled = list(songs)
        random.Random(ui.state.clock_epoch).shuffle(shuffled)
        for table in retro_music.QUEUE_TABLES:
            appdata.write(ui, PLAYBACK_DB, f"DELETE FROM {table}")
            for entry in shuffled if table == "playing_queue" else songs:
                appdata.insert(ui, PLAYBACK_DB, table, retro_music.queue_row(entry))
    return act


def _playlist_grid(ui: Session) -> list[widgets.Row]:
    """The Playlists tab: PlaylistsFragment's grid (default_grid_columns 2 > default_list_columns
    1, so item_grid.xml): square cards `imageContainer` with the playlist's picture `image` (the
    placeholder: no song has art), the name `title`, "N Songs" `text` and the card's `menu`
    (menu_item_playlist.xml); a tap opens the playlist."""
    m = ui.m
    playlists = _playlists(ui)
    side = m.width // 2

    def card(box: Box, p: dict[str, Any]) -> Node:
        x1, y1, x2, y2 = (box[0] + m.dp(6), box[1] + m.dp(6), box[2] - m.dp(6), box[3] - m.dp(6))
        image = (x1, y1, x2, y1 + (x2 - x1))
        texts = (x1 + m.dp(12), image[3] + m.dp(12), x2 - m.dp(48), y2 - m.dp(12))
        args = {"playlist_id": p["playlist_id"], "name": p["playlist_name"]}
        return Node("android.view.ViewGroup", bounds=box, clickable=True, focusable=True,
                    action=lambda s: s.push("playlist", **args), children=[
                        Node(CARD, resource_id=f"{ID}imageContainer", bounds=image, children=[
                            Node("android.widget.ImageView", resource_id=f"{ID}image", bounds=image,
                                 image=pictures.resource("retro_music/default_audio_art"))]),
                        widgets.text(ui, (texts[0], texts[1], texts[2], texts[1] + m.dp(24)), p["playlist_name"],
                                     f"{ID}title", size_dp=16),
                        widgets.text(ui, (texts[0], texts[1] + m.dp(28), texts[2], texts[3]), f"{p['songs']} Songs",
                                     f"{ID}text", size_dp=14),
                        widgets.icon_button(ui, (x2 - m.dp(40), texts[1], x2, texts[1] + m.dp(48)), "More options",
                                            lambda s: s.push("playlist_menu", **args), f"{ID}menu",
                                            class_name="android.widget.ImageView")])
    height = side + m.dp(84)
    return [widgets.Row(height, lambda box, pair=playlists[i:i + 2]: Node(
                "android.widget.LinearLayout", bounds=box,
                children=[card((box[0] + side * k, box[1], box[0] + side * (k + 1), box[3]), p) for k, p in enumerate(pair)]))
            for i in range(0, len(playlists), 2)]


# AppCompat's overlay layout (abc_screen_simple_overlay_action_mode.xml) puts the action mode's bar
# after the window's content, over fragment_library.xml's toolbar, which stays in the window
_UNDER_ACTION_MODE = ("adapter/base/AbsMultiSelectAdapter.kt:101 (startActionMode) with res/values/styles_parents.xml:32, "
                      ":48, :63 (windowActionModeOverlay): the action mode's bar lies over fragment_library.xml's toolbar")


def _selection_bar(ui: Session, entries: list[dict[str, Any]]) -> list[Node]:
    """The action mode of a multi-selection (AbsMultiSelectAdapter, menu_media_selection.xml):
    Done, the count (NumberRollView), Play next, Add to playing queue, Add to playlist as icons,
    Share, Delete from device and Select all in the overflow menu; an opaque bar after the
    window's content, as AppCompat's overlay layout places it."""
    m = ui.m

    def done(act):
        def run(s: Session) -> None:
            act(s)
            s.replace("main", tab="Songs")  # the action ends the selection
        return run
    icon = (0, 0, m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("selection_menu")),
               widgets.icon_button(ui, icon, "Add to playlist",
                                   lambda s: (s.replace("main", tab="Songs"), s.push("add_to_playlist", entries=entries)),
                                   f"{ID}action_add_to_playlist"),
               widgets.icon_button(ui, icon, "Add to playing queue", done(_enqueue(entries)),
                                   f"{ID}action_add_to_current_playing"),
               widgets.icon_button(ui, icon, "Play next", widgets.inert, f"{ID}action_play_next"),
               widgets.text(ui, (0, 0, m.dp(48), 0), str(len(entries)), f"{ID}selection_mode_number"))
    close = widgets.icon_button(ui, (0, 0, 0, 0), "Done", done(lambda s: None), f"{ID}action_mode_close_button")
    nodes, _ = widgets.app_bar(ui, "", up=close, rid=f"{ID}action_context_bar", actions=actions)
    return [dataclasses.replace(nodes[0], background="background")]


def _selection_menu(ui: Session, frame: Frame) -> list[Node]:
    return widgets.popup_menu(ui, [("Share", widgets.inert), ("Delete from device", widgets.inert), ("Select all", widgets.inert)])


def _song_menu(ui: Session, frame: Frame) -> list[Node]:
    """menu_item_song.xml, all eleven items."""
    entries = list(frame.args["entries"])
    return widgets.popup_menu(ui, [("Play next", widgets.inert), ("Add to playing queue", _enqueue(entries)),
                                   ("Add to playlist", lambda s: s.push("add_to_playlist", entries=entries)),
                                   ("Go to album", widgets.inert), ("Go to artist", widgets.inert), ("Share", widgets.inert),
                                   ("Tag editor", widgets.inert), ("Details", widgets.inert), ("Set as ringtone", widgets.inert),
                                   ("Add to Blacklist", widgets.inert), ("Delete from device", widgets.inert)])


def _add_dialog(ui: Session, frame: Frame) -> list[Node]:
    """"Add to playlist": New playlist, then the playlists; a tap adds the songs."""
    entries = list(frame.args["entries"])
    choices = [("New playlist", lambda s: (s.finish(), s.push("new_playlist", entries=entries)))]
    choices += [(p["playlist_name"], lambda s, pid=p["playlist_id"]: (_add_to_playlist(s, pid, entries), s.finish()))
                for p in _playlists(ui)]
    return widgets.dialog(ui, "Add to playlist", owner=PACKAGE, items=choices)


def _create(frame: Frame):
    def act(ui: Session) -> None:
        name = ui.draft(frame, "name").strip()
        if not name:
            return  # the app refuses an empty name
        found = appdata.rows(ui, PLAYLIST_DB, "SELECT playlist_id FROM PlaylistEntity WHERE playlist_name = ?", (name,))
        playlist_id = found[0]["playlist_id"] if found else appdata.insert(
            ui, PLAYLIST_DB, "PlaylistEntity", {"playlist_name": name})
        _add_to_playlist(ui, playlist_id, list(frame.args.get("entries") or []))
        ui.finish()
    return act


def _new_dialog(ui: Session, frame: Frame) -> list[Node]:
    """dialog_playlist.xml: the field `actionNewPlaylist` in its TextInputLayout `actionNewPlaylistContainer`."""
    def body(box):
        x1, y1, x2, _ = box
        field = widgets.edit_text(ui, frame, "name", (x1, y1, x2, y1 + ui.m.dp(56)), "Playlist name", f"{ID}actionNewPlaylist")
        return [widgets.wrapper(f"{ID}actionNewPlaylistContainer", field, "android.widget.LinearLayout")]
    return widgets.dialog(ui, "New playlist", owner=PACKAGE, body=body, body_dp=64, positive=("Create", _create(frame)))


def _playlist(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    playlist_id, name = int(frame.args["playlist_id"]), str(frame.args["name"])
    entries = [{k: v for k, v in row.items() if k not in ("song_key", "playlist_creator_id")}
               for row in _playlist_songs(ui, playlist_id)]
    more = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options", lambda s: s.push("playlist_menu", **frame.args))
    shuffle = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Shuffle playlist", widgets.inert)
    nodes, top = widgets.app_bar(ui, name, rid=f"{ID}toolbar", actions=(more, shuffle))
    rows = [_song_row(ui, entry, lambda s, at=index: _set_queue(s, entries[at:] + entries[:at]))
            for index, entry in enumerate(entries)]
    # fragment_playlist_detail.xml: the `appBarLayout` around the toolbar, the list; in the
    # `fragment_container` (the bottom navigation is hidden here: MainActivity's destination listener)
    listed = widgets.list_or_empty(ui, frame, top, rows, f"{ID}recyclerView", "Playlist is empty", f"{ID}empty")
    bar = Node("android.widget.LinearLayout", resource_id=f"{ID}appBarLayout", bounds=nodes[0].bounds, children=nodes)
    return [_container(ui, m.content_bottom, [bar, listed])]


def _save_as_file(args: dict[str, Any]):
    return lambda ui: ui.push("save_document", drafts={"file_name": f"{args['name']}.m3u"}, **args)


def _playlist_menu(ui: Session, frame: Frame) -> list[Node]:
    """menu_playlist_detail.xml's overflow items."""
    return widgets.popup_menu(ui, [("Play", widgets.inert), ("Play next", widgets.inert), ("Add to playing queue", widgets.inert),
                                   ("Add to playlist", widgets.inert), ("Rename", widgets.inert), ("Delete", widgets.inert),
                                   ("Save as file", _save_as_file(dict(frame.args)))])


def _write_m3u(frame: Frame):
    def act(ui: Session) -> None:
        file_name = ui.draft(frame, "file_name").strip()
        if not file_name or "/" in file_name:
            return
        if not file_name.lower().endswith(".m3u"):
            file_name += ".m3u"  # the document's type (audio/mpegurl) gives the extension
        entries = _playlist_songs(ui, int(frame.args["playlist_id"]))
        appdata.write_text(ui, posixpath.join(DOWNLOAD_DIR, file_name), retro_music.m3u_text(entries))
        ui.finish()
    return act


def _save_document(ui: Session, frame: Frame) -> list[Node]:
    """DocumentsUI's save screen at Downloads: the file name and SAVE."""
    m = ui.m
    nodes, top = widgets.app_bar(ui, "Downloads", rid="com.android.documentsui:id/toolbar")
    listed = [widgets.Row(m.dp(56), lambda box, n=name: widgets.list_item(ui, box, n, title_rid="android:id/title"))
              for name, is_dir, _ in appdata.listing(ui, DOWNLOAD_DIR) if not is_dir]
    bottom = m.content_bottom - m.dp(72)
    if listed:
        nodes.append(widgets.scroll_list(ui, frame, "files", (0, top, m.width, bottom), listed,
                                         rid="com.android.documentsui:id/dir_list"))
    nodes.append(widgets.edit_text(ui, frame, "file_name", (m.dp(16), bottom + m.dp(8), m.width - m.dp(120), bottom + m.dp(64)),
                                   "File name", "android:id/title"))
    nodes.append(widgets.button(ui, (m.width - m.dp(112), bottom + m.dp(8), m.width - m.dp(16), bottom + m.dp(64)), "SAVE",
                                _write_m3u(frame), "android:id/button1"))
    return [_in_package(node, DOCUMENTS_UI) for node in nodes]


def _in_package(node: Node, package: str) -> Node:
    """`node` and its children as another app's window shows them (the dump's `package`)."""
    return dataclasses.replace(node, package=package, children=[_in_package(child, package) for child in node.children])


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "library_menu": Screen(_library_menu), "song_menu": Screen(_song_menu),
     "add_to_playlist": Screen(_add_dialog),
     "new_playlist": Screen(_new_dialog), "selection_menu": Screen(_selection_menu), "playlist": Screen(_playlist, PLAYLIST_ACTIVITY),
     "playlist_menu": Screen(_playlist_menu, PLAYLIST_ACTIVITY), "save_document": Screen(_save_document, PLAYLIST_ACTIVITY)},
    first="main"))
