"""`android_world.utils.fuzzy_match_lib`: AndroidWorld's fuzzy text match — difflib's similarity
ratio of at least 0.9, case-insensitive by default (its documented threshold)."""
from __future__ import annotations

import difflib

_MIN_SIMILARITY = 0.9


def fuzzy_match(text1: str, text2: str, ignore_case: bool = True) -> bool:
    """Whether the two texts are at least 90 % similar (stripped; case ignored unless asked)."""
    a, b = text1.strip(), text2.strip()
    if ignore_case:
        a, b = a.lower(), b.lower()
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= _MIN_SIMILARITY
