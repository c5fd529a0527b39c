"""The information-retrieval specs (the task_protos/ specs tagged information_retrieval: 23 under
AndroidWorld's names, six of taskkit's own as ir_*.textproto): they load, their params and goals
are deterministic, the oracle's answer scores 1.0, no answer and wrong answers score 0.0, the
noise rows never change the expected answer, and teardown leaves the device as it was.

One simulated device serves the whole module: every episode ends with a teardown whose digest
check proves the next one starts from the same state.
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path

import pytest

from taskkit.connect import sim_device
from taskkit import task_protos
from taskkit import specs
from taskkit.device.state import state_digest
from taskkit.env import Env
from taskkit.specs.loader import parse

SPEC_DIR = Path(task_protos.__file__).parent
IR_SPECS = sorted(p for p in SPEC_DIR.glob("*.textproto") if "information_retrieval" in parse(p).spec.tags)
FAMILIES = {"calendar": "simple calendar pro", "tasks": "tasks", "tracks": "open tracks sports tracker",
            "notes": "joplin"}
APP_FAMILY = {app: family for family, app in FAMILIES.items()}
SEEDS = (11, 4242)
# Questions asked the same way every time (only the device state varies).
FIXED_GOALS = {"simple_calendar_next_event", "tasks_high_priority_tasks", "tasks_due_next_week",
               "simple_calendar_events_in_next_week"}


@functools.lru_cache(maxsize=None)
def load(path: Path):
    """The compiled class and the parsed spec of one file (not registered: tests only)."""
    return specs.load_file(path, register=False), parse(path).spec


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    dev = sim_device(tmp_path_factory.mktemp("ir") / "device")
    yield dev
    dev.close()


def _ids(paths):
    return [p.stem for p in paths]


# --- the collection -----------------------------------------------------------------------------
def test_every_family_is_covered_by_enough_tasks():
    assert len(IR_SPECS) >= 25
    per_family = Counter(APP_FAMILY[parse(p).spec.apps[0]] for p in IR_SPECS)
    assert set(per_family) == set(FAMILIES) and min(per_family.values()) >= 4, per_family
    names = [load(p)[0].name for p in IR_SPECS]
    own = [name for name in names if name.startswith("Ir")]
    assert len(set(names)) == len(names) and len(own) == 6 and len(names) - len(own) >= 23


@pytest.mark.parametrize("path", IR_SPECS, ids=_ids(IR_SPECS))
def test_spec_loads_as_an_answer_task_of_its_app(path):
    cls, spec = load(path)
    assert len(cls.app_names) == 1 and cls.app_names[0] in APP_FAMILY
    assert "information_retrieval" in cls.tags and cls.complexity > 0
    assert spec.success.WhichOneof("kind") == "answer"
    assert [step.WhichOneof("kind") for step in spec.oracle] == ["answer"]
    assert any(p.name == "noise" and p.WhichOneof("generator") == "rows" and len(p.rows.exclude_if)
               for p in spec.params), "every IR spec seeds noise rows with an exclusion rule"


@pytest.mark.parametrize("path", IR_SPECS, ids=_ids(IR_SPECS))
def test_params_and_goal_are_deterministic(path):
    cls, _ = load(path)
    goals, params = set(), []
    for seed in (0, 1, 2, 3, 99):
        first, second = cls.from_seed(seed), cls.from_seed(seed)
        assert first.params == second.params and first.goal == second.goal
        assert "{{" not in first.goal and "{%" not in first.goal
        goals.add(first.goal)
        params.append(first.params)
    assert all(a != b for i, a in enumerate(params) for b in params[i + 1:])
    # The question varies with the seed, except where its wording is fixed by design.
    assert (len(goals) == 1) == (path.stem in FIXED_GOALS), goals


# --- episodes -----------------------------------------------------------------------------------
def _wrong_answers(answer: str, match: str) -> list[str]:
    """Answers close to the oracle's that must still score 0."""
    if match == "NUMBER":
        return [re.sub(r"\d+(?:\.\d+)?", lambda m: str(float(m.group()) + 1).removesuffix(".0"), answer),
                f"{answer}, 1"]
    if match == "DATETIME":
        return [re.sub(r"(\d{2}):(\d{2})", lambda m: f"{(int(m.group(1)) + 1) % 24:02d}:{m.group(2)}", answer),
                re.sub(r" (\d{1,2}) ", lambda m: f" {int(m.group(1)) % 28 + 1} ", answer, count=1)]
    if answer in ("True", "False"):
        return ["False" if answer == "True" else "True"]
    wrong = [f"{answer}, Gardening club", "Gardening club"]
    if ", " in answer:
        wrong.append(answer.rsplit(", ", 1)[0])  # an item short (or a title cut at its comma)
    return wrong


def _episode(cls, env: Env, params=None, seed: int | None = None):
    task = cls(params) if params is not None else cls.from_seed(seed)
    task.initialize_state(env)
    return task


@pytest.mark.parametrize("path", IR_SPECS, ids=_ids(IR_SPECS))
def test_oracle_scores_one_and_no_or_wrong_answers_score_zero(path, device):
    cls, spec = load(path)
    match = spec.success.answer.Match.Name(spec.success.answer.match)
    env = Env(device)
    before = state_digest(device)
    for seed in SEEDS:
        env.new_episode()
        task = _episode(cls, env, seed=seed)
        try:
            assert task.is_successful(env) == 0.0, f"seed {seed}: solved with no answer"
            task.solve(env)
            oracle = env.answer
            assert oracle.strip(), f"seed {seed}: the oracle gave an empty answer"
            assert task.is_successful(env) == 1.0, f"seed {seed}: oracle answer {oracle!r} failed"
            for wrong in _wrong_answers(oracle, match):
                assert wrong != oracle
                env.submit_answer(wrong)
                assert task.is_successful(env) == 0.0, f"seed {seed}: wrong answer {wrong!r} passed (oracle {oracle!r})"
        finally:
            task.teardown(env)
        assert state_digest(device) == before, f"seed {seed}: teardown left the device changed"


def _oracle_items(cls, env: Env, params) -> Counter:
    env.new_episode()
    task = _episode(cls, env, params=params)
    try:
        task.solve(env)
        return Counter(env.answer.split(", "))
    finally:
        task.teardown(env)


@pytest.mark.parametrize("path", IR_SPECS, ids=_ids(IR_SPECS))
def test_noise_never_changes_the_answer(path, device):
    cls, _ = load(path)
    env = Env(device)
    params = cls.from_seed(SEEDS[0]).params
    assert params["noise"], "the instance has noise rows"
    with_noise = _oracle_items(cls, env, params)
    without_noise = _oracle_items(cls, env, {**params, "noise": []})
    assert with_noise == without_noise


# --- titles with commas, and Joplin's search copy ------------------------------------------------
def _first_seed(cls, wanted, limit: int = 400) -> int:
    return next(seed for seed in range(limit) if wanted(cls.from_seed(seed).params))


@pytest.mark.parametrize("stem, items", [
    ("tasks_due_on_date", lambda p: [row["title"] for row in p["targets"]]),
    ("simple_calendar_any_events_on_date", lambda p: [row["title"] for row in p["targets"]]),
    ("simple_calendar_location_of_event", lambda p: [p["targets"][0]["location"]]),
])
def test_items_containing_commas_are_matched_whole_in_any_order(stem, items, device):
    cls, _ = load(SPEC_DIR / f"{stem}.textproto")
    seed = _first_seed(cls, lambda p: any("," in item for item in items(p)) and (len(items(p)) > 1 or "location" in stem))
    env = Env(device)
    task = _episode(cls, env, seed=seed)
    try:
        expected = items(task.params)
        env.submit_answer(", ".join(reversed(expected)))
        assert task.is_successful(env) == 1.0, (seed, env.answer)
        env.submit_answer(" and ".join(expected) + ".")
        assert task.is_successful(env) == 1.0, (seed, env.answer)
        cut = next(item for item in expected if "," in item).split(",")[0]
        env.submit_answer(", ".join(item for item in expected if "," not in item) + (", " if len(expected) > 1 else "") + cut)
        assert task.is_successful(env) == 0.0, (seed, env.answer)
    finally:
        task.teardown(env)


@pytest.mark.parametrize("path", [p for p in IR_SPECS if parse(p).spec.apps[0] == "joplin"], ids=lambda p: p.stem)
def test_joplin_specs_keep_the_search_copy_in_step(path, device):
    from taskkit.apps import joplin

    cls, _ = load(path)
    env = Env(device)
    task = _episode(cls, env, seed=SEEDS[0])
    try:
        notes = joplin.NOTES.rows(device)
        assert notes and len(joplin.FOLDERS.rows(device)) == 4
        by_id = {row["id"]: row for row in joplin.NOTES_NORMALIZED.rows(device)}
        assert set(by_id) == {note["id"] for note in notes}
        for note in notes:
            assert by_id[note["id"]] == joplin.normalized_row(note)
            # Columns the spec leaves unset take the app model's defaults (registered with the compiler).
            assert note["source_application"] == joplin.NOTE_DEFAULTS["source_application"]
    finally:
        task.teardown(env)
