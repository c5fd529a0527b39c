"""File bytes generated from their inputs (a picture of text, a drawing, a video), kept by those
inputs so a set-up that writes the same file again (the same seed's episode, a reset repeated,
the same stroke in another task) does not draw and encode it again; also the parts such a file
is made of (a line of text drawn), weighed by a size of their own.

A result is kept under its inputs' marshal data at version 0 (no references, no interning), so
equal keys mean equal values of equal types: `1` and `1.0`, or `True` and `1`, which a drawing
library may treat differently, never share a result. The kept object is handed out as is (bytes
are immutable; a caller given anything else must only read it). The least recently used results
go once their sizes add up past the limit.

A generator given a `version` (what besides its inputs decides its bytes: its code, the
libraries it draws and encodes with) also keeps its results in taskkit's user cache folder
(`taskkit.user_cache`), under the version and the inputs, so the other processes of the machine
read a result instead of making it again (a suite's episodes, a benchmark run twice, the test
workers). A result goes to one of `DISK_SLOTS` files per generator, chosen by its digest and
headed by it, so the disk holds a bounded number (a long run of fresh seeds would otherwise fill
it) and a slot that another result took since is made again. An entry is written whole through a
rename; one that cannot be read or written is made.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import marshal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from taskkit import user_cache

LIMIT_BYTES = 8 << 20  # per generator, in one process
DISK_SLOTS = 512  # per generator with a version, on disk
T = TypeVar("T")


def kept(limit: int = LIMIT_BYTES, size: Callable[[Any], int] = len,
         version: Callable[[], str] | None = None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a pure function of plain data (str, numbers, lists, tuples) returning bytes (or
    what `size` weighs in bytes); with `version`, one returning bytes whose results are also kept
    on disk for the machine's other processes."""

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
            stored = _stored(make, version(), key) if version else None
            value = _read(*stored) if stored is not None else None
            if value is None:
                value = make(*args, **kwargs)
                if stored is not None:
                    user_cache.write(stored[0], stored[1] + value)
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


def _stored(make: Callable[..., Any], version: str, key: bytes) -> tuple[Path, bytes]:
    """The file where the machine keeps `make`'s result for the inputs `key` made by `version`,
    and the digest that heads it there."""
    digest = hashlib.sha256(version.encode() + b"\0" + key).digest()
    slot = int.from_bytes(digest[:4], "big") % DISK_SLOTS
    return user_cache.folder() / "kept" / f"{make.__module__}.{make.__qualname__}" / f"{slot}", digest


def _read(path: Path, digest: bytes) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data[len(digest):] if data.startswith(digest) else None


def drawn_by(source_file: str) -> Callable[[], str]:
    """The `version` of a generator defined in `source_file` that draws and encodes with Pillow:
    that file's code, Python's, and Pillow's version with the libraries it draws and encodes with
    (read without importing Pillow's drawing modules, which a process whose results are all kept
    never needs)."""

    @functools.cache
    def version() -> str:
        import PIL
        from PIL import _imaging, _imagingft

        libraries = (PIL.__version__, _imaging.jpeglib_version, _imaging.zlib_version, _imagingft.freetype2_version,
                     getattr(_imagingft, "raqm_version", None), sys.version)
        return f"{hashlib.sha256(Path(source_file).read_bytes()).hexdigest()} {libraries}"

    return version
