"""AndroidLens' multi-step single-goal tasks (its supplement, Table 8, domain-specific): one goal
that takes several dependent steps, each a milestone the next one needs, in an ordered group.

A playlist holding two songs in order (the playlist, then its first song, then the second after
it), a note archived into a new folder (the folder, the note copied in, the note gone from where
it was) and a note filed two folders deep (the folder, the folder inside it, the note inside
that). Each milestone is a state the app writes on the way, read from the device; the goal is
met when the last one is, and each must still hold at the end.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from taskkit.apps import markor, retro_music
from taskkit.apps.androidlens import steps as st
from taskkit.apps.androidlens.goals import Goal, LensTask, object_schema as _schema
from taskkit.apps.common import one_playlist
from taskkit.apps.table import Table
from taskkit.device.base import Device
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, in_row_of, long_press, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.validators import all_of, file_absent, file_content, folder_exists, row_exists
from taskkit.validators.base import CheckResult, Stateless

TAGS = ("androidlens", "category:domain-specific", "subcategory:multi-step-single-goal")


@dataclasses.dataclass(frozen=True)
class _PlaylistStarts(Stateless):
    """The playlist `name` begins with `titles`, in order."""

    name: str
    titles: tuple[str, ...]
    reads: ClassVar[tuple[Table, ...]] = (retro_music.PLAYLISTS, retro_music.SONGS)  # for the side-effect check

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        rows = one_playlist(retro_music.playlist_songs(env.device), self.name)
        held = [row["title"] for row in rows or []]
        if held[:len(self.titles)] == list(self.titles):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"playlist {self.name!r} holds {held if rows is not None else None}, "
                                 f"expected it to begin with {list(self.titles)}",))


class AndroidLensPlaylistInOrder(LensTask):
    """A new Retro Music playlist holding two songs in order: it must exist before a song goes in,
    and the second song goes in after the first."""

    app_names = ("retro music",)
    complexity = 2.2
    difficulty, optimal_steps = "medium", 10
    tags = TAGS + ("retro_music",)
    template = ("In Retro Music, make a playlist named '{{ playlist }}' that plays '{{ song1 }}' and then "
                "'{{ song2 }}'.")
    schema = _schema(songs={"type": "array", "items": {"type": "string"}, "minItems": 2}, playlist={"type": "string"},
                     song1={"type": "string"}, song2={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        titles = rng.sample(retro_music.TITLES, 6)
        return {"songs": titles, "playlist": retro_music.random_playlist_name(rng), "song1": titles[0],
                "song2": titles[1]}

    def _entries(self) -> dict[str, dict[str, Any]]:
        rng = TaskRng(0)  # tags and lengths follow from the titles
        return {title: retro_music.entry_of(retro_music.random_song(rng, title)) for title in self.params["songs"]}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        retro_music.reset(env.device)
        rng = TaskRng(0)
        retro_music.write_songs(env.device, [retro_music.random_song(rng, title) for title in self.params["songs"]])

    def teardown(self, env: TaskEnv) -> None:
        retro_music.reset(env.device)
        super().teardown(env)

    def goal_groups(self):
        name, first, second = self.params["playlist"], self.params["song1"], self.params["song2"]

        def write(*titles: str):
            return lambda env: retro_music.create_playlist(env.device, name, [self._entries()[t] for t in titles])
        made = Goal("playlist", row_exists(retro_music.PLAYLISTS, {"playlist_name": name}), write(), must_hold=True)
        return [(True, [made, Goal("first_song", _PlaylistStarts(name, (first,)), write(first), must_hold=True),
                        Goal("second_song", _PlaylistStarts(name, (first, second)), write(first, second),
                             must_hold=True)])]

    def solve(self, env: TaskEnv) -> None:
        self.goals()[-1].solve(env)  # the playlist with both songs: the last goal's state holds the others

    def gui_reference(self) -> list[Step]:
        name, first, second = self.params["playlist"], self.params["song1"], self.params["song2"]
        return [open_app("retro music"), tap("Songs"), tap(in_row_of(first, "menu")), tap("Add to playlist"),
                tap("New playlist"), type_text("actionNewPlaylist", name), tap("Create"),
                tap(in_row_of(second, "menu")), tap("Add to playlist"), tap(name)]


def _note(device: Device, name: str, text: str, folder: str | None) -> None:
    markor.create_note(device, name, text, folder)


class AndroidLensArchiveNote(LensTask):
    """A Markor note moved into a new folder: the folder first, then the note in it (Markor's Move
    copies it there) and gone from where it was."""

    app_names = ("markor",)
    complexity = 2
    difficulty, optimal_steps = "medium", 9
    tags = TAGS + ("markor",)
    template = "In Markor, put the note {{ note }} away in a new folder named {{ folder }}."
    schema = _schema(note={"type": "string"}, text={"type": "string"}, folder={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"note": f"{rng.choice(('draft', 'ideas', 'todo', 'reading', 'plans'))}_{rng.randint(1, 99)}.md",
                "text": markor.random_note_text(rng), "folder": f"Archive_{rng.randint(2019, 2023)}"}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        markor.reset(env.device)
        _note(env.device, self.params["note"], self.params["text"], None)

    def goal_groups(self):
        note, text, folder = self.params["note"], self.params["text"], self.params["folder"]
        made = Goal("folder", folder_exists(markor.note_path(folder)),
                    lambda env: env.device.files.mkdir(markor.note_path(folder)), must_hold=True)
        copied = Goal("in_folder", file_content(markor.note_path(note, folder), text),
                      lambda env: _note(env.device, note, text, folder), must_hold=True)
        gone = Goal("out_of_place", all_of(file_absent(markor.note_path(note)), file_content(markor.note_path(note, folder), text)),
                    lambda env: env.device.files.remove(markor.note_path(note)), must_hold=True)
        return [(True, [made, copied, gone])]

    def gui_reference(self) -> list[Step]:
        folder = self.params["folder"]
        return [open_app("markor"), tap("fab_add_new_item"), type_text("new_file_dialog__name", folder), tap("Folder"),
                long_press(self.params["note"]), tap("More options"), tap("Move"), tap(folder),
                tap("Select this folder")]


class AndroidLensNestedNote(LensTask):
    """A Markor note two folders deep: the outer folder, the inner one in it, then the note."""

    app_names = ("markor",)
    complexity = 3
    difficulty, optimal_steps = "medium", 14
    tags = TAGS + ("markor",)
    template = ("In Markor, create the note {{ note }} with the text '{{ text }}' inside a folder {{ inner }} that is "
                "itself inside a new folder {{ outer }}.")
    schema = _schema(note={"type": "string"}, text={"type": "string"}, outer={"type": "string"},
                     inner={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        outer, inner = rng.sample(markor.SUBFOLDERS, 2)
        return {"note": f"{rng.choice(('summary', 'checklist', 'outline', 'log'))}.md",
                "text": rng.faker.sentence(nb_words=6), "outer": outer, "inner": inner}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        markor.reset(env.device)

    def goal_groups(self):
        outer, inner, note, text = (self.params[k] for k in ("outer", "inner", "note", "text"))
        path = f"{outer}/{inner}"
        return [(True, [Goal("outer", folder_exists(markor.note_path(outer)),
                             lambda env: env.device.files.mkdir(markor.note_path(outer)), must_hold=True),
                        Goal("inner", folder_exists(markor.note_path(path)),
                             lambda env: env.device.files.mkdir(markor.note_path(path)), must_hold=True),
                        Goal("note", file_content(markor.note_path(note, path), text, fuzzy=True),
                             lambda env: _note(env.device, note, text, path), must_hold=True)])]

    def gui_reference(self) -> list[Step]:
        outer, inner = self.params["outer"], self.params["inner"]
        folder = [tap("fab_add_new_item"), type_text("new_file_dialog__name", outer), tap("Folder"), tap(outer),
                  tap("fab_add_new_item"), type_text("new_file_dialog__name", inner), tap("Folder"), tap(inner)]
        return [open_app("markor"), *folder, *st.new_note(self.params["note"], self.params["text"])]
