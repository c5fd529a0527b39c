"""B-MoCA's logcat detector as a validator: `logcat_matches(tag, pattern, level=None)`.

A line logged since the task's setup, with the tag (and at least the priority `level`, V D I W
E F, as logcat's `TAG:LEVEL` filter reads it), whose message matches the regular expression
(searched). B-MoCA writes the tag as `Tag:Level` (`ActivityManager:I`); that form is accepted.
"Since setup" is a mark taken right after `initialize_state` (the last entry's time and how
many entries share it, `Logcat.mark`): nothing is cleared, so the log keeps other evidence.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from taskkit.device.services.logcat import LogMark, build_dump
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult

PRIORITIES = "VDIWEF"


@dataclasses.dataclass(frozen=True)
class LogcatMatches:
    tag: str
    pattern: str
    level: str = "V"

    def snapshot(self, env: TaskEnv) -> LogMark:
        return env.device.logcat.mark(self.tag)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        lines = [entry for entry in env.device.logcat.since(snapshot, self.tag)
                 if PRIORITIES.index(entry.priority) >= PRIORITIES.index(self.level)]
        if any(re.search(self.pattern, entry.message) for entry in lines):
            return CheckResult(1.0)
        seen = f"; the last: {lines[-1].message[:120]!r}" if lines else ""
        return CheckResult(0.0, (f"no {self.tag}:{self.level} line logged since setup matches /{self.pattern}/ "
                                 f"({len(lines)} such lines{seen})",))


def logcat_matches(tag: str, pattern: str, level: str | None = None) -> LogcatMatches:
    """A line logged since setup with `tag` (and priority `level` or higher) matches `pattern`."""
    name, colon, suffix = tag.partition(":")
    if not name.strip():
        raise ValueError("logcat_matches needs a tag (B-MoCA's Tag:Level form too)")
    if colon and level is not None and suffix.upper() != level.upper():
        raise ValueError(f"logcat_matches: the tag {tag!r} names a level other than {level!r}")
    chosen = (level or suffix or "V").upper()
    if len(chosen) != 1 or chosen not in PRIORITIES:
        raise ValueError(f"logcat_matches: the level must be one of {', '.join(PRIORITIES)}, not {chosen!r}")
    build_dump(name)  # a tag logcat cannot filter on is the author's error, said when the task is built
    re.compile(pattern)
    return LogcatMatches(name, pattern, chosen)
