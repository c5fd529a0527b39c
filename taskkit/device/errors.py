"""What every device call can return or raise: `ShellResult`, `DeviceError`, `CommandFailed`.

Kept apart from `taskkit.device.base` so that the typed services can use them while `Device`
builds the services: the import graph stays a tree.
"""
from __future__ import annotations

import dataclasses

from taskkit.errors import TaskkitError


class DeviceError(TaskkitError, RuntimeError):
    """The device could not be reached or did not answer: an infrastructure failure."""


@dataclasses.dataclass(frozen=True)
class ShellResult:
    """What one shell command printed and how it exited."""

    stdout: str
    stderr: str
    exit_code: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


class CommandFailed(TaskkitError, RuntimeError):
    """A shell command the caller relied on exited non-zero."""

    def __init__(self, command: str, result: ShellResult):
        detail = (result.stderr or result.stdout).strip().splitlines()
        super().__init__(
            f"device command failed (exit {result.exit_code}): {command[:200]}"
            + (f": {detail[0]}" if detail else "")
        )
        self.command = command
        self.result = result
