"""Progress while a suite runs, the summary tables after it, and the results file.

`python -m taskkit.report OUT_DIR` writes the run's HTML report (`taskkit.report_html`).
"""
from __future__ import annotations

import json
import sys
from typing import IO, Any, Iterable

from taskkit import metrics
from taskkit.metrics import wilson
from taskkit.outdir import OutputDir
from taskkit.resume import RESULTS
from taskkit.runner import EpisodeResult

__all__ = ["Progress", "ResultsWriter", "summary", "summary_json", "table", "wilson"]


SIDE_EFFECTS_NAMED = 5  # episodes with side effects the summary names before "and N more"


class Progress:
    """A one-line progress bar on a terminal; a line every 10 % when output is a log file."""

    def __init__(self, total: int, stream: IO[str] = sys.stderr, width: int = 30):
        self.total, self.stream, self.width = total, stream, width
        self.done = self.passed = self.errors = 0
        self.tty = stream.isatty()
        self._last_decile = -1

    def update(self, result: EpisodeResult) -> None:
        """Count an episode's row."""
        self.advance(result.instance_id, bool(result.success), result.error is not None)

    def advance(self, label: str, passed: bool, error: bool = False) -> None:
        """Count one unit of work (an episode; for taskkit.check, a task's property) named `label`."""
        self.done += 1
        self.passed += passed
        self.errors += error
        filled = self.width * self.done // max(self.total, 1)
        line = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
            f"passed {self.passed} errors {self.errors}  {label}"
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

    def clear(self) -> None:
        """Blank the bar on a terminal so other output can take its line (the next unit redraws it)."""
        if self.tty and self.done < self.total:
            self.stream.write("\r" + " " * 120 + "\r")
            self.stream.flush()


def _row(name: str, stats: dict[str, Any], progress: bool = False) -> list[str]:
    """Episodes; success rate over all of them (an error counts as a failure) with its 95 %
    interval and the mean score ("n/a" if none); with `progress`, the mean milestone progress;
    then the errors and the success rate among the episodes without one ("n/a" if none)."""
    extra = [_figure(stats["mean_progress"], ".3f")] if progress else []
    if not stats["episodes"]:
        return [name, "0", "n/a", "n/a", "n/a", *extra, "0", "n/a"]
    low, high = stats["success_ci95"]
    return [name, str(stats["episodes"]), f"{stats['success_rate']:.1%}", f"{low:.0%}–{high:.0%}",
            f"{stats['mean_score']:.3f}", *extra, str(stats["errors"]), _figure(stats["success_rate_scored"], ".1%")]


def _headline(stats: dict[str, Any]) -> str:
    """The summary's first line: success over every episode, errors counted as failures; beside it
    the errors and the success among the episodes without one."""
    low, high = stats["success_ci95"]
    return (f"success {_figure(stats['success_rate'], '.1%')} ({stats['successes']}/{stats['episodes']} episodes, "
            f"errors counted as failures; 95% CI {low:.0%}–{high:.0%}); errors {stats['errors']}; "
            f"without errors {_figure(stats['success_rate_scored'], '.1%')} ({stats['successes']}/{stats['scored']})")


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table with left-aligned first column and right-aligned numbers."""
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(row) for row in rows])


def _figure(value: float | None, spec: str = ".2f") -> str:
    return "n/a" if value is None else format(value, spec)


def _amount(value: float | None) -> str:
    """A usage figure: a count in full (12000000 tokens), a cost in at most six digits."""
    return "n/a" if value is None else str(value) if isinstance(value, int) else f"{value:g}"


def _metric_lines(data: dict[str, Any]) -> list[str]:
    """The run's metrics beyond the tables, one line each (usage and side effects when known)."""
    passes, ratio, duration = data["pass_k"], data["step_ratio"], data["duration_s"]
    lines = [
        "termination: " + (", ".join(f"{reason} {count}" for reason, count in data["termination"].items()) or "none"),
        f"premature completions (declared complete, not achieved): {data['premature_completions']}; "
        f"overdue (achieved, never declared): {data['overdue']}",
        f"pass^{passes['k']}: {_figure(passes['pass_hat_k'], '.1%')} over {passes['tasks']} task(s) "
        f"({passes['tasks_all_passed']} with every instance passed); pass@1 {_figure(passes['pass_at_1'], '.1%')}",
        f"step ratio (steps / optimal, {ratio['episodes']} successful episode(s) with a known optimum): "
        f"mean {_figure(ratio['mean'])}, median {_figure(ratio['median'])}",
        f"duration: total {duration['total']:.1f} s, mean {_figure(duration['mean'])} s",
    ]
    usage = data["usage"]
    if usage["totals"]:
        lines.append("agent usage: " + ", ".join(f"{key} {_amount(value)}" for key, value in usage["totals"].items())
                     + f" (tokens {_amount(usage['tokens'])}, cost {_amount(usage['cost'])})")
    effects = data["side_effects"]
    if effects["episodes_checked"]:
        named = effects.get("instances_with", [])[:SIDE_EFFECTS_NAMED]
        more = effects["episodes_with"] - len(named)
        which = (": " + ", ".join(named) + (f" and {more} more" if more > 0 else "")) if named else ""
        lines.append(f"side effects: {effects['episodes_with']} of {effects['episodes_checked']} episode(s){which}")
    if data["errors_by_kind"]:
        lines.append("errors (not agent failures): " + ", ".join(f"{k} {v}" for k, v in data["errors_by_kind"].items()))
    return lines


def summary(results: Iterable[EpisodeResult]) -> str:
    """The headline (`_headline`), then per task, app, difficulty, benchmark, level, category and tag:
    episodes, success rate over all episodes (errors counted as failures) with its 95 % interval,
    mean score, errors and the success rate without them; then termination reasons, pass^k, step
    ratio, duration, agent usage and side effects."""
    data = summary_json(results)
    progress = data["all"]["mean_progress"] is not None  # a column only when some task has milestones
    headers = ["task", "episodes", "success", "95% CI", "mean score", *(["progress"] if progress else []), "errors",
               "w/o errors"]
    task_rows = [_row(name, stats, progress) for name, stats in data["per_task"].items()] + [_row("ALL", data["all"], progress)]
    parts = [_headline(data["all"]), "", table(headers, task_rows)]
    for grouping in metrics.shown_groupings(data):
        rows = [_row(name, stats, progress) for name, stats in data[f"per_{grouping}"].items()]
        parts += ["", table([grouping] + headers[1:], rows)]
    return "\n".join(parts + [""] + _metric_lines(data))


def summary_json(results: Iterable[EpisodeResult]) -> dict[str, Any]:
    """The summary as data (`summary.json`): see `taskkit.metrics.compute`."""
    return metrics.compute(results)


class ResultsWriter:
    """Appends one JSON line per episode to results.jsonl in a claimed output directory (see
    taskkit.outdir), on disk before `write` returns; `close` also releases the directory."""

    def __init__(self, directory: OutputDir):
        self.directory = directory
        self.path = directory.path / RESULTS
        self._file = directory.append(RESULTS, sync=True)

    def write(self, result: EpisodeResult) -> None:
        """Append the row whole: a failed write (a full disk) is cut back and raises
        `outdir.WriteFailed`, so the file never holds a torn row."""
        self._file.write((json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))

    def close(self) -> None:
        self._file.close()
        self.directory.close()


if __name__ == "__main__":  # python -m taskkit.report OUT_DIR: the HTML report of a run
    from taskkit import report_html

    sys.exit(report_html.run(sys.argv))
