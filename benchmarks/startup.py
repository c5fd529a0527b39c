"""CPU seconds from process start to the first episode of a one-task run, phase by phase.

    python benchmarks/startup.py [--tasks SimpleSmsSend] [--repeat 5] [--json]

Runs `python -m taskkit.run --tasks TASK --n_task_combinations 1` in fresh processes (one
untimed warm-up first, as a user's second run: Python's bytecode, taskkit's spec-header cache and
the built-in tasks' index written) and reports the median CPU seconds (user + system) of each phase:
  import    interpreter start and `import taskkit.run`;
  registry  listing the tasks (from the index), building or compiling the chosen ones, building
            the suite, loading the agent;
  device    opening the simulated device (and recovering any restore point);
  to first  the sum: process start to the first episode;
  episode   the first episode itself;
and how many specs the run compiled and task classes it built. The target (issues #21 and #37,
with every extra installed): ≤ 0.5 s to the first episode.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

from taskkit.report import table

PHASES = ("import", "registry", "device", "to_first", "episode")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(out: str, argv: list[str]) -> None:
    """Run taskkit.run in this process with stamps around its phases; write them to `out`."""
    stamps: dict[str, float] = {}
    import taskkit.run as run_module  # the first phase ends here

    stamps["imported"] = _cpu()
    from taskkit import connect, registry, runner

    opened, run_episode = connect.ready_device, runner.run_episode

    @contextlib.contextmanager
    def timed_device(*args: Any, **kwargs: Any) -> Iterator[Any]:
        stamps.setdefault("device_start", _cpu())
        with opened(*args, **kwargs) as device:
            stamps.setdefault("device_ready", _cpu())
            yield device

    def timed_episode(*args: Any, **kwargs: Any) -> Any:
        stamps.setdefault("episode_start", _cpu())
        try:
            return run_episode(*args, **kwargs)
        finally:
            stamps.setdefault("episode_end", _cpu())

    connect.ready_device, runner.run_episode = timed_device, timed_episode
    with contextlib.redirect_stdout(sys.stderr):
        code = run_module.run(["taskkit.run", *argv])
    phases = {
        "import": stamps["imported"],
        "registry": stamps["device_start"] - stamps["imported"],
        "device": stamps["device_ready"] - stamps["device_start"],
        "to_first": stamps["episode_start"],
        "episode": stamps["episode_end"] - stamps["episode_start"],
    }
    entries = [registry.peek(name) for name in registry.names()]
    built = [entry for entry in entries if not isinstance(entry, registry.Deferred)]
    compiled = sum(1 for entry in built if str(entry.source).endswith(".textproto"))
    Path(out).write_text(json.dumps({"exit": code, "compiled": compiled, "built": len(built), **phases}))


def measure(task: str) -> dict[str, Any]:
    """One fresh process's phases."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "phases.json")
        subprocess.run([sys.executable, __file__, "--child", out, "--", "--tasks", task, "--n_task_combinations", "1"],
                       check=True, capture_output=True, env=env)
        found = json.loads(Path(out).read_text())
    if found["exit"] != 0:
        raise SystemExit(f"the run of {task} exited {found['exit']}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="SimpleSmsSend", help="the one task the run takes")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (the median is reported)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.child:
        child(args.child, [a for a in rest if a != "--"])
        return
    measure(args.tasks)  # warm-up: bytecode and the spec-header cache as a second run finds them
    runs = [measure(args.tasks) for _ in range(args.repeat)]
    result = {phase: round(statistics.median(r[phase] for r in runs), 3) for phase in PHASES}
    result.update(task=args.tasks, repeat=args.repeat, specs_compiled=runs[0]["compiled"],
                  classes_built=runs[0]["built"])
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    print(table(["phase", "CPU s (median)"], [[phase.replace("_", " "), f"{result[phase]:.3f}"] for phase in PHASES]))
    print(f"\n{args.tasks}: {result['classes_built']} task class(es) built, {result['specs_compiled']} spec(s) "
          f"compiled; median of {args.repeat} fresh processes")


if __name__ == "__main__":
    main()
