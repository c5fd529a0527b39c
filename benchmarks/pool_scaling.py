"""Episodes per second with 1, 2 and 4 worker processes, each with its own simulated device.

    python benchmarks/pool_scaling.py [--episodes 120] [--combinations 3] [--workers 1,2,4]
                                      [--repeat 3] [--executor local|ray] [--json]

Runs `python -m taskkit.run --parallel N` (oracle agent) over the first tasks, by name, that run
on the simulated device — as many as `--episodes` needs at `--combinations` instances each
(`--episodes 0`: every task) — and reports wall time, episodes per second and the speed-up over
one worker (process start-up included, as a user sees it): the median of `--repeat` runs per
worker count, the counts taken in turn (1, 2, 4, 1, 2, 4, ...) so a busy moment of the machine
does not fall on one count alone. The target (issues #18 and #21):
≥ 1.7× at 2 workers on 120 episodes on a 2-core machine. With `--executor ray` the workers are
Ray actors on a local Ray instance (its start-up included).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from taskkit.report import table


def chosen_tasks(episodes: int, combinations: int) -> list[str]:
    """The first tasks by name that run on the simulated device, enough for `episodes` ([]: all)."""
    if episodes <= 0:
        return []
    listed = subprocess.run([sys.executable, "-m", "taskkit.run", "--list_tasks"], check=True, capture_output=True,
                            text=True).stdout.splitlines()[1:]
    runnable = [row.split("\t")[0] for row in listed if row.split("\t")[-1] == "any"]
    return runnable[:math.ceil(episodes / combinations)]


def measure(workers: int, combinations: int, executor: str, tasks: list[str]) -> dict[str, Any]:
    """One run's episode count and wall seconds."""
    chosen = ["--tasks", ",".join(tasks)] if tasks else []
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "taskkit.run", "--parallel", str(workers), "--n_task_combinations",
                        str(combinations), "--output_dir", out, "--executor", executor, *chosen], check=True,
                       capture_output=True)
        seconds = time.perf_counter() - started
        episodes = len((Path(out) / "results.jsonl").read_text().splitlines())
    return {"episodes": episodes, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=120, help="episodes per run (0: every task)")
    parser.add_argument("--combinations", type=int, default=3, help="instances per task")
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per worker count (the median is reported)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local", help="where the workers run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    tasks = chosen_tasks(args.episodes, args.combinations)
    counts = [int(w) for w in args.workers.split(",")]
    runs: dict[int, list[dict[str, Any]]] = {count: [] for count in counts}
    for _ in range(args.repeat):
        for count in counts:
            runs[count].append(measure(count, args.combinations, args.executor, tasks))
    rows = []
    for count in counts:
        seconds = statistics.median(run["seconds"] for run in runs[count])
        episodes = runs[count][0]["episodes"]
        rows.append({"workers": count, "episodes": episodes, "seconds": round(seconds, 2),
                     "episodes_per_s": round(episodes / seconds, 1)})
    base = rows[0]["episodes_per_s"]
    for row in rows:
        row["speedup"] = round(row["episodes_per_s"] / base, 2)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return
    print(table(["workers", "episodes", "seconds", "episodes/s", "speed-up"],
                [[str(r["workers"]), str(r["episodes"]), f"{r['seconds']}", f"{r['episodes_per_s']}", f"{r['speedup']}x"]
                 for r in rows]))


if __name__ == "__main__":
    main()
