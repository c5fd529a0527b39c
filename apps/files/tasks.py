"""Files tasks: delete a file from shared storage (AndroidWorld's FilesDeleteFile)."""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import files
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import all_of, file_absent, file_exists

_FOLDERS = ("Download", "Documents")  # the folders the app model restores after an episode


def _path(folder: str, name: str) -> str:
    return posixpath.join(files.STORAGE_ROOT, folder, name)


class FilesDeleteFile(TaskEval):
    """Delete one file from a shared-storage folder; the other files there stay."""

    app_names = ("files",)
    complexity = 1.2
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
        rng = TaskRng(self.params["noise_seed"])
        others: list[dict[str, str]] = []
        while len(others) < 4:
            noise = files.random_file(rng)
            if noise["name"] != self.params["file_name"] and all(o["name"] != noise["name"] for o in others):
                others.append(noise)
        return others

    def initialize_state(self, env: Any) -> None:
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

    def solve(self, env: Any) -> None:
        env.device.files.remove(_path(self.params["subfolder"], self.params["file_name"]))
