"""The quick-settings shade SystemUI pulls down from the top edge of the screen.

One pull opens it fully expanded (Android shows a compact row first and expands on a second
pull; a simplification). It holds the brightness slider and four tiles, each a Switch whose
content description is its label, as SystemUI's tiles describe themselves to accessibility
(`QSTileViewImpl`: `expandedAccessibilityClassName = Switch`): Wi-Fi, Bluetooth, Airplane mode
and Dark theme (SystemUI strings `quick_settings_wifi_label`, `quick_settings_bluetooth_label`,
`airplane_mode`, `quick_settings_ui_mode_night_label`), plus the "Open settings" button. Every
tile writes the setting the checks read. A swipe up, BACK or HOME closes the shade.
"""
from __future__ import annotations

from datetime import datetime

from taskkit.sim.devicetime import local_time
from taskkit.sim.gui import toggles
from taskkit.sim.gui.bars import SYSTEMUI, clock_text
from taskkit.sim.gui.node import Action, Node
from taskkit.sim.gui.session import Session

SETTINGS = "com.android.settings"
_PANEL = (32, 33, 36)
_TILE_OFF, _TILE_ON = (60, 64, 67), (168, 199, 250)


def _tiles(ui: Session) -> list[tuple[str, bool, Action]]:
    return [("Wi-Fi", toggles.is_on(ui, "global", "wifi_on", toggles.WIFI_ON), toggles.WIFI),
            ("Bluetooth", toggles.is_on(ui, "global", "bluetooth_on"), toggles.BLUETOOTH),
            ("Airplane mode", toggles.is_on(ui, "global", "airplane_mode_on"), toggles.AIRPLANE),
            ("Dark theme", ui.dark, toggles.DARK_THEME)]


def _open_settings(ui: Session) -> None:
    ui.launch(SETTINGS)


def _date(now: datetime) -> str:
    return now.strftime("%a, %b ") + str(now.day)


def shade(ui: Session) -> Node:
    """The shade's window (the whole screen)."""
    m = ui.m
    node = lambda cls, box, **kw: Node(cls, package=SYSTEMUI, bounds=box, **kw)  # noqa: E731
    top = m.status_bar + m.dp(8)
    header = [node("android.widget.TextView", (m.dp(24), top, m.dp(160), top + m.dp(40)), text=clock_text(ui),
                   resource_id=f"{SYSTEMUI}:id/clock", text_size=m.dp(28)),
              node("android.widget.TextView", (m.dp(168), top, m.width - m.dp(80), top + m.dp(40)),
                   text=_date(local_time(ui.state)), resource_id=f"{SYSTEMUI}:id/date", text_size=m.dp(16)),
              node("android.widget.ImageView", (m.width - m.dp(64), top, m.width - m.dp(16), top + m.dp(48)),
                   content_desc="Open settings", resource_id=f"{SYSTEMUI}:id/settings_button_container",
                   clickable=True, focusable=True, action=_open_settings)]
    y = top + m.dp(64)
    percent = toggles.brightness_percent(ui)
    slider = node("android.widget.SeekBar", (m.dp(24), y, m.width - m.dp(24), y + m.dp(48)),
                  text=f"{percent}%", content_desc="Display brightness", resource_id=f"{SYSTEMUI}:id/slider",
                  focusable=True, slide=toggles.set_brightness)
    y += m.dp(72)
    tiles = []
    width = (m.width - m.dp(56)) // 2
    for index, (label, on, action) in enumerate(_tiles(ui)):
        row, col = divmod(index, 2)
        x1 = m.dp(24) + col * (width + m.dp(8))
        y1 = y + row * m.dp(88)
        box = (x1, y1, x1 + width, y1 + m.dp(80))
        texts = [node("android.widget.TextView", (x1 + m.dp(56), y1 + m.dp(14), box[2] - m.dp(8), y1 + m.dp(40)),
                      text=label, resource_id=f"{SYSTEMUI}:id/tile_label", text_size=m.dp(16)),
                 node("android.widget.TextView", (x1 + m.dp(56), y1 + m.dp(40), box[2] - m.dp(8), y1 + m.dp(66)),
                      text="On" if on else "Off", resource_id=f"{SYSTEMUI}:id/app_label", text_size=m.dp(14))]
        tiles.append(node("android.widget.Switch", box, content_desc=label, checkable=True, checked=on,
                          clickable=True, focusable=True, long_clickable=True, action=action,
                          background=_TILE_ON if on else _TILE_OFF, children=texts))
    bottom = y + 2 * m.dp(88) + m.dp(16)
    panel = node("android.widget.FrameLayout", (0, 0, m.width, bottom), resource_id=f"{SYSTEMUI}:id/quick_settings_panel",
                 background=_PANEL, children=header + [slider] + tiles)

    def drag(session: Session, dx: int, dy: int) -> None:
        if dy < 0:
            session.set_shade(False)

    return node("android.widget.FrameLayout", (0, 0, m.width, m.height), resource_id=f"{SYSTEMUI}:id/notification_panel",
                children=[panel], swipe=drag)
