"""Self-tests for task authors: hypothesis strategies, lifecycle properties, near-miss mutations.

    from taskkit.testing import check_task
    check_task(MyTask)                      # solvable, not trivially solved, clean teardown,
                                            # deterministic, near misses rejected, GUI reference proved
    check_task(MyTask, hostile=True)        # … and hostile free text never injects a command

Each property is also its own call (`check_solvable`, `check_not_trivially_solved`,
`check_clean_teardown`, `check_deterministic`, `check_near_miss`, `check_gui_solvable`,
`check_hostile`). A failure raises `PropertyFailed` with the minimal failing seed and the command
that reproduces it. `python -m taskkit.check` runs the same properties over the registry. The pytest plugin
(`taskkit.testing.plugin`) provides the `sim_device` and `task_env` fixtures.
"""
from __future__ import annotations

import importlib
from typing import Any

# Loaded on first use, so the pytest plugin (`taskkit.testing.plugin`) stays light to import.
_EXPORTS = {
    "PropertyFailed": "checks", "PropertyResult": "checks", "check_clean_teardown": "checks",
    "check_deterministic": "checks", "check_gui_solvable": "checks", "check_hostile": "checks",
    "check_near_miss": "checks",
    "check_not_trivially_solved": "checks", "check_solvable": "checks", "check_task": "checks",
    "free_text_paths": "hostile", "with_hostile_text": "hostile",
    "Mutation": "mutations", "Observation": "mutations", "derive": "mutations", "observe": "mutations",
    "satisfy": "mutations",
    "CANARY": "strategies", "PAYLOAD": "strategies", "hostile_text": "strategies", "hostile_text_for": "strategies",
    "params_for": "strategies", "seeds": "strategies",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'taskkit.testing' has no attribute {name!r}")
    return getattr(importlib.import_module(f"taskkit.testing.{_EXPORTS[name]}"), name)
