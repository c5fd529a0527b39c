"""Retro Music tasks (AndroidWorld's RetroCreatePlaylist, RetroPlayingQueue, RetroSavePlaylist and
RetroPlaylistDuration).

Each starts from songs in Music (the task's songs among others) and no playlists. AndroidWorld
fuzzy-matches the playlist's name; taskkit wants the name as given (case and surrounding spaces
aside) and no second playlist of that name. The duration task also wants at least one song, each
one of the songs provided (AndroidWorld passes an empty database: a total of 0 is not between 45
and 50 minutes only because of the bounds).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import retro_music
from taskkit.apps.common import one_playlist, same_name
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, description, in_row_of, long_press, open_app, tap, type_text, where
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

# A song's title and a playlist's name become file names (Music/<title>.mp3, Download/<name>.m3u).
_FILE_NAME = {"type": "string", "pattern": r"^[^/\x00-\x1f]+$"}
_SONG_SCHEMA = {"type": "object", "properties": {
    "title": _FILE_NAME, "artist": {"type": "string"}, "album": {"type": "string"},
    "duration_ms": {"type": "integer", "minimum": 1000}}, "required": ["title", "artist", "album", "duration_ms"]}


def _open_songs() -> list[Step]:
    """Open the app (on its For you tab) and its Songs tab through the bottom navigation."""
    return [open_app("retro music"), tap("Songs")]


def _retro_playlist(name: str, titles: list[str]) -> list[Step]:
    """Select the songs in order (a long press, then taps) and add them to a new playlist `name`."""
    return (_open_songs() + [long_press(titles[0])] + [tap(title) for title in titles[1:]]
            + [tap("Add to playlist"), tap("New playlist"), type_text("actionNewPlaylist", name), tap("Create")])


def _split_sum(rng: TaskRng, total: int, parts: int, least: int = 30_000) -> list[int]:
    """`parts` integers of at least `least` summing to `total` (cut points drawn at random)."""
    spare = total - parts * least
    cuts = sorted(rng.sample(range(1, spare), parts - 1))
    bounds = [0, *cuts, spare]
    return [least + b - a for a, b in zip(bounds, bounds[1:])]


class RetroCreatePlaylist(TaskEval):
    """Create a playlist of the given songs, in order."""

    app_names = ("retro music",)
    complexity = 2.4  # AndroidWorld's
    min_songs, max_songs = 2, 5
    schema = {
        "type": "object",
        "properties": {"playlist_name": _FILE_NAME,
                       "songs": {"type": "array", "items": _SONG_SCHEMA, "minItems": 1},
                       "noise": {"type": "array", "items": _SONG_SCHEMA}},
        "required": ["playlist_name", "songs", "noise"],
    }
    template = ('Create a playlist in Retro Music titled "{{ playlist_name }}" with the following songs, in order: '
                '{{ songs | map(attribute="title") | join(", ") }}')

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        titles = rng.sample(retro_music.TITLES, 15)
        count = rng.randint(cls.min_songs, cls.max_songs)
        return {"playlist_name": retro_music.random_playlist_name(rng),
                "songs": [retro_music.random_song(rng, title) for title in titles[:count]],
                "noise": [retro_music.random_song(rng, title) for title in titles[count:]]}

    @property
    def titles(self) -> list[str]:
        return [song["title"] for song in self.params["songs"]]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        retro_music.reset(env.device)
        retro_music.write_songs(env.device, self.params["songs"] + self.params["noise"])

    def playlist_score(self, env: TaskEnv) -> float:
        songs = one_playlist(retro_music.playlist_songs(env.device), self.params["playlist_name"])
        return 1.0 if songs is not None and [row["title"] for row in songs] == self.titles else 0.0

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        return self.playlist_score(env)

    def teardown(self, env: TaskEnv) -> None:
        retro_music.reset(env.device)
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        retro_music.create_playlist(env.device, self.params["playlist_name"],
                                    [retro_music.entry_of(song) for song in self.params["songs"]])

    def gui_reference(self) -> list[Step]:
        return _retro_playlist(self.params["playlist_name"], [song["title"] for song in self.params["songs"]])


class RetroPlayingQueue(RetroCreatePlaylist):
    """Put the given songs, in order, in the playing queue."""

    complexity = 3.2
    template = ('Add the following songs, in order, {{ songs | map(attribute="title") | join(", ") }} to my playing '
                'queue in Retro music.')

    def is_successful(self, env: TaskEnv) -> float:
        TaskEval.is_successful(self, env)
        return 1.0 if retro_music.queue_titles(env.device) == self.titles else 0.0

    def solve(self, env: TaskEnv) -> None:
        retro_music.set_queue(env.device, [retro_music.entry_of(song) for song in self.params["songs"]])

    def gui_reference(self) -> list[Step]:
        steps = _open_songs()
        for song in self.params["songs"]:
            steps += [tap(in_row_of(song["title"], "menu")), tap("Add to playing queue")]
        return steps


class RetroSavePlaylist(RetroCreatePlaylist):
    """Create the playlist and export it to Download: half the score each.

    AndroidWorld's export half passes when `Download/<name>.m3u` exists; taskkit also wants the
    file to list the playlist's songs in order.
    """

    complexity = 5
    template = ('Create a playlist in Retro Music titled "{{ playlist_name }}" with the following songs, in order: '
                '{{ songs | map(attribute="title") | join(", ") }}. Then export the playlist to the Downloads '
                'directory on the device.')

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        env.device.files.remove(retro_music.export_path(self.params["playlist_name"]))

    def is_successful(self, env: TaskEnv) -> float:
        TaskEval.is_successful(self, env)
        files = env.device.files
        path = retro_music.export_path(self.params["playlist_name"])
        wanted = [retro_music.song_path(title) for title in self.titles]
        exported = files.exists(path) and retro_music.m3u_paths(files.read_text(path)) == wanted
        return (self.playlist_score(env) + (1.0 if exported else 0.0)) / 2

    def teardown(self, env: TaskEnv) -> None:
        env.device.files.remove(retro_music.export_path(self.params["playlist_name"]))
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        super().solve(env)
        entries = [retro_music.entry_of(song) for song in self.params["songs"]]
        env.device.files.write_text(retro_music.export_path(self.params["playlist_name"]), retro_music.m3u_text(entries))

    def gui_reference(self) -> list[Step]:
        overflow = description("More options") & where(lambda e: (e.class_name or "").endswith("ImageButton"),
                                                        "the overflow button")
        return super().gui_reference() + [tap("Playlists"), tap(self.params["playlist_name"]), tap(overflow),
                                          tap("Save as file"), tap("SAVE")]


class RetroPlaylistDuration(RetroCreatePlaylist):
    """Create a playlist lasting 45 to 50 minutes from the songs provided.

    The songs that are the task's own add up to 47.5 minutes (the others last 3 to 5 minutes
    each), so an answer exists.
    """

    complexity = 3
    min_songs, max_songs = 9, 11
    template = ('Create a playlist in Retro Music titled "{{ playlist_name }}" with a duration between 45 and 50 '
                'minutes using the provided songs.')

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        params = super().generate_random_params(rng)
        for song, duration in zip(params["songs"], _split_sum(rng, 47 * 60_000 + 30_000, len(params["songs"]))):
            song["duration_ms"] = duration
        return params

    def is_successful(self, env: TaskEnv) -> float:
        TaskEval.is_successful(self, env)
        rows = retro_music.playlist_songs(env.device)
        provided = {song["title"] for song in self.params["songs"] + self.params["noise"]}
        if not rows or any(not same_name(row["playlist_name"], self.params["playlist_name"])
                           or row["title"] not in provided for row in rows):
            return 0.0
        return 1.0 if 45 * 60_000 <= sum(row["duration"] for row in rows) <= 50 * 60_000 else 0.0

    def gui_reference(self) -> list[Step]:
        """Select the songs (a long press, then taps) and add them to a new playlist."""
        return _retro_playlist(self.params["playlist_name"], [song["title"] for song in self.params["songs"]])
