"""The properties pass on a correct task and fail, naming task, property, seed and cause, on broken ones."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit.testing import PropertyFailed, check_deterministic, check_near_miss, check_task
from taskkit.testing.checks import run_property
from taskkit.testing.properties import NEAR_MISS
from taskkit.testing.session import Session
from tests.testing import broken_tasks as broken

ROOT = Path(__file__).resolve().parents[2]


def failure(task_cls, **kwargs):
    """The PropertyFailed that check_task raises for `task_cls`."""
    with pytest.raises(PropertyFailed) as caught:
        check_task(task_cls, **kwargs)
    return caught.value


def test_a_correct_task_has_every_property():
    results = check_task(broken.AddCoffee, seeds=2)
    assert [(r.prop, r.status) for r in results] == [
        ("solvable", "pass"), ("not_trivially_solved", "pass"), ("clean_teardown", "pass"),
        ("deterministic", "pass"), ("near_miss", "pass"), ("gui_solvable", "pass")]
    near = results[-2]
    assert near.total >= 2 * 6 and near.killed == near.total  # every derived mutation killed, both seeds


def test_a_validator_ignoring_a_field_lets_its_near_miss_survive():
    error = failure(broken.AddCoffeeIgnoresAmount, seeds=2, properties=["near_miss"])
    [result] = error.results
    assert (result.task, result.prop, result.seed) == ("AddCoffeeIgnoresAmount", "near_miss", 0)
    assert "AddCoffeeIgnoresAmount: near_miss FAILED at seed 0" in str(error)
    assert "table expense: the new row: wrong amount" in result.message and "survived" in result.message
    assert "wrong name" not in result.message  # the name is compared: that mutation was killed


def test_a_teardown_leaking_a_row_names_what_it_left():
    error = failure(broken.AddCoffeeLeaksSms, seeds=2, properties=["clean_teardown"])
    [result] = error.results
    assert (result.prop, result.seed) == ("clean_teardown", 0)
    assert "teardown left the device changed" in result.message
    assert "/data/data/com.android.providers.telephony/databases/mmssms.db" in result.message


def test_params_from_the_module_level_random_are_not_deterministic():
    error = failure(broken.AddCoffeeModuleRandom, seeds=2, properties=["deterministic"])
    [result] = error.results
    assert (result.prop, result.seed) == ("deterministic", 0)
    assert "two draws from seed 0 in one process differ: params.amount:" in result.message


def test_content_depending_on_hash_order_differs_in_a_fresh_process():
    with pytest.raises(PropertyFailed) as caught:
        check_deterministic(broken.AddCoffeeSetOrder, seeds=1)
    assert "params differ in a fresh process: params.name:" in str(caught.value)


def test_a_task_module_loaded_from_a_file_path_is_rebuilt_in_the_fresh_process_from_that_path(monkeypatch):
    name = "taskkit_user_broken_copy"  # as loading.load_module names a .py path: not importable by name
    spec = importlib.util.spec_from_file_location(name, Path(broken.__file__))
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    assert check_deterministic(module.AddCoffee, seeds=1).status == "pass"
    with pytest.raises(PropertyFailed, match="params differ in a fresh process"):
        check_deterministic(module.AddCoffeeSetOrder, seeds=1)


def test_a_task_solved_at_start_is_reported():
    error = failure(broken.WifiOnSolvedAtStart, seeds=2, properties=["not_trivially_solved", "solvable"])
    [result] = error.results  # solvable holds; only the start is wrong
    assert (result.task, result.prop, result.seed) == ("WifiOnSolvedAtStart", "not_trivially_solved", 0)
    assert "already scores 1.0" in result.message


def test_a_solve_that_does_not_solve_is_reported_with_the_check_reasons():
    error = failure(broken.AddCoffeeSolveForgetsAmount, seeds=2, properties=["solvable", "near_miss"])
    solvable, near = error.results
    assert (solvable.prop, solvable.seed) == ("solvable", 0)
    assert "after solve() the score is 0.0, expected 1.0: table expense: no new row matches" in solvable.message
    assert near.message.startswith("cannot be judged")


def test_failures_shrink_to_the_minimal_seed_and_print_a_command_that_reproduces_them():
    error = failure(broken.AddCoffeeSolveFailsOnEvenSeeds, seeds=5, properties=["solvable"])
    [result] = error.results
    assert (result.first_seed, result.seed) == (2142, 102)  # the smallest even seed above 100
    text = str(error)
    assert "solvable FAILED at seed 102 (shrunk from seed 2142)" in text
    assert result.reproduce in text and "seeds=[102]" in result.reproduce
    again = subprocess.run(result.reproduce, shell=True, capture_output=True, text=True, cwd=ROOT)
    assert again.returncode != 0 and "solvable FAILED at seed 102" in again.stderr


def test_a_custom_is_successful_gets_no_near_misses():
    results = check_task(broken.CustomCheck, seeds=1, properties=["solvable", "near_miss"])
    near = results[-1]
    assert (near.status, near.killed, near.total) == ("n/a", 0, 0)
    assert "custom is_successful" in near.notes[0]


def test_a_class_defined_in_a_function_cannot_be_checked_in_a_fresh_process():
    class Local(broken.AddCoffee, register=False):
        pass

    with pytest.raises(PropertyFailed, match="define it at module level"):
        check_deterministic(Local, seeds=1)


def test_explicit_seeds_are_the_only_ones_tried(task_env):
    result = check_near_miss(broken.AddCoffee, seeds=[7, 11], env=task_env)
    assert sorted(result.seeds) == [7, 11] and result.killed == result.total > 0


def test_run_property_reports_without_raising(task_env):
    with Session(task_env) as session:
        result = run_property(NEAR_MISS, broken.AddCoffeeIgnoresAmount, session, [3])
    assert result.failed and result.seed == 3 and "wrong amount" in result.message
    assert result.total > result.killed


def test_a_verify_task_must_start_solved_and_still_kill_its_near_misses():
    from taskkit.apps.settings.tasks import SystemWifiTurnOn, SystemWifiTurnOnVerify

    results = {r.prop: r for r in check_task(SystemWifiTurnOnVerify, seeds=1)}
    assert all(r.status in ("pass", "n/a") for r in results.values()) and results["solvable"].status == "pass"
    assert results["near_miss"].killed == results["near_miss"].total > 0

    class WifiVerifyThatStartsOff(SystemWifiTurnOn, register=False):  # claims to start solved; starts off
        name = "WifiVerifyThatStartsOff"
        starts_solved = True

    error = failure(WifiVerifyThatStartsOff, seeds=1, properties=["not_trivially_solved"])
    assert "a starts_solved task must score 1.0 right after initialize_state, got 0.0" in error.results[0].message
