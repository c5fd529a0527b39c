"""A worked example of a new app model: "Recipe Box", a small recipes app.

An app model says everything tasks need to know about an app: its package and launcher
activity, where its state lives (`data_paths`: saved before each task, restored by teardown),
its database schema (`Database(path, DDL)`: the tables, their typed columns and key), realistic
rows drawn from a seeded rng, and `reset`, which brings the app to its first-run state. The
schema is all the rest of taskkit needs: the simulated device creates the database from it,
and specs naming the app are type-checked against it. `reset` also creates the database when
it is missing, for a device opened before this module registered the app (or a rooted phone).

Importing this module registers the app (`apps.register`), so tasks can name it in `app_names`
and specs in `apps:`.
"""
from __future__ import annotations

import posixpath
from typing import Any, Callable

from taskkit import apps
from taskkit.apps.base import App
from taskkit.apps.common import generate_excluding
from taskkit.apps.table import Database
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "org.taskkit.examples.recipebox"
ACTIVITY = ".MainActivity"
DATA_DIR = f"/data/data/{PACKAGE}"
DB_PATH = f"{DATA_DIR}/databases/recipes.db"
TABLE, KEY = "recipes", "recipeId"
DDL = (
    "CREATE TABLE IF NOT EXISTS recipes (recipeId INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, "
    "description TEXT NOT NULL DEFAULT '', servings TEXT NOT NULL DEFAULT '', preparationTime TEXT NOT NULL "
    "DEFAULT '', ingredients TEXT NOT NULL DEFAULT '', directions TEXT NOT NULL DEFAULT '', favorite INTEGER "
    "NOT NULL DEFAULT 0);"
)
DATABASE = Database(DB_PATH, DDL)
RECIPES = DATABASE.table(TABLE, KEY)

SERVINGS = ("1 serving", "2 servings", "3-4 servings", "6 servings", "8 servings")
PREPARATION = ("10 mins", "20 mins", "30 mins", "45 mins", "1 hrs", "2 hrs")
_DISHES = ("soup", "salad", "curry", "risotto", "stew", "pasta", "tacos", "pancakes", "omelette", "pie")
_MAIN = ("tomato", "lentil", "mushroom", "chickpea", "pumpkin", "spinach", "salmon", "chicken", "apple", "leek")
_INGREDIENTS = ("olive oil", "garlic", "onion", "salt", "pepper", "butter", "flour", "eggs", "milk", "lemon",
                "parsley", "rice", "stock", "cream", "cheese")


def random_recipe(rng: TaskRng, **fixed: Any) -> dict[str, Any]:
    """A realistic `recipes` row without its key; `fixed` sets any column."""
    main, dish = rng.choice(_MAIN), rng.choice(_DISHES)
    row = {
        "title": f"{main.capitalize()} {dish}",
        "description": rng.faker.sentence(nb_words=8),
        "servings": rng.choice(SERVINGS),
        "preparationTime": rng.choice(PREPARATION),
        "ingredients": ", ".join([main] + rng.sample(_INGREDIENTS, 4)),
        "directions": " ".join(rng.faker.sentence(nb_words=7) for _ in range(3)),
        "favorite": 0,
    }
    unknown = set(fixed) - set(RECIPES.column_names[1:])
    if unknown:
        raise ValueError(f"unknown recipes column(s): {', '.join(sorted(unknown))}")
    return {**row, **fixed}


def noise_recipes(rng: TaskRng, n: int, exclude: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """`n` random recipes none of which `exclude` rejects."""
    return generate_excluding(lambda: random_recipe(rng), n, exclude)


def reset(device: Device) -> None:
    """First-run state: the database exists (created if missing) and holds no recipe."""
    device.files.mkdir(posixpath.dirname(DB_PATH))
    device.sqlite.execute(DB_PATH, DDL)
    RECIPES.clear(device)


APP = apps.register(App(
    name="recipe box",
    package=PACKAGE,
    activity=ACTIVITY,
    data_paths=(DATA_DIR,),
    reset=reset,
    databases=(DATABASE,),
    tables=(RECIPES,),
))
