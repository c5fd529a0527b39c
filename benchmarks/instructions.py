"""Instructions a checkout executes for the same random-policy episodes: a count that does not move
with the machine's load, to tell a change of a few per cent that CPU seconds cannot show.

    python benchmarks/instructions.py [--episodes 20] [--seed 30] [--against DIR] [--json]

Each checkout runs in a process of its own under valgrind's callgrind (Debian's `valgrind`):
benchmarks/random_policy.py's warm-up, then the counters are zeroed (`callgrind_control -z`) and
`--episodes` episodes of its seeded random policy on the android_world family run, resets
included, and are counted. `--against DIR` counts a second checkout (one with
benchmarks/random_policy.py) the same way, at the same time, and gives the ratio. Each process
gets an empty taskkit cache folder (TASKKIT_CACHE_DIR): whether a set-up's picture is drawn or
read from the machine's cache would otherwise decide a tenth of the count.

Counted: user-space instructions of the Python process (the interpreter, SQLite, Pillow). Not
counted: the kernel's work for the system calls (`strace -c -f -p PID` counts those) and waiting.
Under callgrind a run takes about fifty times as long, so few episodes are counted; the episodes
are the same seeds in both checkouts, so their work is the same.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ("valgrind", "callgrind_control")
_TOTAL = re.compile(r"^(?:summary|totals):\s+(\d+)", re.M)


def _child(root: Path, episodes: int, seed: int) -> None:
    """Run in the measured process: the warm-up, then the counted episodes between two requests
    to callgrind (zero the counters, dump them)."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    import gymnasium

    import random_policy  # the measured checkout's policy, warm-up and family
    import taskkit.gym  # noqa: F401 - registers taskkit/Task-v0

    env = gymnasium.make("taskkit/Task-v0", task=random_policy.FAMILY, screenshot=False).unwrapped
    random_policy._warm_up(env, seed)
    rng, steps = random.Random(seed), 0
    _control("-z")
    for episode in range(episodes):
        observation, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(random_policy.random_policy(rng, observation, info))
            steps += 1
            done = terminated or truncated
    _control("-d")
    print(json.dumps({"steps": steps}))
    env.close()


def _control(flag: str) -> None:
    subprocess.run(["callgrind_control", flag, str(os.getpid())], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _start(root: Path, episodes: int, seed: int, folder: Path) -> subprocess.Popen:
    """The callgrind run of checkout `root`, writing its counts into `folder`."""
    cache = folder / "cache"
    cache.mkdir()
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/callgrind.out.%p",
               sys.executable, str(Path(__file__).resolve()), "--child", str(root),
               "--episodes", str(episodes), "--seed", str(seed)]
    env = {**os.environ, "TASKKIT_CACHE_DIR": str(cache)}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(run: subprocess.Popen, folder: Path, root: Path) -> dict[str, Any]:
    out, err = run.communicate()
    if run.returncode != 0:
        tail = err.strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"instructions.py: the run of {root} failed (exit {run.returncode}): {tail[0]}")
    dumps = sorted(folder.glob("callgrind.out.*.1"))  # the dump requested after the episodes
    if not dumps:
        raise SystemExit(f"instructions.py: callgrind wrote no dump for {root}")
    match = _TOTAL.search(dumps[0].read_text(errors="replace"))
    if match is None:
        raise SystemExit(f"instructions.py: no total in {dumps[0]}")
    steps = json.loads(out.strip().splitlines()[-1])["steps"]
    return {"checkout": str(root), "instructions": int(match.group(1)), "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20, help="episodes counted (after the warm-up)")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--against", type=Path, help="another checkout to count the same way")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        _child(args.child, args.episodes, args.seed)
        return
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        print(f"instructions.py: {', '.join(missing)} not found; install valgrind "
              "(Debian: apt-get install valgrind)", file=sys.stderr)
        raise SystemExit(2)
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    for root in roots[1:]:
        if not (root / "benchmarks" / "random_policy.py").is_file():
            print(f"instructions.py: {root} has no benchmarks/random_policy.py; give a checkout of taskkit "
                  "that has it", file=sys.stderr)
            raise SystemExit(2)
    with tempfile.TemporaryDirectory(prefix="taskkit-instructions-") as tmp:
        folders = [Path(tmp) / str(index) for index in range(len(roots))]
        for folder in folders:
            folder.mkdir()
        runs = [_start(root, args.episodes, args.seed, folder) for root, folder in zip(roots, folders)]
        results = [_finish(run, folder, root) for run, folder, root in zip(runs, folders, roots)]
    for result in results:
        result["per_episode"] = result["instructions"] // args.episodes
    report: dict[str, Any] = {"episodes": args.episodes, "seed": args.seed, "runs": results}
    if len(results) == 2:
        report["ratio"] = round(results[1]["instructions"] / results[0]["instructions"], 4)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    from taskkit.report import table

    rows = [[r["checkout"], f"{r['instructions']:,}", f"{r['per_episode']:,}", str(r["steps"])] for r in results]
    print(table(["checkout", "instructions", "per episode", "steps"], rows))
    if "ratio" in report:
        print(f"{results[1]['checkout']} executes {report['ratio']:.3f}× the instructions of this checkout")


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT)]
    main()
