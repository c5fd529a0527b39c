"""AndroidWorld-style task files run through taskkit.compat.android_world with only their imports
changed: seeded as AndroidWorld seeds them, `str.format` goals, `env.controller`, helper bases
left unregistered, and a registered name replaced only with --replace_tasks."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit import loading, registry
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.rng import instance_seed

ROOT = Path(__file__).resolve().parents[1]
# Written the way AndroidWorld writes task files; only the imports name taskkit.compat.
TASK_FILE = '''
import random
from typing import Any

from taskkit.compat.android_world.env import adb_utils
from taskkit.compat.android_world.env import interface
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.utils import schema
from taskkit.compat.android_world.env import device_constants
from taskkit.compat.android_world.utils import file_utils
from taskkit.compat.android_world.utils import fuzzy_match_lib


class _SettingsTask(task_eval.TaskEval):
  """A helper base, as AndroidWorld's are: never a task of its own."""

  app_names = ("settings",)
  complexity = 1


class AwBrightnessExact(_SettingsTask):
  """Set the brightness to an exact level."""

  schema = schema.create([schema.integer("level", is_required=True)])
  template = "Set the screen brightness to level {level} of 255."

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    return {"level": random.randint(1, 255)}

  def initialize_task(self, env: interface.AsyncEnv) -> None:
    super().initialize_task(env)
    adb_utils.put_settings("system", "screen_brightness", "0", env.controller)

  def is_successful(self, env: interface.AsyncEnv) -> float:
    super().is_successful(env)
    level = adb_utils.get_settings("system", "screen_brightness", env.controller)
    return 1.0 if level == str(self.params["level"]) else 0.0


class AwMarkorNote(task_eval.TaskEval):
  """Write a note; checked through file_utils and fuzzy_match_lib."""

  app_names = ("markor",)
  complexity = 1.2
  schema = schema.create([schema.string("file_name", is_required=True), schema.string("text", is_required=True)])
  template = "Create a note in Markor named {file_name} with the text: {text}"

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    return {"file_name": f"note_{random.randint(1, 999)}.md", "text": random.choice(["Buy milk", "Call Sam back"])}

  def initialize_task(self, env: interface.AsyncEnv) -> None:
    super().initialize_task(env)
    file_utils.clear_directory(device_constants.MARKOR_DATA, env.controller)

  def is_successful(self, env: interface.AsyncEnv) -> float:
    super().is_successful(env)
    name = self.params["file_name"]
    if not file_utils.check_file_or_folder_exists(name, device_constants.MARKOR_DATA, env.controller):
      return 0.0
    response = adb_utils.issue_generic_request(["shell", "cat", device_constants.MARKOR_DATA + "/" + name], env.controller)
    text = response.generic.output.decode()
    return 1.0 if fuzzy_match_lib.fuzzy_match(text, self.params["text"]) else 0.0
'''


# The same file plus a task under one of AndroidWorld's (and taskkit's) names.
REPLACING = TASK_FILE + '''

class SystemWifiTurnOn(_SettingsTask):
  """AndroidWorld's own name: replaces the built-in task only with --replace_tasks."""

  schema = schema.create([schema.string("on_or_off", is_required=True)])
  template = "Turn wifi {on_or_off}."

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    return {"on_or_off": "on"}

  def is_successful(self, env: interface.AsyncEnv) -> float:
    super().is_successful(env)
    return 1.0 if adb_utils.get_settings("global", "wifi_on", env.controller) in ("1", "2") else 0.0
'''


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    path = tmp_path / "aw_tasks.py"
    path.write_text(TASK_FILE)
    return path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_params_are_androidworlds_for_the_run_seed_and_goals_use_str_format(task_file: Path) -> None:
    shown = run("--task_module", str(task_file), "--show_instance", "AwBrightnessExact", "--n_task_combinations", "2")
    assert shown.returncode == 0, shown.stderr
    instances = json.loads("[" + shown.stdout.replace("}\n{", "},\n{") + "]")
    for index, instance in enumerate(instances):
        seed = instance_seed(30, "AwBrightnessExact", index)
        random.seed(seed)  # what AndroidWorld's suite does before generate_random_params()
        assert instance["params"] == {"level": random.randint(1, 255), "seed": seed}
        assert instance["goal"] == f"Set the screen brightness to level {instance['params']['level']} of 255."


def test_helper_bases_stay_out_and_a_registered_name_needs_replace_tasks(tmp_path: Path) -> None:
    task_file = tmp_path / "aw_replacing.py"
    task_file.write_text(REPLACING)
    refused = run("--task_module", str(task_file), "--list_tasks")
    assert refused.returncode == 2 and "'SystemWifiTurnOn' is defined twice" in refused.stderr
    listed = run("--task_module", str(task_file), "--replace_tasks", "--list_tasks", "--json")
    names = [task["name"] for task in json.loads(listed.stdout)]
    assert listed.returncode == 0 and "AwBrightnessExact" in names and "_SettingsTask" not in names
    assert listed.stderr.count("is replaced by the one in") == 1


def test_the_lifecycle_runs_with_env_controller_on_the_simulated_device(task_file: Path, tmp_path: Path,
                                                                         monkeypatch) -> None:
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))  # this test's tasks leave with it
    loading.load_module(str(task_file))
    cls = registry.get("AwBrightnessExact")
    device = sim_device(tmp_path / "device")
    env = Env(device)
    try:
        before = device.settings.get("system", "screen_brightness")
        task = cls.from_seed(instance_seed(30, "AwBrightnessExact", 0))
        task.initialize_state(env)
        assert task.is_successful(env) == 0.0
        device.settings.put("system", "screen_brightness", str(task.params["level"]))
        assert task.is_successful(env) == 1.0
        task.teardown(env)
        assert device.settings.get("system", "screen_brightness") == before  # taskkit's restore applies
        note = registry.get("AwMarkorNote").from_seed(7)
        note.initialize_state(env)
        from taskkit.compat.android_world.env import interface
        from taskkit.compat.android_world.utils import file_utils
        controller = interface.AsyncEnv(env).controller
        file_utils.create_file(note.params["file_name"], "/storage/emulated/0/Documents/Markor", controller, "Something else")
        assert note.is_successful(env) == 0.0
        file_utils.create_file(note.params["file_name"], "/storage/emulated/0/Documents/Markor", controller,
                               note.params["text"].lower())
        assert note.is_successful(env) == 1.0  # AndroidWorld's fuzzy match ignores case
        note.teardown(env)
        assert not device.files.exists(f"/storage/emulated/0/Documents/Markor/{note.params['file_name']}")
        noop = run("--task_module", str(task_file), "--tasks", "AwBrightnessExact", "--agent", "noop")
        assert noop.returncode == 0 and "AwBrightnessExact" in noop.stdout, noop.stderr
    finally:
        device.close()
