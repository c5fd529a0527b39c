"""`android_world.task_evals.common_validators.file_validators`: checks that a file was created,
deleted or moved, used by AndroidWorld's file tasks as parts (`CreateFile(params, folder)`).

They are never registered as tasks; a task holding one calls its lifecycle methods from its own.
"""
from __future__ import annotations

from typing import Any

from taskkit.compat.android_world.env import adb_utils, interface
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.utils import user_data_generation
from taskkit.compat.android_world.utils import file_utils, fuzzy_match_lib
from taskkit.device.quoting import shell_quote


class _FileCheck(task_eval.TaskEval):
    """A part-task in one folder of the shared storage, which it clears before and after."""

    app_names = ()
    complexity = 1
    template = ""

    def __init__(self, params: dict[str, Any], data_directory: str, **kwargs: Any):
        super().__init__(params, **kwargs)
        self.data_directory = data_directory

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        user_data_generation.clear_device_storage(env)

    def tear_down(self, env: interface.AsyncEnv) -> None:
        super().tear_down(env)
        user_data_generation.clear_device_storage(env)

    def _exists(self, env: interface.AsyncEnv, folder: str) -> bool:
        return file_utils.check_file_or_folder_exists(self.params["file_name"], folder, env.controller)

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {}


class CreateFile(_FileCheck):
    """`file_name` exists in the folder and its text matches `text` loosely."""

    schema = {"type": "object", "properties": {"file_name": {"type": "string"}, "text": {"type": "string"}},
              "required": ["file_name", "text"]}

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        if not self._exists(env, self.data_directory):
            return 0.0
        path = file_utils.convert_to_posix_path(self.data_directory, self.params["file_name"])
        text = adb_utils.issue_generic_request(["shell", "cat", shell_quote(path)], env.controller).generic.output.decode()
        return 1.0 if fuzzy_match_lib.fuzzy_match(text.replace("\r", "").strip(), self.params["text"]) else 0.0


class DeleteFile(_FileCheck):
    """`file_name` (in `subfolder` of the folder, if given), created among noise files, is gone."""

    schema = {"type": "object", "properties": {"file_name": {"type": "string"}, "subfolder": {"type": "string"},
                                               "noise_candidates": {"type": "array"}},
              "required": ["file_name"], "additionalProperties": True}

    def __init__(self, params: dict[str, Any], data_directory: str, **kwargs: Any):
        if "subfolder" in params:
            data_directory = file_utils.convert_to_posix_path(data_directory, params["subfolder"])
        super().__init__(params, data_directory, **kwargs)

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        file_utils.create_file(self.params["file_name"], self.data_directory, env.controller)
        user_data_generation.generate_noise_files(self.params["file_name"], self.data_directory, env.controller,
                                                  self.params["noise_candidates"])

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        return 0.0 if self._exists(env, self.data_directory) else 1.0


class MoveFile(_FileCheck):
    """`file_name` left `source_folder` for `destination_folder` (both under the folder)."""

    schema = {"type": "object", "properties": {"file_name": {"type": "string"}, "source_folder": {"type": "string"},
                                               "destination_folder": {"type": "string"},
                                               "noise_candidates": {"type": "array"}},
              "required": ["file_name", "source_folder", "destination_folder"], "additionalProperties": True}

    def __init__(self, params: dict[str, Any], data_directory: str, **kwargs: Any):
        super().__init__(params, data_directory, **kwargs)
        self.source_directory = file_utils.convert_to_posix_path(data_directory, params["source_folder"])
        self.dest_directory = file_utils.convert_to_posix_path(data_directory, params["destination_folder"])

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        user_data_generation.generate_noise_files(self.params["file_name"], self.source_directory, env.controller,
                                                  self.params["noise_candidates"])
        file_utils.create_file(self.params["file_name"], self.source_directory, env.controller)
        file_utils.mkdir(self.dest_directory, env.controller)

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        moved = not self._exists(env, self.source_directory) and self._exists(env, self.dest_directory)
        return 1.0 if moved else 0.0
