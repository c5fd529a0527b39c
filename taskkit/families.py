"""Suite families, as AndroidWorld's `--suite_family` names them: which registered tasks a run takes.

* `android_world` — the tasks named as AndroidWorld names them (its 116, listed in its
  android_world/task_metadata.json; a run gets those of them taskkit has);
* `information_retrieval` — the question tasks (tagged `information_retrieval`), taskkit's and
  AndroidWorld's;
* `taskkit` — taskkit's own tasks, those AndroidWorld does not have;
* `all` — every registered task (the default).
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit import metadata, registry

# AndroidWorld's task names (android_world/task_metadata.json, via taskkit/android_world_tasks.json).
ANDROID_WORLD_TASKS: frozenset[str] = frozenset(metadata.android_world())

# Each predicate sees a task class or a `registry.Deferred` (name, tags): choosing a family compiles no spec.
FAMILIES: dict[str, Callable[[Any], bool]] = {
    "all": lambda cls: True,
    "android_world": lambda cls: cls.name in ANDROID_WORLD_TASKS,
    "information_retrieval": lambda cls: "information_retrieval" in tuple(getattr(cls, "tags", ()) or ()),
    "taskkit": lambda cls: cls.name not in ANDROID_WORLD_TASKS,
}


def tasks_in(family: str) -> list[str]:
    """The names of the registered tasks of `family`, in registry order; KeyError names the families."""
    if family not in FAMILIES:
        raise KeyError(f"unknown suite family {family!r}; use one of {', '.join(FAMILIES)}")
    return [name for name in registry.names() if FAMILIES[family](registry.peek(name))]
