"""Crash-safe runs: a manifest of what a run is, and resuming it from its results.

A run with `--output_dir` claims the directory (taskkit.outdir: new, empty or already a run's,
locked while the run lasts) and writes `manifest.json` first (seed; the suite as its tasks,
instances per task and device configs, from which every instance id follows; agent, device,
taskkit version, and the flags that change params or scores). Each result row is one line written
whole and synced to disk before the next episode starts (a failed write is cut back), so only a
kill in mid-write can leave a torn line, at the end. Running again with the same output directory
resumes: the rows already there are kept, a torn last line (said on stderr) and the rows of
episodes that did not finish (interrupted, or lost to the infrastructure) are dropped, and only
the missing episodes run. A run whose seed, agent, instances or device differ from the manifest
is refused: its rows would not belong together.
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Iterator

from taskkit import outdir
from taskkit.agents.recorded import DIRECTORY
from taskkit.errors import TaskkitError
from taskkit.outdir import OutputDir
from taskkit.suite import SuiteShape

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
# Rows of episodes that did not finish: they run again on resume.
UNFINISHED = ("interrupted", "infrastructure")


class ResumeMismatch(TaskkitError, ValueError):
    """The output directory holds another run; the message names what differs."""


@dataclasses.dataclass(frozen=True)
class Manifest:
    """What a run is: resuming it must not change any of this."""

    seed: int
    suite: SuiteShape  # which instances, in order (not every id: a suite may have millions)
    agent: str
    device: str
    taskkit_version: str
    #: The flags that change params or scores (--fixed_task_seed, --config_axis, --side_effects,
    #: --strict): rows run under other values would not belong together.
    options: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["suite"] = self.suite.to_json()
        return data


def instance_order(recorded: dict[str, Any]) -> Iterator[str]:
    """A manifest's instance ids in run order (a manifest of taskkit before 0.1's suite shape
    lists them as `instances`)."""
    if "suite" in recorded:
        return SuiteShape.from_json(recorded["suite"]).ids()
    return iter(recorded["instances"])


def _same_suite(recorded: dict[str, Any], shape: SuiteShape) -> bool:
    if "suite" in recorded or "instances" not in recorded:
        return recorded.get("suite") == shape.to_json()
    return len(recorded["instances"]) == len(shape) and list(recorded["instances"]) == list(shape.ids())


def is_manifest(data: dict[str, Any]) -> bool:
    """Whether a JSON object is a run's manifest (what makes a directory a taskkit.run output)."""
    return {"seed", "agent"} <= set(data)


def claim(output_dir: str | os.PathLike[str]) -> OutputDir:
    """The run's output directory, locked for this process (see taskkit.outdir): new, empty or a
    run's (it has a manifest); its results file and trajectories must not be links."""
    directory = outdir.claim(output_dir, "--output_dir", MANIFEST, is_manifest, "a taskkit.run output")
    try:
        directory.refuse_links(RESULTS, DIRECTORY)
    except BaseException:
        directory.close()
        raise
    return directory


def prepare(directory: OutputDir, manifest: Manifest) -> tuple[list[dict[str, Any]], list[str]]:
    """Check or write the manifest, repair results.jsonl; return the rows to keep and what was
    repaired (one line each, e.g. a torn last line dropped)."""
    recorded_text = directory.read_text(MANIFEST)
    if recorded_text is not None:
        try:
            recorded = json.loads(recorded_text)
        except json.JSONDecodeError as error:
            raise ResumeMismatch(f"--output_dir {directory.path}: {MANIFEST} is unreadable ({error}); "
                                 "use a new --output_dir") from None
        for field, value in manifest.to_json().items():
            same = (_same_suite(recorded, manifest.suite) if field == "suite"
                    else recorded.get(field, {} if field == "options" else None) == value)
            if field != "taskkit_version" and not same:
                shown = ("its task instances differ from this run's" if field == "suite"
                         else f"its {field} is {recorded.get(field)!r}, this run's is {value!r}")
                raise ResumeMismatch(f"--output_dir {directory.path} holds another run ({shown}); "
                                     "resume it with the same flags or use a new --output_dir")
    else:
        directory.replace(MANIFEST, json.dumps(manifest.to_json(), indent=1) + "\n")
    return _repair(directory, manifest.suite)


def _repair(directory: OutputDir, instances: SuiteShape) -> tuple[list[dict[str, Any]], list[str]]:
    """The finished rows of results.jsonl (first of each instance) and the notices of what was
    repaired, rewriting the file if anything was dropped."""
    text = directory.read_text(RESULTS)
    if text is None:
        return [], []
    kept, seen, dropped = [], set(), False
    notices = [] if text.endswith("\n") or not text else [
        f"{directory.path / RESULTS}: dropped a torn last line (the run was stopped while writing it)"]
    for line in text.splitlines(keepends=True):
        try:
            row = json.loads(line) if line.endswith("\n") else None
        except json.JSONDecodeError:
            row = None
        if (not isinstance(row, dict) or row.get("instance_id") not in instances or row["instance_id"] in seen
                or row.get("error_kind") in UNFINISHED):
            dropped = True
            continue
        seen.add(row["instance_id"])
        kept.append(row)
    if dropped:
        directory.replace(RESULTS, "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in kept))
    return kept, notices
