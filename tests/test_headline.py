"""The headline never hides errors (issue #36 item 5): the summary's first line, its per-task rows
and report.html rate success over every episode, an error counted as a failure, and give the
errors and the success among the episodes without one beside it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taskkit import report_html
from taskkit.report import summary, summary_json, wilson


def rows() -> list[dict]:
    """Ten episodes of one task, three of them errors: the run of `--tasks BmocaAirplaneModeOn
    --device_config test` the issue quotes (7 successes, 3 task errors)."""
    made = [{"task": "BmocaAirplaneModeOn", "instance_id": f"A_{i}", "apps": ["settings"], "score": 1.0,
             "success": True, "steps": 1, "max_steps": 5, "status": "complete"} for i in range(7)]
    made += [{"task": "BmocaAirplaneModeOn", "instance_id": f"A_{i}", "apps": ["settings"], "score": 0.0,
              "success": False, "steps": 0, "max_steps": 5, "error": "solve failed: boom", "error_kind": "task"}
             for i in range(7, 10)]
    return made + [{"task": "B", "instance_id": "B_0", "apps": ["settings"], "score": 0.5, "success": False,
                    "steps": 2, "max_steps": 5, "status": "complete"}]


def test_success_counts_errors_as_failures_and_gives_the_rate_without_them_beside_it():
    stats = summary_json(rows())["per_task"]["BmocaAirplaneModeOn"]
    assert stats["success_rate"] == pytest.approx(0.7) and stats["success_ci95"] == pytest.approx(list(wilson(7, 10)))
    assert stats["success_rate_scored"] == 1.0 and stats["errors"] == 3
    assert stats["mean_score"] == pytest.approx(0.7)  # an error scores 0


def test_the_summary_headline_and_task_rows_read_over_all_episodes():
    text = summary(rows())
    first = text.splitlines()[0]
    assert first.startswith("success 63.6% (7/11 episodes, errors counted as failures")
    assert "errors 3" in first and "without errors 87.5% (7/8)" in first
    task_row = next(line.split() for line in text.splitlines() if line.startswith("BmocaAirplaneModeOn"))
    assert task_row == ["BmocaAirplaneModeOn", "10", "70.0%", "40%–89%", "0.700", "3", "100.0%"]


def test_report_html_gives_the_same_figures(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows()), encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps({"seed": 30, "agent": "oracle", "device": "sim"}))
    html = report_html.write(out)[0].read_text(encoding="utf-8")
    headline = re.search(r'<dd id="headline">(.*?)</dd>', html).group(1)
    assert headline.startswith("7/11 = 63.6% (errors counted as failures") and "without errors 7/8 = 87.5%" in headline
    task_row = re.search(r"<tr><td class=\"text\">BmocaAirplaneModeOn</td>(.*?)</tr>", html).group(1)
    assert "7/10 = 70.0%" in task_row and "<td class=\"num\">3</td>" in task_row and "7/7 = 100.0%" in task_row
    assert "7/11 · 64%" in html  # the per-app chart's bar: over every episode
