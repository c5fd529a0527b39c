"""What the simulated device's GUI costs: memory, cold start and one agent step, in process.

    python benchmarks/sim_gui.py [--steps 50] [--json]

Cold start: a fresh simulated device with every app's databases and the GUI, built in a new
directory, until its first screen dump. Memory: Python heap (tracemalloc peak) and resident
set growth while starting the device and taking the steps. One step: a screen dump parsed
into elements (foreground included) and a tap on an element, on the Settings › Display page
(the deepest screen modeled), plus a screenshot row. Targets from the GUI issue: ≤ 50 MB,
≤ 0.5 s to start, ≤ 20 ms per step (MobileGym: about 400 MB and 3 s per instance).
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
import tracemalloc

from taskkit.connect import sim_device
from taskkit.report import table


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50, help="steps measured (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    sim_device().close()  # import everything once: a cold start is a new device, not a new process
    rss_before = rss_mb()
    tracemalloc.start()
    started = time.perf_counter()
    device = sim_device()
    device.ui.screen()
    cold_start = time.perf_counter() - started
    try:
        device.check("am start -a android.settings.DISPLAY_SETTINGS")
        steps, shots = [], []
        for _ in range(args.steps):
            begin = time.perf_counter()
            screen = device.ui.screen()
            row = next(e for e in screen.elements if e.text == "Adaptive brightness")
            device.check("input tap %d %d" % row.bbox.center)
            steps.append(time.perf_counter() - begin)
        for _ in range(max(3, args.steps // 10)):
            begin = time.perf_counter()
            device.exec_out("screencap -p")
            shots.append(time.perf_counter() - begin)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        device.close()
    result = {"cold_start_s": round(cold_start, 4), "heap_peak_mb": round(peak / 2**20, 2),
              "rss_growth_mb": round(rss_mb() - rss_before, 2),
              "step_ms": round(1000 * statistics.median(steps), 2),
              "screenshot_ms": round(1000 * statistics.median(shots), 2)}
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    targets = {"cold_start_s": "≤ 0.5", "heap_peak_mb": "≤ 50", "rss_growth_mb": "≤ 50", "step_ms": "≤ 20",
               "screenshot_ms": ""}
    print(table(["measure", "value", "target"], [[k, f"{v}", targets[k]] for k, v in result.items()]))


if __name__ == "__main__":
    main()
