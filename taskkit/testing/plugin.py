"""The taskkit pytest plugin: fixtures for testing tasks on a simulated device.

Registered as the `pytest11` entry point `taskkit` (setup.py), so any project with taskkit
installed gets `sim_device` (a fresh simulated device stored in the test's tmp dir, closed
afterwards) and `task_env` (an `Env` on it). Without the entry point: `pytest -p taskkit.testing.plugin`.
"""
from __future__ import annotations

from typing import Iterator

import pytest

from taskkit import connect
from taskkit.env import Env
from taskkit.sim.device import SimDevice


@pytest.fixture
def sim_device(tmp_path) -> Iterator[SimDevice]:
    """A fresh simulated device stored in a temp dir, as `--device sim` makes it (every registered
    app installed, with its screens)."""
    device = connect.sim_device(tmp_path / "device")
    yield device
    device.close()


@pytest.fixture
def task_env(sim_device: SimDevice) -> Env:
    """An `Env` on `sim_device`: pass it to `check_task(..., env=task_env)` or run tasks on it."""
    return Env(sim_device)
