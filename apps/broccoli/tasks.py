"""Broccoli tasks: add, delete and de-duplicate recipes (AndroidWorld's Recipe* family,
`task_evals/single/recipe.py`).

AndroidWorld's noise-free delete variants seed only the targets; here a few other recipes always
surround them, so deleting every recipe is a near miss that fails (stricter than AndroidWorld).
Added recipes are compared on the fields the goal gives (title, description, servings,
preparation time, ingredients, directions; free text fuzzily, as AndroidWorld does); AndroidWorld
also compares `source`, which its goal never states — here the goal leaves it out and so does the
check.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import broccoli, markor, pictures, simple_gallery_pro
from taskkit.device.quoting import sql_literal
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, open_app, resource_id, tap, text, type_lines, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import duplicates_removed, rows_added, rows_deleted

RECIPES = broccoli.RECIPES
_APP = ("broccoli",)
_RECIPE = {
    "type": "object",
    "properties": {"title": {"type": "string", "minLength": 1}},
    "required": ["title"],
    "additionalProperties": True,
}
# The form's field of each column a goal states (activity_new_recipe.xml).
_FIELD_IDS = {"title": "new_title", "description": "new_description", "servings": "new_servings",
              "preparationTime": "new_preparation_time", "ingredients": "new_ingredients",
              "directions": "new_directions"}


def add_steps(recipe: dict[str, Any]) -> list[Step]:
    """From the recipe list: New Recipe, the stated fields typed in, Save (the details open)."""
    typed = [step for column, rid in _FIELD_IDS.items() for step in type_lines(rid, str(recipe.get(column) or ""))]
    return [tap("fab_recipes"), *typed, tap("button_save_recipe")]


def identifying_query(row: dict[str, Any]) -> str:
    """A search that finds `row` and not the recipes sharing its title: its title, source and
    ingredients (the search looks in title, description, source and ingredients)."""
    return f"{row['title']} {row['source']} {row['ingredients']}"


def delete_steps(queries: list[tuple[str, str]]) -> list[Step]:
    """With the list's search: for each (query, title), the query typed, the recipe titled so
    among the results opened, More options → Delete, confirmed."""
    steps = [tap("action_search")]
    for query, title in queries:
        steps += [type_text("search_src_text", query, clear=True),
                  tap(resource_id("card_text_view_title") & text(title)), tap("More options"), tap(text("Delete")),
                  tap(resource_id("android:id/button1"))]
    return steps


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

    def initialize_state(self, env: TaskEnv) -> None:
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

    def solve(self, env: TaskEnv) -> None:
        RECIPES.delete(env.device, self._named())
        broccoli.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """Each named recipe searched by its title and deleted from its details."""
        return [open_app("broccoli"), *delete_steps([(title, title) for title in self.titles])]


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


# The fields a recipe's goal states, in the order the goal lists them (AndroidWorld's text form).
STATED = ("title", "description", "servings", "preparationTime", "ingredients", "directions")
_LABELS = {"title": "Title", "description": "Description", "servings": "Servings",
           "preparationTime": "Preparation time", "ingredients": "Ingredients", "directions": "Directions"}
# What makes two recipes exact duplicates: every column but the key.
CONTENT = tuple(column for column in broccoli.COLUMNS if column != broccoli.KEY)


def _stated(row: dict[str, Any]) -> dict[str, Any]:
    return {field: row[field] for field in STATED}


def _insert_shuffled(env: TaskEnv, rows: list[dict[str, Any]], seed: int) -> None:
    TaskRng(seed).shuffle(rows)
    RECIPES.insert(env.device, rows)
    broccoli.APP.force_stop(env.device)


class RecipeAddMultipleRecipes(TaskEval):
    """Add recipes given field by field; the recipes already there stay."""

    app_names = _APP
    complexity = 6  # AndroidWorld's
    tags = ("data_entry", "parameterized")
    count = 3
    noise_count = 10
    template = ("Add the following recipes into the Broccoli app:\n{% for recipe in targets %}"
                + "".join(f"{label}: {{{{ recipe.{field} }}}}\n" for field, label in _LABELS.items()) + "\n{% endfor %}")
    schema = {
        "type": "object",
        "properties": {"targets": {"type": "array", "minItems": 1, "items": _RECIPE},
                       "noise_seed": {"type": "integer", "minimum": 0}},
        "required": ["targets", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        targets: list[dict[str, Any]] = []
        while len(targets) < cls.count:
            row = _stated(broccoli.random_recipe(rng))
            if all(row["title"] != other["title"] for other in targets):
                targets.append(row)
        return {"targets": targets, "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        titles = {target["title"] for target in self.params["targets"]}
        rng = TaskRng(self.params["noise_seed"])
        _insert_shuffled(env, broccoli.noise_recipes(rng, self.noise_count, exclude=lambda r: r["title"] in titles),
                         self.params["noise_seed"] + 1)

    def validator(self):
        return rows_added(RECIPES, [dict(target) for target in self.params["targets"]],
                          fuzzy=("title", "description", "ingredients", "directions"))

    def solve(self, env: TaskEnv) -> None:
        RECIPES.insert(env.device, [broccoli.random_recipe(TaskRng(0), **target) | {"source": ""}
                                    for target in self.params["targets"]])
        broccoli.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """Each recipe through New Recipe; from its details (open after Save) back to the list."""
        steps = [open_app("broccoli")]
        for index, recipe in enumerate(self.params["targets"]):
            steps += [back()] * bool(index) + add_steps(recipe)
        return steps


class RecipeAddSingleRecipe(RecipeAddMultipleRecipes):
    """Add one recipe."""

    complexity = 2.4  # AndroidWorld's
    count = 1


class RecipeAddMultipleRecipesFromMarkor(RecipeAddMultipleRecipes):
    """Add the recipes a Markor note lists (recipes.txt, written at setup)."""

    app_names = _APP + ("markor",)
    template = "Add the recipes from recipes.txt in Markor to the Broccoli recipe app."
    note = f"{markor.NOTES_DIR}/recipes.txt"

    def note_recipes(self) -> list[dict[str, Any]]:
        """The recipes the note lists, in its order."""
        return list(self.params["targets"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        text = "\n".join("".join(f"{label}: {recipe[field]}\n" for field, label in _LABELS.items())
                         for recipe in self.note_recipes())
        env.device.files.write_text(self.note, text)

    def gui_reference(self) -> list[Step]:
        """Read the note in Markor, then add its recipes (those the goal asks for)."""
        return [open_app("markor"), tap("recipes.txt"), *super().gui_reference()]


class RecipeAddMultipleRecipesFromImage(RecipeAddMultipleRecipes):
    """Add the recipes a picture lists (recipes.jpg in DCIM, field by field)."""

    app_names = _APP + ("simple gallery pro",)
    template = "Add the recipes from recipes.jpg in Simple Gallery Pro to the Broccoli recipe app."
    picture = "recipes.jpg"

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        lines = [line for recipe in self.params["targets"]
                 for line in [*(f"{label}: {recipe[field]}" for field, label in _LABELS.items()), ""]]
        simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DCIM, self.picture, pictures.text_picture(lines))

    def teardown(self, env: TaskEnv) -> None:
        simple_gallery_pro.remove_pictures(env.device, simple_gallery_pro.DCIM, [self.picture])
        super().teardown(env)

    def gui_reference(self) -> list[Step]:
        """Look at the picture in Simple Gallery Pro, then add its recipes."""
        return [open_app("simple gallery pro"), tap("DCIM"), tap(self.picture), *super().gui_reference()]


class RecipeAddMultipleRecipesFromMarkor2(RecipeAddMultipleRecipesFromMarkor):
    """Add only the recipes of a long Markor note that take a given preparation time."""

    template = ("Add the recipes from recipes.txt in Markor that take {{ prep_time }} to prepare into the Broccoli "
                "recipe app.")
    listed = 40  # other recipes in the note, none taking that time
    schema = {
        "type": "object",
        "properties": {**RecipeAddMultipleRecipesFromMarkor.schema["properties"],
                       "prep_time": {"type": "string", "minLength": 1}},
        "required": ["targets", "noise_seed", "prep_time"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        prep_time = rng.choice(broccoli.PREPARATION_TIMES)
        targets: list[dict[str, Any]] = []
        while len(targets) < cls.count:
            row = _stated(broccoli.random_recipe(rng, preparationTime=prep_time))
            if all(row["title"] != other["title"] for other in targets):
                targets.append(row)
        return {"targets": targets, "noise_seed": rng.getrandbits(32), "prep_time": prep_time}

    def note_recipes(self) -> list[dict[str, Any]]:
        rng = TaskRng(self.params["noise_seed"] + 2)
        others = [_stated(row) for row in broccoli.noise_recipes(
            rng, self.listed, exclude=lambda row: row["preparationTime"] == self.params["prep_time"])]
        rows = list(self.params["targets"]) + others
        rng.shuffle(rows)
        return rows


class RecipeDeleteDuplicateRecipes(TaskEval):
    """Of each group of exactly equal recipes keep one; every other recipe stays."""

    app_names = _APP
    complexity = 1  # AndroidWorld's
    tags = ("data_edit", "parameterized")
    others = 5  # other recipes around the duplicated one
    template = ("Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring at least "
                "one instance of each unique recipe remains")
    schema = {"type": "object", "properties": {"noise_seed": {"type": "integer", "minimum": 0}},
              "required": ["noise_seed"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"noise_seed": rng.getrandbits(32)}

    def rows(self) -> list[dict[str, Any]]:
        """The duplicated recipe twice among the others."""
        rng = TaskRng(self.params["noise_seed"])
        target = broccoli.random_recipe(rng)
        others = broccoli.noise_recipes(rng, self.others, exclude=lambda r: r["title"] == target["title"])
        return others + [target, dict(target)]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        _insert_shuffled(env, self.rows(), self.params["noise_seed"] + 1)

    def validator(self):
        return duplicates_removed(RECIPES, CONTENT)

    def solve(self, env: TaskEnv) -> None:
        columns = ", ".join(CONTENT)
        RECIPES.delete(env.device, f"{broccoli.KEY} NOT IN (SELECT MIN({broccoli.KEY}) FROM {broccoli.TABLE} "
                                   f"GROUP BY {columns})")
        broccoli.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """One copy of the duplicated recipe deleted, found by a search its look-alikes (the same
        title) do not match."""
        target = self.rows()[-1]
        return [open_app("broccoli"), *delete_steps([(identifying_query(target), target["title"])])]


class RecipeDeleteDuplicateRecipes2(RecipeDeleteDuplicateRecipes):
    """The duplicated recipe among six others and four look-alikes: the same title, other fields
    different (they must stay)."""

    complexity = 2.4  # AndroidWorld's
    others = 6
    lookalikes = 4
    same: tuple[str, ...] = ()  # what the look-alikes share with the duplicated recipe besides its title
    toast = 0  # 'Avocado Toast with Egg' recipes among the others (AndroidWorld puts them on top)

    def rows(self) -> list[dict[str, Any]]:
        rng = TaskRng(self.params["noise_seed"])
        target = broccoli.random_recipe(rng)
        rows = broccoli.noise_recipes(rng, self.others, exclude=lambda r: r["title"] == target["title"])
        rows += [broccoli.random_recipe(rng, title="Avocado Toast with Egg") for _ in range(self.toast)]
        lookalikes: list[dict[str, Any]] = []
        while len(lookalikes) < self.lookalikes:
            row = broccoli.random_recipe(rng, title=target["title"], **{field: target[field] for field in self.same})
            if row != target and row not in lookalikes:
                lookalikes.append(row)
        return rows + lookalikes + [target, dict(target)]


class RecipeDeleteDuplicateRecipes3(RecipeDeleteDuplicateRecipes2):
    """The duplicated recipe among 21 others, three 'Avocado Toast with Egg' recipes and eight
    look-alikes sharing its title and description: the agent must scroll and compare closely."""

    complexity = 3.4  # AndroidWorld's
    others, lookalikes, same, toast = 21, 8, ("description",), 3


class RecipeDeleteMultipleRecipesWithConstraint(RecipeDeleteMultipleRecipes):
    """Delete the recipes whose directions use one ingredient (three among 29 that do not)."""

    complexity = 4  # AndroidWorld's
    tags = ("data_edit", "parameterized", "screen_reading")
    noise_count = 29
    template = "Delete the recipes from Broccoli app that use {{ ingredient }} in the directions."
    schema = {
        "type": "object",
        "properties": {**RecipeDeleteMultipleRecipes.schema["properties"], "ingredient": {"type": "string", "minLength": 1}},
        "required": ["targets", "noise_seed", "ingredient"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        ingredient = rng.choice(broccoli.INGREDIENTS)
        targets = [broccoli.random_recipe(rng) for _ in range(cls.count)]
        return {"targets": targets, "noise_seed": rng.getrandbits(32), "ingredient": ingredient}

    def initialize_state(self, env: TaskEnv) -> None:
        TaskEval.initialize_state(self, env)
        ingredient = self.params["ingredient"]
        noise = broccoli.noise_recipes(TaskRng(self.params["noise_seed"]), self.noise_count,
                                       exclude=lambda row: ingredient in row["directions"].lower())
        targets = [target | {"directions": f"{target['directions']} Stir in the {ingredient}."}
                   for target in self.params["targets"]]  # the ingredient is what marks them
        _insert_shuffled(env, noise + targets, self.params["noise_seed"] + 1)

    def _named(self) -> str:
        """The recipes whose directions mention the ingredient (as the goal says, whatever their title)."""
        return f"instr(lower(directions), {sql_literal(self.params['ingredient'].lower())}) > 0"

    def gui_reference(self) -> list[Step]:
        """Each recipe whose directions use the ingredient, found by a search other recipes of
        its title do not match, deleted."""
        targets = self.params["targets"]
        return [open_app("broccoli"), *delete_steps([(identifying_query(t), t["title"]) for t in targets])]
