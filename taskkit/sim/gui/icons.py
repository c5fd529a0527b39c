"""Which Material icon an icon-only control shows, and where that glyph is in the icon font.

`icon_name(node)` maps a control to the icon the real app's layout or menu gives it: first by
its resource id (package and id, or the id alone), then by its content description. The glyphs
are drawn from Google's Material Icons font, shipped in fonts/ (from Debian's
`fonts-material-design-icons-iconfont`); `CODEPOINTS` holds the code points of the icons used here, as published in
google/material-design-icons `font/MaterialIcons-Regular.codepoints`. The sources of the mapping
(the apps' `res/layout`, `res/menu` and drawable names) are listed in docs/sim-gui.md ("Looks").
"""
from __future__ import annotations

from pathlib import Path

from taskkit.sim.gui.node import Node

#: The fonts shipped with the package (fonts/README.md).
FONTS = Path(__file__).with_name("fonts")
MATERIAL_ICONS = str(FONTS / "MaterialIcons-Regular.ttf")

CODEPOINTS: dict[str, int] = {
    "expand_more": 0xE5CF, "expand_less": 0xE5CE,  # Clock's alarm arrow (Expand alarm / Collapse alarm)
    "add": 0xE145, "airplanemode_active": 0xE195, "apps": 0xE5C3, "arrow_back": 0xE5C4,
    "arrow_back_ios": 0xE5E0, "battery_full": 0xE1A4, "check": 0xE5CA, "check_box": 0xE834,
    "check_box_outline_blank": 0xE835, "chevron_left": 0xE5CB, "chevron_right": 0xE5CC, "close": 0xE5CD,
    "crop_square": 0xE3C6, "delete": 0xE872, "edit": 0xE3C9, "favorite_border": 0xE87E,
    "fiber_manual_record": 0xE061, "filter_none": 0xE3E0, "forward_10": 0xE056, "home": 0xE88A,
    "image": 0xE3F4, "link": 0xE157, "list": 0xE896, "menu": 0xE5D2, "more_vert": 0xE5D4, "pause": 0xE034,
    "people": 0xE7FB, "person_add": 0xE7FE, "photo_camera": 0xE412, "play_arrow": 0xE037,
    "playlist_add": 0xE03B, "queue_music": 0xE03D, "radio_button_checked": 0xE837,
    "radio_button_unchecked": 0xE836, "replay_10": 0xE059, "restaurant_menu": 0xE561, "save": 0xE161,
    "schedule": 0xE8B5, "search": 0xE8B6, "signal_cellular_4_bar": 0xE1C8, "signal_wifi_4_bar": 0xE1D8,
    "stop": 0xE047, "today": 0xE8DF, "undo": 0xE166, "redo": 0xE15A, "library_add": 0xE02E,
    "star_border": 0xE83A, "info": 0xE88E, "sort": 0xE164, "shuffle": 0xE043, "arrow_drop_down": 0xE5C5,
    "task_alt": 0xE2E6, "format_color_fill": 0xE23A, "format_clear": 0xE239, "colorize": 0xE3B8,
    "palette": 0xE40A, "share": 0xE80D, "rotate_right": 0xE41A, "folder_open": 0xE2C8,
    "drive_file_rename_outline": 0xE9A2, "file_download": 0xE2C4, "visibility": 0xE8F4, "keyboard": 0xE312,
    # Retro Music's navigation (bottom_navigation_main.xml) and For you screen (fragment_home.xml)
    "audiotrack": 0xE3A1, "album": 0xE019, "person": 0xE7FD, "account_circle": 0xE853, "refresh": 0xE5D5,
    "arrow_forward": 0xE5C8,
    # Markor's bottom navigation (main__bottom_nav.xml: ic_folder, ic_assignment_turned_in, ic_lightning, ic_favorite)
    "assignment_turned_in": 0xE862, "flash_on": 0xE3E7, "favorite": 0xE87D,
    # Markor's formatting bar (MarkdownActionButtons: its ic_*_black_24dp drawables are these icons)
    "format_bold": 0xE238, "format_italic": 0xE23F, "open_in_browser": 0xE89D, "attach_file": 0xE226,
    "access_time": 0xE192, "code": 0xE86F, "format_list_numbered": 0xE242, "view_module": 0xE8F0,
    "format_quote": 0xE244, "more_horiz": 0xE5D3, "format_strikethrough": 0xE246, "format_indent_increase": 0xE23E,
    "format_indent_decrease": 0xE23D, "keyboard_return": 0xE31B, "arrow_upward": 0xE5D8, "arrow_downward": 0xE5DB,
    "file_copy": 0xE173, "rotate_left": 0xE419,
    # Simple Calendar's event screen (activity_event.xml: ic_bell_vector, ic_repeat_vector, ic_category_vector)
    "notifications": 0xE7F4, "repeat": 0xE040, "category": 0xE574, "place": 0xE55F,  # ic_place_vector
    "label": 0xE892,  # Simple Gallery menu_media.xml toggle_filename: ic_label_vector
    # the launcher's app icons (taskkit's own: a Material glyph on a coloured circle)
    "alarm": 0xE855, "attach_money": 0xE227, "brush": 0xE3AE, "camera_alt": 0xE3B0, "check_circle": 0xE86C,
    "contacts": 0xE0BA, "content_paste": 0xE14F, "description": 0xE873, "directions_run": 0xE566,
    "event": 0xE878, "folder": 0xE2C7, "language": 0xE894, "map": 0xE55B, "mic": 0xE029, "music_note": 0xE405,
    "note": 0xE06F, "phone": 0xE0CD, "photo_library": 0xE413, "play_circle_outline": 0xE039,
    "settings": 0xE8B8, "sms": 0xE625,
    # Calculator (ExactCalculator ic_del) and Phone (Dialer quantum_ic_backspace, _dialpad, _call; InCallUI's end call)
    "backspace": 0xE14A, "dialpad": 0xE0BC, "call": 0xE0B0, "call_end": 0xE0B1,
    # the apps' pictures (pictures.DRAWABLES): Markor's file icon, Broccoli's placeholder, Pro Expense's categories
    "insert_drive_file": 0xE24D, "local_florist": 0xE545, "remove_circle_outline": 0xE15D,
    "add_circle_outline": 0xE148, "fastfood": 0xE57A, "weekend": 0xE16B, "theaters": 0xE8DA, "train": 0xE570,
    "checkroom": 0xF19E, "medical_services": 0xF109, "menu_book": 0xEA19, "volunteer_activism": 0xEA70,
}

# By resource id: "package:id/name" for one app's control, ":id/name" for any app's.
BY_ID: dict[str, str] = {
    # Simple Calendar: menu_event.xml save → ic_check_vector, delete → ic_delete_vector;
    # menu_main.xml go_to_today → ic_today_vector, change_view → ic_change_view_vector (the
    # "apps" grid path); cab_day.xml cab_delete; activity_main.xml calendar_fab → ic_plus_vector;
    # top_navigation.xml top_left_arrow / top_right_arrow → ic_chevron_left/right_vector.
    "com.simplemobiletools.calendar.pro:id/save": "check",
    "com.simplemobiletools.calendar.pro:id/delete": "delete",
    "com.simplemobiletools.calendar.pro:id/go_to_today": "today",
    "com.simplemobiletools.calendar.pro:id/change_view": "apps",
    "com.simplemobiletools.calendar.pro:id/cab_delete": "delete",
    "com.simplemobiletools.calendar.pro:id/calendar_fab": "add",
    "com.simplemobiletools.calendar.pro:id/fab_task_icon": "task_alt",  # activity_main.xml ic_task_vector
    ":id/top_left_arrow": "chevron_left",
    ":id/top_right_arrow": "chevron_right",
    # Simple Draw: menu.xml menu_save → ic_save_vector, clear → ic_delete_vector;
    # activity_main.xml undo → ic_undo_vector.
    "com.simplemobiletools.draw.pro:id/menu_save": "save",
    "com.simplemobiletools.draw.pro:id/clear": "delete",
    "com.simplemobiletools.draw.pro:id/undo": "undo",
    "com.simplemobiletools.draw.pro:id/redo": "redo",  # ic_redo_vector
    "com.simplemobiletools.draw.pro:id/bucket_fill": "format_color_fill",  # ic_bucket_fill_vector
    "com.simplemobiletools.draw.pro:id/eraser": "format_clear",  # ic_eraser_vector (Material Icons has no eraser)
    "com.simplemobiletools.draw.pro:id/eye_dropper": "colorize",  # ic_colorize_vector
    "com.simplemobiletools.draw.pro:id/color_picker": "palette",  # the app shows a swatch of the colour
    "com.simplemobiletools.draw.pro:id/menu_share": "share",  # ic_share_vector
    # Simple Gallery: bottom_actions.xml (bottom_favorite → ic_star_outline_vector, bottom_edit →
    # ic_edit_vector, bottom_share → ic_share_vector); menu_main.xml (open_camera →
    # ic_camera_vector, show_all → ic_files_vector); menu_viewpager.xml (menu_rotate →
    # ic_rotate_right_vector, menu_properties → ic_info_vector, menu_rename → ic_rename_vector).
    ":id/bottom_favorite": "star_border",
    ":id/bottom_edit": "edit",
    ":id/bottom_share": "share",
    ":id/open_camera": "camera_alt",
    ":id/show_all": "folder_open",
    ":id/menu_rotate": "rotate_right",
    ":id/menu_properties": "info",
    ":id/menu_rename": "drive_file_rename_outline",
    # Simple SMS Messenger: activity_main.xml conversations_fab → ic_plus_vector;
    # layout_thread_send_message_holder.xml thread_add_attachment → ic_plus_vector;
    # activity_new_conversation.xml new_conversation_confirm → ic_check_vector.
    ":id/conversations_fab": "add",
    ":id/thread_add_attachment": "add",
    ":id/new_conversation_confirm": "check",
    # Simple SMS Messenger menu_main.xml: settings → ic_settings_cog_vector, about → ic_info_vector.
    "com.simplemobiletools.smsmessenger:id/settings": "settings",
    "com.simplemobiletools.smsmessenger:id/about": "info",
    # Markor: main__activity.xml fab_add_new_item → ic_add_white_24dp; filesystem__menu.xml (the
    # drawables named beside each).
    ":id/fab_add_new_item": "add",
    ":id/action_delete_selected_items": "delete",
    ":id/action_rename_selected_item": "edit",
    ":id/action_favourite": "star_border",  # ic_star_border_black_24dp
    ":id/action_go_to": "folder",  # ic_folder_white_24dp
    ":id/action_info_selected_item": "info",  # ic_info_black_24dp
    ":id/action_sort": "sort",  # ic_sort_black_24dp
    # Markor document__edit__menu.xml: action_preview → ic_visibility_black_24dp, action_redo → ic_redo_black_24dp
    "net.gsantner.markor:id/action_preview": "visibility",
    "net.gsantner.markor:id/action_redo": "redo",
    # Pro Expense: activ_main.xml fb_main_add → ic_add; the entry form's close button.
    ":id/fb_main_add": "add",
    ":id/btn_close": "arrow_back",  # layout_header.xml (the drawer's header) btn_close → ic_arrow_start
    ":id/imv_drop_close": "arrow_drop_down",  # frag_choose_currency_dialog.xml ic_drop_down
    # Audio Recorder: activity_main.xml btn_record (the record button), btn_record_stop,
    # btn_records_list → ic_list and the drawables named beside the others.
    ":id/btn_record": "fiber_manual_record",
    ":id/btn_record_stop": "stop",
    ":id/btn_records_list": "list",
    ":id/btn_import": "file_download",  # ic_import
    ":id/btn_share": "more_vert",  # ic_more_vert
    ":id/btn_settings": "settings",  # ic_settings
    # Broccoli: fragment_recipes.xml fab_recipes; details.xml action_details_like; recipes.xml
    # action_search; the cooking assistant's FAB.
    ":id/fab_recipes": "add",
    ":id/fab_cooking_assistant": "restaurant_menu",
    ":id/action_details_like": "favorite_border",
    ":id/action_search": "search",
    ":id/search_close_btn": "close",
    ":id/card_image": "image",
    ":id/new_image": "image",
    # Retro Music: the selection bar's menu items and its close button.
    ":id/action_add_to_playing_queue": "queue_music",
    # Retro Music menu_media_selection.xml: action_play_next → ic_redo, action_add_to_current_playing
    # → ic_library_add, action_add_to_playlist → ic_playlist_add.
    ":id/action_play_next": "redo",
    ":id/action_add_to_current_playing": "library_add",
    ":id/action_add_to_playlist": "playlist_add",
    ":id/action_mode_close_button": "close",
    "code.name.monkey.retromusic:id/action_settings": "settings",  # menu_main.xml ic_settings
    ":id/menu": "more_vert",
    # VLC: video_list_card.xml item_more; player_hud.xml rewind / forward.
    ":id/item_more": "more_vert",
    ":id/player_overlay_rewind": "replay_10",
    ":id/player_overlay_forward": "forward_10",
    # Chrome: toolbar_phone.xml.
    ":id/home_button": "home",
    ":id/tab_switcher_button": "filter_none",
    ":id/menu_button": "more_vert",
    # Contacts, Tasks, OsmAnd, DocumentsUI.
    ":id/floating_action_button": "person_add",
    "org.tasks:id/fab": "add",
    ":id/map_search_button": "search",
    ":id/map_menu_button": "menu",
    ":id/previous_dot_icon": "undo",
    ":id/action_menu_delete": "delete",
    # Android's DatePicker (its month view's arrows).
    "android:id/prev": "chevron_left",
    "android:id/next": "chevron_right",
}

# By content description, for controls without a mapped id (toolbar and system controls).
BY_DESC: dict[str, str] = {
    "Navigate up": "arrow_back", "Collapse": "arrow_back", "More options": "more_vert", "Search": "search",
    "Delete": "delete", "Close": "close", "Done": "close", "Undo": "undo", "Save": "save", "Add": "add", "Share": "share",
    "New playlist": "add", "Shuffle playlist": "shuffle", "Notebooks": "menu", "Menu": "menu", "Start": "play_arrow", "Pause": "pause",
    "Change photo": "photo_camera", "Servings": "people", "Time": "schedule", "Source": "link",
    "Wifi signal full.": "signal_wifi_4_bar", "Battery 100 percent.": "battery_full",
    "Airplane mode.": "airplanemode_active", "Phone signal full.": "signal_cellular_4_bar",
    "Back": "arrow_back_ios", "Home": "radio_button_unchecked", "Overview": "crop_square",
    "Add alarm": "add", "Expand alarm": "expand_more", "Collapse alarm": "expand_less",
    "Show roots": "menu", "Edit contact": "edit",
}

# A checkable control's glyph: (unchecked, checked).
CHECKABLE: dict[str, tuple[str, str]] = {
    "android.widget.RadioButton": ("radio_button_unchecked", "radio_button_checked"),
    "android.widget.CheckBox": ("check_box_outline_blank", "check_box"),
}


def icon_name(node: Node) -> str | None:
    """The Material icon `node` shows, None when it is not an icon this module knows."""
    if node.icon:  # a control the dump leaves unnamed, as the real app leaves it
        return node.icon
    rid = node.resource_id
    if rid:
        found = BY_ID.get(rid) or BY_ID.get(":id/" + rid.rpartition(":id/")[2])
        if found:
            return found
    return BY_DESC.get(node.content_desc)


def glyph(name: str) -> str:
    """The character of icon `name` in the Material Icons font."""
    return chr(CODEPOINTS[name])
