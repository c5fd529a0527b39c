"""Spec tasks that mirror Python tasks score exactly like them for the same actions.

Each pair shares its target params: the Python task is built from the spec instance's params
(the keys its schema knows). Every action — doing nothing, the Python task's `solve`, the
spec's oracle, and a near miss — runs once on each task's own start state, and the two scores
must be equal; so the Python solution solves the spec task and the spec oracle solves the
Python task.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from taskkit.connect import sim_device
from taskkit.apps import calendar, expense, markor, sms
from taskkit.apps.common import device_now_ms
from taskkit import loading, registry
from taskkit.env import Env
from taskkit.sim.device import SimDevice
from taskkit.task import TaskEval

ROOT = Path(__file__).resolve().parents[2] / "task_protos"
Action = Callable[[Env, dict[str, Any]], None]


def _insert_expense(env: Env, item: dict[str, Any], **changes: Any) -> None:
    now = device_now_ms()
    row = {k: item[k] for k in ("name", "amount", "category", "note")} | {"created_date": now, "modified_date": now}
    expense.EXPENSES.insert(env.device, [row | changes])


def _delete_expense(env: Env, name: str) -> None:
    env.device.sqlite.execute(expense.DB_PATH, f"DELETE FROM expense WHERE name = '{name}';")


def _insert_event(env: Env, p: dict[str, Any], shift: int) -> None:
    start = p["start_ts"] + shift
    calendar.EVENTS.insert(env.device, [{
        **calendar.DEFAULTS, "start_ts": start, "end_ts": start + 60 * p["duration_min"], "title": p["title"],
        "location": "", "description": p["description"]}])


def _delete_event(env: Env, start: int) -> None:
    env.device.sqlite.execute(calendar.DB_PATH, f"DELETE FROM events WHERE start_ts = {int(start)};")


# spec name, Python name, a near-miss action, its expected score
PAIRS: list[tuple[str, str, Action, float]] = [
    ("ExpenseAddSingleSpec", "ExpenseAddSingle",
     lambda env, p: _insert_expense(env, p["expenses"][0], amount=p["expenses"][0]["amount"] + 100), 0.0),
    ("ExpenseDeleteMultipleSpec", "ExpenseDeleteMultiple",
     lambda env, p: _delete_expense(env, p["targets"][0]["name"]), 0.0),
    ("ExpenseDeleteDuplicatesSpec", "ExpenseDeleteDuplicates",
     lambda env, p: _delete_expense(env, p["duplicated"][0]["name"]), 0.0),
    ("SimpleCalendarAddOneEventSpec", "SimpleCalendarAddOneEvent",
     lambda env, p: _insert_event(env, p, shift=3600), 0.0),
    ("SimpleCalendarDeleteEventsOnDaySpec", "SimpleCalendarDeleteEventsOnDay",
     lambda env, p: _delete_event(env, p["day_ts"] - 86400 + 3600 * 12), 0.0),
    ("MarkorCreateNoteSpec", "MarkorCreateNote",
     lambda env, p: markor.create_note(env.device, p["file_name"], "Something else entirely."), 0.0),
    ("SimpleSmsSendSpec", "SimpleSmsSend",
     lambda env, p: sms.send(env.device, "+12125550199", p["message"]), 0.0),
    ("SystemWifiTurnOnSpec", "SystemWifiTurnOn",
     lambda env, p: env.device.settings.put("global", "wifi_on", "2"), 1.0),
]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("mirrors") / "device")
    yield Env(device)
    device.close()


def _score(task: TaskEval, env: Env, action: Callable[[Env], None]) -> float:
    env.new_episode()
    task.initialize_state(env)
    try:
        action(env)
        return task.is_successful(env)
    finally:
        task.teardown(env)


@pytest.mark.parametrize("spec_name, python_name, near_miss, near_score", PAIRS, ids=[p[0] for p in PAIRS])
def test_mirrored_pair_scores_alike(env, spec_name, python_name, near_miss, near_score):
    loading.load_builtin()
    spec_cls, python_cls = registry.get(spec_name), registry.get(python_name)
    assert spec_cls.source.endswith(".textproto")
    spec_task = spec_cls.from_seed(20231015)
    shared = {k: spec_task.params[k] for k in python_cls.schema.get("properties", {})}
    if spec_cls.template == python_cls.template:
        assert spec_task.goal == python_cls(shared).goal

    # A reference solution needs only its task's params, so one solver object serves both worlds.
    actions: dict[str, tuple[Callable[[Env], None], float]] = {
        "noop": (lambda e: None, 0.0),
        "python solve": (python_cls(shared).solve, 1.0),
        "spec oracle": (spec_cls(spec_task.params).solve, 1.0),
        "near miss": (lambda e: near_miss(e, shared), near_score),
    }
    for label, (action, expected) in actions.items():
        spec_score = _score(spec_cls(spec_task.params), env, action)
        python_score = _score(python_cls(shared), env, action)
        assert spec_score == python_score == expected, (label, spec_score, python_score)
