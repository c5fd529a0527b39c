"""Task metadata: difficulty, tags and the optimal step count, and AndroidWorld's published values.

Every task declares `difficulty` (easy / medium / hard), `tags` and `optimal_steps` (the fewest
GUI actions that solve it: the seed benchmarks' "golden steps"). A task under one of
AndroidWorld's names that leaves one of them undeclared gets AndroidWorld's published value
(android_world_tasks.json, taken from android_world/task_metadata.json); its published tags are
always added to the declared ones.

Two tag forms are facets rather than plain tags: `level:N` (SPA-Bench's ladder level, a positive
whole number) and `category:NAME` (the benchmark's task category). A task's source benchmark
is the seed family it is tagged with (`bmoca`, `spa`, `androidlens`), else `android_world` for
AndroidWorld's names, else `taskkit`.
"""
from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any, Mapping


DIFFICULTIES = ("easy", "medium", "hard")
#: The seed benchmarks besides AndroidWorld whose tasks carry the benchmark's name as a tag.
SEED_BENCHMARKS = ("bmoca", "spa", "androidlens")
#: Tag prefixes that name a facet: `level:2`, `category:system`.
FACETS = ("level", "category")
ANDROID_WORLD_FILE = Path(__file__).with_name("android_world_tasks.json")
#: B-MoCA's published tasks, each with the taskkit task and params that state it (taskkit.seed_coverage).
BMOCA_FILE = Path(__file__).with_name("bmoca_tasks.json")


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
    else:
        found += _facet_problems(tags)
    if optimal_steps is not None and (isinstance(optimal_steps, bool) or not isinstance(optimal_steps, int)
                                      or optimal_steps < 1):
        found.append(f"optimal_steps must be a positive whole number, got {optimal_steps!r}")
    return found


def from_step_limit(step_limit: int) -> tuple[float, str]:
    """(complexity, difficulty) of a task from a benchmark that publishes step limits, not
    difficulties (B-MoCA): the limit is the step budget (complexity = limit / 10); easy up to 8
    steps, medium up to 13, hard beyond."""
    return step_limit / 10, "easy" if step_limit <= 8 else "medium" if step_limit <= 13 else "hard"


def published_step_limit(name: str, params: Mapping[str, Any]) -> int | None:
    """The step limit B-MoCA publishes for this very instance of task `name` (None: it publishes
    none, and the class's budget holds). One task class stands for several published instances
    ("call 2000-0202": 14, "call 123-4578": 13); taskkit/bmoca_tasks.json names each one's params,
    and the instance whose params include an entry's takes its limit (the entry naming the most
    params first)."""
    for named, limit in _published_limits().get(name, ()):
        if all(params.get(key) == value for key, value in named.items()):
            return limit
    return None


@functools.lru_cache(maxsize=1)
def _published_limits() -> dict[str, list[tuple[dict[str, Any], int]]]:
    """Each covered B-MoCA task's published (params, step limit) pairs, the most specific first."""
    found: dict[str, list[tuple[dict[str, Any], int]]] = {}
    for entry in json.loads(BMOCA_FILE.read_text(encoding="utf-8"))["tasks"]:
        if entry.get("task") is not None:
            found.setdefault(entry["task"], []).append((entry.get("params", {}), entry["step_limit"]))
    return {task: sorted(pairs, key=lambda pair: -len(pair[0])) for task, pairs in found.items()}


def _facet_problems(tags: tuple[str, ...]) -> list[str]:
    found = []
    for name in FACETS:
        values = [tag.partition(":")[2] for tag in tags if tag.startswith(f"{name}:")]
        if len(values) > 1:
            found.append(f"tags name {name} more than once: {', '.join(values)}; keep one {name}:VALUE tag")
        elif values and not values[0]:
            found.append(f"tag {name}: has no value; write {name}:VALUE")
        elif values and name == "level" and not (values[0].isdigit() and int(values[0]) > 0):
            found.append(f"tag level:{values[0]} must be level:N with N a positive whole number")
    return found


def facet(tags: tuple[str, ...] | list[str], name: str) -> str | None:
    """The value of the `name:VALUE` tag (`level`, `category`), or None."""
    return next((tag.partition(":")[2] for tag in tags if tag.startswith(f"{name}:")), None)


def plain_tags(tags: tuple[str, ...] | list[str]) -> list[str]:
    """The tags that are not facets."""
    return [tag for tag in tags if not any(tag.startswith(f"{name}:") for name in FACETS)]


def benchmark(name: str, tags: tuple[str, ...] | list[str]) -> str:
    """The benchmark a task comes from: its seed family tag, `android_world` or `taskkit`."""
    family = next((b for b in SEED_BENCHMARKS if b in tags), None)
    return family or ("android_world" if name in android_world() else "taskkit")
