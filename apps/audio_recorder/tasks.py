"""Audio Recorder tasks (AndroidWorld's AudioRecorderRecordAudio and ...WithFileName)."""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import audio_recorder
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import all_of, file_exists

_APP = ("audio recorder",)
_NOISE = {"type": "integer", "minimum": 0, "maximum": 3}


def _older_recordings(env: TaskEnv, count: int) -> None:
    """`count` earlier recordings (Record-1 … Record-count), so a new one is Record-(count+1)."""
    audio_recorder.reset(env.device)
    for index in range(count):
        audio_recorder.save_recording(env.device, 5 + 7 * index)


def _sizes(env: TaskEnv) -> dict[str, int]:
    """Each recording's size in bytes."""
    files = env.device.files
    return {name: (files.stat(posixpath.join(audio_recorder.RECORDS_DIR, name)) or _EMPTY).size
            for name in audio_recorder.recordings(env.device)}


class _Empty:
    size = 0


_EMPTY = _Empty()


class AudioRecorderRecordAudio(TaskEval):
    """Record one clip: exactly one recording is new (or changed) and holds data."""

    app_names = _APP
    complexity = 1.2  # AndroidWorld's
    template = "Record an audio clip using Audio Recorder app and save it."
    schema = {"type": "object", "properties": {"older": _NOISE}, "required": ["older"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"older": rng.randint(0, 3)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _older_recordings(env, self.params["older"])
        self.before = _sizes(env)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        after = _sizes(env)
        new = [name for name, size in after.items() if size > 0 and self.before.get(name) != size]
        kept = all(name in after for name in self.before)
        return 1.0 if len(new) == 1 and kept else 0.0

    def solve(self, env: TaskEnv) -> None:
        audio_recorder.save_recording(env.device, 4)

    def gui_reference(self) -> list[Step]:
        return [open_app("audio recorder"), tap("btn_record"), tap("btn_record_stop")]


class AudioRecorderRecordAudioWithFileName(TaskEval):
    """Record one clip and save it under a given name (the app keeps the `.m4a` extension)."""

    app_names = _APP
    complexity = 2  # AndroidWorld's
    template = 'Record an audio clip and save it with name "{{ file_name }}" using Audio Recorder app.'
    schema = {"type": "object", "properties": {"file_name": {"type": "string", "minLength": 1}, "older": _NOISE},
              "required": ["file_name", "older"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"file_name": audio_recorder.random_recording_name(rng), "older": rng.randint(0, 3)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _older_recordings(env, self.params["older"])

    def path(self) -> str:
        return posixpath.join(audio_recorder.RECORDS_DIR, self.params["file_name"] + audio_recorder.EXTENSION)

    def validator(self):
        older = [posixpath.join(audio_recorder.RECORDS_DIR, f"Record-{i + 1}{audio_recorder.EXTENSION}")
                 for i in range(self.params["older"])]
        return all_of(file_exists(self.path()), *(file_exists(path) for path in older))

    def solve(self, env: TaskEnv) -> None:
        audio_recorder.save_recording(env.device, 6, self.params["file_name"] + audio_recorder.EXTENSION)

    def gui_reference(self) -> list[Step]:
        return [open_app("audio recorder"), tap("btn_record"), tap("btn_record_stop"), tap("txt_name"),
                type_text("input_name", self.params["file_name"]), tap("Save")]
