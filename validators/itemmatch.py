"""Matching an agent's answer against expected items: text, numbers, dates, times.

The expected answer is a list of items; the answer must hold exactly those items in any order.
Text items are found by greedy longest match, never by splitting the answer on commas: items
are taken longest first, each is located in what remains of the answer (exactly, on word
boundaries, ignoring case; else fuzzily over runs of comma/"and"-separated segments), and
removed. What is left must be separators only. So "Lunch, then gym, Book club" holds the two
items "Lunch, then gym" and "Book club", and a title with a comma is never cut in two.

Numbers, dates and times are extracted from the answer and compared as multisets. These are
the pure functions behind `answer_matches` (`taskkit.validators.questions`): no device access.
"""
from __future__ import annotations

import datetime as _dt
import re
from collections import Counter
from typing import Any, Sequence

from taskkit.apps.common import DEVICE_TZ, format_date, format_time
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD, numbers, similarity

_SPACE = re.compile(r"\s+")
_SEPARATORS = re.compile(r"(?:[\s,;:.!?&/()\[\]'\"`*\-]|\band\b|\bor\b)+", re.IGNORECASE)
_SEGMENT_SPLIT = re.compile(r"\s*(?:,|;|\n|\band\b|&)\s*", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])|(?<![\w.])[-+]?\.\d+")
_EMPTY_WORDS = {"none", "nothing", "no", "n/a", "na", "zero"}

MONTHS = {name.lower(): i for i, name in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December"], start=1)}
MONTHS.update({name[:3]: i for name, i in list(MONTHS.items())})
MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DATE_PATTERNS = (
    re.compile(_MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<year>\d{4})", re.IGNORECASE),
    re.compile(r"(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r",?\s+(?P<year>\d{4})", re.IGNORECASE),
    re.compile(r"(?P<year>\d{4})-(?P<mnum>\d{1,2})-(?P<day>\d{1,2})"),
    re.compile(r"(?P<mnum>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})"),
)
_TIME = re.compile(r"(?<![\d:])(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?\s*(?P<ampm>[ap]\.?m\.?)?(?![\d:])", re.IGNORECASE)


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text.strip().lower())


def _bounded_find(haystack: str, needle: str) -> int:
    """The first index of `needle` in `haystack` that does not cut a word, or -1."""
    start = 0
    while True:
        index = haystack.find(needle, start)
        if index < 0:
            return -1
        before = haystack[index - 1] if index else " "
        after = haystack[index + len(needle)] if index + len(needle) < len(haystack) else " "
        if not (before.isalnum() and needle[:1].isalnum()) and not (after.isalnum() and needle[-1:].isalnum()):
            return index
        start = index + 1


def _fuzzy_span(remaining: str, needle: str, threshold: float) -> tuple[int, int] | None:
    """The span of the run of separator-delimited segments most similar to `needle`."""
    segments, position = [], 0
    for match in _SEGMENT_SPLIT.finditer(remaining):
        segments.append((position, match.start()))
        position = match.end()
    segments.append((position, len(remaining)))
    segments = [(a, b) for a, b in segments if remaining[a:b].strip()]
    best, best_span = 0.0, None
    for i in range(len(segments)):
        for j in range(i, len(segments)):
            a, b = segments[i][0], segments[j][1]
            if numbers(remaining[a:b]) != numbers(needle):
                continue  # a different number is a different answer, however similar the text
            score = similarity(remaining[a:b], needle)
            if score > best:
                best, best_span = score, (a, b)
    return best_span if best >= threshold else None


def match_text(answer: str, expected: Sequence[str], threshold: float = DEFAULT_THRESHOLD) -> list[str]:
    """Reasons the answer does not hold exactly the expected text items ([] when it does)."""
    remaining = _norm(answer)
    if not expected:
        return [] if _SEPARATORS.sub(" ", remaining).strip() in _EMPTY_WORDS | {""} else \
            [f"expected no items, the answer has {answer!r}"]
    missing = []
    for item in sorted(expected, key=lambda s: len(s.strip()), reverse=True):
        needle = _norm(item)
        index = _bounded_find(remaining, needle) if needle else -1
        span = (index, index + len(needle)) if index >= 0 else _fuzzy_span(remaining, needle, threshold)
        if span is None:
            missing.append(item)
            continue
        remaining = remaining[: span[0]] + " , " + remaining[span[1]:]
    reasons = [f"the answer lacks {item!r}" for item in missing]
    leftover = _SEPARATORS.sub(" ", remaining).strip()
    if leftover:
        reasons.append(f"the answer has more than the expected items: {leftover!r}")
    return reasons


def numbers_in(answer: str) -> list[float]:
    return [float(m.group(0).replace(",", "")) for m in _NUMBER.finditer(answer)]


def match_numbers(answer: str, expected: Sequence[float], tolerance: float) -> list[str]:
    """Reasons the answer's numbers are not the expected ones (each within `tolerance`)."""
    found = numbers_in(answer)
    unmatched = list(found)
    missing = []
    for value in sorted(expected):
        best = min(unmatched, key=lambda x: abs(x - value), default=None)
        if best is not None and abs(best - value) <= tolerance + 1e-9:
            unmatched.remove(best)
        else:
            missing.append(value)
    reasons = [f"the answer lacks the number {_fmt(v)}" for v in missing]
    if unmatched:
        reasons.append(f"the answer has unexpected number(s) {', '.join(_fmt(v) for v in unmatched)}")
    return reasons


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def dates_in(answer: str) -> list[_dt.date]:
    found: list[tuple[int, _dt.date]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(answer):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            month = MONTHS[m.group("month").lower()] if "month" in m.groupdict() and m.group("month") \
                else int(m.group("mnum"))
            try:
                found.append((m.start(), _dt.date(int(m.group("year")), month, int(m.group("day")))))
            except ValueError:
                continue
            taken.append((m.start(), m.end()))
    return [date for _, date in sorted(found)]


def _without_dates(answer: str) -> str:
    for pattern in _DATE_PATTERNS:
        answer = pattern.sub(" ", answer)
    return answer


def times_in(answer: str) -> list[tuple[int, int]]:
    """Times of day: "14:40", "2:40pm", "2 pm" (a bare number is not a time)."""
    out = []
    for m in _TIME.finditer(_without_dates(answer)):
        hour, minute, ampm = int(m.group("hour")), int(m.group("minute") or 0), m.group("ampm")
        if m.group("minute") is None and not ampm:
            continue
        if ampm:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if ampm.lower().startswith("p") else 0)
        if hour <= 23 and minute <= 59:
            out.append((hour, minute))
    return out


def _multiset(found: Sequence[Any], expected: Sequence[Any], what: str, show: Any) -> list[str]:
    missing = Counter(expected) - Counter(found)
    extra = Counter(found) - Counter(expected)
    reasons = [f"the answer lacks the {what} {show(v)}" for v in missing.elements()]
    reasons += [f"the answer has an unexpected {what} {show(v)}" for v in extra.elements()]
    return reasons


def match_dates(answer: str, expected: Sequence[_dt.date]) -> list[str]:
    return _multiset(dates_in(answer), expected, "date", lambda d: d.strftime("%B %d %Y"))


def match_times(answer: str, expected: Sequence[tuple[int, int]]) -> list[str]:
    return _multiset(times_in(answer), expected, "time", lambda t: f"{t[0]:02d}:{t[1]:02d}")


def match_datetimes(answer: str, expected: Sequence[tuple[_dt.date, tuple[int, int]]]) -> list[str]:
    found = list(zip(dates_in(answer), times_in(answer)))
    return _multiset(found, expected, "date and time", lambda p: f"{p[0].strftime('%B %d %Y')} {p[1][0]:02d}:{p[1][1]:02d}")


# --- expected items -----------------------------------------------------------------------------
def to_instant(value: Any, millis: bool) -> _dt.datetime | None:
    """An epoch number (seconds, or ms with `millis`) as a device-time datetime; else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(str(value).strip())
        except ValueError:
            return None
    seconds = value / 1000 if millis else value
    return _dt.datetime.fromtimestamp(seconds, DEVICE_TZ)


def expected_dates(items: Sequence[Any], millis: bool) -> list[_dt.date]:
    out = []
    for item in items:
        instant = to_instant(item, millis)
        if instant is not None:
            out.append(instant.date())
        else:
            found = dates_in(str(item))
            if len(found) != 1:
                raise ValueError(f"expected item {item!r} is not one date")
            out.append(found[0])
    return out


def expected_times(items: Sequence[Any], millis: bool) -> list[tuple[int, int]]:
    out = []
    for item in items:
        instant = to_instant(item, millis)
        if instant is not None:
            out.append((instant.hour, instant.minute))
        else:
            found = times_in(str(item))
            if len(found) != 1:
                raise ValueError(f"expected item {item!r} is not one time of day")
            out.append(found[0])
    return out


def format_item(item: Any, match: str, millis: bool) -> str:
    """How an expected item is written in an answer (`match`: string, number, date, time, datetime)."""
    instant = to_instant(item, millis) if match in ("date", "time", "datetime") else None
    if instant is not None:
        seconds = int(instant.timestamp())
        return {"date": format_date(seconds), "time": format_time(seconds),
                "datetime": f"{format_date(seconds)} {format_time(seconds)}"}[match]
    if match == "number" and isinstance(item, (int, float)) and not isinstance(item, bool):
        return _fmt(round(float(item), 6))
    return str(item)
