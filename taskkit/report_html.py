"""A run's report as one self-contained HTML file: `python -m taskkit.report OUT_DIR`.

Reads OUT_DIR/results.jsonl (and manifest.json when there is one) and writes OUT_DIR/report.html:
success per app, difficulty and tag with 95 % intervals, score and step-ratio histograms, the
run's metrics (`taskkit.metrics`) and a table of episodes linking each trajectory and its
screenshots by relative paths. Inline CSS and SVG only: no script, nothing fetched. Every value
is escaped by Jinja2's autoescaping, so a goal or a reason cannot inject markup.

OUT_DIR must be a run's (it has a manifest.json); the report is written while holding the
directory's lock, atomically and never through a link (taskkit.outdir).

Exit codes: 0 written, 2 bad input (one line: a missing directory, no results.jsonl, a damaged
row, no manifest, a directory in use by a run), 3 the report could not be written (a full disk).
"""
from __future__ import annotations

import json
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import jinja2

from taskkit import cli, metrics, outdir, plots
from taskkit.errors import TaskkitError
from taskkit.agents.recorded import DIRECTORY
from taskkit.resume import MANIFEST, RESULTS, is_manifest

PROG = "taskkit.report"
REPORT = "report.html"
USAGE = f"usage: python -m {PROG} OUT_DIR   (the --output_dir of a taskkit.run; writes OUT_DIR/{REPORT})"


class ReportError(TaskkitError, ValueError):
    """Bad input: the message is the one line the CLI prints."""


def load_rows(out_dir: Path) -> tuple[list[metrics.Row], list[str]]:
    """The rows of OUT_DIR/results.jsonl and warnings; a torn last line (a run killed while
    appending) is skipped with a warning, any other damaged line is a `ReportError`."""
    if not out_dir.is_dir():
        raise ReportError(f"{out_dir}: no such directory; give the --output_dir of a taskkit.run")
    path = out_dir / RESULTS
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    except FileNotFoundError:
        raise ReportError(f"{out_dir}: no {RESULTS}; give the --output_dir of a taskkit.run") from None
    except OSError as error:
        raise ReportError(f"{path}: {error.strerror or error}") from None
    rows, warnings = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or "task" not in data or "instance_id" not in data:
                raise ValueError("not a result row (an object with task and instance_id)")
            rows.append(metrics.Row.of(data))
        except (ValueError, TypeError) as error:  # JSONDecodeError included; a field of the wrong type
            if number == len(lines):
                warnings.append(f"{path}:{number}: skipped a torn last line (the run was stopped while writing it)")
                continue
            raise ReportError(f"{path}:{number}: damaged row ({error}); the file was edited or corrupted") from None
    return rows, warnings


def _manifest(out_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _inside(relative: Path) -> bool:
    """Whether a path a row names stays inside the output directory."""
    return not relative.is_absolute() and ".." not in relative.parts


def _href(out_dir: Path, relative: str | None) -> str | None:
    """A relative link to a file of the run, or None if it is absent or lies outside OUT_DIR."""
    if not relative or not _inside(Path(relative)):
        return None
    return urllib.parse.quote(relative) if (out_dir / relative).is_file() else None


def _screenshots(out_dir: Path, row: metrics.Row) -> list[tuple[str, str]]:
    """(name, relative link) of the episode's saved screenshots, in step order."""
    folder = Path(DIRECTORY) / row.instance_id
    if not row.instance_id or not _inside(folder) or not (out_dir / folder).is_dir():
        return []
    return [(shot.name, urllib.parse.quote(str(folder / shot.name))) for shot in sorted((out_dir / folder).glob("*.png"))]


def _chart(groups: dict[str, dict[str, Any]]) -> plots.IntervalChart | None:
    if not groups:
        return None
    return plots.interval_chart([(name, stats["successes"], stats["episodes"], *stats["success_ci95"])
                                 for name, stats in groups.items()])


def context(out_dir: Path, rows: list[metrics.Row]) -> dict[str, Any]:
    """Everything the template shows."""
    data = metrics.compute(rows)
    ratios = [r.step_ratio for r in rows if r.step_ratio is not None]
    return {
        "title": out_dir.resolve().name, "manifest": _manifest(out_dir), "data": data,
        "charts": [(title.replace("_", " "), chart)
                   for title in metrics.shown_groupings(data)
                   if (chart := _chart(data[f"per_{title}"])) is not None],
        "score_histogram": plots.histogram([r.score for r in rows if r.scored], plots.SCORE_EDGES, plots.SCORE_LABELS),
        "ratio_histogram": plots.histogram(ratios, plots.RATIO_EDGES, plots.RATIO_LABELS) if ratios else None,
        "episodes": [{"row": row, "trajectory": _href(out_dir, row.trajectory),
                      "screenshots": _screenshots(out_dir, row)} for row in rows],
    }


_ENVIRONMENT = jinja2.Environment(loader=jinja2.PackageLoader("taskkit", "templates"), autoescape=True,
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render(out_dir: Path, rows: list[metrics.Row]) -> str:
    """The report's HTML."""
    return _ENVIRONMENT.get_template("report.html.j2").render(context(out_dir, rows))


def write(out_dir: str | Path) -> tuple[Path, list[str]]:
    """Write OUT_DIR/report.html and return its path and the loader's warnings. OUT_DIR must be
    a run's (it has a manifest); it is locked while the report is written (taskkit.outdir)."""
    rows, warnings = load_rows(Path(out_dir))  # a missing directory, no results, a damaged row: said first
    with outdir.claim(out_dir, "", MANIFEST, is_manifest, "a taskkit.run output", existing_only=True) as directory:
        return _save(directory, rows), warnings


def write_into(directory: outdir.OutputDir) -> tuple[Path, list[str]]:
    """Write report.html into a run directory this process has claimed (taskkit.run's own)."""
    rows, warnings = load_rows(directory.path)
    return _save(directory, rows), warnings


def _save(directory: outdir.OutputDir, rows: list[metrics.Row]) -> Path:
    """report.html, atomically and never through a link: a failed write leaves no temporary file
    and raises outdir.WriteFailed."""
    return directory.replace(REPORT, render(directory.path, rows))


def run(argv: list[str]) -> int:
    """The CLI: one OUT_DIR; bad input is one line on stderr and exit code 2, never a traceback."""
    args = argv[1:]
    if any(arg in ("-h", "--help") for arg in args):
        print(f"{USAGE}\n\n{__doc__}")
        return 0
    try:
        if len(args) != 1 or args[0].startswith("-"):
            raise ReportError(f"expected one OUT_DIR, got {' '.join(args) or 'nothing'}; {USAGE}")
        cli.refuse_nul("OUT_DIR", args[0])
        path, warnings = write(args[0])
    except (ReportError, outdir.OutputDirError, cli.UsageError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except outdir.WriteFailed as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 3
    for warning in warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    print(f"report: {path}")
    return 0
