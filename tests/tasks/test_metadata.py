"""Every task's difficulty, tags and optimal steps: declared, or AndroidWorld's published values
for its names; malformed metadata is refused where it is written."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import TaskDefinitionError, TaskEval, loading, metadata, registry
from taskkit.validators import setting_equals

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def builtin():
    loading.load_builtin()
    return {cls.name: cls for cls in registry.all_tasks()}


def test_every_builtin_task_has_usable_metadata(builtin) -> None:
    incomplete = [name for name, cls in builtin.items()
                  if cls.difficulty not in metadata.DIFFICULTIES or not cls.tags or not cls.optimal_steps
                  or metadata.problems(cls.difficulty, cls.tags, cls.optimal_steps)]
    assert incomplete == []


def test_tasks_under_android_worlds_names_carry_its_published_values(builtin) -> None:
    published = json.loads((ROOT / "taskkit" / "android_world_tasks.json").read_text())["tasks"]
    ours = sorted(set(published) & set(builtin))
    assert len(ours) >= 49 and len(published) == 116
    for name in ours:
        cls = builtin[name]
        assert (cls.difficulty, cls.optimal_steps) == (published[name]["difficulty"], published[name]["optimal_steps"])
        assert set(published[name]["tags"]) <= set(cls.tags), name
    # a subclass under another name does not inherit what was filled in for its base
    assert (builtin["ExpenseAddMultiple"].optimal_steps, builtin["ExpenseAddSingle"].optimal_steps) == (20, 6)
    assert "repetition" not in builtin["ExpenseAddSingle"].tags or "repetition" in published["ExpenseAddSingle"]["tags"]


@pytest.mark.parametrize("attrs, message", [
    ({"difficulty": "trivial"}, "difficulty must be one of easy, medium, hard, got 'trivial'"),
    ({"optimal_steps": 0}, "optimal_steps must be a positive whole number, got 0"),
    ({"tags": "system"}, "tags must be a tuple of non-empty strings"),
    ({"tags": ("spa", "level:two")}, "tag level:two must be level:N with N a positive whole number"),
    ({"tags": ("spa", "level:1", "level:2")}, "tags name level more than once: 1, 2"),
    ({"tags": ("bmoca", "category:")}, "tag category: has no value"),
])
def test_malformed_metadata_is_refused_when_the_class_is_defined(attrs, message) -> None:
    with pytest.raises(TaskDefinitionError, match=message):
        type("MetadataBad", (TaskEval,), {"app_names": ("settings",), "template": "x",
                                           "validator": lambda self: setting_equals("global", "wifi_on", "1"),
                                           **attrs}, register=False)


def test_a_specs_bad_difficulty_names_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "bad.textproto"
    spec.write_text('name: "MetadataSpec"\napps: "settings"\ncomplexity: 1\ndifficulty: "tricky"\ngoal: "x"\n'
                    'success { setting_equals { namespace: "global" key: "wifi_on" values: "1" } }\n'
                    'oracle { shell { command: "settings put global wifi_on 1" } }\n')
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--spec_dir", str(tmp_path), "--list_tasks"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{spec}:4:1: difficulty: must be one of easy, medium, hard, got 'tricky'" in proc.stderr


def test_result_rows_carry_the_metadata(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn,SystemDarkModeOn",
                           "--output_dir", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    rows = {r["task"]: r for r in map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())}
    assert (rows["SystemWifiTurnOn"]["difficulty"], rows["SystemWifiTurnOn"]["optimal_steps"]) == ("easy", 3)
    assert "screen_reading" in rows["SystemWifiTurnOn"]["tags"]
    assert (rows["SystemDarkModeOn"]["difficulty"], rows["SystemDarkModeOn"]["optimal_steps"]) == ("easy", 2)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["per_difficulty"]["easy"]["episodes"] == 2


def test_facets_and_the_source_benchmark_come_from_the_tags() -> None:
    tags = ("spa", "contacts", "level:2", "category:information-management")
    assert (metadata.facet(tags, "level"), metadata.facet(tags, "category")) == ("2", "information-management")
    assert metadata.plain_tags(tags) == ["spa", "contacts"] and metadata.facet(("x",), "level") is None
    assert metadata.benchmark("Anything", tags) == "spa"
    assert metadata.benchmark("ExpenseAddSingle", ("expense",)) == "android_world"
    assert metadata.benchmark("MyOwnTask", ("expense",)) == "taskkit"
