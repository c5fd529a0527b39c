"""VLC: the Video tab (every video in internal storage), a video's menu (Play, Add to playlist),
the Add to playlist dialog (the playlists, or a new one by name), the Playlists tab with a
playlist's videos in order, and the video player, over the video files and the media library
database the VLC checks read.

Ids and labels follow videolan/vlc-android (res/layout/video_list_card.xml: `ml_item_title`,
`ml_item_time`, `item_more` described "More Actions"; res/layout/dialog_playlist.xml:
`dialog_playlist_name`, `dialog_playlist_save`; res/layout/player_hud.xml:
`player_overlay_seekbar`, `player_overlay_time`, `player_overlay_length`,
`player_overlay_rewind`, `player_overlay_forward`; strings "Video", "Playlists", "Play",
"Add to playlist", "Save"). The player shows the video's picture at the current position
(screenshots draw it; the tree names only the video), and moves by the seek bar (a tap seeks to
that point) or ±10 s; time stands still on the simulator, so playing does not move it.
Files opens a video in the player through its "Open with" chooser (a VIEW intent with the
video's content URI, as DocumentsUI sends it). Simplified: the library's scan happens when a video is first added to a playlist (VLC scans on
start), titles are file names without their extension; no Audio, Browse or More tabs, no
multi-selection, sorting, grouping, thumbnails, subtitles or resume points.
"""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import files, media, vlc
from taskkit.apps.files import STORAGE_ROOT
from taskkit.apps.vlc import DB_PATH, PACKAGE
from taskkit.sim.gui import appdata, openwith, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
PLAYER = ".gui.video.VideoPlayerActivity"
PLAYLIST = ".gui.HeaderMediaListActivity"
_TABS = ("Video", "Playlists")
_SKIPPED = ("Android",)
_JUMP_MS = 10_000


def videos(ui: Session, folder: str = STORAGE_ROOT, depth: int = 3) -> list[str]:
    """Every video file under `folder` (hidden folders and Android/ left out), by title."""
    found = []
    for name, is_dir, _ in appdata.listing(ui, folder):
        path = posixpath.join(folder, name)
        if is_dir and depth and not name.startswith(".") and not (folder == STORAGE_ROOT and name in _SKIPPED):
            found += videos(ui, path, depth - 1)
        elif not is_dir and vlc.is_video(name):
            found.append(path)
    return sorted(found, key=lambda p: vlc.title_of(posixpath.basename(p)).casefold()) if folder == STORAGE_ROOT else found


def _duration(ui: Session, path: str) -> int:
    return media.mp4_duration_ms(appdata.host(ui, path).read_bytes()) or 0


def _clock(ms: int) -> str:
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _media_id(ui: Session, path: str) -> int:
    """The video's Media row, inserted as the library's scan would when it is not there yet."""
    found = appdata.rows(ui, DB_PATH, "SELECT id_media FROM Media WHERE filename = ?", (posixpath.basename(path),))
    if found:
        return int(found[0]["id_media"])
    return appdata.insert(ui, DB_PATH, "Media", vlc.media_row(path, _duration(ui, path), ui.state.clock_epoch))


def _playlists(ui: Session) -> list[dict[str, Any]]:
    return appdata.rows(ui, DB_PATH, "SELECT id_playlist, name, (SELECT count(*) FROM PlaylistMediaRelation WHERE "
                        "playlist_id = id_playlist) AS items FROM Playlist ORDER BY name")


def _append(ui: Session, playlist_id: int, path: str) -> None:
    """The video at the end of the playlist (positions count from 0)."""
    media_id = _media_id(ui, path)
    position = appdata.rows(ui, DB_PATH, "SELECT count(*) AS n FROM PlaylistMediaRelation WHERE playlist_id = ?",
                            (playlist_id,))[0]["n"]
    appdata.insert(ui, DB_PATH, "PlaylistMediaRelation", {"media_id": media_id, "playlist_id": playlist_id,
                                                          "position": position})
    appdata.write(ui, DB_PATH, "UPDATE Playlist SET nb_video = nb_video + 1 WHERE id_playlist = ?", (playlist_id,))
    appdata.write(ui, DB_PATH, "UPDATE Media SET nb_playlists = nb_playlists + 1 WHERE id_media = ?", (media_id,))


def _video_row(ui: Session, path: str) -> widgets.Row:
    menu = ("More Actions", f"{ID}item_more", lambda s: s.push("video_menu", path=path))
    return widgets.Row(ui.m.dp(72), lambda box: widgets.list_item_with_menu(
        ui, box, vlc.title_of(posixpath.basename(path)), _clock(_duration(ui, path)), menu,
        action=lambda s: s.push("player", path=path, at=0), title_rid=f"{ID}ml_item_title",
        subtitle_rid=f"{ID}ml_item_time"))


def _main(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    tab = str(frame.args.get("tab") or "Video")
    nodes, top = widgets.app_bar(ui, tab, up=False, rid=f"{ID}main_toolbar")
    navigation, bottom = widgets.bottom_navigation(ui, _TABS, f"{ID}navigation",
                                                   lambda t: lambda s: s.replace("main", tab=t))
    if tab == "Video":
        rows = [_video_row(ui, path) for path in videos(ui)]
        empty = "No videos"
    else:
        rows = [widgets.Row(m.dp(72), lambda box, p=playlist: widgets.list_item(
                    ui, box, p["name"], f"{p['items']} videos", title_rid=f"{ID}title", subtitle_rid=f"{ID}subtitle",
                    action=lambda s: s.push("playlist", playlist_id=p["id_playlist"], name=p["name"])))
                for playlist in _playlists(ui)]
        empty = "No playlists"
    return nodes + [widgets.list_or_empty(ui, frame, top, rows, f"{ID}video_grid", empty, f"{ID}empty", bottom=bottom,
                                          name=tab), navigation]


def _video_menu(ui: Session, frame: Frame) -> list[Node]:
    path = str(frame.args["path"])
    return widgets.popup_menu(ui, [("Play", lambda s: s.push("player", path=path, at=0)),
                                   ("Add to playlist", lambda s: s.push("add_to_playlist", path=path))])


def _save(frame: Frame):
    def act(ui: Session) -> None:
        name = ui.draft(frame, "name").strip()
        if not name:
            return
        found = appdata.rows(ui, DB_PATH, "SELECT id_playlist FROM Playlist WHERE name = ?", (name,))
        playlist_id = found[0]["id_playlist"] if found else appdata.insert(
            ui, DB_PATH, "Playlist", {"name": name, "creation_date": ui.state.clock_epoch})
        _append(ui, int(playlist_id), str(frame.args["path"]))
        ui.finish()
    return act


def _add_dialog(ui: Session, frame: Frame) -> list[Node]:
    """SavePlaylistDialog: the playlists (a tap appends the video), a new playlist's name, Save."""
    path = str(frame.args["path"])
    choices = [(p["name"], lambda s, pid=int(p["id_playlist"]): (_append(s, pid, path), s.finish()))
               for p in _playlists(ui)]

    def body(box):
        x1, y1, x2, _ = box
        y = y1 + ui.m.dp(48) * len(choices)
        return widgets.choice_rows(ui, box, choices, f"{ID}title") + [widgets.edit_text(
            ui, frame, "name", (x1, y, x2, y + ui.m.dp(56)), "Playlist name", f"{ID}dialog_playlist_name")]
    return widgets.dialog(ui, "Add to playlist", body=body, body_dp=48 * len(choices) + 64,
                          positive=("Save", _save(frame)))


def _playlist(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = widgets.app_bar(ui, str(frame.args["name"]), rid=f"{ID}main_toolbar")
    items = appdata.rows(ui, DB_PATH, "SELECT Media.filename AS filename, Media.duration AS duration FROM "
                         "PlaylistMediaRelation JOIN Media ON Media.id_media = media_id WHERE playlist_id = ? "
                         "ORDER BY position", (int(frame.args["playlist_id"]),))
    rows = [widgets.Row(m.dp(72), lambda box, item=item: widgets.list_item(
                ui, box, vlc.title_of(item["filename"]), _clock(int(item["duration"] or 0)),
                title_rid=f"{ID}ml_item_title", subtitle_rid=f"{ID}ml_item_time"))
            for item in items]
    return nodes + [widgets.list_or_empty(ui, frame, top, rows, f"{ID}songs", "This playlist is empty")]


def _seek(frame: Frame, to_ms: int):
    return lambda ui: ui.replace("player", path=frame.args["path"], at=max(0, to_ms))


def _player(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    path = str(frame.args["path"])
    length = _duration(ui, path)
    at = min(int(frame.args.get("at") or 0), max(0, length - 1))
    bar_top = m.content_bottom - m.dp(120)
    title = widgets.text(ui, (m.dp(16), m.status_bar + m.dp(8), m.width - m.dp(16), m.status_bar + m.dp(48)),
                         vlc.title_of(posixpath.basename(path)), f"{ID}player_overlay_title", size_dp=18)
    picture = Node("android.view.SurfaceView", resource_id=f"{ID}player_surface", bounds=(0, m.status_bar, m.width, bar_top),
                   image=f"{appdata.host(ui, path)}#t={at}", background=(0, 0, 0),
                   content_desc=posixpath.basename(path), children=[title])
    left, right = m.dp(72), m.width - m.dp(72)

    def seek_to(ui_: Session, fraction: float) -> None:
        _seek(frame, int(length * fraction))(ui_)

    seekbar = Node("android.widget.SeekBar", resource_id=f"{ID}player_overlay_seekbar",
                   bounds=(left, bar_top, right, bar_top + m.dp(40)), text=f"{100 * at // max(1, length)}%",
                   focusable=True, slide=seek_to)
    times = [widgets.text(ui, (m.dp(8), bar_top, left, bar_top + m.dp(40)), _clock(at), f"{ID}player_overlay_time"),
             widgets.text(ui, (right, bar_top, m.width - m.dp(8), bar_top + m.dp(40)), _clock(length),
                          f"{ID}player_overlay_length")]
    row = bar_top + m.dp(56)
    buttons = [widgets.icon_button(ui, (m.width // 2 - m.dp(120), row, m.width // 2 - m.dp(64), row + m.dp(56)),
                                   "Rewind 10 seconds", _seek(frame, at - _JUMP_MS), f"{ID}player_overlay_rewind"),
               widgets.icon_button(ui, (m.width // 2 + m.dp(64), row, m.width // 2 + m.dp(120), row + m.dp(56)),
                                   "Forward 10 seconds", _seek(frame, at + _JUMP_MS), f"{ID}player_overlay_forward")]
    return [picture, seekbar, *times, *buttons]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    """A VIEW intent with a video's URI plays it (from its start)."""
    path = files.path_of_uri(intent.data) if intent is not None and intent.data else None
    if path is not None:
        return [Opening("main"), Opening("player", {"path": path, "at": 0}, activity=activity)]
    return None


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_main), "video_menu": Screen(_video_menu), "add_to_playlist": Screen(_add_dialog),
     "playlist": Screen(_playlist, PLAYLIST), "player": Screen(_player, PLAYER)},
    first="main", opener=_opener))
openwith.register_viewer(vlc.VIDEO_EXTENSIONS, openwith.Viewer("VLC", PACKAGE, PACKAGE + PLAYER, "video/mp4",
                                                               files.document_uri))
