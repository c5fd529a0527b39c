"""Every spec-defined task (task_protos/ and examples/specs/) keeps the lifecycle properties:
unsolved at start, solved by its oracle, teardown restores the device, and a seed always gives
the same params, goal and initial state."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit.connect import sim_device
from taskkit import loading, registry, specs
from taskkit.composite import CompositeTask
from taskkit.device.state import state_digest
from taskkit.env import Env
from taskkit.rng import instance_seed
from taskkit.sim.device import SimDevice

ROOT = Path(__file__).resolve().parents[2]
SPEC_DIRS = (ROOT / "task_protos", ROOT / "examples" / "specs")
LOADED = [specs.load_dir(directory, register=False) for directory in SPEC_DIRS]
CLASSES = {cls.name: cls for result in LOADED for cls in result.classes}


def test_every_spec_loads():
    errors = [str(error) for result in LOADED for error in result.errors]
    assert errors == []
    assert len(CLASSES) >= 12


def test_builtin_specs_are_registered_with_their_file_as_source():
    loading.load_builtin()
    for path in (ROOT / "task_protos").glob("*.textproto"):
        names = [cls.name for cls in registry.all_tasks() if cls.source == str(path.resolve())]
        assert len(names) == 1, (path, names)


@pytest.fixture(scope="module")
def shared_env(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("specs") / "device")
    yield Env(device)
    device.close()


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_lifecycle_and_determinism(name, shared_env):
    """Episode 1 runs the lifecycle; episode 2 redraws the same seed and must start identically."""
    cls, env = CLASSES[name], shared_env
    seed = instance_seed(30, name, 0)
    task = cls.from_seed(seed)
    before = state_digest(env.device)
    env.new_episode()
    task.initialize_state(env)
    try:
        initial = (task.params, task.goal, state_digest(env.device))
        start = task.is_successful(env)
        assert start < 1.0, f"{name} seed {seed} is solved before the agent acts"
        if not issubclass(cls, CompositeTask):
            assert start == 0.0, f"{name} seed {seed} scores {start} before the agent acts"
        task.solve(env)
        solved = task.is_successful(env)
        assert solved == 1.0, f"{name} seed {seed}: the oracle scored {solved}: {task.last_result.reasons}"
    finally:
        task.teardown(env)
    assert state_digest(env.device) == before, f"{name} seed {seed}: teardown left the device changed"

    again = cls.from_seed(seed)
    again.initialize_state(env)
    try:
        assert (again.params, again.goal, state_digest(env.device)) == initial, f"{name}: seed {seed} is not reproducible"
    finally:
        again.teardown(env)
    if cls.schema["properties"]:
        assert cls.from_seed(seed + 1).params != initial[0], f"{name}: params do not depend on the seed"
