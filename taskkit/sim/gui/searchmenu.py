"""Simple-Commons' MySearchMenu (commons/src/main/res/layout/menu_search.xml), the top of the
Simple Mobile Tools apps' main screens: the search field `top_toolbar_search` ("Search") in the
bar `main_menu`, then the app's menu icons and its overflow button."""
from __future__ import annotations

from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session


def search_menu(ui: Session, frame: Frame, id_prefix: str, actions: tuple[Node, ...]) -> tuple[list[Node], int]:
    """The bar with `actions` at its end (placed right to left as `widgets.app_bar` places them)
    and the field bound to the draft "search" of `frame`; the nodes and the bar's bottom edge."""
    m = ui.m
    nodes, top = widgets.app_bar(ui, "", up=False, rid=f"{id_prefix}main_menu", actions=actions)
    nodes.append(widgets.edit_text(ui, frame, "search", (m.dp(16), m.status_bar + m.dp(8),
                                                         m.width - m.dp(56) * len(actions) - m.dp(8), top - m.dp(8)),
                                   "Search", f"{id_prefix}top_toolbar_search"))
    return nodes, top
