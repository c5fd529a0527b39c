"""Crash-safe runs: a manifest of what a run is, and resuming it from its results.

A run with `--output_dir` writes `manifest.json` first (seed, instances, agent, device, taskkit
version, and the flags that change params or scores). Each result row is one line appended and flushed to disk before the next episode
starts, so a killed run leaves whole rows and at most one torn line at the end. Running again
with the same output directory resumes: the rows already there are kept, a torn line and the
rows of episodes that did not finish (interrupted, or lost to the infrastructure) are dropped,
and only the missing episodes run. A run whose seed, agent, instances or device differ from the
manifest is refused: its rows would not belong together.
"""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from taskkit.errors import TaskkitError

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
    instances: tuple[str, ...]
    agent: str
    device: str
    taskkit_version: str
    #: The flags that change params or scores (--fixed_task_seed, --config_axis, --side_effects,
    #: --strict): rows run under other values would not belong together.
    options: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["instances"] = list(self.instances)
        return data


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def prepare(output_dir: str | Path, manifest: Manifest) -> list[dict[str, Any]]:
    """Check or write the manifest, repair results.jsonl, and return the rows to keep."""
    root = Path(output_dir)
    root.mkdir(parents=True, exist_ok=True)
    manifest_path = root / MANIFEST
    if manifest_path.exists():
        try:
            recorded = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise ResumeMismatch(f"--output_dir {root}: {MANIFEST} is unreadable ({error}); use a new --output_dir") from None
        for field, value in manifest.to_json().items():
            if field != "taskkit_version" and recorded.get(field, {} if field == "options" else None) != value:
                shown = ("its task instances differ from this run's" if field == "instances"
                         else f"its {field} is {recorded.get(field)!r}, this run's is {value!r}")
                raise ResumeMismatch(f"--output_dir {root} holds another run ({shown}); "
                                     "resume it with the same flags or use a new --output_dir")
    else:
        _write_atomically(manifest_path, json.dumps(manifest.to_json(), indent=1) + "\n")
    return _repair(root / RESULTS, set(manifest.instances))


def _repair(path: Path, instances: set[str]) -> list[dict[str, Any]]:
    """The finished rows of `path` (first of each instance), rewriting the file if anything was dropped."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    kept, seen, dropped = [], set(), False
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
        _write_atomically(path, "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in kept))
    return kept
