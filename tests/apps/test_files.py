"""taskkit.apps.files: seed files for the file-management tasks."""
from __future__ import annotations

import re

from taskkit.apps import files
from taskkit.rng import TaskRng


def test_random_file_is_deterministic_and_realistic():
    made = [files.random_file(TaskRng(seed)) for seed in range(40)]
    assert made == [files.random_file(TaskRng(seed)) for seed in range(40)]
    for item in made:
        assert re.fullmatch(r"[a-z0-9_]+\.[a-z0-9]+", item["name"])
        assert any(item["name"].endswith(ext) for ext in files.EXTENSIONS)
        assert re.fullmatch(r"[A-Za-z0-9]{20}", item["content"])
    assert len({m["content"] for m in made}) == 40
    assert files.random_file(TaskRng(1), ext=".log")["name"].endswith(".log")


def test_app_registration():
    assert files.APP.component == "com.google.android.documentsui/com.android.documentsui.files.FilesActivity"
    assert files.APP.data_paths == tuple(f"/storage/emulated/0/{folder}" for folder in files.FOLDERS)  # all restored
    assert "Download" in files.FOLDERS and len(files.FOLDERS) == 12


# --- against the simulator ----------------------------------------------------------------------
def test_seed_file_round_trip(device):
    item = files.random_file(TaskRng(2))
    path = f"{files.DOWNLOAD_DIR}/{item['name']}"
    device.files.write_text(path, item["content"])
    assert device.files.read_text(path) == item["content"]
    assert item["name"] in device.files.listdir(files.DOWNLOAD_DIR)
