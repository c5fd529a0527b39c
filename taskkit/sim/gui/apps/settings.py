"""Settings: the top-level list, Network & internet › Internet (Wi‑Fi), Airplane mode, Connected
devices › Bluetooth, and Display (brightness level, adaptive brightness, dark theme).

Labels follow AOSP Settings on Android 13 (`packages/apps/Settings/res/values/strings.xml`:
`network_dashboard_title` "Network & internet", `connected_devices_dashboard_title` "Connected
devices", `display_settings` "Display", `wifi_settings_title` "Wi‑Fi" with a non-breaking
hyphen, `airplane_mode` "Airplane mode", `bluetooth_main_switch_title` "Use Bluetooth",
`brightness` "Brightness level", `dark_ui_mode` "Dark theme"); rows are preference rows
(`android:id/title`, `android:id/summary`, `android:id/switch_widget`). Pages opened from inside
the app run in `.SubSettings`, as in Android; `am start -a android.settings.WIFI_SETTINGS`
(DISPLAY_SETTINGS, BLUETOOTH_SETTINGS) opens that page alone, and BACK leaves it. Every switch
writes the settings provider the checks read. Simplified: Bluetooth is one level below Connected
devices (Android puts it under Connection preferences); the other top-level rows open nothing.
"""
from __future__ import annotations

from typing import Callable

from taskkit.sim.gui import toggles, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Action, Node
from taskkit.sim.gui.session import Session

PACKAGE = "com.android.settings"
WIFI = "Wi\u2011Fi"
SUB = ".SubSettings"
# the activities intents start → the page they show
_STARTS = {f"{PACKAGE}.Settings$WifiSettingsActivity": "internet",
           f"{PACKAGE}.Settings$BluetoothSettingsActivity": "bluetooth",
           f"{PACKAGE}.Settings$DisplaySettingsActivity": "display"}
_TOP_LEVEL = (("Network & internet", "Mobile, Wi\u2011Fi, hotspot", "network"),
              ("Connected devices", "Bluetooth, pairing", "connected"),
              ("Apps", "Recent apps, default apps", None),
              ("Notifications", "Notification history, conversations", None),
              ("Battery", "100%", None),
              ("Storage", "34% used - 10.56 GB free", None),
              ("Sound & vibration", "Volume, haptics, Do Not Disturb", None),
              ("Display", "Dark theme, font size, brightness", "display"),
              ("Wallpaper & style", "Colors, themed icons, app grid", None),
              ("Accessibility", "Display, interaction, audio", None),
              ("Security & privacy", "App security, device lock, permissions", None),
              ("Location", "On - 3 apps have access to location", None),
              ("System", "Languages, gestures, time, backup", None))
RowSpec = tuple[str, str, "Action | None", "bool | None"]  # title, summary, action, switch state


def _open(screen: str) -> Action:
    return lambda ui: ui.push(screen)


def _main_rows(ui: Session) -> list[RowSpec]:
    return [(title, summary, _open(target) if target else None, None) for title, summary, target in _TOP_LEVEL]


def _network_rows(ui: Session) -> list[RowSpec]:
    wifi = toggles.is_on(ui, "global", "wifi_on", toggles.WIFI_ON)
    return [("Internet", "AndroidWifi" if wifi else "Off", _open("internet"), None),
            ("Calls & SMS", "T-Mobile", None, None), ("SIMs", "T-Mobile", None, None),
            ("Airplane mode", "", toggles.AIRPLANE, toggles.is_on(ui, "global", "airplane_mode_on")),
            ("Hotspot & tethering", "Off", None, None), ("Data Saver", "Off", None, None),
            ("VPN", "None", None, None), ("Private DNS", "Automatic", None, None)]


def _internet_rows(ui: Session) -> list[RowSpec]:
    wifi = toggles.is_on(ui, "global", "wifi_on", toggles.WIFI_ON)
    rows: list[RowSpec] = [(WIFI, "", toggles.WIFI, wifi)]
    if wifi:
        rows.append(("AndroidWifi", "Connected", None, None))
    return rows + [("Network preferences", "Wi\u2011Fi turns back on automatically", None, None)]


def _connected_rows(ui: Session) -> list[RowSpec]:
    on = toggles.is_on(ui, "global", "bluetooth_on")
    return [("Pair new device", "", None, None), ("Bluetooth", "On" if on else "Off", _open("bluetooth"), None)]


def _bluetooth_rows(ui: Session) -> list[RowSpec]:
    return [("Use Bluetooth", "", toggles.BLUETOOTH, toggles.is_on(ui, "global", "bluetooth_on"))]


def _page(title: str, rows: Callable[[Session], list[RowSpec]]):
    """A page: the app bar (the homepage has a large title and no Navigate up) over a list of rows."""
    def build(ui: Session, frame: Frame) -> list[Node]:
        main = frame.screen == "main"
        m = ui.m
        if main:
            top = m.status_bar + m.dp(112)
            nodes = [widgets.text(ui, (m.dp(24), m.status_bar, m.width - m.dp(24), top), title,
                                  f"{PACKAGE}:id/homepage_title", size_dp=36)]
        else:
            nodes, top = widgets.app_bar(ui, title, title_rid=f"{PACKAGE}:id/collapsing_toolbar")
        specs = rows(ui)
        listed = [widgets.Row(m.dp(72), lambda box, s=s: widgets.pref_row(ui, box, s[0], s[1], s[2], s[3]))
                  for s in specs]
        listed += _extra_rows(ui, frame)
        return nodes + [widgets.scroll_list(ui, frame, "list", (0, top, m.width, m.content_bottom), listed,
                                            rid=f"{PACKAGE}:id/recycler_view")]
    return build


def _extra_rows(ui: Session, frame: Frame) -> list[widgets.Row]:
    """Display's rows besides plain preferences: the brightness slider and its switches."""
    if frame.screen != "display":
        return []
    m = ui.m
    percent = toggles.brightness_percent(ui)

    def slider(box):
        return Node("android.widget.SeekBar", text=f"{percent}%", content_desc="Brightness level",
                    resource_id=f"{PACKAGE}:id/seekbar", focusable=True,
                    bounds=(m.dp(56), box[1], m.width - m.dp(56), box[3]), slide=toggles.set_brightness)

    adaptive = toggles.is_on(ui, "system", "screen_brightness_mode")
    return [widgets.Row(m.dp(48), slider),
            widgets.Row(m.dp(72), lambda box: widgets.pref_row(
                ui, box, "Adaptive brightness", "", toggles.toggle("system", "screen_brightness_mode"), adaptive)),
            widgets.Row(m.dp(72), lambda box: widgets.pref_row(ui, box, "Dark theme", "", toggles.DARK_THEME, ui.dark))]


def _display_rows(ui: Session) -> list[RowSpec]:
    return [("Brightness level", f"{toggles.brightness_percent(ui)}%", None, None)]


def _opener(activity: str, intent: Intent | None) -> list[Opening] | None:
    page = _STARTS.get(activity)
    return [Opening(page, activity=activity)] if page else None


APP = register(AppScreens(
    PACKAGE,
    {"main": Screen(_page("Settings", _main_rows)),
     "network": Screen(_page("Network & internet", _network_rows), SUB),
     "internet": Screen(_page("Internet", _internet_rows), SUB),
     "connected": Screen(_page("Connected devices", _connected_rows), SUB),
     "bluetooth": Screen(_page("Bluetooth", _bluetooth_rows), SUB),
     "display": Screen(_page("Display", _display_rows), SUB)},
    first="main", opener=_opener))
