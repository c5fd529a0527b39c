"""Simple-Commons' MySearchMenu, the top of the Simple Mobile Tools apps' main screens, as its
layout nests it (commons/src/main/res/layout/menu_search.xml at the commits the apps pin; read,
not copied):

    main_menu                 MySearchMenu (an AppBarLayout: a LinearLayout) across the window
      top_app_bar_layout      AppBarLayout, `activity_margin` (16 dp) in from each side
        top_toolbar_holder    RelativeLayout, `medium_margin` (8 dp) above and below
          top_toolbar_search_icon   ImageView (ic_search_vector, 16 dp padding before it)
          top_toolbar_search        EditText "Search", between the icon and the toolbar
          top_toolbar               MaterialToolbar at the end (`small_margin` 4 dp before the
                                    edge) holding the app's menu icons and its overflow button

The containers take no touch of their own. A tap on the search icon focuses the field (or, on a
screen that forces the arrow, goes back), or, with a search open (the field focused or holding
text), closes it: the text cleared (MySearchMenu.setupMenu / closeSearch). The bar keeps the simulator's 64 dp app bar (docs/sim-gui.md,
"Sizes"); the holder inside it is the layout's.
"""
from __future__ import annotations

import dataclasses

from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Action, Node
from taskkit.sim.gui.session import Session

LINEAR_LAYOUT = "android.widget.LinearLayout"


def search_menu(ui: Session, frame: Frame, id_prefix: str, actions: tuple[Node, ...], *, rid: str = "main_menu",
                hint: str = "Search", back: Action | None = None) -> tuple[list[Node], int]:
    """MySearchMenu `rid` with `actions` (48 dp each, placed right to left in the order given) in
    its toolbar and the field bound to the draft "search" of `frame`, showing `hint` while empty;
    the nodes and the bar's bottom edge. With `back` the icon is an arrow that runs it while no
    search is open (toggleForceArrowBackIcon with onNavigateBackClickListener)."""
    m = ui.m
    top, bottom = m.status_bar, m.status_bar + m.dp(64)
    holder = (m.dp(16), top + m.dp(8), m.width - m.dp(16), bottom - m.dp(8))
    right = holder[2] - m.dp(4)
    toolbar = (right - m.dp(48) * len(actions), holder[1], right, holder[3])
    placed = [dataclasses.replace(view, bounds=(right - m.dp(48) * (i + 1), holder[1], right - m.dp(48) * i, holder[3]))
              for i, view in enumerate(actions)]
    icon = (holder[0], holder[1], holder[0] + m.dp(40), holder[3])
    opened = bool(ui.draft(frame, "search")) or ui.is_focused(frame, "search")

    def tapped(s: Session) -> None:
        if opened:
            s.set_draft(frame, "search", "")
            s.focus(frame, None)
        elif back is not None:
            back(s)
        else:
            s.focus(frame, "search")
    children = [
        Node("android.widget.ImageView", resource_id=f"{id_prefix}top_toolbar_search_icon", bounds=icon,
             clickable=True, focusable=True, action=tapped, icon="arrow_back" if opened or back else "search"),
        widgets.edit_text(ui, frame, "search", (icon[2], holder[1], toolbar[0], holder[3]), hint,
                          f"{id_prefix}top_toolbar_search"),
        Node("android.view.ViewGroup", resource_id=f"{id_prefix}top_toolbar", bounds=toolbar,
             children=list(reversed(placed)))]
    bar = Node(LINEAR_LAYOUT, resource_id=f"{id_prefix}{rid}", bounds=(0, top, m.width, bottom), children=[
        Node(LINEAR_LAYOUT, resource_id=f"{id_prefix}top_app_bar_layout", bounds=(m.dp(16), top, m.width - m.dp(16), bottom),
             children=[Node("android.widget.RelativeLayout", resource_id=f"{id_prefix}top_toolbar_holder", bounds=holder,
                            children=children)])])
    return [bar], bottom
