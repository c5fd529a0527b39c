"""A host path's real path, resolved by the kernel: what `os.path.realpath` answers, in three system
calls (an O_PATH descriptor, its /proc/self/fd link, the close) where `realpath` takes an lstat
per component. The simulated device resolves several host paths per command (its sandbox checks
every one), under a state directory a dozen folders deep.

A missing last component is kept as written after its folder's real path, as `realpath` (not
strict) does, and a dangling link gets its target's path; a path the kernel cannot open for another reason (a loop, a folder taken away
meanwhile) gets `os.path.realpath`'s answer.
"""
from __future__ import annotations

import os

_OPEN_FLAGS = os.O_PATH | os.O_CLOEXEC
_FD_LINKS = "/proc/self/fd/"


def real_path(path: str | os.PathLike[str], follow: bool = True) -> str:
    """The real path of absolute `path`: every link in its folders resolved, and its last
    component too when `follow` (else kept, as lstat, unlink and rename see it)."""
    text = os.fspath(path)
    if not follow:
        folder, name = os.path.split(text)
        if name in ("", ".", ".."):
            return os.path.realpath(text)
        return os.path.join(real_path(folder), name)
    try:
        handle = os.open(text, _OPEN_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        folder, name = os.path.split(text)
        if folder == text or _dots(text) or os.path.islink(text):  # (a dangling link: its target)
            return os.path.realpath(text)
        return os.path.join(real_path(folder), name)  # resolved as far as it exists
    except OSError:
        return os.path.realpath(text)
    try:
        return os.readlink(_FD_LINKS + str(handle))
    except OSError:  # no /proc
        return os.path.realpath(text)
    finally:
        os.close(handle)


def _dots(path: str) -> bool:
    """Whether `path` has an empty last component, or a `.` or `..` one (resolved physically)."""
    parts = path.split("/")
    return not parts[-1] or "." in parts or ".." in parts
