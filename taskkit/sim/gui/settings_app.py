"""The Settings app: the top-level list, Network & internet › Internet (Wi‑Fi), Airplane mode,
Connected devices › Bluetooth, and Display (brightness level, dark theme).

Labels and resource ids follow AOSP Settings on Android 13 (`packages/apps/Settings/res/values/
strings.xml`: `network_dashboard_title` "Network & internet", `connected_devices_dashboard_title`
"Connected devices", `display_settings` "Display", `wifi_settings_title` "Wi‑Fi" with a
non-breaking hyphen, `airplane_mode` "Airplane mode", `bluetooth_main_switch_title`
"Use Bluetooth", `brightness` "Brightness level", `dark_ui_mode` "Dark theme"; rows are
`android:id/title` / `android:id/summary` with the switch `android:id/switch_widget`). Every
switch reads and writes the settings provider, the store the checks read. Simplified: the
Bluetooth switch is one level below Connected devices (Android puts it under Connection
preferences); the other top-level rows are shown but open nothing.
"""
from __future__ import annotations

from taskkit.sim.commands.settings import get_setting, put_setting
from taskkit.sim.gui.layout import Column, Metrics
from taskkit.sim.gui.node import Node
from taskkit.sim.state import SimState

PACKAGE = "com.android.settings"
WIFI = "Wi\u2011Fi"
# screen name → (title, parent screen)
SCREENS = {"main": ("Settings", None), "network": ("Network & internet", "main"),
           "internet": ("Internet", "network"), "connected": ("Connected devices", "main"),
           "bluetooth": ("Bluetooth", "connected"), "display": ("Display", "main")}
# the activity an intent starts → the screen it shows
ACTIVITY_SCREENS = {".Settings": "main", ".Settings$WifiSettingsActivity": "internet",
                    ".Settings$BluetoothSettingsActivity": "bluetooth",
                    ".Settings$DisplaySettingsActivity": "display"}
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


def _flag(state: SimState, namespace: str, key: str, on: tuple[str, ...] = ("1",)) -> bool:
    return get_setting(state, namespace, key) in on


def _toggle(namespace: str, key: str, on: str = "1", off: str = "0",
            is_on: tuple[str, ...] = ("1",)) -> "callable":
    def act(state: SimState) -> None:
        put_setting(state, namespace, key, off if get_setting(state, namespace, key) in is_on else on)
    return act


def _row(column: Column, title: str, summary: str = "", action=None, switch: bool | None = None,
         height_dp: float = 72) -> Node:
    box = column.take(height_dp)
    m = column.metrics
    x1, y1, x2, y2 = box
    texts = [Node("android.widget.TextView", text=title, resource_id="android:id/title",
                  bounds=(m.dp(72), y1 + m.dp(16), x2 - m.dp(88), y1 + m.dp(40)))]
    if summary:
        texts.append(Node("android.widget.TextView", text=summary, resource_id="android:id/summary",
                          bounds=(m.dp(72), y1 + m.dp(40), x2 - m.dp(88), y2 - m.dp(12))))
    children = [Node("android.widget.RelativeLayout", bounds=(m.dp(72), y1, x2 - m.dp(88), y2), children=texts)]
    if switch is not None:
        children.append(Node("android.widget.Switch", resource_id="android:id/switch_widget", checkable=True,
                             checked=switch, focusable=True, clickable=False,
                             bounds=(x2 - m.dp(76), y1 + m.dp(20), x2 - m.dp(16), y2 - m.dp(20))))
    return Node("android.widget.LinearLayout", bounds=box, clickable=True, focusable=True, action=action,
                children=children)


def _brightness(state: SimState, fraction: float) -> None:
    put_setting(state, "system", "screen_brightness", str(max(1, min(255, round(fraction * 255)))))


def screen(state: SimState, name: str, metrics: Metrics, open_screen) -> list[Node]:
    """The nodes of Settings screen `name` (below the status bar); `open_screen(name)` is the
    action that navigates to another screen."""
    title = SCREENS[name][0]
    column = Column(metrics, metrics.status_bar)
    nodes = [Node("android.widget.TextView", text=title, resource_id="com.android.settings:id/collapsing_toolbar"
                  if name != "main" else "com.android.settings:id/homepage_title",
                  bounds=column.take(112 if name == "main" else 96))]
    if name != "main":
        m = metrics
        nodes.insert(0, Node("android.widget.ImageButton", content_desc="Navigate up", clickable=True, focusable=True,
                             bounds=(0, m.status_bar, m.dp(56), m.status_bar + m.dp(56)),
                             action=open_screen(SCREENS[name][1])))
    rows: list[Node] = []
    if name == "main":
        rows = [_row(column, t, s, open_screen(target) if target else None) for t, s, target in _TOP_LEVEL]
    elif name == "network":
        wifi = _flag(state, "global", "wifi_on", ("1", "2"))
        airplane = _flag(state, "global", "airplane_mode_on")
        rows = [_row(column, "Internet", "AndroidWifi" if wifi else "Off", open_screen("internet")),
                _row(column, "Calls & SMS", "T-Mobile"), _row(column, "SIMs", "T-Mobile"),
                _row(column, "Airplane mode", "", _toggle("global", "airplane_mode_on"), switch=airplane),
                _row(column, "Hotspot & tethering", "Off"), _row(column, "Data Saver", "Off"),
                _row(column, "VPN", "None"), _row(column, "Private DNS", "Automatic")]
    elif name == "internet":
        wifi = _flag(state, "global", "wifi_on", ("1", "2"))
        rows = [_row(column, WIFI, "", _toggle("global", "wifi_on", is_on=("1", "2")), switch=wifi)]
        if wifi:
            rows.append(_row(column, "AndroidWifi", "Connected"))
        rows.append(_row(column, "Network preferences", "Wi\u2011Fi turns back on automatically"))
    elif name == "connected":
        bluetooth = _flag(state, "global", "bluetooth_on")
        rows = [_row(column, "Pair new device"),
                _row(column, "Bluetooth", "On" if bluetooth else "Off", open_screen("bluetooth"))]
    elif name == "bluetooth":
        rows = [_row(column, "Use Bluetooth", "", _toggle("global", "bluetooth_on"),
                     switch=_flag(state, "global", "bluetooth_on"))]
    elif name == "display":
        level = int(get_setting(state, "system", "screen_brightness") or 102)
        rows = [_row(column, "Brightness level", f"{round(level * 100 / 255)}%")]
        box = column.take(48)
        rows.append(Node("android.widget.SeekBar", text=f"{round(level * 100 / 255)}%",
                         content_desc="Brightness level", resource_id="com.android.settings:id/seekbar",
                         focusable=True, bounds=(metrics.dp(56), box[1], metrics.width - metrics.dp(56), box[3]),
                         slide=_brightness))
        rows.append(_row(column, "Adaptive brightness", "", _toggle("system", "screen_brightness_mode"),
                         switch=_flag(state, "system", "screen_brightness_mode")))
        rows.append(_row(column, "Dark theme", "", _toggle("secure", "ui_night_mode", on="2", off="1", is_on=("2",)),
                         switch=_flag(state, "secure", "ui_night_mode", ("2",))))
    listing = Node("androidx.recyclerview.widget.RecyclerView", resource_id="com.android.settings:id/recycler_view",
                   scrollable=False, bounds=(0, nodes[-1].bounds[3], metrics.width, metrics.content_bottom),
                   children=rows)
    return nodes + [listing]
