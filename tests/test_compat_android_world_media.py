"""AndroidWorld-style media tasks run through taskkit.compat.android_world with only their imports
changed: videos and songs written by `user_data_generation`, a playlist read from VLC's media
library with `sqlite_utils` and `verify_playlist`, and a composite that checks its second part
with a task it never initialized (as AndroidWorld's VlcCreateTwoPlaylists does)."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit import loading, registry
from taskkit.apps import media, vlc
from taskkit.env import Env

# Written the way AndroidWorld writes its VLC tasks; only the imports name taskkit.compat.
TASK_FILE = '''
import os
import random
from typing import Any

from taskkit.compat.android_world.env import interface
from taskkit.compat.android_world.env.setup_device import apps
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.common_validators import sqlite_validators
from taskkit.compat.android_world.task_evals.utils import sqlite_schema_utils
from taskkit.compat.android_world.task_evals.utils import sqlite_utils
from taskkit.compat.android_world.task_evals.utils import user_data_generation
from taskkit.compat.android_world.utils import file_utils

_DB_PATH = "/data/data/org.videolan.vlc/app_db/vlc_media.db"


def _playlist_rows(env):
  query = (
      "SELECT Playlist.name AS playlist_name, Media.filename AS media_file_name,"
      " PlaylistMediaRelation.position AS order_in_playlist FROM PlaylistMediaRelation"
      " INNER JOIN Playlist ON Playlist.id_playlist = PlaylistMediaRelation.playlist_id"
      " INNER JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id"
      " ORDER BY Playlist.name, PlaylistMediaRelation.position")
  with env.controller.pull_file(_DB_PATH, timeout_sec=3) as local_dir:
    local = file_utils.convert_to_posix_path(local_dir, os.path.split(_DB_PATH)[1])
    return sqlite_utils.execute_query(query, local, sqlite_schema_utils.PlaylistInfo)


class AwVlcPlaylist(task_eval.TaskEval):
  app_names = ["vlc"]
  complexity = 2.8
  schema = {}
  template = ""

  @property
  def goal(self) -> str:
    return f"Create a playlist titled {self.params['playlist_name']} with {', '.join(self.params['files'])}"

  def setup_files(self, env):
    for name in self.params["files"]:
      user_data_generation.write_video_file_to_device(
          name, apps.VlcApp.videos_path, env,
          messages=[user_data_generation.generate_random_string(10)], fps=1,
          message_display_time=random.randint(20, 180))

  def initialize_task(self, env):
    super().initialize_task(env)
    sqlite_utils.delete_all_rows_from_table("PlaylistMediaRelation", _DB_PATH, env, "vlc")
    self.setup_files(env)

  def is_successful(self, env) -> float:
    return float(sqlite_validators.verify_playlist(
        _playlist_rows(env), self.params["playlist_name"], self.params["files"]))

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    return {"playlist_name": random.choice(["Road Trips Marathon", "Tech Reviews Specials"]),
            "files": [f"clip_{random.randint(1, 99)}_{i}.mp4" for i in range(random.randint(2, 3))]}


class AwVlcTwoPlaylists(task_eval.TaskEval):
  app_names = ["vlc"]
  complexity = 4.8
  schema = {}
  template = ""

  def __init__(self, params):
    super().__init__(params)
    self.task1 = AwVlcPlaylist(params["first"])
    self.task2 = AwVlcPlaylist(params["second"])

  @property
  def goal(self) -> str:
    return f"{self.task1.goal}. And then, {self.task2.goal}."

  def initialize_task(self, env):
    super().initialize_task(env)
    self.task1.initialize_task(env)
    self.task2.setup_files(env)  # its part of the database stays as the first left it

  def tear_down(self, env):
    super().tear_down(env)
    self.task1.tear_down(env)

  def is_successful(self, env) -> float:
    super().is_successful(env)
    return (self.task1.is_successful(env) + self.task2.is_successful(env)) / 2

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    first = AwVlcPlaylist.generate_random_params()
    second = AwVlcPlaylist.generate_random_params()
    second["playlist_name"] = "Comedy Favorites"
    second["files"] = [name.replace(".mp4", "_b.mp4") for name in second["files"]]
    return {"first": first, "second": second}
'''


@pytest.fixture
def loaded(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "aw_vlc_tasks.py"
    path.write_text(TASK_FILE)
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))
    loading.load_module(str(path))


def _paths(files: list[str]) -> list[str]:
    return [f"{vlc.VIDEOS_DIR}/{name}" for name in files]


def test_a_composite_scores_each_playlist_it_checks_even_the_part_it_never_initialized(loaded, env: Env) -> None:
    task = registry.get("AwVlcTwoPlaylists").from_seed(3)
    first, second = task.params["first"], task.params["second"]
    task.initialize_state(env)
    for name in first["files"] + second["files"]:  # real videos of a random word, as AndroidWorld writes them
        frames = media.video_frames(env.device.files.read_bytes(f"{vlc.VIDEOS_DIR}/{name}"))
        assert len(frames) == 1 and 20_000 <= frames[0][1] <= 180_000
    assert task.is_successful(env) == 0.0
    vlc.create_playlist(env.device, first["playlist_name"], _paths(first["files"]))
    assert task.is_successful(env) == 0.5
    vlc.create_playlist(env.device, second["playlist_name"], _paths(second["files"][::-1]))
    assert task.is_successful(env) == 0.5  # the second playlist in the wrong order
    task.teardown(env)
    task.initialize_state(env)
    vlc.create_playlist(env.device, first["playlist_name"], _paths(first["files"]))
    vlc.create_playlist(env.device, second["playlist_name"], _paths(second["files"]))
    assert task.is_successful(env) == 1.0
    task.teardown(env)


def test_a_task_the_runner_owns_keeps_the_lifecycle_guard(loaded, env: Env) -> None:
    from taskkit.task import LifecycleError

    with pytest.raises(LifecycleError):
        registry.get("AwVlcPlaylist").from_seed(1).is_successful(env)


def test_write_mp3_file_to_device_writes_a_tagged_song_of_the_duration(env: Env) -> None:
    from taskkit.compat.android_world.env import interface
    from taskkit.compat.android_world.task_evals.utils import user_data_generation

    user_data_generation.write_mp3_file_to_device("/sdcard/Music/Night Drive.mp3", interface.AsyncEnv(env),
                                                  title="Night Drive", artist="Ann Lee", duration_milliseconds=185_000)
    tags = media.mp3_tags(env.device.files.read_bytes("/sdcard/Music/Night Drive.mp3"))
    assert (tags.title, tags.artist) == ("Night Drive", "Ann Lee") and abs(tags.duration_ms - 185_000) <= 18
    assert "Aaron" in user_data_generation.COMMON_GIVEN_NAMES
