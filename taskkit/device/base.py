"""The transport layer: one `Device` interface for every kind of device.

A device can run an Android shell command and move bytes to and from its filesystem.
Everything else (settings, databases, content providers, apps) is built from those three
calls by the typed services in `taskkit.device.services`, so a new kind of device needs only
a new transport.
"""
from __future__ import annotations

import abc
import dataclasses
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - imports for type checkers only
    from taskkit.device.services.activity import Activity, Packages
    from taskkit.device.services.clock import Clock
    from taskkit.device.services.content import Content
    from taskkit.device.services.files import Files
    from taskkit.device.services.logcat import Logcat
    from taskkit.device.services.props import Props
    from taskkit.device.services.settings import Settings
    from taskkit.device.services.sqlite import Sqlite


class DeviceError(RuntimeError):
    """The device could not be reached or did not answer: an infrastructure failure."""


class CommandFailed(RuntimeError):
    """A shell command the caller relied on exited non-zero."""

    def __init__(self, command: str, result: "ShellResult"):
        detail = (result.stderr or result.stdout).strip().splitlines()
        super().__init__(
            f"device command failed (exit {result.exit_code}): {command[:200]}"
            + (f": {detail[0]}" if detail else "")
        )
        self.command = command
        self.result = result


@dataclasses.dataclass(frozen=True)
class ShellResult:
    """What one shell command printed and how it exited."""

    stdout: str
    stderr: str
    exit_code: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


@dataclasses.dataclass
class DeviceStats:
    """Counts of device traffic: what benchmarks report and tests bound."""

    round_trips: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0

    def reset(self) -> None:
        self.round_trips = self.bytes_sent = self.bytes_received = 0


# Printed between commands run for effect and the command whose output the caller wants.
_BATCH_MARK = "--taskkit-batch-done--"
# Keep one batched command line well under Android's 128 KiB limit for one argument.
_MAX_BATCH_BYTES = 48 * 1024


class Device(abc.ABC):
    """A phone, an emulator or the simulator: a shell plus file transfer.

    Subclasses implement `_shell`, `_push` and `_pull`; the public methods count traffic.

    Commands run for their effect only (`run`) are held back and sent in front of the next
    command that needs an answer (`shell`, `check`), or by `flush`, so a task's setup costs one
    round trip instead of one per step. They are chained with `&&`: the first one that fails
    stops the rest and raises `CommandFailed` at the call that sent it.
    """

    serial: str = "unknown"

    def __init__(self) -> None:
        self.stats = DeviceStats()
        self._pending: list[str] = []

    # --- the transport -------------------------------------------------------------------
    def shell(self, command: str) -> ShellResult:
        """Run `command` with the device's `/system/bin/sh -c` (after any held-back commands)."""
        if self._pending:
            return self._send_with_pending(command)
        return self._counted_shell(command)

    def run(self, command: str) -> None:
        """Run `command` for its effect; it may travel with the next command (see the class doc)."""
        self._pending.append(command)
        if sum(len(c) for c in self._pending) > _MAX_BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Send the held-back commands now; raises CommandFailed if one of them failed."""
        if self._pending:
            self._send_with_pending("true")

    def _counted_shell(self, command: str) -> ShellResult:
        result = self._shell(command)
        self.stats.round_trips += 1
        self.stats.bytes_sent += len(command.encode("utf-8"))
        self.stats.bytes_received += len(result.stdout.encode("utf-8", "surrogateescape"))
        self.stats.bytes_received += len(result.stderr.encode("utf-8", "surrogateescape"))
        return result

    def _send_with_pending(self, command: str) -> ShellResult:
        pending, self._pending = self._pending, []
        steps = [f"{{ {step}\n}}" for step in pending]
        line = " && ".join(steps + [f"echo {_BATCH_MARK}", f"{{ {command}\n}}"])
        result = self._counted_shell(line)
        _, mark, tail = result.stdout.partition(_BATCH_MARK + "\n")
        if not mark:
            raise CommandFailed(" && ".join(pending), result)
        return ShellResult(tail, result.stderr, result.exit_code)

    def check(self, command: str) -> str:
        """Run `command`, raise `CommandFailed` unless it exits 0, and return its stdout."""
        result = self.shell(command)
        if result.exit_code != 0:
            raise CommandFailed(command, result)
        return result.stdout

    def push(self, data: bytes, path: str) -> None:
        """Write `data` to the device file `path`, creating parent directories."""
        self.flush()
        self._push(data, path)
        self.stats.round_trips += 1
        self.stats.bytes_sent += len(data)

    def pull(self, path: str) -> bytes:
        """Read the whole device file `path`; raises FileNotFoundError if it is missing."""
        self.flush()
        data = self._pull(path)
        self.stats.round_trips += 1
        self.stats.bytes_received += len(data)
        return data

    def close(self) -> None:
        """Release the connection; held-back commands are dropped."""
        self._pending = []

    @abc.abstractmethod
    def _shell(self, command: str) -> ShellResult: ...

    @abc.abstractmethod
    def _push(self, data: bytes, path: str) -> None: ...

    @abc.abstractmethod
    def _pull(self, path: str) -> bytes: ...

    # --- typed services, shared by every device --------------------------------------------
    @cached_property
    def settings(self) -> "Settings":
        from taskkit.device.services.settings import Settings

        return Settings(self)

    @cached_property
    def sqlite(self) -> "Sqlite":
        from taskkit.device.services.sqlite import Sqlite

        return Sqlite(self)

    @cached_property
    def content(self) -> "Content":
        from taskkit.device.services.content import Content

        return Content(self)

    @cached_property
    def files(self) -> "Files":
        from taskkit.device.services.files import Files

        return Files(self)

    @cached_property
    def activity(self) -> "Activity":
        from taskkit.device.services.activity import Activity

        return Activity(self)

    @cached_property
    def packages(self) -> "Packages":
        from taskkit.device.services.activity import Packages

        return Packages(self)

    @cached_property
    def clock(self) -> "Clock":
        from taskkit.device.services.clock import Clock

        return Clock(self)

    @cached_property
    def props(self) -> "Props":
        from taskkit.device.services.props import Props

        return Props(self)

    @cached_property
    def logcat(self) -> "Logcat":
        from taskkit.device.services.logcat import Logcat

        return Logcat(self)
