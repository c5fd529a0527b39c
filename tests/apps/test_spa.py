"""SPA-Bench's ladders (apps/spa): the ladder structure (L1 ⊂ L2 ⊂ L3, golden steps under 5, 10,
15, a step budget of twice the golden steps), determinism, the Chinese variants, the near misses
that tell the state check and SPA's key components apart, and Chinese typed through ADBKeyboard."""
from __future__ import annotations

import re
from typing import Any

import pytest

from taskkit import families, loading
from taskkit.actions import input_text_command
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.apps.spa.ladders import LADDERS, Ladder
from taskkit.apps.spa.tasks import LANGUAGE_TAG, TASKS, SpaTask
from taskkit.device.catalog import ADB_KEYBOARD_IME
from taskkit.env import Env
from taskkit.gui_reference import mistype
from taskkit.rng import TaskRng
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance

SEEDS = (0, 1, 7, 30, 2024)
LIMITS = (5, 10, 15)  # golden steps under these, by level
CJK = re.compile(r"[\u4e00-\u9fff]")


def _task(ladder: Ladder, level: int, chinese: bool = False) -> type[SpaTask]:
    return next(t for t in TASKS if t.ladder is ladder and t.level == level and t.zh == chinese)


def _values(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k != "noise_seed"}


# --- structure ----------------------------------------------------------------------------
def test_at_least_15_ladders_of_three_levels_and_15_chinese_tasks() -> None:
    assert len(LADDERS) >= 15 and len({ladder.name for ladder in LADDERS}) == len(LADDERS)
    english = [t for t in TASKS if not t.zh]
    chinese = [t for t in TASKS if t.zh]
    assert len(english) == 3 * len(LADDERS) >= 45
    assert len(chinese) >= 15 and all(LANGUAGE_TAG in t.tags for t in chinese)
    loading.load_builtin()
    assert set(families.tasks_in("spa")) >= {t.name for t in TASKS}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_golden_steps_budget_and_tags(task: type[SpaTask]) -> None:
    """Golden steps under 5/10/15 by level, max steps twice them, the reference that long on
    every draw; the family, app, level and category tags."""
    golden = task.ladder.levels[task.level - 1].golden
    assert golden < LIMITS[task.level - 1] and task.optimal_steps == golden
    assert task.from_seed(0).max_steps == 2 * golden
    for seed in SEEDS:
        assert len(task.from_seed(seed).gui_reference()) == golden, seed
    assert {"spa", f"level:{task.level}", f"category:{task.ladder.category}"} <= set(task.tags)
    assert task.ladder.category in ("general-tool", "information-management", "media-entertainment",
                                    "social-sharing")


@pytest.mark.parametrize(("ladder", "chinese"), [(ladder, False) for ladder in LADDERS]
                         + [(ladder, True) for ladder in LADDERS if ladder.chinese],
                         ids=lambda value: value.name if isinstance(value, Ladder) else ("zh" if value else "en"))
def test_each_level_extends_the_one_below(ladder: Ladder, chinese: bool) -> None:
    """Per seed: a level keeps the params of the one below with the same values, adds steps,
    and its goal names every value the lower goal names, plus something new."""
    for seed in SEEDS:
        tasks = [_task(ladder, level, chinese).from_seed(seed) for level in (1, 2, 3)]
        for lower, upper in zip(tasks, tasks[1:]):
            assert lower.params.items() <= upper.params.items()
            assert upper.optimal_steps > lower.optimal_steps
            named = [str(v) for v in _values(lower.params).values() if str(v) in lower.goal]
            assert all(value in upper.goal for value in named), (lower.goal, upper.goal)
            assert upper.goal != lower.goal


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_the_same_seed_draws_the_same_params_and_goal(task: type[SpaTask]) -> None:
    for seed in SEEDS:
        first, again = task.from_seed(seed), task.from_seed(seed)
        assert (first.params, first.goal, first.key_components()) == (again.params, again.goal,
                                                                        again.key_components())
    assert len({str(task.from_seed(seed).params) for seed in SEEDS}) > 1 or not _values(task.from_seed(0).params)


@pytest.mark.parametrize("task", [t for t in TASKS if t.zh], ids=lambda t: t.name)
def test_chinese_variants_have_chinese_goals_and_entities(task: type[SpaTask]) -> None:
    """The goal is Chinese, and so is some drawn entity (Faker's zh_CN or the zh-CN texts)."""
    english = _task(task.ladder, task.level)
    for seed in SEEDS:
        instance = task.from_seed(seed)
        assert CJK.search(instance.goal) and not CJK.search(english.from_seed(seed).goal)
        assert any(isinstance(v, str) and CJK.search(v) for v in instance.params.values())


def test_chinese_entities_are_typed_through_adbkeyboard() -> None:
    """Every value a Chinese reference types goes out as ADBKeyboard's base64 broadcast."""
    typed = [step.text for task in TASKS if task.zh for seed in SEEDS
             for step in task.from_seed(seed).gui_reference() if step.action == "type_text"]
    chinese = [text for text in typed if CJK.search(text)]
    assert chinese
    for text in chinese:
        command = input_text_command(text)
        assert "ADB_INPUT_B64" in command and "input text" not in command


# --- on the simulated device ----------------------------------------------------------------
def _solved(env: Env, task: SpaTask) -> None:
    task.initialize_state(env)
    task.solve(env)
    assert task.is_successful(env) == 1.0, task.name


def _parts(env: Env, task: SpaTask) -> tuple[float, float]:
    """(the state check's score, the key components' score)."""
    state, keys = task.validator().parts  # type: ignore[attr-defined]
    return (state[0].evaluate(env, task._validator_snapshot[0]).score,
            keys[0].evaluate(env, task._validator_snapshot[1]).score)


def _near_misses(task: SpaTask) -> list[tuple[dict[str, Any], int]]:
    """Wrong solutions (params, level): one entity the key components do not name changed at a
    time, then the level below's."""
    keys = "".join(task.ladder.levels[task.level - 1].keys)
    wrong = []
    for name, value in task.params.items():
        if name in ("noise_seed", "songs") or name in keys:
            continue
        schema = task.schema["properties"][name]
        if "enum" in schema:
            other = next(v for v in schema["enum"] if v != value)
        elif isinstance(value, str) and value in task.params.get("songs", ()):
            other = next(v for v in task.params["songs"] if v not in task.params.values())
        elif isinstance(value, str):
            other = mistype(value)
        else:
            other = value + 1
        wrong.append(({**task.params, name: other}, task.level))
    return wrong + [(task.params, task.level - 1)]


@pytest.mark.parametrize("ladder", LADDERS, ids=lambda ladder: ladder.name)
def test_state_and_key_components_are_both_needed(env: Env, ladder: Ladder) -> None:
    """The top level, solved by device commands (no screen kept: the solved app's screen is the
    episode's only one): going home keeps the state right but loses the key components
    (score 0); some near miss — one entity wrong, or the level below solved — shows the key
    components but leaves the state wrong (score 0)."""
    task = _task(ladder, 3).from_seed(30)
    _solved(env, task)
    env.device.check("input keyevent KEYCODE_HOME")
    assert _parts(env, task) == (1.0, 0.0) and task.is_successful(env) == 0.0
    task.teardown(env)

    seen = []
    for params, level in _near_misses(task):
        task.initialize_state(env)
        ladder.kind(params, level, False).solve(env)
        if hasattr(task.kind, "open_page"):  # Settings: the level below, on the top level's page
            task.kind.open_page(env)
        seen.append((_parts(env, task), task.is_successful(env)))
        task.teardown(env)
        if seen[-1] == ((0.0, 1.0), 0.0):
            break
    assert seen[-1] == ((0.0, 1.0), 0.0), seen


def test_a_chinese_episode_runs_under_zh_cn_and_types_through_the_ime(env: Env, monkeypatch) -> None:
    """The GUI reference of a Chinese task succeeds; the locale is zh-CN meanwhile and back after;
    its Chinese text went through ADBKeyboard (selected, then its base64 broadcast)."""
    task = next(t for t in TASKS if t.zh and t.ladder.name == "SmsReply" and t.level == 1)
    sent: list[str] = []
    shell = env.device._counted_shell
    monkeypatch.setattr(env.device, "_counted_shell", lambda command: sent.append(command) or shell(command))
    before = env.device.check("getprop persist.sys.locale").strip()
    result = run_episode(env, TaskInstance(task, 0, 30), GuiReferenceAgent(), 30)
    assert result.success and result.error is None
    assert any("setprop persist.sys.locale zh-CN" in command for command in sent)
    typed = [c for c in sent if "ADB_INPUT_B64" in c]
    assert typed and all(f"ime set {ADB_KEYBOARD_IME}" in c or f"ime set '{ADB_KEYBOARD_IME}'" in c for c in typed)
    assert env.device.check("getprop persist.sys.locale").strip() == before


def test_drawing_is_independent_of_the_faker_already_used() -> None:
    """A Chinese draw seeds its own zh_CN Faker from the task's rng: the same whatever else ran."""
    used = TaskRng(5)
    used.faker.name()  # the English Faker used first changes nothing
    for ladder in LADDERS:
        if ladder.chinese:
            assert ladder.kind.draw(TaskRng(5), True) == ladder.kind.draw(used, True)
            used = TaskRng(5)
            used.faker.name()
