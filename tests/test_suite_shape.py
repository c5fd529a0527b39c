"""A suite's shape (what a manifest records instead of every instance id) gives exactly the ids
of the suite, in run order, and recognises exactly them."""
from __future__ import annotations

from hypothesis import given, strategies as st

from taskkit import loading, registry
from taskkit.suite import SuiteShape, build_suite

NAMES = st.sampled_from(["SystemWifiTurnOn", "SimpleSmsSend", "ExpenseAddSingle", "MarkorCreateNote"])


@given(st.lists(NAMES, min_size=1, max_size=3, unique=True), st.integers(1, 4),
       st.lists(st.sampled_from(["bmoca-105", "bmoca-108", "default"]), max_size=2, unique=True))
def test_the_shape_is_the_suites_ids(tasks, n, configs):
    loading.load_builtin()
    suite = build_suite(30, tasks, n, [{"name": name} for name in configs])
    ids = [instance.instance_id for instance in suite]
    shape = SuiteShape.from_json(suite.shape.to_json())
    assert list(shape.ids()) == ids and len(shape) == len(ids)
    assert all(instance_id in shape for instance_id in ids)
    others = [f"{tasks[0]}_{n}", f"{tasks[0]}_-1", f"{tasks[0]}_01", f"Other_0", f"{tasks[0]}_0@nowhere", "", "_0"]
    assert not any(other in shape for other in others if other not in ids)


def test_ten_million_episodes_are_a_few_hundred_bytes():
    loading.load_builtin()
    shape = SuiteShape(tuple(registry.names())[:10], 1_000_000)
    assert len(shape) == 10_000_000 and len(str(shape.to_json())) < 1000
    assert f"{shape.tasks[-1]}_999999" in shape and f"{shape.tasks[-1]}_1000000" not in shape
