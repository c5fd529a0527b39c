"""The window dump and the screenshot agree (taskkit.sim.gui.audit): every node with text or a
control's description is drawn where the dump puts it — with contrast, not cut to a sliver, not
under a view drawn over it — and what a node draws stays inside its bounds.

The tour test plays the GUI references of one task per app (the first by name) and of the tasks
whose screens issue #35 names (Audio Recorder's rename dialog, Retro Music's For you, Markor's
editor), and audits every distinct screen they pass through.
"""
from __future__ import annotations

import collections
import functools

from taskkit import registry
from taskkit.fidelity.tour import referenced_tasks, walk
from taskkit.sim.gui import audit, widgets
from taskkit.sim.gui.layout import Metrics
from taskkit.sim.gui.node import Node, to_xml
from taskkit.sim.gui.screen import View, build
from taskkit.sim.gui.session import Session

W, H = 1080, 2400
PACKAGE = "com.simplemobiletools.calendar.pro"
# the screens the issue names, beyond each app's first task
NAMED = ("AudioRecorderRecordAudioWithFileName", "MarkorAddNoteHeader", "RetroCreatePlaylist")


def tour_tasks() -> list[str]:
    """The first referenced task of each single app, and the tasks of `NAMED`."""
    by_apps: dict[tuple[str, ...], list[str]] = collections.defaultdict(list)
    for name in referenced_tasks():
        by_apps[tuple(registry.get(name).app_names)].append(name)
    return sorted({names[0] for apps, names in by_apps.items() if len(apps) == 1} | set(NAMED))


@functools.cache
def tour_screens() -> tuple[tuple[str, int, View], ...]:
    """Each distinct screen (by its dump and the dump of what is drawn under it) of the tour."""
    seen: set[str] = set()
    screens: list[tuple[str, int, View]] = []

    def keep(device, task, params, observation) -> None:
        ui = Session(device.state)
        view = build(ui, drawn=True)
        ui.save()
        key = view.package + to_xml(view.window, view.package) + (to_xml(view.behind, "") if view.behind else "")
        if key not in seen:
            seen.add(key)
            screens.append((task, observation.step, view))
    for _ in walk(keep, tour_tasks()):
        pass
    return tuple(screens)


def test_every_screen_of_the_tour_draws_what_its_dump_names() -> None:
    screens = tour_screens()
    assert len(screens) >= 150 and len({view.package for _, _, view in screens}) >= 20
    findings = [f"{task} step {step} ({view.package}): {finding}" for task, step, view in screens
                for finding in audit.audit(view, W, H)]
    assert findings == [], "\n".join(findings)


def _view(*nodes: Node, package: str = PACKAGE) -> View:
    window = Node(package=package, bounds=(0, 0, W, H), children=list(nodes))
    return View(window, package, None, (), False)


def _label(text: str, box: tuple[int, int, int, int], **kwargs) -> Node:
    return Node("android.widget.TextView", text=text, bounds=box, text_size=42, **kwargs)


def test_a_drawn_label_passes() -> None:
    assert audit.audit(_view(_label("Save", (100, 300, 600, 400))), W, H) == []


def test_text_in_the_colour_of_its_background_is_unseen() -> None:
    """Audio Recorder's accent is white: a dialog button drawn in it on a light panel is unseen."""
    button = Node("android.widget.Button", text="Save", resource_id="android:id/button1", bounds=(600, 1300, 1000, 1430),
                  clickable=True, text_size=42)
    panel = Node("android.widget.FrameLayout", bounds=(60, 1000, 1020, 1450), background=(250, 250, 250),
                 children=[button])
    [finding] = audit.audit(_view(panel, package="com.dimowner.audiorecorder"), W, H)
    assert finding.node == "android:id/button1" and finding.problem.startswith("contrast 1.0")
    assert audit.audit(_view(panel), W, H) == []  # Simple Calendar's orange accent shows


def test_a_label_under_a_bar_drawn_over_it_is_unseen() -> None:
    bar = Node("com.google.android.material.bottomnavigation.BottomNavigationView", bounds=(0, 2000, W, 2200))
    [finding] = audit.audit(_view(_label("Sarah Morrison", (40, 2050, 500, 2150)), bar), W, H)
    assert finding.problem == "under a view drawn over it"
    assert audit.audit(_view(bar, _label("Sarah Morrison", (40, 2050, 500, 2150))), W, H) == []  # drawn above


def test_a_sliver_and_an_overflow_are_found() -> None:
    sliver = audit.audit(_view(_label("Kara Mathews", (40, 2104, 500, 2106))), W, H)
    assert sliver[0].problem == "460x2 px"  # (and its text spills out of the 2 px)
    tall = Node("android.widget.TextView", text="Meeting notes", bounds=(40, 300, 500, 310), text_size=60)
    assert any("draws outside its bounds" in f.problem for f in audit.audit(_view(tall), W, H))


def test_a_list_leaves_out_a_row_it_cuts_to_a_sliver(device) -> None:
    ui = Session(device.state)
    frame = ui.top()[2]
    assert frame is not None
    m = Metrics()
    rows = [widgets.Row(m.dp(72), lambda box, i=i: widgets.list_item(ui, box, f"Row {i}")) for i in range(3)]
    height = m.dp(72) * 2 + 2  # the third row's top 2 px are in the list's box
    listed = widgets.scroll_list(ui, frame, "test", (0, 300, W, 300 + height), rows)
    titles = [node.text for node in listed.walk() if node.text]
    assert titles == ["Row 0", "Row 1"]
    cut = widgets.scroll_list(ui, frame, "test", (0, 300, W, 300 + height + m.dp(20)), rows)
    assert [node.text for node in cut.walk() if node.text] == ["Row 0", "Row 1", "Row 2"]


def test_wcag_contrast_ratio() -> None:
    assert round(audit.contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert audit.contrast((255, 255, 255), (250, 250, 250)) < 1.1
    assert round(audit.contrast((245, 124, 0), (255, 255, 255)), 2) == 2.7  # Simple Mobile Tools' orange
