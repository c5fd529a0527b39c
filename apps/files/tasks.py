"""Files tasks: delete and move files in shared storage (AndroidWorld's FilesDeleteFile and
FilesMoveFile), in the top-level folders AndroidWorld's goals name."""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import files
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, long_press, open_app, tap
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import all_of, file_absent, file_content, file_exists

_FOLDERS = files.FOLDERS  # the app model restores every one of them after an episode


def _path(folder: str, name: str) -> str:
    return posixpath.join(files.STORAGE_ROOT, folder, name)


def _noise(params: dict[str, Any], count: int = 4) -> list[dict[str, str]]:
    """`count` other files (names and contents) for the task's folder, never named like its file."""
    rng = TaskRng(params["noise_seed"])
    others: list[dict[str, str]] = []
    while len(others) < count:
        noise = files.random_file(rng)
        if noise["name"] != params["file_name"] and all(o["name"] != noise["name"] for o in others):
            others.append(noise)
    return others


class FilesDeleteFile(TaskEval):
    """Delete one file from a shared-storage folder; the other files there stay."""

    app_names = ("files",)
    complexity = 2.2  # AndroidWorld's
    tags = ("data_edit", "files")
    template = (
        "Delete the file {{ file_name }} from the Android filesystem located in the {{ subfolder }} folder "
        "within the sdk_gphone64_x86_64 storage area."
    )
    schema = {
        "type": "object",
        "properties": {
            "file_name": {"type": "string", "pattern": r"^[a-z0-9_]+\.[a-z0-9]+$"},
            "subfolder": {"enum": list(_FOLDERS)},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["file_name", "subfolder", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"file_name": files.random_file(rng)["name"], "subfolder": rng.choice(_FOLDERS),
                "noise_seed": rng.getrandbits(32)}

    def _others(self) -> list[dict[str, str]]:
        return _noise(self.params)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        folder = self.params["subfolder"]
        content = files.random_file(TaskRng(self.params["noise_seed"] + 1))["content"]
        env.device.files.write_text(_path(folder, self.params["file_name"]), content)
        for other in self._others():
            env.device.files.write_text(_path(folder, other["name"]), other["content"])

    def validator(self):
        folder = self.params["subfolder"]
        keep = [file_exists(_path(folder, other["name"])) for other in self._others()]
        return all_of(file_absent(_path(folder, self.params["file_name"])), *keep)

    def solve(self, env: TaskEnv) -> None:
        env.device.files.remove(_path(self.params["subfolder"], self.params["file_name"]))

    def gui_reference(self) -> list[Step]:
        return [open_app("files"), tap(self.params["subfolder"]), long_press(self.params["file_name"]),
                tap("action_menu_delete"), tap("OK")]


class FilesMoveFile(TaskEval):
    """Move a file between two top-level folders of shared storage (AndroidWorld's FilesMoveFile).
    Stricter than AndroidWorld, which checks only the name: the moved file keeps its content and
    the other files of the source folder stay."""

    app_names = ("files",)
    complexity = 2
    tags = ("data_edit", "files")
    template = (
        "Move the file {{ file_name }} from {{ source_folder }} within the sdk_gphone64_x86_64 storage area to the "
        "{{ destination_folder }} within the same sdk_gphone64_x86_64 storage area in the Android filesystem."
    )
    schema = {
        "type": "object",
        "properties": {
            "file_name": {"type": "string", "pattern": r"^[a-z0-9_]+\.[a-z0-9]+$"},
            "source_folder": {"enum": list(_FOLDERS)},
            "destination_folder": {"enum": list(_FOLDERS)},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["file_name", "source_folder", "destination_folder", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        source = rng.choice(_FOLDERS)
        return {"file_name": files.random_file(rng)["name"], "source_folder": source,
                "destination_folder": rng.choice([f for f in _FOLDERS if f != source]), "noise_seed": rng.getrandbits(32)}

    def _content(self) -> str:
        return files.random_file(TaskRng(self.params["noise_seed"] + 1))["content"]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        source = self.params["source_folder"]
        env.device.files.write_text(_path(source, self.params["file_name"]), self._content())
        for other in _noise(self.params, 3):
            env.device.files.write_text(_path(source, other["name"]), other["content"])
        env.device.files.mkdir(_path(self.params["destination_folder"], ""))

    def validator(self):
        name, source = self.params["file_name"], self.params["source_folder"]
        keep = [file_exists(_path(source, other["name"])) for other in _noise(self.params, 3)]
        return all_of(file_absent(_path(source, name)),
                      file_content(_path(self.params["destination_folder"], name), self._content()), *keep)

    def solve(self, env: TaskEnv) -> None:
        name = self.params["file_name"]
        env.device.files.move(_path(self.params["source_folder"], name), _path(self.params["destination_folder"], name))

    def gui_reference(self) -> list[Step]:
        """Select the file, Move to… (overflow menu); the picker opens on the storage root: the destination, Move."""
        return [open_app("files"), tap(self.params["source_folder"]), long_press(self.params["file_name"]),
                tap("More options"), tap("Move to\u2026"), tap(self.params["destination_folder"]), tap("Move")]


# B-MoCA's tasks on this app (apps/files/bmoca.py) register with this module.
from taskkit.apps.files import bmoca  # noqa: E402,F401
