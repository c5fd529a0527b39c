"""`android_world.env.android_world_controller`: the controller AndroidWorld's helpers are typed
with is taskkit's (interface.Controller)."""
from __future__ import annotations

from taskkit.compat.android_world.env.interface import Controller as AndroidWorldController

__all__ = ["AndroidWorldController"]
