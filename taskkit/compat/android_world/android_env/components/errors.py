"""`android_env.components.errors`: what a failed device call raises."""
from __future__ import annotations

from taskkit.errors import TaskkitError


class AndroidEnvError(TaskkitError):
    """Base of the errors a device call raises (AndroidEnv's name)."""


class AdbControllerError(AndroidEnvError):
    """An adb request failed (AndroidWorld catches it around pulls, pushes and file checks)."""
