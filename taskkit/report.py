"""Progress while a suite runs, and the summary tables after it."""
from __future__ import annotations

import collections
import json
import math
import os
import sys
from pathlib import Path
from typing import IO, Iterable

from taskkit.runner import EpisodeResult


class Progress:
    """A one-line progress bar on a terminal; a line every 10 % when output is a log file."""

    def __init__(self, total: int, stream: IO[str] = sys.stderr, width: int = 30):
        self.total, self.stream, self.width = total, stream, width
        self.done = self.passed = self.errors = 0
        self.tty = stream.isatty()
        self._last_decile = -1

    def update(self, result: EpisodeResult) -> None:
        self.done += 1
        self.passed += result.success
        self.errors += result.error is not None
        filled = self.width * self.done // max(self.total, 1)
        line = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
            f"passed {self.passed} errors {self.errors}  {result.instance_id}"
        )
        if self.tty:
            self.stream.write("\r" + line[:120].ljust(120))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            decile = 10 * self.done // max(self.total, 1)
            if decile != self._last_decile or self.done == self.total:
                self._last_decile = decile
                self.stream.write(line + "\n")
        self.stream.flush()


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95 % by default); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _row(name: str, group: list[EpisodeResult]) -> list[str]:
    """Episodes, success rate with its 95 % interval and mean score over the scored ones ("n/a"
    if none), errors."""
    scored = [r for r in group if r.error is None]
    if not scored:
        return [name, str(len(group)), "n/a", "n/a", "n/a", str(len(group))]
    successes = sum(r.success for r in scored)
    low, high = wilson(successes, len(scored))
    mean = sum(r.score for r in scored) / len(scored)
    return [name, str(len(group)), f"{successes / len(scored):.1%}", f"{low:.0%}–{high:.0%}", f"{mean:.3f}",
            str(len(group) - len(scored))]


def _rows(groups: dict[str, list[EpisodeResult]]) -> list[list[str]]:
    return [_row(name, groups[name]) for name in sorted(groups)]


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table with left-aligned first column and right-aligned numbers."""
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(row) for row in rows])


def grouped(results: list[EpisodeResult]) -> tuple[dict[str, list[EpisodeResult]], dict[str, list[EpisodeResult]]]:
    """The results by task and by app (an episode counts for each of its apps)."""
    by_task: dict[str, list[EpisodeResult]] = collections.defaultdict(list)
    by_app: dict[str, list[EpisodeResult]] = collections.defaultdict(list)
    for result in results:
        by_task[result.task].append(result)
        for app in result.apps or ["(none)"]:
            by_app[app].append(result)
    return by_task, by_app


def summary(results: Iterable[EpisodeResult]) -> str:
    """Per task and per app: episodes, success rate and mean score over scored episodes, errors."""
    results = list(results)
    by_task, by_app = grouped(results)
    headers = ["task", "episodes", "success", "95% CI", "mean score", "errors"]
    parts = [table(headers, _rows(by_task) + [_row("ALL", results)]), "", table(["app"] + headers[1:], _rows(by_app))]
    errors = collections.Counter(r.error_kind for r in results if r.error_kind)
    if errors:
        parts += ["", "errors (not agent failures): " + ", ".join(f"{k} {v}" for k, v in sorted(errors.items()))]
    return "\n".join(parts)


def termination(result: EpisodeResult) -> str:
    """How the episode ended: declared complete / infeasible, step budget spent, or error."""
    if result.error_kind:
        return "error"
    return {"complete": "declared complete", "infeasible": "declared infeasible"}.get(result.status or "",
                                                                                     "step budget spent")


def _group_stats(group: list[EpisodeResult]) -> dict[str, object]:
    scored = [r for r in group if r.error is None]
    successes = sum(r.success for r in scored)
    low, high = wilson(successes, len(scored))
    return {
        "episodes": len(group), "scored": len(scored), "successes": successes,
        "success_rate": successes / len(scored) if scored else None, "success_ci95": [low, high],
        "mean_score": sum(r.score for r in scored) / len(scored) if scored else None,
        "errors": len(group) - len(scored),
    }


def summary_json(results: Iterable[EpisodeResult]) -> dict[str, object]:
    """The summary as data (`summary.json`): overall, per task and per app, success with its
    Wilson 95 % interval, termination reasons, premature completions, steps and durations."""
    results = list(results)
    by_task, by_app = grouped(results)
    scored = [r for r in results if r.error is None]
    return {
        "all": _group_stats(results),
        "per_task": {name: _group_stats(group) for name, group in sorted(by_task.items())},
        "per_app": {name: _group_stats(group) for name, group in sorted(by_app.items())},
        "termination": dict(sorted(collections.Counter(termination(r) for r in results).items())),
        # declared the goal complete while it was not: the agent's over-confidence
        "premature_completions": sum(r.status == "complete" and not r.success for r in scored),
        "errors_by_kind": dict(sorted(collections.Counter(r.error_kind for r in results if r.error_kind).items())),
        "mean_steps": sum(r.steps for r in scored) / len(scored) if scored else None,
        "mean_duration_s": sum(r.duration_s for r in results) / len(results) if results else None,
    }


class ResultsWriter:
    """Appends one JSON line per episode to OUTPUT_DIR/results.jsonl, flushed at once."""

    def __init__(self, output_dir: str | Path):
        self.path = Path(output_dir) / "results.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, result: EpisodeResult) -> None:
        """Append the row and put it on disk before returning: a kill leaves whole rows only
        (and at most one torn last line, which a resumed run drops)."""
        self._file.write(json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()
