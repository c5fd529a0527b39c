"""The exact command that reproduces a property failure at one seed.

A registered task (or any spec task) is re-checked with `python -m taskkit.check --tasks NAME
--seed N --properties P`, plus `--task_module` (its module, or its file when it was loaded from
a path) or `--spec_dir` (the spec's folder, after the modules of apps defined outside apps/)
when it is not built in. A class that is not in the registry gets a `python -c` line calling the
same `check_*` function on it.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from typing import Any

from taskkit import registry


def _registered(task_cls: Any) -> bool:
    try:
        return registry.get(task_cls.name) is task_cls
    except registry.TaskLoadError:
        return False


def _relative(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _builtin_spec_dir() -> str:
    from taskkit import task_protos

    return os.path.dirname(os.path.abspath(task_protos.__file__))


def _module_flags(module: str) -> list[str]:
    if module.startswith("taskkit.apps."):
        return []
    file = getattr(sys.modules.get(module), "__file__", None)
    if (module == "__main__" or module.startswith("taskkit_user_")) and file:
        return ["--task_module", _relative(file)]
    return ["--task_module", module]


def _is_spec(task_cls: Any) -> bool:
    return str(getattr(task_cls, "source", "")).endswith(".textproto")


def _source_flags(task_cls: Any) -> list[str]:
    if _is_spec(task_cls):  # its apps' modules first (an app outside apps/ registers on import)
        from taskkit import apps

        modules = sorted({apps.get(name).module for name in task_cls.app_names} - {""})
        flags = [flag for module in modules for flag in _module_flags(module)]
        directory = os.path.dirname(os.path.abspath(task_cls.source))
        return flags + ([] if directory == _builtin_spec_dir() else ["--spec_dir", _relative(directory)])
    return _module_flags(task_cls.__module__)


def command(task_cls: Any, prop: str, seed: int, device: str = "sim") -> str:
    """The shell command that re-runs property `prop` of `task_cls` at `seed`."""
    if _registered(task_cls) or _is_spec(task_cls):
        words = ["python", "-m", "taskkit.check", *_source_flags(task_cls), "--tasks", task_cls.name,
                 "--seed", str(seed), "--properties", prop]
        if device != "sim":
            words += ["--device", device]
        return shlex.join(words)
    module, name = task_cls.__module__, task_cls.__qualname__
    device_arg = f", device={json.dumps(device)}" if device != "sim" else ""  # double quotes: one shell word
    call = f"from taskkit.testing import check_{prop}; check_{prop}({{cls}}, seeds=[{seed}]{device_arg})"
    file = getattr(sys.modules.get(module), "__file__", None)
    if (module == "__main__" or module.startswith("taskkit_user_")) and file:  # importable only by path
        load = (f"import importlib.util as u; s = u.spec_from_file_location(\"tasks\", {json.dumps(_relative(file))}); "
                "m = u.module_from_spec(s); s.loader.exec_module(m); ")
        return shlex.join(["python", "-c", load + call.format(cls=f"m.{name}")])
    code = f"from {module} import {name.split('.')[0]}; " + call.format(cls=name)
    return shlex.join(["python", "-c", code])
