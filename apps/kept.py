"""File bytes generated from their inputs (a picture of text, a drawing, a video), kept by those
inputs so a set-up that writes the same file again (the same seed's episode, a reset repeated,
the same stroke in another task) does not draw and encode it again; also the parts such a file
is made of (a line of text drawn), weighed by a size of their own.

A result is kept under its inputs' marshal data at version 0 (no references, no interning), so
equal keys mean equal values of equal types: `1` and `1.0`, or `True` and `1`, which a drawing
library may treat differently, never share a result. The kept object is handed out as is (bytes
are immutable; a caller given anything else must only read it). The least recently used results
go once their sizes add up past the limit.
"""
from __future__ import annotations

import collections
import functools
import marshal
import threading
from typing import Any, Callable, TypeVar

LIMIT_BYTES = 8 << 20  # per generator, in one process
T = TypeVar("T")


def kept(limit: int = LIMIT_BYTES, size: Callable[[Any], int] = len) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a pure function of plain data (str, numbers, lists, tuples) returning bytes (or
    what `size` weighs in bytes)."""

    def decorate(make: Callable[..., T]) -> Callable[..., T]:
        results: collections.OrderedDict[bytes, tuple[T, int]] = collections.OrderedDict()
        lock = threading.Lock()
        total = 0

        @functools.wraps(make)
        def kept_make(*args: Any, **kwargs: Any) -> T:
            nonlocal total
            try:
                key = marshal.dumps((args, sorted(kwargs.items())), 0)
            except ValueError:  # an input marshal cannot write: made every time
                return make(*args, **kwargs)
            with lock:
                found = results.get(key)
                if found is not None:
                    results.move_to_end(key)
                    return found[0]
            value = make(*args, **kwargs)
            weight = size(value)
            with lock:
                if key not in results and weight <= limit:
                    results[key] = (value, weight)
                    total += weight
                    while total > limit:
                        total -= results.popitem(last=False)[1][1]
            return value

        return kept_make

    return decorate
