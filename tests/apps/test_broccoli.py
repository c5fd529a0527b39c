"""taskkit.apps.broccoli: the recipes schema, seeded recipe rows, and the table on a fresh simulator."""
from __future__ import annotations

import pytest

from taskkit import apps
from taskkit.apps import broccoli
from taskkit.connect import sim_device
from taskkit.rng import TaskRng

# Reference android-apps.md §4.6: the columns AndroidWorld reads or writes.
REFERENCE_COLUMNS = {"recipeId", "title", "description", "source", "ingredients", "directions",
                     "servings", "preparationTime", "favorite", "imageName"}


def test_schema_matches_the_reference():
    assert set(broccoli.COLUMNS) == REFERENCE_COLUMNS
    assert broccoli.DB_PATH == "/data/data/com.flauschcode.broccoli/databases/broccoli"


def test_same_seed_same_rows_and_different_seeds_differ():
    assert broccoli.noise_recipes(TaskRng(7), 10) == broccoli.noise_recipes(TaskRng(7), 10)
    assert broccoli.noise_recipes(TaskRng(7), 10) != broccoli.noise_recipes(TaskRng(8), 10)


def test_random_recipe_is_realistic():
    rows = broccoli.noise_recipes(TaskRng(1), 200)
    for row in rows:
        assert set(row) == REFERENCE_COLUMNS - {"recipeId"}
        assert row["servings"] in broccoli.SERVINGS and row["preparationTime"] in broccoli.PREPARATION_TIMES
        assert row["title"].strip() and row["ingredients"].count(",") == 3 and row["imageName"] == ""
    assert len({r["title"] for r in rows}) == len(broccoli._DISHES)


def test_fields_override_and_unknown_columns_fail():
    row = broccoli.random_recipe(TaskRng(2), title="Soup", favorite=1)
    assert (row["title"], row["favorite"]) == ("Soup", 1)
    with pytest.raises(ValueError, match="calories"):
        broccoli.random_recipe(TaskRng(2), calories=3)


def test_noise_respects_exclude():
    rows = broccoli.noise_recipes(TaskRng(4), 30, exclude=lambda r: r["title"] == "Pancakes")
    assert len(rows) == 30 and all(r["title"] != "Pancakes" for r in rows)


def test_registered():
    assert apps.get("broccoli") is broccoli.APP
    assert broccoli.APP.component == "com.flauschcode.broccoli/.MainActivity"


def test_database_exists_on_a_fresh_sim_device():
    device = sim_device()
    assert list(broccoli.COLUMNS) == list(device.sqlite.columns(broccoli.DB_PATH, broccoli.TABLE))
    assert broccoli.RECIPES.rows(device) == []
    broccoli.RECIPES.insert(device, broccoli.noise_recipes(TaskRng(5), 3))
    assert [r["recipeId"] for r in broccoli.RECIPES.rows(device)] == [1, 2, 3]
