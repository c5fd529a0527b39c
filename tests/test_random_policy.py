"""The headline benchmark's random policy (issue #37 item 1): taskkit.agents.builtin's
`mixed_action` draws each kind of step as often as a real agent's mix says, falls back where a
screen cannot take a kind, is the same for the same seed; benchmarks/random_policy.py reads its
targets from what the gym observes and reports every setup; benchmarks/pool_scaling.py runs any
agent over a family."""
from __future__ import annotations

import collections
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest

import taskkit.gym
from taskkit.agents.base import Action, Episode, Observation
from taskkit.agents.builtin import RandomPolicyAgent, mixed_action
from taskkit.agents.policy_mix import POLICY_MIX, mixed_step
from taskkit.device.services.ui import BoundingBox, UIElement

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _benchmark(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kind(action_type: str) -> str:
    return {"navigate_back": "back_or_home", "navigate_home": "back_or_home"}.get(action_type, action_type)


def test_each_kind_of_step_is_drawn_as_often_as_its_weight() -> None:
    rng, draws = random.Random(3), 20_000
    counts = collections.Counter(_kind(mixed_action(rng, 12, [4, 7], [0], ("markor",)).action_type)
                                 for _ in range(draws))
    for kind, percent in POLICY_MIX:
        assert abs(100 * counts[kind] / draws - percent) < 1.0, (kind, counts)


def test_a_kind_the_screen_cannot_take_falls_back() -> None:
    rng = random.Random(4)
    bare = collections.Counter(mixed_action(rng, 0, [], [], ()).action_type for _ in range(2000))
    assert set(bare) == {"navigate_back", "navigate_home", "scroll", "status"}  # no element, field or app
    unfielded = [mixed_action(rng, 5, [], [], ("files",)) for _ in range(2000)]
    assert not any(action.action_type == "input_text" for action in unfielded)  # typing falls back to a click
    assert {a.index for a in unfielded if a.action_type == "scroll"} == {None}  # the screen scrolls


def test_the_agent_is_the_same_for_the_same_seed() -> None:
    elements = tuple(UIElement(text=f"row {i}", bbox=BoundingBox(0, 10 * i, 100, 10 * i + 9), is_editable=i == 2)
                     for i in range(6))
    observation = Observation(goal="g", step=0, max_steps=10, foreground=None, ui_elements=elements)

    def actions(seed: int) -> list[dict]:
        agent = RandomPolicyAgent()
        agent.reset(Episode("g", 10, ("markor",), "T", "T_0", seed))
        return [agent.step(observation).to_dict() for _ in range(30)]

    assert actions(5) == actions(5) != actions(6)


def test_the_benchmark_reads_the_targets_from_the_observed_element_list() -> None:
    elements = (UIElement(text="Name (required)\nsecond line", class_name="android.widget.EditText", is_editable=True),
                UIElement(content_description="List", class_name="androidx.recyclerview.widget.RecyclerView",
                          is_scrollable=True),
                UIElement(text="Save", class_name="android.widget.Button", is_clickable=True))
    text = Observation(goal="g", step=0, max_steps=5, foreground=None, ui_elements=elements).describe_elements()
    assert _benchmark("random_policy")._indices(text) == (3, [0], [1])


def test_the_benchmark_reports_every_setup_it_runs(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "random_policy.py"), "--steps", "3", "--task",
                           "SystemWifiTurnOn", "--setups", "random,wait", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert list(rows) == ["random", "wait"]
    assert all(row["steps"] == 3 and row["episodes"] >= 1 and row["steps_per_cpu_s"] > 0 for row in rows.values())
    # the first reset (nothing to restore yet): the restore point with the set-up in one round
    # trip, HOME and the first observation
    assert all(row["episodes"] > 1 or row["round_trips_per_reset"] == 3 for row in rows.values()), rows


def test_a_warm_run_resets_each_task_first_and_counts_that_apart() -> None:
    benchmark = _benchmark("random_policy")
    resets: list[tuple[int, Any]] = []
    real_reset = taskkit.gym.PhoneEnv.reset

    def counted(env: Any, *, seed: int | None = None, options: Any = None) -> Any:
        resets.append((seed, (options or {}).get("task")))
        return real_reset(env, seed=seed, options=options)

    family = ["SystemWifiTurnOn", "SystemBluetoothTurnOff"]
    with mock.patch.object(taskkit.gym.PhoneEnv, "reset", counted):
        row = benchmark.measure(benchmark.wait_policy, False, 2, 1, 30, family, warm=True)
    warm = [(30 + benchmark.WARM_SEEDS, family[0]), (31 + benchmark.WARM_SEEDS, family[1])]
    assert resets[:2] == warm and resets[2:] == [(30, None)]  # then the measured episode, on its own seed
    assert row["warm_cpu_s"] > 0 and row["episodes"] == 1 and row["steps"] == 2


def test_the_benchmark_refuses_an_unknown_setup_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "random_policy.py"), "--setups", "fast"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith("random_screenshots, wait, wait_screenshots")


@pytest.mark.parametrize("tasks, expected", [(["A", "B"], ["--tasks", "A,B"]),
                                             ([], ["--suite_family", "android_world"])])
def test_pool_scaling_runs_the_agent_over_the_tasks_or_the_family(tasks: list[str], expected: list[str]) -> None:
    command = _benchmark("pool_scaling").run_command(2, 3, "local", tasks, "/out", "pkg.mod:Agent", "android_world")
    assert command[command.index("--agent") + 1] == "pkg.mod:Agent"
    assert command[-2:] == expected


def test_random_policy_is_a_built_in_agent_name() -> None:
    from taskkit import agents

    assert isinstance(agents.load("random_policy"), RandomPolicyAgent)
    assert "random_policy" in agents.BUILTIN


def test_a_step_of_the_policy_is_the_json_of_its_action() -> None:
    """The benchmark sends `mixed_step`'s dicts, the agent acts on their Actions (`mixed_action`):
    each dict is its Action's JSON form, the same for the same seed, whatever a screen offers."""
    for seed in range(300):
        screen = (seed % 7, [i for i in range(seed % 7) if i % 3 == 0], [1] if seed % 2 else [], ("markor",) * (seed % 3 > 0))
        step = mixed_step(random.Random(seed), *screen)
        assert Action.from_dict(step).to_dict() == step == mixed_step(random.Random(seed), *screen)


def test_the_benchmark_measures_only_the_checkout_it_imports(tmp_path: Path) -> None:
    """`--root` names the checkout measured; an interpreter that would import taskkit from
    elsewhere is refused in one line before anything runs."""
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "random_policy.py"), "--root", str(tmp_path), "--steps", "1"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert f"{tmp_path}: this interpreter imports taskkit from" in proc.stderr and "pip install -e" in proc.stderr
    assert _benchmark("random_policy")._found_elsewhere(BENCHMARKS.parent) is None


def test_pairs_run_both_trees_alternately_on_the_same_work(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "pairs.py"), "--against", str(BENCHMARKS.parent),
                           "--pairs", "2", "--steps", "4", "--task", "SystemWifiTurnOn", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert len(result["pairs"]) == 2 and set(result["ratios"]) == {"random policy", "a step", "a reset"}
    for pair in result["pairs"]:
        this, other = pair["this"], pair["against"]
        assert (this["steps"], this["episodes"]) == (other["steps"], other["episodes"]) == (4, this["episodes"])
        assert pair["ratios"]["random policy"] == round(this["steps_per_cpu_s"] / other["steps_per_cpu_s"], 2)


def test_pairs_refuse_a_folder_that_is_no_checkout_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "pairs.py"), "--against", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith("no taskkit/ there; give a checkout of taskkit")
