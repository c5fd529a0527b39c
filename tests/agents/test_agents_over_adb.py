"""The agent loop over stock adb against the served simulator (with the scripted screen): the
random agent sees elements in every observation, its index clicks land on element centres,
trajectories are written, and replaying them reproduces the scores."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from taskkit.agents import load
from taskkit.env import Env
from taskkit.runner import run_suite
from tests.agents.screens import scripted_screen
from tests.agents.test_agent_loop import wifi_instances

pytestmark = pytest.mark.skipif(shutil.which("adb") is None, reason="Debian's adb is not installed")


def test_random_and_replay_over_adb(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from check_cost import Link

    with scripted_screen() as taps:
        link = Link(tmp_path / "device")
        try:
            env = Env(link.device)
            instances = wifi_instances(4)
            first = run_suite(env, instances, load("random"), 30, output_dir=str(tmp_path / "out"))
            assert all(result.error is None for result in first)
            for result in first:
                lines = [json.loads(line) for line in (tmp_path / "out" / result.trajectory).read_text().splitlines()]
                assert lines and all(line["elements"] for line in lines)
                for line in lines:  # every index click landed on the centre of the element it named
                    action = line["action"]
                    if action["action_type"] == "click":
                        x1, y1, x2, y2 = line["elements"][action["index"]]["bbox"]
                        assert ((x1 + x2) // 2, (y1 + y2) // 2) in taps
            replayed = run_suite(env, instances, load(f"replay:{tmp_path / 'out'}"), 30)
            assert [r.score for r in replayed] == [r.score for r in first]
        finally:
            link.close()
