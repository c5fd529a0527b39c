"""Ladder kinds on files and media: Files (SPA's Files ladder: delete, move, then delete in a
folder), Audio Recorder (a recording, named, then a second) and Retro Music (SPA's Spotify
ladder: the queue, a new playlist, then another song in it)."""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Any, Callable

from taskkit.apps import audio_recorder, files, retro_music
from taskkit.apps.common import one_playlist
from taskkit.apps.spa.kind import NOISE_SEED, TEXT, Kind
from taskkit.device.base import Device
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, in_row_of, long_press, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.validators import CheckResult, Validator, all_of, file_absent, file_exists, row_exists
from taskkit.validators.base import Stateless

_FILE = {"type": "string", "pattern": r"^[^/\s]+\.[a-z0-9]+$"}
# The folders the storage root's first screen lists (folders come first, by name): the ladder's key
# component is the folder's name, so it must show on the final screen without scrolling.
SHOWN_FOLDERS = files.FOLDERS[:6]
_FOLDER = {"enum": list(SHOWN_FOLDERS)}


def _root(name: str) -> str:
    return posixpath.join(files.STORAGE_ROOT, name)


class FilesKind(Kind):
    """L1 a file deleted; L2 another moved into a folder; L3 a file deleted inside another folder."""

    app_names = ("files",)
    adds = (("file1", "noise_seed"), ("file2", "folder"), ("file3", "folder2"))
    properties = {"file1": _FILE, "noise_seed": NOISE_SEED, "file2": _FILE, "folder": _FOLDER, "file3": _FILE,
                  "folder2": _FOLDER}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        names = [files.random_file(rng)["name"] for _ in range(3)]
        while len(set(names)) < 3:
            names[2] = files.random_file(rng)["name"]
        folder, folder2 = rng.sample(SHOWN_FOLDERS, 2)
        return {"file1": names[0], "noise_seed": rng.getrandbits(32), "file2": names[1], "folder": folder,
                "file3": names[2], "folder2": folder2}

    def _at_root(self) -> list[str]:
        return [_root(self.p[name]) for name in ("file1", "file2") if name in self.p]

    def setup(self, env: TaskEnv) -> None:
        rng = TaskRng(self.p["noise_seed"])
        placed = self._at_root() + ([_root(posixpath.join(self.p["folder2"], self.p["file3"]))] if self.at(3) else [])
        for path in placed:
            env.device.files.write_text(path, files.random_file(rng)["content"])

    def extra_paths(self) -> tuple[str, ...]:
        return tuple(self._at_root())  # outside the Files app's folders

    def check(self) -> Validator:
        parts = [file_absent(_root(self.p["file1"]))]
        if self.at(2):
            parts += [file_absent(_root(self.p["file2"])), file_exists(_root(f"{self.p['folder']}/{self.p['file2']}"))]
        if self.at(3):
            parts.append(file_absent(_root(f"{self.p['folder2']}/{self.p['file3']}")))
        return all_of(*parts)

    def solve(self, env: TaskEnv) -> None:
        device = env.device
        device.files.remove(_root(self.p["file1"]))
        if self.at(2):
            device.check(f"mv {_root(self.p['file2'])} {_root(self.p['folder'])}/")
        if self.at(3):
            device.files.remove(_root(f"{self.p['folder2']}/{self.p['file3']}"))
        files.APP.launch(device)  # the storage root lists the folders

    def steps(self) -> list[Step]:
        steps = [open_app("files"), *_delete(self.p["file1"])]
        if self.at(2):
            steps += [long_press(self.p["file2"]), tap("More options"), tap("Move to\u2026"), tap(self.p["folder"]),
                      tap("button1")]
        if self.at(3):
            steps += [tap(self.p["folder2"]), *_delete(self.p["file3"])]
        return steps


def _delete(name: str) -> list[Step]:
    return [long_press(name), tap("action_menu_delete"), tap("button1")]


def _record_path(name: str) -> str:
    return posixpath.join(audio_recorder.RECORDS_DIR, name + audio_recorder.EXTENSION)


class RecordingKind(Kind):
    """L1 a recording; L2 renamed; L3 a second recording, named too."""

    app_names = ("audio recorder",)
    adds = (("seconds",), ("name",), ("name2",))
    properties = {"seconds": {"type": "integer", "minimum": 1, "maximum": 60}, "name": TEXT, "name2": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        name, name2 = audio_recorder.random_recording_name(rng), audio_recorder.random_recording_name(rng)
        while name2 == name:
            name2 = audio_recorder.random_recording_name(rng)
        return {"seconds": rng.randint(3, 30), "name": name, "name2": name2}

    def _names(self) -> list[str]:
        return [self.p[key] for key in ("name", "name2") if key in self.p] or ["Record-1"]

    def setup(self, env: TaskEnv) -> None:
        audio_recorder.reset(env.device)

    def check(self) -> Validator:
        parts = [file_exists(_record_path(name)) for name in self._names()]
        return all_of(*parts, *([file_absent(_record_path("Record-1"))] if self.at(2) else []))

    def solve(self, env: TaskEnv) -> None:
        for name in self._names():
            audio_recorder.save_recording(env.device, self.p["seconds"], name + audio_recorder.EXTENSION)
        audio_recorder.APP.launch(env.device)

    def steps(self) -> list[Step]:
        steps: list[Step] = [open_app("audio recorder")]
        for name in self._names():
            steps += [tap("btn_record"), tap("btn_record_stop")]
            if self.at(2):
                steps += [tap("txt_name"), type_text("input_name", name), tap("Save")]
        return steps


@dataclasses.dataclass(frozen=True)
class _Listed(Stateless):
    """What `read` lists on the device is exactly `expected` (a queue, a playlist's songs)."""

    read: Callable[[Device], list[str] | None]
    expected: tuple[str, ...]
    what: str

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        found = self.read(env.device)
        if found is not None and tuple(found) == self.expected:
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.what} holds {found!r}, expected {list(self.expected)!r}",))


class RetroKind(Kind):
    """L1 a song added to the playing queue; L2 a new playlist with another song; L3 a third song
    added to that playlist."""

    app_names = ("retro music",)
    adds = (("songs", "song1"), ("playlist", "song2"), ("song3",))
    properties = {"songs": {"type": "array", "items": TEXT, "minItems": 3}, "song1": TEXT, "playlist": TEXT,
                  "song2": TEXT, "song3": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        titles = rng.sample(retro_music.TITLES, 8)
        return {"songs": titles, "song1": titles[0], "playlist": retro_music.random_playlist_name(rng),
                "song2": titles[1], "song3": titles[2]}

    def _listed(self) -> list[str]:
        return [self.p[key] for key in ("song2", "song3") if key in self.p]

    def _library(self) -> list[dict[str, Any]]:
        """The songs in Music (tags and lengths follow from the titles)."""
        rng = TaskRng(0)
        return [retro_music.random_song(rng, title) for title in self.p["songs"]]

    def setup(self, env: TaskEnv) -> None:
        retro_music.reset(env.device)
        retro_music.write_songs(env.device, self._library())

    def teardown(self, env: TaskEnv) -> None:
        retro_music.reset(env.device)

    def check(self) -> Validator:
        """The queue and the playlist hold exactly their songs, in order (the row checks name the
        tables written: the app's two queue tables, its playlist and song entities)."""
        song1 = {"title": self.p["song1"]}
        parts: list[Validator] = [_Listed(retro_music.queue_titles, (self.p["song1"],), "the playing queue"),
                                  row_exists(retro_music.QUEUE, song1), row_exists(retro_music.ORIGINAL_QUEUE, song1)]
        if self.at(2):
            parts += [_Listed(self._playlist, tuple(self._listed()), f"playlist {self.p['playlist']!r}"),
                      row_exists(retro_music.PLAYLISTS, {"playlist_name": self.p["playlist"]}),
                      row_exists(retro_music.SONGS, {"title": self.p["song2"]})]
        return all_of(*parts)

    def _playlist(self, device: Device) -> list[str] | None:
        rows = one_playlist(retro_music.playlist_songs(device), self.p["playlist"])
        return None if rows is None else [row["title"] for row in rows]

    def solve(self, env: TaskEnv) -> None:
        songs = {song["title"]: retro_music.entry_of(song) for song in self._library()}
        retro_music.set_queue(env.device, [songs[self.p["song1"]]])
        if self.at(2):
            retro_music.create_playlist(env.device, self.p["playlist"], [songs[title] for title in self._listed()])
        retro_music.APP.launch(env.device)

    def steps(self) -> list[Step]:
        steps = [open_app("retro music"), tap("Songs"), tap(in_row_of(self.p["song1"], "menu")),
                 tap("Add to playing queue")]
        if self.at(2):
            steps += [tap(in_row_of(self.p["song2"], "menu")), tap("Add to playlist"), tap("New playlist"),
                      type_text("actionNewPlaylist", self.p["playlist"]), tap("Create")]
        if self.at(3):
            steps += [tap(in_row_of(self.p["song3"], "menu")), tap("Add to playlist"), tap(self.p["playlist"])]
        return steps

