"""`compose(..., ordered=True)`: the parts judged in order, as SPA-Bench judges a cross-app task's
subtasks (a later part never counts once an earlier one failed), and one ordered milestone group."""
from __future__ import annotations

import pytest

from taskkit.apps.settings.tasks import SystemBluetoothTurnOn, SystemWifiTurnOff
from taskkit.composite import compose
from taskkit.env import Env
from taskkit.validators.milestones import Tracker

PARTS = [("wifi", SystemWifiTurnOff), ("bluetooth", SystemBluetoothTurnOn)]
InOrder = compose("InOrderWifiThenBluetooth", PARTS, template="Turn off Wi-Fi, then turn on Bluetooth.",
                  register=False, ordered=True)
AnyOrder = compose("AnyOrderWifiThenBluetooth", PARTS, template="Turn off Wi-Fi, then turn on Bluetooth.",
                   register=False)


@pytest.mark.parametrize(("solved", "ordered_score", "mean_score"), [
    ((), 0.0, 0.0),
    (("wifi",), 0.5, 0.5),
    (("bluetooth",), 0.0, 0.5),  # the second part alone: never counted in order
    (("wifi", "bluetooth"), 1.0, 1.0),
])
def test_ordered_parts_count_only_after_every_earlier_part_passed(env: Env, solved, ordered_score, mean_score) -> None:
    for cls, expected in ((InOrder, ordered_score), (AnyOrder, mean_score)):
        task = cls.from_seed(3)
        task.initialize_state(env)
        tracker = Tracker(task.milestones(), env)
        for label, part, _ in task.subtasks:
            if label in solved:
                part.solve(env)
        assert task.is_successful(env) == expected, cls.name
        assert tracker.finish(env, 1) == expected, cls.name
        if cls is InOrder and solved == ("bluetooth",):
            assert "bluetooth: not judged, wifi failed before" in task.last_result.reasons
        task.teardown(env)


def test_an_ordered_composite_is_one_ordered_milestone_group_of_its_parts() -> None:
    groups = InOrder.from_seed(0).milestones()
    assert len(groups) == 1 and groups[0].ordered
    assert [m.name for m in groups[0].milestones] == ["wifi", "bluetooth"]
    assert not AnyOrder.from_seed(0).milestones()[0].ordered
