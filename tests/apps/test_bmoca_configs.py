"""Every B-MoCA task's reference solution under B-MoCA's test environments (issue #36 item 4):
the solutions act through locale-proof locators (the translation table the simulated screens
draw from, as the GUI reference does), so bmoca-105 (ko-KR, density 550) and bmoca-108 (ur-PK,
density 700) leave no task error. Seed 0, one instance per task."""
from __future__ import annotations

import pytest

from taskkit import config, families, loading, registry, suite
from taskkit.agents.builtin import OracleAgent
from taskkit.config import apply
from taskkit.env import Env
from taskkit.runner import run_suite


@pytest.mark.parametrize("name", ["bmoca-105", "bmoca-108"])
def test_every_bmoca_oracle_scores_1_under_the_config(sim_device, name: str) -> None:
    loading.load_builtin()
    chosen = config.resolve(name)[0]
    apply.apply(sim_device, chosen)
    instances = [suite.instantiate(registry.get(task), 0, 0, chosen.as_json()) for task in families.tasks_in("bmoca")]
    results = run_suite(Env(sim_device), instances, OracleAgent(), 0)
    failed = [(r.task, r.error or r.reasons) for r in results if r.score != 1.0]
    assert len(results) == len(instances) and not failed
