"""Broccoli: the `recipes` table of its Room database, and realistic recipe rows.

Sources: reference android-apps.md §3 (package, activity, version) and §4.6 (database path
`databases/broccoli` without extension, table `recipes`, columns, the servings and preparation
time values AndroidWorld uses); AndroidWorld `android_world/task_evals/single/recipe.py` and
`android_world/env/...sqlite_schema_utils` (Recipe columns) for the column set.
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.common import generate_excluding
from taskkit.apps.table import Database
from taskkit.rng import TaskRng

PACKAGE = "com.flauschcode.broccoli"
DB_DIR = f"/data/data/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/broccoli"
TABLE = "recipes"
KEY = "recipeId"

# The Room entity the app creates on its first run (reference android-apps.md §4.6).
DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE recipes (
    recipeId INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    title TEXT,
    description TEXT,
    imageName TEXT,
    source TEXT,
    servings TEXT,
    preparationTime TEXT,
    ingredients TEXT,
    directions TEXT,
    favorite INTEGER NOT NULL DEFAULT 0
);
"""
DATABASE = Database(DB_PATH, DDL)

SERVINGS = ("1 serving", "2 servings", "3-4 servings", "6 servings", "8 servings")
PREPARATION_TIMES = ("10 mins", "20 mins", "30 mins", "45 mins", "1 hrs", "2 hrs", "3 hrs", "4 hrs")

_DISHES = (
    "Spaghetti Carbonara", "Chicken Tikka Masala", "Vegetable Stir-Fry", "Beef Tacos", "Caprese Salad",
    "Mushroom Risotto", "Lentil Soup", "Banana Bread", "Shrimp Scampi", "Greek Salad",
    "Pancakes", "Chili con Carne", "Falafel Wraps", "Tomato Basil Bruschetta", "Pad Thai",
    "Quinoa Salad", "Baked Salmon", "Ratatouille", "French Onion Soup", "Guacamole",
)
_DESCRIPTIONS = (
    "A quick weeknight favorite.", "Comfort food for cold evenings.", "Light and fresh.",
    "Great for meal prep.", "A family recipe from {first}.", "Perfect for a summer picnic.",
    "Kid-friendly and easy.", "Hearty and filling.",
)
_SOURCES = ("{first}'s cookbook", "www.example-recipes.com", "Grandma's notebook", "Cooking class", "Magazine clipping")
INGREDIENTS = (
    "olive oil", "garlic", "onion", "salt", "pepper", "tomatoes", "basil", "chicken breast", "rice",
    "flour", "eggs", "butter", "milk", "lemon", "parsley", "cheese", "carrots", "beans",
)
_STEPS = (
    "Preheat the oven.", "Chop the vegetables.", "Heat oil in a pan.", "Mix all ingredients.",
    "Simmer for 20 minutes.", "Season to taste.", "Serve warm.", "Bake until golden.",
)


def random_recipe(rng: TaskRng, *, title: str | None = None, **fields: Any) -> dict[str, Any]:
    """A realistic `recipes` row without its key; `fields` override any column."""
    first = rng.faker.first_name()
    row: dict[str, Any] = {
        "title": title if title is not None else rng.choice(_DISHES),
        "description": rng.choice(_DESCRIPTIONS).format(first=first),
        "imageName": "",
        "source": rng.choice(_SOURCES).format(first=first),
        "servings": rng.choice(SERVINGS),
        "preparationTime": rng.choice(PREPARATION_TIMES),
        "ingredients": ", ".join(rng.sample(INGREDIENTS, 4)),
        "directions": " ".join(rng.sample(_STEPS, 3)),
        "favorite": 0,
    }
    unknown = set(fields) - set(row)
    if unknown:
        raise ValueError(f"unknown recipe columns {sorted(unknown)}")
    row.update(fields)
    return row


def noise_recipes(
    rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None, **kwargs: Any
) -> list[dict[str, Any]]:
    """`n` random recipes none of which `exclude` rejects (`kwargs` go to `random_recipe`)."""
    return generate_excluding(lambda: random_recipe(rng, **kwargs), n, exclude)


# --- device access ----------------------------------------------------------------------------
#: What the app stores for a field left empty: CoreRecipe keeps "" (never NULL) for every text, a
#: new recipe has no image ("") and is not a favorite (recipe/CoreRecipe.java at v1.2.6).
DEFAULTS = {"title": "", "description": "", "imageName": "", "source": "", "servings": "", "preparationTime": "",
            "ingredients": "", "directions": "", "favorite": 0}
#: The `recipes` table (key `recipeId`) of `/data/data/com.flauschcode.broccoli/databases/broccoli`.
RECIPES = DATABASE.table(TABLE, KEY, defaults=DEFAULTS)
COLUMNS = RECIPES.column_names

APP = App(
    name="broccoli",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    databases=(DATABASE,),
    tables=(RECIPES,),
    aliases=("broccoli - recipe app", "broccoli recipes", "broccoli app"),
)
