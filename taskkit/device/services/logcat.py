"""The main log through `logcat -d -v threadtime`.

Each line of a multi-line message carries its own prefix in logcat's output, so `dump` returns
one `LogEntry` per line. A tag containing `: ` cannot be told apart from the message.
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


def build_dump(tag: str | None = None) -> str:
    """Dump the log in `threadtime` format, only `tag`'s entries when given."""
    words = ["logcat", "-d", "-v", "threadtime"]
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


class Logcat:
    """Read and clear the device log."""

    def __init__(self, device: "Device"):
        self.device = device

    def dump(self, tag: str | None = None) -> list[LogEntry]:
        return parse_threadtime(self.device.check(build_dump(tag)))

    def clear(self) -> None:
        self.device.check(BUILD_CLEAR)
