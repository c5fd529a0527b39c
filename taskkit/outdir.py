"""Output directories: claimed, locked, and written without following a symbolic link.

Every command that writes a directory (taskkit.run's and taskkit.demos' `--output_dir`, `python
-m taskkit.report OUT_DIR`) first claims it (`claim`):

- it must be new, empty, or already taskkit's: holding its marker file (a run's manifest.json, a
  dataset's dataset.json) whose content says so — the rule `--device sim:DIR` follows
  (taskkit.sim.device.check_state_dir). Anything else is refused and left untouched;
- it is locked while the command runs, as a device is (taskkit.device.lock: an flock on
  `.taskkit.lock`, which names the holder's pid and command line and ends with its process): a
  second command on it stops at once naming the holder.

Files are then written relative to the directory's descriptor (openat), never through a link:

- a file rewritten whole (summary.json, report.html, dataset.json...) goes to a fresh temporary
  file in the same directory (O_CREAT|O_EXCL|O_NOFOLLOW, a unique name) that then replaces it
  (os.replace): a link planted under its name is replaced, its target untouched; the temporary
  file is removed on any failure;
- a file streamed anew (a trajectory, a screenshot) replaces whatever entry held its name (a
  link is unlinked, not followed) with a file created O_EXCL|O_NOFOLLOW;
- a file appended to (results.jsonl) is opened O_APPEND|O_NOFOLLOW: a link is refused. Each line
  is written whole (os.write until done) and, if that fails, the file is cut back to its length
  before the line: no torn row;
- a directory under it is created and opened O_DIRECTORY|O_NOFOLLOW: a link is refused
  (trajectories/, checked before a run starts), or removed and replaced by a directory (an
  episode's screenshot folder, rewritten with its episode).

Errors: a directory that cannot be used is `OutputDirError` (bad input, exit 2), one in use is
`OutputDirBusy` (exit 2, as a busy device); a write that fails once the command is under way (no
space left on the device, a quota, an I/O error, a link planted meanwhile) is `WriteFailed`: a
`StopRun`, so the run stops keeping the rows it has (exit 3) and the same command resumes it.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any, Callable, Collection, Iterator

from taskkit.agents.base import StopRun
from taskkit.device import lock
from taskkit.errors import TaskkitError
from taskkit.sim.device import StateDirError, check_state_dir

LOCK_NAME = lock.LOCK_NAME
#: The largest marker file (manifest.json, dataset.json, a static_eval output) read to decide
#: whether a directory or file is taskkit's; a bigger one is not taskkit's.
MAX_MARKER_BYTES = 64 * 1024 * 1024
_MODE = 0o666  # as open(): the umask applies
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class OutputDirError(TaskkitError, ValueError):
    """An output directory or file taskkit must not or cannot use: bad input, exit 2."""


class OutputDirBusy(OutputDirError):
    """Another live process holds the output directory's lock."""


class WriteFailed(StopRun, RuntimeError):
    """A write under a claimed output directory failed (no space left, a quota, an I/O error, a
    link planted meanwhile): the run stops keeping its rows, exit 3."""


def _linked(error: OSError) -> bool:
    """Whether an O_NOFOLLOW open failed because the name is a symbolic link."""
    return error.errno in (errno.ELOOP, errno.EMLINK)


def _reason(error: OSError) -> str:
    if _linked(error):
        return "a symbolic link (taskkit never writes through one); remove it"
    return error.strerror or str(error)


def _no_nul(path: str | os.PathLike[str], flag: str = "") -> None:
    """OutputDirError for a path the OS cannot take (a NUL byte), instead of Python's ValueError."""
    if "\0" in os.fspath(path):
        raise OutputDirError(f"{flag} {os.fspath(path)!r}: a path cannot hold a NUL byte".lstrip())


def _checked_name(name: str) -> str:
    """`name` as one entry of a directory: no separator, no `.` or `..`, no NUL."""
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise OutputDirError(f"{name!r} is not a file name taskkit can write")
    return name


class OutputDir:
    """An open directory: every file operation is relative to its descriptor and never follows
    a link in the last component. `OutputDir.open` opens one (no lock: a `--parallel` worker
    writes into the directory its parent claimed); `claim` also checks and locks it."""

    def __init__(self, path: Path, fd: int):
        self.path, self.fd = path, fd
        self._held = contextlib.ExitStack()

    @classmethod
    def open(cls, path: str | os.PathLike[str], create: bool = False) -> "OutputDir":
        """The directory `path`, made first (with its parents) if `create` (itself may be reached
        through a link: the user named it)."""
        _no_nul(path)
        try:
            if create:
                os.makedirs(path, exist_ok=True)
            return cls(Path(path), os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
        except OSError as error:
            raise OutputDirError(f"{path}: {_reason(error)}") from None

    def __enter__(self) -> "OutputDir":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the lock (if claimed) and the descriptor; a second call does nothing."""
        if self.fd < 0:
            return
        try:
            self._held.close()
        finally:
            os.close(self.fd)
            self.fd = -1

    def _failed(self, name: str, error: OSError) -> WriteFailed:
        return WriteFailed(f"{self.path / name}: {_reason(error)}")

    def entry(self, name: str) -> os.stat_result | None:
        """lstat of `name`, or None if there is no such entry."""
        try:
            return os.stat(_checked_name(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise OutputDirError(f"{self.path / name}: {_reason(error)}") from None

    def is_link(self, name: str) -> bool:
        found = self.entry(name)
        return found is not None and stat.S_ISLNK(found.st_mode)

    def refuse_links(self, *names: str) -> None:
        """OutputDirError if any of `names` is a symbolic link (checked before a run writes)."""
        for name in names:
            if self.is_link(name):
                raise OutputDirError(f"{self.path / name}: {_reason(OSError(errno.ELOOP, 'link'))}")

    def read_text(self, name: str, limit: int | None = None) -> str | None:
        """The text of the regular file `name` (None: there is none); a link is OutputDirError,
        and so is a file longer than `limit` bytes."""
        try:
            fd = os.open(_checked_name(name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise OutputDirError(f"{self.path / name}: {_reason(error)}") from None
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OutputDirError(f"{self.path / name}: not a regular file")
            data = handle.read() if limit is None else handle.read(limit + 1)
        if limit is not None and len(data) > limit:
            raise OutputDirError(f"{self.path / name} is larger than {limit} bytes: not taskkit's")
        return data.decode("utf-8", errors="replace")

    def subdir(self, name: str, replace_link: bool = False) -> "OutputDir":
        """The directory `name` under this one, created if missing; a link there is WriteFailed
        (with `replace_link`, it is removed and a directory made in its place), and so is a file.
        The caller closes it."""
        _checked_name(name)
        try:
            if replace_link and self.is_link(name):
                os.unlink(name, dir_fd=self.fd)
            os.mkdir(name, 0o777, dir_fd=self.fd)
        except FileExistsError:
            pass
        except OSError as error:
            raise self._failed(name, error) from None
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        except OSError as error:  # a link is ENOTDIR here, with O_DIRECTORY: say which it is
            raise self._failed(name, OSError(errno.ELOOP, "link") if self.is_link(name) else error) from None
        return OutputDir(self.path / name, fd)

    def _new_file(self, name: str) -> int:
        try:
            return os.open(name, _NEW, _MODE, dir_fd=self.fd)
        except OSError as error:
            raise self._failed(name, error) from None

    def create(self, name: str) -> "Appender":
        """A new empty file `name`, replacing whatever entry held that name (unlinked, not followed)."""
        try:
            os.unlink(_checked_name(name), dir_fd=self.fd)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise self._failed(name, error) from None
        return Appender(self._new_file(name), self.path / name)

    def append(self, name: str, sync: bool = False) -> "Appender":
        """`name` opened to append whole lines (created if missing); a link there is WriteFailed."""
        try:
            fd = os.open(_checked_name(name), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                         _MODE, dir_fd=self.fd)
        except OSError as error:
            raise self._failed(name, error) from None
        return Appender(fd, self.path / name, sync)

    def replace(self, name: str, data: str | bytes) -> Path:
        """Write `data` to `name` atomically: a fresh temporary file in this directory, synced,
        then renamed over `name` (a link there is replaced, not followed). On any failure the
        temporary file is removed and `name` keeps its old content. Returns the file's path."""
        _checked_name(name)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        tmp = f".{name}.{secrets.token_hex(12)}.tmp"  # unique: O_EXCL refuses an existing one
        try:
            with Appender(self._new_file(tmp), self.path / name, sync=True) as handle:
                handle.write(payload)
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException as error:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self.fd)
            if isinstance(error, OSError):
                raise self._failed(name, error) from None
            raise
        return self.path / name

    def hold_lock(self, shown: str) -> None:
        """Lock this directory until `close` (`shown` names it in the busy error)."""
        def busy(holder: str, path: Path) -> TaskkitError:
            return OutputDirBusy(f"{shown} is in use by {holder} (lock {path}); wait for it to end or use "
                                 "another directory")

        try:
            self._held.enter_context(lock.hold(self.path / LOCK_NAME, busy=busy, dir_fd=self.fd))
        except OSError as error:
            raise OutputDirError(f"{self.path / LOCK_NAME}: {_reason(error)}") from None


class Appender:
    """Whole writes to one open file: `write` puts all of `data` (os.write until done) or, if
    that fails, cuts the file back to its length before and raises WriteFailed."""

    def __init__(self, fd: int, path: Path, sync: bool = False):
        self.fd, self.path, self.sync = fd, path, sync

    def __enter__(self) -> "Appender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, data: bytes) -> None:
        try:
            before = os.fstat(self.fd).st_size
        except OSError as error:
            raise WriteFailed(f"{self.path}: {_reason(error)}") from None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            if self.sync:
                os.fsync(self.fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, before)
            raise WriteFailed(f"{self.path}: {_reason(error)}") from None

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _json_object(text: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(text) if text is not None else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def claim(path: str | os.PathLike[str], flag: str, marker: str, owns: Callable[[dict[str, Any]], bool],
          kind: str, own_files: Collection[str] = (), existing_only: bool = False) -> OutputDir:
    """Open and lock the output directory `path` for this process (close the result to release it).

    It must be new or empty (but for `own_files` and the lock; it is created), or hold `marker`,
    a regular file whose JSON object `owns` accepts; with `existing_only` it must hold that
    marker. `flag` and `kind` ("a taskkit.run output") name it in the one-line errors:
    OutputDirError (and OutputDirBusy when another live process holds it, naming that process).
    """
    shown = f"{flag} {path}" if flag else str(path)
    _no_nul(path, flag)
    try:
        if not existing_only:
            check_state_dir(path, marker, {*own_files, LOCK_NAME}, kind)
    except StateDirError as error:  # as --device sim:DIR says it (taskkit.cli.opened_device)
        raise OutputDirError(f"{shown}: {error}" if flag else str(error)) from None
    except OSError as error:
        raise OutputDirError(f"{shown}: {_reason(error)}") from None
    directory = OutputDir.open(path)
    try:
        text = directory.read_text(marker, MAX_MARKER_BYTES)  # before the lock: nothing is made in a foreign directory
        if text is None and existing_only:
            raise OutputDirError(f"{shown} is not {kind} (it has no {marker})")
        if text is not None and not owns(_json_object(text) or {}):
            raise OutputDirError(f"{shown}: its {marker} is not taskkit's ({kind} has its own); "
                                 "give an empty or new directory")
        directory.hold_lock(shown)
    except BaseException:
        directory.close()
        raise
    return directory


def check_own_file(path: str | os.PathLike[str], flag: str, owns: Callable[[dict[str, Any]], bool]) -> None:
    """OutputDirError unless the file `path` may be written: its directory exists, and it is new
    or a regular file (not a link) whose JSON object `owns` accepts (this command's earlier output)."""
    with _own_file(path, flag, owns):
        pass


def write_own_file(path: str | os.PathLike[str], flag: str, data: str, owns: Callable[[dict[str, Any]], bool]) -> Path:
    """Write `data` to the file `path` atomically in its directory, if `check_own_file` allows
    (checked again here). No lock: one rename is the whole write."""
    with _own_file(path, flag, owns) as directory:
        return directory.replace(Path(path).name, data)


@contextlib.contextmanager
def _own_file(path: str | os.PathLike[str], flag: str, owns: Callable[[dict[str, Any]], bool]) -> Iterator[OutputDir]:
    """The open directory of the file `path`, once that file is known to be new or this command's."""
    _no_nul(path, flag)
    target = Path(path)
    if target.name in ("", ".", ".."):
        raise OutputDirError(f"{flag} {target}: give a file name")
    with OutputDir.open(target.parent) as directory:
        text = directory.read_text(target.name, MAX_MARKER_BYTES)
        if text is not None and not owns(_json_object(text) or {}):
            raise OutputDirError(f"{flag} {target} exists and is not this command's output; give a new file name")
        yield directory
