"""The main log through `logcat -d -v threadtime`.

Each line of a multi-line message carries its own prefix in logcat's output, so `dump` returns
one `LogEntry` per line. A tag containing ": " cannot be told apart from the message.

`mark(tag)` notes where the log stands (the last entry's time and how many entries share it)
without clearing anything, and `since(mark, tag)` reads only what was logged after it, through
`logcat -t TIME` (entries at or after TIME): the entries at the marked time that were already
there are skipped. It works alike on a phone, whose log also holds other apps' evidence, and on
the simulated device, whose clock may not move between entries.
"""
from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from taskkit.device.quoting import shell_join

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

_THREADTIME = re.compile(
    r"(?P<time>\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) +(?P<pid>\d+) +(?P<tid>\d+) "
    r"(?P<priority>[VDIWEFS]) (?P<tag>.*?) *: (?P<message>.*)"
)


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One line of the log: `time` is logcat's `MM-DD HH:MM:SS.mmm` in device local time."""

    time: str
    pid: int
    tid: int
    priority: str  # V D I W E F
    tag: str
    message: str


@dataclasses.dataclass(frozen=True)
class LogMark:
    """Where the log stood: its last entry's `time` (None: nothing logged) and how many of the
    last entries carry that time."""

    time: str | None
    count: int = 0


def build_dump(tag: str | None = None, since: str | None = None) -> str:
    """Dump the log in `threadtime` format, only `tag`'s entries when given, only those logged at
    or after `since` (logcat's `MM-DD HH:MM:SS.mmm`) when given."""
    words = ["logcat", "-d", "-v", "threadtime"]
    if since is not None:
        words += ["-t", since]
    if tag is not None:
        if not tag or any(ch in tag for ch in ": \n*"):
            raise ValueError(f"logcat cannot filter on the tag {tag!r}")
        words += ["-s", tag]
    return shell_join(words)


BUILD_CLEAR = "logcat -c"


def parse_threadtime(stdout: str) -> list[LogEntry]:
    """`threadtime` lines into entries; `--------- beginning of …` and other lines are skipped."""
    entries = []
    for line in stdout.split("\n"):
        match = _THREADTIME.fullmatch(line)
        if match:
            entries.append(LogEntry(
                time=match["time"], pid=int(match["pid"]), tid=int(match["tid"]),
                priority=match["priority"], tag=match["tag"], message=match["message"],
            ))
    return entries


def mark_of(entries: list[LogEntry]) -> LogMark:
    """The mark just after `entries` (a dump, oldest first)."""
    if not entries:
        return LogMark(None)
    last = entries[-1].time
    count = 0
    for entry in reversed(entries):
        if entry.time != last:
            break
        count += 1
    return LogMark(last, count)


def after_mark(entries: list[LogEntry], mark: LogMark) -> list[LogEntry]:
    """`entries` (dumped since `mark.time`) without the `mark.count` that were there already."""
    skip = mark.count
    fresh = []
    for entry in entries:
        if skip and entry.time == mark.time:
            skip -= 1
            continue
        fresh.append(entry)
    return fresh


class Logcat:
    """Read and clear the device log."""

    def __init__(self, device: "Device"):
        self.device = device

    def dump(self, tag: str | None = None, since: str | None = None) -> list[LogEntry]:
        """The main log's entries so far (`logcat -d -v threadtime`), one per line."""
        return parse_threadtime(self.device.check(build_dump(tag, since)))

    def mark(self, tag: str | None = None) -> LogMark:
        """Where `tag`'s entries (all entries when None) stand now; nothing is cleared."""
        return mark_of(self.dump(tag))

    def since(self, mark: LogMark, tag: str | None = None) -> list[LogEntry]:
        """`tag`'s entries logged after `mark` (one round trip)."""
        if mark.time is None:
            return self.dump(tag)
        return after_mark(self.dump(tag, since=mark.time), mark)

    def clear(self) -> None:
        """Empty the main log (`logcat -c`)."""
        self.device.check(BUILD_CLEAR)
