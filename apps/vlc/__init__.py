"""VLC for Android (videolan/vlc-android, `org.videolan.vlc`): videos and playlists.

VLC's media library (videolan/medialibrary) keeps its catalogue in `app_db/vlc_media.db`: a
`Media` row per file it found (`filename` is the file's name, `title` the name without its
extension), `Playlist` rows, and `PlaylistMediaRelation` rows placing media in a playlist at a
`position` counted from 0 (AndroidWorld reads the same three tables; reference android-apps.md
§4.12). The library fills `Media` by scanning storage when the app starts; the simulated app
scans when its video list is shown. The tables here keep the columns tasks and screens use, with
the media library's names and types (medialibrary's Media.cpp / Playlist.cpp schema); the
library's other tables (files, folders, devices, albums, FTS indexes, triggers) are left out, and
`filename` collates NOCASE where the library registers its own FILENAME collation.

Videos are MP4s of pictures (`taskkit.apps.media.message_video`), as AndroidWorld writes its
videos: a random word or the task's messages, each shown for some seconds.
"""
from __future__ import annotations

import posixpath
import string
from typing import Any

from taskkit.apps import media
from taskkit.apps.base import App
from taskkit.apps.files import STORAGE_ROOT
from taskkit.apps.table import Database
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "org.videolan.vlc"
VIDEOS_DIR = f"{STORAGE_ROOT}/VLCVideos"  # AndroidWorld's VlcApp.videos_path
DB_DIR = f"/data/data/{PACKAGE}/app_db"
DB_PATH = f"{DB_DIR}/vlc_media.db"
VIDEO_EXTENSIONS = (".mp4", ".mkv", ".avi", ".mov", ".webm", ".3gp")
MEDIA_TYPE_VIDEO = 1  # IMedia::Type::Video

DDL = """
CREATE TABLE Media (
    id_media INTEGER PRIMARY KEY AUTOINCREMENT,
    type INTEGER,
    subtype INTEGER NOT NULL DEFAULT 0,
    duration INTEGER DEFAULT -1,
    last_position REAL DEFAULT -1,
    last_time INTEGER DEFAULT -1,
    play_count UNSIGNED INTEGER NOT NULL DEFAULT 0,
    last_played_date UNSIGNED INTEGER,
    insertion_date UNSIGNED INTEGER,
    release_date UNSIGNED INTEGER,
    title TEXT COLLATE NOCASE,
    filename TEXT COLLATE NOCASE,
    is_favorite BOOLEAN NOT NULL DEFAULT 0,
    is_present BOOLEAN NOT NULL DEFAULT 1,
    nb_playlists UNSIGNED INTEGER NOT NULL DEFAULT 0,
    folder_id UNSIGNED INTEGER,
    import_type UNSIGNED INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE Playlist (
    id_playlist INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT COLLATE NOCASE,
    creation_date UNSIGNED INT NOT NULL DEFAULT 0,
    artwork_mrl TEXT,
    nb_video UNSIGNED INT NOT NULL DEFAULT 0,
    nb_audio UNSIGNED INT NOT NULL DEFAULT 0,
    nb_unknown UNSIGNED INT NOT NULL DEFAULT 0,
    duration UNSIGNED INT NOT NULL DEFAULT 0,
    is_favorite BOOLEAN NOT NULL DEFAULT 0
);
CREATE TABLE PlaylistMediaRelation (
    media_id INTEGER,
    playlist_id INTEGER,
    position INTEGER,
    FOREIGN KEY(media_id) REFERENCES Media(id_media) ON DELETE NO ACTION,
    FOREIGN KEY(playlist_id) REFERENCES Playlist(id_playlist) ON DELETE CASCADE
);
"""
DATABASE = Database(DB_PATH, DDL)
#: The `Media` table (key `id_media`) of `/data/data/org.videolan.vlc/app_db/vlc_media.db`.
MEDIA = DATABASE.table("Media", "id_media")
#: The `Playlist` table (key `id_playlist`) of `/data/data/org.videolan.vlc/app_db/vlc_media.db`.
PLAYLISTS = DATABASE.table("Playlist", "id_playlist")
#: The `PlaylistMediaRelation` table (key `media_id`) of `/data/data/org.videolan.vlc/app_db/vlc_media.db`.
RELATIONS = DATABASE.table("PlaylistMediaRelation", "media_id")

PLAYLIST_FILES_SQL = (
    "SELECT Playlist.name AS playlist_name, Media.filename AS filename, "
    "PlaylistMediaRelation.position AS position FROM PlaylistMediaRelation "
    "JOIN Playlist ON Playlist.id_playlist = PlaylistMediaRelation.playlist_id "
    "JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id "
    "ORDER BY Playlist.name, PlaylistMediaRelation.position")

# Names of videos and playlists (taskkit's own word lists).
_PREFIXES = ("clip", "footage", "scene", "recording", "highlight", "moment", "episode", "take")
_SUFFIXES = ("", "HD", "4K", "raw", "export", "final")
_THEMES = ("Travel", "Family", "Cooking", "Workouts", "Birthday", "Hiking", "Concert", "Garden", "Wedding",
           "Science", "Road Trip", "Skate", "Holiday", "Pets", "Tutorials", "Beach Day")
_QUALIFIERS = ("Favorites", "Highlights", "Collection", "Marathon", "Picks", "Essentials", "Archive", "Reel")


def random_video_name(rng: TaskRng) -> str:
    """"clip_12_HD.mp4", sometimes with a date or version as people rename files."""
    stem = f"{rng.choice(_PREFIXES)}_{rng.randint(1, 99)}"
    suffix = rng.choice(_SUFFIXES)
    stem += f"_{suffix}" if suffix else ""
    variant = rng.randint(0, 3)
    if variant == 1:
        stem += f"_2023_{rng.randint(1, 12):02d}_{rng.randint(1, 28):02d}"
    elif variant == 2:
        stem += f"_v{rng.randint(2, 5)}"
    return f"{stem}.mp4"


def random_video_names(rng: TaskRng, n: int, exclude: set[str] | None = None) -> list[str]:
    """`n` distinct video names, none in `exclude`."""
    taken, names = set(exclude or ()), []
    while len(names) < n:
        name = random_video_name(rng)
        if name not in taken:
            taken.add(name)
            names.append(name)
    return names


def random_playlist_name(rng: TaskRng) -> str:
    """"Hiking Highlights"."""
    return f"{rng.choice(_THEMES)} {rng.choice(_QUALIFIERS)}"


def random_word(rng: TaskRng, length: int = 10) -> str:
    """A random string shown in a noise video (as AndroidWorld's random strings)."""
    return "".join(rng.choice(string.ascii_letters) for _ in range(length))


def write_video(device: Device, folder: str, name: str, messages: list[str], seconds_each: int) -> str:
    """Write a video showing `messages` for `seconds_each` seconds each; its path."""
    path = posixpath.join(folder, name)
    device.files.write_bytes(path, media.message_video(messages, seconds_each))
    return path


def is_video(name: str) -> bool:
    return name.lower().endswith(VIDEO_EXTENSIONS) and not name.startswith(".")


def title_of(filename: str) -> str:
    """The title the library gives a file: its name without the extension."""
    return posixpath.splitext(filename)[0]


def media_row(path: str, duration_ms: int, inserted_s: int = 0) -> dict[str, Any]:
    """The `Media` row the library's scan inserts for a video at `path`."""
    name = posixpath.basename(path)
    return {"type": MEDIA_TYPE_VIDEO, "duration": duration_ms, "title": title_of(name), "filename": name,
            "insertion_date": inserted_s, "is_present": 1}


def playlist_files(device: Device) -> list[dict[str, Any]]:
    """Every playlist's media in order: playlist_name, filename, position."""
    return device.sqlite.query(DB_PATH, PLAYLIST_FILES_SQL)


def create_playlist(device: Device, name: str, paths: list[str]) -> None:
    """A playlist `name` of the videos at `paths`, in order, as the app saves it (the media
    rows are added as the library's scan would)."""
    rows = MEDIA.rows(device)
    known = {row["filename"]: row["id_media"] for row in rows}
    next_id = 1 + max((row["id_media"] for row in rows), default=0)
    new = []
    for path in paths:
        if posixpath.basename(path) not in known:
            known[posixpath.basename(path)] = next_id
            new.append({"id_media": next_id, **media_row(path, media.mp4_duration_ms(device.files.read_bytes(path)) or 0)})
            next_id += 1
    playlist_id = 1 + max((row["id_playlist"] for row in PLAYLISTS.rows(device)), default=0)
    device.sqlite.execute(DB_PATH, "BEGIN;\n" + "\n".join(filter(None, (
        MEDIA.insert_statements(new),
        PLAYLISTS.insert_statements([{"id_playlist": playlist_id, "name": name, "nb_video": len(paths)}]),
        RELATIONS.insert_statements([{"media_id": known[posixpath.basename(path)], "playlist_id": playlist_id,
                                      "position": index} for index, path in enumerate(paths)])))) + "\nCOMMIT;")


def reset(device: Device) -> None:
    """An empty library and no videos in VLCVideos."""
    device.sqlite.execute(DB_PATH, f"{RELATIONS.clear_sql()} {PLAYLISTS.clear_sql()} {MEDIA.clear_sql()}")
    device.files.remove(VIDEOS_DIR, recursive=True)
    device.files.mkdir(VIDEOS_DIR)


APP = App(name="vlc", package=PACKAGE, aliases=("vlc player",), data_paths=(DB_DIR, VIDEOS_DIR),
          databases=(DATABASE,), tables=(MEDIA, PLAYLISTS, RELATIONS), reset=reset)
