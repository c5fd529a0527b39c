"""Lazy package exports: a package's public names, imported from their modules on first use."""
from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def exports(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each of `names` (name -> module) when
    first asked for, so importing the package pulls in nothing above it."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(names[name]), name)

    return __getattr__
