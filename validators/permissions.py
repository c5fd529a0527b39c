"""Runtime-permission validators: what the package manager reports an app holds.

    permission_granted("com.dimowner.audiorecorder", "android.permission.RECORD_AUDIO")
    permission_granted(PACKAGE, RECORD_AUDIO, one_time=True)    # "Only this time"
"""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless

__all__ = ["PermissionGranted", "permission_granted"]


@dataclasses.dataclass(frozen=True)
class PermissionGranted(Stateless):
    """`package` holds the runtime permission `name`: for good (`one_time` False), only this time
    (True), or either (None), as `dumpsys package` lists it (its ONE_TIME flag)."""

    package: str
    name: str
    one_time: bool | None = None

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        granted, flags = env.device.packages.runtime_permission(self.package, self.name)
        if not granted:
            return CheckResult(0.0, (f"{self.package} does not hold {self.name}",))
        if self.one_time is not None and ("ONE_TIME" in flags) != self.one_time:
            granted_as = "only this time" if "ONE_TIME" in flags else "for good"
            wanted = "only this time" if self.one_time else "while the app is in use"
            return CheckResult(0.0, (f"{self.name} is granted {granted_as}, expected {wanted}",))
        return CheckResult(1.0)


def permission_granted(package: str, name: str, one_time: bool | None = None) -> PermissionGranted:
    """Pass when `package` holds the runtime permission `name` (see PermissionGranted)."""
    return PermissionGranted(package, name, one_time)
