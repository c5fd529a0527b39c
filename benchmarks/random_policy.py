"""The headline throughput: a seeded random policy over the android_world family, resets included.

    python benchmarks/random_policy.py [--steps 300] [--episodes 0] [--seed 30] [--task android_world]
                                       [--setups random,random_screenshots,wait,wait_screenshots] [--warm] [--json]

One `taskkit/Task-v0` environment (taskkit.gym) in process on a fresh simulated device, over the
android_world family (`--task`: another family, or one task): each `reset` draws a task of the
family (and sets it up inside taskkit's restore point), and the policy steps until it declares
completion or the step budget ends the episode. The policy is taskkit.agents.builtin's `mixed_action` (click a random element 55 %, type
into a field 10 %, scroll 10 %, back or home 13 %, open one of the task's apps 7 %, declare
completion 5 %), reading only what the environment observes (the numbered element list). Each
setup runs `--steps` steps (and at most `--episodes` episodes, 0: no bound) and reports steps per
wall second and per CPU second (this process and its children), with and without screenshots, and
how much CPU a step and a reset take (and a reset's device round trips: the restore, the next
restore point with the set-up, the HOME press and the first observation). The `wait` rows step only `wait` (the cheapest step there is,
resets included): a lower bound on a step's cost, not a figure for real work.

A process pays some work once: the first reset of each task imports its app's module, compiles its
goal template and warms Faker. Without `--warm` the measured steps pay it (a short run's figure);
with `--warm`, every task of `--task` is reset once first, on seeds the measured episodes do not
use (so no content they draw is made in advance), and that CPU is reported apart as
`warm_cpu_s`: the steps then cost what they cost in a long run (training, a large suite).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import resource
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]


def _measured_root(argv: list[str]) -> Path:
    """`--root DIR` (another checkout whose taskkit this benchmark measures, as
    benchmarks/pairs.py runs it), read before taskkit is imported; else this checkout."""
    early = argparse.ArgumentParser(add_help=False)  # (main() parses the same option for --help)
    early.add_argument("--root", type=Path, default=ROOT)
    return early.parse_known_args(argv)[0].root.resolve()


def _found_elsewhere(root: Path) -> str | None:
    """A package of taskkit this interpreter would import from outside checkout `root` (an
    editable install maps `taskkit.apps` and `taskkit.validators` to its own checkout, whatever
    comes first on sys.path), as `name from path`; None when all come from `root`."""
    for name in ("taskkit", "taskkit.apps", "taskkit.validators"):
        spec = importlib.util.find_spec(name)
        where = spec.origin if spec is not None else None
        if where is None and spec is not None and spec.submodule_search_locations:
            where = next(iter(spec.submodule_search_locations), None)
        if where is not None and not Path(where).resolve().is_relative_to(root):
            return f"{name} from {Path(where).resolve().parent}"
    return None


MEASURED = _measured_root(sys.argv[1:]) if __name__ == "__main__" else ROOT  # (imported: its own checkout)
sys.path[:0] = [str(MEASURED)]
if (_elsewhere := _found_elsewhere(MEASURED)) is not None:
    print(f"{Path(__file__).name}: error: {MEASURED}: this interpreter imports {_elsewhere}; run the "
          f"benchmark with an interpreter that has that checkout installed (pip install -e {MEASURED})", file=sys.stderr)
    sys.exit(2)

import gymnasium  # noqa: E402

import taskkit.gym  # noqa: E402,F401 - registers taskkit/Task-v0
from taskkit import registry  # noqa: E402
from taskkit.report import table  # noqa: E402


def _policy_mix() -> ModuleType:
    """taskkit.agents.policy_mix, this checkout's: a leaf module (no taskkit imports), so an
    older checkout measured with `--root` is driven by the same policy as this one."""
    spec = importlib.util.spec_from_file_location("benchmark_policy_mix", ROOT / "taskkit" / "agents" / "policy_mix.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mixed_step = _policy_mix().mixed_step

FAMILY = "android_world"  # the headline's tasks
_LINE = re.compile(r"^(\d+): .* \(([^()]*)\)$")  # Observation.describe_elements: `index: 'label' (Kind, flags)`


def _cpu() -> float:
    """CPU seconds of this process and its ended children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _indices(elements: str) -> tuple[int, list[int], list[int]]:
    """From the observed element list: how many elements, which are editable, which scrollable."""
    count, editable, scrollable = 0, [], []
    for line in elements.splitlines():
        match = _LINE.match(line)
        if match is None:  # a label with a line break: its continuation
            continue
        index, flags = int(match.group(1)), match.group(2).split(", ")[1:]
        count = index + 1
        if "editable" in flags:
            editable.append(index)
        if "scrollable" in flags:
            scrollable.append(index)
    return count, editable, scrollable


Policy = Callable[[random.Random, dict[str, Any], dict[str, Any]], str]


def random_policy(rng: random.Random, observation: dict[str, Any], info: dict[str, Any]) -> str:
    """The mixed random step, as AndroidWorld JSON."""
    count, editable, scrollable = _indices(observation["elements"])
    apps = registry.get(info["task"]).app_names
    return json.dumps(mixed_step(rng, count, editable, scrollable, apps))


def wait_policy(rng: random.Random, observation: dict[str, Any], info: dict[str, Any]) -> str:
    """`wait`, the cheapest step (episodes end on the step budget)."""
    return '{"action_type": "wait"}'


WARM_SEEDS = 1_000_000  # the warm-up's episodes use seeds from seed + this: none of the measured ones


def _warm_up(env: Any, seed: int) -> float:
    """Reset each task of `env` once, on seeds the measured episodes never use; the CPU it took."""
    before = _cpu()
    for offset, cls in enumerate(env.tasks):
        env.reset(seed=seed + WARM_SEEDS + offset, options={"task": cls.name})
    return _cpu() - before


def measure(policy: Policy, screenshot: bool, steps: int, episodes: int, seed: int,
            task: str | list[str] = FAMILY, warm: bool = False) -> dict[str, Any]:
    """Run `policy` for `steps` steps (at most `episodes` episodes) on a fresh environment of
    `task` (a family or a task); with `warm`, after one reset of each of its tasks."""
    env = gymnasium.make("taskkit/Task-v0", task=task, screenshot=screenshot).unwrapped
    rng = random.Random(seed)
    reset_cpu, reset_trips, taken, started = 0.0, 0, 0, 0
    try:
        warm_cpu = _warm_up(env, seed) if warm else 0.0
        wall, cpu = time.perf_counter(), _cpu()
        while taken < steps and (not episodes or started < episodes):
            before, trips = _cpu(), env.device.stats.round_trips
            observation, info = env.reset(seed=seed + started)
            reset_cpu += _cpu() - before
            reset_trips += env.device.stats.round_trips - trips
            started += 1
            done = False
            while not done and taken < steps:
                observation, _, terminated, truncated, info = env.step(policy(rng, observation, info))
                taken += 1
                done = terminated or truncated
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    finally:
        env.close()
    return {"steps": taken, "episodes": started, "steps_per_s": round(taken / wall, 1),
            "steps_per_cpu_s": round(taken / max(cpu, 1e-9), 1),
            "cpu_ms_per_step": round(1000 * (cpu - reset_cpu) / max(taken, 1), 2),
            "cpu_ms_per_reset": round(1000 * reset_cpu / max(started, 1), 1),
            "round_trips_per_reset": round(reset_trips / max(started, 1), 2), "warm_cpu_s": round(warm_cpu, 2)}


#: name -> (the table's label, policy, screenshots)
SETUPS: dict[str, tuple[str, Policy, bool]] = {
    "random": ("random policy", random_policy, False),
    "random_screenshots": ("random policy, screenshots", random_policy, True),
    "wait": ("wait (lower bound on cost)", wait_policy, False),
    "wait_screenshots": ("wait (lower bound on cost), screenshots", wait_policy, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="steps per setup")
    parser.add_argument("--episodes", type=int, default=0, help="at most this many episodes per setup (0: no bound)")
    parser.add_argument("--seed", type=int, default=30, help="the policy's seed; episode i resets with seed + i")
    parser.add_argument("--task", default=FAMILY, help="a family (default: android_world) or one task")
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma-separated setups to run")
    parser.add_argument("--warm", action="store_true",
                        help="reset every task once before measuring (a long run's steady state; its CPU is reported apart)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose taskkit to measure (default: this one), with this benchmark and "
                             "its policy; the interpreter must have that checkout installed (benchmarks/pairs.py)")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.setups.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SETUPS]
    if args.steps < 1 or args.episodes < 0 or unknown or not chosen:
        parser.error(f"--steps must be at least 1, --episodes at least 0, --setups among: {', '.join(SETUPS)}")
    rows = {name: measure(*SETUPS[name][1:], args.steps, args.episodes, args.seed, args.task, args.warm)
            for name in chosen}
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    columns = ("steps", "episodes", "steps_per_s", "steps_per_cpu_s", "cpu_ms_per_step", "cpu_ms_per_reset",
               "round_trips_per_reset", "warm_cpu_s")
    print(table(["setup", "steps", "episodes", "steps/s", "steps per CPU-s", "CPU ms/step", "CPU ms/reset",
                 "round trips/reset", "warm-up CPU s"],
                [[SETUPS[name][0], *(str(row[column]) for column in columns)] for name, row in rows.items()]))


if __name__ == "__main__":
    main()
