"""The taskkit device behind what AndroidWorld's helpers are given."""
from __future__ import annotations

from typing import Any, Callable


def device_of(env_or_controller: Any) -> Any:
    """The device of an `env`, an `env.controller` or taskkit's own Env."""
    controller = getattr(env_or_controller, "controller", env_or_controller)
    return controller.device


def unsupported(module: str) -> Callable[[str], Any]:
    """A module `__getattr__` whose AttributeError names AndroidWorld's function and why it is missing."""
    def missing(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"android_world.{module}.{name} is not provided by taskkit's device layer "
                             f"(taskkit.compat.android_world.{module}); docs/android-world.md lists what is")
    return missing
