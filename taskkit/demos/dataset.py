"""The demonstration dataset on disk: written from a `taskkit.run` output directory, read back.

Layout of a dataset directory D:

- `D/run/`: the run that played the GUI references (`taskkit.run --agent gui_reference
  --save_screenshots`): its results, trajectories and one PNG per step; running the same
  `taskkit.demos` command again resumes it.
- `D/steps.jsonl`: one record per step of every kept episode (the fields are in `STEP_FIELDS`).
- `D/episodes.jsonl`: one record per kept episode (`EPISODE_FIELDS`).
- `D/dataset.json`: what the dataset is (seed, family, taskkit version, counts, dropped episodes).

D must be new, empty (but for its run), or a dataset (its dataset.json, written before the
records, says so); it is locked while
`taskkit.demos` writes it, and every file is written atomically, never through a link
(taskkit.outdir). `D/run` and `D/hf` must not be links.

Only episodes that scored 1.0 without an error are kept. Each step's low-level instruction comes
from the GUI reference agent replayed over the recorded screens (`GuiReferenceAgent.instruction`);
it is empty where the replay does not give the recorded action.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from taskkit import outdir, resume
from taskkit.agents.base import Action
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.demos import records
from taskkit.errors import TaskkitError

RUN, STEPS, EPISODES, META, HF = "run", "steps.jsonl", "episodes.jsonl", "dataset.json", "hf"
FORMAT = 1
EXTRA = "pip install 'taskkit[demos]'"
EPISODE_FIELDS = ("episode_id", "task", "apps", "seed", "params", "goal", "device_config", "max_steps", "steps",
                  "score", "side_effects", "trajectory")
STEP_FIELDS = ("episode_id", "step", "task", "apps", "params", "goal", "instruction", "device_config", "foreground",
               "elements", "screen_size", "screenshot", "action", "action_pixel", "action_normalized",
               "action_error", "score")
#: Columns `to_hf_dataset` stores as JSON text: their shape differs from task to task.
JSON_COLUMNS = ("params", "device_config", "elements", "action", "action_pixel", "action_normalized")


class DatasetError(TaskkitError, ValueError):
    """A directory that is not a (complete) demonstration dataset."""


class MissingExtra(TaskkitError, ImportError):
    """The Hugging Face `datasets` library is not installed."""


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise DatasetError(f"{path}:{number}: not a JSON line ({error})") from None


def is_dataset(data: dict[str, Any]) -> bool:
    """Whether a JSON object is a dataset's dataset.json (what makes a directory a dataset)."""
    return data.get("format") == FORMAT and "taskkit_version" in data


def claim(directory: str | Path) -> outdir.OutputDir:
    """The dataset directory, locked for this process (see taskkit.outdir): new, empty (but for
    its run) or a dataset."""
    claimed = outdir.claim(directory, "--output_dir", META, is_dataset, "a taskkit.demos dataset", own_files=(RUN,))
    try:
        claimed.refuse_links(RUN, HF)
    except BaseException:
        claimed.close()
        raise
    return claimed


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _episode(row: dict[str, Any]) -> dict[str, Any]:
    return {"episode_id": row["instance_id"], **{key: row[key] for key in EPISODE_FIELDS[1:]}}


def _steps(root: Path, episode: dict[str, Any]) -> list[dict[str, Any]]:
    """The step records of a kept episode, with their instructions from the replayed reference."""
    agent = GuiReferenceAgent()
    agent.reset(records.agent_episode(episode, wants_gui_reference=True, wants_device_locale=True))
    steps, last_error = [], None
    for line in _read_jsonl(root / RUN / episode["trajectory"]):
        if line.get("action") is None:
            continue
        if "screenshot" not in line:
            raise DatasetError(f"{episode['trajectory']}: step {line['step']} has no screenshot")
        shot = f"{RUN}/{line['screenshot']}"
        line["screen_size"] = list(records.png_size(root / shot))
        seen = records.observation(line, episode["goal"], episode["max_steps"], last_error)
        replayed = agent.step(seen)
        action = Action.from_dict(line["action"])
        pixel, normalized = records.action_forms(action, seen.ui_elements, seen.screen_size)  # type: ignore[arg-type]
        steps.append({
            **{key: episode[key] for key in ("episode_id", "task", "apps", "params", "goal", "device_config")},
            "step": line["step"], "instruction": agent.instruction if replayed == action else "",
            "foreground": line.get("foreground"), "elements": line["elements"], "screen_size": line["screen_size"],
            "screenshot": shot, "action": line["action"], "action_pixel": pixel, "action_normalized": normalized,
            "action_error": line.get("action_error"), "score": episode["score"]})
        last_error = line.get("action_error")
    return [{key: step[key] for key in STEP_FIELDS} for step in steps]


def build(directory: outdir.OutputDir, meta: dict[str, Any]) -> dict[str, Any]:
    """Write steps.jsonl, episodes.jsonl and dataset.json from `directory/run` (every row of its
    results, in the run's instance order) into the claimed dataset `directory` and return
    dataset.json's content; `meta` (seed, family...) goes into it. The tasks of the run must be
    registered."""
    root = directory.path
    try:
        order = list(resume.instance_order(json.loads((root / RUN / "manifest.json").read_text(encoding="utf-8"))))
        rows = {row["instance_id"]: row for row in _read_jsonl(root / RUN / "results.jsonl")}
    except (OSError, ValueError, KeyError) as error:
        raise DatasetError(f"{root / RUN}: no complete taskkit.run output ({error})") from None
    episodes, steps, dropped = [], [], []
    for instance_id in order:
        row = rows.get(instance_id)
        if row is None:
            continue
        if row["score"] < 1.0 or row["error"] is not None:
            reason = row["error"] or "; ".join(row["reasons"]) or f"status {row['status']}"
            dropped.append({"episode_id": instance_id, "score": row["score"], "reason": reason})
            continue
        episode = _episode(row)
        episodes.append(episode)
        steps.extend(_steps(root, episode))
    summary = {"format": FORMAT, **meta, "episodes": len(episodes), "steps": len(steps), "dropped": len(dropped),
               "steps_without_instruction": sum(1 for step in steps if not step["instruction"]),
               "dropped_episodes": dropped}
    directory.replace(META, json.dumps(summary, indent=1, ensure_ascii=False) + "\n")  # first: D is a dataset now
    directory.replace(EPISODES, _jsonl(episodes))
    directory.replace(STEPS, _jsonl(steps))
    return summary


def _require(directory: str | Path, name: str) -> Path:
    path = Path(directory) / name
    if not path.is_file():
        raise DatasetError(f"{directory}: not a taskkit.demos dataset (no {name}); "
                           "write one with python -m taskkit.demos")
    return path


def load(directory: str | Path) -> Iterator[dict[str, Any]]:
    """The step records of the dataset in `directory`, in order (see `STEP_FIELDS`); the
    screenshot is a path relative to `directory`."""
    yield from _read_jsonl(_require(directory, STEPS))


def load_episodes(directory: str | Path) -> list[dict[str, Any]]:
    """The episode records of the dataset in `directory` (see `EPISODE_FIELDS`)."""
    return list(_read_jsonl(_require(directory, EPISODES)))


def check_extra() -> None:
    """Raise MissingExtra, naming the extra to install, when `datasets` is missing."""
    try:
        import datasets  # noqa: F401
    except ImportError:
        raise MissingExtra(f"the Hugging Face dataset needs the datasets library: {EXTRA}") from None


def to_hf_dataset(directory: str | Path) -> Any:
    """The dataset as a Hugging Face `datasets.Dataset`: one row per step, the screenshot an
    `Image` column, the columns in `JSON_COLUMNS` JSON text. Needs the `demos` extra."""
    check_extra()
    import datasets

    root = Path(directory).resolve()
    rows = [{**step, **{key: json.dumps(step[key], ensure_ascii=False) for key in JSON_COLUMNS},
             "screenshot": str(root / step["screenshot"])} for step in load(root)]
    return datasets.Dataset.from_list(rows).cast_column("screenshot", datasets.Image())
