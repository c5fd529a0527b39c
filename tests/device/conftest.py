"""Fixtures for device-service tests."""
from __future__ import annotations

import pytest

from taskkit.device.base import Device
from taskkit.sim.device import SimDevice
from tests.sim.test_shell import make_bare_state


class BareSimDevice(SimDevice):
    """A SimDevice over a minimal filesystem (shared storage only): no image build, fast."""

    def __init__(self, root):
        Device.__init__(self)
        self.state = make_bare_state(root)
        self.serial = f"bare-sim:{root}"


@pytest.fixture
def bare_sim_device(tmp_path) -> BareSimDevice:
    return BareSimDevice(tmp_path / "device")
