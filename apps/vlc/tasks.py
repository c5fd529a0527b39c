"""VLC tasks (AndroidWorld's VlcCreatePlaylist and VlcCreateTwoPlaylists).

Each starts with an empty library and videos in VLCVideos: the task's own and as many others.
AndroidWorld fuzzy-matches the playlist's name; taskkit wants the name as given (case and
surrounding spaces aside), once, with exactly the files in order at positions 0, 1, 2, …
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import vlc
from taskkit.apps.common import one_playlist
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, in_row_of, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

_NAMES = {"type": "array", "items": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+\.mp4$"}, "minItems": 1}


def playlist_holds(rows: list[dict[str, Any]], name: str, files: list[str]) -> bool:
    """One playlist called `name` lists exactly `files` in order, at positions 0, 1, 2, …"""
    entries = one_playlist(rows, name)
    return entries is not None and [(row["position"], row["filename"]) for row in entries] == list(enumerate(files))


def random_playlist(rng: TaskRng, taken: set[str]) -> dict[str, Any]:
    """A playlist name, its 2–5 files and as many noise videos (no name in `taken`)."""
    count = rng.randint(2, 5)
    names = vlc.random_video_names(rng, 2 * count, taken)
    taken.update(names)
    return {"playlist_name": vlc.random_playlist_name(rng), "files": names[:count], "noise_files": names[count:],
            "words": [vlc.random_word(rng) for _ in names], "seconds": [rng.randint(20, 180) for _ in names]}


def write_videos(env: TaskEnv, playlist: dict[str, Any]) -> None:
    """The playlist's videos and its noise videos, each showing a random word."""
    for name, word, seconds in zip(playlist["files"] + playlist["noise_files"], playlist["words"], playlist["seconds"]):
        vlc.write_video(env.device, vlc.VIDEOS_DIR, name, [word], seconds)


def playlist_steps(name: str, files: list[str]) -> list[Step]:
    """In VLC's video list: add each file to the playlist `name` from its row's menu (the first creates it)."""
    steps: list[Step] = []
    for index, file_name in enumerate(files):
        steps += [tap(in_row_of(file_name.rsplit(".", 1)[0], "item_more")), tap("Add to playlist")]
        steps += [type_text("dialog_playlist_name", name), tap("Save")] if index == 0 else [tap(name)]
    return steps


class VlcCreatePlaylist(TaskEval):
    """Create a playlist of the given videos, in order."""

    app_names = ("vlc",)
    complexity = 2.8  # AndroidWorld's
    schema = {
        "type": "object",
        "properties": {"playlist_name": {"type": "string"}, "files": _NAMES, "noise_files": _NAMES,
                       "words": {"type": "array", "items": {"type": "string"}},
                       "seconds": {"type": "array", "items": {"type": "integer", "minimum": 1}}},
        "required": ["playlist_name", "files", "noise_files", "words", "seconds"],
    }
    template = ('Create a playlist titled "{{ playlist_name }}" with the following files in VLC (located in Internal '
                'Memory/VLCVideos), in order: {{ files | join(", ") }}')

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return random_playlist(rng, set())

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        vlc.reset(env.device)
        write_videos(env, self.params)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        rows = vlc.playlist_files(env.device)
        return 1.0 if playlist_holds(rows, self.params["playlist_name"], self.params["files"]) else 0.0

    def teardown(self, env: TaskEnv) -> None:
        vlc.reset(env.device)
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        vlc.create_playlist(env.device, self.params["playlist_name"],
                            [f"{vlc.VIDEOS_DIR}/{name}" for name in self.params["files"]])

    def gui_reference(self) -> list[Step]:
        return [open_app("vlc")] + playlist_steps(self.params["playlist_name"], self.params["files"])


class VlcCreateTwoPlaylists(TaskEval):
    """Create two playlists: half the score each."""

    app_names = ("vlc",)
    complexity = 4.8  # AndroidWorld's
    schema = {"type": "object",
              "properties": {"first": VlcCreatePlaylist.schema, "second": VlcCreatePlaylist.schema},
              "required": ["first", "second"]}
    template = ('Create a playlist titled "{{ first.playlist_name }}" with the following files in VLC (located in '
                'Internal Memory/VLCVideos), in order: {{ first.files | join(", ") }}. And then, create a playlist '
                'titled "{{ second.playlist_name }}" with the following files in VLC, in order: '
                '{{ second.files | join(", ") }}.')

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        taken: set[str] = set()
        first = random_playlist(rng, taken)
        second = random_playlist(rng, taken)
        while second["playlist_name"] == first["playlist_name"]:
            second["playlist_name"] = vlc.random_playlist_name(rng)
        return {"first": first, "second": second}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        vlc.reset(env.device)
        write_videos(env, self.params["first"])
        write_videos(env, self.params["second"])

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        rows = vlc.playlist_files(env.device)
        return sum(0.5 for part in ("first", "second")
                   if playlist_holds(rows, self.params[part]["playlist_name"], self.params[part]["files"]))

    def teardown(self, env: TaskEnv) -> None:
        vlc.reset(env.device)
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        for part in ("first", "second"):
            vlc.create_playlist(env.device, self.params[part]["playlist_name"],
                                [f"{vlc.VIDEOS_DIR}/{name}" for name in self.params[part]["files"]])

    def gui_reference(self) -> list[Step]:
        first, second = self.params["first"], self.params["second"]
        return ([open_app("vlc")] + playlist_steps(first["playlist_name"], first["files"])
                + playlist_steps(second["playlist_name"], second["files"]))
