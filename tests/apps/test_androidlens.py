"""AndroidLens-style tasks (taskkit.apps.androidlens): the family's make-up, milestones that count
partial work, the must-hold and ordered rules on real tasks, the exactness of the final check,
and determinism."""
from __future__ import annotations

import contextlib

import pytest

from taskkit import families, registry
from taskkit.apps import sms
from taskkit.apps.androidlens import tasks as lens
from taskkit.apps.clock import alarms
from taskkit.rng import TaskRng
from taskkit.validators.milestones import Tracker

CATEGORIES = {"multi-goal", "multi-constraint", "domain-specific"}
INTERACTIONS = {"sharing", "clipboard", "aggregation", "redirection", "tool-call", "comparison", "multi-round",
                "authorization"}


def _facet(cls, name: str) -> list[str]:
    return [tag.partition(":")[2] for tag in cls.tags if tag.startswith(f"{name}:")]


def _family() -> list[type]:
    return [registry.get(name) for name in families.tasks_in("androidlens")]


def test_the_family_has_twenty_tasks_single_and_cross_app_each_in_one_of_androidlens_categories():
    tasks = _family()
    cross = [cls for cls in tasks if _facet(cls, "interaction")]
    assert len(tasks) >= 20 and len(cross) >= 10 and len(tasks) - len(cross) >= 6
    for cls in tasks:
        assert len(_facet(cls, "category")) == 1 and _facet(cls, "category")[0] in CATEGORIES, cls.name
        assert set(_facet(cls, "interaction")) <= INTERACTIONS, cls.name
        assert cls.difficulty and cls.optimal_steps and cls.has_gui_reference(), cls.name
        # AndroidLens' long horizon: a step budget of at least twice the golden steps (twice the
        # longest draw's), not more than three times
        assert 2 * cls.optimal_steps <= 10 * cls.complexity <= 3 * cls.optimal_steps, cls.name
    assert {c for cls in tasks for c in _facet(cls, "category")} == CATEGORIES
    assert {i for cls in cross for i in _facet(cls, "interaction")} == INTERACTIONS
    for cls in cross:  # a cross-app task names more than one app
        assert len(cls.app_names) > 1, cls.name


@pytest.mark.parametrize("name", families.tasks_in("androidlens"))
def test_each_task_has_three_to_eight_milestones(name):
    cls = registry.get(name)
    task = cls(cls.generate_random_params(TaskRng(3)))
    names = [m.name for group in task.milestones() for m in group.milestones]
    assert 3 <= len(names) <= 8 and len(set(names)) == len(names)


def test_params_and_goals_follow_the_seed_only():
    for cls in _family():
        first, again = cls.generate_random_params(TaskRng(11)), cls.generate_random_params(TaskRng(11))
        assert first == again, cls.name
        assert cls.generate_random_params(TaskRng(12)) != first, cls.name
        assert cls(first).goal == cls(again).goal


@contextlib.contextmanager
def _episode(env, cls, seed: int = 5):
    """The task set up on the device with a milestone tracker; torn down afterwards."""
    task = cls(cls.generate_random_params(TaskRng(seed)))
    task.initialize_state(env)
    try:
        yield task, Tracker(task.milestones(), env)
    finally:
        task.teardown(env)


def _goals(task) -> dict:
    return {goal.name: goal for goal in task.goals()}


def test_the_first_person_s_contact_and_text_are_half_the_progress(env):
    with _episode(env, lens.AndroidLensContactsThenMessage) as (task, tracker):
        goals = _goals(task)
        goals["contact_1"].solve(env)
        goals["sms_1"].solve(env)
        assert tracker.finish(env, 1) == 0.5
        assert tracker.reached == {"contact_1": 1, "sms_1": 1, "contact_2": None, "sms_2": None}
        assert task.is_successful(env) == 0.0


def test_an_ordered_group_counts_nothing_until_its_first_goal(env):
    with _episode(env, lens.AndroidLensExpenseTotalBySms) as (task, tracker):
        goals = _goals(task)
        goals["sms"].solve(env)
        goals["note"].solve(env)  # the total texted and noted, the expense never logged
        tracker.observe(env, 1)
        assert tracker.progress == 0.0 and tracker.reached["sms"] is None
        goals["expense"].solve(env)
        assert tracker.finish(env, 2) == 1.0 and tracker.reached == {"expense": 2, "sms": 2, "note": 2}
        assert task.is_successful(env) == 1.0


def test_an_alarm_switched_off_again_is_no_longer_a_reached_milestone(env):
    with _episode(env, lens.AndroidLensClockAlarmSchedule) as (task, tracker):
        task.solve(env)
        tracker.observe(env, 1)
        assert tracker.progress == 1.0
        hour, minutes = task.params["hours"][0], task.params["minutes"][0]
        alarms.ALARMS.update(env.device, {"hour": hour, "minutes": minutes}, {"enabled": 0})
        assert tracker.finish(env, 2) == pytest.approx(2 / 3)
        assert tracker.reached["weekdays"] is None
        assert any("milestone weekdays: reached at step 1 but no longer holds" in r for r in tracker.reasons)
        assert task.is_successful(env) == 0.0


def test_every_goal_reached_but_a_stray_text_fails_the_task_not_the_progress(env):
    with _episode(env, lens.AndroidLensNoteCodeToSms) as (task, tracker):
        task.solve(env)
        sms.send(env.device, "+12025550199", task.params["code"])  # one more recipient than asked
        assert tracker.finish(env, 1) == 1.0
        assert task.is_successful(env) == 0.0
        assert any("expected 3 new row(s), found 4" in r for r in task.last_result.reasons)


def test_a_wrong_value_misses_only_its_own_milestone(env):
    with _episode(env, lens.AndroidLensBillSplit) as (task, tracker):
        goals = _goals(task)
        goals["expense"].solve(env)
        goals["sms_1"].solve(env)
        friend = task.params["friends"][1]["number"]
        sms.send(env.device, friend, "Your share for dinner is $1.00")
        assert tracker.finish(env, 1) == pytest.approx(2 / 3) and tracker.reached["sms_2"] is None
        assert task.is_successful(env) == 0.0


def test_multi_step_single_goal_tasks_take_their_steps_in_order(env):
    """AndroidLens' multi-step single-goal subcategory: at least three tasks, each one ordered
    group of dependent steps; the note copied into the new folder but left where it was is two
    steps of three, and no success."""
    from taskkit.apps.androidlens import multistep

    chosen = [cls for cls in _family() if "multi-step-single-goal" in _facet(cls, "subcategory")]
    assert len(chosen) >= 3
    for cls in chosen:
        groups = cls(cls.generate_random_params(TaskRng(3))).goal_groups()
        assert len(groups) == 1 and groups[0][0], cls.name  # one goal: its steps, in order
    with _episode(env, multistep.AndroidLensArchiveNote) as (task, tracker):
        goals = _goals(task)
        goals["in_folder"].solve(env)  # copied first: the folder came with it, the original stays
        assert tracker.finish(env, 1) == pytest.approx(2 / 3) and tracker.reached["out_of_place"] is None
        assert task.is_successful(env) == 0.0
