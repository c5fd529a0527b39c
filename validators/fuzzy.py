"""Fuzzy text matching for free-text fields (AndroidWorld: difflib ratio ≥ 0.9, case-insensitive)."""
from __future__ import annotations

import difflib

DEFAULT_THRESHOLD = 0.9


def similarity(a: str, b: str) -> float:
    """difflib's ratio of the two texts, case-insensitive, ignoring surrounding white space."""
    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def fuzzy_match(a: str, b: str, threshold: float = DEFAULT_THRESHOLD) -> bool:
    return similarity(a, b) >= threshold
