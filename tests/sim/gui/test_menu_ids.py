"""Which resource ids the simulated menus carry: the apps' overflow menus are AppCompat's, whose
rows name their title with the app's own id (abc_popup_menu_item_layout.xml `@+id/title`), so a
uiautomator dump shows `PKG:id/title`, never the framework's `android:id/title`."""
from __future__ import annotations

from tests.sim.gui.helpers import tap

SMS = "com.simplemobiletools.smsmessenger"


def test_an_overflow_menu_row_carries_the_apps_own_title_id(device) -> None:
    device.check(f"am start -n {SMS}/.activities.MainActivity")
    tap(device, "More options")
    row = next(e for e in device.ui.screen().elements if e.text == "Show archived conversations")
    assert row.resource_name == f"{SMS}:id/title"
    assert not [e for e in device.ui.screen().elements if e.resource_name == "android:id/title"]
