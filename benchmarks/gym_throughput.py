"""Environment steps per second of `taskkit/Task-v0` (taskkit.gym), for training.

    python benchmarks/gym_throughput.py [--steps 200] [--envs 2] [--json]

One environment in process, with and without screenshots, and an `AsyncVectorEnv` of N simulated
devices (one process each), stepping `wait` actions on SystemWifiTurnOn (each step observes the
screen: the element dump, plus a screenshot when asked), next to the floor: the device's cheapest
command (`true`) in process. Reported per wall second and per CPU second (this process and the
vector's workers, read from /proc while they run). A `wait` step is the cheapest there is: these
are upper bounds on throughput; benchmarks/random_policy.py measures the steps agents take.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

import gymnasium  # noqa: E402

import taskkit.gym  # noqa: E402,F401 - registers taskkit/Task-v0
from taskkit.report import table  # noqa: E402

WAIT = json.dumps({"action_type": "wait"})


def _cpu(pids: tuple[int, ...] = ()) -> float:
    """CPU seconds of this process and of the live processes `pids` (from /proc: their CPU is not
    in RUSAGE_CHILDREN until they end)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return own.ru_utime + own.ru_stime + ticks / os.sysconf("SC_CLK_TCK")


def _measure(steps: int, step: Callable[[], Any], count: int = 1, pids: tuple[int, ...] = ()) -> dict[str, float]:
    wall, cpu = time.perf_counter(), _cpu(pids)
    for _ in range(steps):
        step()
    wall, cpu = time.perf_counter() - wall, _cpu(pids) - cpu
    return {"steps_per_s": round(steps * count / wall, 1), "steps_per_cpu_s": round(steps * count / max(cpu, 1e-9), 1)}


def _single(steps: int, screenshot: bool) -> dict[str, float]:
    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn", screenshot=screenshot).unwrapped
    try:
        env.reset(seed=30)

        def step() -> None:
            if env.step(WAIT)[3]:  # truncated: the budget is spent, start again
                env.reset(seed=30)
        return _measure(steps, step)
    finally:
        env.close()


def _vector(steps: int, envs: int) -> dict[str, float]:
    vector = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn")] * envs, shared_memory=False)
    try:
        vector.reset(seed=list(range(envs)))
        pids = tuple(process.pid for process in vector.processes)
        return _measure(steps // envs, lambda: vector.step((WAIT,) * envs), envs, pids)
    finally:
        vector.close()


def _floor(steps: int) -> dict[str, float]:
    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn").unwrapped
    try:
        return _measure(steps, lambda: env.device.shell("true"))
    finally:
        env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--envs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {"one env": _single(args.steps, False), "one env, screenshots": _single(args.steps // 4, True),
            f"AsyncVectorEnv x{args.envs}": _vector(args.steps, args.envs), "floor (shell true)": _floor(args.steps)}
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(table(["setup", "steps/s", "steps per CPU-s"],
                [[name, str(row["steps_per_s"]), str(row["steps_per_cpu_s"])] for name, row in rows.items()]))


if __name__ == "__main__":
    main()
