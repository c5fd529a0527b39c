"""Per-command limits of the simulated device: a time limit, an output limit and a size limit.

Python threads cannot be killed, so a command is stopped cooperatively: whoever runs one (the
adbd server, for each stream) sets a deadline for the current thread with `deadline(seconds)`;
the shell interpreter calls `check()` before every command and loop iteration, SQLite's progress
handler calls `expired()` every few thousand virtual-machine steps, and the output sinks count
bytes. Passing a limit raises `LimitExceeded`, which the shell reports like a killed command.
The same checks stop a command whose client went away (`deadline(..., cancelled=EVENT)` and the
event set), so that an abandoned command frees its worker as soon as it next checks.

One value the shell or a tool builds in memory — a variable, an expansion, a command's output
held for the next one in a pipe, a `printf` field — is at most MAX_SIZE bytes (`check_size`):
a phone would run out of memory at some point too, and without a bound a doubling loop
(`x=$x$x`) or `printf '%999999999d'` exhausts the host's memory well inside the time limit.
"""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Iterator

from taskkit.errors import TaskkitError

#: The exit status of a command stopped at its time limit, as toybox `timeout` reports it.
TIMEOUT_STATUS = 124
#: The largest value (bytes or characters) one command may build in memory.
MAX_SIZE = 64 << 20
#: The exit status of a command stopped for building a value past MAX_SIZE (ENOMEM's errno).
OUT_OF_MEMORY_STATUS = 12
#: The exit status of a command stopped because its client went away (as SIGPIPE would: 128 + 13).
CLIENT_GONE_STATUS = 141


class _Limits(threading.local):
    """Per thread: the deadline (a `time.monotonic` value, or None), the seconds it was set for
    (for the message) and the event that cancels the thread's commands (or None).

    Defaults set per thread, so that the checks the shell makes before every command read
    attributes instead of raising and catching an AttributeError twice each."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.seconds: float | None = 0
        self.cancelled: threading.Event | None = None


_LOCAL = _Limits()


class LimitExceeded(TaskkitError):
    """A command ran past its time limit or produced more output than allowed."""

    def __init__(self, message: str, status: int = TIMEOUT_STATUS):
        super().__init__(message)
        self.status = status


@contextlib.contextmanager
def deadline(seconds: float | None, cancelled: threading.Event | None = None) -> Iterator[None]:
    """Give the commands this thread runs inside the block `seconds` in all (None: no limit),
    and stop them as soon as `cancelled` is set."""
    previous = _LOCAL.deadline, _LOCAL.cancelled
    _LOCAL.deadline = None if seconds is None else time.monotonic() + seconds
    _LOCAL.seconds = seconds
    _LOCAL.cancelled = cancelled
    try:
        yield
    finally:
        _LOCAL.deadline, _LOCAL.cancelled = previous


def _cancelled() -> bool:
    event = _LOCAL.cancelled
    return event is not None and event.is_set()


def expired() -> bool:
    """Whether this thread's deadline has passed or its command was cancelled."""
    limit = _LOCAL.deadline
    return _cancelled() or (limit is not None and time.monotonic() > limit)


def check_size(size: int, what: str) -> None:
    """Raise LimitExceeded if `what`, of `size` bytes or characters, passes MAX_SIZE."""
    if size > MAX_SIZE:
        raise LimitExceeded(f"{what}: more than {MAX_SIZE} bytes (the simulator's limit for one value): "
                            "out of memory", status=OUT_OF_MEMORY_STATUS)


def check() -> None:
    """Raise LimitExceeded if this thread's deadline has passed or its command was cancelled."""
    local = _LOCAL
    if local.cancelled is None and local.deadline is None:  # no limit set: nothing to check
        return
    if _cancelled():
        raise LimitExceeded("the client went away: the command was stopped", status=CLIENT_GONE_STATUS)
    if expired():
        raise LimitExceeded(f"timed out after {local.seconds:g} s (the simulator's command time limit)")
