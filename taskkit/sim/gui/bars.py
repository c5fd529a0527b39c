"""The system bars SystemUI draws around every app: the status bar and the navigation bar.

The status bar shows the device clock in its time zone (24-hour unless `system time_12_24` is
12, as the status bar clock does, without AM/PM) and status icons described as SystemUI
describes them to accessibility ("Airplane mode.", "Wifi signal full.", "Phone signal full.",
"Battery 100 percent.").
The navigation bar shows Back, Home and Overview (a tap on Back or Home acts as that key; Overview
does nothing), and a swipe up from it goes home.
"""
from __future__ import annotations

from taskkit.sim.devicetime import local_time
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

SYSTEMUI = "com.android.systemui"
BAR_GREY, BAR_DARK = (241, 243, 244), (48, 49, 52)


def clock_text(ui: Session) -> str:
    now = local_time(ui.state)
    if ui.setting("system", "time_12_24") == "12":
        return f"{now.hour % 12 or 12}:{now.minute:02d}"
    return f"{now.hour:02d}:{now.minute:02d}"


def _icons(ui: Session) -> list[str]:
    icons = []
    if ui.setting("global", "airplane_mode_on") == "1":
        icons.append("Airplane mode.")
    if ui.setting("global", "wifi_on") in ("1", "2"):
        icons.append("Wifi signal full.")
    return icons + ["Phone signal full.", "Battery 100 percent."]


def status_bar(ui: Session) -> Node:
    m = ui.m
    height = m.status_bar
    clock = clock_text(ui)
    children = [Node("android.widget.TextView", text=clock, content_desc=clock, package=SYSTEMUI,
                     resource_id=f"{SYSTEMUI}:id/clock", bounds=(m.dp(16), 0, m.dp(72), height),
                     text_size=m.dp(14))]
    x = m.width - m.dp(16)
    for desc in reversed(_icons(ui)):
        rid = f"{SYSTEMUI}:id/battery" if desc.startswith("Battery") else ""
        children.append(Node("android.widget.ImageView", content_desc=desc, package=SYSTEMUI, resource_id=rid,
                             bounds=(x - m.dp(20), 0, x, height)))
        x -= m.dp(24)
    return Node("android.widget.FrameLayout", package=SYSTEMUI, resource_id=f"{SYSTEMUI}:id/status_bar",
                bounds=(0, 0, m.width, height), background=BAR_DARK if ui.dark else BAR_GREY,
                children=children)


# The three buttons (SystemUI's navigation bar ids and descriptions): a tap acts as the key.
_BUTTONS = (("back", "Back", Session.back), ("home", "Home", Session.home), ("recent_apps", "Overview", None))


def navigation_bar(ui: Session) -> Node:
    m = ui.m
    width = m.width // len(_BUTTONS)
    buttons = [Node("android.widget.ImageView", content_desc=desc, package=SYSTEMUI, resource_id=f"{SYSTEMUI}:id/{rid}",
                    bounds=(width * i + (width - m.dp(64)) // 2, m.content_bottom, width * i + (width + m.dp(64)) // 2,
                            m.height), clickable=True, action=act)
               for i, (rid, desc, act) in enumerate(_BUTTONS)]
    return Node("android.widget.FrameLayout", package=SYSTEMUI, resource_id=f"{SYSTEMUI}:id/navigation_bar_frame",
                bounds=(0, m.content_bottom, m.width, m.height),
                background=BAR_DARK if ui.dark else BAR_GREY, children=buttons)
