"""This checkout against another, pair by pair: benchmarks/random_policy.py run alternately on both
trees (the same benchmark and policy, each tree's own taskkit), and how many times cheaper this one is.

    python benchmarks/pairs.py --against DIR [--python PYTHON] [--pairs 10] [--steps 1000]
                               [--setup random] [--task android_world] [--seed 30] [--warm] [--json]

CPU seconds move with the machine's load by a quarter from one minute to the next, and two trees
need not move alike (one that leans on system calls slows more while other work runs), so only
runs taken close together compare. Each pair runs this checkout's benchmark on this checkout and
on DIR (`--root DIR`, under `--python`: an interpreter that has DIR installed, as an older commit
in a virtualenv of its own), each in a fresh process, the same arguments, which tree goes first
alternating. A checkout older than the benchmark's policy module (issue #37's reference ffb76af)
is driven by this one's (taskkit/agents/policy_mix.py imports nothing of taskkit).

It prints each pair's steps per CPU-second and CPU milliseconds per step and per reset on both
trees, their ratios (DIR's cost over this one's: above 1, this tree is cheaper), and the median
and range of each ratio over the pairs (JSON with `--json`). A run that fails is an error naming
the tree, exit 1; bad arguments exit 2.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCHMARK = ROOT / "benchmarks" / "random_policy.py"
sys.path[:0] = [str(ROOT)]

from taskkit.report import table  # noqa: E402

FIGURES = ("steps_per_cpu_s", "cpu_ms_per_step", "cpu_ms_per_reset")
RATIOS = {"random policy": "steps_per_cpu_s", "a step": "cpu_ms_per_step", "a reset": "cpu_ms_per_reset"}


class RunFailed(Exception):
    """A benchmark run that did not finish: its tree, exit code and last line of stderr."""

    def __init__(self, root: Path, code: int, reason: str):
        super().__init__(f"the run on {root} failed (exit {code}): {reason}")
        self.code = code


def run(python: str, root: Path, args: argparse.Namespace) -> dict[str, float]:
    """One benchmark run on checkout `root` under `python`: its steps, episodes and figures."""
    command = [python, str(BENCHMARK), "--root", str(root), "--setups", args.setup, "--steps", str(args.steps),
               "--task", args.task, "--seed", str(args.seed), "--json", *(["--warm"] if args.warm else [])]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"no output from {command}"]
        raise RunFailed(root, done.returncode, lines[-1])
    row = json.loads(done.stdout)[args.setup]
    return {figure: row[figure] for figure in ("steps", "episodes", *FIGURES)}


def ratios(this: dict[str, float], other: dict[str, float]) -> dict[str, float]:
    """How many times cheaper this tree is: throughput this/other, costs other/this."""
    return {label: round(this[figure] / other[figure] if figure == "steps_per_cpu_s" else other[figure] / this[figure], 2)
            for label, figure in RATIOS.items()}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    pairs = []
    trees = [(sys.executable, ROOT), (args.python, args.against)]
    for index in range(args.pairs):
        first, second = (0, 1) if index % 2 == 0 else (1, 0)  # (which tree goes first alternates)
        figures: list[dict[str, float]] = [{}, {}]
        for tree in (first, second):
            figures[tree] = run(*trees[tree], args)
        this, other = figures
        pairs.append({"this": this, "against": other, "ratios": ratios(this, other)})
    summary = {label: {"median": round(statistics.median(p["ratios"][label] for p in pairs), 2),
                       "min": min(p["ratios"][label] for p in pairs), "max": max(p["ratios"][label] for p in pairs)}
               for label in RATIOS}
    return {"this": str(ROOT), "against": str(args.against), "setup": args.setup, "task": args.task,
            "steps": args.steps, "warm": args.warm, "pairs": pairs, "ratios": summary}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="the other checkout (a folder with taskkit/)")
    parser.add_argument("--python", default=sys.executable, help="an interpreter that has that checkout installed")
    parser.add_argument("--pairs", type=int, default=10, help="how many pairs of runs")
    parser.add_argument("--steps", type=int, default=1000, help="steps per run")
    parser.add_argument("--setup", default="random", help="benchmarks/random_policy.py's setup (default: random)")
    parser.add_argument("--task", default="android_world", help="a family or one task (random_policy.py's --task)")
    parser.add_argument("--seed", type=int, default=30, help="the policy's seed")
    parser.add_argument("--warm", action="store_true", help="reset every task once before measuring (random_policy.py)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main() -> None:
    parser = _parser()
    args = parser.parse_args()
    args.against = args.against.resolve()
    if not (args.against / "taskkit").is_dir():
        parser.error(f"--against {args.against}: no taskkit/ there; give a checkout of taskkit")
    if args.pairs < 1 or args.steps < 1:
        parser.error("--pairs and --steps must be at least 1")
    try:
        result = measure(args)
    except RunFailed as failed:
        print(f"pairs.py: error: {failed}", file=sys.stderr)
        sys.exit(2 if failed.code == 2 else 1)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    rows = [[str(i + 1), *(str(p[tree][figure]) for tree in ("this", "against") for figure in FIGURES),
             *(f"{p['ratios'][label]}×" for label in RATIOS)] for i, p in enumerate(result["pairs"])]
    rows.append(["median (range)", *[""] * (2 * len(FIGURES)),
                 *(f"{r['median']}× ({r['min']}–{r['max']})" for r in result["ratios"].values())])
    print(table(["pair", "steps/CPU-s", "ms/step", "ms/reset", "against: steps/CPU-s", "ms/step", "ms/reset",
                 "random policy", "a step", "a reset"], rows))


if __name__ == "__main__":
    main()
