"""Activity validators: which app is in front (`dumpsys activity`'s resumed activity)."""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit import apps
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless


@dataclasses.dataclass(frozen=True)
class AppInForeground(Stateless):
    """The app's package owns the foreground activity."""

    app: str
    package: str
    component: str  # what launches it (near misses and their opposite use it)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        front = env.device.activity.foreground_package()
        if front == self.package:
            return CheckResult(1.0)
        return CheckResult(0.0, (f"the app in front is {front or 'none'}, expected {self.app} ({self.package})",))


def app_in_foreground(app: str) -> AppInForeground:
    """The registered app `app` (AndroidWorld's name, e.g. "clock") is in front."""
    model = apps.get(app)
    return AppInForeground(model.name, model.package, model.component)
