"""A suite is built lazily and an absurd one is refused up front (issue 34, item 6).

`--n_task_combinations 1000000000000` used to build every instance before anything ran (0.9 GB
after 60 s). Now the run refuses past `suite.MAX_TASK_COMBINATIONS` / `suite.MAX_EPISODES` in one
line, in a child whose address space is capped, and a large legal suite builds the instances one
by one as the episodes ask for them (counted, not timed).
"""
from __future__ import annotations

import resource
import signal
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit import loading, registry, run, runner, suite

ADDRESS_SPACE = 1024 * 2**20  # a run that refuses fits in this; building 10**12 instances does not


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@pytest.mark.parametrize("args, message", [
    (["--tasks", "SystemWifiTurnOn", "--n_task_combinations", "1000000000000"],
     f"more than suite.MAX_TASK_COMBINATIONS ({suite.MAX_TASK_COMBINATIONS})"),
    (["--tasks", "SystemWifiTurnOn,SystemWifiTurnOff", "--n_task_combinations", str(suite.MAX_TASK_COMBINATIONS)],
     f"the suite would have {2 * suite.MAX_TASK_COMBINATIONS} episodes (2 task(s) × {suite.MAX_TASK_COMBINATIONS}), "
     f"more than suite.MAX_EPISODES ({suite.MAX_EPISODES})"),
])
def test_an_absurd_suite_is_refused_in_one_line_with_bounded_memory(tmp_path, args, message):
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", *args, "--output_dir", str(tmp_path / "out")],
                          capture_output=True, text=True, preexec_fn=_capped, timeout=600)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr[-2000:]
    assert not (tmp_path / "out").exists()


def test_a_large_legal_suite_builds_one_instance_before_the_first_episode(monkeypatch, capsys):
    """200,000 instances: the first episode starts after O(1) instances were built."""
    built: list[int] = []
    at_first_episode: list[int] = []
    real_instantiate = suite.instantiate

    def counted(*args, **kwargs):
        built.append(1)
        return real_instantiate(*args, **kwargs)

    def first_episode(*args, **kwargs):
        at_first_episode.append(len(built))
        raise KeyboardInterrupt("the test has seen the first episode")

    monkeypatch.setattr(suite, "instantiate", counted)
    monkeypatch.setattr(runner, "run_episode", first_episode)
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = run.run(["taskkit.run", "--tasks", "SystemWifiTurnOn", "--n_task_combinations", "200000"])
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    assert code == 130, capsys.readouterr().err
    assert at_first_episode and at_first_episode[0] <= 2, at_first_episode


@given(tasks=st.integers(1, 4), n=st.integers(1, 5), configs=st.integers(0, 3), config_axis=st.booleans(),
       fixed=st.booleans(), data=st.data())
def test_the_lazy_suite_is_the_eager_one(tasks, n, configs, config_axis, fixed, data):
    """Instance i of the lazy suite (any i, negative too, and slices) is the eager list's."""
    loading.load_builtin()
    names = sorted(registry.names())[:tasks]
    device_configs = [{"name": f"c{i}"} for i in range(configs)]
    eager = [suite.instantiate(registry.get(name), 30, i, config, config_axis, fixed)
             for config in (device_configs or [None]) for name in names for i in range(n)]
    lazy = suite.build_suite(30, names, n, device_configs, config_axis, fixed)
    assert len(lazy) == len(eager) and list(lazy) == eager
    position = data.draw(st.integers(-len(eager), len(eager) - 1))
    assert lazy[position] == eager[position]
    start, stop = data.draw(st.integers(-10, 10)), data.draw(st.integers(-10, 10))
    assert lazy[start:stop] == eager[start:stop]
    finished = {i.instance_id for i in data.draw(st.lists(st.sampled_from(eager), unique_by=lambda i: i.instance_id))}
    remaining = lazy.without(finished)
    assert list(remaining) == [i for i in eager if i.instance_id not in finished] and len(remaining) == len(list(remaining))
    with pytest.raises(IndexError):
        lazy[len(eager)]
