"""SPA-Bench's cross-app tasks (apps/spa/cross_app.py): SPA's five Level 1 types and its Level 2
Multi-Apps, subtasks on different adjacent apps, golden steps from the GUI reference, twice them as
the budget, determinism, the Chinese variants, and the ordered judging (SPA's Figure 5): the first
subtask alone scores its share, the second alone scores 0."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from taskkit import families, loading
from taskkit.apps.spa.cross_app import CROSS_APP_TAG, CROSS_APPS, SPECS, TASKS, TYPES
from taskkit.apps.spa.tasks import LANGUAGE_TAG
from taskkit.composite import CompositeTask
from taskkit.env import Env
from taskkit.validators.milestones import Tracker

SEEDS = (0, 1, 30)
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH = [t for t in TASKS if LANGUAGE_TAG not in t.tags]
CHINESE = [t for t in TASKS if LANGUAGE_TAG in t.tags]


def _apps(task: type[CompositeTask]) -> list[tuple[str, ...]]:
    return [part.app_names for _, part, _ in task.parts]


def test_spa_s_types_and_levels_twenty_english_and_ten_chinese() -> None:
    """Three Level 1 (two apps) tasks of each of the five types, five Level 2 (three apps) of
    Multi-Apps, in English; at least ten Chinese; all in the spa family, tagged cross-app."""
    assert len(ENGLISH) >= 20 and len(CHINESE) >= 10
    per_type = Counter(SPECS[t.name].type for t in ENGLISH)
    assert all(per_type[kind] >= 3 for kind in TYPES[:5]) and per_type["multi-apps"] >= 5
    for task in TASKS:
        spec = SPECS[task.name]
        assert len(spec.parts) == (3 if spec.type == "multi-apps" else 2)
        assert {"spa", CROSS_APP_TAG, f"level:{spec.level}", f"category:{spec.type}"} <= set(task.tags)
        assert spec.level == (2 if spec.type == "multi-apps" else 1)
        apps = _apps(task)
        assert all(a[0] != b[0] for a, b in zip(apps, apps[1:])), task.name  # SPA's Appendix E.1
    loading.load_builtin()
    assert set(families.tasks_in("spa")) >= {t.name for t in TASKS}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_golden_steps_are_the_reference_s_length_and_the_budget_twice_them(task: type[CompositeTask]) -> None:
    for seed in SEEDS:
        instance = task.from_seed(seed)
        assert len(instance.gui_reference()) == task.optimal_steps, seed
        assert instance.max_steps == 2 * task.optimal_steps


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_the_same_seed_draws_the_same_goal_and_bindings_carry_the_value(task: type[CompositeTask]) -> None:
    for seed in SEEDS:
        first, again = task.from_seed(seed), task.from_seed(seed)
        assert (first.params, first.goal) == (again.params, again.goal)
        for target, source in SPECS[task.name].bindings:  # a subtask's "memory" reaches the later one
            (t_label, t_field), (s_label, s_field) = target.split("."), source.split(".")
            assert first.params[t_label][t_field] == first.params[s_label][s_field]
    assert len({task.from_seed(seed).goal for seed in SEEDS}) > 1
    if task in CHINESE:
        assert CJK.search(task.from_seed(0).goal)


def test_every_spec_has_an_english_task_and_the_chinese_ones_their_chinese_goal() -> None:
    names = {t.name for t in TASKS}
    for spec in CROSS_APPS:
        assert f"SpaCross{spec.name}L{spec.level}" in names
        assert (f"SpaCross{spec.name}L{spec.level}Zh" in names) == bool(spec.goal_zh)


def _score_solving(env: Env, task: CompositeTask, labels: set[str]) -> tuple[float, float]:
    """(score, milestone progress) after solving only the subtasks labelled `labels`."""
    task.initialize_state(env)
    tracker = Tracker(task.milestones(), env)
    for label, part, _ in task.subtasks:
        if label in labels:
            part.solve(env)
    try:
        return task.is_successful(env), tracker.finish(env, 1)
    finally:
        task.teardown(env)


# One Level 1 English, one Level 1 Chinese and one Level 2 task (sampled: each costs episodes).
SAMPLED = ("SpaCrossNoteToFriendL1", "SpaCrossContactNumberToNoteL1Zh", "SpaCrossNoteSmsAlarmL2")


@pytest.mark.parametrize("name", SAMPLED)
def test_subtasks_are_judged_in_order(env: Env, name: str) -> None:
    """All solved: 1.0; the first alone: its share; the second alone: 0 (the first failed, so the
    second is never counted); Level 2's first and third without the second: the first's share."""
    task_cls = next(t for t in TASKS if t.name == name)
    task = task_cls.from_seed(30)
    labels = [label for label, _, _ in task.subtasks]
    share = 1 / len(labels)
    assert _score_solving(env, task, set(labels)) == (1.0, 1.0)
    assert _score_solving(env, task, {labels[0]}) == (pytest.approx(share), pytest.approx(share))
    assert _score_solving(env, task, {labels[1]}) == (0.0, 0.0)
    if len(labels) == 3:
        assert _score_solving(env, task, {labels[0], labels[2]}) == (pytest.approx(share), pytest.approx(share))
