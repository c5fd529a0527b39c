"""How fast the simulated device runs a whole suite.

    python benchmarks/sim_suite.py [--combinations 10] [--agent oracle] [--side_effects record|off] [--json]

Runs every built-in task that runs on the simulated device `--combinations` times on one fresh
simulator (with its GUI, as `taskkit.run` opens it, and with the side-effect diff `taskkit.run`
records by default) and prints, per task, episodes, mean device round trips and mean
milliseconds per episode, then the totals.
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time

from taskkit import agents, loading, suite
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.report import table
from taskkit.runner import EpisodeOptions, run_episode


def measure(combinations: int, agent_name: str, seed: int, side_effects: str = "record") -> dict:
    loading.load_builtin()
    instances = [instance for instance in suite.build_suite(seed, n_task_combinations=combinations)
                 if not instance.task.real_device_only]  # left out on the simulator, as taskkit.run does
    device = sim_device()
    env, agent = Env(device), agents.load(agent_name)
    per_task: dict[str, list[tuple[float, int]]] = collections.defaultdict(list)
    scores = []
    started = time.perf_counter()
    try:
        for instance in instances:
            device.stats.reset()
            t0 = time.perf_counter()
            result = run_episode(env, instance, agent, seed, options=EpisodeOptions("report" if side_effects == "record" else "off"))
            per_task[instance.task.name].append((time.perf_counter() - t0, device.stats.round_trips))
            scores.append(result.score)
    finally:
        device.close()
    total = time.perf_counter() - started
    return {
        "episodes": len(instances),
        "agent": agent_name,
        "side_effects": side_effects,
        "total_s": round(total, 3),
        "episodes_per_s": round(len(instances) / total, 1),
        "mean_score": round(statistics.fmean(scores), 4),
        "tasks": {
            name: {
                "episodes": len(rows),
                "mean_ms": round(1000 * statistics.fmean(t for t, _ in rows), 2),
                "mean_round_trips": round(statistics.fmean(n for _, n in rows), 1),
            }
            for name, rows in sorted(per_task.items())
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combinations", type=int, default=10)
    parser.add_argument("--agent", default="oracle")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--side_effects", choices=("record", "off"), default="record",
                        help="record each episode's side effects, as taskkit.run does by default")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    data = measure(args.combinations, args.agent, args.seed, args.side_effects)
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        print()
        return
    rows = [[name, str(t["episodes"]), f"{t['mean_round_trips']:.1f}", f"{t['mean_ms']:.1f}"] for name, t in data["tasks"].items()]
    print(table(["task", "episodes", "round trips/episode", "ms/episode"], rows))
    print(f"\n{data['episodes']} episodes ({data['agent']}, side effects {data['side_effects']}) in {data['total_s']:.2f} s = "
          f"{data['episodes_per_s']} episodes/s, mean score {data['mean_score']}")


if __name__ == "__main__":
    main()
