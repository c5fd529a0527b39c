"""AndroidLens in Chinese and fully tagged (apps/androidlens/zh.py, tasks.py): at least 20 Chinese
tasks under zh-CN so the family holds at least 40, every task with one of the paper's
subcategories (its Table 8) under its category, golden steps from the GUI reference, the same
goal for the same seed, Chinese entities typed through ADBKeyboard, and related goals judged in
order."""
from __future__ import annotations

import re

import pytest

from taskkit import families, loading, registry
from taskkit.actions import input_text_command
from taskkit.apps.androidlens.zh import SPECS, SUBCATEGORIES, TASKS
from taskkit.apps.spa.tasks import LANGUAGE_TAG
from taskkit.composite import CompositeTask
from taskkit.env import Env
from taskkit.metadata import facet

SEEDS = (0, 1, 30)
CJK = re.compile(r"[\u4e00-\u9fff]")
INTERACTIONS = ("sharing", "clipboard", "redirection", "authorization", "tool-call", "comparison", "aggregation",
                "multi-round")


def _family() -> list[type]:
    loading.load_builtin()
    return [registry.get(name) for name in families.tasks_in("androidlens")]


def test_the_family_has_forty_tasks_twenty_of_them_chinese() -> None:
    tasks = _family()
    chinese = [t for t in tasks if LANGUAGE_TAG in t.tags]
    assert len(tasks) >= 40 and len(chinese) >= 20
    assert {t.name for t in TASKS} <= {t.name for t in chinese}


def test_every_task_has_one_subcategory_of_its_category_and_cross_app_ones_an_interaction() -> None:
    seen = set()
    for task in _family():
        category = facet(task.tags, "category")
        subcategories = [tag.partition(":")[2] for tag in task.tags if tag.startswith("subcategory:")]
        assert len(subcategories) == 1 and subcategories[0] in SUBCATEGORIES[category], task.name
        seen.add(subcategories[0])
        interactions = [tag.partition(":")[2] for tag in task.tags if tag.startswith("interaction:")]
        assert all(i in INTERACTIONS for i in interactions) and len(interactions) <= 1, task.name
        if subcategories[0].startswith("cross-app"):
            assert interactions, task.name
    # Table 8's nine (multi-step single-goal: apps/androidlens/multistep.py, its steps the milestones)
    assert seen == {s for values in SUBCATEGORIES.values() for s in values}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_chinese_goals_golden_steps_and_determinism(task: type[CompositeTask]) -> None:
    for seed in SEEDS:
        instance, again = task.from_seed(seed), task.from_seed(seed)
        assert (instance.params, instance.goal) == (again.params, again.goal)
        assert CJK.search(instance.goal)
        assert len(instance.gui_reference()) == task.optimal_steps and instance.max_steps == 2 * task.optimal_steps
        for target, source in SPECS[task.name].bindings:
            (t_label, t_field), (s_label, s_field) = target.split("."), source.split(".")
            assert instance.params[t_label][t_field] == instance.params[s_label][s_field]
    assert len({task.from_seed(seed).goal for seed in SEEDS}) > 1


def test_chinese_entities_are_typed_through_adbkeyboard() -> None:
    typed = [step.text for task in TASKS for step in task.from_seed(0).gui_reference()
             if step.action == "type_text" and CJK.search(step.text)]
    assert len(typed) >= 20
    assert all("ADB_INPUT_B64" in input_text_command(text) for text in typed)


def test_related_goals_are_judged_in_order(env: Env) -> None:
    """A related (ordered) task of three goals: the second goal alone scores 0, the first alone a
    third; the episode runs under zh-CN and the locale is put back after."""
    task = next(t for t in TASKS if SPECS[t.name].ordered and len(t.parts) == 3).from_seed(30)
    before = env.device.check("getprop persist.sys.locale").strip()
    scores = []
    for solved in ({0}, {1}, {0, 1, 2}):
        task.initialize_state(env)
        assert env.device.check("getprop persist.sys.locale").strip() == "zh-CN"
        for index, (_, part, _) in enumerate(task.subtasks):
            if index in solved:
                part.solve(env)
        scores.append(task.is_successful(env))
        task.teardown(env)
    assert scores == [pytest.approx(1 / 3), 0.0, 1.0]
    assert env.device.check("getprop persist.sys.locale").strip() == before
