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

Also (B-MoCA's and AndroidLens' Settings tasks): Sound & vibration (`sound_settings.xml`: the
Media, Call, Ring & notification and Alarm volume sliders, which write AudioService's persisted
indexes `system volume_music_speaker`, `volume_voice_earpiece`, `volume_ring_speaker`,
`volume_alarm_speaker`; "Vibrate for calls" as one switch over `system vibrate_when_ringing`),
Apps › See all apps (the installed apps with a launcher icon, by label), System › Languages &
input › Languages › Add a language (LocalePickerWithRegionActivity, started with its START line)
and Safety & emergency › Emergency SOS (`secure emergency_gesture_enabled`, unset = on, and
`emergency_gesture_sound_enabled`) and › Emergency contacts (the Emergency information app's
list, taskkit/sim/gui/emergency.py; Add contact picks a number from Contacts). Each sub page
logs SettingsActivity's "Switching to fragment" line with its AOSP fragment, and the screens'
changes log what Android's services log (taskkit/sim/gui/syslog.py).
"""
from __future__ import annotations

from typing import Callable

from taskkit.device.catalog import LAUNCHER
from taskkit.sim import packages
from taskkit.sim.commands.activity import log_start, process_uid
from taskkit.sim.commands.activity import Intent as StartIntent
from taskkit.sim.gui import emergency, syslog, toggles, volumes, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Intent, Opening, Screen, register
from taskkit.sim.gui.node import Action, Node
from taskkit.sim.gui.session import Session

PACKAGE = "com.android.settings"
LAUNCHER_PACKAGE = LAUNCHER.name
WIFI = "Wi\u2011Fi"
SUB = ".SubSettings"
# the activities intents start → the page they show
_STARTS = {f"{PACKAGE}.Settings$WifiSettingsActivity": "internet",
           f"{PACKAGE}.Settings$BluetoothSettingsActivity": "bluetooth",
           f"{PACKAGE}.Settings$DisplaySettingsActivity": "display"}
_TOP_LEVEL = (("Network & internet", "Mobile, Wi\u2011Fi, hotspot", "network"),
              ("Connected devices", "Bluetooth, pairing", "connected"),
              ("Apps", "Recent apps, default apps", "apps"),
              ("Notifications", "Notification history, conversations", None),
              ("Battery", "100%", None),
              ("Storage", "34% used - 10.56 GB free", None),
              ("Sound & vibration", "Volume, haptics, Do Not Disturb", "sound"),
              ("Display", "Dark theme, font size, brightness", "display"),
              ("Wallpaper & style", "Colors, themed icons, app grid", None),
              ("Accessibility", "Display, interaction, audio", None),
              ("Security & privacy", "App security, device lock, permissions", None),
              ("Location", "On - 3 apps have access to location", None),
              ("Safety & emergency", "Emergency SOS, medical info, alerts", "safety"),
              ("System", "Languages, gestures, time, backup", "system"))
RowSpec = tuple[str, str, "Action | None", "bool | None"]  # title, summary, action, switch state


SETTINGS_UID = process_uid(PACKAGE)  # Settings runs as android.uid.system (1000)
CLS = PACKAGE + "."  # the app's class names' prefix
# each sub page's fragment (SubSettings' SettingsActivity.switchToFragment logs its name)
FRAGMENTS = {"network": CLS + "network.NetworkDashboardFragment",
             "internet": CLS + "network.NetworkProviderSettings",
             "connected": CLS + "connecteddevice.ConnectedDeviceDashboardFragment",
             "bluetooth": CLS + "connecteddevice.BluetoothDashboardFragment",
             "display": CLS + "DisplaySettings",
             "sound": CLS + "notification.SoundSettings",
             "apps": CLS + "applications.AppDashboardFragment",
             "all_apps": CLS + "applications.manageapplications.ManageApplications",
             "system": CLS + "system.SystemDashboardFragment",
             "languages_input": CLS + "language.LanguageAndInputSettings",
             "languages": CLS + "localepicker.LocaleListEditor",
             "safety": CLS + "emergency.EmergencyDashboardFragment",
             "emergency_sos": CLS + "emergency.EmergencyGestureSettings"}
# controllers a page's XML names that have no (Context) constructor: PreferenceControllerListHelper
# logs each when the page is built (bluetooth_screen.xml's rename-device preference)
NO_CONTEXT_CONTROLLERS = {"bluetooth": (CLS + "bluetooth.BluetoothDeviceRenamePreferenceController",)}
LOCALE_PICKER = ".localepicker.LocalePickerWithRegionActivity"
WIFI_SWITCH = toggles.wifi_toggle(PACKAGE, SETTINGS_UID)


def _open(screen: str) -> Action:
    """A row that opens a sub page: pushed, then its fragment's lines logged."""
    def act(ui: Session) -> None:
        ui.push(screen)
        if screen in FRAGMENTS:  # a Settings page (Emergency contacts is the Emergency info app's)
            syslog.fragment_switched(ui.state, FRAGMENTS[screen])
        for controller in NO_CONTEXT_CONTROLLERS.get(screen, ()):
            syslog.controller_without_context(ui.state, controller)
    return act


def _add_language(ui: Session) -> None:
    """LocaleListEditor's "Add a language": startActivityForResult of LocalePickerWithRegionActivity."""
    log_start(ui.state, StartIntent(None), PACKAGE, PACKAGE + LOCALE_PICKER, SETTINGS_UID)
    ui.push("add_language")


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
    rows: list[RowSpec] = [(WIFI, "", WIFI_SWITCH, wifi)]
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
    """A page's rows besides plain preferences: sliders and the switches below them."""
    extra = _EXTRAS.get(frame.screen)
    return extra(ui) if extra else []


def _slider(ui: Session, label: str, percent: int, slide: Callable[[Session, float], None]) -> widgets.Row:
    """A SeekBar row (`com.android.settings:id/seekbar`) described by its preference's title."""
    m = ui.m

    def build(box):
        return Node("android.widget.SeekBar", text=f"{percent}%", content_desc=label,
                    resource_id=f"{PACKAGE}:id/seekbar", focusable=True,
                    bounds=(m.dp(56), box[1], m.width - m.dp(56), box[3]), slide=slide)
    return widgets.Row(m.dp(48), build)


def _switch_row(ui: Session, title: str, action: Action, on: bool) -> widgets.Row:
    return widgets.Row(ui.m.dp(72), lambda box: widgets.pref_row(ui, box, title, "", action, on))


def _display_extras(ui: Session) -> list[widgets.Row]:
    adaptive = toggles.is_on(ui, "system", "screen_brightness_mode")
    return [_slider(ui, "Brightness level", toggles.brightness_percent(ui), toggles.set_brightness),
            _switch_row(ui, "Adaptive brightness", toggles.toggle("system", "screen_brightness_mode"), adaptive),
            _switch_row(ui, "Dark theme", toggles.DARK_THEME, ui.dark)]


def _volume_label(ui: Session, stream: volumes.Stream) -> widgets.Row:
    """The volume preference's title over its slider."""
    return widgets.Row(ui.m.dp(48), lambda box: widgets.pref_row(ui, box, stream.title))


def _sound_extras(ui: Session) -> list[widgets.Row]:
    rows: list[widgets.Row] = []
    for stream in volumes.STREAMS:
        rows += [_volume_label(ui, stream),
                 _slider(ui, stream.title, volumes.percent(ui, stream), volumes.slider(stream))]
    vibrate = toggles.is_on(ui, "system", "vibrate_when_ringing")
    return rows + [_switch_row(ui, "Vibrate for calls", toggles.toggle("system", "vibrate_when_ringing"), vibrate)]


def _sos_extras(ui: Session) -> list[widgets.Row]:
    on = toggles.is_on(ui, "secure", "emergency_gesture_enabled", SOS_ON)
    sound = toggles.is_on(ui, "secure", "emergency_gesture_sound_enabled")
    return [_switch_row(ui, "Use Emergency SOS", SOS_SWITCH, on),
            _switch_row(ui, "Play countdown alarm", toggles.toggle("secure", "emergency_gesture_sound_enabled"), sound)]


def _emergency_contacts_rows(ui: Session) -> list[RowSpec]:
    """The Emergency information app's contacts (name, number), then Add contact."""
    return [(p.name, p.number, None, None) for p in emergency.stored(ui)] + [
        ("Add contact", "", lambda ui: ui.push("contact_picker"), None)]


def _picker_rows(ui: Session) -> list[RowSpec]:
    """The phone picker: every contact's number; a tap adds it and goes back."""
    def pick(phone: emergency.Phone) -> Action:
        def act(ui: Session) -> None:
            emergency.add(ui, phone)
            ui.finish()
        return act
    return [(p.name, p.number, pick(p), None) for p in emergency.phones(ui)]


_EXTRAS: dict[str, Callable[[Session], list[widgets.Row]]] = {
    "display": _display_extras, "sound": _sound_extras, "emergency_sos": _sos_extras}
SOS_ON: tuple = ("1", None)  # unset reads config_defaultEmergencyGestureEnabled: on
SOS_SWITCH = toggles.toggle("secure", "emergency_gesture_enabled", is_on=SOS_ON)


def _no_rows(ui: Session) -> list[RowSpec]:
    return []


def _apps_rows(ui: Session) -> list[RowSpec]:
    return [("See all %d apps" % len(_launcher_apps(ui)), "", _open("all_apps"), None),
            ("Default apps", "Chrome, Phone, and Messages", None, None),
            ("Screen time", "Today's screen time", None, None),
            ("Unused apps", "0 unused apps", None, None),
            ("App battery usage", "", None, None), ("Special app access", "2 apps can use unrestricted data", None, None)]


def _launcher_apps(ui: Session) -> list[str]:
    """The labels ManageApplications lists: the installed apps with a launcher activity, by label."""
    return sorted((p.label for p in packages.all_installed(ui.state) if p.launch_activity and p.name != LAUNCHER_PACKAGE),
                  key=str.lower)


def _all_apps_rows(ui: Session) -> list[RowSpec]:
    return [(label, "", None, None) for label in _launcher_apps(ui)]


def _system_rows(ui: Session) -> list[RowSpec]:
    return [("Languages & input", "Gboard", _open("languages_input"), None),
            ("Gestures", "", None, None), ("Date & time", "GMT+00:00", None, None),
            ("Backup", "Off", None, None), ("System update", "Updated to Android 13", None, None),
            ("Reset options", "", None, None)]


def _languages_input_rows(ui: Session) -> list[RowSpec]:
    return [("Languages", LOCALE_NAMES.get(ui.locale, ui.locale), _open("languages"), None),
            ("App languages", "Choose the language for each app", None, None),
            ("On-screen keyboard", "Gboard", None, None), ("Physical keyboard", "", None, None),
            ("Spell checker", "Use spell checker", None, None)]


def _languages_rows(ui: Session) -> list[RowSpec]:
    return [(LOCALE_NAMES.get(ui.locale, ui.locale), "", None, None), ("Add a language", "", _add_language, None)]


# a few of LocalePicker's suggestions (their names as the picker writes them, in their own language)
LOCALE_NAMES = {"en-US": "English (United States)", "de-DE": "Deutsch (Deutschland)", "es-ES": "Español (España)",
                "fr-FR": "Français (France)", "ja-JP": "日本語 (日本)", "ko-KR": "한국어 (대한민국)",
                "zh-CN": "中文 (中国)"}


def _add_language_rows(ui: Session) -> list[RowSpec]:
    return [(name.split(" (")[0], "", None, None) for tag, name in LOCALE_NAMES.items() if tag != ui.locale]


def _safety_rows(ui: Session) -> list[RowSpec]:
    on = toggles.is_on(ui, "secure", "emergency_gesture_enabled", SOS_ON)
    count = len(emergency.stored(ui))
    return [("Emergency contacts", f"{count} contact{'s' if count != 1 else ''}" if count else "Add contacts",
             _open("emergency_contacts"), None),
            ("Emergency SOS", "On" if on else "Off", _open("emergency_sos"), None),
            ("Emergency alerts", "", None, None), ("Emergency Location Service", "On", None, None)]


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
     "display": Screen(_page("Display", _display_rows), SUB),
     "sound": Screen(_page("Sound & vibration", _no_rows), SUB),
     "apps": Screen(_page("Apps", _apps_rows), SUB),
     "all_apps": Screen(_page("All apps", _all_apps_rows), SUB),
     "system": Screen(_page("System", _system_rows), SUB),
     "languages_input": Screen(_page("Languages & input", _languages_input_rows), SUB),
     "languages": Screen(_page("Languages", _languages_rows), SUB),
     "add_language": Screen(_page("Add a language", _add_language_rows), LOCALE_PICKER),
     "safety": Screen(_page("Safety & emergency", _safety_rows), SUB),
     "emergency_sos": Screen(_page("Emergency SOS", _no_rows), SUB),
     "emergency_contacts": Screen(_page("Emergency contacts", _emergency_contacts_rows), SUB),
     "contact_picker": Screen(_page("Choose a contact", _picker_rows), SUB)},
    first="main", opener=_opener))
