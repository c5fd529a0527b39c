"""Seed search: hypothesis-drawn or explicit seeds, failures shrunk to the minimal seed."""
from __future__ import annotations

import pytest

from taskkit.device.base import DeviceError
from taskkit.testing.episodes import Abort
from taskkit.testing.search import DEFAULT_SEEDS, planned_seeds, search


def test_passing_checks_try_the_planned_seeds():
    tried = []
    result = search(lambda seed: tried.append(seed), 4)
    assert not result.failed and result.tried == tried == planned_seeds(4) and len(tried) == 4
    assert len(planned_seeds(None)) == DEFAULT_SEEDS and planned_seeds(3) == planned_seeds(3)


def test_a_failure_shrinks_to_the_smallest_failing_seed():
    result = search(lambda seed: "even and big" if seed > 100 and seed % 2 == 0 else None, 5)
    assert result.failed and result.seed == 102 and result.first_seed > 102
    assert result.message == "even and big" and not result.flaky


def test_explicit_seeds_are_tried_alone_and_not_shrunk():
    result = search(lambda seed: "bad" if seed == 900 else None, [5, 900])
    assert sorted(result.tried) == [5, 900] and result.seed == 900 == result.first_seed


def test_a_device_failure_stops_the_search_at_once():
    calls = []

    def check(seed):
        calls.append(seed)
        raise Abort(DeviceError("device offline"))

    with pytest.raises(DeviceError, match="device offline"):
        search(check, 5)
    assert len(calls) == 1


def test_at_least_one_seed():
    with pytest.raises(ValueError):
        search(lambda seed: None, 0)
