"""A fresh simulated device with its GUI for each test."""
from __future__ import annotations

import pytest

from taskkit.connect import sim_device


@pytest.fixture
def device():
    phone = sim_device()
    yield phone
    phone.close()
