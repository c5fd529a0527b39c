"""examples/train_grpo.py runs TRL's GRPO to completion on CPU against `python -m taskkit.openenv`,
and the rewards the trainer logs are the episodes' scores, read from the device's state."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("trl", reason="the GRPO example needs the train extra (pip install 'taskkit[train]')")
pytest.importorskip("openenv.core", reason="the GRPO example needs the openenv extra (pip install 'taskkit[openenv]')")

ROOT = Path(__file__).resolve().parents[1]
STEPS, GENERATIONS = 2, 4


def test_grpo_runs_and_its_rewards_are_the_devices(tmp_path: Path) -> None:
    output = tmp_path / "grpo.json"
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "train_grpo.py"), "--max_steps", str(STEPS),
                           "--num_generations", str(GENERATIONS), "--output", str(output)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(output.read_text())
    episodes = figures["episodes"]
    assert len(episodes) == STEPS * GENERATIONS  # one episode on the device per completion
    for episode in episodes:  # the app in front after the action is what OpenAppTaskEval's check reads
        wanted = re.match(r"Open the (\w+) app", episode["goal"]).group(1)
        opened = json.loads(episode["completion"]).get("app_name")
        assert episode["reward"] == episode["score"] == float(opened == wanted), episode
    assert {episode["reward"] for episode in episodes} == {0.0, 1.0}
    per_step = [episodes[i:i + GENERATIONS] for i in range(0, len(episodes), GENERATIONS)]
    assert figures["logged_rewards"] == pytest.approx([sum(e["reward"] for e in step) / GENERATIONS
                                                       for step in per_step])
