"""Simple Gallery Pro tasks (AndroidWorld's SaveCopyOfReceiptTaskEval)."""
from __future__ import annotations

import posixpath
from typing import Any

from taskkit.apps import receipts, simple_gallery_pro
from taskkit.apps.common import random_name_stem
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

_NAME = r"^receipt_[a-z0-9_]+\.jpg$"


class SaveCopyOfReceiptTaskEval(TaskEval):
    """Copy a receipt photo from DCIM to Download under the same name.

    AndroidWorld passes when a file of that name exists in Download; taskkit also requires the
    copy to be the receipt itself (the same bytes), the original to stay in DCIM (a copy, not a
    move) and the other receipt photos there to stay as they were.
    """

    app_names = ("simple gallery pro",)
    complexity = 1.6  # AndroidWorld's
    template = "In Simple Gallery Pro, copy {{ file_name }} in DCIM and save a copy with the same name in Download"
    schema = {
        "type": "object",
        "properties": {
            "file_name": {"type": "string", "pattern": _NAME},
            "receipt": {"type": "object"},
            "others": {"type": "array", "items": {"type": "object"}, "maxItems": 2},
        },
        "required": ["file_name", "receipt", "others"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        names = []
        while len(names) < 3:
            name = f"receipt_{random_name_stem(rng)}.jpg"
            if name not in names:
                names.append(name)
        others = [{"file_name": name, "receipt": receipts.random_receipt(rng)} for name in names[1:rng.randint(1, 3)]]
        return {"file_name": names[0], "receipt": receipts.random_receipt(rng), "others": others}

    def _pictures(self) -> dict[str, dict[str, Any]]:
        return {self.params["file_name"]: self.params["receipt"],
                **{other["file_name"]: other["receipt"] for other in self.params["others"]}}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        files = env.device.files
        for name, receipt in self._pictures().items():
            files.remove(posixpath.join(simple_gallery_pro.DOWNLOAD, name))
            simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DCIM, name, receipts.receipt_jpeg(receipt))

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        files = env.device.files
        copy = posixpath.join(simple_gallery_pro.DOWNLOAD, self.params["file_name"])
        if not files.exists(copy) or files.is_dir(copy):
            return 0.0
        photos = {name: receipts.receipt_jpeg(receipt) for name, receipt in self._pictures().items()}
        for name, photo in photos.items():
            original = posixpath.join(simple_gallery_pro.DCIM, name)
            if not files.exists(original) or files.read_bytes(original) != photo:
                return 0.0
        return 1.0 if files.read_bytes(copy) == photos[self.params["file_name"]] else 0.0

    def teardown(self, env: TaskEnv) -> None:
        for name in self._pictures():
            env.device.files.remove(posixpath.join(simple_gallery_pro.DCIM, name))
            env.device.files.remove(posixpath.join(simple_gallery_pro.DOWNLOAD, name))
        super().teardown(env)

    def solve(self, env: TaskEnv) -> None:
        name = self.params["file_name"]
        data = env.device.files.read_bytes(posixpath.join(simple_gallery_pro.DCIM, name))
        simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DOWNLOAD, name, data)

    def gui_reference(self) -> list[Step]:
        return [open_app("simple gallery pro"), tap("DCIM"), tap(self.params["file_name"]), tap("More options"),
                tap("Copy to"), tap("Internal"), tap("Download"), tap("OK")]
