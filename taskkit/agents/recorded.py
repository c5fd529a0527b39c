"""Reading a recorded trajectory (written by `taskkit.trajectory`): its actions, in order."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from taskkit.agents.base import Action

#: The folder of an output directory that holds one `<instance_id>.jsonl` per episode.
DIRECTORY = "trajectories"


def read_actions(path: str | Path) -> Iterator[Action]:
    """The actions of a trajectory file, in order (steps without an action are skipped)."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if record.get("action") is not None:
                    yield Action.from_dict(record["action"])
            except (json.JSONDecodeError, ValueError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a trajectory step: {error}") from None
