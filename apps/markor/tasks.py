"""Markor tasks: create, edit and delete notes (AndroidWorld's Markor* family)."""
from __future__ import annotations

import string
from datetime import timedelta
from typing import Any

from taskkit.apps import clipper, markor, receipts, simple_gallery_pro, vlc
from taskkit.apps.files import DOWNLOAD_DIR
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, enter, long_press, open_app, tap, type_lines, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import all_of, file_absent, file_content, file_exists, folder_exists, no_files_under

_APP = ("markor",)
_NAME = {"type": "string", "pattern": r"^[A-Za-z0-9_\-]+\.(md|txt)$"}
_NOISE_SEED = {"type": "integer", "minimum": 0}
EDITOR = "document__fragment__edit__highlighting_editor"  # the note editor's resource id


def new_note(name: str, text: str, lines: bool = True) -> list[Step]:
    """From Markor's list: a new note named `name` holding `text`, saved by leaving the editor;
    `text` typed a line at a time with ENTER between (`lines`) or in one action."""
    typed = type_lines(EDITOR, text) if lines else [type_text(EDITOR, text)]
    return [tap("fab_add_new_item"), type_text("new_file_dialog__name", name), tap("OK"), *typed, back()]


def delete_note(name: str) -> list[Step]:
    return [long_press(name), tap("action_delete_selected_items"), tap("OK")]


def rename_note(name: str, new_name: str) -> list[Step]:
    """From Markor's list: select the note, Rename, type the new name over the old one, OK."""
    return [long_press(name), tap("action_rename_selected_item"), type_text("new_name", new_name, clear=True), tap("OK")]


def rewrite_note(name: str, text: str) -> list[Step]:
    """From Markor's list: open the note, type `text` over its text, leave the editor (saved)."""
    return [tap(name), *type_lines(EDITOR, text, clear=True), back()]


def _noise_texts(params: dict[str, Any], avoid: str, count: int) -> dict[str, str]:
    """`count` other notes (never named `avoid`), by name, drawn from the params' noise seed."""
    rng = TaskRng(params["noise_seed"])
    notes: dict[str, str] = {}
    while len(notes) < count:
        name = markor.random_file_name(rng, rng.choice(markor.EXTENSIONS))
        if name != avoid and name not in notes:
            notes[name] = markor.random_note_text(rng)
    return notes


def _noise_notes(env: TaskEnv, params: dict[str, Any], avoid: str, count: int) -> list[str]:
    """Write `count` other notes (never named `avoid`) and return their names."""
    notes = _noise_texts(params, avoid, count)
    for name, text in notes.items():
        markor.create_note(env.device, name, text)
    return list(notes)


class MarkorCreateNote(TaskEval):
    """Create a note with a given name and text."""

    app_names = _APP
    complexity = 1.6
    tags = ("data_entry", "markor")
    template = "Create a new note in Markor named {{ file_name }} with the following text: {{ text }}"
    schema = {
        "type": "object",
        "properties": {"file_name": _NAME, "text": {"type": "string", "minLength": 1}, "noise_seed": _NOISE_SEED},
        "required": ["file_name", "text", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {
            "file_name": markor.random_file_name(rng),
            "text": rng.faker.paragraph(nb_sentences=2),
            "noise_seed": rng.getrandbits(32),
        }

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _noise_notes(env, self.params, self.params["file_name"], TaskRng(self.params["noise_seed"]).randint(0, 4))

    def validator(self):
        return file_content(markor.note_path(self.params["file_name"]), self.params["text"], fuzzy=True)

    def solve(self, env: TaskEnv) -> None:
        markor.create_note(env.device, self.params["file_name"], self.params["text"])

    def gui_reference(self) -> list[Step]:
        return [open_app("markor"), *new_note(self.params["file_name"], self.params["text"])]


class MarkorEditNote(TaskEval):
    """Add a header or a footer to a note, or replace its text."""

    app_names = _APP
    complexity = 1.2  # AndroidWorld's
    tags = ("data_edit", "markor")
    template = (
        "{% if variant == 'header' %}Edit {{ file_name }} in Markor. Add to the top of the note: {{ new_text }}"
        "{% elif variant == 'footer' %}Edit {{ file_name }} in Markor. Add to the bottom of the note: {{ new_text }}"
        "{% else %}Edit {{ file_name }} in Markor. Replace its whole text with: {{ new_text }}{% endif %}"
    )
    schema = {
        "type": "object",
        "properties": {
            "file_name": _NAME,
            "original": {"type": "string"},
            "variant": {"enum": ["header", "footer", "replace"]},
            "new_text": {"type": "string", "minLength": 1},
            "noise_seed": _NOISE_SEED,
        },
        "required": ["file_name", "original", "variant", "new_text", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        """The note holds one sentence, as AndroidWorld's (`generate_random_sentence()` in
        android_world/task_evals/single/markor.py); the schema also takes a longer text."""
        return {
            "file_name": markor.random_file_name(rng),
            "original": rng.faker.sentence(nb_words=8),
            "variant": rng.choice(["header", "footer", "replace"]),
            "new_text": rng.faker.sentence(nb_words=8),
            "noise_seed": rng.getrandbits(32),
        }

    def expected_text(self) -> str:
        original, new, variant = self.params["original"], self.params["new_text"], self.params["variant"]
        if variant == "header":
            return f"{new}\n{original}"
        if variant == "footer":
            return f"{original.rstrip()}\n{new}"
        return new

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _noise_notes(env, self.params, self.params["file_name"], 3)
        markor.create_note(env.device, self.params["file_name"], self.params["original"])

    def validator(self):
        return file_content(markor.note_path(self.params["file_name"]), self.expected_text(), fuzzy=True, threshold=0.95)

    def solve(self, env: TaskEnv) -> None:
        markor.create_note(env.device, self.params["file_name"], self.expected_text())

    def gui_reference(self) -> list[Step]:
        """Open the note; a footer goes on a new line after its text (the cursor is at the end),
        a header or a new text is typed over it (the header above the text read off the screen)."""
        name, new = self.params["file_name"], self.params["new_text"]
        if self.params["variant"] == "footer":
            return [open_app("markor"), tap(name), enter(), type_text(EDITOR, new), back()]
        return [open_app("markor"), *rewrite_note(name, self.expected_text())]


class MarkorDeleteNote(TaskEval):
    """Delete one note; the other notes stay."""

    app_names = _APP
    complexity = 1  # AndroidWorld's
    tags = ("data_edit", "markor")
    template = "Delete the note in Markor named {{ file_name }}."
    schema = {
        "type": "object",
        "properties": {"file_name": _NAME, "noise_seed": _NOISE_SEED},
        "required": ["file_name", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"file_name": markor.random_file_name(rng), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        self.others = _noise_notes(env, self.params, self.params["file_name"], 4)
        markor.create_note(env.device, self.params["file_name"], markor.random_note_text(TaskRng(self.params["noise_seed"] + 1)))

    def validator(self):
        keep = [file_exists(markor.note_path(name)) for name in self.others]
        return all_of(file_absent(markor.note_path(self.params["file_name"])), *keep)

    def solve(self, env: TaskEnv) -> None:
        env.device.files.remove(markor.note_path(self.params["file_name"]))

    def gui_reference(self) -> list[Step]:
        return [open_app("markor"), *delete_note(self.params["file_name"])]


class MarkorCreateFolder(TaskEval):
    """Create a folder in Markor's notes folder (AndroidWorld's MarkorCreateFolder)."""

    app_names = _APP
    complexity = 1
    tags = ("data_entry", "markor")
    template = "Create a new folder in Markor named {{ folder_name }}."
    schema = {
        "type": "object",
        "properties": {"folder_name": {"type": "string", "pattern": r"^folder_\d{8}_\d{6}$"}, "noise_seed": _NOISE_SEED},
        "required": ["folder_name", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        # AndroidWorld names the folder after the wall clock (folder_YYYYMMDD_HHMMSS); here a
        # seeded moment of 2023 takes its place, so the same seed names the same folder.
        month, day = rng.randint(1, 12), rng.randint(1, 28)
        clock = (rng.randrange(24), rng.randrange(60), rng.randrange(60))
        return {"folder_name": f"folder_2023{month:02d}{day:02d}_{clock[0]:02d}{clock[1]:02d}{clock[2]:02d}",
                "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _noise_notes(env, self.params, self.params["folder_name"], TaskRng(self.params["noise_seed"]).randint(1, 4))

    def validator(self):
        return folder_exists(markor.note_path(self.params["folder_name"]))

    def solve(self, env: TaskEnv) -> None:
        env.device.files.mkdir(markor.note_path(self.params["folder_name"]))

    def gui_reference(self) -> list[Step]:
        """The new-file dialog's Folder button makes a folder of the typed name."""
        return [open_app("markor"), tap("fab_add_new_item"), type_text("new_file_dialog__name", self.params["folder_name"]),
                tap("Folder")]


class MarkorDeleteAllNotes(TaskEval):
    """Delete every note in Markor (AndroidWorld's MarkorDeleteAllNotes: no file may be left)."""

    app_names = _APP
    complexity = 1.4
    tags = ("data_edit", "markor")
    template = "Delete all my notes in Markor."
    schema = {"type": "object", "properties": {"noise_seed": _NOISE_SEED}, "required": ["noise_seed"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"noise_seed": rng.getrandbits(32)}

    def _count(self) -> int:
        return TaskRng(self.params["noise_seed"]).randint(2, 6)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _noise_notes(env, self.params, "", self._count())

    def validator(self):
        return no_files_under(markor.NOTES_DIR)

    def solve(self, env: TaskEnv) -> None:
        for path in env.device.files.find(markor.NOTES_DIR, type="f"):
            env.device.files.remove(path)

    def gui_reference(self) -> list[Step]:
        """Select a note by long press and the others by tapping them (Markor 2.10.9 has no Select
        all), then Delete, OK."""
        first, *others = _noise_texts(self.params, "", self._count())
        return [open_app("markor"), long_press(first), *(tap(name) for name in others),
                tap("action_delete_selected_items"), tap("OK")]


class MarkorMoveNote(TaskEval):
    """Move a note between two of Markor's subfolders (AndroidWorld's MarkorMoveNote). Stricter than
    AndroidWorld, which checks only that the name left the source and reached the destination:
    here the moved note must also keep its text."""

    app_names = _APP
    complexity = 1.4
    tags = ("data_edit", "markor")
    template = "In Markor, move the note {{ file_name }} from {{ source_folder }} to {{ destination_folder }}."
    schema = {
        "type": "object",
        "properties": {"file_name": _NAME, "source_folder": {"enum": list(markor.SUBFOLDERS)},
                       "destination_folder": {"enum": list(markor.SUBFOLDERS)}, "noise_seed": _NOISE_SEED},
        "required": ["file_name", "source_folder", "destination_folder", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        source = rng.choice(markor.SUBFOLDERS)
        destination = rng.choice([f for f in markor.SUBFOLDERS if f != source])
        return {"file_name": markor.random_file_name(rng), "source_folder": source, "destination_folder": destination,
                "noise_seed": rng.getrandbits(32)}

    def _text(self) -> str:
        return markor.random_note_text(TaskRng(self.params["noise_seed"] + 1))

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        for _ in range(rng.randint(1, 3)):  # other notes in the source folder stay where they are
            name = markor.random_file_name(rng)
            if name != self.params["file_name"]:
                markor.create_note(env.device, name, markor.random_note_text(rng), self.params["source_folder"])
        markor.create_note(env.device, self.params["file_name"], self._text(), self.params["source_folder"])
        env.device.files.mkdir(markor.note_path("", self.params["destination_folder"]))

    def validator(self):
        name = self.params["file_name"]
        return all_of(file_absent(markor.note_path(name, self.params["source_folder"])),
                      file_content(markor.note_path(name, self.params["destination_folder"]), self._text()))

    def solve(self, env: TaskEnv) -> None:
        name = self.params["file_name"]
        env.device.files.move(markor.note_path(name, self.params["source_folder"]),
                              markor.note_path(name, self.params["destination_folder"]))

    def gui_reference(self) -> list[Step]:
        """Select the note in its folder, Move (overflow menu); the folder dialog opens there: up, into the destination."""
        return [open_app("markor"), tap(self.params["source_folder"]), long_press(self.params["file_name"]),
                tap("More options"), tap("Move"), tap(".."), tap(self.params["destination_folder"]),
                tap("Select this folder")]


def _random_string(rng: TaskRng, length: int = 20) -> str:
    """Letters and digits, as AndroidWorld's random note contents."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(rng.choice(alphabet) for _ in range(length))


class MarkorChangeNoteContent(TaskEval):
    """Replace a note's text and rename it (AndroidWorld's MarkorChangeNoteContent)."""

    app_names = _APP
    complexity = 1.2
    tags = ("data_edit", "markor")
    template = ('Update the content of {{ original_name }} to "{{ updated_content }}" in Markor and change its name '
                "to {{ new_name }}.")
    schema = {
        "type": "object",
        "properties": {"original_name": _NAME, "new_name": _NAME, "updated_content": {"type": "string", "minLength": 1},
                       "noise_seed": _NOISE_SEED},
        "required": ["original_name", "new_name", "updated_content", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        original = markor.random_file_name(rng)
        new = markor.random_file_name(rng)
        while new == original:
            new = markor.random_file_name(rng)
        return {"original_name": original, "new_name": new, "updated_content": _random_string(rng),
                "noise_seed": rng.getrandbits(32)}

    def expected_text(self) -> str:
        return self.params["updated_content"]

    def _original_text(self) -> str:
        return _random_string(TaskRng(self.params["noise_seed"] + 1))

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        avoid = {self.params["original_name"], self.params["new_name"]}
        rng = TaskRng(self.params["noise_seed"])
        for _ in range(rng.randint(1, 4)):
            name = markor.random_file_name(rng)
            if name not in avoid:
                markor.create_note(env.device, name, markor.random_note_text(rng))
        markor.create_note(env.device, self.params["original_name"], self._original_text())

    def validator(self):
        return all_of(file_absent(markor.note_path(self.params["original_name"])),
                      file_content(markor.note_path(self.params["new_name"]), self.expected_text()))

    def solve(self, env: TaskEnv) -> None:
        env.device.files.remove(markor.note_path(self.params["original_name"]))
        markor.create_note(env.device, self.params["new_name"], self.expected_text() + "\n")

    def gui_reference(self) -> list[Step]:
        """Open the note and type the new text over it (a header goes above the text read off the
        screen), leave the editor, then rename the note."""
        return [open_app("markor"), *rewrite_note(self.params["original_name"], self.expected_text()),
                *rename_note(self.params["original_name"], self.params["new_name"])]


class MarkorAddNoteHeader(MarkorChangeNoteContent):
    """Put a header line and a blank line above a note's text and rename it (AndroidWorld's
    MarkorAddNoteHeader; the text must match exactly)."""

    template = ('Update the Markor note {{ original_name }} by adding the following text, along with a new blank line '
                'before the existing content: "{{ updated_content }}", and rename it to {{ new_name }}.')

    def _original_text(self) -> str:
        return TaskRng(self.params["noise_seed"] + 1).faker.sentence(nb_words=8)

    def expected_text(self) -> str:
        return f"{self.params['updated_content']}\n\n{self._original_text()}"


class MarkorCreateNoteFromClipboard(MarkorCreateNote):
    """Create a note holding the clipboard's text (put there at setup) by pasting it."""

    app_names = _APP + ("clipper",)
    complexity = 1.4  # AndroidWorld's
    template = "Create a note in Markor named {{ file_name }}. Perform a paste operation in the note and save the note."

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        params = super().generate_random_params(rng)
        params["text"] = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(20))  # AndroidWorld's
        return params

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        clipper.set_clipboard(env.device, self.params["text"])

    def validator(self):
        return file_content(markor.note_path(self.params["file_name"]), self.params["text"])

    def gui_reference(self) -> list[Step]:
        """Create the note, long-press the editor and paste from the floating toolbar, leave to save."""
        return [open_app("markor"), tap("fab_add_new_item"), type_text("new_file_dialog__name", self.params["file_name"]),
                tap("OK"), long_press(EDITOR), tap("Paste"), back()]


class MarkorMergeNotes(TaskEval):
    """Merge three notes, in order and a blank line apart, into a new note."""

    app_names = _APP
    complexity = 7.8  # AndroidWorld's
    tags = ("data_edit", "data_entry", "markor")
    template = ("Merge the contents of Markor notes {{ sources[0].file_name }}, {{ sources[1].file_name }} and "
                "{{ sources[2].file_name }} (in the same order) into a new Markor note named {{ file_name }} and save "
                "it. Add a new line between the content of each note.")
    _SOURCE = {"type": "object", "properties": {"file_name": _NAME, "text": {"type": "string", "minLength": 1}},
               "required": ["file_name", "text"]}
    schema = {
        "type": "object",
        "properties": {"sources": {"type": "array", "minItems": 3, "maxItems": 3, "items": _SOURCE},
                       "file_name": _NAME},
        "required": ["sources", "file_name"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        names: list[str] = []
        while len(names) < 4:
            name = markor.random_file_name(rng)
            if name not in names:
                names.append(name)
        sources = [{"file_name": name, "text": rng.faker.paragraph(nb_sentences=2)} for name in names[:3]]
        return {"sources": sources, "file_name": names[3]}

    @property
    def merged(self) -> str:
        """AndroidWorld's expected text: the notes joined by a blank line."""
        return "\n\n".join(source["text"] for source in self.params["sources"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        for source in self.params["sources"]:
            markor.create_note(env.device, source["file_name"], source["text"])

    def validator(self):
        return file_content(markor.note_path(self.params["file_name"]), self.merged, fuzzy=True)

    def solve(self, env: TaskEnv) -> None:
        markor.create_note(env.device, self.params["file_name"], self.merged + "\n")

    def gui_reference(self) -> list[Step]:
        """Read each note (open it, back), then write the new one."""
        steps = [open_app("markor")]
        for source in self.params["sources"]:
            steps += [tap(source["file_name"]), back()]
        return steps + new_note(self.params["file_name"], self.merged)


class MarkorDeleteNewestNote(TaskEval):
    """Delete the note changed last; the others stay as they are.

    The notes are written with distinct change times (`touch -t`, device time), hours to days
    before the episode; Markor's list shows each one's date and time. Compared with AndroidWorld,
    which checks that the other notes keep their names and change times, taskkit checks their
    names and exact contents.
    """

    app_names = _APP
    complexity = 1  # AndroidWorld's
    template = "Delete the newest note in Markor."
    schema = {
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 2, "maximum": 6}, "noise_seed": _NOISE_SEED},
        "required": ["count", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"count": rng.randint(2, 6), "noise_seed": rng.getrandbits(32)}

    def notes(self) -> list[tuple[str, int]]:
        """(name, minutes before the device's day began its episode) per note, newest first."""
        rng = TaskRng(self.params["noise_seed"] + 7)
        ages = sorted(rng.sample(range(30, 60 * 24 * 9), self.params["count"]))
        names = _names(TaskRng(self.params["noise_seed"]), self.params["count"])
        return list(zip(names, ages))

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        markor.reset(env.device)
        self.texts = {}
        now = env.device.clock.now()
        rng = TaskRng(self.params["noise_seed"] + 1)
        for name, minutes in reversed(self.notes()):  # oldest first
            self.texts[name] = markor.random_note_text(rng)
            markor.create_note(env.device, name, self.texts[name])
            markor.set_changed(env.device, name, now - timedelta(minutes=minutes))

    def validator(self):
        newest, *others = [name for name, _ in self.notes()]
        kept = [file_content(markor.note_path(name), self.texts[name]) for name in others]
        return all_of(file_absent(markor.note_path(newest)), *kept)

    def solve(self, env: TaskEnv) -> None:
        env.device.files.remove(markor.note_path(self.notes()[0][0]))

    def gui_reference(self) -> list[Step]:
        """The list shows each note's last change: the newest one goes."""
        return [open_app("markor"), *delete_note(self.notes()[0][0])]


def _names(rng: TaskRng, count: int) -> list[str]:
    names: list[str] = []
    while len(names) < count:
        name = markor.random_file_name(rng, rng.choice(markor.EXTENSIONS))
        if name not in names:
            names.append(name)
    return names


class MarkorTranscribeReceipt(TaskEval):
    """Write the purchases of a receipt photo (receipt.png in DCIM) into Markor's receipt.md, as CSV.

    As AndroidWorld, the note must match the receipt's lines fuzzily; taskkit also requires every
    amount to be there exactly (a fuzzy match alone passes a wrong digit in a price).
    """

    app_names = ("simple gallery pro", "markor")
    complexity = 1.8  # AndroidWorld's
    template = ('Create a file in Markor, called receipt.md with the transactions from the receipt.png. Use Simple '
                'Gallery to view the receipt. Please enter transactions in csv format including the header '
                '"Date, Item, Amount".')
    picture = "receipt.png"
    schema = {
        "type": "object",
        "properties": {
            "shop": {"type": "string", "minLength": 1},
            "transactions": {"type": "array", "minItems": 1, "maxItems": 5, "items": {
                "type": "object", "required": ["date", "item", "amount"],
                "properties": {"date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
                               "item": {"type": "string", "minLength": 1},
                               "amount": {"type": "string", "pattern": r"^\$\d+\.\d{2}$"}}}},
        },
        "required": ["shop", "transactions"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"shop": receipts.random_shop(rng), "transactions": receipts.random_transactions(rng, rng.randint(1, 5))}

    def text(self) -> str:
        return receipts.transactions_text(self.params["transactions"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        markor.APP.reset(env.device)  # receipt.md not there yet, as AndroidWorld clears the folder
        simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DCIM, self.picture,
                                       receipts.transactions_picture(self.params["shop"], self.params["transactions"]))

    def validator(self):
        return file_content(markor.note_path("receipt.md"), self.text(), fuzzy=True)

    def is_successful(self, env: TaskEnv) -> float:
        score = super().is_successful(env)
        if score < 1.0:
            return score
        written = env.device.files.read_text(markor.note_path("receipt.md"))
        return 1.0 if all(t["amount"] in written for t in self.params["transactions"]) else 0.0

    def teardown(self, env: TaskEnv) -> None:
        simple_gallery_pro.remove_pictures(env.device, simple_gallery_pro.DCIM, [self.picture])
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        markor.create_note(env.device, "receipt.md", self.text())

    def gui_reference(self) -> list[Step]:
        """Look at the receipt in Simple Gallery Pro, then write its transactions in a new note."""
        # the CSV typed in one action, as AndroidWorld's input_text types a text of several lines
        # (adb_utils.type_text: ENTER for each new line): AndroidWorld's 9 optimal steps, 18 allowed
        return [open_app("simple gallery pro"), tap("DCIM"), tap("receipt.png"), open_app("markor"),
                *new_note("receipt.md", self.text(), lines=False)]


class MarkorTranscribeVideo(TaskEval):
    """Write the words a video in Download shows, in order, into a Markor note.

    AndroidWorld fuzzy-matches the note against the words joined by commas; taskkit wants exactly
    the words, in order, split at the commas (case and spaces around them aside): a fuzzy match
    passes a word left out of four.
    """

    app_names = ("markor", "vlc")
    complexity = 2  # AndroidWorld's
    seconds_each = 8  # how long the video shows each word (AndroidWorld's)
    schema = {
        "type": "object",
        "properties": {
            "file_name": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+_transcription\.txt$"},
            "video_name": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+\.mp4$"},
            "messages": {"type": "array", "items": {"type": "string", "pattern": r"^[A-Za-z]+$"},
                         "minItems": 2, "maxItems": 4},
            "noise_files": {"type": "array", "items": {"type": "string"}},
            "noise_words": {"type": "array", "items": {"type": "string"}},
            "noise_seconds": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        },
        "required": ["file_name", "video_name", "messages", "noise_files", "noise_words", "noise_seconds"],
    }
    template = ('Transcribe the contents of video {{ video_name }} by watching it in VLC player (located in Download) '
                'and writing the sequence of strings shown on each frame to the text file {{ file_name }} in Markor '
                'as a comma separated list. For example, if the first frame shows the text "edna" and the second '
                'frame shows the text "pineapple", then the text file should contain only the following text: '
                '"edna, pineapple".')

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        messages: list[str] = []
        count = rng.randint(2, 4)
        while len(messages) < count:
            name = rng.faker.first_name()
            if name.isalpha() and name not in messages:
                messages.append(name)
        video_name, *noise = vlc.random_video_names(rng, 1 + rng.randint(0, 3))
        return {"file_name": f"{video_name.rsplit('.', 1)[0]}_transcription.txt", "video_name": video_name,
                "messages": messages, "noise_files": noise, "noise_words": [vlc.random_word(rng) for _ in noise],
                "noise_seconds": [rng.randint(20, 180) for _ in noise]}

    def _videos(self) -> list[str]:
        return [self.params["video_name"], *self.params["noise_files"]]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        markor.APP.reset(env.device)
        vlc.write_video(env.device, DOWNLOAD_DIR, self.params["video_name"], self.params["messages"], self.seconds_each)
        for name, word, seconds in zip(self.params["noise_files"], self.params["noise_words"],
                                       self.params["noise_seconds"]):
            vlc.write_video(env.device, DOWNLOAD_DIR, name, [word], seconds)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        path = markor.note_path(self.params["file_name"])
        files = env.device.files
        if not files.exists(path) or files.is_dir(path):
            return 0.0
        words = [word.strip().casefold() for word in files.read_text(path).strip().split(",")]
        return 1.0 if words == [message.casefold() for message in self.params["messages"]] else 0.0

    def teardown(self, env: TaskEnv) -> None:
        for name in self._videos():
            env.device.files.remove(f"{DOWNLOAD_DIR}/{name}")
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        markor.create_note(env.device, self.params["file_name"], ", ".join(self.params["messages"]))

    def gui_reference(self) -> list[Step]:
        """Play the video from Files in VLC, skipping ahead to each word, then write them in a note."""
        steps = [open_app("files"), tap("Download"), tap(self.params["video_name"]), tap("VLC"), tap("Just once")]
        steps += [tap("Forward 10 seconds")] * len(self.params["messages"])
        return steps + [open_app("markor"), *new_note(self.params["file_name"], ", ".join(self.params["messages"]))]
