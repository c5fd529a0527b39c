"""B-MoCA's published tasks against the tasks taskkit registers (taskkit/bmoca_tasks.json)."""
from __future__ import annotations

from pathlib import Path

from taskkit import families, loading, registry, seed_coverage
from taskkit.connect import sim_device
from taskkit.env import Env

ROOT = Path(__file__).resolve().parents[1]


def setup_module() -> None:
    loading.load_builtin()


def test_the_table_is_the_papers_131_tasks_plus_the_first_versions_own() -> None:
    entries = seed_coverage.bmoca()
    assert sum(e.paper == "v2" for e in entries) == 131
    assert len({e.instruction for e in entries}) == len(entries)
    assert all(e.step_limit > 0 and e.detector for e in entries)


def test_each_covered_task_states_the_published_instruction_word_for_word() -> None:
    mismatches = []
    for entry in seed_coverage.bmoca():
        if entry.task is None:
            assert entry.not_covered and "TODO" not in entry.not_covered, entry.instruction
            continue
        cls = registry.get(entry.task)
        assert "bmoca" in cls.tags, entry.task
        # the params the instruction names; any it leaves open (a start volume) as seed 0 draws them
        goal = cls({**cls.from_seed(0).params, **entry.params}).goal  # they must satisfy the schema
        if goal != (entry.goal or entry.instruction):
            mismatches.append((entry.instruction, goal))
    assert not mismatches


def test_every_bmoca_task_stands_for_a_published_one_and_coverage_reaches_99_of_131() -> None:
    entries = seed_coverage.bmoca()
    used = {e.task for e in entries if e.task}
    assert set(families.tasks_in("bmoca")) <= used
    assert sum(e.task is not None for e in entries if e.paper == "v2") >= 99  # issue #36: 91 before Wikipedia's 16


def test_every_representative_task_is_covered() -> None:
    representative = [e for e in seed_coverage.bmoca() if e.representative]
    assert len(representative) == 10  # six per version, two of them shared
    assert [e.instruction for e in representative if e.task is None] == []


def test_the_docs_carry_the_current_table() -> None:
    docs = (ROOT / "docs" / "families.md").read_text(encoding="utf-8")
    assert seed_coverage.markdown(seed_coverage.bmoca()) in docs, "regenerate: python -m taskkit.seed_coverage"


def test_every_published_instance_is_solved_and_judged_on_the_simulated_device(tmp_path) -> None:
    """Each covered B-MoCA instruction, with its own params: unsolved at the start, solved by the
    reference solution (B-MoCA's own instances, not only the seeded draws, are doable)."""
    device = sim_device(tmp_path / "device")
    env = Env(device)
    failed = []
    try:
        for entry in seed_coverage.bmoca():
            if entry.task is None:
                continue
            cls = registry.get(entry.task)
            task = cls({**cls.from_seed(0).params, **entry.params})
            env.new_episode()
            task.initialize_state(env)
            try:
                before = task.is_successful(env)
                task.solve(env)
                after = task.is_successful(env)
            finally:
                task.teardown(env)
            if (before, after) != (0.0, 1.0):
                failed.append((entry.instruction, before, after))
    finally:
        device.close()
    assert failed == []
