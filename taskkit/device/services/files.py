"""Files on the device through toybox: one shell command (or one file transfer) per call.

Every method takes absolute device paths (a relative path or one starting with `-` could be
read as an option, so they are refused). Paths are quoted with `shell_quote`, so quotes,
newlines, unicode and shell metacharacters in names are safe.

Notes on the commands used:

- `find -H` follows a symbolic link given as the root (`/sdcard` is one on Android: a plain
  `find /sdcard` lists only the link). Results are NUL-separated (`-print0`) so names with
  newlines survive, and sorted (readdir order differs between devices).
- `listdir` is `cd DIR && find . -mindepth 1 -maxdepth 1 -print0` for the same reasons.
- `stat` follows links (`stat -L`) and reports the permission bits as `%a`.
- `md5` is one `md5sum` call; missing files are left out of the result. Its parser walks the
  output with the known paths, so a path containing a newline still parses.
- `ls` is for people and agents reading `ls -l` lines; `parse_ls_long` cannot tell a newline
  inside a name from the next line.
"""
from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from taskkit.device.errors import CommandFailed, ShellResult
from taskkit.device.quoting import shell_join, shell_quote

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device

STAT_FORMAT = "%s %Y %a %F"
_KINDS = {"regular file": "file", "regular empty file": "file", "directory": "dir",
          "symbolic link": "link"}
_MD5_HEAD = re.compile(r"([0-9a-f]{32})  ")
_LS_LINE = re.compile(
    r"([-dlcbps?][-rwxsStT]{9})\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+|\d+,\s*\d+)\s+"
    r"(\d{4}-\d\d-\d\d \d\d:\d\d) (.*)")


@dataclasses.dataclass(frozen=True)
class FileStat:
    """What `stat` reports about one path."""

    path: str
    size: int
    mtime: int   # epoch seconds
    mode: int    # permission bits, e.g. 0o660
    kind: str    # "file" | "dir" | "link" | "other"


@dataclasses.dataclass(frozen=True)
class LsEntry:
    """One `ls -l` line."""

    mode: str        # "-rw-rw----"
    nlink: int
    owner: str
    group: str
    size: str        # bytes, or "major, minor" for devices
    mtime: str       # "YYYY-MM-DD HH:MM" in the device's zone
    name: str
    target: str | None = None  # symbolic links

    @property
    def is_dir(self) -> bool:
        """Whether the entry is a directory."""
        return self.mode.startswith("d")


def _path(path: str) -> str:
    if not isinstance(path, str) or not path.startswith("/"):
        raise ValueError(f"device paths must be absolute, got {path!r}")
    return path


# --- commands -------------------------------------------------------------------------------
def build_exists(path: str, test: str = "-e") -> str:
    return shell_join(["test", test, _path(path)])


def build_cat(path: str) -> str:
    return shell_join(["cat", _path(path)])


def build_remove(path: str, recursive: bool = False) -> str:
    return shell_join(["rm", "-rf" if recursive else "-f", _path(path)])


def build_mkdir(path: str) -> str:
    return shell_join(["mkdir", "-p", _path(path)])


def build_listdir(path: str) -> str:
    return f"cd {shell_quote(_path(path))} && find . -mindepth 1 -maxdepth 1 -print0"


def build_find(root: str, type: str | None = None, name: str | None = None) -> str:
    words = ["find", "-H", _path(root)]
    if type is not None:
        if type not in ("f", "d", "l"):
            raise ValueError(f"find type must be 'f', 'd' or 'l', got {type!r}")
        words += ["-type", type]
    if name is not None:
        words += ["-name", name]
    return shell_join(words + ["-print0"])


def build_stat(path: str) -> str:
    return shell_join(["stat", "-L", "-c", STAT_FORMAT, _path(path)])


def build_copy(src: str, dst: str) -> str:
    return shell_join(["cp", "-r", _path(src), _path(dst)])


def build_move(src: str, dst: str) -> str:
    return shell_join(["mv", _path(src), _path(dst)])


def build_md5(paths: list[str]) -> str:
    return shell_join(["md5sum"] + [_path(p) for p in paths])


def build_ls(path: str) -> str:
    return shell_join(["ls", "-lAH", _path(path)])


# --- parsers --------------------------------------------------------------------------------
def parse_find0(text: str, strip_prefix: str = "") -> list[str]:
    """NUL-separated `find -print0` output as a sorted list (optionally minus a prefix)."""
    items = [item for item in text.split("\0") if item]
    if strip_prefix:
        items = [item[len(strip_prefix):] if item.startswith(strip_prefix) else item
                 for item in items]
    return sorted(items, key=lambda s: s.encode("utf-8", "surrogateescape"))


def parse_stat(path: str, text: str) -> FileStat:
    """One line of `stat -c '%s %Y %a %F'`."""
    line = text.rstrip("\n")
    try:
        size, mtime, mode, kind = line.split(" ", 3)
        return FileStat(path, int(size), int(mtime), int(mode, 8), _KINDS.get(kind, "other"))
    except ValueError:
        raise ValueError(f"unexpected stat output for {path!r}: {text!r}") from None


def parse_md5sum(text: str, paths: list[str] | None = None) -> dict[str, str]:
    """`md5sum` output as {path: hex digest}.

    With `paths` (the arguments, in order) every path is matched exactly, newlines included;
    paths md5sum could not read are absent. Without, each line is `HASH  PATH`.
    """
    if paths is None:
        result = {}
        for line in text.splitlines():
            m = _MD5_HEAD.match(line)
            if m:
                result[line[m.end():]] = m.group(1)
        return result
    result = {}
    pos = 0
    for path in paths:
        m = _MD5_HEAD.match(text, pos)
        if m and text.startswith(path + "\n", m.end()):
            result[path] = m.group(1)
            pos = m.end() + len(path) + 1
    return result


def parse_ls_long(text: str) -> list[LsEntry]:
    """`ls -l` lines (the `total` line and `dir:` headers are skipped)."""
    entries = []
    for line in text.splitlines():
        m = _LS_LINE.fullmatch(line)
        if not m:
            continue
        mode, nlink, owner, group, size, mtime, name = m.groups()
        target = None
        if mode.startswith("l") and " -> " in name:
            name, target = name.split(" -> ", 1)
        entries.append(LsEntry(mode, int(nlink), owner, group, size, mtime, name, target))
    return entries


def raise_for(result: ShellResult, command: str, path: str) -> None:
    """Turn a failed file command into FileNotFoundError & co. (else CommandFailed)."""
    if result.exit_code == 0:
        return
    message = result.stderr or result.stdout
    for text, error in (("No such file or directory", FileNotFoundError),
                        ("Not a directory", NotADirectoryError),
                        ("Is a directory", IsADirectoryError),
                        ("File exists", FileExistsError),
                        ("Permission denied", PermissionError)):
        if text in message:
            raise error(f"{path}: {message.strip()}")
    raise CommandFailed(command, result)


# --- the service ----------------------------------------------------------------------------
class Files:
    """Read, write, list and hash device files."""

    def __init__(self, device: "Device"):
        self.device = device

    def _run(self, command: str, path: str) -> str:
        result = self.device.shell(command)
        raise_for(result, command, path)
        return result.stdout

    def _test(self, path: str, flag: str) -> bool:
        command = build_exists(path, flag)
        result = self.device.shell(command)
        if result.exit_code not in (0, 1):
            raise CommandFailed(command, result)
        return result.exit_code == 0

    def exists(self, path: str) -> bool:
        """Whether `path` exists on the device."""
        return self._test(path, "-e")

    def is_dir(self, path: str) -> bool:
        """Whether `path` is a directory on the device."""
        return self._test(path, "-d")

    def read_text(self, path: str) -> str:
        """The file's text (invalid UTF-8 becomes U+FFFD); FileNotFoundError if missing."""
        return self._run(build_cat(path), path)

    def read_bytes(self, path: str) -> bytes:
        """The file's bytes, pulled from the device."""
        return self.device.pull(_path(path))

    def write_bytes(self, path: str, data: bytes) -> None:
        """Write the file (replacing it), creating missing parent directories."""
        self.device.push(bytes(data), _path(path))

    def write_text(self, path: str, text: str) -> None:
        """Write `text` (UTF-8) to `path`, pushed to the device."""
        self.write_bytes(path, text.encode("utf-8"))

    def remove(self, path: str, recursive: bool = False) -> None:
        """`rm -f` (or `rm -rf`): a missing path is fine, a directory needs `recursive` (batched)."""
        self.device.run(build_remove(path, recursive))

    def mkdir(self, path: str) -> None:
        """`mkdir -p` (batched)."""
        self.device.run(build_mkdir(path))

    def listdir(self, path: str) -> list[str]:
        """Entry names of a directory (without . and ..), sorted."""
        return parse_find0(self._run(build_listdir(path), path), "./")

    def find(self, root: str, type: str | None = None, name: str | None = None) -> list[str]:
        """Paths under `root` (itself included when it matches), sorted. `type`: f, d or l;
        `name`: a glob on the last component. FileNotFoundError if `root` is missing."""
        return parse_find0(self._run(build_find(root, type, name), root))

    def stat(self, path: str) -> FileStat | None:
        """The file's size, mtime, permission bits and kind; None if it does not exist."""
        command = build_stat(path)
        result = self.device.shell(command)
        if result.exit_code != 0:
            if "No such file or directory" in result.stderr:
                return None
            raise_for(result, command, path)
        return parse_stat(path, result.stdout)

    def copy(self, src: str, dst: str) -> None:
        """`cp -r SRC DST` (into DST when it is an existing directory)."""
        self._run(build_copy(src, dst), src)

    def move(self, src: str, dst: str) -> None:
        """`mv SRC DST` (into DST when it is an existing directory)."""
        self._run(build_move(src, dst), src)

    def md5(self, paths: list[str]) -> dict[str, str]:
        """{path: md5 hex} in one `md5sum` call; unreadable paths are left out."""
        if not paths:
            return {}
        result = self.device.shell(build_md5(paths))
        return parse_md5sum(result.stdout, list(paths))

    def ls(self, path: str) -> list[LsEntry]:
        """`ls -lAH PATH` parsed (a directory's entries, or the file itself)."""
        return parse_ls_long(self._run(build_ls(path), path))
