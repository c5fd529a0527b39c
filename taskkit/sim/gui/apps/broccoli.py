"""Broccoli: the recipe list with its search, a recipe's details, the create-and-edit form and
deleting a recipe, over the `recipes` table of the app's Room database the checks read.

Ids and labels follow the app as AndroidWorld installs it (versionCode 1020600, versionName
1.2.6: github.com/flauschtrud/broccoli, tag v1.2.6, app/build.gradle):
- res/layout/app_bar_main.xml (`toolbar`), res/navigation/mobile_navigation.xml (the list's
  title "Recipes"), res/layout/fragment_recipes.xml (the list's own toolbar `toolbar_recipes`
  with the category `spinner` described "Categories", `recipes_empty` with "No recipes found.",
  "create a new recipe", "import a recipe from a website", the add button `fab_recipes`
  described "New Recipe"), res/layout/recipes_list.xml (`recycler_view` described "Recipes"),
  res/layout/recipe_item.xml (a 120 dp card: `card_image` "Recipe photo",
  `card_text_view_title`, `card_text_view_description`, `card_text_view_source`);
  res/menu/recipes.xml (`action_search` "Search", a collapsible SearchView whose hint is
  `search_in` "Search in %1$s" with the category's name upper-cased: "Search in ALL RECIPES");
- res/layout/activity_recipe_details.xml and content_recipe_details.xml (`details_title`,
  `details_servings` and `details_preparation_time` after icons described "Servings" and "Time",
  `details_description`, `details_source` after "Source", the "Ingredients" and "Directions"
  headings, the Cook button `fab_cooking_assistant`), ingredient_item.xml
  (`ingredient_quantity`, `ingredient_text`), direction_item.xml (`direction_position`,
  `direction_text`); res/menu/details.xml (`action_details_like` "Mark as favorite" /
  `action_details_unlike` "Remove from favorites" in the bar; Share, Share as file, Edit, Delete
  in the overflow);
- res/layout/activity_new_recipe.xml (the toolbar titled "New Recipe", also when editing, its
  close button and `button_save_recipe` "Save"; `new_image` "Recipe photo", `new_title` "Title",
  `new_categories` "Categories", `new_description` "Description", `new_source` "Source",
  `new_servings` "Servings", `new_preparation_time` "Time", `new_ingredients` "Ingredients",
  `new_directions` "Directions");
- res/values/strings.xml ("Delete this recipe?" with Delete and Cancel, "Discard changes?" with
  Discard and Cancel, "No categories have been created yet.", "All recipes").
Behaviour from the same tag's Java sources: the list is `ORDER BY title COLLATE NOCASE`
(recipe/RecipeDAO.java); the search runs as the query is typed, an FTS4 `MATCH 'query*'` over
title, description, source and ingredients (recipe/CoreRecipeFts.java, unicode61 tokens with
`#`), ordered by the first matching column, then title (RecipeRepository.java, RecipeDAO.java);
BACK first collapses an open search, which clears the query (recipe/list/RecipeFragment.java);
saving a new recipe opens its details, saving an edit goes back to them, a title of blanks is
refused (recipe/crud/CreateAndEditRecipeActivity.java, RecipeFragment.java); Delete asks, then
deletes and closes the details (recipe/details/RecipeDetailsActivity.java); ingredients and
directions are shown a line each, a leading quantity apart and step numbers counted
(ingredients/IngredientBuilder.java, directions/DirectionBuilder.java). Empty fields are stored
as "" (recipe/CoreRecipe.java), a new recipe with no image ("") and not a favorite.

Deleting several recipes is one at a time, as in the app: it has no multi-selection.

Simplified: the navigation drawer (Categories, Seasonal calendar, Support, Backup and restore,
Settings, About) is not drawn, and the category spinner shows "All recipes" only; the search
matches each typed word anywhere in those four fields (the last as a prefix), without FTS
phrases or operators; no way to add a photo (the photo fields do nothing; a recipe's `imageName`
file is drawn, in its card and as the header of its details, activity_recipe_details.xml
`backdrop` and `scrim`, half scrolled away as RecipeDetailsActivity.onCreate opens it, which does
not collapse further as the page scrolls; without a photo `backdrop` is dumped empty under the
collapsed bar), categories (the field shows the
app's "No categories have been created yet." dialog), cooking assistant (Cook does nothing),
sharing (Share and Share as file only close the menu), hashtags, web import or toasts (an
untitled recipe is silently not saved); BACK leaves the form without asking (the app asks
"Discard changes?" as its close button does here).

Pinned: AndroidWorld installs com.flauschcode.broccoli_1020600.apk; this model follows
flauschtrud/broccoli v1.2.6 (versionCode 1020600).
"""
from __future__ import annotations

import dataclasses
import posixpath
import re
from typing import Any

from taskkit.apps.broccoli import DB_PATH, KEY, PACKAGE, TABLE
from taskkit.sim.gui import appdata, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import EDIT_TEXT, Action, Box, Node
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("flauschtrud/broccoli", "v1.2.6", 1020600)
ID = f"{PACKAGE}:id/"
DETAILS = ".recipe.details.RecipeDetailsActivity"
EDITOR = ".recipe.crud.CreateAndEditRecipeActivity"
IMAGE_VIEW = "android.widget.ImageView"
CARD = "androidx.cardview.widget.CardView"  # MaterialCardView's accessibility class
PICTURES_DIR = f"/storage/emulated/0/Android/data/{PACKAGE}/files/Pictures"  # where the app keeps recipe photos
SEARCH_HINT = "Search in ALL RECIPES"
# The form's text fields in the layout's order (the Categories field sits after the title).
FORM = (
    widgets.Field("title", "Title", f"{ID}new_title"),
    widgets.Field("description", "Description", f"{ID}new_description", single_line=False),
    widgets.Field("source", "Source", f"{ID}new_source"),
    widgets.Field("servings", "Servings", f"{ID}new_servings"),
    widgets.Field("preparationTime", "Time", f"{ID}new_preparation_time"),
    widgets.Field("ingredients", "Ingredients", f"{ID}new_ingredients", single_line=False),
    widgets.Field("directions", "Directions", f"{ID}new_directions", single_line=False),
)
SEARCHED = ("title", "description", "source", "ingredients")  # recipes_fts's columns, in order
_AMOUNT = r"([¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]|\d+[,/.-]*\d*)"
_QUANTITY = re.compile(rf"^\s*{_AMOUNT}(\s*-\s*{_AMOUNT})?(?!$)", re.ASCII)  # an amount or a range


# --- data ---------------------------------------------------------------------------------------
def recipes(ui: Session) -> list[dict[str, Any]]:
    """Every recipe as the list shows it: by title, ASCII case folded (COLLATE NOCASE)."""
    return appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} ORDER BY title COLLATE NOCASE, {KEY}")


def recipe(ui: Session, recipe_id: int) -> dict[str, Any] | None:
    found = appdata.rows(ui, DB_PATH, f"SELECT * FROM {TABLE} WHERE {KEY} = ?", [recipe_id])
    return found[0] if found else None


def search(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """The rows the search shows for `query`: every word in some searched field (the last one as
    a prefix), by the first field that matches, then by title."""
    words = appdata.search_tokens(query)
    if not words:
        return rows
    ranked = []
    for row in rows:
        fields = [appdata.search_tokens(str(row.get(column) or "")) for column in SEARCHED]
        columns = []
        for index, word in enumerate(words):
            last = index == len(words) - 1
            hits = [c for c, found in enumerate(fields)
                    if any(t == word or (last and t.startswith(word)) for t in found)]
            if not hits:
                break
            columns.append(min(hits))
        else:
            ranked.append((min(columns), _nocase(row.get("title")), int(row[KEY]), row))
    return [row for *_, row in sorted(ranked, key=lambda item: item[:3])]


def _nocase(value: Any) -> bytes:
    """SQLite's NOCASE key: the UTF-8 bytes with ASCII letters folded."""
    return str(value or "").encode("utf-8").lower()


def ingredient_lines(value: str) -> list[tuple[str, str]]:
    """(quantity, text) per non-empty line, a leading dash dropped (IngredientBuilder)."""
    found = []
    for line in (value or "").split("\n"):
        line = re.sub(r"^\s*[-–](?!$)", "", line, count=1).strip()
        if line:
            match = _QUANTITY.search(line)
            quantity = match.group() if match else ""
            found.append((quantity, line.replace(quantity, "", 1) if quantity else line))
    return found


def direction_lines(value: str) -> list[str]:
    """The steps, one per non-empty line, typed step numbers dropped (DirectionBuilder)."""
    steps = (re.sub(r"^\s*(\d+\.)(?!$)", "", line, count=1).strip() for line in (value or "").split("\n"))
    return [step for step in steps if step]


def _lines(value: str, per_line: int = 34) -> int:
    """Lines a text takes at the body size (a rough measure; at most 8)."""
    return max(1, min(8, sum(max(1, -(-len(part) // per_line)) for part in (value or "").split("\n"))))


# --- actions ------------------------------------------------------------------------------------
def _values(ui: Session, frame: Frame) -> dict[str, str]:
    return {field.name: ui.draft(frame, field.name) for field in FORM}


def _dirty(ui: Session, frame: Frame) -> bool:
    """Something was typed: the fields differ from the recipe edited (or from an empty one)."""
    stored = recipe(ui, int(frame.args["recipe"])) if frame.args.get("recipe") is not None else None
    return any(value != str((stored or {}).get(name) or "") for name, value in _values(ui, frame).items())


def _save(frame: Frame) -> Action:
    def act(ui: Session) -> None:
        values = _values(ui, frame)
        if not values["title"].strip():
            return  # "Please add a title." (a toast): nothing is saved
        editing = frame.args.get("recipe")
        if editing is not None:
            appdata.update(ui, DB_PATH, TABLE, KEY, int(editing), values)
            ui.finish()  # back to the details, which show the saved recipe
            return
        new_id = appdata.insert(ui, DB_PATH, TABLE, {**values, "imageName": "", "favorite": 0})
        ui.finish()
        ui.push("detail", recipe=new_id)  # the list opens the new recipe's details
    return act


def _close(frame: Frame) -> Action:
    """The form's close button: asks before throwing typed text away."""
    def act(ui: Session) -> None:
        if _dirty(ui, frame):
            ui.push("discard")
        else:
            ui.finish()
    return act


def _discard(ui: Session) -> None:
    ui.finish()  # the dialog
    ui.finish()  # the form


def _delete(recipe_id: int) -> Action:
    def act(ui: Session) -> None:
        appdata.delete(ui, DB_PATH, TABLE, KEY, recipe_id)
        ui.finish()  # the dialog
        ui.finish()  # the details
    return act


def _toggle_favorite(row: dict[str, Any]) -> Action:
    def act(ui: Session) -> None:
        appdata.update(ui, DB_PATH, TABLE, KEY, int(row[KEY]), {"favorite": 0 if row["favorite"] else 1})
    return act


def _edit(row: dict[str, Any]) -> Action:
    def act(ui: Session) -> None:
        ui.push("edit", recipe=int(row[KEY]), drafts={f.name: str(row.get(f.name) or "") for f in FORM})
    return act


def _new_recipe(ui: Session) -> None:
    ui.push("edit")


# --- the recipe list ------------------------------------------------------------------------------
def _photo(ui: Session, row: dict[str, Any]) -> str | None:
    """The host path of the recipe's photo, None without one: RecipeImageService.findImage, the
    file `imageName` in the app's external Pictures folder (getExternalFilesDir(DIRECTORY_PICTURES))."""
    name = str(row.get("imageName") or "")
    if not name or "/" in name:
        return None
    path = appdata.host(ui, posixpath.join(PICTURES_DIR, name))
    return str(path) if path.is_file() else None


def _card(ui: Session, box: Box, row: dict[str, Any]) -> Node:
    """One recipe_item card: photo, title, description and source; a tap opens the details."""
    m = ui.m
    x1, y1, x2, y2 = box[0] + m.dp(8), box[1] + m.dp(8), box[2] - m.dp(8), box[3]
    left, right = x1 + (y2 - y1) + m.dp(8), x2 - m.dp(8)
    top = y1 + m.dp(10)
    photo = _photo(ui, row)  # ImageBindingAdapter: the photo cut to the square (centerCrop), else the placeholder
    children = [Node(IMAGE_VIEW, resource_id=f"{ID}card_image", content_desc="Recipe photo",
                     bounds=(x1, y1, x1 + (y2 - y1), y2),
                     image=pictures.cropped(photo) if photo else pictures.resource("broccoli/placeholder"))]
    for column, rid, height, size in (("title", "card_text_view_title", 36, 20),
                                      ("description", "card_text_view_description", 40, 14),
                                      ("source", "card_text_view_source", 20, 14)):
        value = str(row.get(column) or "")
        if value:
            children.append(widgets.text(ui, (left, top, right, top + m.dp(height)), value, f"{ID}{rid}", size_dp=size))
        top += m.dp(height)
    return Node(CARD, bounds=(x1, y1, x2, y2), clickable=True, focusable=True,
                action=lambda s, i=int(row[KEY]): s.push("detail", recipe=i), children=children)


def _recipes_bar(ui: Session, frame: Frame, top: int, searching: bool) -> tuple[Node, int]:
    """The list's own toolbar: the category spinner and Search, or the open search field."""
    m = ui.m
    bottom = top + m.dp(56)
    inset = m.dp(4)
    if searching:
        query = ui.draft(frame, "query")
        end = m.width - (m.dp(56) if query else m.dp(8))
        children = [widgets.icon_button(ui, (0, top, m.dp(56), bottom), "Collapse", Session.finish),
                    widgets.edit_text(ui, frame, "query", (m.dp(64), top + inset, end, bottom - inset), SEARCH_HINT,
                                      f"{ID}search_src_text")]
        if query:
            children.append(widgets.icon_button(ui, (end, top, m.width - m.dp(8), bottom), "Clear query",
                                                lambda s: s.set_draft(frame, "query", ""), f"{ID}search_close_btn",
                                                class_name=IMAGE_VIEW))
    else:
        spinner = Node("android.widget.Spinner", resource_id=f"{ID}spinner", content_desc="Categories", focusable=True,
                       bounds=(m.dp(16), top + inset, m.width - m.dp(64), bottom - inset),
                       children=[widgets.text(ui, (m.dp(24), top + inset, m.width - m.dp(96), bottom - inset),
                                              "All recipes", "android:id/text1", size_dp=18)])
        search_button = widgets.icon_button(ui, (m.width - m.dp(56), top + inset, m.width - m.dp(8), bottom - inset),
                                            "Search", lambda s: s.push("search", focus="query"), f"{ID}action_search",
                                            class_name="android.widget.Button")
        children = [spinner, search_button]
    return Node("android.view.ViewGroup", resource_id=f"{ID}toolbar_recipes", bounds=(0, top, m.width, bottom),
                background=(232, 240, 226), children=children), bottom


def _empty(ui: Session, top: int) -> Node:
    m = ui.m
    lines = ("No recipes found.", "create a new recipe", "import a recipe from a website")
    y = top + m.dp(50)
    children = [widgets.text(ui, (m.dp(50), y + m.dp(40) * i, m.width - m.dp(50), y + m.dp(40) * (i + 1)), line,
                             size_dp=20) for i, line in enumerate(lines)]
    return Node("android.widget.LinearLayout", resource_id=f"{ID}recipes_empty",
                bounds=(0, top, m.width, y + m.dp(40) * len(lines) + m.dp(50)), children=children)


def _list_screen(searching: bool):
    def build(ui: Session, frame: Frame) -> list[Node]:
        m = ui.m
        nodes, top = widgets.app_bar(ui, "Recipes", up=False, rid=f"{ID}toolbar")
        bar, top = _recipes_bar(ui, frame, top, searching)
        nodes.append(bar)
        shown = search(recipes(ui), ui.draft(frame, "query")) if searching else recipes(ui)
        if shown:
            rows = [widgets.Row(m.dp(128), lambda box, r=r: _card(ui, box, r)) for r in shown]
            listing = widgets.scroll_list(ui, frame, "list", (0, top, m.width, m.content_bottom), rows,
                                          rid=f"{ID}recycler_view")
            nodes.append(dataclasses.replace(listing, content_desc="Recipes"))
        else:
            nodes.append(_empty(ui, top))
        nodes.append(widgets.fab(ui, _new_recipe, f"{ID}fab_recipes", "New Recipe"))
        return nodes
    return build


# --- a recipe's details -------------------------------------------------------------------------
def _icon_line(ui: Session, box: Box, pairs: list[tuple[str, str, str]]) -> Node:
    """Icons described by their label (`details_icon_…`), each followed by its value (servings
    and time; source); content_recipe_details.xml hides both of a pair whose value is empty."""
    m = ui.m
    x, y1, x2, y2 = box
    children = []
    for label, value, rid in pairs:
        if not value:
            continue
        width = min(x2 - x - m.dp(32), m.dp(16 + 9 * len(value))) if len(pairs) > 1 else x2 - x - m.dp(32)
        icon_rid = f"{ID}{rid.replace('details_', 'details_icon_')}"
        children.append(Node(IMAGE_VIEW, content_desc=label, resource_id=icon_rid,
                             bounds=(x, y1 + m.dp(4), x + m.dp(24), y1 + m.dp(28))))
        children.append(widgets.text(ui, (x + m.dp(30), y1, x + m.dp(30) + width, y2), value, f"{ID}{rid}", size_dp=14))
        x += m.dp(30) + width + m.dp(16)
    return Node("android.view.ViewGroup", bounds=box, children=children)


def _detail_rows(ui: Session, row: dict[str, Any]) -> list[widgets.Row]:
    m = ui.m
    pad = m.dp(16)

    def line(height: int, make) -> widgets.Row:
        return widgets.Row(height, lambda box: make((box[0] + pad, box[1], box[2] - pad, box[3])))

    def label(value: str, rid: str, size: float = 14, per_line: int = 34, extra: float = 0) -> widgets.Row:
        height = m.dp(28 * _lines(value, per_line) + 8 + extra)
        return line(height, lambda box: widgets.text(ui, box, value, rid, size_dp=size))

    title = str(row.get("title") or "").strip()
    rows = [label(title, f"{ID}details_title", 22, 24, extra=8)]
    servings, time = str(row.get("servings") or ""), str(row.get("preparationTime") or "")
    if servings or time:
        rows.append(line(m.dp(40), lambda box: _icon_line(ui, box, [("Servings", servings, "details_servings"),
                                                                    ("Time", time, "details_preparation_time")])))
    if row.get("description"):
        rows.append(label(str(row["description"]), f"{ID}details_description"))
    if row.get("source"):
        rows.append(line(m.dp(40), lambda box: _icon_line(ui, box, [("Source", str(row["source"]), "details_source")])))
    for heading, items in (("Ingredients", ingredient_lines(str(row.get("ingredients") or ""))),
                           ("Directions", list(enumerate(direction_lines(str(row.get("directions") or "")), 1)))):
        if not items:
            continue
        rows.append(label(heading, "", 18, extra=8))
        for first, rest in items:
            rows.append(line(m.dp(28 * _lines(rest, 30) + 8),
                             lambda box, a=first, b=rest, h=heading: _item(ui, box, h, a, b)))
    return rows


def _item(ui: Session, box: Box, heading: str, first: Any, rest: str) -> Node:
    """An ingredient (its quantity, then the rest) or a direction (its number, then the step)."""
    m = ui.m
    x1, y1, x2, y2 = box
    ids = ("ingredient_quantity", "ingredient_text") if heading == "Ingredients" else \
        ("direction_position", "direction_text")
    children = []
    lead = str(first)
    start = x1
    if lead:
        width = m.dp(12 + 9 * len(lead))
        children.append(widgets.text(ui, (x1, y1, x1 + width, y2), lead, f"{ID}{ids[0]}", size_dp=14))
        start = x1 + width + m.dp(6)
    children.append(widgets.text(ui, (start, y1, x2, y2), rest, f"{ID}{ids[1]}", size_dp=14))
    return Node("android.view.ViewGroup", bounds=box, children=children)


#: Why a recipe without a photo dumps `backdrop` and the scrim View under its toolbar: Glide clears the
#: ImageView (recipe/images/ImageBindingAdapter.java), the app bar is collapsed (activity_recipe_details.xml
#: bind:expanded false) and CollapsingToolbarLayout.drawChild paints its contentScrim over them (Material
#: Components); both stay attached and visible, so uiautomator lists them, cut to the bar.
_UNDER_CONTENT_SCRIM = ("activity_recipe_details.xml: collapsed without a photo, under the content scrim "
                        "(RecipeDetailsActivity.java, ImageBindingAdapter.java)")


def _detail(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    row = recipe(ui, int(frame.args.get("recipe", 0)))
    if row is None:
        nodes, _ = widgets.app_bar(ui, "", rid=f"{ID}toolbar")
        return nodes
    liked = bool(row.get("favorite"))
    heart = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "Remove from favorites" if liked else "Mark as favorite",
                                _toggle_favorite(row), f"{ID}action_details_{'unlike' if liked else 'like'}",
                                class_name="android.widget.Button")
    more = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options", lambda s: s.push("menu", recipe=int(row[KEY])),
                               class_name=IMAGE_VIEW)
    nodes, top = widgets.app_bar(ui, str(row.get("title") or "").strip(), rid=f"{ID}toolbar", actions=(more, heart))
    photo = _photo(ui, row)
    header = nodes[0].bounds  # without a photo the app bar is collapsed to the toolbar (bind:expanded false)
    if photo:  # expanded over the photo (bind:expanded), its toolbar see-through on the scrim
        # app_bar_height_details, half scrolled away: RecipeDetailsActivity.onCreate's nested pre-scroll
        header = (0, m.status_bar, m.width, m.dp(400) // 2)
        top = header[3] - m.dp(16)
    # activity_recipe_details.xml: `backdrop` (clickable: RecipeDetailsActivity expands the bar on a
    # tap) and the 160 dp scrim View under the toolbar, both in the dump, cut to what the bar shows
    backdrop = Node(IMAGE_VIEW, resource_id=f"{ID}backdrop", content_desc="Recipe photo", bounds=header,
                    clickable=True, focusable=True, image=pictures.cropped(photo) if photo else "")
    scrim = Node("android.view.View", bounds=(0, m.status_bar, m.width, min(header[3], m.status_bar + m.dp(160))),
                 image=pictures.resource("broccoli/scrim"))
    if not photo:  # collapsed: CollapsingToolbarLayout draws its content scrim over both, then the toolbar
        backdrop, scrim = (dataclasses.replace(node, covered_by_design=_UNDER_CONTENT_SCRIM)
                           for node in (backdrop, scrim))
    nodes = [backdrop, scrim, *nodes]
    # activity_recipe_details.xml: the AppBarLayout `app_bar` holding the CollapsingToolbarLayout `toolbar_layout`
    nodes = [Node("android.widget.LinearLayout", resource_id=f"{ID}app_bar", bounds=header, children=[
        Node("android.widget.FrameLayout", resource_id=f"{ID}toolbar_layout", bounds=header, children=nodes)])]
    nodes.append(widgets.scroll_list(ui, frame, "details", (0, top + m.dp(16), m.width, m.content_bottom),
                                     _detail_rows(ui, row), rid=f"{ID}scroll_view",
                                     class_name="android.widget.ScrollView"))
    nodes.append(widgets.fab(ui, lambda s: None, f"{ID}fab_cooking_assistant", "Cook"))
    return nodes


def _menu(ui: Session, frame: Frame) -> list[Node]:
    row = recipe(ui, int(frame.args.get("recipe", 0)))
    if row is None:
        return widgets.popup_menu(ui, [])
    nothing: Action = lambda s: None  # noqa: E731 (sharing is not modeled: the menu closes)
    return widgets.popup_menu(ui, [("Share", nothing), ("Share as file", nothing), ("Edit", _edit(row)),
                                   ("Delete", lambda s, i=int(row[KEY]): s.push("delete", recipe=i))])


def _confirm_delete(ui: Session, frame: Frame) -> list[Node]:
    """The untitled AlertDialog: "Delete this recipe?", Delete, Cancel."""
    return widgets.dialog(ui, "", owner=PACKAGE, message="Delete this recipe?",
                          positive=("Delete", _delete(int(frame.args.get("recipe", 0)))))


# --- the create-and-edit form -----------------------------------------------------------------------
def _form_rows(ui: Session, frame: Frame) -> list[widgets.Row]:
    m = ui.m
    pad = m.dp(16)

    def photo(box: Box) -> Node:
        x1, y1, x2, y2 = box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad
        return Node("android.view.ViewGroup", bounds=(x1, y1, x2, y2), children=[
            Node(IMAGE_VIEW, resource_id=f"{ID}new_image", content_desc="Recipe photo", bounds=(x1, y1, x2, y2),
                 background=(200, 220, 190)),
            Node(IMAGE_VIEW, content_desc="Change photo",
                 bounds=(x2 - m.dp(44), y2 - m.dp(44), x2 - m.dp(10), y2 - m.dp(10)))])

    def field(spec: widgets.Field) -> widgets.Row:
        height = m.dp(56 + 24 * (_lines(ui.draft(frame, spec.name), 30) - 1))
        return widgets.Row(height + m.dp(8), lambda box: widgets.edit_text(
            ui, frame, spec.name, (box[0] + pad, box[1], box[2] - pad, box[1] + height), spec.hint, spec.rid,
            single_line=spec.single_line))

    def categories(box: Box) -> Node:
        return Node(EDIT_TEXT, text="Categories", resource_id=f"{ID}new_categories",
                    bounds=(box[0] + pad, box[1], box[2] - pad, box[3] - m.dp(8)), clickable=True,
                    action=lambda s: s.push("categories"), text_size=m.dp(18))

    return [widgets.Row(m.dp(180 + 32), photo), field(FORM[0]), widgets.Row(m.dp(64), categories),
            *(field(spec) for spec in FORM[1:])]


def _form(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    save = widgets.button(ui, (0, 0, m.dp(72), 0), "Save", _save(frame), f"{ID}button_save_recipe")
    nodes, top = widgets.app_bar(ui, "New Recipe", rid=f"{ID}toolbar", actions=(save,))
    bar = nodes[0]
    up = bar.children[0]
    bar.children[0] = dataclasses.replace(up, action=_close(frame))  # asks before discarding
    nodes.append(widgets.scroll_list(ui, frame, "form", (0, top, m.width, m.content_bottom), _form_rows(ui, frame),
                                     class_name="android.widget.ScrollView"))
    return nodes


def _categories(ui: Session, frame: Frame) -> list[Node]:
    return widgets.dialog(ui, "Categories", owner=PACKAGE, message="No categories have been created yet.",
                          positive=("OK", Session.finish), negative=None)


def _confirm_discard(ui: Session, frame: Frame) -> list[Node]:
    return widgets.dialog(ui, "", owner=PACKAGE, message="Discard changes?", positive=("Discard", _discard))


APP = register(AppScreens(
    PACKAGE,
    {"list": Screen(_list_screen(False)), "search": Screen(_list_screen(True)),
     "detail": Screen(_detail, DETAILS), "menu": Screen(_menu, DETAILS), "delete": Screen(_confirm_delete, DETAILS),
     "edit": Screen(_form, EDITOR), "categories": Screen(_categories, EDITOR),
     "discard": Screen(_confirm_discard, EDITOR)},
    first="list"))
