"""Environment steps per second of `taskkit/Task-v0` on Ray actors (taskkit.gym_ray), for training.

    python benchmarks/ray_vector_env.py [--steps 200] [--json]

One `PhoneEnv` in process (no Ray), then `ray_vector_env` with 1 and 2 actors on a local Ray
instance of 2 CPUs, each stepping `wait` actions on SystemWifiTurnOn (each step observes the
screen: the element dump). Per wall second; a vector step counts one step per actor. "driver CPU"
is this process's CPU time per step (in process: the whole step; on Ray: sending the actions,
waiting, batching), which bounds how many actors one driver keeps busy: see docs/training.md.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

import ray  # noqa: E402

from taskkit.gym import PhoneEnv  # noqa: E402
from taskkit.gym_ray import ray_vector_env  # noqa: E402
from taskkit.report import table  # noqa: E402

TASK = "SystemWifiTurnOn"
WAIT = json.dumps({"action_type": "wait"})


def _rate(calls: int, steps_per_call: int, call: Callable[[], object]) -> dict[str, float]:
    """Steps per wall second over `calls` calls of `call`, and this process's CPU ms per step."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        call()
    wall, cpu, steps = time.perf_counter() - wall, time.process_time() - cpu, calls * steps_per_call
    return {"steps_per_s": round(steps / wall, 1), "driver_cpu_ms_per_step": round(cpu * 1000 / steps, 2)}


def _in_process(steps: int) -> dict[str, float]:
    env = PhoneEnv(TASK)
    try:
        env.reset(seed=30)
        return _rate(steps, 1, lambda: env.step(WAIT)[3] and env.reset(seed=30))
    finally:
        env.close()


def _on_ray(steps: int, actors: int) -> dict[str, float]:
    envs = ray_vector_env(actors, task=TASK)
    try:
        envs.reset(seed=30)  # a truncated sub-env resets on its next step (Gymnasium's NEXT_STEP)
        return _rate(steps // actors, actors, lambda: envs.step((WAIT,) * actors))
    finally:
        envs.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {"in process (no Ray)": _in_process(args.steps)}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for actors in (1, 2):
            rows[f"Ray, {actors} actor(s)"] = _on_ray(args.steps, actors)
    finally:
        ray.shutdown()
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(table(["setup", "steps/s", "driver CPU ms per step"],
                [[name, str(row["steps_per_s"]), str(row["driver_cpu_ms_per_step"])] for name, row in rows.items()]))


if __name__ == "__main__":
    main()
