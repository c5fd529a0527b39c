"""Setting validators: a setting holds one of the accepted values."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless


@dataclasses.dataclass(frozen=True)
class SettingEquals(Stateless):
    namespace: str
    key: str
    accepted: frozenset[str | None]

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        value = env.device.settings.get(self.namespace, self.key)
        if value in self.accepted:
            return CheckResult(1.0)
        wanted = " or ".join(sorted(repr(v) for v in self.accepted))
        return CheckResult(0.0, (f"setting {self.namespace}/{self.key} is {value!r}, expected {wanted}",))


def setting_equals(namespace: str, key: str, expected: object | Iterable[object]) -> SettingEquals:
    """The setting's value is `expected` (or any of several); None means the key is unset."""
    values = expected if isinstance(expected, (set, frozenset, list, tuple)) else [expected]
    return SettingEquals(namespace, key, frozenset(None if v is None else str(v) for v in values))
