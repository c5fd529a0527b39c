"""The views issue #35's recall table named missing on Markor's, Simple Gallery's, Simple Draw's,
Pro Expense's, Retro Music's and Broccoli's screens, nested as their layouts nest them and doing
what the apps do (Markor's new-file spinners, rename clash, move dialog's home and search; the
folder picker's show-hidden button; Pro Expense's lock and entry time; Retro's shuffle button and
playlist grid). Each new screen is audited: what its dump names is drawn (taskkit.sim.gui.audit)."""
from __future__ import annotations

from taskkit.apps import broccoli, expense, markor, receipts, retro_music, simple_gallery_pro
from taskkit.rng import TaskRng
from taskkit.sim.devicetime import local_time
from tests.sim.gui.helpers import find, tap, texts
from tests.sim.gui.test_recall_views import _drawn, _ids, _path, _tree

MARKOR = "am start -n net.gsantner.markor/.activity.MainActivity"
GALLERY = "am start -n com.simplemobiletools.gallery.pro/.activities.MainActivity"
DRAW = "am start -n com.simplemobiletools.draw.pro/.activities.MainActivity"
EXPENSE = f"am start -n {expense.PACKAGE}/.ui.MainActivity"
RETRO = f"am start -n {retro_music.PACKAGE}/.activities.MainActivity"
BROCCOLI = f"am start -n {broccoli.PACKAGE}/.MainActivity"


def _long_press(device, label: str) -> None:
    x, y = find(device, label).bbox.center
    device.check(f"input swipe {x} {y} {x} {y} 600")


def test_markors_browser_nests_as_main_activity_and_keeps_its_bar_and_button_while_selecting(device) -> None:
    markor.create_note(device, "a.md", "x\n")
    device.check(MARKOR)
    tree = _tree(device)
    assert _path(tree, "ui__filesystem_dialog__list")[-3:] == ["main__view_pager_container", "pull_to_refresh",
                                                              "ui__filesystem_dialog__list"]
    assert _path(tree, "action_search")[:2] == ["appbar", "toolbar"]
    assert "opoc_filesystem_item__root" in _ids(device)
    _long_press(device, "a.md")
    shown = _ids(device)
    assert {"fab_add_new_item", "bottom_navigation_bar", "nav_todo", "pull_to_refresh", "appbar"} <= set(shown)
    _drawn(device)


def test_markors_new_file_type_sets_the_extension_and_a_jekyll_template_prefixes_the_date(device) -> None:
    device.check(MARKOR)
    tap(device, "fab_add_new_item")
    assert {"new_file_dialog__root", "new_file_dialog__type", "new_file_dialog__template"} <= set(_ids(device))
    assert {"Markdown", "Empty file", "Name", "Type", "Template"} <= set(texts(device))
    _drawn(device)
    device.check("input text notes")
    tap(device, "Markdown")  # the spinner takes the tap on its text
    tap(device, "Plain Text")
    assert find(device, "new_file_dialog__ext").text == ".txt"
    tap(device, "Empty file")
    tap(device, "2029-01-01-jekyll-post.md")
    prefix = local_time(device.state).strftime("%Y-%m-%d-")
    assert find(device, "new_file_dialog__name").text == f"{prefix}notes"
    tap(device, "OK")
    assert device.files.exists(markor.note_path(f"{prefix}notes.txt"))


def test_markors_rename_names_a_clash_and_holds_ok_until_the_name_changes(device) -> None:
    markor.create_note(device, "a.md", "x\n")
    markor.create_note(device, "b.md", "y\n")
    device.check(MARKOR)
    _long_press(device, "a.md")
    tap(device, "Rename")
    device.check("input keyevent KEYCODE_DEL KEYCODE_DEL KEYCODE_DEL KEYCODE_DEL && input text b.md")
    tap(device, "OK")
    assert "File/folder already exists! Please use a different name" in texts(device)
    assert not find(device, "OK").is_clickable
    device.check("input keyevent KEYCODE_DEL && input text x")
    assert find(device, "OK").is_clickable and "File/folder already exists! Please use a different name" not in texts(device)


def test_markors_move_dialog_goes_home_and_searches_its_folders(device) -> None:
    markor.create_note(device, "a.md", "x\n")
    device.check(MARKOR)
    _long_press(device, "a.md")
    tap(device, "More options")
    tap(device, "Move")
    assert {"ui__filesystem_dialog__home", "ui__filesystem_dialog__search_button", "opoc_filesystem_item__description",
            "opoc_filesystem_item__root"} <= set(_ids(device))
    tap(device, "ui__filesystem_dialog__home")
    assert {"Alarms", "/storage/emulated/0"} <= set(texts(device))  # external storage's folders, described by it
    tap(device, "ui__filesystem_dialog__search_button")
    device.check("input text Down")
    folders = [e.text for e in device.ui.screen().elements if (e.resource_name or "").endswith("opoc_filesystem_item__title")]
    assert folders == ["..", "Download"] or folders == ["Download"]
    _drawn(device)


def test_the_galleries_folder_screen_is_a_search_menu_whose_arrow_goes_back(device) -> None:
    receipt = receipts.random_receipt(TaskRng(7))
    simple_gallery_pro.add_picture(device, simple_gallery_pro.DCIM, "r.jpg", receipts.receipt_jpeg(receipt))
    device.check(GALLERY)
    assert {"directories_refresh_layout", "directories_fastscroller"} <= set(_ids(device))
    tap(device, "DCIM")
    assert find(device, "top_toolbar_search").text == "Search in DCIM"
    assert {"media_menu", "toggle_filename", "sort", "media_fastscroller"} <= set(_ids(device))
    _drawn(device)
    tap(device, "r.jpg")
    assert {"view_pager", "bottom_actions", "top_shadow", "medium_viewer_appbar"} <= set(_ids(device))
    device.check("input keyevent BACK")
    tap(device, "top_toolbar_search_icon")
    assert "dir_name" in _ids(device)  # back on the folders


def test_the_folder_pickers_show_hidden_button_lists_hidden_folders(device) -> None:
    receipt = receipts.random_receipt(TaskRng(7))
    simple_gallery_pro.add_picture(device, simple_gallery_pro.DCIM, "r.jpg", receipts.receipt_jpeg(receipt))
    device.files.write_text(f"{simple_gallery_pro.DCIM}/.hidden/x.txt", "x")
    device.check(GALLERY)
    tap(device, "DCIM")
    tap(device, "r.jpg")
    tap(device, "More options")
    tap(device, "Copy to")
    assert ".hidden" not in texts(device)
    assert {"filepicker_fastscroller", "filepicker_fab", "filepicker_fab_show_hidden", "list_item_icon"} <= set(_ids(device))
    _drawn(device)
    tap(device, "filepicker_fab_show_hidden")
    assert ".hidden" in texts(device) and "filepicker_fab_show_hidden" not in _ids(device)


def test_draws_canvas_sits_in_its_scroll_view_with_the_brush_size_bar(device) -> None:
    device.check(DRAW)
    assert _path(_tree(device), "my_canvas")[-2:] == ["main_scrollview", "my_canvas"]
    assert find(device, "stroke_width_bar").text == "40%" and "stroke_width_preview" in _ids(device)
    _drawn(device)
    tap(device, "Save")
    assert _path(_tree(device), "save_image_filename")[-2:] == ["save_image_filename_hint", "save_image_filename"]
    assert "folder_hint" in _ids(device)


def test_expenses_lock_keeps_the_entry_open_and_its_time_is_the_rows_modified_date(device) -> None:
    device.check(EXPENSE)
    tap(device, "fb_main_add")
    assert {"abl_entry", "sv_entry", "edl_name", "edl_amount", "edl_description", "cv_lock", "time", "calendar"} \
        <= set(_ids(device))
    _drawn(device)
    tap(device, "imv_lock")  # the card takes the tap
    assert find(device, "btn_save").text == "Next"
    tap(device, "edt_name")
    device.check("input text Tea")
    tap(device, "edt_amount")
    device.check("input text 3")
    tap(device, "time")
    tap(device, "toggle_mode")
    fields = [e for e in device.ui.screen().elements if e.is_editable]
    x, y = fields[0].bbox.center
    device.check(f"input tap {x} {y} && input keyevent 67 67 && input text 9")
    tap(device, "OK")
    tap(device, "btn_save")
    assert find(device, "edt_name").text == "Name"  # cleared for the next one, still open
    [row] = [r for r in device.sqlite.query(expense.DB_PATH, "SELECT * FROM expense") if r["name"] == "Tea"]
    assert local_time(device.state, int(row["modified_date"]) // 1000).hour == 21  # 9 in a 12-hour picker on PM
    assert int(row["created_date"]) != int(row["modified_date"])


def test_an_expenses_details_are_a_bottom_sheet_with_its_card(device) -> None:
    expense.EXPENSES.insert(device, [expense.EXPENSES.fill({"name": "Lunch", "amount": 1250, "category": 3, "note": "",
                                                            "created_date": 0, "modified_date": 0})])
    device.check(EXPENSE)
    tap(device, "Lunch")
    shown = _ids(device)
    assert {"btn_close", "cd_info", "cv_category", "imv_category", "tv_amount", "tv_currency_symbol", "tv_date"} <= set(shown)
    assert "tv_note" not in shown  # hideNoteTextView: no note
    _drawn(device)
    tap(device, "btn_close")
    assert "cd_info" not in _ids(device)


def test_retros_shuffle_button_queues_every_song_and_playlists_are_a_grid(device) -> None:
    songs = [retro_music.random_song(TaskRng(i), title) for i, title in enumerate(("Alpha", "Bravo", "Charlie", "Delta"))]
    retro_music.write_songs(device, songs)
    retro_music.create_playlist(device, "Mix", [])
    device.check(RETRO)
    tap(device, "Songs")
    assert {"fragment_container", "appBarLayout", "appNameText", "recycler_view"} <= set(_ids(device))
    tap(device, "shuffle_button")
    assert sorted(retro_music.queue_titles(device)) == ["Alpha", "Bravo", "Charlie", "Delta"]
    original = [r["title"] for r in device.sqlite.query(retro_music.PLAYBACK_DB,
                                                        "SELECT title FROM original_playing_queue ORDER BY rowid")]
    assert original == ["Alpha", "Bravo", "Charlie", "Delta"]
    tap(device, "Playlists")
    shown = _ids(device)
    assert {"imageContainer", "image", "menu"} <= set(shown) and "shuffle_button" not in shown
    _drawn(device)
    overflow = min((e for e in device.ui.screen().elements if e.content_description == "More options"),
                   key=lambda e: e.bbox.y_min)  # the toolbar's, above the cards'
    device.check("input tap {} {}".format(*overflow.bbox.center))
    tap(device, "New playlist")
    assert "actionNewPlaylistContainer" in _ids(device)


def test_broccolis_details_carry_their_app_bar_and_icons(device) -> None:
    broccoli.RECIPES.insert(device, [broccoli.random_recipe(TaskRng(1), title="Soup", servings="2", preparationTime="1h",
                                                            source="home")])
    device.check(BROCCOLI)
    tap(device, "Soup")
    tree = _tree(device)
    assert _path(tree, "toolbar")[-3:] == ["app_bar", "toolbar_layout", "toolbar"]
    assert {"details_icon_servings", "details_icon_preparation_time", "details_icon_source"} <= set(_ids(device))
    _drawn(device)
