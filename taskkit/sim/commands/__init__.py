"""The simulator's commands: one function per Android command, found by name.

A command is `def cmd(inv: Invocation) -> int`: it reads `inv.argv` (argv[0] is the command
name) and `inv.stdin`, writes bytes with `inv.out` / `inv.err`, and returns its exit code,
exactly as the Android 13 tool of that name would (see ../shared/reference/adb-and-shell.md).
Modules register with the `@command("name", ...)` decorator; `load_all()` imports them.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
from pathlib import Path
from typing import Callable, Mapping

from taskkit.sim import limits, logbuffer
from taskkit.sim.state import SimState

Command = Callable[["Invocation"], int]
COMMANDS: dict[str, Command] = {}

_MODULES = ("toybox", "sqlite3_cli", "settings", "content", "activity", "system", "changes")
# A command that raised: as a process killed by SIGABRT (128 + 6) would end.
CRASH_STATUS = 134
# Directories whose commands resolve to the registry (`/system/bin/ls` runs `ls`).
BIN_DIRS = frozenset({
    "/system/bin", "/system/xbin", "/vendor/bin", "/vendor/xbin", "/bin", "/sbin", "/xbin",
    "/product/bin", "/system_ext/bin", "/odm/bin", "/apex/com.android.runtime/bin",
})


@dataclasses.dataclass
class Invocation:
    """One run of one command inside the simulated shell."""

    argv: list[str]
    state: SimState
    stdin: bytes = b""
    cwd: str = "/"
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)  # (read, never changed)
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
        limits.check_size(len(self.stdout), f"{self.name}: output")

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


@functools.lru_cache(maxsize=1)
def load_all() -> dict[str, Command]:
    """Import every command module (once) and return the registry (later registrations land in it)."""
    for module in _MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return COMMANDS


def find(name: str) -> Command | None:
    """The registry command that `name` (a bare name or /system/bin/NAME) runs, if any."""
    commands = load_all()
    func = commands.get(name)
    if func is None and "/" in name:
        directory, _, base = name.rpartition("/")
        if directory in BIN_DIRS:
            func = commands.get(base)
    return func


def call(state: SimState, argv: list[str], stdin: bytes | Callable[[], bytes], cwd: str,
         env: Mapping[str, str], out: bytearray, err: bytearray) -> int | None:
    """Run a registry command, writing into `out`/`err`; None if there is no such command.

    `stdin` may be a function giving the input: it is called only when the command exists, so
    a caller's unread input stays unread for a command that is not found.
    """
    func = find(argv[0])
    if func is None:
        return None
    if callable(stdin):
        stdin = stdin()
    if "/" in argv[0]:
        argv = [argv[0].rpartition("/")[2]] + argv[1:]
    inv = Invocation(argv=argv, state=state, stdin=stdin, cwd=cwd, env=env, stdout=out, stderr=err)
    try:
        with logbuffer.batched():  # the command's log lines, appended in one write
            status = func(inv)
        limits.check()  # a command stopped at the deadline (sqlite3 "interrupted") reports the timeout
    except limits.LimitExceeded:
        raise
    except Exception as error:  # noqa: BLE001 - a crashing command exits non-zero, as a process would
        inv.err(f"{argv[0]}: crashed: {type(error).__name__}: {error}\n")
        status = CRASH_STATUS
    if inv.stdout is not out:
        out += inv.stdout
    if inv.stderr is not err:
        err += inv.stderr
    return int(status) & 0xFF
