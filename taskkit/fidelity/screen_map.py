"""Which layouts of the real app show what each simulated screen shows: the data table the recall
(taskkit.fidelity.recall) reads, one `Real` per screen of each app model, cited.

A screen is keyed by its name in the app model (taskkit/sim/gui/apps/), or `name:variant` where
one screen shows different fragments (`VARIANTS`: Retro's tabs, Calendar's views). Each `Real`
names the layouts that fill the window (`screens`: the activity's and its fragment's), the
layouts inflated into them (`parts`: list rows, custom views' layouts, includes done by code),
the menus on its toolbar (`menus`: one toolbar, whose items AppCompat's presenter places) and
bottom navigation bars (`tabs`: every item shows); then the ids the code hides on the way there
(`hidden`) or shows though the layout hides them (`shown`), each rule with the file:line it
follows. A screen that is not the app's own layout (an opened overflow menu, an AlertDialog
with only a message or items, Android's date picker, another app's screen) is `not_measured`,
with why: those show AppCompat's, Material's or the framework's views, which the precision
table (taskkit.fidelity.table) already checks.

Paths are relative to the app's source checkout (`src/` = app/src/main/{java,kotlin}/…).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable


@dataclasses.dataclass(frozen=True)
class Rule:
    """Ids the code hides (or shows) on the path to the screen, and the code that does it."""

    ids: tuple[str, ...]
    why: str


@dataclasses.dataclass(frozen=True)
class Real:
    """The real app's layouts behind one simulated screen."""

    screens: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    menus: tuple[str, ...] = ()
    tabs: tuple[str, ...] = ()
    hidden: tuple[Rule, ...] = ()
    shown: tuple[Rule, ...] = ()
    source: str = ""  # where the layouts are inflated
    not_measured: str = ""

    def keys(self) -> list[str]:
        """The fixture keys (`screen:NAME`, `part:NAME`, `menu:NAME`, `tabs:NAME`) it reads."""
        return ([f"screen:{n}" for n in self.screens] + [f"part:{n}" for n in self.parts]
                + [f"menu:{n}" for n in self.menus] + [f"tabs:{n}" for n in self.tabs])


def _popup(what: str) -> Real:
    return Real(not_measured=f"{what}: AppCompat's popup rows (`android:id/title`), no layout of the app")


def _alert(what: str) -> Real:
    return Real(not_measured=f"{what}: an AlertDialog of AppCompat's or Material's own layouts, no layout of the app")


OVERFLOW = _popup("an opened overflow menu")
DRAWER_CLOSED = "the navigation drawer is closed until its button opens it (DrawerLayout keeps a closed drawer off screen)"

# --- Markor v2.10.9 --------------------------------------------------------------------------------------
_MARKOR_FILES = Real(
    screens=("main__activity", "opoc_filesystem_fragment"), parts=("opoc_filesystem_item",),
    menus=("main__menu", "filesystem__menu"), tabs=("main__bottom_nav",),
    source="src/net/gsantner/markor/activity/MainActivity.java:75 (main__activity), :206 (main__menu); "
           "src/net/gsantner/opoc/frontend/filebrowser/GsFileBrowserFragment.java:144, :325 (filesystem__menu); "
           "GsFileBrowserListAdapter.java:122 (rows)")
_SELECTED = Rule(("action_delete_selected_items", "action_rename_selected_item", "action_info_selected_item",
                  "action_favourite"),
                 "GsFileBrowserFragment.java:246-248, :256: one writable file selected (not a favourite)")
_UNSELECTED = Rule(("action_search", "action_go_to", "action_sort"),
                   "GsFileBrowserFragment.java:245, :252-253: hidden while items are selected")
MARKOR = {
    "files": _MARKOR_FILES,
    "selection": dataclasses.replace(_MARKOR_FILES, shown=(_SELECTED,), hidden=(_UNSELECTED,)),
    "selection_menu": OVERFLOW, "files_menu": OVERFLOW, "editor_menu": OVERFLOW,
    "new": Real(screens=("new_file_dialog",), source="src/net/gsantner/markor/frontend/NewFileDialog.java:97",
                hidden=(Rule(("new_file_dialog__encrypt", "new_file_dialog__utf8_bom"),
                             "src/net/gsantner/markor/frontend/NewFileDialog.java:106-112: encryption with a default "
                             "password set, the BOM box with experimental features on; neither is by default"),)),
    "new_choice": Real(not_measured="a spinner's drop-down: the framework's simple_spinner_dropdown_item rows"),
    "editor": Real(
        screens=("document__activity", "document__fragment__edit"), menus=("document__edit__menu",),
        hidden=(Rule(("action_edit", "action_search_view"),
                     "DocumentEditAndViewFragment.java:295, :299: shown only while the preview is"),),
        source="src/net/gsantner/markor/activity/DocumentActivity.java:147; DocumentEditAndViewFragment.java:122, :278"),
    "delete": _alert("the delete confirmation"),
    "rename": Real(screens=("rename__dialog",), source="app/thirdparty/java/other/writeily/ui/WrRenameDialog.java:112"),
    "move": Real(screens=("opoc_filesystem_dialog",), parts=("opoc_filesystem_item",),
                 source="src/net/gsantner/opoc/frontend/filebrowser/GsFileBrowserDialog.java:82"),
}

# --- Pro Expense v1.0.0-beta05 -------------------------------------------------------------------------
_EXPENSE_SRC = "src/com/arduia/expense/ui/"
_NO_FAB = Rule(("fb_main_add",), f"{_EXPENSE_SRC}MainActivity.kt:148-153: the add button shows on Home only")
_DRAWER = Rule(("nv_main",), f"{_EXPENSE_SRC}home/HomeFragment.kt:104: {DRAWER_CLOSED}")
EXPENSE = {
    "home": Real(
        screens=("activ_main", "frag_home"),
        parts=("layout_expense_in_out", "layout_expense_graph", "layout_recent_lists", "item_expense_recent"),
        hidden=(_DRAWER,),
        source=f"{_EXPENSE_SRC}home/HomeFragment.kt:70; IncomeOutcomeEpoxyModel.kt:17, WeeklyGraphUiModel.kt:15, "
               "RecentEpoxyModel.kt:14 (the home list's models), RecentListAdapter.kt:22 (Recent's rows)"),
    "drawer": Real(screens=("activ_main",), parts=("layout_header",), hidden=(_NO_FAB,),
                   source=f"{_EXPENSE_SRC}MainActivity.kt:157 (the drawer's header)"),
    "detail": Real(screens=("expense_detail_dialog",),
                   source=f"{_EXPENSE_SRC}common/expense/ExpenseDetailDialog.kt:73; home/HomeFragment.kt:136"),
    "date": Real(not_measured="Android's DatePickerDialog: the framework's layouts"),
    "time": Real(not_measured="Android's TimePickerDialog: the framework's layouts"),
    "entry": Real(screens=("activ_main", "frag_expense_entry"), parts=("item_category",), menus=("menu_entry",),
                  hidden=(_NO_FAB, dataclasses.replace(_DRAWER, why=f"{_EXPENSE_SRC}MainActivity.kt:144: {DRAWER_CLOSED}")),
                  source="res/layout/frag_expense_entry.xml:23 (app:menu)"),
    "delete": Real(screens=("frag_delete_confirm_dialog",)),
    # the drawer's destinations (menu_home.xml; nav_graph's fragments)
    "logs": Real(screens=("activ_main", "frag_expense_logs"), parts=("item_expense_log", "item_expense_date_header"),
                 menus=("menu_expense_log",),
                 hidden=(_NO_FAB, _DRAWER,
                         Rule(("delete",), f"{_EXPENSE_SRC}expenselogs/ExpenseFragment.kt:274 (changeUiDefault): "
                                           "Delete shows in selection mode only")),
                 source=f"{_EXPENSE_SRC}expenselogs/ExpenseLogAdapter.kt:44 (date headers); frag_expense_logs.xml:27 (menu)"),
    "statistics": Real(screens=("activ_main", "frag_statistic"), parts=("item_category_statistic",), hidden=(_NO_FAB, _DRAWER),
                       source=f"{_EXPENSE_SRC}statistics/StatisticsFragment.kt:36, CategoryStatisticListAdapter.kt:16"),
    "backup": Real(screens=("activ_main", "frag_backup"), parts=("item_backup",), hidden=(_NO_FAB, _DRAWER),
                   source=f"{_EXPENSE_SRC}backup/BackupFragment.kt:45"),
    "feedback": Real(screens=("activ_main", "frag_feedback"), hidden=(_NO_FAB, _DRAWER),
                     source=f"{_EXPENSE_SRC}feedback/FeedbackFragment.kt:29"),
    "about": Real(screens=("activ_main", "frag_about"), hidden=(_NO_FAB, _DRAWER)),
    "settings": Real(screens=("activ_main", "frag_settings"), hidden=(_NO_FAB, _DRAWER),
                     source=f"{_EXPENSE_SRC}settings/SettingsFragment.kt:41"),
}

# --- Audio Recorder 05545b9 ----------------------------------------------------------------------------
_RECORDER_MAIN = "src/com/dimowner/audiorecorder/app/main/"
RECORDER = {
    "main": Real(screens=("activity_main",), shown=(Rule(
        ("placeholder",), f"{_RECORDER_MAIN}MainPresenter.java:544 with MainActivity.java:598-603 (showWaveForm "
                          "without samples): the placeholder shows until a record is"),)),
    "records": Real(screens=("activity_records",), parts=("list_item",)),
    "rename": Real(screens=("dialog_rename",)),
    "grant_permissions": Real(not_measured="PermissionController's runtime-permission dialog: another app's "
                                           "(taskkit/sim/gui/permissions.py)"),
}

# --- Broccoli v1.2.6 -------------------------------------------------------------------------------------
_BROCCOLI_SRC = "src/com/flauschcode/broccoli/"
_BROCCOLI_LIST = Real(
    screens=("activity_main", "fragment_recipes"), parts=("recipe_item",), menus=("recipes",),
    hidden=(Rule(("nav_view",), f"res/layout/activity_main.xml: {DRAWER_CLOSED}"),
            Rule(("chip",), f"{_BROCCOLI_SRC}recipe/list/RecipeFragment.java:145-152 (onResume): the seasonal "
                            "ingredient's chip shows only when the list is opened from the seasonal calendar")))
BROCCOLI = {
    "list": _BROCCOLI_LIST,
    "search": dataclasses.replace(_BROCCOLI_LIST, hidden=_BROCCOLI_LIST.hidden + (Rule(
        ("spinner", "action_search"), f"{_BROCCOLI_SRC}recipe/list/RecipeFragment.java:235-240 with androidx.appcompat "
                                      "Toolbar.ExpandedActionViewMenuPresenter.expandItemActionView: while the search is "
                                      "expanded the toolbar takes its own children out and shows the SearchView (no id) "
                                      "in the item's place"),)),
    "detail": Real(screens=("activity_recipe_details",), parts=("ingredient_item", "direction_item"), menus=("details",),
                   shown=(Rule(("action_details_like",),
                               f"{_BROCCOLI_SRC}recipe/details/RecipeDetailsActivity.java:135: "
                               "the like item of a recipe not yet a favourite"),),
                   hidden=(Rule(("details_icon_categories", "details_categories"),
                                "res/layout/content_recipe_details.xml:94: shown for a recipe with categories; the "
                                "references' recipes have none (their rows carry no RecipeCategoryCrossRef)"),
                           Rule(("ingredient_seasonal_icon",),
                                f"{_BROCCOLI_SRC}seasons/SeasonsBindingAdapter.java:44 with SeasonalCalendarHolder.java:51-54: "
                                "no seasonal calendar until a region is chosen, so no ingredient is seasonal"),
                           Rule(("ingredient_quantity",),
                                "res/layout/ingredient_item.xml:14-23: a wrap_content TextView of an ingredient without a "
                                "leading quantity is 0 px wide, not visible to the user; the references' have none"))),
    "menu": OVERFLOW, "delete": _alert("the delete confirmation"),
    "edit": Real(screens=("activity_new_recipe",)),
    "categories": _alert("the categories' multi-choice list"), "discard": _alert("the discard confirmation"),
}

# --- Simple Calendar 6.22.2 ------------------------------------------------------------------------------
_CAL = "src/com/simplemobiletools/calendar/pro/activities/"
_CAL_MENU = Rule(("filter", "refresh_caldav_calendars", "more_apps_from_us"),
                 f"{_CAL}MainActivity.kt:242, :245-246: one event type, CalDAV sync off, the F-Droid build")
_QUICK_FILTER = Rule(("quick_event_type_filter",),
                     f"{_CAL}MainActivity.kt:333-336 with helpers/Config.kt:87: no quick-filter event types by default, "
                     "so the RecyclerView wraps no rows: 0 px tall, not visible to the user, not dumped")
_CAL_MAIN = Real(screens=("activity_main",), parts=("menu_search",), menus=("menu_main",), hidden=(_CAL_MENU, _QUICK_FILTER),
                 source=f"{_CAL}MainActivity.kt (activity_main; main_menu is Simple-Commons' MySearchMenu: menu_search)")


def _calendar_view(screens: tuple[str, ...], parts: tuple[str, ...] = (), hidden: tuple[Rule, ...] = ()) -> Real:
    return dataclasses.replace(_CAL_MAIN, screens=_CAL_MAIN.screens + screens, parts=_CAL_MAIN.parts + parts,
                               hidden=_CAL_MAIN.hidden + hidden)


_NOT_TASKS = Rule(("event_item_task_image",),
                  "src/com/simplemobiletools/calendar/pro/adapters/DayEventsAdapter.kt:128, EventListAdapter.kt:176: "
                  "shown for tasks only; the references' rows are events")
_CAL_DAY = _calendar_view(("fragment_days_holder", "fragment_day"), ("event_list_item",), (_NOT_TASKS,))
_NOT_REPEATING = Rule(("delete_event_repeat_description", "delete_event_radio_view", "delete_event_one_only",
                       "delete_event_future", "delete_event_all"),
                      "src/com/simplemobiletools/calendar/pro/dialogs/DeleteEventDialog.kt:26-27 (EventActivity.kt:1156, "
                      "DayEventsAdapter.kt:149): shown only when a deleted event repeats; the references' do not")
_LOCAL_EVENT = (
    Rule(("event_time_zone_divider", "event_time_zone_image", "event_time_zone"),
         f"{_CAL}EventActivity.kt:1142-1144: time zones can't be changed by default"),
    Rule(("event_attendees_image", "event_attendees_divider", "event_availability_divider", "event_availability_image",
          "event_availability"), f"{_CAL}EventActivity.kt:964-969: not a CalDAV event"),
    Rule(("event_reminder_1_type", "event_reminder_2_type", "event_reminder_3_type"),
         f"{_CAL}EventActivity.kt:973: a local event's reminders have no type"),
)
CALENDAR = {
    "main:month": _calendar_view(("fragment_months_holder", "fragment_month"), (), (Rule(
        ("go_to_today",), f"{_CAL}MainActivity.kt:243 with fragments/MonthFragmentsHolder.kt:139: shown only away from "
                          "today's month; the references' month view is today's"),)),
    "main:day": _CAL_DAY, "day": _CAL_DAY,
    "main:list": _calendar_view(("fragment_event_list",), ("event_list_item", "event_list_section_day"),
                                (Rule(("go_to_date",), f"{_CAL}MainActivity.kt:244: not on the event list"), _NOT_TASKS)),
    "views": Real(screens=("dialog_radio_group",), source=f"{_CAL}MainActivity.kt:504 (Simple-Commons' RadioGroupDialog)"),
    "overflow": OVERFLOW,
    "go_to_date": Real(screens=("date_picker_light",)),
    "selection": dataclasses.replace(_CAL_DAY, menus=("cab_day",), parts=_CAL_DAY.parts + ("actionbar_title",),
                                     hidden=_CAL_DAY.hidden),
    "delete_selected": Real(screens=("dialog_delete_event",), hidden=(_NOT_REPEATING,)),
    "delete": Real(screens=("dialog_delete_event",), hidden=(_NOT_REPEATING,)),
    "event": Real(screens=("activity_event",), menus=("menu_event",), hidden=_LOCAL_EVENT),
    "date": Real(not_measured="Android's DatePickerDialog: the framework's layouts"),
    "time": Real(not_measured="Material Components' MaterialTimePicker: the library's layouts"),
    "repetition": Real(screens=("dialog_radio_group",), source=f"{_CAL}EventActivity.kt:38 (RadioGroupDialog)"),
    "reminder": Real(screens=("dialog_radio_group",),
                     source="Simple-Commons extensions/Activity.kt showPickSecondsDialog (RadioGroupDialog)"),
    "event_types": Real(screens=("dialog_select_event_type",), parts=("radio_button_with_color",),
                        source="src/com/simplemobiletools/calendar/pro/dialogs/SelectEventTypeDialog.kt:31, :71"),
    "event_menu": OVERFLOW,
}

# --- Simple Draw 6.9.3 -----------------------------------------------------------------------------------
_PICKER = "Simple-Commons commons/src/main/kotlin/com/simplemobiletools/commons/dialogs/FilePickerDialog.kt"
_FOLDER_PICKER = Real(
    screens=("dialog_filepicker",), parts=("item_filepicker_list", "item_breadcrumb"),
    hidden=(Rule(("filepicker_placeholder",), f"{_PICKER}:158: \"Loading…\" is gone once the entries are read"),
            Rule(("filepicker_fab_show_favorites",), f"{_PICKER}:121-122: shown only with favourites "
                                                     "(BaseConfig.favorites, empty by default)")),
    shown=(Rule(("filepicker_fab",), f"{_PICKER}:93-97: shown with showFAB, which both apps' callers pass "
                                     "(Simple Draw SaveImageDialog.kt:39, Simple Gallery PickDirectoryDialog.kt:170-176)"),),
    source="Simple-Commons FilePickerDialog (dialog_filepicker, its rows and breadcrumbs)")
DRAW = {
    "main": Real(screens=("activity_main",), menus=("menu",),
                 hidden=(Rule(("menu_confirm", "more_apps_from_us"),
                              "src/com/simplemobiletools/draw/pro/activities/MainActivity.kt:177, :181: "
                              "not an image-capture intent; the F-Droid build"),)),
    "save": Real(screens=("dialog_save_image",)),
    "color_picker": Real(screens=("dialog_color_picker",),
                         source="src/com/simplemobiletools/draw/pro/activities/MainActivity.kt:615-616 (pickColor: "
                                "Simple-Commons' ColorPickerDialog)"),
    "overflow": OVERFLOW,
    "folder_picker": dataclasses.replace(_FOLDER_PICKER, hidden=_FOLDER_PICKER.hidden + (Rule(
        ("filepicker_fab_show_hidden",), f"{_PICKER}:109-110 with src/com/simplemobiletools/draw/pro/dialogs/"
                                         "SaveImageDialog.kt:39: no canAddShowHiddenButton"),)),
}

# --- Simple Gallery 6.28.1 -------------------------------------------------------------------------------
_VIEWER = "src/com/simplemobiletools/gallery/pro/activities/ViewPagerActivity.kt"
GALLERY = {
    "main": Real(screens=("activity_main",), parts=("menu_search", "directory_item_grid_square"), menus=("menu_main",),
                 hidden=(Rule(("more_apps_from_us",),
                              "src/com/simplemobiletools/gallery/pro/activities/MainActivity.kt:360: the F-Droid build"),)),
    "media": Real(screens=("activity_media",), parts=("menu_search", "photo_item_grid"), menus=("menu_media",),
                  hidden=(Rule(("folder_view", "open_camera", "about"),
                               "src/com/simplemobiletools/gallery/pro/activities/MediaActivity.kt:268-270: "
                               "on the \"show all\" screen only, not in a folder"),)),
    "media_overflow": OVERFLOW,
    "viewer": Real(
        screens=("activity_medium",), menus=("menu_viewpager",),
        hidden=(Rule(("bottom_rotate", "bottom_properties", "bottom_change_orientation", "bottom_slideshow",
                      "bottom_show_on_map", "bottom_toggle_file_visibility", "bottom_rename", "bottom_set_as",
                      "bottom_copy", "bottom_move", "bottom_resize"),
                     f"{_VIEWER}:868-930 with helpers/Constants.kt:219 (DEFAULT_BOTTOM_ACTIONS: favourite, edit, "
                     "share, delete)"),
                Rule(("menu_delete", "menu_share", "menu_edit", "menu_add_to_favorites", "menu_remove_from_favorites"),
                     f"{_VIEWER}:170-172, :187-190: on the bottom bar instead")),
        source="activity_medium.xml includes bottom_actions"),
    "menu": OVERFLOW, "main_overflow": OVERFLOW,
    "folder_picker": _FOLDER_PICKER,
}

# --- Simple SMS Messenger 5.19.3 -------------------------------------------------------------------------
_SMS = "src/com/simplemobiletools/smsmessenger/activities/"
SMS = {
    "main": Real(screens=("activity_main",), parts=("menu_search", "item_conversation"), menus=("menu_main",),
                 hidden=(Rule(("more_apps_from_us", "show_recycle_bin", "show_archived"),
                              f"{_SMS}MainActivity.kt:188-190: the F-Droid build, recycle bin and archive off"),
                         Rule(("draft_indicator", "pin_indicator"),
                              "src/com/simplemobiletools/smsmessenger/adapters/BaseConversationsAdapter.kt:117, :120: "
                              "a conversation with a draft, a pinned one; the references' have neither"))),
    "thread": Real(screens=("activity_thread",), parts=("item_message", "item_thread_date_time"), menus=("menu_thread",),
                   hidden=(Rule(("rename_conversation", "unarchive", "restore"),
                                f"{_SMS}ThreadActivity.kt:255, :257-258: one participant, not archived"),
                           Rule(("thread_sim_icon", "thread_sim_number"),
                                "src/com/simplemobiletools/smsmessenger/adapters/ThreadAdapter.kt:514-515: "
                                "shown with two SIM cards only; the device has one"),
                           Rule(("attachment_picker_divider",),
                                f"{_SMS}ThreadActivity.kt:168, :1814-1815 (hideAttachmentPicker): gone until the "
                                "attachment button opens the picker"))),
    "new": Real(screens=("activity_new_conversation",), parts=("item_contact_with_number", "item_suggested_contact"),
                source=f"{_SMS}NewConversationActivity.kt:195-216 (the suggestions' cards)"),
    "main_menu": OVERFLOW, "thread_menu": OVERFLOW,
    "delete": Real(screens=("dialog_message",), source=f"{_SMS}ThreadActivity.kt:952-954 (Simple-Commons' ConfirmationDialog)"),
}

# --- Retro Music v6.1.0 ----------------------------------------------------------------------------------
_RETRO = Real(screens=("sliding_music_panel_layout",), tabs=("bottom_navigation_main",),
              source="src/code/name/monkey/retromusic/activities/base/AbsSlidingMusicPanelActivity.kt:210")
_RETRO_SRC = "src/code/name/monkey/retromusic/"
_NO_CAST = Rule(("action_cast",), "res/menu/menu_main.xml:95-98 (MediaRouteActionProvider) with androidx.mediarouter "
                                  "MediaRouteActionProvider.isVisible: shown only while a cast route is available; "
                                  "the emulator has none")
_RETRO_LIST = dataclasses.replace(_RETRO, screens=_RETRO.screens + ("fragment_library", "fragment_main_recycler"),
                                  parts=("item_list",), menus=("menu_main",), hidden=(_NO_CAST,))
_OFF_TABS = Rule(("navigationView", "action_home", "action_song", "action_album", "action_artist", "action_playlist"),
                 f"{_RETRO_SRC}activities/MainActivity.kt:106-109: the bottom navigation hides on destinations "
                 "other than the tabs")
RETRO = {
    "main:For you": dataclasses.replace(_RETRO, screens=_RETRO.screens + ("fragment_home",)),
    "main:Songs": _RETRO_LIST,
    # PlaylistsFragment: item_grid (AbsRecyclerViewCustomGridSizeFragment.kt:41-44, PlaylistsFragment.kt:234-235:
    # the default 2 columns exceed default_list_columns 1)
    "main:Playlists": dataclasses.replace(_RETRO_LIST, parts=("item_grid",), hidden=(_NO_CAST, Rule(
        ("shuffle_button",), f"{_RETRO_SRC}fragments/playlists/PlaylistsFragment.kt:56-57 with "
                             "fragments/base/AbsRecyclerViewFragment.kt:87-88: no shuffle button on Playlists"))),
    "main:Songs selection": dataclasses.replace(_RETRO_LIST, menus=("menu_media_selection",), hidden=()),
    "song_menu": OVERFLOW, "playlist_menu": OVERFLOW, "selection_menu": OVERFLOW, "library_menu": OVERFLOW,
    "add_to_playlist": _alert("Add to playlist's item list"),
    "new_playlist": Real(screens=("dialog_playlist",)),
    "playlist": dataclasses.replace(_RETRO, screens=_RETRO.screens + ("fragment_playlist_detail",), parts=("item_list",),
                                    menus=("menu_playlist_detail",), hidden=(_OFF_TABS, Rule(
                                        ("progressIndicator",), f"{_RETRO_SRC}fragments/playlists/"
                                                                "PlaylistDetailsFragment.kt:173: hidden once the songs load"))),
    "save_document": Real(not_measured="DocumentsUI's create-document screen: another app's"),
}

#: package -> screen key -> the real layouts.
SCREENS: dict[str, dict[str, Real]] = {
    "net.gsantner.markor": MARKOR,
    "com.arduia.expense": EXPENSE,
    "com.dimowner.audiorecorder": RECORDER,
    "com.flauschcode.broccoli": BROCCOLI,
    "com.simplemobiletools.calendar.pro": CALENDAR,
    "com.simplemobiletools.draw.pro": DRAW,
    "com.simplemobiletools.gallery.pro": GALLERY,
    "com.simplemobiletools.smsmessenger": SMS,
    "code.name.monkey.retromusic": RETRO,
}

Variant = Callable[[Any, Any], str]  # (Session, Frame) -> the variant's name

#: (package, screen) -> what tells its variants apart.
VARIANTS: dict[tuple[str, str], Variant] = {
    # retro_music._main: the tab (For you by default), a Songs selection in progress
    ("code.name.monkey.retromusic", "main"): lambda ui, frame: str(frame.args.get("tab") or "For you") + (
        " selection" if frame.args.get("selected") else ""),
    # calendar._main: the view the Change view dialog picked (the month by default)
    ("com.simplemobiletools.calendar.pro", "main"): lambda ui, frame: ui.draft(frame, "view") or "month",
}


def screen_key(ui: Any) -> tuple[str, str] | None:
    """(package, screen key) of the app screen in front, None when it is not a mapped app's."""
    package, _, frame = ui.top()
    if frame is None or package not in SCREENS:
        return None
    variant = VARIANTS.get((package, frame.screen))
    return package, f"{frame.screen}:{variant(ui, frame)}" if variant else frame.screen


def unmapped(package: str, screens: list[str]) -> list[str]:
    """The screens of `package` (names of its app model) that have no entry (nor variants)."""
    known = SCREENS.get(package, {})
    return [name for name in screens if name not in known and (package, name) not in VARIANTS]
