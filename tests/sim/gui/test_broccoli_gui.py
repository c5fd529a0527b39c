"""Broccoli through the simulated GUI: adding a recipe (every field → the `recipes` row the checks
read), editing it, deleting with the app's confirmation (and cancelling it), the list's search,
and a long list that scrolls. The Recipe* tasks' GUI references are proved in
test_gui_references.py."""
from __future__ import annotations

from taskkit.apps import broccoli
from taskkit.rng import TaskRng
from tests.sim.gui.helpers import find, tap, texts

MAIN = f"am start -n {broccoli.PACKAGE}/.MainActivity"
EDITOR = f"{broccoli.PACKAGE}.recipe.crud.CreateAndEditRecipeActivity"
# One line per row: a new line inside a value is printed as " / ".
COLUMNS = ("title, description, source, servings, preparationTime, ingredients, replace(directions, char(10), ' / '), "
           "imageName, favorite")


def _rows(device) -> list[list[str]]:
    """The recipes table as the sqlite3 command prints it (one list of columns per row)."""
    out = device.check(f'sqlite3 {broccoli.DB_PATH} "SELECT {COLUMNS} FROM recipes ORDER BY recipeId"')
    return [line.split("|") for line in out.splitlines() if line]


def _ids(device, rid: str) -> list[str]:
    """The texts of the elements whose resource id is `rid`, in screen order."""
    return [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith(f":id/{rid}")]


def _recipe(**fields) -> dict:
    return broccoli.random_recipe(TaskRng(1), **fields)


def _type_into(device, hint: str, value: str) -> None:
    tap(device, hint)
    device.check(f"input text '{value}'")


def test_a_new_recipe_is_saved_with_every_field_and_its_details_open(device) -> None:
    device.check(MAIN)
    assert "No recipes found." in texts(device)
    tap(device, "New Recipe")
    assert device.activity.foreground() == f"{broccoli.PACKAGE}/{EDITOR}"
    for hint, value in (("Title", "Lemon Tart"), ("Description", "Sharp and sweet"), ("Source", "Aunt Mia"),
                        ("Servings", "6 servings"), ("Time", "45 mins"), ("Ingredients", "2 lemons")):
        _type_into(device, hint, value)
    _type_into(device, "Directions", "Bake the crust.")
    device.check("input keyevent ENTER && input text 'Fill and chill.'")
    tap(device, "Save")
    assert _rows(device) == [["Lemon Tart", "Sharp and sweet", "Aunt Mia", "6 servings", "45 mins", "2 lemons",
                              "Bake the crust. / Fill and chill.", "", "0"]]
    assert device.activity.foreground().endswith(".recipe.details.RecipeDetailsActivity")
    assert _ids(device, "details_title") == ["Lemon Tart"]
    assert (_ids(device, "details_servings"), _ids(device, "details_preparation_time")) == (["6 servings"], ["45 mins"])
    # IngredientBuilder cuts the quantity off the line and keeps the rest as it is (" lemons").
    assert (_ids(device, "ingredient_quantity"), _ids(device, "ingredient_text")) == (["2"], [" lemons"])
    assert _ids(device, "direction_position") == ["1", "2"]
    assert _ids(device, "direction_text") == ["Bake the crust.", "Fill and chill."]
    device.check("input keyevent BACK")
    assert _ids(device, "card_text_view_title") == ["Lemon Tart"]
    assert _ids(device, "card_text_view_source") == ["Aunt Mia"]


def test_an_untitled_recipe_is_not_saved_and_close_asks_before_discarding(device) -> None:
    device.check(MAIN)
    tap(device, "New Recipe")
    tap(device, "Save")  # no title: the app refuses
    assert _rows(device) == [] and find(device, "button_save_recipe")
    _type_into(device, "Description", "Only a description")
    tap(device, "Save")
    assert _rows(device) == []
    tap(device, "Navigate up")
    assert find(device, "message").text == "Discard changes?"
    tap(device, "Cancel")
    assert find(device, "new_description").text == "Only a description"
    tap(device, "Navigate up")
    tap(device, "Discard")
    assert _rows(device) == [] and "No recipes found." in texts(device)
    tap(device, "New Recipe")
    tap(device, "Navigate up")  # nothing typed: closes at once
    assert "No recipes found." in texts(device)


def test_edit_changes_the_row_in_place(device) -> None:
    broccoli.RECIPES.insert(device, [_recipe(title="Plain Toast", favorite=1)])
    before = _rows(device)[0]
    device.check(MAIN)
    tap(device, "Plain Toast")
    tap(device, "More options")
    assert [e.text for e in device.ui.screen().elements if e.text] == ["Share", "Share as file", "Edit", "Delete"]
    tap(device, "Edit")
    assert find(device, "new_title").text == "Plain Toast"
    assert find(device, "new_servings").text == before[3]
    tap(device, "new_title")
    device.check("input keycombination 113 29 && input keyevent DEL && input text 'Garlic Toast'")
    tap(device, "Save")
    assert _rows(device) == [["Garlic Toast", *before[1:]]]  # favorite and the other fields kept
    assert device.activity.foreground().endswith(".recipe.details.RecipeDetailsActivity")
    assert _ids(device, "details_title") == ["Garlic Toast"]


def test_delete_asks_and_cancel_keeps_the_recipe(device) -> None:
    broccoli.RECIPES.insert(device, [_recipe(title="Keep Me"), _recipe(title="Drop Me")])
    device.check(MAIN)
    tap(device, "Drop Me")
    tap(device, "More options")
    tap(device, "Delete")
    assert find(device, "message").text == "Delete this recipe?"
    tap(device, "Cancel")
    assert [row[0] for row in _rows(device)] == ["Keep Me", "Drop Me"]
    assert _ids(device, "details_title") == ["Drop Me"]
    tap(device, "More options")
    tap(device, "Delete")
    tap(device, "Delete")  # the dialog's
    assert [row[0] for row in _rows(device)] == ["Keep Me"]
    assert device.activity.foreground() == f"{broccoli.PACKAGE}/{broccoli.PACKAGE}.MainActivity"
    assert _ids(device, "card_text_view_title") == ["Keep Me"]


def test_favorite_toggles_the_column(device) -> None:
    broccoli.RECIPES.insert(device, [_recipe(title="Soup")])
    device.check(MAIN)
    tap(device, "Soup")
    tap(device, "Mark as favorite")
    assert _rows(device)[0][-1] == "1"
    tap(device, "Remove from favorites")
    assert _rows(device)[0][-1] == "0"


def test_search_filters_as_typed_by_title_first_and_back_collapses_it(device) -> None:
    broccoli.RECIPES.insert(device, [
        _recipe(title="Apple Pie", description="Sweet.", source="Book", ingredients="apples, garlic butter"),
        _recipe(title="Garlic Bread", description="Crisp.", source="Book", ingredients="bread"),
        _recipe(title="Beef Stew", description="Slow.", source="Book", ingredients="beef", directions="Add garlic."),
        _recipe(title="Banana Bread", description="Moist.", source="Book", ingredients="bananas"),
    ])
    device.check(MAIN)
    tap(device, "Search")
    field = find(device, "search_src_text")
    assert field.is_focused and field.text == "Search in ALL RECIPES"
    assert not _ids(device, "spinner")
    device.check("input text gar")  # a prefix; a title match first, then an ingredient's; not the directions
    assert _ids(device, "card_text_view_title") == ["Garlic Bread", "Apple Pie"]
    device.check("input text 'lic bu'")  # "garlic bu*": both words, in any searched field
    assert _ids(device, "card_text_view_title") == ["Apple Pie"]
    tap(device, "Clear query")
    assert _ids(device, "card_text_view_title") == ["Apple Pie", "Banana Bread", "Beef Stew", "Garlic Bread"]
    device.check("input text zucchini")
    assert _ids(device, "card_text_view_title") == [] and "No recipes found." in texts(device)
    device.check("input keyevent BACK")  # collapses the search and clears it
    assert _ids(device, "spinner") and device.activity.foreground().endswith(".MainActivity")
    assert _ids(device, "card_text_view_title") == ["Apple Pie", "Banana Bread", "Beef Stew", "Garlic Bread"]
    tap(device, "Search")
    assert find(device, "search_src_text").text == "Search in ALL RECIPES"


def test_a_search_survives_deleting_a_found_recipe(device) -> None:
    broccoli.RECIPES.insert(device, [_recipe(title=f"Tomato Soup {n}") for n in (1, 2)] + [_recipe(title="Pancakes")])
    device.check(MAIN)
    tap(device, "Search")
    device.check("input text tomato")
    tap(device, "Tomato Soup 2")
    tap(device, "More options")
    tap(device, "Delete")
    tap(device, "Delete")
    assert find(device, "search_src_text").text == "tomato"
    assert _ids(device, "card_text_view_title") == ["Tomato Soup 1"]


def test_a_long_list_is_sorted_by_title_and_scrolls(device) -> None:
    titles = [f"Recipe {n:02d}" for n in range(30)]
    broccoli.RECIPES.insert(device, [_recipe(title=title) for title in reversed(titles)])
    device.check(MAIN)
    shown = _ids(device, "card_text_view_title")
    assert shown == titles[:len(shown)] and len(shown) < 10
    box = find(device, "recycler_view").bbox
    assert find(device, "recycler_view").is_scrollable
    seen = list(shown)
    for _ in range(15):  # drags too slow to fling (under 50 dp/s): the list moves by the finger only
        device.check(f"input swipe {box.center[0]} {box.y_max - 100} {box.center[0]} {box.y_min + 100} 20000")
        seen += [title for title in _ids(device, "card_text_view_title") if title not in seen]
    assert seen == titles
    tap(device, "Recipe 29")
    assert _ids(device, "details_title") == ["Recipe 29"]
