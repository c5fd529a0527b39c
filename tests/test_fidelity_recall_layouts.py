"""taskkit.fidelity.layouts on small fixture XMLs: includes (their id and visibility replacing the
root's), merges, gone and invisible subtrees, ViewStubs, bare containers, a window's root, the
qualifiers a portrait phone on API 33 reads, and a menu's items as AppCompat places them."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit.fidelity.layouts import MAX_ACTION_BUTTONS, Index, LayoutError, on_bar

NS = 'xmlns:android="http://schemas.android.com/apk/res/android" xmlns:app="http://schemas.android.com/apk/res-auto"'


def _write(res: Path, name: str, body: str) -> None:
    path = res / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


@pytest.fixture
def index(tmp_path: Path) -> Index:
    app, lib = tmp_path / "app" / "res", tmp_path / "lib" / "res"
    _write(app, "layout/screen.xml", f'''<LinearLayout {NS} android:id="@+id/root" android:background="#fff">
        <include layout="@layout/bar" android:id="@+id/my_bar"/>
        <include layout="@layout/buttons"/>
        <include layout="@layout/bar" android:visibility="gone"/>
        <FrameLayout android:id="@+id/holder">
            <TextView android:id="@+id/title"/>
            <LinearLayout android:id="@+id/row" android:background="?selectableItemBackground"/>
        </FrameLayout>
        <LinearLayout android:id="@+id/gone_box" android:visibility="gone"><Button android:id="@+id/inside_gone"/></LinearLayout>
        <ImageView android:id="@+id/ghost" android:visibility="invisible"/>
        <ViewStub android:id="@+id/stub" android:layout="@layout/bar"/>
        <TextView android:id="@android:id/empty" tools:visibility="gone" xmlns:tools="http://schemas.android.com/tools"/>
        <Space android:id="@+id/gap"/>
    </LinearLayout>''')
    _write(app, "layout/bar.xml", f'<androidx.appcompat.widget.Toolbar {NS} android:id="@+id/toolbar"/>')
    _write(app, "layout/buttons.xml", f'<merge {NS}><Button android:id="@+id/ok"/><Button android:id="@+id/cancel"/></merge>')
    _write(app, "layout-land/buttons.xml", f'<merge {NS}><Button android:id="@+id/landscape"/></merge>')
    _write(app, "layout-v21/row.xml", f'<TextView {NS} android:id="@+id/row_v21"/>')
    _write(app, "layout-v99/row.xml", f'<TextView {NS} android:id="@+id/row_v99"/>')
    _write(app, "layout/row.xml", f'<TextView {NS} android:id="@+id/row_plain"/>')
    _write(app, "layout/loop.xml", f'<FrameLayout {NS}><include layout="@layout/loop"/></FrameLayout>')
    _write(lib, "layout/bar.xml", f'<Toolbar {NS} android:id="@+id/library_bar"/>')  # the app's own wins
    _write(lib, "layout/dialog.xml", f'<TextView {NS} android:id="@+id/from_library"/>')
    _write(app, "menu/bar.xml", f'''<menu {NS}>
        <item android:id="@+id/search" app:showAsAction="always|collapseActionView"/>
        <item android:id="@+id/sort" app:showAsAction="ifRoom"/>
        <item android:id="@+id/share" android:showAsAction="ifRoom|withText"/>
        <item android:id="@+id/delete" android:visible="false" app:showAsAction="always"/>
        <group android:visible="false"><item android:id="@+id/grouped" app:showAsAction="always"/></group>
        <item android:id="@+id/settings"><menu><item android:id="@+id/sub" app:showAsAction="always"/></menu></item>
    </menu>''')
    return Index([(tmp_path / "app", app), (tmp_path / "lib", lib)])


def test_includes_merges_and_what_is_hidden(index: Index) -> None:
    found = index.layout("screen")
    # the include's id replaces the toolbar's; a merge puts its children in place; a gone
    # include, a gone subtree, an invisible view and a ViewStub show nothing
    assert found.ids == ["root", "my_bar", "ok", "cancel", "title", "row", "android:empty"]
    assert found.hidden == ["toolbar", "gone_box", "inside_gone", "ghost"]
    assert found.bare == ["holder", "gap"]  # a layout class or Space with nothing of its own
    assert found.files == ["res/layout/screen.xml", "res/layout/bar.xml", "res/layout/buttons.xml", "res/layout/bar.xml"]


def test_a_windows_root_is_bare_and_qualifiers_follow_a_portrait_phone(index: Index) -> None:
    assert index.layout("screen", window=True).bare[0] == "root"
    assert index.layout("row").ids == ["row_v21"]  # layout-v21 over layout/, not v99 (above API 33)
    assert index.layout("dialog").ids == ["from_library"]  # a library's layout when the app has none
    with pytest.raises(LayoutError, match="includes itself"):
        index.layout("loop")
    with pytest.raises(LayoutError, match="no layout/nowhere.xml"):
        index.layout("nowhere")


def test_menu_items_by_show_as_action(index: Index) -> None:
    found = index.menu("bar")
    assert (found.ids, found.if_room, found.overflow, found.hidden) == (
        ["search"], ["sort", "share"], ["settings"], ["delete", "grouped"])
    assert index.menu("bar", every_item=True).ids == ["search", "sort", "share", "settings"]


def test_the_toolbar_places_if_room_items_as_appcompat_does() -> None:
    assert MAX_ACTION_BUTTONS == 3
    # an overflow menu takes a slot: one ifRoom item fits beside one always item
    assert on_bar(["search"], ["sort", "share"], ["settings"]) == ["search", "sort"]
    assert on_bar(["search"], ["sort", "share"], []) == ["search", "sort", "share"]  # no overflow: all three fit
    assert on_bar([], ["a", "b", "c", "d"], []) == ["a", "b"]  # 4 > 3: the overflow button takes one
    assert on_bar(["a", "b", "c", "d", "e"], ["f"], []) == ["a", "b", "c", "d", "e"]  # always items always show
