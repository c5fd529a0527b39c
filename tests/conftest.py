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


# `sim_device` (a fresh simulated device in the test's tmp dir) and `task_env` come from taskkit's
# pytest plugin; imported here so the suite gets them whether or not the plugin is installed.
from taskkit.testing.plugin import sim_device, task_env  # noqa: E402,F401


@pytest.fixture
def env(sim_device):
    from taskkit.env import Env

    return Env(sim_device)
