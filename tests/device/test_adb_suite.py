"""Acceptance: the built-in suite through the real `adb` server to the simulator's adbd gives the
same scores, params and goals as the in-process simulator at the same seed: a task of every set
of apps the suite's tasks use (each in English and, where it has one, in Chinese) and the tasks
that need a real device, the way a user runs them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator

import pytest

from taskkit import agents, connect, loading, registry, suite
from taskkit.env import Env
from taskkit.runner import EpisodeResult, run_suite
from tests.device.test_adb_device import adb_connect, private_adb_server, requires_adb, served_sim

pytestmark = requires_adb
SEED = 30
REPO = Path(__file__).resolve().parents[2]


def outcomes(results: Iterable[EpisodeResult | dict[str, Any]]) -> dict[str, tuple]:
    """instance id → (score, params, goal, error) of each episode."""
    rows = [r if isinstance(r, dict) else r.to_json() for r in results]
    return {r["instance_id"]: (r["score"], r["params"], r["goal"], r["error"]) for r in rows}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[int, str]]:
    """(private adb server port, serial of the simulator it is connected to)."""
    with private_adb_server() as port, served_sim(tmp_path_factory.mktemp("suite-sim")) as sim:
        serial = f"127.0.0.1:{sim.port}"
        adb_connect(port, serial)
        yield port, serial


def covering_tasks() -> list[str]:
    """The first task (by name) of each set of apps and language, and every task needing a real
    device: every app's set-up, checks and teardown over adb, in each combination the suite has,
    at a quarter of the whole suite's cost."""
    loading.load_builtin()
    chosen: dict[tuple[tuple[str, ...], bool], str] = {}
    tasks = [registry.get(name) for name in registry.names()]
    for task in tasks:
        chosen.setdefault((tuple(sorted(task.app_names)), "lang:zh-CN" in task.tags), task.name)
    return sorted({*chosen.values(), *(task.name for task in tasks if task.real_device_only)})


@pytest.fixture(scope="module")
def cli_rows(served, tmp_path_factory) -> list[dict[str, Any]]:
    """results.jsonl of `python -m taskkit.run --seed 30 --device adb:SERIAL --adb_port P`."""
    port, serial = served
    out = tmp_path_factory.mktemp("cli")
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(port))  # belt and braces: never 5037
    done = subprocess.run(
        [sys.executable, "-m", "taskkit.run", "--seed", str(SEED), "--device", f"adb:{serial}",
         "--adb_port", str(port), "--output_dir", str(out), "--tasks", ",".join(covering_tasks())],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def builtin(cli_rows) -> list[str]:
    """The tasks a plain run covers (other test modules may have registered more in this process),
    but those needing a real device: the device behind adb here is the simulator."""
    loading.load_builtin()
    return [name for name in dict.fromkeys(row["task"] for row in cli_rows) if not registry.get(name).real_device_only]


@pytest.fixture(scope="module")
def reference(builtin) -> dict[str, tuple]:
    """What the in-process simulator gives the oracle at seed 30: every task solved without an
    error, with the params and goals of tests/golden/seed30.json (tests/test_suite.py proves the
    in-process suite gives exactly those; the lifecycle tests that the oracle solves each task)."""
    golden = json.loads((REPO / "tests" / "golden" / "seed30.json").read_text())
    expected = {row["instance_id"]: (1.0, row["params"], row["goal"], None) for row in golden
                if row["instance_id"].rsplit("_", 1)[0] in builtin}
    assert len(expected) == len(builtin) >= 80
    return expected


def one_task_per_app(instances: list[suite.TaskInstance]) -> list[suite.TaskInstance]:
    """The first single-app task of each app: every app's checks, at a fraction of the cost (the
    long multi-app tasks, AndroidLens' among them, go through adb in the CLI test below)."""
    chosen: dict[tuple[str, ...], suite.TaskInstance] = {}
    for instance in instances:
        if len(instance.task.app_names) == 1:
            chosen.setdefault(tuple(instance.task.app_names), instance)
    return list(chosen.values())


def _run_through_adb(served: tuple[int, str], names: list[str], agent: str, sample: bool = False
                     ) -> tuple[list[EpisodeResult], dict[str, int]]:
    port, serial = served
    loading.load_builtin()
    instances = suite.build_suite(SEED, names)
    instances = one_task_per_app(instances) if sample else instances
    device = connect.open_device(f"adb:{serial}", adb_port=port)
    try:
        connect.ensure_root(device, [instance.task.name for instance in instances])
        results = run_suite(Env(device), instances, agents.load(agent), SEED)
        return results, {"round_trips": device.stats.round_trips, "episodes": len(results)}
    finally:
        device.close()


def test_oracle_episodes_through_adb_match_and_keep_to_a_handful_of_round_trips(served, builtin, reference):
    """One task per app through the API (the whole suite goes through adb in the CLI test below):
    the same outcomes, and batching keeps an episode to a handful of round trips on a real transport."""
    results, counts = _run_through_adb(served, builtin, "oracle", sample=True)
    got = outcomes(results)
    assert len(got) >= 20 and got == {k: reference[k] for k in got}
    assert counts["round_trips"] <= 20 * counts["episodes"], counts


def test_noop_scores_zero_through_adb(served, builtin, reference):
    results, _ = _run_through_adb(served, builtin, "noop", sample=True)
    got = outcomes(results)
    assert len(got) >= 7 and got.keys() <= reference.keys()
    assert all(score == 0.0 and error is None for score, _, _, error in got.values()), got
    assert {k: v[1:3] for k, v in got.items()} == {k: reference[k][1:3] for k in got}


def test_the_cli_through_adb_matches_the_in_process_simulator(cli_rows, reference):
    ran = outcomes(cli_rows)
    assert {k: v for k, v in ran.items() if k in reference} == reference
    # over adb nothing is left out: the tasks needing a real device ran (and, the device behind
    # adb being the simulator, which has no camera, scored 0 without an error)
    real = {k: v for k, v in ran.items() if k not in reference}
    assert set(real) == {"CameraTakePhoto_0", "CameraTakeVideo_0"}
    assert all(score == 0.0 and error is None for score, _, _, error in real.values())


def test_the_cli_reports_an_unusable_adb_device_in_one_line(served):
    port, _ = served
    done = subprocess.run(
        [sys.executable, "-m", "taskkit.run", "--device", "adb:no-such-serial", "--adb_port", str(port)],
        cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"taskkit.run: error: cannot open device 'adb:no-such-serial': device 'no-such-serial' is not attached "
        f"to the adb server 127.0.0.1:{port} (found: {served[1]} (device))"
    ]
