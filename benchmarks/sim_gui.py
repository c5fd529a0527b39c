"""What the simulated device's GUI costs, in process: memory, cold start and one agent step.

    python benchmarks/sim_gui.py [--steps 50] [--json]

Fresh process: a new Python process that imports taskkit and opens one device (wall and CPU).
Cold start: a fresh simulated device with every app's databases and the GUI, built in a new
directory, until its first screen dump (the median of a few). Memory: Python heap (tracemalloc
peak) and resident set growth while one device starts and takes the steps, measured in a run of
its own (tracing slows Python down, so no timing is taken with it on). One step, as an agent
takes it: a screen read (foreground + dump, parsed into elements) and a tap on an element found
in it — on Settings › Display (a switch) and in a Simple SMS Messenger thread (the compose box);
and a screenshot. Targets from the GUI issue: ≤ 50 MB, ≤ 0.5 s to start, ≤ 20 ms per step
(MobileGym: about 400 MB and 3 s per instance).
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Callable

from taskkit.apps import calendar, sms
from taskkit.connect import sim_device
from taskkit.report import table
from taskkit.rng import TaskRng
from taskkit.sim.device import SimDevice


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def tap_step(label: str) -> Callable[[SimDevice], None]:
    """One agent step: read the screen, tap the element labelled `label`."""
    def step(device: SimDevice) -> None:
        screen = device.ui.screen()
        element = next(e for e in screen.elements if label in (e.text, e.content_description))
        device.check("input tap %d %d" % element.bbox.center)
    return step


SCENES: dict[str, tuple[list[str], Callable[[SimDevice], None]]] = {
    "settings_step_ms": (["am start -a android.settings.DISPLAY_SETTINGS"], tap_step("Adaptive brightness")),
    "sms_step_ms": (["am start -a android.intent.action.SENDTO -d smsto:+12125550134"], tap_step("Type a message\u2026")),
    # Simple Calendar Pro's month view (42 cells) with 20 events stored; the step focuses its search field
    "calendar_step_ms": (["am start -n com.simplemobiletools.calendar.pro/.activities.MainActivity"],
                         tap_step("Search")),
}


def cold_start() -> tuple[float, SimDevice]:
    started = time.perf_counter()
    device = sim_device()
    device.ui.screen()
    return time.perf_counter() - started, device


def fresh_process_start(runs: int = 3) -> dict[str, float]:
    """Median wall and CPU seconds of a new Python process that imports taskkit, opens a simulated
    device with its GUI (as `taskkit.run` does) and closes it: what a run or a worker pays first."""
    code = "from taskkit.connect import sim_device; sim_device().close()"
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        begin = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        walls.append(time.perf_counter() - begin)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {"fresh_process_start_s": round(statistics.median(walls), 3),
            "fresh_process_start_cpu_s": round(statistics.median(cpus), 3)}


def timed(device: SimDevice, action: Callable[[SimDevice], object], count: int) -> float:
    """Median milliseconds of `action` over `count` runs."""
    times = []
    for _ in range(count):
        begin = time.perf_counter()
        action(device)
        times.append(time.perf_counter() - begin)
    return round(1000 * statistics.median(times), 2)


def _with_messages(device: SimDevice) -> None:
    """20 messages in one thread and 20 calendar events."""
    for i in range(20):
        sms.receive(device, "+12125550134", f"Message number {i} in a long thread", date_ms=1697380000000 + i)
    calendar.EVENTS.insert(device, calendar.noise_events(TaskRng(7), 20))


def memory(steps: int) -> dict[str, float]:
    """Heap peak and RSS growth of one device that starts and takes `steps` steps."""
    rss_before = rss_mb()
    tracemalloc.start()
    try:
        _, device = cold_start()
        try:
            for commands, step in SCENES.values():
                for command in commands:
                    device.check(command)
                for _ in range(steps):
                    step(device)
            device.exec_out("screencap -p")
        finally:
            device.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"heap_peak_mb": round(peak / 2**20, 2), "rss_growth_mb": round(rss_mb() - rss_before, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50, help="steps measured per scene (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    result = fresh_process_start()
    sim_device().close()  # import everything once: a cold start is a new device, not a new process
    result.update(memory(max(5, args.steps // 5)))
    starts = []
    for _ in range(3):
        seconds, device = cold_start()
        starts.append(seconds)
        device.close()
    result["cold_start_s"] = round(statistics.median(starts), 4)
    device = sim_device()
    try:
        _with_messages(device)
        for name, (commands, step) in SCENES.items():
            for command in commands:
                device.check(command)
            result[name] = timed(device, step, args.steps)
        result["screenshot_ms"] = timed(device, lambda d: d.exec_out("screencap -p"), max(3, args.steps // 10))
    finally:
        device.close()
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    targets = {"fresh_process_start_s": "", "fresh_process_start_cpu_s": "", "cold_start_s": "≤ 0.5", "heap_peak_mb": "≤ 50", "rss_growth_mb": "≤ 50",
               "settings_step_ms": "≤ 20", "sms_step_ms": "≤ 20", "calendar_step_ms": "≤ 20", "screenshot_ms": ""}
    print(table(["measure", "value", "target"], [[k, f"{result[k]}", targets[k]] for k in targets]))


if __name__ == "__main__":
    main()
