"""Pro Expense's drawer destinations other than Home and Expense Logs: Statistics, Backup,
Feedback, About and Settings, each with its toolbar (the drawer's `ic_menu` button) and the top
controls of its layout at arduia/ProExpense v1.0.0-beta05, with their ids and labels:

- frag_statistic.xml: `tb_statistic` "Statistics"; the card `cv_statistic` titled
  `tv_category_statistics` "Category Statistics", `tv_no_data` "No Data" (StatisticsFragment shows
  it when the list is empty; here it always shows: the per-category list is not modeled);
- frag_backup.xml: `toolbar` "Backup"; the cards `cv_export` (`tv_export` "Export") and `cv_import`
  (`tv_import` "Import"); `tv_backup_logs` "Backup Logs" over `tv_no_data` "No Data" (no backup is
  ever made here);
- frag_feedback.xml: `toolbar` "Feedback"; `tv_feedback_description`, the fields `edt_name` "Name",
  `edt_email` "Email", `edt_comment` "Your Comments*", `btn_send` "Send Feedback";
- frag_about.xml: `toolbar` "About"; `tv_app_name` "Pro Expense", "(beta)", `tv_version` (the
  package's versionName, AboutFragment.setAppVersionName), `tv_about_description`, the rows
  `tv_policy`, `tv_open_sources`, `tv_contribute`;
- frag_settings.xml: `tb_settings` "Settings"; `tv_language` "Language", `tv_currency` "Currency"
  with `tv_currency_value` (the selected currency's symbol, SettingsViewModel: "$"), `tv_choose_theme`
  "Theme Mode".

Shallow: their buttons, rows and Send do nothing (they are there to be found).
"""
from __future__ import annotations

import dataclasses

from taskkit.apps.expense import PACKAGE
from taskkit.sim.gui import widgets
from taskkit.sim.gui.app import Frame, Screen
from taskkit.sim.gui.node import Node
from taskkit.sim.gui.session import Session

ID = f"{PACKAGE}:id/"
CARD = "com.google.android.material.card.MaterialCardView"
VERSION_NAME = "1.0.0-beta05"  # app/build.gradle versionName
_FEEDBACK = "We went to know what you thought of your experience at Pro Expense app so we'd love to hear you feedback."
_DESCRIPTION = "Pro Expense is a free and open-source software to simply and safely record daily expenses."


def menu_bar(ui: Session, title: str, rid: str, actions: tuple[Node, ...] = ()) -> tuple[list[Node], int]:
    """A top destination's toolbar: `ic_menu` opens the navigation drawer (MainActivity's
    `openDrawer`; the layouts give the button no description), then the title."""
    nodes, top = widgets.app_bar(ui, title, rid=rid, actions=actions)
    bar = nodes[0]
    menu = dataclasses.replace(bar.children[0], content_desc="", icon="menu", action=lambda s: s.push("drawer"))
    return [dataclasses.replace(bar, children=[menu, *bar.children[1:]])], top


def _card(ui: Session, top: int, height_dp: float, label: str, rid: str, text_rid: str) -> Node:
    m = ui.m
    box = (m.dp(16), top, m.width - m.dp(16), top + m.dp(height_dp))
    return Node(CARD, resource_id=rid, bounds=box, clickable=True, focusable=True, action=widgets.inert,
                background=(255, 255, 255),
                children=[widgets.text(ui, (box[0] + m.dp(16), box[1] + m.dp(16), box[2] - m.dp(16), box[3] - m.dp(16)),
                                       label, text_rid, size_dp=18)])


def _lines(ui: Session, top: int, lines: list[tuple[str, str, float]], gap_dp: float = 8,
           action: bool = False) -> list[Node]:
    """Texts stacked from `top`: (text, id, height in dp); rows with an action when `action`."""
    m = ui.m
    nodes, y = [], top
    for value, rid, height in lines:
        box = (m.dp(16), y, m.width - m.dp(16), y + m.dp(height))
        nodes.append(widgets.text(ui, box, value, rid, size_dp=16, action=widgets.inert if action else None))
        y += m.dp(height + gap_dp)
    return nodes


def _statistics(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = menu_bar(ui, "Statistics", f"{ID}tb_statistic")
    box = (m.dp(16), top + m.dp(16), m.width - m.dp(16), top + m.dp(136))
    texts = _lines(ui, box[1] + m.dp(16), [("Category Statistics", f"{ID}tv_category_statistics", 28),
                                           ("No Data", f"{ID}tv_no_data", 28)], gap_dp=16)
    return nodes + [Node(CARD, resource_id=f"{ID}cv_statistic", bounds=box, background=(255, 255, 255), children=texts)]


def _backup(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = menu_bar(ui, "Backup", f"{ID}toolbar")
    nodes += [_card(ui, top + m.dp(16), 64, "Export", f"{ID}cv_export", f"{ID}tv_export"),
              _card(ui, top + m.dp(96), 64, "Import", f"{ID}cv_import", f"{ID}tv_import")]
    return nodes + _lines(ui, top + m.dp(184), [("Backup Logs", f"{ID}tv_backup_logs", 28), ("No Data", f"{ID}tv_no_data", 28)])


_FEEDBACK_FIELDS = (widgets.Field("name", "Name", f"{ID}edt_name"), widgets.Field("email", "Email", f"{ID}edt_email"),
                    widgets.Field("comment", "Your Comments*", f"{ID}edt_comment", single_line=False, height_dp=120))


def _feedback(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = menu_bar(ui, "Feedback", f"{ID}toolbar")
    nodes += _lines(ui, top + m.dp(16), [(_FEEDBACK, f"{ID}tv_feedback_description", 72)])
    fields, y = widgets.form(ui, frame, _FEEDBACK_FIELDS, top + m.dp(96))
    return nodes + fields + [widgets.button(ui, (m.dp(16), y, m.width - m.dp(16), y + m.dp(48)), "Send Feedback",
                                            widgets.inert, f"{ID}btn_send")]


def _about(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = menu_bar(ui, "About", f"{ID}toolbar")
    head = _lines(ui, top + m.dp(112), [("Pro Expense", f"{ID}tv_app_name", 32), ("(beta)", "", 24),
                                        (VERSION_NAME, f"{ID}tv_version", 24), (_DESCRIPTION, f"{ID}tv_about_description", 72)])
    rows = _lines(ui, top + m.dp(112 + 200), [("Privacy and Policy", f"{ID}tv_policy", 48),
                                              ("Opens-Source Libraries", f"{ID}tv_open_sources", 48),
                                              ("Contribute the app", f"{ID}tv_contribute", 48)], action=True)
    return nodes + head + rows


def _settings(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    nodes, top = menu_bar(ui, "Settings", f"{ID}tb_settings")
    rows = _lines(ui, top + m.dp(16), [("Language", f"{ID}tv_language", 48), ("Currency", f"{ID}tv_currency", 48),
                                       ("Theme Mode", f"{ID}tv_choose_theme", 48)], action=True)
    value = widgets.text(ui, (m.width - m.dp(96), rows[1].bounds[1], m.width - m.dp(16), rows[1].bounds[3]), "$",
                         f"{ID}tv_currency_value", size_dp=16)
    return nodes + rows + [value]


SCREENS = {"statistics": Screen(_statistics), "backup": Screen(_backup), "feedback": Screen(_feedback),
           "about": Screen(_about), "settings": Screen(_settings)}
# menu_home.xml's items in order, and the screen each opens (None: Home itself)
DESTINATIONS = (("Home", None), ("Expense Logs", "logs"), ("Statistics", "statistics"), ("Backup", "backup"),
                ("Feedback", "feedback"), ("About", "about"), ("Settings", "settings"))
