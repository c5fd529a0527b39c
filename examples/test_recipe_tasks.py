"""Prove the Recipe Box tasks correct with taskkit.testing: `pytest examples/test_recipe_tasks.py`.

`task_env` comes from taskkit's pytest plugin (registered when taskkit is installed; otherwise
add `-p taskkit.testing.plugin`). `check_task` runs every property over a few seeds — solvable,
not trivially solved, clean teardown, deterministic (also in a fresh process), near misses
derived from the validator rejected, and (hostile=True) hostile free text never injected — and
fails with the minimal seed and the command that reproduces it.
"""
from pathlib import Path

import pytest

from examples.recipe_tasks import RecipeAddFavorite
from taskkit import specs
from taskkit.testing import check_task

RecipeDeleteSpec = specs.load_file(Path(__file__).parent / "recipe_specs" / "recipe_delete.textproto")


@pytest.mark.parametrize("task_cls", [RecipeAddFavorite, RecipeDeleteSpec], ids=lambda cls: cls.name)
def test_recipe_task_is_correct(task_cls, task_env):
    check_task(task_cls, env=task_env, seeds=2, hostile=True)
