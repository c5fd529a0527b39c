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


class TrajectoryWriter:
    """Appends the steps of one episode to `output_dir/trajectories/<instance_id>.jsonl`."""

    def __init__(self, output_dir: str | Path, instance_id: str, save_screenshots: bool = False):
        self.root = Path(output_dir)
        self.path = self.root / DIRECTORY / f"{instance_id}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.screenshots = self.root / DIRECTORY / instance_id if save_screenshots else None
        self._file = self.path.open("w", encoding="utf-8")

    @property
    def relative_path(self) -> str:
        return str(self.path.relative_to(self.root))

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
        if self.screenshots is not None and observation.screenshot is not None:
            self.screenshots.mkdir(parents=True, exist_ok=True)
            shot = self.screenshots / f"step_{observation.step:03d}.png"
            shot.write_bytes(observation.screenshot)
            line["screenshot"] = str(shot.relative_to(self.root))
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
