"""Listing spec folders cheaply: each spec is registered by name and compiled when first asked for.

`defer_dir(dir)` reads the name and tags of every `*.textproto` under `dir` (through the parse
cache: no parsing of a file seen before) and registers a `registry.Deferred` for each; the
first `registry.get(name)` compiles that spec alone (`loader.load_listed`). This module imports
no compiler, so a process that runs Python tasks only never loads the spec machinery.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from taskkit import registry
from taskkit.specs.errors import SpecError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.task import TaskEval


def _loader() -> ModuleType:
    """`taskkit.specs.loader`, imported when a spec is parsed or compiled (it pulls in the compiler)."""
    from taskkit.specs import loader

    return loader


def header(path: str | Path) -> tuple[str, tuple[str, ...]]:
    """The task name and tags of the spec at `path`: from the parse cache, else by parsing it (a
    file that does not parse raises its SpecError)."""
    from taskkit.specs import cache  # protobuf: loaded when a header is read, not for a listing kept by the index

    try:
        data = Path(path).read_bytes()
    except OSError:
        data = b""  # unreadable: parsing says why
    spec = cache.cached(data) if data else None
    if spec is None:
        spec = _loader().parse(path).spec
    return spec.name, tuple(spec.tags)


def defer_dir(directory: str | Path) -> list[SpecError]:
    """Register every `*.textproto` under `directory` by name, compiled on first use (`registry.get`).

    Returns the errors listing finds — a file that does not parse, a name given twice or held by
    another source; a spec's other errors are raised (as a SpecError) when it is compiled.
    """
    root = Path(directory)
    if not root.is_dir():
        return [SpecError(str(directory), 1, 1, "", "not a directory")]
    errors: list[SpecError] = []
    listed: dict[str, str] = {}
    for path in sorted(root.rglob("*.textproto")):
        try:
            name, tags = header(path)
            if not name:  # it cannot be asked for by name: compiling it reports what is missing
                _loader().load_file(path)
                continue
            source = str(path.resolve())
            existing = registry.peek(name)
            taken_by = listed.get(name) or (existing.source if existing is not None and
                                            str(existing.source) != source else None)
            if taken_by is not None:
                raise _loader().parse(path).error("name", f"task name {name!r} is already defined in {taken_by}")
        except SpecError as error:
            errors.append(error)
            continue
        listed[name] = str(path)
        if existing is None or isinstance(existing, registry.Deferred):
            registry.defer(registry.Deferred(name, source, tags, builder(path, name)))
    return errors


def builder(path: Path, name: str) -> Callable[[], "type[TaskEval]"]:
    """Compile and register the spec at `path` when first called; a failure is raised again on
    every later call, without compiling again."""
    failed: list[SpecError] = []

    def build() -> "type[TaskEval]":
        if failed:
            raise failed[0]
        try:
            return _loader().load_listed(path, name)
        except SpecError as error:
            failed.append(error)
            raise

    return build
