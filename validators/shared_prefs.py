"""B-MoCA's app-data detector for preferences: `shared_pref_equals(package, file, key, value)`.

The app's `/data/data/PKG/shared_prefs/FILE.xml` holds `key` with `value`, compared by type: a
bool only with a `<boolean>`, an int with an `<int>` or `<long>`, a float with a `<float>` (or an
integral `<int>`/`<long>`), a str with a `<string>`, a set (or frozenset) of strings with a
`<set>`. Read at check time (a rooted device can read another app's data; the simulator can).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from taskkit.device.services import shared_prefs
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless

# The Python type of an expected value -> the elements that can hold it.
_KINDS_OF = {bool: ("boolean",), int: ("int", "long"), float: ("float", "int", "long"), str: ("string",),
             frozenset: ("set",)}


def same_pref(pref: shared_prefs.Pref, expected: Any) -> bool:
    """Whether the stored `pref` is `expected`, types compared as the module says."""
    return pref.kind in _KINDS_OF[type(expected)] and pref.value == expected


@dataclasses.dataclass(frozen=True)
class SharedPrefEquals(Stateless):
    package: str
    file: str
    key: str
    value: Any

    @property
    def path(self) -> str:
        return shared_prefs.path(self.package, self.file)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        files = env.device.files
        if not files.exists(self.path):
            return CheckResult(0.0, (f"{self.path} does not exist",))
        try:
            stored = shared_prefs.parse(files.read_text(self.path)).get(self.key)
        except shared_prefs.PrefsError as error:
            return CheckResult(0.0, (f"{self.path}: {error}",))
        if stored is None:
            return CheckResult(0.0, (f"{self.path} has no key {self.key!r}",))
        if same_pref(stored, self.value):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.path}: {self.key} is <{stored.kind}> {stored.value!r}, expected {self.value!r}",))


def shared_pref_equals(package: str, file: str, key: str, value: Any) -> SharedPrefEquals:
    """`package`'s shared_prefs/`file`.xml holds `key` = `value` (bool, int, float, str or a set)."""
    if isinstance(value, (set, frozenset)):
        if not all(isinstance(item, str) for item in value):
            raise ValueError("shared_pref_equals: a set preference holds strings only")
        value = frozenset(value)
    elif type(value) not in _KINDS_OF:
        raise ValueError(f"shared_pref_equals: the value must be a bool, int, float, str or set, not {type(value).__name__}")
    shared_prefs.path(package, file)  # a bad file name is the author's error, said when the task is built
    return SharedPrefEquals(package, file, key, value)
