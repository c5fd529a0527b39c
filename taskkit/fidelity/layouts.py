"""What a real screen's layouts show by default: the views with an `android:id` of a layout (its
`<include>`s and `<merge>`s expanded) or the action-bar items of a menu, as an app's resources
declare them.

* A layout is looked up by name in the checkouts' `res` folders, the app's own first, then its
  libraries' (the order resource merging overrides them): `layout/NAME.xml`, or the highest
  `layout-vNN/` a phone on API 33 would pick; other qualifiers (land, sw600dp, ...) are not a
  portrait phone's and are skipped.
* A view is visible by default unless it or an ancestor has `android:visibility="gone"` or
  `"invisible"` (`tools:visibility` is the layout editor's preview, not the app's); a
  `<ViewStub>` is not inflated until code does, so neither it nor its layout shows.
* `<include layout="@layout/x" android:id="@+id/y"/>` puts x's root (or, for a `<merge>` root,
  its children) in its place; the include's id and visibility replace the root's.
* A menu's item is on the action bar when its `showAsAction` says `always` or `ifRoom`
  (`never`, the default, puts it in the overflow menu, which is not on the screen until opened);
  a bottom navigation bar shows every item of its menu. An item that it or its `<group>` makes
  `android:visible="false"` is hidden by default.
* What is hidden by default is kept apart (`Found.hidden`): code may show it on a path.
* A *bare container* draws nothing and takes no touch of its own: a layout class (`BARE`) or a
  plain `View`/`Space` with no background, foreground, click, focus or content description
  attribute. Its id is structure only (the code finds the view by it), so it is kept apart
  (`Found.bare`) and the recall does not count it. The root of a screen's own layout (an
  activity's or fragment's, `window=True`) is bare when of a layout class even with a
  background: it fills the window and its background is the window's colour.

Ids are `NAME` for the app's own (`@+id/NAME`, `@id/NAME`) and `android:NAME` for the
framework's (`@android:id/NAME`), as a dump shows them after `PKG:id/` or `android:id/`.
"""
from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Iterator

from taskkit.errors import TaskkitError

ANDROID = "{http://schemas.android.com/apk/res/android}"
APP = "{http://schemas.android.com/apk/res-auto}"
API_LEVEL = 33

#: Layout classes that only arrange their children (without a background they draw nothing).
BARE = frozenset({
    "LinearLayout", "FrameLayout", "RelativeLayout", "TableLayout", "TableRow", "GridLayout",
    "androidx.constraintlayout.widget.ConstraintLayout", "androidx.coordinatorlayout.widget.CoordinatorLayout",
    "android.support.constraint.ConstraintLayout", "android.support.design.widget.CoordinatorLayout",
    "androidx.appcompat.widget.LinearLayoutCompat", "androidx.constraintlayout.widget.Group",
    "androidx.constraintlayout.widget.Guideline", "androidx.constraintlayout.widget.Barrier",
    "androidx.constraintlayout.motion.widget.MotionLayout", "androidx.drawerlayout.widget.DrawerLayout",
    "androidx.fragment.app.FragmentContainerView", "fragment",
    "View", "Space", "android.widget.Space", "androidx.legacy.widget.Space",
})
#: Attributes that make a view draw something or take a touch of its own.
_OWN = ("background", "foreground", "onClick", "clickable", "focusable", "contentDescription", "src")
_ID = re.compile(r"@(?:\+)?(android:)?id/([A-Za-z0-9_.]+)")
_REF = re.compile(r"@(?:layout|menu)/([A-Za-z0-9_.]+)")


class LayoutError(TaskkitError, ValueError):
    """A layout or menu the screen map names is not in the checkouts."""


@dataclasses.dataclass
class Found:
    """The ids a layout or menu shows by default, in document order, and its bare containers'."""

    ids: list[str] = dataclasses.field(default_factory=list)
    bare: list[str] = dataclasses.field(default_factory=list)
    hidden: list[str] = dataclasses.field(default_factory=list)  # gone, invisible or not visible by default
    if_room: list[str] = dataclasses.field(default_factory=list)  # a menu's `ifRoom` items (`ids`: its `always` ones)
    overflow: list[str] = dataclasses.field(default_factory=list)  # a menu's visible items in its overflow menu
    files: list[str] = dataclasses.field(default_factory=list)  # the files read, relative to their checkout

    def add(self, rid: str, bare: bool = False, hidden: bool = False) -> None:
        into = self.hidden if hidden else self.bare if bare else self.ids
        if rid not in self.ids and rid not in self.bare and rid not in self.hidden:
            into.append(rid)

    def as_json(self) -> dict[str, list[str]]:
        return dataclasses.asdict(self)


def _attr(element: ET.Element, name: str) -> str | None:
    return element.get(ANDROID + name) or element.get(APP + name)


def view_id(element: ET.Element) -> str | None:
    """`NAME` or `android:NAME` of the element's `android:id`, None without one."""
    match = _ID.fullmatch((_attr(element, "id") or "").strip())
    if match is None:
        return None
    return ("android:" if match.group(1) else "") + match.group(2)


def _hidden(element: ET.Element) -> bool:
    return (element.get(ANDROID + "visibility") or "visible") in ("gone", "invisible")


def is_bare(element: ET.Element) -> bool:
    """The view only arranges others: a `BARE` class without any attribute of `_OWN`."""
    return element.tag in BARE and not any(element.get(ANDROID + name) for name in _OWN)


class Index:
    """The layouts and menus of a list of checkouts' `res` folders, first folder first."""

    def __init__(self, res_dirs: Iterable[tuple[Path, Path]]):
        """`res_dirs`: (checkout root, res folder) pairs, in overriding order (the app first)."""
        self._files: dict[tuple[str, str], tuple[Path, Path]] = {}
        for root, res in res_dirs:
            for kind in ("layout", "menu"):
                for name, path in _pick(res, kind).items():
                    self._files.setdefault((kind, name), (root, path))

    def path(self, kind: str, name: str) -> tuple[Path, Path]:
        """(checkout root, file) of `kind`/`name` (kind: layout or menu), or LayoutError."""
        try:
            return self._files[(kind, name)]
        except KeyError:
            raise LayoutError(f"no {kind}/{name}.xml in the checkouts") from None

    def layout(self, name: str, window: bool = False) -> Found:
        """The ids `layout/NAME` shows by default, its includes expanded; `window`: the layout
        fills the window (an activity's or fragment's), so a layout-class root is bare."""
        found = Found()
        self._layout(name, found, None, False, ())
        root = ET.parse(self.path("layout", name)[1]).getroot()
        rid = view_id(root)
        if window and root.tag in BARE and rid in found.ids:
            found.ids.remove(rid)
            found.bare.insert(0, rid)
        return found

    def menu(self, name: str, every_item: bool = False) -> Found:
        """The items of `menu/NAME`: `showAsAction` always in `ids`, ifRoom in `if_room`, the
        others in `overflow` (`on_bar` says which ifRoom items fit); with `every_item` (a bottom
        navigation bar's menu: each item is a tab) all in `ids`. An item that it or its group
        makes `android:visible="false"` goes to `hidden`."""
        root, path = self.path("menu", name)
        found = Found(files=[path.relative_to(root).as_posix()])
        for item, visible in _menu_items(ET.parse(path).getroot(), True):
            rid = view_id(item)
            shows = (_attr(item, "showAsAction") or "never").split("|")
            if not rid:
                continue
            if not visible:
                found.hidden.append(rid)
            elif every_item or "always" in shows:
                found.ids.append(rid)
            else:
                (found.if_room if "ifRoom" in shows else found.overflow).append(rid)
        return found

    def _layout(self, name: str, found: Found, id_override: str | None, hidden: bool, seen: tuple[str, ...]) -> None:
        if name in seen:
            raise LayoutError(f"layout/{name}.xml includes itself")
        root, path = self.path("layout", name)
        found.files.append(path.relative_to(root).as_posix())
        top = ET.parse(path).getroot()
        if top.tag == "merge":
            for element in top:
                self._element(element, found, None, hidden, (*seen, name))
        else:
            self._element(top, found, id_override, hidden, (*seen, name))

    def _element(self, element: ET.Element, found: Found, id_override: str | None, hidden: bool,
                 seen: tuple[str, ...]) -> None:
        if element.tag in ("ViewStub", "requestFocus", "tag"):
            return
        hidden = hidden or _hidden(element)
        if element.tag == "include":
            match = _REF.fullmatch((element.get("layout") or "").strip())
            if match is not None:
                self._layout(match.group(1), found, view_id(element), hidden, seen)
            return
        rid = id_override or view_id(element)
        if rid:
            found.add(rid, is_bare(element), hidden)
        for child in element:
            self._element(child, found, None, hidden, seen)


#: Action buttons a toolbar holds on a phone 360 to 500 dp wide (AndroidWorld's Pixel 6: 411 dp):
#: AppCompat's ActionBarPolicy.getMaxActionButtons.
MAX_ACTION_BUTTONS = 3


def on_bar(always: list[str], if_room: list[str], overflow: list[str]) -> list[str]:
    """The visible items a toolbar shows as buttons, as AppCompat's
    ActionMenuPresenter.flagActionItems picks them: every `always` item; then `ifRoom` items, in
    order, while slots are left of MAX_ACTION_BUTTONS less the `always` ones and, when anything
    goes to the overflow menu, one for its button."""
    slots = MAX_ACTION_BUTTONS
    if overflow or len(always) + len(if_room) > slots:
        slots -= 1
    slots -= len(always)
    return always + if_room[:max(slots, 0)]


def _menu_items(menu: ET.Element, visible: bool) -> Iterator[tuple[ET.Element, bool]]:
    """The items of a menu (its groups' included, not their sub-menus'), each with whether it
    is visible by default."""
    for element in menu:
        shown = visible and (element.get(ANDROID + "visible") or "true") != "false"
        if element.tag == "group":
            yield from _menu_items(element, shown)
        elif element.tag == "item":
            yield element, shown


def _pick(res: Path, kind: str) -> dict[str, Path]:
    """NAME -> the file a portrait phone on API_LEVEL reads for `kind`/NAME in `res`."""
    ranked: dict[str, tuple[int, Path]] = {}
    for folder in sorted(res.glob(f"{kind}*")) if res.is_dir() else ():
        qualifiers = folder.name.split("-")[1:]
        if qualifiers and not (len(qualifiers) == 1 and re.fullmatch(r"v\d+", qualifiers[0])):
            continue
        level = int(qualifiers[0][1:]) if qualifiers else 0
        if level > API_LEVEL or folder.name.split("-")[0] != kind:
            continue
        for path in folder.glob("*.xml"):
            if path.stem not in ranked or ranked[path.stem][0] < level:
                ranked[path.stem] = (level, path)
    return {name: path for name, (_, path) in ranked.items()}
