"""The task registry: built-in tasks, tasks from user modules, looked up by name."""
from __future__ import annotations

import difflib
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.task import TaskEval

_TASKS: dict[str, "type[TaskEval]"] = {}
_BUILTINS_LOADED = False


class TaskLoadError(ValueError):
    """A task module or name could not be loaded; the message says which and why."""


def register(cls: "type[TaskEval]") -> None:
    """Add a concrete task class; two different classes may not share a name."""
    existing = _TASKS.get(cls.name)
    if existing is not None and existing.__qualname__ != cls.__qualname__ and existing.source != cls.source:
        raise TaskLoadError(
            f"task name {cls.name!r} is defined twice: in {existing.source} and in {cls.source}; "
            "rename one (set the class attribute `name`)"
        )
    _TASKS[cls.name] = cls


def load_builtin() -> None:
    """Import every `apps.<app>.tasks` module once, registering the built-in tasks."""
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    from taskkit import apps

    for info in sorted(pkgutil.iter_modules(apps.__path__), key=lambda i: i.name):
        if info.ispkg and importlib.util.find_spec(f"taskkit.apps.{info.name}.tasks") is not None:
            importlib.import_module(f"taskkit.apps.{info.name}.tasks")
    from taskkit import task_protos

    load_spec_dir(Path(task_protos.__file__).parent)  # the built-in declarative specs
    _BUILTINS_LOADED = True


def load_spec_dir(directory: str | Path) -> None:
    """Register the tasks of every `*.textproto` spec under `directory`.

    Raises TaskLoadError whose message is the first bad spec's `file:line:col: field: message`.
    """
    from taskkit import specs  # specs compile into TaskEval classes: import late

    result = specs.load_dir(directory)
    if result.errors:
        more = f" (and {len(result.errors) - 1} more error(s))" if len(result.errors) > 1 else ""
        raise TaskLoadError(f"{result.errors[0]}{more}")


def load_module(spec: str) -> None:
    """Import user tasks from a module name (`my.tasks`) or a file path (`tasks/mine.py`)."""
    try:
        if spec.endswith(".py") or "/" in spec or "\\" in spec:
            path = Path(spec)
            if not path.is_file():
                raise TaskLoadError(f"--task_module {spec}: no such file")
            name = f"taskkit_user_{path.stem}_{abs(hash(str(path.resolve()))) % 10**8}"
            module_spec = importlib.util.spec_from_file_location(name, path)
            assert module_spec and module_spec.loader
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
        else:
            importlib.import_module(spec)
    except TaskLoadError:
        raise
    except ModuleNotFoundError as error:
        raise TaskLoadError(f"--task_module {spec}: {error}; give an importable module name or a .py path") from None
    except Exception as error:  # the user's module failed while importing: say where
        raise TaskLoadError(f"--task_module {spec}: {type(error).__name__}: {error}") from None


def names() -> list[str]:
    return sorted(_TASKS)


def all_tasks() -> "list[type[TaskEval]]":
    return [_TASKS[name] for name in names()]


def get(name: str) -> "type[TaskEval]":
    """The task class called `name`; an unknown name suggests the closest ones."""
    try:
        return _TASKS[name]
    except KeyError:
        close = difflib.get_close_matches(name, _TASKS, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else " (see --list_tasks)"
        raise TaskLoadError(f"unknown task {name!r}{hint}") from None
