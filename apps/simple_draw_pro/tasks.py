"""Simple Draw Pro tasks (AndroidWorld's SimpleDrawProCreateDrawing)."""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import simple_draw_pro
from taskkit.apps.common import random_name_stem
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, swipe, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

# AndroidWorld's first words of a drawing's name.
_WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")


class SimpleDrawProCreateDrawing(TaskEval):
    """Save a new drawing under a given name in Pictures.

    AndroidWorld passes when a file of that name exists in Pictures; taskkit also requires that
    it is an image in the format its extension names (PNG, SVG or JPEG, by the file's own
    signature: an empty or renamed file is not a drawing) and that the pictures already there stay.
    """

    app_names = ("simple draw pro",)
    complexity = 1.8  # AndroidWorld's
    template = (
        "Create a new drawing in Simple Draw Pro. Name it {{ file_name }}. Save it in the Pictures folder "
        "within the sdk_gphone_x86_64 storage area."
    )
    schema = {
        "type": "object",
        "properties": {
            "file_name": {"type": "string", "pattern": r"^[a-z0-9_]+\.(png|svg|jpg)$"},
            "older": {"type": "array", "items": {"type": "string", "pattern": r"^[a-z0-9_]+\.(png|svg|jpg)$"},
                      "maxItems": 3},
        },
        "required": ["file_name", "older"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        def name() -> str:
            return f"{rng.choice(_WORDS)}_{random_name_stem(rng)}.{rng.choice(simple_draw_pro.EXTENSIONS)}"

        file_name = name()
        older = sorted({name() for _ in range(rng.randint(0, 3))} - {file_name})
        return {"file_name": file_name, "older": older}

    def _path(self, name: str) -> str:
        return posixpath.join(simple_draw_pro.PICTURES, name)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        simple_draw_pro.reset(env.device)
        files = env.device.files
        for name in [self.params["file_name"], *self.params["older"]]:
            files.remove(self._path(name))
        for index, name in enumerate(self.params["older"]):
            simple_draw_pro.save_drawing(env.device, simple_draw_pro.PICTURES, name,
                                         [((100 + 90 * index, 300), (900, 1200 - 150 * index))])
        self.before = {name: files.read_bytes(self._path(name)) for name in self.params["older"]}

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        files = env.device.files
        path = self._path(self.params["file_name"])
        if not files.exists(path) or files.is_dir(path):
            return 0.0
        wanted = posixpath.splitext(path)[1].lstrip(".")
        if simple_draw_pro.format_of(files.read_bytes(path)) != wanted:
            return 0.0
        kept = all(files.exists(self._path(name)) and files.read_bytes(self._path(name)) == data
                   for name, data in self.before.items())
        return 1.0 if kept else 0.0

    def teardown(self, env: TaskEnv) -> None:
        for name in [self.params["file_name"], *self.params["older"]]:
            env.device.files.remove(self._path(name))
        simple_draw_pro.reset(env.device)
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        simple_draw_pro.save_drawing(env.device, simple_draw_pro.PICTURES, self.params["file_name"])

    def gui_reference(self) -> list[Step]:
        stem, extension = self.params["file_name"].rsplit(".", 1)
        return [open_app("simple draw pro"), swipe("my_canvas", "right"), swipe("my_canvas", "down"), tap("menu_save"),
                type_text("save_image_filename", stem, clear=True), tap(f"save_image_radio_{extension}"),
                tap("folder_value"), tap("Pictures"), tap("OK"), tap("OK")]
