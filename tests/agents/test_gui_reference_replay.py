"""`--agent gui_reference` records ordinary trajectories: replayed (`--agent replay:OUT`) over
Debian's adb against the simulated device served as adbd, each episode gets the same score (1.0)
in the same number of steps. One referenced task per app keeps the test short; the README gives
the command that replays every one."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from taskkit import loading, metadata, registry
from taskkit.agents import load
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.runner import run_suite
from taskkit.suite import instantiate

pytestmark = pytest.mark.adb


def _one_per_app() -> list[str]:
    """The first task of each set of apps; a seed family's multi-app set only when it brings an app
    no set before it did (AndroidLens' long cross-app tasks would add time, not apps)."""
    loading.load_builtin()
    chosen: dict[tuple[str, ...], str] = {}
    for cls in sorted(registry.all_tasks(), key=lambda c: (len(c.app_names), c.name)):
        if cls.has_gui_reference() and not cls.real_device_only and cls.app_names not in chosen:
            seen = {app for apps in chosen for app in apps}
            seed_family = metadata.benchmark(cls.name, cls.tags) in metadata.SEED_BENCHMARKS
            if len(cls.app_names) == 1 or not seed_family or not set(cls.app_names) <= seen:
                chosen[cls.app_names] = cls.name
    return sorted(chosen.values())


def test_gui_reference_trajectories_replay_over_adb_to_the_same_scores(tmp_path: Path) -> None:
    if shutil.which("adb") is None:
        pytest.skip("adb is not installed (apt-get install adb)")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from check_cost import Link

    instances = [instantiate(registry.get(name), 30, 0) for name in _one_per_app()]
    assert len(instances) >= 30  # one per set of apps: every modelled app, the multi-app tasks too
    device = sim_device()
    try:
        played = run_suite(Env(device), instances, load("gui_reference"), 30, output_dir=str(tmp_path / "played"))
    finally:
        device.close()
    assert [(r.task, r.score, r.error) for r in played] == [(i.task.name, 1.0, None) for i in instances]
    link = Link(tmp_path / "device")
    try:
        again = run_suite(Env(link.device), instances, load(f"replay:{tmp_path / 'played'}", strict_replay=True), 30,
                          output_dir=str(tmp_path / "replayed"))
    finally:
        link.close()
    assert [(r.task, r.score, r.steps, r.error) for r in again] == [(r.task, 1.0, r.steps, None) for r in played]
