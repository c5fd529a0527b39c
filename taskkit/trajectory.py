"""What an agent did, step by step: `trajectories/<instance_id>.jsonl` beside `results.jsonl`.

One JSON line per step: the step number, the foreground activity, the elements the agent saw
(and a digest of them), the action, its error, the time the agent took, and what the agent
reports it used (tokens...). With screenshots on, `<instance_id>/step_NNN.png` beside it. A
trajectory is enough to replay an episode (`--agent replay:PATH`), so a bug report is a file.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskkit.agents.base import Action, Observation
from taskkit.agents.recorded import DIRECTORY, elements_digest
from taskkit.outdir import OutputDir, OutputDirError, WriteFailed


class TrajectoryWriter:
    """Writes the steps of one episode to `output_dir/trajectories/<instance_id>.jsonl`, a new
    file (taskkit.outdir: nothing is written through a link; a failed write is WriteFailed)."""

    def __init__(self, output_dir: str | Path, instance_id: str, save_screenshots: bool = False):
        try:
            root = OutputDir.open(output_dir, create=True)  # a claimed --output_dir, or a library caller's
        except OutputDirError as error:  # mid-run: the run stops (it cannot record), it keeps its rows
            raise WriteFailed(str(error)) from None
        with root:
            self.folder = root.subdir(DIRECTORY)
        try:
            self._file = self.folder.create(f"{instance_id}.jsonl")
        except BaseException:
            self.folder.close()
            raise
        self.instance_id, self.save_screenshots = instance_id, save_screenshots
        self._screenshots: OutputDir | None = None

    @property
    def relative_path(self) -> str:
        return f"{DIRECTORY}/{self.instance_id}.jsonl"

    def step(self, observation: Observation, action: Action | None, error: str | None, seconds: float,
             usage: dict[str, Any]) -> None:
        elements = [element.as_dict() for element in observation.ui_elements]
        line: dict[str, Any] = {
            "step": observation.step,
            "foreground": observation.foreground,
            "elements_digest": elements_digest(elements),
            "elements": elements,
            "screen_error": observation.screen_error,
            "action": None if action is None else action.to_dict(),
            "action_error": error,
            "agent_seconds": round(seconds, 4),
            "usage": usage,
        }
        if self.save_screenshots and observation.screenshot is not None:
            if self._screenshots is None:
                self._screenshots = self.folder.subdir(self.instance_id, replace_link=True)
            name = f"step_{observation.step:03d}.png"
            with self._screenshots.create(name) as shot:
                shot.write(observation.screenshot)
            line["screenshot"] = f"{DIRECTORY}/{self.instance_id}/{name}"
        self._file.write((json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8"))

    def close(self) -> None:
        self._file.close()
        if self._screenshots is not None:
            self._screenshots.close()
        self.folder.close()
