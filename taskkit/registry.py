"""The task registry: every concrete task class, looked up by name.

Task classes register themselves when defined (`TaskEval.__init_subclass__`). A spec, or a
built-in task of the index (taskkit.builtin_index), is listed by name first (`defer`) and built
when something asks for its class (`get`), so a run pays only for the tasks it uses. Finding and
importing tasks is `taskkit.loading`'s job.
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
# Listed tasks replaced before their class was built: name -> the listed source. Their class,
# registered later (its module imported for another task), leaves the replacement in place.
_SHADOWED: dict[str, str] = {}


def _defined_twice(name: str, first: object, second: object) -> TaskLoadError:
    return TaskLoadError(f"task name {name!r} is defined twice: in {first} and in {second}; rename one (set the "
                         "class attribute `name`) or pass --replace_tasks to replace it")


def register(cls: "type[TaskEval]") -> None:
    """Add a concrete task class; a second class may take a registered name only inside
    `replacing(True)` (a class redefined in its own source, as a reload does, always may). The class
    of a listed task whose name was given to another before it was built leaves that one in place."""
    existing = _TASKS.get(cls.name)
    if existing is not None and existing is not cls and str(existing.source) != str(cls.source):
        if _SHADOWED.get(cls.name) == str(cls.source):
            return
        if not _REPLACED:
            raise _defined_twice(cls.name, existing.source, cls.source)
        _REPLACED[-1].append((cls.name, str(existing.source), str(cls.source)))
        if isinstance(existing, Deferred):
            _SHADOWED[cls.name] = existing.source
    _TASKS[cls.name] = cls


def defer(entry: Deferred) -> None:
    """List a task whose class is built on first use; a class of the same source already registered
    stays, and a name another source holds is an error, as for `register`."""
    existing = _TASKS.get(entry.name)
    if existing is not None and str(existing.source) != entry.source:
        raise _defined_twice(entry.name, existing.source, entry.source)
    if existing is None or isinstance(existing, Deferred):
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
