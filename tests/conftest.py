"""Shared fixtures and the hypothesis profile for the whole suite."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# A fixed example budget and no deadline: stable on a loaded 2-core machine.
settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def sim_device(tmp_path):
    """A fresh simulated device stored in a temp dir."""
    from taskkit.sim.device import SimDevice

    device = SimDevice(tmp_path / "device")
    yield device
    device.close()


@pytest.fixture
def env(sim_device):
    from taskkit.env import Env

    return Env(sim_device)
