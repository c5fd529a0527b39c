"""The simulated device's log buffer: entries appended in `logcat -v threadtime` form, stamped
with the device clock, and read back (the `logcat` and `log` commands, and the services that
log as Android's do: taskkit/sim/commands/activity.py).

Inside `batched()` (each shell command runs in one: taskkit/sim/commands/__init__.py) a
thread's entries are kept until the outermost block ends. Then they join the lines this process
holds for the device's buffer (as logd holds a phone's log in memory): the file is appended to
when the buffer is read or cleared (`logcat`, `read_log`), when the held lines pass
`MAX_HELD_BYTES`, and at the device's write-back points (taskkit.sim.writeback: it closes, a
served command ends, the process exits). A step that logs a line no longer opens the file.
"""
from __future__ import annotations

import dataclasses
import os
import re
import threading

from taskkit.sim import writeback
from taskkit.sim.devicetime import format_epoch, zone_name
from taskkit.sim.state import LOG_NAME, SimState

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
    path = _log_path(state)
    if _BATCH.depth:
        _BATCH.pending.setdefault(path, []).append(text)
        _BATCH.stamps[path] = state.clock_epoch  # the file's time stamp: its last entry's
    else:
        _hold(path, [text], state.clock_epoch)


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
    """Hand the entries this thread kept to the lines the process holds."""
    pending, stamps = _BATCH.pending, _BATCH.stamps
    if not pending:
        return
    _BATCH.pending, _BATCH.stamps = {}, {}
    for path, texts in pending.items():
        _hold(path, texts, stamps[path])


MAX_HELD_BYTES = 65536  # characters of log lines held per device before they are appended


class _Held:
    """A device's log lines not yet in its file, and the device clock of the last one."""

    __slots__ = ("texts", "size", "stamp")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.size = 0
        self.stamp = 0


_HELD: dict[str, _Held] = {}  # by log file (the state directory's absolute path + logcat.txt)
_HELD_LOCK = threading.Lock()


def _log_path(state: SimState) -> str:
    return os.path.join(writeback.key(state.root), LOG_NAME)


def _hold(path: str, texts: list[str], epoch: int) -> None:
    with _HELD_LOCK:
        held = _HELD.setdefault(path, _Held())
        held.texts += texts
        held.size += sum(map(len, texts))
        held.stamp = epoch
        if held.size > MAX_HELD_BYTES:
            _write(path)


def _write(path: str) -> None:
    """Append what is held for the log file `path` (with _HELD_LOCK held)."""
    held = _HELD.pop(path, None)
    if held is None or not held.texts:
        return
    try:
        with open(path, "a", encoding="utf-8", newline="") as log:
            log.write("".join(held.texts))
        os.utime(path, (held.stamp, held.stamp))
    except (FileNotFoundError, NotADirectoryError):  # the state directory went: so did its log
        pass


def _keep(root: str | None, write: bool, forget: bool) -> None:
    """The keeper of taskkit.sim.writeback: append the held lines of `root` (None: every device)."""
    with _HELD_LOCK:
        for path in list(_HELD) if root is None else [os.path.join(root, LOG_NAME)]:
            if write:
                _write(path)
            elif forget:
                _HELD.pop(path, None)


def _write_held(state: SimState) -> None:
    """Append the device's lines this thread and this process hold to its file."""
    flush()
    with _HELD_LOCK:
        _write(_log_path(state))


def clear_log(state: SimState) -> None:
    """Empty the buffer (`logcat -c`), what was logged before included."""
    _write_held(state)
    state.logcat_path.write_text("")
    os.utime(state.logcat_path, (state.clock_epoch, state.clock_epoch))


def read_log(state: SimState) -> list[LogEntry]:
    """Every entry of the buffer, oldest first."""
    _write_held(state)
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


writeback.register(_keep)
