"""Broccoli tasks: delete recipes (AndroidWorld's RecipeDelete* family, `task_evals/single/recipe.py`).

AndroidWorld's noise-free variants seed only the targets; here a few other recipes always
surround them, so deleting every recipe is a near miss that fails (stricter than AndroidWorld).
AndroidWorld's `difficulty` and `optimal_steps` (task_metadata.json) are noted per class.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import broccoli
from taskkit.device.quoting import sql_literal
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import rows_deleted

RECIPES = broccoli.RECIPES
_APP = ("broccoli",)
_RECIPE = {
    "type": "object",
    "properties": {"title": {"type": "string", "minLength": 1}},
    "required": ["title"],
    "additionalProperties": True,
}


class RecipeDeleteMultipleRecipes(TaskEval):
    """Delete the named recipes; every other recipe stays."""

    app_names = _APP
    complexity = 2.4  # AndroidWorld's; difficulty easy, optimal_steps 12
    tags = ("data_edit", "parameterized")
    count = 3
    noise_count = 4  # AndroidWorld: 0 (see the module docstring)
    template = "Delete the following recipes from Broccoli app: {{ targets | map(attribute='title') | join(', ') }}."
    schema = {
        "type": "object",
        "properties": {
            "targets": {"type": "array", "minItems": 1, "items": _RECIPE},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["targets", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        targets: list[dict[str, Any]] = []
        while len(targets) < cls.count:
            row = broccoli.random_recipe(rng)
            if all(row["title"] != other["title"] for other in targets):
                targets.append(row)
        return {"targets": targets, "noise_seed": rng.getrandbits(32)}

    @property
    def titles(self) -> list[str]:
        return [target["title"] for target in self.params["targets"]]

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        titles = set(self.titles)
        noise = broccoli.noise_recipes(TaskRng(self.params["noise_seed"]), self.noise_count,
                                       exclude=lambda row: row["title"] in titles)
        half = len(noise) // 2
        RECIPES.insert(env.device, noise[:half] + list(self.params["targets"]) + noise[half:])
        broccoli.APP.force_stop(env.device)

    def _named(self) -> str:
        return f"title IN ({', '.join(sql_literal(title) for title in self.titles)})"

    def validator(self):
        return rows_deleted(RECIPES, self._named())

    def solve(self, env: Any) -> None:
        RECIPES.delete(env.device, self._named())
        broccoli.APP.force_stop(env.device)


class RecipeDeleteSingleRecipe(RecipeDeleteMultipleRecipes):
    """Delete one named recipe."""

    complexity = 1  # AndroidWorld's; difficulty easy, optimal_steps 5
    tags = ("data_edit", "search", "parameterized")
    count = 1


class RecipeDeleteSingleWithRecipeWithNoise(RecipeDeleteSingleRecipe):
    """Delete one named recipe among 29 others."""

    complexity = 2  # AndroidWorld's; difficulty easy, optimal_steps 10
    tags = ("search", "screen_reading", "data_edit", "parameterized")
    noise_count = 29


class RecipeDeleteMultipleRecipesWithNoise(RecipeDeleteMultipleRecipes):
    """Delete three named recipes among 29 others."""

    complexity = 3.4  # AndroidWorld's; difficulty medium, optimal_steps 17
    tags = ("parameterized", "search", "complex_ui_understanding", "repetition")
    noise_count = 29
