"""A calibration as data (calibration.json) and as a page (calibration.html, one file: the
screenshots are linked from the two run folders beside it)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import jinja2

from taskkit.calibrate.compare import Calibration, EpisodeDiff, Share

MAX_SCREENS = 200  # screens listed in the page, worst recall first (the JSON has them all)


def _share(name: str, share: Share) -> dict[str, Any]:
    return {"name": name, "device": share.device, "simulator": share.simulator, "matched": share.matched,
            "recall": round(share.recall, 4), "precision": round(share.precision, 4),
            "worst_bounds_dp": round(share.worst_bounds_dp, 1),
            "missing": [f"{label} ×{count}" if count > 1 else label for label, count in share.missing.most_common(20)]}


def _episode(episode: EpisodeDiff) -> dict[str, Any]:
    return {"instance_id": episode.instance_id, "task": episode.task, "steps": episode.steps,
            "score_agrees": "score" not in episode.fields, "state_agrees": episode.state_agrees,
            "differences": {name: {"device": a, "simulator": b} for name, (a, b) in episode.fields.items()},
            "first_divergence": episode.first_divergence, "recorded_as": list(episode.recorded_as),
            "diverged_steps": [dataclasses.asdict(d) for d in episode.diverged],
            "first_divergence_dumps": None if episode.dumps is None else
            {"device": episode.dumps[0], "simulator": episode.dumps[1]}}


def as_json(calibration: Calibration, meta: dict[str, Any]) -> dict[str, Any]:
    """calibration.json: the figures, then per task, app and screen, then every episode."""
    tasks: dict[str, dict[str, int]] = {}
    for episode in calibration.episodes:
        row = tasks.setdefault(episode.task, {"episodes": 0, "score_agrees": 0, "state_agrees": 0, "steps_agree": 0})
        row["episodes"] += 1
        row["score_agrees"] += "score" not in episode.fields
        row["state_agrees"] += episode.state_agrees
        row["steps_agree"] += episode.first_divergence is None
    return {
        **meta,
        "agrees": calibration.agrees,
        "episodes": len(calibration.episodes),
        "score_agreement": round(calibration.score_agreement, 4),
        "state_agreement": round(calibration.state_agreement, 4),
        "step_agreement": round(calibration.step_agreement, 4),
        "only_on_device": calibration.only_device,
        "only_simulated": calibration.only_simulator,
        "per_task": tasks,
        "per_app": [_share(name, share) for name, share in sorted(calibration.apps.items())],
        "per_screen": [_share(name, share) for name, share in
                       sorted(calibration.screens.items(), key=lambda item: (item[1].recall, item[0]))],
        "per_episode": [_episode(e) for e in calibration.episodes],
    }


def _screenshot(root: Path, side: str, instance_id: str, step: int | None) -> str | None:
    """The relative link to a recorded screenshot, if the run kept it (`--record`)."""
    if step is None:
        return None
    relative = Path(side) / "trajectories" / instance_id / f"step_{step:03d}.png"
    return relative.as_posix() if (root / relative).exists() else None


_ENVIRONMENT = jinja2.Environment(loader=jinja2.PackageLoader("taskkit", "templates"), autoescape=True,
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def as_html(data: dict[str, Any], root: Path, sides: tuple[str, str]) -> str:
    """calibration.html from calibration.json's data; `root` holds the two run folders `sides`."""
    shots = {e["instance_id"]: [_screenshot(root, side, recorded, e["first_divergence"])
                                for side, recorded in zip(sides, e["recorded_as"])]
             for e in data["per_episode"]}
    return _ENVIRONMENT.get_template("calibration.html.j2").render(
        data=data, screens=data["per_screen"][:MAX_SCREENS], shots=shots)
