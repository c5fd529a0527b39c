"""The transport layer: one `Device` interface for every kind of device.

A device can run an Android shell command and move bytes to and from its filesystem.
Everything else (settings, databases, content providers, apps) is built from those three
calls by the typed services in `taskkit.device.services`, so a new kind of device needs only
a new transport.
"""
from __future__ import annotations

import abc
import contextlib
import dataclasses
import re
from functools import cached_property
from typing import TYPE_CHECKING, Iterator

from taskkit.device.errors import CommandFailed, DeviceError, ShellResult

__all__ = ["CommandFailed", "Device", "DeviceError", "DeviceStats", "ShellResult"]

if TYPE_CHECKING:  # pragma: no cover - imports for type checkers only
    from taskkit.device.services.activity import Activity, Packages
    from taskkit.device.services.clock import Clock
    from taskkit.device.services.content import Content
    from taskkit.device.services.files import Files
    from taskkit.device.services.logcat import Logcat
    from taskkit.device.services.props import Props
    from taskkit.device.services.settings import Settings
    from taskkit.device.services.sqlite import Sqlite
    from taskkit.device.services.ui import UI


@dataclasses.dataclass
class DeviceStats:
    """Counts of device traffic: what benchmarks report and tests bound."""

    round_trips: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0

    def reset(self) -> None:
        self.round_trips = self.bytes_sent = self.bytes_received = 0


# Printed between the batched commands and the command whose output the caller wants.
_BATCH_MARK = "--taskkit-batch-done--"
# Printed (with the step's index and exit code) when a batched command fails.
_FAILED_MARK = "--taskkit-batch-failed"
_FAILED = re.compile(re.escape(_FAILED_MARK) + r" (\d+) (\d+)--\n")
# Keep one batched command line well under Android's 128 KiB limit for one argument.
_MAX_BATCH_BYTES = 48 * 1024


class Device(abc.ABC):
    """A phone, an emulator or the simulator: a shell plus file transfer.

    Subclasses implement `_shell`, `_push` and `_pull`; the public methods count traffic.

    `run` runs a command for its effect and raises `CommandFailed` if it fails. Inside
    `with device.batch():` such commands are held back and sent together — in front of the
    next command that needs an answer (`shell`, `check`, `push`, `pull`) or when the block
    ends — so a task's setup costs one round trip instead of one per step. The first held
    command that fails stops the rest, and the `CommandFailed` raised names that command.
    """

    serial: str = "unknown"
    #: Its shell's output is its terminal, so `uiautomator dump /dev/tty` prints the window dump
    #: (the simulator); a phone's `adb shell` may have no terminal: its dump goes through a file.
    dumps_to_terminal: bool = False
    #: Raw `screencap` (RGBA, 4 bytes a pixel: 10 MB at 1080x2400) costs less than a PNG's encode
    #: and decode, so `ui.pixels()` asks for it (the in-process simulator); a phone's PNG (~200 KB)
    #: moves over USB far faster than its raw frame, so there `ui.pixels()` decodes `screencap -p`.
    raw_screenshots: bool = False

    def __init__(self) -> None:
        self.stats = DeviceStats()
        self._pending: list[str] = []
        self._batch_depth = 0

    # --- the transport -------------------------------------------------------------------
    def shell(self, command: str) -> ShellResult:
        """Run `command` with the device's `/system/bin/sh -c` (after any held-back commands)."""
        if self._pending:
            return self._send_with_pending(command)
        return self._counted_shell(command)

    def run(self, command: str) -> None:
        """Run `command` for its effect; raises CommandFailed unless it exits 0.

        Inside `batch()` the command is held back and sent with the next one (see the class doc).
        """
        if not self._batch_depth:
            self.check(command)
            return
        self._pending.append(command)
        self._flush_if_full()

    def replace_held(self, old: str, new: str) -> bool:
        """Hold `new` in the place of `old` if `old` (the very text given to `run`) is the last
        command held back, so that one command does the work of both; whether it was."""
        if not self._pending or self._pending[-1] is not old:
            return False
        self._pending[-1] = new
        self._flush_if_full()
        return True

    def _flush_if_full(self) -> None:
        """Send the held-back commands once their text passes `_MAX_BATCH_BYTES`."""
        if sum(len(c) for c in self._pending) > _MAX_BATCH_BYTES:
            self.flush()

    @contextlib.contextmanager
    def batch(self) -> Iterator["Device"]:
        """Hold `run` commands until the block ends (nested blocks join the outermost one).

        If the block raises, the commands still held are dropped, not sent.
        """
        self._batch_depth += 1
        try:
            yield self
        except BaseException:
            if self._batch_depth == 1:
                self._pending = []
            raise
        finally:
            self._batch_depth -= 1
        if not self._batch_depth:
            self.flush()

    def flush(self) -> None:
        """Send the held-back commands now; raises CommandFailed naming the one that failed."""
        if self._pending:
            self._send_with_pending("true")

    def _counted_shell(self, command: str) -> ShellResult:
        result = self._shell(command)
        self._count(command, len(result.stdout.encode("utf-8", "surrogateescape"))
                    + len(result.stderr.encode("utf-8", "surrogateescape")))
        return result

    def _count(self, command: str, received: int) -> None:
        self.stats.round_trips += 1
        self.stats.bytes_sent += len(command.encode("utf-8"))
        self.stats.bytes_received += received

    def _send_with_pending(self, command: str) -> ShellResult:
        pending, self._pending = self._pending, []
        steps = [f"{{ {step}\n}} || {{ echo \"{_FAILED_MARK} {index} $?--\"; exit 1; }}"
                 for index, step in enumerate(pending)]
        line = "\n".join(steps + [f"echo {_BATCH_MARK}", f"{{ {command}\n}}"])
        result = self._counted_shell(line)
        head, mark, tail = result.stdout.partition(_BATCH_MARK + "\n")
        if mark:
            return ShellResult(tail, result.stderr, result.exit_code)
        failed = _FAILED.search(head)
        if failed is None:  # the batch ended without reporting a step: blame all of it
            raise CommandFailed(" && ".join(pending), result)
        index, status = int(failed.group(1)), int(failed.group(2))
        raise CommandFailed(pending[index], ShellResult(head[: failed.start()], result.stderr, status))

    def check(self, command: str) -> str:
        """Run `command`, raise `CommandFailed` unless it exits 0, and return its stdout."""
        result = self.shell(command)
        if result.exit_code != 0:
            raise CommandFailed(command, result)
        return result.stdout

    def exec_out(self, command: str) -> bytes:
        """Run `command` and return its stdout as raw bytes (binary output: `screencap -p`).

        Raises CommandFailed unless it exits 0.
        """
        return bytes(self._checked_out(command))  # (no copy of bytes; a transport's own buffer is copied once)

    def exec_out_view(self, command: str) -> memoryview:
        """`exec_out`'s stdout as a read-only view, not copied: what reading a large output once
        needs (a raw frame: `ui.pixels()`), where the in-process simulator would otherwise copy
        10 MB per screenshot. The buffer belongs to the caller alone."""
        return memoryview(self._checked_out(command)).toreadonly()

    def _checked_out(self, command: str) -> bytes | bytearray:
        self.flush()
        stdout, stderr, exit_code = self._exec_out(command)
        self._count(command, len(stdout) + len(stderr.encode("utf-8", "surrogateescape")))
        if exit_code != 0:
            raise CommandFailed(command, ShellResult(stdout.decode("utf-8", "replace"), stderr, exit_code))
        return stdout

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

    def _exec_out(self, command: str) -> tuple[bytes | bytearray, str, int]:
        """(stdout bytes, stderr, exit code); transports with a binary channel override this (a
        buffer of their own that no one else holds may be returned uncopied)."""
        result = self._shell(command)
        return result.stdout.encode("utf-8", "surrogateescape"), result.stderr, result.exit_code

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

    @cached_property
    def ui(self) -> "UI":
        from taskkit.device.services.ui import UI

        return UI(self)
