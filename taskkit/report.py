"""Progress while a suite runs, and the summary tables after it."""
from __future__ import annotations

import collections
import json
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


def _row(name: str, group: list[EpisodeResult]) -> list[str]:
    """Episodes, success rate and mean score over the scored ones ("n/a" if none), errors."""
    scored = [r for r in group if r.error is None]
    if not scored:
        return [name, str(len(group)), "n/a", "n/a", str(len(group))]
    rate = sum(r.success for r in scored) / len(scored)
    mean = sum(r.score for r in scored) / len(scored)
    return [name, str(len(group)), f"{rate:.1%}", f"{mean:.3f}", str(len(group) - len(scored))]


def _rows(groups: dict[str, list[EpisodeResult]]) -> list[list[str]]:
    return [_row(name, groups[name]) for name in sorted(groups)]


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table with left-aligned first column and right-aligned numbers."""
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(row) for row in rows])


def summary(results: Iterable[EpisodeResult]) -> str:
    """Per task and per app: episodes, success rate and mean score over scored episodes, errors."""
    results = list(results)
    by_task: dict[str, list[EpisodeResult]] = collections.defaultdict(list)
    by_app: dict[str, list[EpisodeResult]] = collections.defaultdict(list)
    for result in results:
        by_task[result.task].append(result)
        for app in result.apps or ["(none)"]:
            by_app[app].append(result)
    headers = ["task", "episodes", "success", "mean score", "errors"]
    parts = [table(headers, _rows(by_task) + [_row("ALL", results)]), "", table(["app"] + headers[1:], _rows(by_app))]
    errors = collections.Counter(r.error_kind for r in results if r.error_kind)
    if errors:
        parts += ["", "errors (not agent failures): " + ", ".join(f"{k} {v}" for k, v in sorted(errors.items()))]
    return "\n".join(parts)


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
