"""System properties through `getprop` and `setprop`."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from taskkit.device.quoting import shell_join

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

_PROP_LINE = re.compile(r"\[(.*?)\]: \[(.*)\]")


def build_get(name: str) -> str:
    return shell_join(["getprop", name])


def build_set(name: str, value: str) -> str:
    return shell_join(["setprop", name, value])


def build_all() -> str:
    return "getprop"


def parse_get(stdout: str) -> str:
    """The value printed by `getprop NAME` ('' when unset): only the final newline is removed."""
    return stdout[:-1] if stdout.endswith("\n") else stdout


def parse_all(stdout: str) -> dict[str, str]:
    """`[name]: [value]` lines into a dict (other lines are ignored)."""
    props: dict[str, str] = {}
    for line in stdout.split("\n"):
        match = _PROP_LINE.fullmatch(line)
        if match:
            props[match.group(1)] = match.group(2)
    return props


class Props:
    """Read and write Android system properties."""

    def __init__(self, device: "Device"):
        self.device = device

    def get(self, name: str) -> str:
        """The value of `name`, or '' when it is unset."""
        return parse_get(self.device.check(build_get(name)))

    def set(self, name: str, value: str) -> None:
        """Set `name`; raises `CommandFailed` when the device refuses (e.g. `ro.*`, or not root)."""
        self.device.check(build_set(name, value))

    def all(self) -> dict[str, str]:
        """Every system property (`getprop`), by name."""
        return parse_all(self.device.check(build_all()))
