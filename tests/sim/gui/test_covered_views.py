"""Views an app draws wholly under another are in the dump, as Android's dumper lists them
(taskkit/sim/gui/node.py: `covered_by_design`): Simple Calendar's search menu under a selection's
bar, Retro Music's toolbar under its selection bar, Pro Expense's swipe backdrop under each log
row. A touch there reaches the view on top, and the audit (taskkit.sim.gui.audit) exempts such a
node only while its mark is true: wholly covered, and cited."""
from __future__ import annotations

import dataclasses

from taskkit.apps import expense, retro_music
from taskkit.rng import TaskRng
from taskkit.sim.gui import audit
from taskkit.sim.gui.node import Node, hit, reachable
from tests.sim.gui.helpers import find, tap
from tests.sim.gui.test_dump_matches_drawing import H, W, _label, _view
from tests.sim.gui.test_recall_views import _drawn, _ids, _path, _tree
from tests.sim.gui.test_recall_views_more import EXPENSE, RETRO, _long_press

CITED = "res/layout/item.xml: the card covers it"


def _bar() -> Node:
    return Node("android.widget.FrameLayout", bounds=(0, 100, W, 400), background=(250, 250, 250))


def _under(**mark: str) -> Node:
    return Node("android.widget.FrameLayout", bounds=(0, 100, W, 400), children=[
        Node("android.widget.ImageButton", content_desc="Delete", bounds=(40, 150, 200, 300), clickable=True,
             focusable=True)], **mark)


def test_a_covered_node_is_exempt_only_while_its_mark_is_true() -> None:
    assert [f.problem for f in audit.audit(_view(_under(), _bar()), W, H)] == ["under a view drawn over it"]
    assert audit.audit(_view(_under(covered_by_design=CITED), _bar()), W, H) == []
    shown = audit.audit(_view(_under(covered_by_design=CITED)), W, H)  # nothing drawn over it
    assert [f.problem for f in shown] == ["covered_by_design, but not wholly under a view drawn over it"]
    uncited = audit.audit(_view(_under(covered_by_design="the card covers it"), _bar()), W, H)
    assert [f.problem for f in uncited] == ["covered_by_design cites no source file of the app"]
    half = dataclasses.replace(_bar(), bounds=(0, 100, W // 2, 400))
    assert audit.audit(_view(_under(covered_by_design=CITED), half), W, H)[0].problem.startswith("covered_by_design, but")


def test_a_touch_passes_a_covered_node_by() -> None:
    window = _view(_under(covered_by_design=CITED), _bar()).window
    assert hit(window, 100, 200) is None  # the bar on top takes the tap, though no control of its own is there
    assert hit(_view(_under(), _bar()).window, 100, 200) is not None  # unmarked: (the audit flags that screen)
    assert [n.content_desc for n in window.walk()].count("Delete") == 1 and not any(
        n.content_desc for n in reachable(window))


def test_a_label_drawn_over_a_covered_node_is_still_audited() -> None:
    faint = dataclasses.replace(_label("Lunch", (40, 150, 600, 250)), text_color=(250, 250, 250))
    findings = audit.audit(_view(_under(covered_by_design=CITED), dataclasses.replace(_bar(), children=[faint])), W, H)
    assert [f.node for f in findings] == ["'Lunch'"] and findings[0].problem.startswith("contrast")


def test_retros_toolbar_stays_under_the_selection_bar(device) -> None:
    retro_music.write_songs(device, [retro_music.random_song(TaskRng(i), t) for i, t in enumerate(("Alpha", "Bravo"))])
    device.check(RETRO)
    tap(device, "Songs")
    _long_press(device, "Alpha")
    shown = _ids(device)
    assert _path(_tree(device), "appNameText") == ["fragment_container", "appBarLayout", "toolbar", "appNameText"]
    assert shown.index("appNameText") < shown.index("action_context_bar")  # the bar is after the content
    _drawn(device)
    device.check("input keyevent KEYCODE_MENU")  # the action mode's overflow, not the covered toolbar's
    assert {"Share", "Select all"} <= {e.text for e in device.ui.screen().elements}


def test_expenses_log_rows_hold_their_swipe_backdrop_under_the_row(device) -> None:
    expense.EXPENSES.insert(device, [expense.EXPENSES.fill({"name": "Lunch", "amount": 1250, "category": 3, "note": "",
                                                            "created_date": 0, "modified_date": 0})])
    device.check(EXPENSE)
    tap(device, "btn_more_logs")  # Home's Recent: More opens the logs
    assert _path(_tree(device), "tv_undo")[-2:] == ["fl_back", "tv_undo"]
    shown = _ids(device)
    assert shown.index("fl_back") < shown.index("cd_expense") and {"imv_delete_icon", "imv_check"} <= set(shown)
    _drawn(device)
    x, y = find(device, "imv_delete_icon").bbox.center
    device.check(f"input tap {x} {y}")  # the row on top takes it: its details open, nothing is deleted
    assert "cd_info" in _ids(device) and len(device.sqlite.query(expense.DB_PATH, "SELECT * FROM expense")) == 1


def test_the_rows_fill_hides_all_of_its_backdrop(device) -> None:
    """cd_expense's ?colorSurface is a square fill: no red of `fl_back` shows at its corners."""
    from taskkit.sim.gui.render import render_image
    from taskkit.sim.gui.screen import build
    from taskkit.sim.gui.session import Session

    expense.EXPENSES.insert(device, [expense.EXPENSES.fill({"name": "Lunch", "amount": 1250, "category": 3, "note": "",
                                                            "created_date": 0, "modified_date": 0})])
    device.check(EXPENSE)
    tap(device, "btn_more_logs")
    box = find(device, "view_bg").bbox  # the whole row, as `fl_back`
    image = render_image(build(Session(device.state), drawn=True), W, H).convert("RGB")
    row = image.crop((box.x_min, box.y_min, box.x_max, box.y_max))
    assert (0xEF, 0x53, 0x50) not in {colour for _, colour in row.getcolors(1 << 20)}
