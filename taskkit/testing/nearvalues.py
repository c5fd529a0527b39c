"""Near-miss values: the closest value to an expected one that a check should reject.

`near_miss(expected, accepts)` walks candidates from nearest (one character or one unit off)
to farthest (unrelated text) and returns the first that `accepts` rejects. If `accepts` takes
every candidate the check ignores the value, and the farthest candidate is returned: applying
it is what shows the check up.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator

UNRELATED = "qqq wrong value qqq"
_DIGITS = re.compile(r"\d")
_NUMBER = re.compile(r"-?\d+")


def _bump_char(ch: str) -> str:
    if ch.isdigit():
        return str((int(ch) + 1) % 10)
    if ch.isalpha():
        lower = ch.lower()
        bumped = "a" if lower == "z" else chr(ord(lower) + 1) if lower.isascii() else "x"
        return bumped.upper() if ch.isupper() else bumped
    return "x"


def one_char_off(text: str) -> str:
    """`text` with its last letter or digit changed (a typo); "x" for empty text."""
    for index in range(len(text) - 1, -1, -1):
        if text[index].isalnum():
            return text[:index] + _bump_char(text[index]) + text[index + 1:]
    return text + "x"


def text_candidates(text: str) -> Iterator[str]:
    """A typo, then 15 %, 50 % and all of the text lost, then unrelated text."""
    yield one_char_off(text)
    if _DIGITS.search(text):  # a number or phone number: a different digit elsewhere too
        digits = [m.start() for m in _DIGITS.finditer(text)]
        first = digits[0]
        yield text[:first] + _bump_char(text[first]) + text[first + 1:]
    if len(text) >= 4:
        yield text[: len(text) - max(1, len(text) * 15 // 100)]
        yield text[: len(text) // 2]
    yield UNRELATED


def candidates(expected: Any) -> Iterator[Any]:
    """Values near `expected`, nearest first, of the same kind."""
    if isinstance(expected, bool):
        yield not expected
    elif isinstance(expected, int):
        yield from (expected + 1, expected - 1, expected + 100, expected * 2 + 7)
    elif isinstance(expected, float):
        yield from (expected + 1.0, expected - 1.0, expected * 2 + 7.5)
    elif isinstance(expected, str):
        if _NUMBER.fullmatch(expected.strip()):
            yield from (str(int(expected) + d) for d in (-1, 1, 2, -2, 3))
        yield from text_candidates(expected)
    elif expected is None:
        yield UNRELATED
    else:
        yield UNRELATED


def near_miss(expected: Any, accepts: Callable[[Any], bool]) -> Any:
    """The nearest candidate `accepts` rejects, or the farthest candidate if it takes them all."""
    last = UNRELATED
    for value in candidates(expected):
        last = value
        if value != expected and not accepts(value):
            return value
    return last
