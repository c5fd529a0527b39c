"""What one agent step costs: observe (foreground + UI elements, optionally a screenshot) and act.

    python benchmarks/agent_step.py [--steps 20] [--json]

Over a real Debian `adb` server against the simulator served as adbd (as `check_cost.py` sets it
up), and in process, it measures per step: device round trips (streams the adb host opened),
bytes over the link and wall time, for an agent that reads the elements and clicks by index,
with and without a screenshot, next to the floor (`adb shell true`). The screen is the simulated
device's own Settings › Internet page (taskkit/sim/gui: `uiautomator dump`, a rendered
`screencap -p`, and a tap on the switch that turns Wi-Fi on or off). Needs Debian's `adb` on PATH.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from check_cost import Link  # noqa: E402 - the adb link of the other benchmark

from taskkit.actions import perform  # noqa: E402
from taskkit.agents import Action, Agent, Observation  # noqa: E402
from taskkit.connect import sim_device  # noqa: E402
from taskkit.env import Env  # noqa: E402
from taskkit.report import table  # noqa: E402
from taskkit.runner import observe  # noqa: E402


class ClickSwitch(Agent):
    name = "click-switch"

    def step(self, observation: Observation) -> Action:
        index = next(i for i, e in enumerate(observation.ui_elements) if (e.class_name or "").endswith("Switch"))
        return Action("click", index=index)


class ClickSwitchLooking(ClickSwitch):
    wants_screenshot = True


WIFI_PAGE = "am start -a android.settings.WIFI_SETTINGS"


def one_step(env: Env, agent: Agent) -> None:
    observation = observe(env, agent, "Turn Wi-Fi on", 0, 10, None)
    perform(env, agent.step(observation), observation.ui_elements)


def over_adb(steps: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as state:
        link = Link(Path(state) / "device")
        try:
            env = Env(link.device)
            link.device.shell(WIFI_PAGE)
            for label, action in (("floor: adb shell true", lambda: link.device.shell("true")),
                                  ("step, elements", lambda: one_step(env, ClickSwitch())),
                                  ("step, elements + screenshot", lambda: one_step(env, ClickSwitchLooking()))):
                samples = [link.measure(action) for _ in range(steps)]
                rows.append({"where": "adb", "what": label,
                             **{k: statistics.median(s[k] for s in samples) for k in samples[0]}})
        finally:
            link.close()
    return rows


def in_process(steps: int) -> list[dict[str, Any]]:
    rows = []
    device = sim_device()
    try:
        env = Env(device)
        device.shell(WIFI_PAGE)
        for label, agent in (("step, elements", ClickSwitch()), ("step, elements + screenshot", ClickSwitchLooking())):
            samples = []
            for _ in range(steps):
                device.stats.reset()
                started = time.perf_counter()
                one_step(env, agent)
                samples.append({"ms": 1000 * (time.perf_counter() - started), "round_trips": device.stats.round_trips,
                                "bytes": device.stats.bytes_sent + device.stats.bytes_received})
            rows.append({"where": "in process", "what": label,
                         **{k: statistics.median(s[k] for s in samples) for k in samples[0]}})
    finally:
        device.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="steps measured per row (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    rows = over_adb(args.steps) + in_process(args.steps)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return
    print(table(["where", "per step", "round trips", "bytes", "ms"],
                [[r["where"], r["what"], f"{r['round_trips']:.0f}", f"{r['bytes']:,.0f}", f"{r['ms']:.1f}"] for r in rows]))


if __name__ == "__main__":
    main()
