"""Suites are reproducible: AndroidWorld's instance seeds, same params and goals in a fresh process."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import loading, registry, suite
from taskkit.rng import TaskRng, instance_seed

GOLDEN = Path(__file__).parent / "golden" / "seed30.json"


def test_instance_seed_is_androidworlds_formula():
    expected = int(hashlib.sha256(b"30_ExpenseAddSingle_0").hexdigest(), 16) % 2**32
    assert instance_seed(30, "ExpenseAddSingle", 0) == expected
    assert instance_seed(30, "ExpenseAddSingle", 1) != expected


def test_rng_carries_a_seeded_faker():
    a, b = TaskRng(7), TaskRng(7)
    assert [a.faker.name() for _ in range(3)] == [b.faker.name() for _ in range(3)]
    assert a.random() == b.random()
    assert TaskRng(8).faker.name() != TaskRng(7).faker.name()


def test_suite_covers_every_task_times_combinations():
    loading.load_builtin()
    instances = suite.build_suite(30, n_task_combinations=2)
    assert len(instances) == 2 * len(registry.names())
    assert len({i.instance_id for i in instances}) == len(instances)


def test_unknown_task_suggests_close_names():
    loading.load_builtin()
    with pytest.raises(registry.TaskLoadError, match="did you mean ExpenseAddSingle"):
        suite.build_suite(30, ["ExpenseAddSingel"])


def test_seed30_matches_the_golden_file():
    loading.load_builtin()
    assert suite.describe_suite(suite.build_suite(30)) == json.loads(GOLDEN.read_text())


def test_fresh_process_gives_byte_identical_params_and_goals():
    code = (
        "import json; from taskkit import loading, suite; loading.load_builtin(); "
        "print(json.dumps([[i.instance_id, i.params, i.create().goal] for i in suite.build_suite(30, n_task_combinations=2)],"
        " sort_keys=True))"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    loading.load_builtin()
    here = [[i.instance_id, i.params, i.create().goal] for i in suite.build_suite(30, n_task_combinations=2)]
    assert json.loads(runs[0]) == json.loads(json.dumps(here, sort_keys=True))
