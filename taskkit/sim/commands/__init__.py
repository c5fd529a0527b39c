"""The simulator's commands: one function per Android command, found by name.

A command is `def cmd(inv: Invocation) -> int`: it reads `inv.argv` (argv[0] is the command
name) and `inv.stdin`, writes bytes with `inv.out` / `inv.err`, and returns its exit code,
exactly as the Android 13 tool of that name would (see ../shared/reference/adb-and-shell.md).
Modules register with the `@command("name", ...)` decorator; `load_all()` imports them.
"""
from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Callable

from taskkit.sim.state import SimState

Command = Callable[["Invocation"], int]
COMMANDS: dict[str, Command] = {}

_MODULES = ("toybox", "sqlite3_cli", "settings", "content", "activity", "system")


@dataclasses.dataclass
class Invocation:
    """One run of one command inside the simulated shell."""

    argv: list[str]
    state: SimState
    stdin: bytes = b""
    cwd: str = "/"
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    stdout: bytearray = dataclasses.field(default_factory=bytearray)
    stderr: bytearray = dataclasses.field(default_factory=bytearray)

    @property
    def name(self) -> str:
        return self.argv[0]

    @property
    def args(self) -> list[str]:
        return self.argv[1:]

    def out(self, data: str | bytes) -> None:
        self.stdout += data.encode("utf-8") if isinstance(data, str) else data

    def err(self, data: str | bytes) -> None:
        self.stderr += data.encode("utf-8") if isinstance(data, str) else data

    def fail(self, message: str, code: int = 1) -> int:
        """Print `message` and a newline on stderr and return `code`."""
        self.err(message + "\n")
        return code

    def host_path(self, path: str) -> Path:
        return self.state.host_path(path, self.cwd)

    def normalize(self, path: str) -> str:
        return self.state.normalize(path, self.cwd)


def command(*names: str) -> Callable[[Command], Command]:
    """Register the decorated function under each of `names`."""

    def register(func: Command) -> Command:
        for name in names:
            COMMANDS[name] = func
        return func

    return register


def load_all() -> dict[str, Command]:
    """Import every command module (once) and return the registry."""
    for module in _MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return COMMANDS
