"""benchmarks/step_parts.py: each part of a random-policy step timed on its own, the parts adding
up to the step, and nothing left patched after it."""
from __future__ import annotations

import pytest

from tests.test_random_policy import _benchmark


def test_the_parts_of_a_step_add_up_and_are_put_back() -> None:
    parts = _benchmark("step_parts")
    originals = {label: getattr(owner, name) for label, (owner, name) in parts.PARTS.items()}
    result = parts.measure(steps=12, seed=30, task="MarkorCreateNote")
    assert {label: getattr(owner, name) for label, (owner, name) in parts.PARTS.items()} == originals
    shares = {label: part["share"] for label, part in result["parts"].items()}
    assert sum(shares.values()) == pytest.approx(1.0, abs=0.01)
    calls = {label: part["calls_per_step"] for label, part in result["parts"].items()}
    assert calls["the host: gym, runner, the task's check"] == 1.0 and calls["the elements described"] == 1.0
    for label in ("the shell and the commands' own work", "the GUI state read (Session)", "the dump parsed on the host",
                  "building screens", "the GUI state saved (Session.save)"):
        assert calls[label] > 0 and result["parts"][label]["ms_per_step"] > 0, label
    total = sum(part["ms_per_step"] for part in result["parts"].values())
    assert total == pytest.approx(result["cpu_ms_per_step"], rel=0.01)
