"""Task metadata: difficulty, tags and the optimal step count, and AndroidWorld's published values.

Every task declares `difficulty` (easy / medium / hard), `tags` and `optimal_steps` (the fewest
GUI actions that solve it). A task under one of AndroidWorld's names that leaves one of them
undeclared gets AndroidWorld's published value (android_world_tasks.json, taken from
android_world/task_metadata.json); its published tags are always added to the declared ones.
"""
from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

DIFFICULTIES = ("easy", "medium", "hard")
ANDROID_WORLD_FILE = Path(__file__).with_name("android_world_tasks.json")


@dataclasses.dataclass(frozen=True)
class Metadata:
    difficulty: str
    tags: tuple[str, ...]
    optimal_steps: int | None


@functools.lru_cache(maxsize=1)
def android_world() -> dict[str, Metadata]:
    """AndroidWorld's 116 tasks by name, with their published metadata."""
    tasks = json.loads(ANDROID_WORLD_FILE.read_text(encoding="utf-8"))["tasks"]
    return {name: Metadata(v["difficulty"], tuple(v["tags"]), int(v["optimal_steps"])) for name, v in tasks.items()}


def complete(name: str, declared: Metadata) -> Metadata:
    """`declared` with AndroidWorld's published values filling what it leaves out (for its names)."""
    published = android_world().get(name)
    if published is None:
        return declared
    return Metadata(declared.difficulty or published.difficulty,
                    tuple(dict.fromkeys(declared.tags + published.tags)),
                    declared.optimal_steps or published.optimal_steps)


def problems(difficulty: Any, tags: Any, optimal_steps: Any) -> list[str]:
    """What is wrong with declared metadata (empty when it is usable; unset values are fine)."""
    found = []
    if difficulty not in ("", *DIFFICULTIES):
        found.append(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
    if isinstance(tags, str) or not all(isinstance(tag, str) and tag for tag in tags):
        found.append(f"tags must be a tuple of non-empty strings, got {tags!r}")
    if optimal_steps is not None and (isinstance(optimal_steps, bool) or not isinstance(optimal_steps, int)
                                      or optimal_steps < 1):
        found.append(f"optimal_steps must be a positive whole number, got {optimal_steps!r}")
    return found
