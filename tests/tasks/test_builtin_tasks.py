"""Every built-in task, over many seeds: unsolved at start, solved by `solve`, clean teardown, deterministic."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit import loading, metadata, registry
from taskkit.composite import CompositeTask
from taskkit.device.state import state_digest
from taskkit.env import Env
from taskkit.sim.gui import install as install_screens
from taskkit.testing.simcopies import SimTemplate

loading.load_builtin()
TASKS = [name for name in registry.names() if not registry.get(name).real_device_only]  # as on --device sim
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_at_least_twenty_templates_across_the_core_apps():
    apps_covered = {app for cls in registry.all_tasks() for app in cls.app_names}
    assert len(TASKS) >= 20
    assert {"settings", "markor", "simple calendar pro", "pro expense", "simple sms messenger", "contacts"} <= apps_covered
    assert any(issubclass(cls, CompositeTask) and len(cls.app_names) >= 2 for cls in registry.all_tasks())


def test_every_builtin_goal_template_parses() -> None:
    """Built-in templates are not parsed when their classes are defined (a user's are): here instead."""
    from taskkit.task import BUILTIN_PREFIX, check_template

    builtin = [cls for cls in registry.all_tasks() if cls.__module__.startswith(BUILTIN_PREFIX)]
    assert len(builtin) > 300
    for cls in builtin:
        check_template(cls)


def _source_file(cls: type) -> str | None:
    """The file that defines `cls`; None for a class built at run time (a compiled spec's)."""
    try:
        return inspect.getfile(cls)
    except TypeError:
        return None


def test_no_task_reads_its_seed() -> None:
    """The lifecycle test below skips a seed that draws the params of a seed already run: a task
    is a function of its params. So no code of a task's classes reads its `seed` (TaskEval only
    stores it, for the rows)."""
    files = {_source_file(c) for cls in registry.all_tasks() for c in cls.__mro__ if c is not object} - {None}
    reads = re.compile(r"\.seed\b(?!\s*=[^=])")  # `.seed` but for the assignment in TaskEval.__init__
    found = [f"{path}:{number}" for path in sorted(files)
             for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1) if reads.search(line)]
    assert found == []


class SharedDevice:
    """One simulated device for the module's lifecycles (each restores what it changed) and the
    digest of its state as the last lifecycle left it: nothing touches the device between one
    lifecycle's end and the next one's start, so one digest is both (one `find` less each)."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self._kept: str | None = None

    def take(self) -> str:
        """The digest of the state now: the one kept, else read; kept no longer (a lifecycle that
        raises before `read` leaves none, so the next one reads the state afresh)."""
        digest, self._kept = self._kept or state_digest(self.env.device), None
        return digest

    def read(self) -> str:
        """The digest of the state now, kept for the next lifecycle's `take`."""
        self._kept = state_digest(self.env.device)
        return self._kept


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("builtin") / "device")
    yield SharedDevice(Env(device))
    device.close()


def _examples(cls) -> int:
    """Seeds per task: six, three for the seed benchmarks' families, whose tasks come many to a
    kind (SPA's ladders, B-MoCA's one-screen tasks) and whose kinds are tested in tests/apps/."""
    return 3 if metadata.benchmark(cls.name, cls.tags) in metadata.SEED_BENCHMARKS else 6


@pytest.mark.parametrize("name", TASKS)
def test_lifecycle_over_many_seeds(name, shared):
    cls = registry.get(name)
    env = shared.env
    drawn: dict[int, dict] = {}  # seed -> params, of the seeds whose lifecycle ran

    @settings(max_examples=_examples(cls))
    @given(seed=seeds)
    def run(seed):
        task = cls.from_seed(seed)
        if any(params == task.params for other, params in drawn.items() if other != seed):
            return  # the instance of a seed already run (a task is a function of its params): the same lifecycle
        drawn[seed] = task.params
        before = shared.take()
        env.new_episode()  # as the runner does: no answer carries over from the previous episode
        task.initialize_state(env)
        try:
            start_score = task.is_successful(env)
            if getattr(cls, "starts_solved", False):  # a verify task: the goal holds from the start
                assert start_score == 1.0, f"{name} seed {seed} (starts_solved) scores {start_score} at the start"
            else:
                assert start_score < 1.0, f"{name} seed {seed} is solved before the agent acts"
            if not issubclass(cls, CompositeTask) and not getattr(cls, "starts_solved", False):
                assert start_score == 0.0, f"{name} seed {seed} scores {start_score} before the agent acts"
            task.solve(env)
            solved = task.is_successful(env)
            assert solved == 1.0, f"{name} seed {seed}: solve() scored {solved}: {task.last_result.reasons}"
        finally:
            task.teardown(env)
        assert shared.read() == before, f"{name} seed {seed}: teardown left the device changed"

    run()


class FreshState:
    """One simulated device for the module's determinism checks, and the digest of a fresh
    device's state: each instance starts from a state whose digest is the fresh one (every
    teardown restores it, and `start` proves it), so two instances of a seed start alike as two
    fresh devices would, without building a device for each."""

    def __init__(self, shared: SharedDevice, fresh: str) -> None:
        self.shared, self.fresh = shared, fresh

    def start(self, name: str) -> None:
        now = self.shared.take()
        assert now == self.fresh, f"{name}: the device no longer has a fresh device's state before it starts"


@pytest.fixture(scope="module")
def fresh_state(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("determinism") / "device")
    shared = SharedDevice(Env(device))
    yield FreshState(shared, shared.read())
    device.close()


def test_fresh_devices_built_or_copied_are_the_same_device() -> None:
    """What lets the test below start from a fresh device's digest: two first boots give one
    state, and so does a copy of one."""
    template = SimTemplate()
    copied = template.new()
    install_screens(copied.state)  # as taskkit.connect.sim_device does
    devices = [sim_device(), sim_device(), copied]
    try:
        assert len({state_digest(device) for device in devices}) == 1
    finally:
        for device in devices:
            device.close()
        template.close()


@pytest.mark.parametrize("name", TASKS)
def test_same_seed_same_params_goal_and_initial_state(name, fresh_state):
    cls = registry.get(name)
    env = fresh_state.shared.env
    digests, described = [], []
    for _ in range(2):
        fresh_state.start(name)
        task = cls.from_seed(1234567)
        env.new_episode()
        task.initialize_state(env)
        try:
            digests.append(state_digest(env.device))
            described.append((task.params, task.goal))
        finally:
            task.teardown(env)
        fresh_state.shared.read()
    assert described[0] == described[1]
    assert digests[0] == digests[1]
