"""Recipe Box tasks, loaded with `--task_module examples.recipe_tasks` (or this file's path).

`RecipeAddFavorite` is the Python way to write a task; `examples/recipe_specs/recipe_delete.textproto`
is the declarative way (`--spec_dir examples/recipe_specs`). `examples/test_recipe_tasks.py` proves
both correct with `taskkit.testing`.
"""
from __future__ import annotations

from typing import Any

from examples import recipe_box
from taskkit import TaskEval, TaskRng
from taskkit.env import TaskEnv
from taskkit.validators import rows_added

RECIPES = recipe_box.RECIPES


class RecipeAddFavorite(TaskEval):
    """Add a recipe with its servings, preparation time and ingredients, marked as a favorite."""

    app_names = ("recipe box",)
    complexity = 3
    tags = ("data_entry", "recipes")
    template = (
        "In Recipe Box, add the recipe '{{ title }}' ({{ servings }}, ready in {{ preparation }}) with the "
        "ingredients {{ ingredients }}, and mark it as a favorite."
    )
    schema = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "minLength": 1},
            "servings": {"enum": list(recipe_box.SERVINGS)},
            "preparation": {"enum": list(recipe_box.PREPARATION)},
            "ingredients": {"type": "string", "minLength": 1},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["title", "servings", "preparation", "ingredients", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        recipe = recipe_box.random_recipe(rng)
        return {"title": recipe["title"], "servings": recipe["servings"], "preparation": recipe["preparationTime"],
                "ingredients": recipe["ingredients"], "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)  # the fixed clock, and an empty Recipe Box (database created)
        title = self.params["title"].lower()
        noise = recipe_box.noise_recipes(TaskRng(self.params["noise_seed"]), 4,
                                         exclude=lambda row: row["title"].lower() == title)
        recipe_box.RECIPES.insert(env.device, noise)

    def validator(self):
        expected = {"title": self.params["title"], "servings": self.params["servings"],
                    "preparationTime": self.params["preparation"], "ingredients": self.params["ingredients"],
                    "favorite": 1}
        return rows_added(RECIPES, [expected], fuzzy=("title", "ingredients"))

    def solve(self, env: TaskEnv) -> None:
        recipe_box.RECIPES.insert(env.device, [recipe_box.random_recipe(
            TaskRng(0), title=self.params["title"], servings=self.params["servings"],
            preparationTime=self.params["preparation"], ingredients=self.params["ingredients"], favorite=1)])
