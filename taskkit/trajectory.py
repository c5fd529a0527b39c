"""What an agent did, step by step: `trajectories/<instance_id>.jsonl` beside `results.jsonl`.

One JSON line per step: the step number, the foreground activity, the elements the agent saw
(and a digest of them), the action, its error, the time the agent took, and what the agent
reports it used (tokens...). With screenshots on, `<instance_id>/step_NNN.png` beside it. A
trajectory is enough to replay an episode (`--agent replay:PATH`), so a bug report is a file.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from taskkit.agents.base import Action, Observation
from taskkit.device.services.ui import UIElement
from taskkit.agents.recorded import DIRECTORY, screen_digest
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
        elements = observation.ui_elements
        head: dict[str, Any] = {
            "step": observation.step,
            "foreground": observation.foreground,
            "elements_digest": screen_digest(elements),
        }
        tail: dict[str, Any] = {
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
            tail["screenshot"] = f"{DIRECTORY}/{self.instance_id}/{name}"
        self._file.write((_line(head, elements, tail) + "\n").encode("utf-8"))

    def close(self) -> None:
        self._file.close()
        if self._screenshots is not None:
            self._screenshots.close()
        self.folder.close()


def _line(head: dict[str, Any], elements: Sequence[UIElement], tail: dict[str, Any]) -> str:
    """`json.dumps({**head, "elements": [e.as_dict() ...], **tail}, ensure_ascii=False)`, with each
    element's JSON made once (`UIElement.json_text`) rather than at every step it is seen on."""
    listed = "[" + ", ".join(element.json_text for element in elements) + "]"
    return f'{json.dumps(head, ensure_ascii=False)[:-1]}, "elements": {listed}, {json.dumps(tail, ensure_ascii=False)[1:]}'
