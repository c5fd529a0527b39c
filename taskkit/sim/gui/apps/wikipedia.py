"""Wikipedia (`org.wikipedia`, tag r/2.7.50484-r-2024-04-19 of wikimedia/apps-android-wikipedia):
the main screen's tabs, the More menu, Settings, the feed's customize screen and the theme and
text-size sheet, offline.

Ids, labels and order are the app's (paths under app/src/main/):
* main: MainActivity's toolbar `main_toolbar` (its wordmark on Explore, the tab's name on the
  others: MainActivity.kt) over the tab's page, and fragment_main.xml's bottom bar: the
  NavTabLayout `main_nav_tab_layout`, one item per NavTab (navtab/NavTab.kt: Explore
  `nav_tab_explore`, Saved `nav_tab_reading_lists`, Search `nav_tab_search`, Edits
  `nav_tab_edits`; the one shown is selected), then `nav_more_container` ("More").
  Explore offline (feed/FeedCoordinator.kt): the search bar card (view_search_bar.xml
  `search_container`, "Search Wikipedia") and the offline card (view_card_offline.xml: "Content
  cannot be loaded when offline.", Retry `view_card_offline_button_retry`); its content cards
  come from the network and stop at the offline card, so none shows (nor their headers' "Customize
  the feed" menu item; fragment_feed.xml's empty view needs fewer than two cards, never so
  offline: the feed is reached through More > Settings > Explore Feed). Saved: the default reading list "Saved"
  (default_reading_list_name). Search: the search bar and HistoryFragment's empty history. Edits:
  the logged-out prompt (views/MessageCardView.kt setRequiredLogin: its `positiveButton`).
* more: MenuNavTabDialog (view_main_drawer.xml) as a logged-out user sees it: "Log in / join
  Wikipedia" `main_drawer_login_button`, Places, Settings `main_drawer_settings_container`,
  Donate.
* settings: SettingsActivity, res/xml/preferences.xml's General, Syncing (reading-list sync
  hidden while logged out) and Data usage rows: Wikipedia languages, Explore Feed (opens the
  customize screen), the switches (apps/wikipedia SWITCHES: written when toggled), App theme
  (its summary the theme's name; opens the theme sheet).
* configure: ConfigureActivity's "Customize the feed" (fragment_feed_configure.xml,
  item_feed_content_type.xml): a row per listed card type, in `feedCardsOrder` order, with its
  title `feed_content_type_title`, subtitle `feed_content_type_subtitle` and switch
  `feed_content_type_checkbox`; the overflow's Show all / Hide all / Restore default view. The
  switches are kept on the screen and written when it is left (ConfigureFragment.onPause
  calls FeedContentType.saveState), as BACK, Navigate up or HOME leave it.
* theme: ThemeFittingRoomActivity's ThemeChooserDialog (dialog_theme_chooser.xml): "Reading",
  the size `text_size_percent` ("100% (Default)" at 0), Decrease text size
  `buttonDecreaseTextSize`, the slider `text_size_seek_bar` (-5..8), Increase text size
  `buttonIncreaseTextSize` (each writes `textSizeMultiplier` at once, clamped), the font
  families, Reading focus mode, "Theme" with the four theme buttons (`colorTheme`), Match
  system theme and image dimming.

Not modelled: articles, search results, login, languages, dragging the card types into another
order (the order is read, never written by a drag), the fitting room's sample article.
"""
from __future__ import annotations

import json
from typing import Callable

from taskkit.apps import wikipedia as app
from taskkit.device.services import shared_prefs
from taskkit.sim.gui import appdata, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.node import Action, Box, Node
from taskkit.sim.gui.session import Session

ID = f"{app.PACKAGE}:id/"
# the tabs (NavTab.kt) with the nearest glyphs of taskkit's icon font (the app draws its own)
TABS = (widgets.Tab("Explore", ID + "nav_tab_explore", "language"),
        widgets.Tab("Saved", ID + "nav_tab_reading_lists", "favorite_border"),
        widgets.Tab("Search", ID + "nav_tab_search", "search"), widgets.Tab("Edits", ID + "nav_tab_edits", "edit"))
MORE = "More"
SETTINGS, CONFIGURE, THEME = ".settings.SettingsActivity", ".feed.configure.ConfigureActivity", ".theme.ThemeFittingRoomActivity"
_SWITCHES = "enabled"  # the configure screen's draft: its switches (JSON) until it is left


def _prefs(ui: Session) -> dict[str, shared_prefs.Pref]:
    return app.read(appdata.read_text(ui, app.PREFS))


def _write(ui: Session, entries: dict[str, shared_prefs.Pref]) -> None:
    appdata.write_text(ui, app.PREFS, shared_prefs.render(_prefs(ui) | entries))


# --- main: the tabs --------------------------------------------------------------------------
def _nav(ui: Session, tab: str) -> tuple[list[Node], int]:
    """The bottom bar: the four tabs in `main_nav_tab_layout`, then More beside them."""
    m = ui.m
    bar, top = widgets.bottom_navigation(ui, TABS + (widgets.Tab(MORE, "", "menu"),), ID + "main_nav_tab_layout",
                                         lambda label: lambda s: s.replace("main", tab=label), selected=tab)
    *items, more = bar.children
    bar.children = items
    bar.bounds = (0, top, more.bounds[0], m.content_bottom)
    more.resource_id, more.action, more.clickable = ID + "nav_more_container", lambda s: s.push("more"), True
    icon, label = more.children  # fragment_main.xml: the ImageView `menu_icon` and a TextView without an id
    icon.resource_id, label.resource_id = ID + "menu_icon", ""
    return [bar, more], top


def _toolbar(ui: Session, tab: str) -> tuple[list[Node], int]:
    m = ui.m
    if tab == "Explore":
        wordmark = Node("android.widget.ImageView", resource_id=ID + "main_toolbar_wordmark",
                        bounds=(m.dp(16), m.status_bar + m.dp(16), m.dp(176), m.status_bar + m.dp(48)))
        bottom = m.status_bar + m.dp(64)
        return [Node("android.view.ViewGroup", resource_id=ID + "main_toolbar", bounds=(0, m.status_bar, m.width, bottom),
                     children=[wordmark])], bottom
    return widgets.app_bar(ui, tab, up=False, rid=ID + "main_toolbar")


def _card(ui: Session, box: Box, children: list[Node], rid: str = "") -> Node:
    return Node("androidx.cardview.widget.CardView", resource_id=rid, bounds=box, children=children)


def _search_bar(ui: Session, y: int) -> tuple[Node, int]:
    m = ui.m
    box = (m.dp(16), y + m.dp(8), m.width - m.dp(16), y + m.dp(56))
    hint = widgets.text(ui, (box[0] + m.dp(48), box[1], box[2] - m.dp(48), box[3]), "Search Wikipedia", size_dp=16)
    bar = Node("android.widget.LinearLayout", resource_id=ID + "search_container", content_desc="Search Wikipedia",
               bounds=box, clickable=True, focusable=True, action=lambda s: s.replace("main", tab="Search"),
               children=[hint])
    return bar, box[3]


def _explore(ui: Session, frame: Frame, top: int, bottom: int) -> list[Node]:
    m = ui.m
    search, y = _search_bar(ui, top)
    offline = _card(ui, (m.dp(16), y + m.dp(16), m.width - m.dp(16), y + m.dp(168)), [
        widgets.text(ui, (m.dp(32), y + m.dp(40), m.width - m.dp(32), y + m.dp(96)),
                     "Content cannot be loaded when offline.", size_dp=16),
        widgets.button(ui, (m.width // 2 - m.dp(56), y + m.dp(104), m.width // 2 + m.dp(56), y + m.dp(152)), "Retry",
                       widgets.inert, ID + "view_card_offline_button_retry")])
    return [Node(widgets.RECYCLER_VIEW, resource_id=ID + "feed_view", bounds=(0, top, m.width, bottom),
                 children=[search, offline])]


def _saved(ui: Session, frame: Frame, top: int, bottom: int) -> list[Node]:
    row = widgets.Row(ui.m.dp(72), lambda box: widgets.list_item(ui, box, "Saved", "0 articles", action=widgets.inert,
                                                                  title_rid=ID + "item_title"))
    return [widgets.scroll_list(ui, frame, "lists", (0, top, ui.m.width, bottom), [row], rid=ID + "recycler_view")]


def _search(ui: Session, frame: Frame, top: int, bottom: int) -> list[Node]:
    m = ui.m
    search, y = _search_bar(ui, top)
    return [search, widgets.text(ui, (m.dp(32), y + m.dp(64), m.width - m.dp(32), y + m.dp(104)),
                                 "No recently viewed articles", ID + "history_empty_title", size_dp=18),
            widgets.text(ui, (m.dp(32), y + m.dp(104), m.width - m.dp(32), y + m.dp(136)),
                         "Track what you've been reading here.", ID + "history_empty_message", size_dp=14)]


def _edits(ui: Session, frame: Frame, top: int, bottom: int) -> list[Node]:
    m = ui.m
    return [widgets.button(ui, (m.dp(32), top + m.dp(48), m.width - m.dp(32), top + m.dp(96)), "Log in / join Wikipedia",
                           widgets.inert, ID + "positiveButton")]


_PAGES: dict[str, Callable[[Session, Frame, int, int], list[Node]]] = {
    "Explore": _explore, "Saved": _saved, "Search": _search, "Edits": _edits}


def _main(ui: Session, frame: Frame) -> list[Node]:
    tab = str(frame.args.get("tab") or "Explore")
    toolbar, top = _toolbar(ui, tab)
    nav, nav_top = _nav(ui, tab)
    return toolbar + _PAGES[tab](ui, frame, top, nav_top) + nav


def _more(ui: Session, frame: Frame) -> list[Node]:
    """MenuNavTabDialog: a bottom sheet of the menu's rows."""
    m = ui.m
    rows = [("Log in / join Wikipedia", "main_drawer_login_button", widgets.inert),
            ("Places", "main_drawer_places_container", widgets.inert),
            ("Settings", "main_drawer_settings_container", lambda s: (s.finish(), s.push("settings"))),
            ("Donate", "main_drawer_donate_container", widgets.inert)]
    top = m.content_bottom - m.dp(56) * len(rows) - m.dp(16)
    nodes = [Node("android.widget.LinearLayout", resource_id=ID + rid, bounds=(0, top + m.dp(56) * i, m.width, top + m.dp(56) * (i + 1)),
                  clickable=True, focusable=True, action=action,
                  children=[widgets.text(ui, (m.dp(72), top + m.dp(56) * i, m.width - m.dp(16), top + m.dp(56) * (i + 1)),
                                         label, size_dp=16)])
             for i, (label, rid, action) in enumerate(rows)]
    return [Node("android.widget.FrameLayout", resource_id=ID + "design_bottom_sheet", bounds=(0, top, m.width, m.content_bottom),
                 background=(250, 250, 250), children=nodes)]


# --- settings ----------------------------------------------------------------------------------
def _toggle(key: str) -> Action:
    def act(ui: Session) -> None:
        _write(ui, {key: shared_prefs.Pref("boolean", not app.switch_on(_prefs(ui), key))})
    return act


def _heading(ui: Session, title: str) -> widgets.Row:
    m = ui.m
    return widgets.Row(m.dp(48), lambda box: widgets.text(ui, (m.dp(72), box[1] + m.dp(16), box[2] - m.dp(16), box[3]),
                                                          title, "android:id/title", size_dp=14))


def _switch_row(ui: Session, key: str, prefs: dict[str, shared_prefs.Pref]) -> widgets.Row:
    title, summary, _ = app.SWITCHES[key]
    height = ui.m.dp(72 if not summary else 72 + 20 * (len(summary) // 48))
    return widgets.Row(height, lambda box: widgets.pref_row(ui, box, title, summary, _toggle(key),
                                                            app.switch_on(prefs, key)))


def _settings(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    prefs = _prefs(ui)
    theme = next((name for name, code in app.THEMES.items()
                  if code == (prefs[app.COLOR_THEME].value if app.COLOR_THEME in prefs else 0)), "Light")
    plain = lambda title, summary, action: widgets.Row(  # noqa: E731
        m.dp(72), lambda box: widgets.pref_row(ui, box, title, summary, action))
    rows = [_heading(ui, "General"), plain("Wikipedia languages", "English", widgets.inert),
            plain("Explore Feed", "Customize the Explore feed", lambda s: s.push("configure")),
            _switch_row(ui, app.SHOW_LINK_PREVIEWS, prefs), _switch_row(ui, "collapseTables", prefs),
            plain("App theme", theme, lambda s: s.push("theme")),
            _heading(ui, "Syncing"), _switch_row(ui, "downloadReadingListArticles", prefs),
            _heading(ui, "Data usage"), _switch_row(ui, "downloadOnlyOverWiFi", prefs),
            _switch_row(ui, "showImages", prefs), _switch_row(ui, "preferOfflineContent", prefs)]
    nodes, top = widgets.app_bar(ui, "Settings")
    return nodes + [widgets.scroll_list(ui, frame, "prefs", (0, top, m.width, m.content_bottom), rows,
                                        rid=ID + "recycler_view")]


# --- configure: the feed's card types ----------------------------------------------------------
def _switches(ui: Session, frame: Frame) -> list[bool]:
    draft = ui.draft(frame, _SWITCHES)
    return [bool(on) for on in json.loads(draft)] if draft else app.cards_enabled(_prefs(ui))


def _set_switches(frame: Frame, change: Callable[[list[bool]], list[bool]]) -> Action:
    return lambda ui: ui.set_draft(frame, _SWITCHES, app.encode(change(_switches(ui, frame))))


def _flip(index: int) -> Callable[[list[bool]], list[bool]]:
    return lambda enabled: [not on if i == index else on for i, on in enumerate(enabled)]


def _save(ui: Session, frame: Frame) -> None:
    """ConfigureFragment.onPause: FeedContentType.saveState."""
    _write(ui, app.saved_cards(_switches(ui, frame), app.cards_order(_prefs(ui))))


def _restore_default(frame: Frame) -> Action:
    def act(ui: Session) -> None:  # Prefs.resetFeedCustomizations, then the default switches
        ui.set_draft(frame, _SWITCHES, app.encode([True] * len(app.CARD_TYPES)))
    return act


def _type_row(ui: Session, frame: Frame, index: int, on: bool) -> widgets.Row:
    m = ui.m
    card = app.CARD_TYPES[index]

    def build(box: Box) -> Node:
        x1, y1, x2, y2 = box
        middle = (y1 + y2) // 2
        return Node("android.widget.LinearLayout", bounds=box, focusable=True, content_desc=f"{card.title}, {card.subtitle}",
                    children=[Node("android.widget.ImageView", resource_id=ID + "feed_content_type_drag_handle", icon="menu",
                                   bounds=(x1 + m.dp(8), middle - m.dp(12), x1 + m.dp(40), middle + m.dp(12))),
                              widgets.text(ui, (x1 + m.dp(56), y1 + m.dp(12), x2 - m.dp(88), middle), card.title,
                                           ID + "feed_content_type_title", size_dp=16),
                              widgets.text(ui, (x1 + m.dp(56), middle, x2 - m.dp(88), y2 - m.dp(12)), card.subtitle,
                                           ID + "feed_content_type_subtitle", size_dp=14),
                              Node("com.google.android.material.materialswitch.MaterialSwitch", checkable=True, checked=on,
                                   clickable=True, focusable=True, resource_id=ID + "feed_content_type_checkbox",
                                   bounds=(x2 - m.dp(76), middle - m.dp(20), x2 - m.dp(16), middle + m.dp(20)),
                                   action=_set_switches(frame, _flip(index)))])
    return widgets.Row(m.dp(88), build)


def _configure(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    enabled, order = _switches(ui, frame), app.cards_order(_prefs(ui))
    listed = sorted((i for i, card in enumerate(app.CARD_TYPES) if card.in_config), key=lambda i: order[i])
    menu = widgets.icon_button(ui, (0, 0, m.dp(48), 0), "More options", lambda s: s.push("configure_menu"))
    nodes, top = widgets.app_bar(ui, "Customize the feed", rid=ID + "toolbar", actions=(menu,))
    rows = [_type_row(ui, frame, i, enabled[i]) for i in listed]
    return nodes + [widgets.scroll_list(ui, frame, "types", (0, top, m.width, m.content_bottom), rows,
                                        rid=ID + "content_types_recycler")]


def _configure_menu(ui: Session, frame: Frame) -> list[Node]:
    under = ui.frames(app.PACKAGE)[-2]
    everything = lambda on: _set_switches(under, lambda enabled: [on] * len(enabled))  # noqa: E731
    return widgets.popup_menu(ui, [("Show all", everything(True)), ("Hide all", everything(False)),
                                   ("Restore default view", _restore_default(under))])


# --- theme: text size and colours --------------------------------------------------------------
def _size(change: Callable[[int], int]) -> Action:
    def act(ui: Session) -> None:  # WikipediaApp.setFontSizeMultiplier: clamped, written when it changes
        size = max(app.MIN_TEXT_SIZE, min(app.MAX_TEXT_SIZE, change(app.text_size(_prefs(ui)))))
        _write(ui, {app.TEXT_SIZE: shared_prefs.Pref("int", size)})
    return act


def _slide(ui: Session, fraction: float) -> None:
    steps = app.MAX_TEXT_SIZE - app.MIN_TEXT_SIZE
    _size(lambda _: app.MIN_TEXT_SIZE + round(fraction * steps))(ui)


def _theme(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    prefs = _prefs(ui)
    size = app.text_size(prefs)
    shown = f"{app.percent(size)}%" + (" (Default)" if size == 0 else "")
    current = prefs[app.COLOR_THEME].value if app.COLOR_THEME in prefs else 0

    def size_row(box: Box) -> Node:
        x1, y1, x2, y2 = box
        return Node("android.widget.LinearLayout", bounds=box, children=[
            widgets.text(ui, (x1 + m.dp(16), y1, x1 + m.dp(64), y2), "T", ID + "buttonDecreaseTextSize",
                         desc="Decrease text size", size_dp=14, action=_size(lambda v: v - 1)),
            Node("android.widget.SeekBar", resource_id=ID + "text_size_seek_bar", focusable=True,
                 text=str(size - app.MIN_TEXT_SIZE), bounds=(x1 + m.dp(64), y1, x2 - m.dp(64), y2), slide=_slide),
            widgets.text(ui, (x2 - m.dp(64), y1, x2 - m.dp(16), y2), "T", ID + "buttonIncreaseTextSize",
                         desc="Increase text size", size_dp=22, action=_size(lambda v: v + 1))])

    def themes_row(box: Box) -> Node:
        x1, y1, _, y2 = box
        buttons = [Node("com.google.android.material.button.MaterialButton", resource_id=f"{ID}button_theme_{name.lower()}",
                        bounds=(x1 + m.dp(16 + 50 * i), y1 + m.dp(8), x1 + m.dp(56 + 50 * i), y1 + m.dp(48)),
                        clickable=app.THEMES[name] != current, focusable=True,
                        action=lambda s, code=app.THEMES[name]: _write(s, {app.COLOR_THEME: shared_prefs.Pref("int", code)}))
                   for i, name in enumerate(("Light", "Sepia", "Dark", "Black"))]
        return Node("android.widget.LinearLayout", bounds=(x1, y1, box[2], y2), children=buttons)

    line = lambda value, rid="", dp=48, size_dp=16: widgets.Row(  # noqa: E731
        m.dp(dp), lambda box: widgets.text(ui, (m.dp(16), box[1], m.width - m.dp(16), box[3]), value, rid, size_dp=size_dp))
    switch = lambda label, rid: widgets.Row(m.dp(56), lambda box: Node(  # noqa: E731
        "com.google.android.material.materialswitch.MaterialSwitch", text=label, resource_id=ID + rid, checkable=True,
        clickable=True, focusable=True, bounds=(m.dp(16), box[1], m.width - m.dp(16), box[3]), action=widgets.inert))
    families = widgets.Row(m.dp(64), lambda box: Node("android.widget.LinearLayout", resource_id=ID + "fontFamilyContainer",
                                                      bounds=box, children=[
        widgets.button(ui, (m.dp(16), box[1] + m.dp(8), m.width // 2 - m.dp(8), box[3] - m.dp(8)), "sans-serif",
                       widgets.inert, ID + "button_font_family_sans_serif"),
        widgets.button(ui, (m.width // 2 + m.dp(8), box[1] + m.dp(8), m.width - m.dp(16), box[3] - m.dp(8)), "serif",
                       widgets.inert, ID + "button_font_family_serif")]))
    rows = [line("Reading", ID + "textSettingsCategory", size_dp=14), line(shown, ID + "text_size_percent", 40),
            widgets.Row(m.dp(64), size_row), families,
            switch("Reading focus mode", "theme_chooser_reading_focus_mode_switch"),
            line("Hides edit features and bottom toolbar on scroll", ID + "theme_chooser_reading_focus_mode_description",
                 size_dp=14),
            line("Theme", size_dp=14), widgets.Row(m.dp(64), themes_row),
            switch("Match system theme", "theme_chooser_match_system_theme_switch"),
            switch("Image dimming (in Dark theme)", "theme_chooser_dark_mode_dim_images_switch")]
    top = m.height // 4  # the sheet's peek height: 75 % of the display (ThemeChooserDialog.onStart)
    return [Node("android.widget.FrameLayout", resource_id=ID + "design_bottom_sheet", bounds=(0, top, m.width, m.content_bottom),
                 background=(250, 250, 250),
                 children=[widgets.scroll_list(ui, frame, "sheet", (0, top, m.width, m.content_bottom), rows)])]


APP = register(AppScreens(app.PACKAGE, {
    "main": Screen(_main), "more": Screen(_more), "settings": Screen(_settings, SETTINGS),
    "configure": Screen(_configure, CONFIGURE, on_leave=_save), "configure_menu": Screen(_configure_menu, CONFIGURE),
    "theme": Screen(_theme, THEME)}, first="main"))
