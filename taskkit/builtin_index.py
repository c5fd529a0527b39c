"""The built-in tasks' index: each built-in task's name, source and tags, kept on disk, so that a
process lists every built-in task without importing the modules or reading the specs that define
them.

Listing the built-ins the long way — importing every `apps.<app>.tasks` module (some 370 classes
built, SPA's and AndroidLens' generated ones among them) and reading every built-in spec's header
(which loads protobuf) — costs about 0.1 s CPU, though a run uses a few of them. `loading` lists
them that way when the index is missing, and `remember` keeps what that registered in
`builtin-tasks-<installation>.json` in taskkit's user cache folder (`taskkit.user_cache`), under a fingerprint of the
installed sources: the path, size and modification time of every .py, .json and .textproto file
of taskkit's packages. An edited, added or removed file is another fingerprint, so the index is
never stale; one that cannot be read or written costs the long way, not an error. With the index
(`defer_all`), each built-in task is a `registry.Deferred` until something asks for its class:
then its module is imported (registering every task it defines) or its spec compiled.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import taskkit
from taskkit import registry, user_cache

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.task import TaskEval

FORMAT = 1  # bump when what the index holds changes
BUILTIN_MODULES = "taskkit.apps."  # where the built-in Python tasks are defined
PACKAGES = ("taskkit", "taskkit.apps", "taskkit.validators", "taskkit.task_protos")
SUFFIXES = (".py", ".json", ".textproto")


@functools.lru_cache(maxsize=1)
def _roots() -> tuple[str, ...]:
    """The folders of taskkit's packages (one inside another left out: it is walked with it)."""
    found: set[str] = set()
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        found.update(os.path.realpath(folder) for folder in (spec and spec.submodule_search_locations) or ())
    return tuple(sorted(root for root in found if not any(root.startswith(other + os.sep) for other in found)))


def _source_files() -> Iterator[str]:
    """Every source file of taskkit's packages, in a stable order."""
    for root in _roots():
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__" and not d.startswith("."))
            yield from (os.path.join(folder, name) for name in sorted(files) if name.endswith(SUFFIXES))


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """A hash of the installed sources (each file's path, size and modification time), taskkit's
    version and Python's: the index holds for these sources alone."""
    digest = hashlib.sha256(f"{FORMAT}|{taskkit.__version__}|{sys.version}\n".encode())
    for source in _source_files():
        with contextlib.suppress(OSError):
            stat = os.stat(source)
            digest.update(f"{source}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def path() -> Path:
    """Where the index is kept: one file per installation (its folders), so that two checkouts or
    virtualenvs do not overwrite each other's."""
    installation = hashlib.sha256("|".join(_roots()).encode()).hexdigest()[:16]
    return user_cache.folder() / f"builtin-tasks-{installation}.json"


def entries(spec_dir: Path) -> list[dict[str, Any]] | None:
    """The index of the built-in tasks the registry holds now: the Python tasks of taskkit.apps's
    modules and the specs in `spec_dir` (listed or compiled). None where it would not list what a
    fresh process lists: a registered class that is not an attribute of its module (it could not
    be built from the index), or a task class of a loaded module that the registry does not hold
    (the registry in use is not the one the module registered it in)."""
    specs = {str(spec.resolve()): spec for spec in spec_dir.rglob("*.textproto")}
    defined = _defined_classes()
    found: list[dict[str, Any]] = []
    for name in registry.names():
        entry = registry.peek(name)
        item = {"name": name, "source": str(entry.source), "tags": list(entry.tags)}
        if item["source"] in specs:
            found.append({**item, "spec": str(specs[item["source"]])})
        elif isinstance(entry, type) and entry in defined:
            module, attribute = defined.pop(entry)
            found.append({**item, "module": module, "attribute": attribute})
        elif isinstance(entry, type) and entry.__module__.startswith(BUILTIN_MODULES):
            return None
    return None if defined else found


def _defined_classes() -> dict[type, tuple[str, str]]:
    """Each concrete task class of the loaded built-in modules -> (its module, its name there)."""
    from taskkit.task import TaskEval

    found: dict[type, tuple[str, str]] = {}
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith(BUILTIN_MODULES) and module is not None:
            for attribute, value in vars(module).items():
                if (isinstance(value, type) and issubclass(value, TaskEval) and value.__module__ == module_name
                        and not value.abstract):
                    found.setdefault(value, (module_name, attribute))
    return found


def remember(found: list[dict[str, Any]]) -> None:
    """Keep `found` as the index of the current sources (skipped where the cache cannot be written)."""
    user_cache.write(path(), json.dumps({"fingerprint": fingerprint(), "tasks": found}).encode())


def cached() -> list[dict[str, Any]] | None:
    """The index kept for the current sources, if there is one."""
    try:
        kept = json.loads(path().read_text(encoding="utf-8"))
        return kept["tasks"] if kept["fingerprint"] == fingerprint() else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def defer_all(found: list[dict[str, Any]]) -> None:
    """Register every task of the index as a `registry.Deferred`, built on first use."""
    for item in found:
        build = _spec_builder(item) if "spec" in item else _class_builder(item["module"], item["attribute"])
        registry.defer(registry.Deferred(item["name"], item["source"], tuple(item["tags"]), build))


def _spec_builder(item: dict[str, Any]) -> Callable[[], "type[TaskEval]"]:
    from taskkit.specs import listing

    return listing.builder(Path(item["spec"]), item["name"])


def _class_builder(module: str, attribute: str) -> Callable[[], "type[TaskEval]"]:
    """Import `module` (registering its tasks) and return its class `attribute`, registered."""

    def build() -> "type[TaskEval]":
        cls = getattr(importlib.import_module(module), attribute)
        registry.register(cls)  # already, unless the module was imported while another registry was in use
        return cls

    return build
