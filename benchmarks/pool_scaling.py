"""Episodes per second with 1, 2 and 4 worker processes, each with its own simulated device.

    python benchmarks/pool_scaling.py [--episodes 120] [--combinations 3] [--workers 1,2,4]
                                      [--repeat 3] [--executor local|ray] [--agent oracle]
                                      [--suite_family FAMILY] [--json]

Runs `python -m taskkit.run --parallel N --agent AGENT` (the oracle by default; the headline
random policy is `--agent random_policy --suite_family android_world`)
over the first tasks, by name, that run on the simulated device (of the family, if one is given)
— as many as `--episodes` needs at `--combinations` instances each (`--episodes 0`: every task)
— and reports wall time, episodes per second and the speed-up over
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


class NothingMeasured(RuntimeError):
    """The benchmark would measure nothing (no task chosen, no episode run): it stops, saying why."""


def select(listed: list[dict[str, Any]], episodes: int, combinations: int) -> list[str]:
    """From `--list_tasks --json`, the first tasks by name that run on the simulated device, enough
    for `episodes`; NothingMeasured if there are too few for them."""
    runnable = sorted(task["name"] for task in listed if task["runs_on"] == "any")
    wanted = math.ceil(episodes / combinations)
    if len(runnable) < wanted:
        raise NothingMeasured(f"--episodes {episodes} at --combinations {combinations} needs {wanted} task(s) that "
                              f"run on the simulated device; --list_tasks has {len(runnable)}")
    return runnable[:wanted]


def chosen_tasks(episodes: int, combinations: int, family: str | None = None) -> list[str]:
    """The first tasks by name that run on the simulated device (of `family`), enough for
    `episodes` ([]: all)."""
    if episodes <= 0:
        return []
    listed = subprocess.run([sys.executable, "-m", "taskkit.run", "--list_tasks", "--json", *_family(family)],
                            check=True, capture_output=True, text=True).stdout
    return select(json.loads(listed), episodes, combinations)


def _family(family: str | None) -> list[str]:
    return ["--suite_family", family] if family else []


def run_command(workers: int, combinations: int, executor: str, tasks: list[str], out: str, agent: str = "oracle",
                family: str | None = None) -> list[str]:
    """The `taskkit.run` command of one measured run (every task of `family`, or of the suite,
    when `tasks` is empty)."""
    chosen = ["--tasks", ",".join(tasks)] if tasks else _family(family)
    return [sys.executable, "-m", "taskkit.run", "--parallel", str(workers), "--n_task_combinations", str(combinations),
            "--output_dir", out, "--executor", executor, "--agent", agent, *chosen]


def measure(workers: int, combinations: int, executor: str, tasks: list[str], agent: str = "oracle",
            family: str | None = None) -> dict[str, Any]:
    """One run's episode count and wall seconds."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run(run_command(workers, combinations, executor, tasks, out, agent, family), check=True,
                       capture_output=True)
        seconds = time.perf_counter() - started
        results = Path(out) / "results.jsonl"
        episodes = len(results.read_text().splitlines()) if results.exists() else 0
    if not episodes:
        raise NothingMeasured(f"the run with --parallel {workers} recorded no episode")
    return {"episodes": episodes, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=120, help="episodes per run (0: every task)")
    parser.add_argument("--combinations", type=int, default=3, help="instances per task")
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per worker count (the median is reported)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local", help="where the workers run")
    parser.add_argument("--agent", default="oracle", help="taskkit.run's --agent (default: the oracle)")
    parser.add_argument("--suite_family", default=None, help="take the tasks of this family only")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.combinations < 1 or args.repeat < 1:
        parser.error("--combinations and --repeat must be at least 1")
    try:
        _report(args, chosen_tasks(args.episodes, args.combinations, args.suite_family))
    except NothingMeasured as error:
        sys.exit(f"pool_scaling: measures nothing: {error}")


def _report(args: argparse.Namespace, tasks: list[str]) -> None:
    """Measure every worker count `args.repeat` times and print the table (or JSON)."""
    counts = [int(w) for w in args.workers.split(",")]
    runs: dict[int, list[dict[str, Any]]] = {count: [] for count in counts}
    for _ in range(args.repeat):
        for count in counts:
            runs[count].append(measure(count, args.combinations, args.executor, tasks, args.agent, args.suite_family))
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
