"""`android_env.env_interface.AndroidEnvInterface`: what AndroidWorld's helpers are handed as
`env.controller` — here, taskkit's controller (taskkit.compat.android_world.env.interface)."""
from __future__ import annotations

import abc
from typing import Any


class AndroidEnvInterface(abc.ABC):
    """The controller a task's helpers call: adb requests and the device's state."""

    @abc.abstractmethod
    def execute_adb_call(self, call: Any) -> Any:
        """Answer an `adb_pb2.AdbRequest` with an `adb_pb2.AdbResponse`."""
