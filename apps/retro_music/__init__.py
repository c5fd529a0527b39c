"""Retro Music (RetroMusicPlayer/RetroMusicPlayer, `code.name.monkey.retromusic`): songs, playlists
and the playing queue.

Songs are the audio files of the media store; the simulated library is the MP3 files of
`Music/` (ID3 title, artist, album, length; `taskkit.apps.media`), each with a stable
media-store id (a CRC-32 of its path: the real id is the media store's row number). Playlists
live in the Room database `databases/playlist.db` (db/PlaylistEntity.kt, db/SongEntity.kt: one
`SongEntity` row per song of a playlist, its order the order of `song_key`); the playing queue
in `databases/music_playback_state.db` (providers/MusicPlaybackQueueStore.java: tables
`playing_queue` and `original_playing_queue`, one row per queued song in queue order). "Save as
file" writes an extended M3U (helper/M3UWriter.kt: `#EXTM3U`, then per song `#EXTINF:<duration
in ms>,<artist> - <title>` and the file's path). Not modelled: the history and play-count
tables of playlist.db (HistoryEntity, PlayCountEntity).
"""
from __future__ import annotations

import posixpath
import zlib
from typing import Any

from taskkit.apps import media
from taskkit.apps.base import App
from taskkit.apps.files import DOWNLOAD_DIR, STORAGE_ROOT
from taskkit.apps.table import Database
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "code.name.monkey.retromusic"
MUSIC_DIR = f"{STORAGE_ROOT}/Music"
DB_DIR = f"/data/data/{PACKAGE}/databases"
PLAYLIST_DB = f"{DB_DIR}/playlist.db"
PLAYBACK_DB = f"{DB_DIR}/music_playback_state.db"
QUEUE_TABLES = ("playing_queue", "original_playing_queue")

PLAYLIST_DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE PlaylistEntity (
    playlist_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    playlist_name TEXT NOT NULL
);
CREATE TABLE SongEntity (
    song_key INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    playlist_creator_id INTEGER NOT NULL,
    id INTEGER NOT NULL,
    title TEXT NOT NULL,
    track_number INTEGER NOT NULL,
    year INTEGER NOT NULL,
    duration INTEGER NOT NULL,
    data TEXT NOT NULL,
    date_modified INTEGER NOT NULL,
    album_id INTEGER NOT NULL,
    album_name TEXT NOT NULL,
    artist_id INTEGER NOT NULL,
    artist_name TEXT NOT NULL,
    composer TEXT,
    album_artist TEXT
);
CREATE UNIQUE INDEX index_SongEntity_playlist_creator_id_id ON SongEntity (playlist_creator_id, id);
"""
_QUEUE_COLUMNS = ("_id INT NOT NULL, title STRING NOT NULL, track INT NOT NULL, year INT NOT NULL, "
                  "duration LONG NOT NULL, _data STRING NOT NULL, date_modified LONG NOT NULL, "
                  "album_id INT NOT NULL, album STRING NOT NULL, artist_id INT NOT NULL, "
                  "artist STRING NOT NULL, composer STRING, album_artist STRING")
CLEAR_QUEUE_SQL = " ".join(f"DELETE FROM {table};" for table in QUEUE_TABLES)
PLAYBACK_DDL = "CREATE TABLE android_metadata (locale TEXT);\nINSERT INTO android_metadata VALUES ('en_US');\n" + "".join(
    f"CREATE TABLE {table} ({_QUEUE_COLUMNS});\n" for table in QUEUE_TABLES)

PLAYLISTS_DATABASE = Database(PLAYLIST_DB, PLAYLIST_DDL)
PLAYBACK_DATABASE = Database(PLAYBACK_DB, PLAYBACK_DDL)
#: The `PlaylistEntity` table (key `playlist_id`) of `/data/data/code.name.monkey.retromusic/databases/playlist.db`.
PLAYLISTS = PLAYLISTS_DATABASE.table("PlaylistEntity", "playlist_id")
#: The `SongEntity` table (key `song_key`) of `/data/data/code.name.monkey.retromusic/databases/playlist.db`.
SONGS = PLAYLISTS_DATABASE.table("SongEntity", "song_key")
#: The `playing_queue` table (key `_id`) of `/data/data/code.name.monkey.retromusic/databases/music_playback_state.db`.
QUEUE = PLAYBACK_DATABASE.table("playing_queue", "_id")
#: The `original_playing_queue` table (key `_id`) of `/data/data/code.name.monkey.retromusic/databases/music_playback_state.db`.
ORIGINAL_QUEUE = PLAYBACK_DATABASE.table("original_playing_queue", "_id")

PLAYLIST_SONGS_SQL = (
    "SELECT p.playlist_name AS playlist_name, s.title AS title, s.duration AS duration, s.data AS data "
    "FROM PlaylistEntity p JOIN SongEntity s ON p.playlist_id = s.playlist_creator_id "
    "ORDER BY p.playlist_name, s.song_key")

# Titles of songs (taskkit's own), and the themes of playlist names.
TITLES = (
    "Paper Lanterns", "Northbound Train", "Copper Sky", "Salt and Honey", "Quiet Harbor", "Glass Orchard",
    "Neon Rain", "Afterglow Avenue", "Wild Clover", "Static Hearts", "Harbor Lights", "Velvet Morning",
    "Cinder Road", "Blue Hour", "Lighthouse Keeper", "Summer Static", "Falling Upward", "Midnight Ferry",
    "Tin Roof Rain", "Open Water", "Golden Hollow", "Sparrow Song", "Distant Thunder", "Painted Desert",
    "Satellite Waltz", "Winter Orchard", "Silver Lining", "Crooked River", "Evening Bells", "Paper Planes",
    "Ember Glow", "Tidal Drift", "Maple Street", "Sunday Drive", "Starlit Porch", "Ocean Floor",
)
_THEMES = (
    "Road Trip", "Morning Run", "Late Night", "Focus Flow", "Sunday Chill", "Dinner Party", "Rainy Day",
    "Gym Session", "Summer Hits", "Deep Work", "Throwback", "Acoustic Evening", "Weekend Mix", "Commute",
    "Study Beats", "Garden Party", "Slow Dance", "Cozy Cabin",
)


def random_playlist_name(rng: TaskRng) -> str:
    """"Road Trip 214": a theme and a number, as people number their mixes."""
    return f"{rng.choice(_THEMES)} {rng.randint(1, 999)}"


def random_song(rng: TaskRng, title: str, duration_ms: int | None = None) -> dict[str, Any]:
    """A song's tags: `title`, an artist (Faker), an album, and 3–5 minutes unless `duration_ms`."""
    return {"title": title, "artist": rng.faker.name(), "album": f"{rng.faker.word().title()} Sessions",
            "duration_ms": duration_ms if duration_ms is not None else rng.randint(3 * 60_000, 5 * 60_000)}


def song_path(title: str) -> str:
    return posixpath.join(MUSIC_DIR, f"{title}.mp3")


def song_id(path: str) -> int:
    """The song's media-store id (stable per path)."""
    return zlib.crc32(path.encode()) & 0x7FFFFFFF


def write_songs(device: Device, songs: list[dict[str, Any]]) -> None:
    """Write each song as `Music/<title>.mp3` (one push per song)."""
    for song in songs:
        tags = media.SongTags(song["title"], song["artist"], song["album"], song["duration_ms"])
        device.files.write_bytes(song_path(song["title"]), media.mp3_bytes(tags))


def library_entry(path: str, tags: media.SongTags, modified_s: int = 0) -> dict[str, Any]:
    """What the app knows of a song file: the columns its tables copy."""
    return {"id": song_id(path), "title": tags.title or posixpath.splitext(posixpath.basename(path))[0],
            "duration": tags.duration_ms, "data": path, "date_modified": modified_s,
            "album_id": zlib.crc32(tags.album.encode()) & 0xFFFF, "album_name": tags.album,
            "artist_id": zlib.crc32(tags.artist.encode()) & 0xFFFF, "artist_name": tags.artist}


def entry_of(song: dict[str, Any]) -> dict[str, Any]:
    """The library entry of a song written by `write_songs`."""
    path = song_path(song["title"])
    return library_entry(path, media.SongTags(song["title"], song["artist"], song["album"],
                                              media.mp3_length_ms(song["duration_ms"])))


def song_entity(playlist_id: int, entry: dict[str, Any]) -> dict[str, Any]:
    """A SongEntity row: `entry` in playlist `playlist_id`."""
    return {"playlist_creator_id": playlist_id, "track_number": 0, "year": 0, "composer": None,
            "album_artist": None, **entry}


def queue_row(entry: dict[str, Any]) -> dict[str, Any]:
    """A playing_queue row of a library entry."""
    return {"_id": entry["id"], "title": entry["title"], "track": 0, "year": 0, "duration": entry["duration"],
            "_data": entry["data"], "date_modified": entry["date_modified"], "album_id": entry["album_id"],
            "album": entry["album_name"], "artist_id": entry["artist_id"], "artist": entry["artist_name"],
            "composer": None, "album_artist": None}


def playlist_songs(device: Device) -> list[dict[str, Any]]:
    """Every playlist's songs, by playlist name then order: playlist_name, title, duration, data."""
    return device.sqlite.query(PLAYLIST_DB, PLAYLIST_SONGS_SQL)


def create_playlist(device: Device, name: str, songs: list[dict[str, Any]]) -> None:
    """A playlist `name` holding `songs` (library entries) in order, as the app saves it."""
    playlist_id = 1 + max((row["playlist_id"] for row in PLAYLISTS.rows(device)), default=0)
    PLAYLISTS.insert(device, [{"playlist_id": playlist_id, "playlist_name": name}])
    SONGS.insert(device, [song_entity(playlist_id, entry) for entry in songs])


def queue_titles(device: Device) -> list[str]:
    """The playing queue's titles in queue order."""
    return [row["title"] for row in device.sqlite.query(PLAYBACK_DB, "SELECT title FROM playing_queue ORDER BY rowid")]


def set_queue(device: Device, songs: list[dict[str, Any]]) -> None:
    """Make `songs` (library entries) the playing queue."""
    rows = [queue_row(entry) for entry in songs]
    device.sqlite.execute(PLAYBACK_DB, "\n".join((CLEAR_QUEUE_SQL, QUEUE.insert_statements(rows),
                                                 ORIGINAL_QUEUE.insert_statements(rows))))


def m3u_text(songs: list[dict[str, Any]]) -> str:
    """The extended M3U "Save as file" writes for `songs` (library entries)."""
    lines = ["#EXTM3U"]
    for entry in songs:
        label = " ".join(f"{entry['artist_name']} - {entry['title']}".splitlines())  # one line per entry
        lines += [f"#EXTINF:{entry['duration']},{label}", entry["data"]]
    return "\n".join(lines)


def m3u_paths(text: str) -> list[str]:
    """The file paths an M3U lists, in order."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def export_path(name: str) -> str:
    """Where the task expects "Save as file" to put playlist `name` (the save screen's start: Download)."""
    return posixpath.join(DOWNLOAD_DIR, f"{name}.m3u")


def reset(device: Device) -> None:
    """No playlists, an empty queue, no songs in Music."""
    device.sqlite.execute(PLAYLIST_DB, f"{PLAYLISTS.clear_sql()} {SONGS.clear_sql()}")
    device.sqlite.execute(PLAYBACK_DB, CLEAR_QUEUE_SQL)
    device.files.remove(MUSIC_DIR, recursive=True)
    device.files.mkdir(MUSIC_DIR)


APP = App(name="retro music", package=PACKAGE, aliases=("retro", "retro player"),
          data_paths=(DB_DIR, MUSIC_DIR, DOWNLOAD_DIR),  # Download: where "Save as file" writes playlists
          databases=(PLAYLISTS_DATABASE, PLAYBACK_DATABASE),
          tables=(PLAYLISTS, SONGS, QUEUE, ORIGINAL_QUEUE), reset=reset)
