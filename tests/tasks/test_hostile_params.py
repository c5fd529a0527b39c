"""Hostile text in every free-text param of every built-in task: exact round trip, no injection.

The logic lives in taskkit.testing (the `hostile` property, also `python -m taskkit.check
--hostile`); this runs it at seed 0, whose text is `PAYLOAD` (every kind of injection at once).
"""
from __future__ import annotations

import pytest

from taskkit.connect import sim_device
from taskkit import loading, registry
from taskkit.env import Env
from taskkit.sim.device import SimDevice
from taskkit.testing import CANARY, PAYLOAD, check_hostile, hostile_text_for

loading.load_builtin()


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("hostile") / "device")
    yield device
    device.close()


@pytest.mark.parametrize("name", registry.names())
def test_hostile_text_round_trips_and_never_runs(name, device):
    result = check_hostile(registry.get(name), seeds=[0], env=Env(device))  # raises PropertyFailed
    assert result.status in ("pass", "n/a")
    assert not device.files.exists(CANARY)


def test_seed_zero_is_the_full_payload():
    assert hostile_text_for(0) == PAYLOAD


def test_the_canary_can_fire(device):
    """The same payload, unquoted, does create the canary: the test above can fail."""
    device.shell("echo " + PAYLOAD.replace("'", ""))
    assert device.files.exists(CANARY)
    device.files.remove(CANARY)
