"""Episodes per second with 1, 2 and 4 worker processes, each with its own simulated device.

    python benchmarks/pool_scaling.py [--combinations 3] [--workers 1,2,4] [--executor local|ray] [--json]

Runs `python -m taskkit.run --parallel N` over every registered task (oracle agent) and reports
wall time, episodes per second and the speed-up over one worker (process start-up included, as
a user sees it). The target from the scale issue: ≥ 1.7× at 2 workers on a 2-core machine. With
`--executor ray` the workers are Ray actors on a local Ray instance (its start-up included).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from taskkit.report import table


def measure(workers: int, combinations: int, executor: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "taskkit.run", "--parallel", str(workers), "--n_task_combinations",
                        str(combinations), "--output_dir", out, "--executor", executor], check=True, capture_output=True)
        seconds = time.perf_counter() - started
        episodes = len((Path(out) / "results.jsonl").read_text().splitlines())
    return {"workers": workers, "episodes": episodes, "seconds": round(seconds, 2),
            "episodes_per_s": round(episodes / seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combinations", type=int, default=3, help="instances per task")
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--executor", choices=("local", "ray"), default="local", help="where the workers run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    rows = [measure(int(w), args.combinations, args.executor) for w in args.workers.split(",")]
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
