"""Every episode starts from the same screens, whatever ran before it on the device.

A random agent wanders through the simulated apps (it opens dialogs, leaves edit screens and
drafts behind, scrolls, copies text). Episodes run in two different orders on one device, and
through `taskkit.run` serially and on `--parallel 2`, must see the same screens, take the same
actions and get the same rows: nothing one episode left in the GUI reaches the next.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from taskkit import loading, registry, suite
from taskkit.agents.builtin import RandomAgent
from taskkit.agents.recorded import elements_digest
from taskkit.env import Env
from taskkit.runner import run_episode

TASKS = ["ContactsAddContact", "SimpleSmsSend", "MarkorCreateNote", "ExpenseAddSingle", "SimpleCalendarAddOneEvent",
         "SystemWifiTurnOn"]
VOLATILE = {"duration_s", "agent_seconds", "usage", "trajectory"}


class RecordingRandom(RandomAgent):
    """The random agent, keeping what it saw and did at each step."""

    def reset(self, episode) -> None:
        super().reset(episode)
        self.seen: list[tuple] = []

    def step(self, observation):
        action = super().step(observation)
        digest = elements_digest([element.as_dict() for element in observation.ui_elements])
        self.seen.append((observation.foreground, digest, action.to_dict()))
        return action


def _episodes(env: Env, order: list[str]) -> dict[str, tuple]:
    loading.load_builtin()
    seen = {}
    for name in order:
        for index in range(2):
            instance = suite.instantiate(registry.get(name), 30, index)
            agent = RecordingRandom()
            result = run_episode(env, instance, agent, 30)
            assert result.error is None, result.error
            seen[instance.instance_id] = (result.score, result.steps, tuple(agent.seen))
    return seen


def test_two_orders_on_one_device_see_the_same_screens(sim_device) -> None:
    env = Env(sim_device)
    forward = _episodes(env, TASKS)
    backward = _episodes(env, TASKS[::-1])
    assert forward == backward
    assert sum(len(seen) for _, _, seen in forward.values()) > 40  # the agent really wandered


def _run(out: Path, *extra: str) -> tuple[list[dict], dict[str, list[dict]]]:
    command = [sys.executable, "-m", "taskkit.run", "--agent", "random", "--tasks", ",".join(TASKS),
               "--n_task_combinations", "2", "--output_dir", str(out), *extra]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    trajectories = {}
    for row in rows:
        lines = (out / row["trajectory"]).read_text().splitlines()
        trajectories[row["instance_id"]] = [{k: v for k, v in json.loads(line).items() if k not in VOLATILE}
                                            for line in lines]
    return sorted(({k: v for k, v in row.items() if k not in VOLATILE} for row in rows),
                  key=lambda row: row["instance_id"]), trajectories


def test_parallel_rows_and_trajectories_equal_a_serial_runs(tmp_path) -> None:
    serial = _run(tmp_path / "serial")
    parallel = _run(tmp_path / "parallel", "--parallel", "2")
    assert parallel[0] == serial[0]  # field for field, timings aside
    assert parallel[1] == serial[1]
