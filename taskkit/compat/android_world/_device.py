"""The taskkit device behind what AndroidWorld's helpers are given."""
from __future__ import annotations

from typing import Any


def device_of(env_or_controller: Any) -> Any:
    """The device of an `env`, an `env.controller` or taskkit's own Env."""
    controller = getattr(env_or_controller, "controller", env_or_controller)
    return controller.device
