"""taskkit's user cache folder: where it is, and writing an entry into it whole or not at all.

What is cached there (parsed specs, the built-in tasks' index, jinja's compiled templates: taskkit/
compiled_templates.py, generated files: apps/kept.py) is derived
from files a process can read again, so a cache that cannot be written is skipped, never an error.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def folder() -> Path:
    """`$TASKKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/taskkit`, else `~/.cache/taskkit`."""
    explicit = os.environ.get("TASKKIT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "taskkit"


def write(target: Path, data: bytes) -> None:
    """Write `data` to `target` through a rename, so that concurrent processes never read half an
    entry; a folder that cannot be written is skipped."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
