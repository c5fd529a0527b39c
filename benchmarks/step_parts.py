"""Where a random-policy step's CPU goes: each part's own thread CPU (what it spent outside the
other parts listed), per step, over warm steps of benchmarks/random_policy.py's policy.

    python benchmarks/step_parts.py [--steps 1500] [--seed 30] [--task android_world] [--json]

Wall-clock runs of the whole benchmark vary by ±15 % on a shared two-core machine, more than a
change to one part moves them; callgrind counts no system call. Each part's share of the same run
is steadier: the parts are timed in one process, side by side, and a change shows as its part's
share going down. The resets between episodes are not counted (their CPU is reported apart).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import gymnasium  # noqa: E402

import random_policy  # noqa: E402 - the policy, its warm-up and its family
import taskkit.gym  # noqa: E402 - registers taskkit/Task-v0
import taskkit.sim.gui as gui  # noqa: E402
from taskkit.device.services import ui  # noqa: E402
from taskkit.report import table  # noqa: E402
from taskkit.sim import logbuffer, state as sim_state  # noqa: E402
from taskkit.sim.device import SimDevice  # noqa: E402
from taskkit.sim.gui import cache, session  # noqa: E402

#: label -> (owner, attribute): the callables timed; each one's CPU counts without the others' inside it
PARTS: dict[str, tuple[Any, str]] = {
    "the host: gym, runner, the task's check": (taskkit.gym.PhoneEnv, "step"),
    "the shell and the commands' own work": (SimDevice, "_shell"),
    "building screens": (gui, "build"),
    "window_dump.xml written": (gui, "_xml"),
    "taps, keys and text handled": (gui, "handle"),
    "the GUI state read (Session)": (session.Session, "__init__"),
    "the GUI state saved (Session.save)": (session.Session, "save"),
    "device.json saved": (sim_state.SimState, "save"),
    "log lines appended to the file": (logbuffer, "_write"),
    "kept screens checked (cache._holds)": (cache, "_holds"),
    "the dump parsed on the host": (ui, "parse_window_dump"),
    "the elements described": (taskkit.gym.PhoneEnv, "_elements_text"),
}


class _Clock:
    """Each part's own CPU and calls: a part's time inside another part counts for it alone."""

    def __init__(self) -> None:
        self.own: dict[str, float] = dict.fromkeys(PARTS, 0.0)
        self.calls: dict[str, int] = dict.fromkeys(PARTS, 0)
        self._inner: list[float] = []  # per open part: the time of the parts inside it

    def timed(self, label: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def part(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            self._inner.append(0.0)
            try:
                return func(*args, **kwargs)
            finally:
                spent = time.thread_time() - started
                self.own[label] += spent - self._inner.pop()
                self.calls[label] += 1
                if self._inner:
                    self._inner[-1] += spent
        return part

    def reset(self) -> None:
        self.own = dict.fromkeys(PARTS, 0.0)
        self.calls = dict.fromkeys(PARTS, 0)


@contextlib.contextmanager
def _timing(clock: _Clock) -> Iterator[None]:
    originals = {label: getattr(owner, name) for label, (owner, name) in PARTS.items()}
    try:
        for label, (owner, name) in PARTS.items():
            setattr(owner, name, clock.timed(label, originals[label]))
        yield
    finally:
        for label, (owner, name) in PARTS.items():
            setattr(owner, name, originals[label])


def measure(steps: int, seed: int, task: str = random_policy.FAMILY) -> dict[str, Any]:
    """Warm up, then time `steps` random-policy steps part by part (resets apart)."""
    env = gymnasium.make("taskkit/Task-v0", task=task).unwrapped
    rng, clock = random.Random(seed), _Clock()
    reset_cpu, episodes = 0.0, 0
    try:
        random_policy._warm_up(env, seed)
        with _timing(clock):
            observation, info = env.reset(seed=seed)
            clock.reset()
            for _ in range(steps):
                observation, _, terminated, truncated, info = env.step(random_policy.random_policy(rng, observation, info))
                if terminated or truncated:
                    own, calls = dict(clock.own), dict(clock.calls)
                    started = time.thread_time()
                    episodes += 1
                    observation, info = env.reset(seed=seed + episodes)
                    reset_cpu += time.thread_time() - started
                    clock.own, clock.calls = own, calls  # what the reset spent is not a step's
    finally:
        env.close()
    total = sum(clock.own.values())
    parts = {label: {"ms_per_step": round(1000 * clock.own[label] / steps, 4),
                     "share": round(clock.own[label] / total, 4) if total else 0.0,
                     "calls_per_step": round(clock.calls[label] / steps, 2)} for label in PARTS}
    return {"steps": steps, "episodes": episodes, "cpu_ms_per_step": round(1000 * total / steps, 3),
            "cpu_ms_per_reset": round(1000 * reset_cpu / max(episodes, 1), 2), "parts": parts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1500, help="steps timed (after a warm-up reset of every task)")
    parser.add_argument("--seed", type=int, default=30, help="the policy's seed; episode i resets with seed + i")
    parser.add_argument("--task", default=random_policy.FAMILY, help="a family (default: android_world) or one task")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    result = measure(args.steps, args.seed, args.task)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    rows = sorted(result["parts"].items(), key=lambda item: -item[1]["share"])
    print(table(["part", "CPU ms/step", "share", "calls/step"],
                [[label, f"{part['ms_per_step']:.3f}", f"{100 * part['share']:.1f} %", f"{part['calls_per_step']:.2f}"]
                 for label, part in rows]))
    print(f"{result['steps']} steps: {result['cpu_ms_per_step']} CPU ms a step; "
          f"{result['episodes']} resets between them: {result['cpu_ms_per_reset']} CPU ms each (not in the table)")


if __name__ == "__main__":
    main()
