"""Dicts kept as bounded caches, shared by threads: an entry past the bound pushes the oldest out."""
from __future__ import annotations

from typing import Any


def put(cache: dict, key: Any, value: Any, limit: int) -> None:
    """Keep `value` under `key` in `cache`, first dropping its oldest entry if it holds `limit`."""
    if len(cache) >= limit:
        try:  # (another thread may take the same oldest entry meanwhile)
            del cache[next(iter(cache))]
        except (KeyError, RuntimeError, StopIteration):
            pass
    cache[key] = value
