"""Every built-in task's GUI reference (TaskEval.gui_reference, a spec's gui_reference block),
proved as `taskkit.check` proves it: played by `--agent gui_reference` it scores 1.0 within the
step budget on two instances (seed 0 and the first seed that draws other params; a task whose
params never vary has the one, whose plays are then watched), and its near misses (the last step dropped, the last typed value mistyped)
score less; everything the screens write carries the device's clock, not the host's.
"""
from __future__ import annotations

import functools
import time

import pytest

from taskkit import loading, registry
from taskkit.composite import CompositeTask
from taskkit.device.services import ui
from taskkit.agents.gui_reference import GuiReferenceAgent, Variant
from taskkit.env import Env
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance
from taskkit.testing import properties as props
from taskkit.testing.session import Session
from tests.sim.gui.helpers import find, tap, texts

loading.load_builtin()


@pytest.fixture(autouse=True)
def primed_dumps_are_their_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """At every dump of every reference, the elements the simulated device hands the host
    (ui.prime) are what parsing the dump's text gives."""
    prime = ui.prime

    def checked(document: str, nodes) -> None:  # type: ignore[no-untyped-def]
        prime(document, list(nodes))
        assert ui._PRIMED[document] == ui.parse_document(document)

    monkeypatch.setattr(ui, "prime", checked)


REFERENCED = sorted(cls.name for cls in registry.all_tasks() if cls.has_gui_reference() and not cls.real_device_only)


class _HostTimeWatch(GuiReferenceAgent):
    """The reference (or a `variant` of it), adding to `leaks` when it ends the episode (after
    every step's writes) every file and folder of the device whose time stamp is the host's wall
    clock, not the device's."""

    def __init__(self, device, variant: Variant | None = None, leaks: set[str] | None = None) -> None:
        super().__init__(variant)
        self.device, self.leaks = device, set() if leaks is None else leaks

    def step(self, observation):
        action = super().step(observation)
        if action.ends_episode:
            host_now = time.time()
            root = self.device.state.fs_root
            self.leaks |= {str(path.relative_to(root)) for path in [root, *root.rglob("*")]
                           if abs(path.lstat().st_mtime - host_now) < 2 * 86400}
        return action


def _second_seed(cls: type) -> int | None:
    """The reference's second instance: the first of seeds 1 to 3 whose params are not seed 0's
    (a seed that draws the same params plays the same episode again); None: they never vary."""
    first = cls.from_seed(0).params
    return next((seed for seed in (1, 2, 3) if cls.from_seed(seed).params != first), None)


def _proven_alone(part: type) -> bool:
    """Whether `part` is a registered task, or the twin of one (SPA's cross-app subtasks: the same
    ladder level with the check on state alone), whose reference has its own case here."""
    twin = getattr(part, "registered_twin", None)
    name = twin() if twin else part.name
    return name in REFERENCED and (twin is not None or registry.get(name) is part)


def _parts_proven_alone(cls: type) -> bool:
    """A composite whose every part is proven alone: each part's screens are watched in that
    part's own case, so the composite's case proves how the parts add up (its
    reference and near misses at seed 0)."""
    return issubclass(cls, CompositeTask) and all(_proven_alone(part) for _, part, _ in cls.parts)


@pytest.mark.parametrize("task", REFERENCED)
def test_the_gui_reference_scores_one_and_its_near_misses_less(module_device, task: str) -> None:
    """On one device for the module (a worker's), as `--agent gui_reference` runs a suite: each
    episode's teardown puts back what it changed, and the next starts by closing every app."""
    cls, device = registry.get(task), module_device
    alone = _parts_proven_alone(cls)
    second = None if alone else _second_seed(cls)
    leaks: set[str] = set()
    watched = not alone and second is None  # one instance only: its seed-0 plays are watched
    player = functools.partial(_HostTimeWatch, device, leaks=leaks) if watched else GuiReferenceAgent
    with Session(Env(device), near_misses=False) as session:  # seed 0: the reference and its near misses
        assert props.check_gui_solvable(session, cls, 0, player) is None
    if second is not None:  # the second instance: the reference again, watched
        watch = _HostTimeWatch(device, leaks=leaks)
        result = run_episode(Env(device), TaskInstance(cls, 0, second), watch, second)
        assert result.error is None and result.score == 1.0 and result.status == "complete", (result, watch.problem)
    assert sorted(leaks) == []  # everything the screens wrote carries the device's time


def test_every_built_in_task_that_runs_on_the_simulated_device_gives_a_gui_reference() -> None:
    missing = sorted(cls.name for cls in registry.all_tasks() if not cls.real_device_only and not cls.has_gui_reference())
    assert missing == [] and len(REFERENCED) >= 135


def test_a_calendar_insert_intent_opens_a_filled_in_event(device) -> None:
    begin_ms = 1697985000000  # October 22 2023 14:30 UTC
    device.check("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/event "
                 f"--es title Standup --es eventLocation 'Room 4' --el beginTime {begin_ms} --el endTime {begin_ms + 1800000}")
    shown = texts(device)
    assert {"Standup", "Room 4", "October 22 2023", "14:30", "15:00"} <= set(shown), shown
    assert find(device, "event_title").is_focused
    tap(device, "save")
    rows = device.check("sqlite3 /data/data/com.simplemobiletools.calendar.pro/databases/events.db "
                        "'SELECT title, location, start_ts, end_ts FROM events'")
    assert rows == f"Standup|Room 4|{begin_ms // 1000}|{begin_ms // 1000 + 1800}\n"


def test_markors_list_shows_each_notes_last_change(device) -> None:
    """The second line of a row is the file's change time in the device's zone, date then time."""
    from datetime import datetime, timezone

    from taskkit.apps import markor

    markor.create_note(device, "groceries.md", "- milk\n")
    markor.set_changed(device, "groceries.md", datetime(2023, 10, 14, 12, 30, tzinfo=timezone.utc))
    device.check("am start -n net.gsantner.markor/.activity.MainActivity")
    row = find(device, "groceries.md")
    line = find(device, lambda e: (e.resource_name or "").endswith(":id/opoc_filesystem_item__description")
                and e.bbox.y_min >= row.bbox.y_min - 200 and e.bbox.y_max <= row.bbox.y_max + 200)
    assert line.text == "10/14/23, 12:30"
    device.check("setprop persist.sys.timezone America/New_York")
    line = find(device, lambda e: (e.resource_name or "").endswith(":id/opoc_filesystem_item__description"))
    assert line.text == "10/14/23, 08:30"
