"""The task registry: every concrete task class, looked up by name.

Task classes register themselves when defined (`TaskEval.__init_subclass__`). A spec is listed
by name first (`defer`) and compiled when something asks for its class (`get`), so a run pays
only for the tasks it uses. Finding and importing tasks is `taskkit.loading`'s job.
"""
from __future__ import annotations

import contextlib
import dataclasses
import difflib
from typing import TYPE_CHECKING, Callable, Iterator, Union

from taskkit.errors import TaskkitError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.task import TaskEval


@dataclasses.dataclass
class Deferred:
    """A task known by name, source and tags whose class `build()` makes (and registers) on first use."""

    name: str
    source: str
    tags: tuple[str, ...]
    build: Callable[[], "type[TaskEval]"]


Entry = Union["type[TaskEval]", Deferred]
_TASKS: dict[str, Entry] = {}


class TaskLoadError(TaskkitError, ValueError):
    """A task module or name could not be loaded; the message says which and why."""


# While `replacing(True)` is active: (name, old source, new source) of each replaced task.
_REPLACED: list[list[tuple[str, str, str]]] = []


def register(cls: "type[TaskEval]") -> None:
    """Add a concrete task class; a second class may take a registered name only inside
    `replacing(True)` (a class redefined in its own source, as a reload does, always may)."""
    existing = _TASKS.get(cls.name)
    if existing is not None and existing is not cls and str(existing.source) != str(cls.source):
        if not _REPLACED:
            raise TaskLoadError(
                f"task name {cls.name!r} is defined twice: in {existing.source} and in {cls.source}; "
                "rename one (set the class attribute `name`) or pass --replace_tasks to replace it"
            )
        _REPLACED[-1].append((cls.name, str(existing.source), str(cls.source)))
    _TASKS[cls.name] = cls


def defer(entry: Deferred) -> None:
    """List a task whose class is built on first use; the caller has checked that the name is free
    (or held by the same source)."""
    _TASKS[entry.name] = entry


@contextlib.contextmanager
def replacing(allowed: bool) -> Iterator[list[tuple[str, str, str]]]:
    """Within the block, registering a taken name replaces the task if `allowed` (else it is an
    error, as always); yields the (name, old source, new source) of every replacement."""
    replaced: list[tuple[str, str, str]] = []
    if not allowed:
        yield replaced
        return
    _REPLACED.append(replaced)
    try:
        yield replaced
    finally:
        _REPLACED.pop()


def names() -> list[str]:
    return sorted(_TASKS)


def peek(name: str) -> Entry | None:
    """What is registered as `name` — a class, or a `Deferred` not built yet — without building it."""
    return _TASKS.get(name)


def all_tasks() -> "list[type[TaskEval]]":
    """Every registered task's class (deferred ones are built now)."""
    return [get(name) for name in names()]


def get(name: str) -> "type[TaskEval]":
    """The task class called `name`, built now if it was deferred; an unknown name suggests the
    closest ones."""
    entry = _TASKS.get(name)
    if entry is None:
        close = difflib.get_close_matches(name, _TASKS, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else " (see --list_tasks)"
        raise TaskLoadError(f"unknown task {name!r}{hint}")
    return entry.build() if isinstance(entry, Deferred) else entry
