"""Retro Music opens on its For you tab (HomeFragment, bottom_navigation_main.xml), and dialogs carry
the ids of the AlertDialog class their app builds them with: an AppCompat app's show
`PKG:id/parentPanel`, `PKG:id/alertTitle` (abc_alert_dialog_material.xml,
abc_alert_dialog_title_material.xml), the framework's pickers `android:id/parentPanel`."""
from __future__ import annotations

import io
import re

from PIL import Image

from taskkit.apps import retro_music
from taskkit.gui_reference import resource_id
from taskkit.rng import TaskRng
from tests.sim.gui.helpers import find, tap, texts

RETRO = retro_music.PACKAGE
CALENDAR = "com.simplemobiletools.calendar.pro"


def _retro(device, songs: int) -> None:
    retro_music.write_songs(device, [retro_music.random_song(TaskRng(i), title)
                                     for i, title in enumerate(retro_music.TITLES[:songs])])
    device.check(f"am start -n {RETRO}/.activities.MainActivity")


def _ids(device) -> set[str]:
    """Every resource id of the dump (containers too)."""
    return set(re.findall(r'resource-id="([^"]+)"', device.check("uiautomator dump /dev/tty")))


def _with_id(device, rid: str) -> list[str]:
    """The texts of the elements whose id is `rid`."""
    return [e.text for e in device.ui.screen().elements if e.resource_name == rid]


def test_retro_opens_on_for_you_with_its_navigation_ids(device) -> None:
    _retro(device, 12)
    items = [find(device, resource_id(f"{RETRO}:id/{name}")) for name in (
        "action_home", "action_song", "action_album", "action_artist", "action_playlist")]
    assert [e.content_description for e in items] == ["For you", "Songs", "Albums", "Artists", "Playlists"]
    assert [e.is_selected for e in items] == [True, False, False, False, False]
    assert _with_id(device, f"{RETRO}:id/navigation_bar_item_large_label_view") == ["For you"]
    assert f"{RETRO}:id/navigation_bar_item_small_label_view" not in _ids(device)  # AUTO with five tabs
    assert _with_id(device, f"{RETRO}:id/titleWelcome") == ["User Name"]
    assert _with_id(device, f"{RETRO}:id/history") == ["History"]
    assert _with_id(device, f"{RETRO}:id/actionShuffle") == ["Shuffle"]
    assert find(device, "Suggestions").resource_name == f"{RETRO}:id/title"  # twelve songs, none played
    assert {f"{RETRO}:id/toolbar", f"{RETRO}:id/container", f"{RETRO}:id/navigationView"} <= _ids(device)
    assert "You have no songs" not in texts(device) and not _with_id(device, f"{RETRO}:id/menu")  # not Songs

    tap(device, "Songs")
    assert _with_id(device, f"{RETRO}:id/navigation_bar_item_large_label_view") == ["Songs"]
    rows = _with_id(device, f"{RETRO}:id/title")  # the songs' rows in view, by title
    assert len(rows) >= 8 and rows == sorted(retro_music.TITLES[:12], key=str.casefold)[:len(rows)]


def test_retro_suggestions_need_ten_songs(device) -> None:
    _retro(device, 9)
    assert "Suggestions" not in texts(device) and "Recent artists" in texts(device)


def test_an_appcompat_apps_dialog_carries_its_own_ids_and_the_frameworks_buttons(device) -> None:
    _retro(device, 3)
    tap(device, "Songs")
    before = Image.open(io.BytesIO(device.ui.screenshot())).convert("RGB")
    tap(device, "menu")
    tap(device, "Add to playlist")
    ids = _ids(device)
    assert {f"{RETRO}:id/{name}" for name in ("parentPanel", "topPanel", "contentPanel", "buttonPanel")} <= ids
    assert _with_id(device, f"{RETRO}:id/alertTitle") == ["Add to playlist"]
    assert _with_id(device, "android:id/text1") == ["New playlist"]  # setItems' rows
    assert _with_id(device, "android:id/button2") == ["Cancel"]
    assert not ids & {"android:id/parentPanel", "android:id/alertTitle"}
    after = Image.open(io.BytesIO(device.ui.screenshot())).convert("RGB")
    corner = (before.width // 2, before.height // 8)  # the toolbar, outside the dialog: under the scrim
    assert sum(after.getpixel(corner)) < sum(before.getpixel(corner))


def test_a_framework_picker_keeps_androids_ids(device) -> None:
    device.check(f"am start -n {CALENDAR}/.activities.MainActivity")
    tap(device, "calendar_fab")
    tap(device, "fab_event_label")
    tap(device, "event_start_date")
    ids = _ids(device)
    assert {"android:id/parentPanel", "android:id/datePicker"} <= ids
    assert not [rid for rid in ids if rid.startswith(CALENDAR) and rid.endswith(("parentPanel", "alertTitle"))]
