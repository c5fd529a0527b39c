"""benchmarks/config_matrix.py: which configs a shard runs, how episodes count per split (an errored
episode is no success and is counted apart), and bad flags refused in one line."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("benchmark_config_matrix", ROOT / "benchmarks" / "config_matrix.py")
assert _SPEC and _SPEC.loader
matrix = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = matrix  # its dataclass looks its module up
_SPEC.loader.exec_module(matrix)


def test_splits_and_single_configs_choose_the_shard() -> None:
    chosen = matrix.choose_configs("test,bmoca-000")
    assert len(chosen) == 11 and chosen["bmoca-105"] == "test" and chosen["bmoca-000"] == "train"
    assert set(matrix.choose_configs("train").values()) == {"train"} and len(matrix.choose_configs("train")) == 35


def test_errors_are_failures_counted_apart_per_split() -> None:
    split_of = {"bmoca-000": "train", "bmoca-105": "test"}
    rows = [{"task": "A", "device_config": {"name": "bmoca-000"}, "score": 1.0, "error": None},
            {"task": "B", "device_config": {"name": "bmoca-000"}, "score": 0.0, "error": None},
            {"task": "A", "device_config": {"name": "bmoca-105"}, "score": None, "error": "solve failed: X\nmore"}]
    cells = matrix.tally(rows, split_of)
    assert (cells["train"].episodes, cells["train"].successes, cells["train"].errors) == (2, 1, 0)
    assert (cells["test"].episodes, cells["test"].successes, cells["test"].errors) == (1, 0, 1)
    assert cells["test"].failed == ["A@bmoca-105: error solve failed: X"]


@pytest.mark.parametrize("argv, needle", [(["--configs", "bmoca-999"], "--configs: unknown config or split"),
                                          (["--families", "wikipedia"], "--families: unknown wikipedia"),
                                          (["--agents", ""], "--agents: unknown empty value"),
                                          (["--parallel", "0"], "--parallel")])
def test_bad_flags_exit_2_in_one_line(capsys, argv: list[str], needle: str) -> None:
    assert matrix.main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
