"""The simulated device's log buffer: entries appended in `logcat -v threadtime` form, stamped
with the device clock, and read back (the `logcat` and `log` commands, and the services that
log as Android's do: taskkit/sim/commands/activity.py).

Inside `batched()` (each shell command runs in one: taskkit/sim/commands/__init__.py) a
thread's entries are kept and appended together when the outermost block ends, so a command
that logs three lines opens the buffer once; reading or clearing the buffer appends them first.
"""
from __future__ import annotations

import dataclasses
import os
import re
import threading

from taskkit.sim.devicetime import format_epoch, zone_name
from taskkit.sim.state import SimState

SYSTEM_SERVER_PID = 512

PRIORITIES = "VDIWEF"
_THREADTIME = re.compile(
    r"(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) +(\d+) +(\d+) ([VDIWEF]) (.*?) *: (.*)"
)


@dataclasses.dataclass(frozen=True)
class LogEntry:
    stamp: str  # MM-DD HH:MM:SS.mmm
    pid: int
    tid: int
    priority: str
    tag: str
    message: str


def append_log(state: SimState, priority: str, tag: str, message: str,
               pid: int = SYSTEM_SERVER_PID, tid: int | None = None) -> None:
    """Add an entry to the log buffer, stamped with the device clock; one line per message line."""
    level = priority.upper()[:1]
    if not level or level not in PRIORITIES:
        raise ValueError(f"log priority must be one of {PRIORITIES}, not {priority!r}")
    stamp = format_epoch("%m-%d %H:%M:%S.000", state.clock_epoch, zone_name(state))
    tid = pid if tid is None else tid
    text = "".join(
        format_entry(LogEntry(stamp, pid, tid, level, tag, line), "threadtime")
        for line in message.split("\n")
    )
    if _BATCH.depth:
        path = os.fspath(state.logcat_path)
        _BATCH.pending.setdefault(path, []).append(text)
        _BATCH.stamps[path] = state.clock_epoch  # the file's time stamp: its last entry's
    else:
        _append(os.fspath(state.logcat_path), text, state.clock_epoch)


class _Batch(threading.local):
    """Per thread: how many `batched` blocks are open, the entries kept meanwhile (log file ->
    their texts) and the device clock of each file's last one."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending: dict[str, list[str]] = {}
        self.stamps: dict[str, int] = {}


_BATCH = _Batch()


class _Batched:
    """The `batched()` block: a plain context manager (each shell command enters one, and a
    generator-based one cost more than the rest of a simple command's bookkeeping)."""

    __slots__ = ()

    def __enter__(self) -> None:
        _BATCH.depth += 1

    def __exit__(self, *exc_info: object) -> None:
        _BATCH.depth -= 1
        if not _BATCH.depth:
            flush()


_BATCHED = _Batched()


def batched() -> _Batched:
    """Keep this thread's entries until the outermost block ends, then append them at once."""
    return _BATCHED


def flush() -> None:
    """Append the entries this thread kept."""
    pending, stamps = _BATCH.pending, _BATCH.stamps
    if not pending:
        return
    _BATCH.pending, _BATCH.stamps = {}, {}
    for path, texts in pending.items():
        _append(path, "".join(texts), stamps[path])


def _append(path: str, text: str, epoch: int) -> None:
    with open(path, "a", encoding="utf-8", newline="") as log:
        log.write(text)
    os.utime(path, (epoch, epoch))


def clear_log(state: SimState) -> None:
    """Empty the buffer (`logcat -c`), what was logged before included."""
    flush()
    state.logcat_path.write_text("")
    os.utime(state.logcat_path, (state.clock_epoch, state.clock_epoch))


def read_log(state: SimState) -> list[LogEntry]:
    """Every entry of the buffer, oldest first."""
    flush()
    if not state.logcat_path.exists():
        return []
    entries = []
    for line in state.logcat_path.read_bytes().decode("utf-8").split("\n"):
        match = _THREADTIME.fullmatch(line)
        if match:
            stamp, pid, tid, level, tag, message = match.groups()
            entries.append(LogEntry(stamp, int(pid), int(tid), level, tag, message))
    return entries


# logcat's `-v` layouts (system/logging liblog logprint.cpp), as str.format templates.
LAYOUTS = {
    "threadtime": "{stamp} {pid:5d} {tid:5d} {priority} {tag:<8}: {message}\n",
    "time": "{stamp} {priority}/{tag:<8}({pid:5d}): {message}\n",
    "brief": "{priority}/{tag:<8}({pid:5d}): {message}\n",
    "tag": "{priority}/{tag:<8}: {message}\n",
    "process": "{priority}({pid:5d}) {message}  ({tag})\n",
    "thread": "{priority}({pid:5d}:{tid:5d}) {message}\n",
    "long": "[ {stamp} {pid:5d}:{tid:5d} {priority}/{tag:<8} ]\n{message}\n\n",
    "raw": "{message}\n",
}


def format_entry(entry: LogEntry, style: str) -> str:
    return LAYOUTS[style].format_map(vars(entry))  # (its fields are plain values: no dataclasses.asdict copy)


