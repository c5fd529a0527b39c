"""Fuzzy text matching for free-text fields (AndroidWorld: difflib ratio ≥ 0.9, case-insensitive)."""
from __future__ import annotations

import difflib
import re

DEFAULT_THRESHOLD = 0.9
_DIGITS = re.compile(r"\d+")


def similarity(a: str, b: str) -> float:
    """difflib's ratio of the two texts, case-insensitive, ignoring surrounding white space."""
    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def numbers(text: str) -> list[str]:
    """The digit runs of `text`, in order ("Room 3, 2 pm" → ["3", "2"])."""
    return _DIGITS.findall(text)


def fuzzy_match(a: str, b: str, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """Similar enough text (typos, case, punctuation), but every number exactly the same.

    A digit changes the meaning ("Room 3" vs "Room 4", "1 tablespoon" vs "2") while barely
    moving the similarity ratio, so numbers are compared exactly.
    """
    return numbers(a) == numbers(b) and similarity(a, b) >= threshold
