"""Per-command limits of the simulated device: a time limit and an output limit.

Python threads cannot be killed, so a command is stopped cooperatively: whoever runs one (the
adbd server, for each stream) sets a deadline for the current thread with `deadline(seconds)`;
the shell interpreter calls `check()` before every command and loop iteration, SQLite's progress
handler calls `expired()` every few thousand virtual-machine steps, and the output sinks count
bytes. Passing a limit raises `LimitExceeded`, which the shell reports like a killed command.
"""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Iterator

#: The exit status of a command stopped at its time limit, as toybox `timeout` reports it.
TIMEOUT_STATUS = 124

_LOCAL = threading.local()


class LimitExceeded(Exception):
    """A command ran past its time limit or produced more output than allowed."""

    def __init__(self, message: str, status: int = TIMEOUT_STATUS):
        super().__init__(message)
        self.status = status


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Give the commands this thread runs inside the block `seconds` in all (None: no limit)."""
    previous = getattr(_LOCAL, "deadline", None)
    _LOCAL.deadline = None if seconds is None else time.monotonic() + seconds
    _LOCAL.seconds = seconds
    try:
        yield
    finally:
        _LOCAL.deadline = previous


def expired() -> bool:
    """Whether this thread's deadline has passed."""
    limit = getattr(_LOCAL, "deadline", None)
    return limit is not None and time.monotonic() > limit


def check() -> None:
    """Raise LimitExceeded if this thread's deadline has passed."""
    if expired():
        raise LimitExceeded(f"timed out after {getattr(_LOCAL, 'seconds', 0):g} s (the simulator's command time limit)")
