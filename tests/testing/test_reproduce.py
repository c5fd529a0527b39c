"""The reproduce command names the task's source: built in, a module, a file, or a spec folder."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from taskkit import loading, registry
from taskkit.testing.reproduce import command
from tests.testing import broken_tasks

ROOT = Path(__file__).resolve().parents[2]
loading.load_builtin()


def test_built_in_tasks_and_specs_need_no_source_flag():
    assert command(registry.get("SimpleSmsSend"), "solvable", 7) == (
        "python -m taskkit.check --tasks SimpleSmsSend --seed 7 --properties solvable")
    assert command(registry.get("ExpenseRenameSpec"), "near_miss", 3, "adb:emulator-5554") == (
        "python -m taskkit.check --tasks ExpenseRenameSpec --seed 3 --properties near_miss --device adb:emulator-5554")


def test_an_unregistered_class_is_checked_directly_from_its_module():
    assert command(broken_tasks.AddCoffee, "near_miss", 5) == (
        "python -c 'from tests.testing.broken_tasks import AddCoffee; from taskkit.testing import check_near_miss; "
        "check_near_miss(AddCoffee, seeds=[5])'")


def test_a_class_from_a_file_path_is_loaded_from_that_path(monkeypatch):
    name = "taskkit_user_reproduce_copy"
    spec = importlib.util.spec_from_file_location(name, Path(broken_tasks.__file__))
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    monkeypatch.chdir(ROOT)
    assert 'spec_from_file_location("tasks", "tests/testing/broken_tasks.py")' in command(module.AddCoffee, "solvable", 1)


def test_a_spec_of_an_app_defined_outside_apps_loads_that_app_first(monkeypatch):
    from taskkit import apps
    from taskkit import specs

    for name in ("_APPS", "_BY_NAME"):  # the example app is registered for this test only
        monkeypatch.setattr(apps, name, getattr(apps, name))
    importlib.reload(importlib.import_module("examples.recipe_box"))  # registers the app

    monkeypatch.chdir(ROOT)
    [task] = specs.load_dir(ROOT / "examples" / "recipe_specs", register=False).classes
    assert command(task, "solvable", 2) == (
        "python -m taskkit.check --task_module examples.recipe_box --spec_dir examples/recipe_specs "
        "--tasks RecipeDeleteSpec --seed 2 --properties solvable")
