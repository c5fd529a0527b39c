"""A host path's real path, resolved by the kernel: what `os.path.realpath` answers, in three system
calls (an O_PATH descriptor, its /proc/self/fd link, the close) where `realpath` takes an lstat
per component. The simulated device resolves several host paths per command (its sandbox checks
every one), under a state directory a dozen folders deep.

A missing last component is kept as written after its folder's real path, as `realpath` (not
strict) does, and a dangling link gets its target's path; a path the kernel cannot open for another reason (a loop, a folder taken away
meanwhile) gets `os.path.realpath`'s answer.

Inside a `KeptAnswers()` block (one shell command line of the simulated device, taskkit/sim/shell.py)
an answer is kept until this process may change where a path leads: taskkit.sim.audit_events tells
of every event that may (a link made, removed or moved, a folder moved, a chdir;
`audit_events._redirects`). A file or folder made, a file or empty folder removed, a file moved
leads no path elsewhere: an answer depends on the links on the path's way alone. An audit event
comes before its system call, and nothing follows the call; so from the event until the same
thread's next audit event (or the end of its command), when the call has surely returned, no
thread keeps an answer (`tree_changing`, `tree_announced`, `tree_changed`). A thread that ends
right after such a call leaves answers unkept for the rest of the process: slower, never wrong.
A command resolves the same paths over and over (its sandbox checks, the listeners of its
writes). Another process changing the same state directory during one command is seen at its
next command, as a change between a command's check and its own use of a path always was.
"""
from __future__ import annotations

import itertools
import os
import stat
import threading
from typing import Any

_OPEN_FLAGS = os.O_PATH | os.O_CLOEXEC
_FD_LINKS = "/proc/self/fd/"


_CHANGES = itertools.count(1)  # (next() is atomic: two threads never take the same number)
_changed = 0  # the number of the last change to where paths lead that this process announced
_in_flight = 0  # announced changes whose system call may not have returned yet (any thread)
_FLIGHT_LOCK = threading.Lock()
ANNOUNCED, DISPATCHED = 1, 2  # a thread's change: being announced to the listeners; announced, not yet seen done


class _Kept(threading.local):
    """Per thread, inside a KeptAnswers block: the answers {(path, follow): real path}, the paths that
    are their own real path (and so are their folders), and the change they were found after;
    and in any thread, where its own change announced last stands (0: done)."""

    answers: dict[tuple[str, bool], str] | None = None
    plain: set[str] | None = None
    since = 0
    changing = 0
    depth = 0  # announcements under way in this thread (a listener's own change inside one)


_LOCAL = kept = _Kept()  # (`kept`: what audit_events reads at every event)


def tree_changing() -> None:
    """This thread is about to link, move, remove or chdir (audit_events calls it before the
    event's listeners): no kept answer holds, and none is kept by any thread until the change is
    done (`tree_changed`)."""
    global _changed, _in_flight
    with _FLIGHT_LOCK:
        if not _LOCAL.changing:
            _in_flight += 1
        _LOCAL.changing = ANNOUNCED
        _LOCAL.depth += 1
        _changed = next(_CHANGES)


def tree_announced() -> None:
    """The listeners of this thread's change have run; its system call comes next."""
    global _changed
    _LOCAL.depth -= 1
    if not _LOCAL.depth:
        _LOCAL.changing = DISPATCHED
    _changed = next(_CHANGES)  # (what the listeners found came before the change)


def tree_changed() -> None:
    """This thread raised an audit event after announcing a change (audit_events calls it): the
    change's system call has returned, so answers may be kept again."""
    global _changed, _in_flight
    if _LOCAL.changing != DISPATCHED:
        return
    with _FLIGHT_LOCK:
        _LOCAL.changing = 0
        _in_flight -= 1
        _changed = next(_CHANGES)


class KeptAnswers:
    """A block inside which this thread's answers are kept (see the module doc); a block inside
    another is part of it. (A class: the shell enters one per command line.)"""

    __slots__ = ("_outermost",)

    def __enter__(self) -> None:
        self._outermost = _LOCAL.answers is None
        if self._outermost:
            _LOCAL.answers, _LOCAL.plain, _LOCAL.since = {}, set(), _changed

    def __exit__(self, *exc: object) -> None:
        if self._outermost:
            _LOCAL.answers = _LOCAL.plain = None
            tree_changed()  # (the command's last change is done)


def real_path(path: str | os.PathLike[str], follow: bool = True) -> str:
    """The real path of absolute `path`: every link in its folders resolved, and its last
    component too when `follow` (else kept, as lstat, unlink and rename see it)."""
    answers, plain = _LOCAL.answers, _LOCAL.plain
    if answers is None or plain is None or _in_flight:
        return _resolved(os.fspath(path), follow)
    if _LOCAL.since != _changed:
        answers.clear()
        plain.clear()
        _LOCAL.since = _changed
    key = (os.fspath(path), follow)
    found = answers.get(key)
    if found is not None:
        return found
    text = key[0]
    if text in plain:
        return text
    folder, name = os.path.split(text)
    if folder in plain and name not in ("", ".", "..") and (not follow or file_kind(text) != stat.S_IFLNK):
        return os.path.join(folder, name)  # (a file about to be made: one lstat, no failed open)
    since = _changed
    found = _resolved(text, follow)
    if since == _changed:  # (not an answer found while the tree changed)
        answers[key] = found
        if follow and found == text:  # no link on its way: nor on its folders'
            while text not in plain and text != folder:
                plain.add(text)
                text, folder = folder, os.path.dirname(folder)
    return found


def file_kind(path: Any, dir_fd: Any = None) -> int | None:
    """The file type bits of `path`, not followed (S_IFLNK for a link); None if it is missing (below
    a file or a missing folder too); S_IFLNK when unsure (taken the long way by every caller)."""
    try:
        return stat.S_IFMT(os.lstat(path, dir_fd=dir_fd if isinstance(dir_fd, int) and dir_fd >= 0 else None).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, TypeError, ValueError):
        return stat.S_IFLNK


def _resolved(text: str, follow: bool) -> str:
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
