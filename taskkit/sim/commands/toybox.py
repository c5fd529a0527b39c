"""Toybox 0.8.6 file tools of the simulated device (reference §6.9).

cat ls rm rmdir mkdir mv cp find stat touch wc md5sum sha1sum sha256sum head tail grep sort
basename dirname chmod chown chgrp chcon restorecon sleep printf xargs tee which echo true
false pwd test [ — with toybox's messages and exit codes.

Deliberate simplifications, chosen so that listings are deterministic on every host:

* Ownership and modes are virtual: every file is `root root`, `-rw-rw----` (660), every
  directory `drwxrwx--x` (771), symbolic links `lrwxrwxrwx`. chmod/chown/chcon/restorecon
  check their operands and succeed without changing anything.
* Sizes and blocks: directories are 4096 bytes (8 blocks); files use 4 KiB blocks. A
  directory's link count is 2 + its subdirectories; inode numbers are a CRC of the path.
* atime and ctime equal mtime; times print in UTC (`ls -l`: `YYYY-MM-DD HH:MM`).
* Directory order (readdir order on a device) is sorted by bytes, for `find` too.
* Symbolic links are the state directory's real links (the image links `/sdcard`,
  `/storage/self/primary`, `/data/user/0`); `/storage/emulated/0` is treated as the directory
  it is on a device. As on a device, `find /sdcard` and `ls -l /sdcard` see the link, not the
  directory (use `/sdcard/`, or `find -H`).
* The root directory is read-only, as on Android 10+; mount points such as /sdcard survive
  `rm -rf /sdcard/` (their contents do not).
* Every write stamps the file, and every create/delete the parent directory, with the device
  clock.
"""
from __future__ import annotations

import dataclasses
import errno
import hashlib
import os
import posixpath
import re
import shutil
import stat as S
import time
import zlib
from pathlib import Path
from typing import Callable, Iterator

from taskkit.errors import TaskkitError
from taskkit.sim import limits, storage
from taskkit.sim.commands import Invocation, command
from taskkit.sim.commands import call as call_command, find as find_command
from taskkit.sim.state import SDCARD, SDCARD_BACKING, STORAGE_ALIASES, SimState

FILE_MODE = 0o660
DIR_MODE = 0o771
LINK_MODE = 0o777
OWNER = GROUP = "root"
BLOCK_SIZE = 4096
# Canonical paths whose directory must survive `rm -r` (mount points and system roots).
_PROTECTED = frozenset({"/", "/data", "/data/media", SDCARD_BACKING, "/data/data", "/storage",
                        "/storage/emulated", "/system", "/data/local", "/data/local/tmp"})


# ============================================================================================
# The virtual `struct stat` of a device path
# ============================================================================================
@dataclasses.dataclass
class VStat:
    """What `stat(2)` reports for a device path in the simulator."""

    path: str          # normalized device path
    host: Path         # the host file (for links: the link itself)
    kind: str          # "file" | "dir" | "link" | "other"
    mode: int          # st_mode including the file type bits
    size: int
    mtime: int
    target: str | None = None  # symbolic links: the device path they point to

    @property
    def blocks(self) -> int:
        """512-byte blocks, as `st_blocks` (4 KiB allocation units)."""
        if self.kind == "dir":
            return 8
        if self.kind == "file":
            return -(-self.size // BLOCK_SIZE) * 8
        return 0

    @property
    def ino(self) -> int:
        name = self.path if self.kind == "link" else SimState.canonical(self.path)
        return zlib.crc32((self.kind == "link") * b"@" + name.encode("utf-8", "surrogateescape")) or 1

    @property
    def nlink(self) -> int:
        if self.kind != "dir":
            return 1
        try:
            with os.scandir(self.host) as it:
                return 2 + sum(1 for e in it if e.is_dir(follow_symlinks=False))
        except OSError:
            return 2

    @property
    def type_name(self) -> str:
        if self.kind == "file":
            return "regular file" if self.size else "regular empty file"
        return {"dir": "directory", "link": "symbolic link"}.get(self.kind, "unknown")


def vstat(state: SimState, path: str, cwd: str = "/", follow: bool = True) -> VStat:
    """stat (follow=True) or lstat a device path; raises OSError like the syscall."""
    norm = state.normalize(path, cwd)
    if path.endswith("/") or path.rpartition("/")[2] in ("", ".", ".."):
        follow = True  # a trailing slash resolves a link; "." and ".." are directories
    if not follow and norm != SDCARD:
        host = state.host_path(norm, follow=False)
        st = os.lstat(host)  # never follows: a link is described, anything else is the answer
    else:
        host = state.host_path(norm)
        st = os.stat(host)
    return _described(norm, host, st, path.endswith("/"))


def _described(norm: str, host: Path, st: os.stat_result, slash: bool = False) -> VStat:
    """The VStat of what `os.stat`/`os.lstat` said of `host` (a link only from lstat)."""
    if S.S_ISLNK(st.st_mode):
        link = os.readlink(host)
        target = link if link.startswith("/") else posixpath.normpath(posixpath.join(posixpath.dirname(norm), link))
        return VStat(norm, host, "link", S.S_IFLNK | LINK_MODE, len(target), int(st.st_mtime), target)
    if S.S_ISDIR(st.st_mode):
        return VStat(norm, host, "dir", S.S_IFDIR | DIR_MODE, BLOCK_SIZE, int(st.st_mtime))
    if slash:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
    if S.S_ISREG(st.st_mode):
        return VStat(norm, host, "file", S.S_IFREG | FILE_MODE, st.st_size, int(st.st_mtime))
    return VStat(norm, host, "other", st.st_mode, st.st_size, int(st.st_mtime))


def try_vstat(state: SimState, path: str, cwd: str = "/", follow: bool = True) -> VStat | None:
    try:
        return vstat(state, path, cwd, follow)
    except OSError:
        return None


def mode_string(mode: int) -> str:
    """`-rw-rw----` for a st_mode, as `ls -l` and `stat %A` print it."""
    kind = {S.S_IFDIR: "d", S.S_IFLNK: "l", S.S_IFREG: "-", S.S_IFCHR: "c", S.S_IFBLK: "b",
            S.S_IFIFO: "p", S.S_IFSOCK: "s"}.get(S.S_IFMT(mode), "?")
    bits = ""
    for shift, special, mark in ((6, S.S_ISUID, "s"), (3, S.S_ISGID, "s"), (0, S.S_ISVTX, "t")):
        triple = (mode >> shift) & 7
        bits += "r" if triple & 4 else "-"
        bits += "w" if triple & 2 else "-"
        x = bool(triple & 1)
        bits += (mark if x else mark.upper()) if mode & special else ("x" if x else "-")
    return kind + bits


def _strerror(exc: OSError) -> str:
    return os.strerror(exc.errno) if exc.errno else str(exc)


def _os_error(code: int) -> OSError:
    return OSError(code, os.strerror(code))


def _listdir(state: SimState, norm: str) -> list[str]:
    """Entry names of a directory, sorted by bytes (our stand-in for readdir order)."""
    names = os.listdir(state.host_path(norm))
    return sorted(names, key=_bytes_key)


def _child_stat(state: SimState, parent: VStat, name: str, follow: bool) -> VStat | None:
    """stat (follow) or lstat of the entry `name` a listing of directory `parent` returned.

    An lstat needs no new resolution: `parent.host` is a resolved, confined directory and `name`
    one component of it (no "/", never "." or ".."), so its host path is `parent.host / name`,
    unless the child is itself another name of shared storage (its backing lives elsewhere).
    """
    norm = _child_norm(parent.path, name)
    if follow or norm in STORAGE_ALIASES:
        return try_vstat(state, norm, follow=follow)
    host = parent.host / name
    try:
        return _described(norm, host, os.lstat(host))
    except OSError:
        return None


def _bytes_key(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


def _child(display: str, name: str) -> str:
    return display + name if display.endswith("/") else display + "/" + name


def _child_norm(norm: str, name: str) -> str:
    return "/" + name if norm == "/" else norm + "/" + name


def _stamp_parent(state: SimState, norm: str) -> None:
    state.stamp(state.host_path(posixpath.dirname(norm)))  # (the folder an entry was made or removed in)


def check_writable_parent(state: SimState, norm: str) -> None:
    """Raise like open(O_CREAT)/mkdir would when the parent of `norm` is unusable."""
    parent = posixpath.dirname(norm)
    host = state.host_path(parent)
    if not os.path.isdir(host):
        raise _os_error(errno.ENOTDIR if os.path.lexists(host) else errno.ENOENT)
    if parent == "/":
        raise _os_error(errno.EROFS)


def write_file(state: SimState, path: str, data: bytes, cwd: str = "/", append: bool = False) -> None:
    """Create/replace (or append to) a device file, stamping it and a new entry's parent."""
    norm = state.normalize(path, cwd)
    host = state.host_path(norm)
    existed = os.path.lexists(host)
    if os.path.isdir(host):
        raise _os_error(errno.EISDIR)
    if not existed:
        check_writable_parent(state, norm)
    try:
        storage.write_file(state, host, data, append)
    finally:  # what fit was written, as by write(2) before ENOSPC
        state.stamp(host)
        if not existed:
            _stamp_parent(state, norm)


# ============================================================================================
# Option parsing and command plumbing
# ============================================================================================
class UsageError(TaskkitError):
    """Bad options or operands: printed as `tool: message`, exit 1."""


def parse_options(args: list[str], spec: str, stop_at_operand: bool = False
                  ) -> tuple[dict[str, object], list[str]]:
    """Toybox-style option parsing: `spec` letters; `x:` takes a value, `x*` collects values."""
    takes: dict[str, str] = {}
    for k, c in enumerate(spec):
        if c in ":*":
            continue
        takes[c] = spec[k + 1] if k + 1 < len(spec) and spec[k + 1] in ":*" else ""
    opts: dict[str, object] = {}
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if len(arg) < 2 or arg[0] != "-":
            operands.append(arg)
            if stop_at_operand:
                operands.extend(args[i:])
                break
            continue
        if arg.startswith("--"):
            raise UsageError(f"Unknown option '{arg[2:]}'")
        for k, c in enumerate(arg[1:], start=1):
            kind = takes.get(c)
            if kind is None:
                raise UsageError(f"Unknown option '{c}'")
            if not kind:
                opts[c] = True
                continue
            value = arg[k + 1:]
            if not value:
                if i >= len(args):
                    raise UsageError(f"Missing argument to -{c}")
                value = args[i]
                i += 1
            if kind == "*":
                opts.setdefault(c, [])
                opts[c].append(value)  # type: ignore[union-attr]
            else:
                opts[c] = value
            break
    return opts, operands


def toy(*names: str) -> Callable[[Callable[[Invocation], int]], Callable[[Invocation], int]]:
    """Register a toybox command; UsageError becomes `name: message` with exit 1."""

    def register(func: Callable[[Invocation], int]) -> Callable[[Invocation], int]:
        def run(inv: Invocation) -> int:
            try:
                return func(inv)
            except UsageError as exc:
                return inv.fail(f"{posixpath.basename(inv.name)}: {exc}")

        run.__name__ = func.__name__
        run.__doc__ = func.__doc__
        command(*names)(run)
        return func

    return register


def _read_input(inv: Invocation, tool: str, path: str, quiet: bool = False) -> bytes | None:
    """The bytes of `path` (`-` is stdin), or None after printing toybox's error."""
    if path == "-":
        return inv.stdin
    if path in ("/dev/null", "/dev/zero"):
        return b""
    try:
        st = vstat(inv.state, path, inv.cwd)
        if st.kind == "dir":
            raise _os_error(errno.EISDIR)
        return st.host.read_bytes()
    except OSError as exc:
        if not quiet:
            inv.err(f"{tool}: {path}: {_strerror(exc)}\n")
        return None


_STREAM_CHUNK = 64 * 1024  # bytes seq writes at a time


def _int_arg(tool: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"not integer '{text}'") from None


def spawn(inv: Invocation, argv: list[str], stdin: bytes = b"") -> int | None:
    """Run another command of the device (as find -exec / xargs do); None if not found."""
    return call_command(inv.state, argv, stdin, inv.cwd, dict(inv.env), inv.stdout, inv.stderr)


# ============================================================================================
# Simple tools
# ============================================================================================
@toy("true")
def true_(inv: Invocation) -> int:
    return 0


@toy("false")
def false_(inv: Invocation) -> int:
    return 1


@toy("pwd")
def pwd(inv: Invocation) -> int:
    inv.out(inv.cwd + "\n")
    return 0


# df: the two mounts that hold the device's storage, both as big as its quota (taskkit/sim/storage.py):
# /data and the FUSE view of shared storage over it, named as an Android 13 emulator names them.
_DF_MOUNTS = (("/dev/block/dm-5", "/data"), ("/dev/fuse", "/storage/emulated"))
_SHARED = ("/sdcard", "/mnt/sdcard", "/storage/self", "/storage/emulated")


def _df_mount(state: SimState, path: str, cwd: str) -> tuple[str, str] | None:
    """The mount `path` lies on, or None if it is not on the device's storage."""
    norm = state.normalize(path, cwd)
    if any(norm == root or norm.startswith(root + "/") for root in _SHARED):
        return _DF_MOUNTS[1]
    return _DF_MOUNTS[0] if norm == "/data" or norm.startswith("/data/") else None


def _human(size: int) -> str:
    """toybox human_readable(): at most 3 digits and a unit, one decimal below 10."""
    value, unit = float(size), 0
    while value >= 1000 and unit < 5:
        value, unit = value / 1024, unit + 1
    text = f"{value:.1f}" if unit and value < 10 else f"{round(value):d}"
    return text + " KMGTP"[unit].strip()


@toy("df")
def df(inv: Invocation) -> int:
    """`df [-h|-k] [PATH...]`: size, use and free space of the device's storage (its quota)."""
    opts, paths = parse_options(inv.args, "hkaPt*")
    device = storage.of(inv.state)
    total, used = device.quota, min(device.used, device.quota)
    status, mounts = 0, []
    for path in paths or [mount for _, mount in _DF_MOUNTS]:
        if try_vstat(inv.state, path, inv.cwd) is None:
            inv.err(f"df: {path}: No such file or directory\n")
            status = 1
        elif (mount := _df_mount(inv.state, path, inv.cwd)) is None:
            inv.err(f"df: {path}: not on the device's storage (the simulator has /data and /storage/emulated)\n")
            status = 1
        else:
            mounts.append(mount)
    if "h" in opts:
        head = ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"]
        cells = [_human(total), _human(used), _human(total - used)]
    else:
        head = ["Filesystem", "1K-blocks", "Used", "Available", "Use%", "Mounted on"]
        cells = [str(total // 1024), str(-(-used // 1024)), str(total // 1024 - -(-used // 1024))]
    percent = f"{-(-used * 100 // total) if total else 0}%"
    rows = [head] + [[name, *cells, percent, mount] for name, mount in mounts]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        inv.out(" ".join([row[0].ljust(widths[0]), *(row[i].rjust(widths[i]) for i in range(1, 5)), row[5]]) + "\n")
    return status


@toy("sleep")
def sleep(inv: Invocation) -> int:
    """Validates its operand like toybox and returns at once (simulated time does not pass)."""
    if not inv.args:
        raise UsageError("Need 1 argument")
    for arg in inv.args:
        if not re.fullmatch(r"(\d+\.?\d*|\.\d+)[smhd]?", arg):
            raise UsageError(f"Not a number '{arg}'")
    return 0


def echo_output(args: list[str], mksh: bool = False) -> bytes:
    """What `echo ARGS` prints: toybox's (escapes off by default) or mksh's builtin (on).

    Leading arguments made only of the letters n, e and E are options (-n: no newline,
    -e/-E: escapes on/off); the first other argument and all after it are printed.
    """
    newline, escapes = True, mksh
    k = 0
    while k < len(args) and len(args[k]) > 1 and args[k][0] == "-" and all(
            c in "neE" for c in args[k][1:]):
        for c in args[k][1:]:
            if c == "n":
                newline = False
            else:
                escapes = c == "e"
        k += 1
    text = " ".join(args[k:])
    if not (escapes and "\\" in text):
        data = text.encode("utf-8", "surrogateescape")
    else:
        data, saw_c = unescape(text, mksh=mksh)
        newline = newline and not saw_c
    return data + b"\n" if newline else data


@toy("echo")
def echo(inv: Invocation) -> int:
    """toybox echo (what find -exec and xargs run)."""
    inv.out(echo_output(inv.args))
    return 0


_ESCAPES = {"a": 7, "b": 8, "e": 27, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}
_HEX = "0123456789abcdefABCDEF"


def unescape(text: str, mksh: bool = False, printf_format: bool = False) -> tuple[bytes, bool]:
    """Backslash escapes; returns (bytes, saw `\\c`).

    Default: toybox `echo -e` and `printf %b` (`\\0NNN` octal, `\\xHH`; output stops at `\\c`).
    `printf_format`: a printf format, where octal is `\\NNN`. `mksh`: mksh's `echo`, which also
    knows `\\E`, `\\uHHHH` and `\\UHHHHHHHH` and only drops the final newline at `\\c`.
    """
    out = bytearray()
    saw_c = False
    i, n = 0, len(text)
    while i < n:
        j = text.find("\\", i)
        if j < 0:
            out += text[i:].encode("utf-8", "surrogateescape")
            break
        out += text[i:j].encode("utf-8", "surrogateescape")
        if j + 1 >= n:
            out += b"\\"
            break
        c = text[j + 1]
        i = j + 2
        if c in _ESCAPES or (mksh and c == "E"):
            out.append(_ESCAPES.get(c, 27))
        elif c == "c":
            if not mksh:
                return bytes(out), True
            saw_c = True
        elif c == "0" or (printf_format and c in "1234567"):
            digits = c if printf_format else ""
            while len(digits) < 3 and i < n and text[i] in "01234567":
                digits += text[i]
                i += 1
            out.append(int(digits or "0", 8) & 0xFF)
        elif c in "xuU" and (c == "x" or mksh) and i < n and text[i] in _HEX:
            limit = {"x": 2, "u": 4, "U": 8}[c]
            digits = ""
            while len(digits) < limit and i < n and text[i] in _HEX:
                digits += text[i]
                i += 1
            if c == "x":
                out.append(int(digits, 16))
            else:
                out += chr(min(int(digits, 16), 0x10FFFF)).encode("utf-8", "surrogatepass")
        else:
            out += ("\\" + c).encode("utf-8", "surrogateescape")
    return bytes(out), saw_c


@toy("cat")
def cat(inv: Invocation) -> int:
    _, files = parse_options(inv.args, "uvte")
    status = 0
    for path in files or ["-"]:
        data = _read_input(inv, "cat", path)
        if data is None:
            status = 1
        else:
            inv.out(data)
    return status


@toy("tee")
def tee(inv: Invocation) -> int:
    opts, files = parse_options(inv.args, "ai")
    status = 0
    for path in files:
        try:
            write_file(inv.state, path, inv.stdin, inv.cwd, append="a" in opts)
        except OSError as exc:
            inv.err(f"tee: {path}: {_strerror(exc)}\n")
            status = 1
    inv.out(inv.stdin)
    return status


@toy("basename")
def basename(inv: Invocation) -> int:
    opts, names = parse_options(inv.args, "as:", stop_at_operand=False)
    if not names:
        raise UsageError("Need 1 argument")
    suffix = opts.get("s")
    if "a" not in opts and suffix is None and len(names) == 2:
        names, suffix = names[:1], names[1]
    for name in names:
        base = name.rstrip("/")
        base = "/" if not base and name else posixpath.basename(base)
        if suffix and base != suffix and base.endswith(suffix):  # type: ignore[arg-type]
            base = base[: -len(suffix)]  # type: ignore[arg-type]
        inv.out(base + "\n")
    return 0


@toy("dirname")
def dirname(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Need 1 argument")
    for name in inv.args:
        stripped = name.rstrip("/")
        if not stripped:
            inv.out(("/" if name else ".") + "\n")
            continue
        head = stripped.rpartition("/")[0] if "/" in stripped else "."
        inv.out((head.rstrip("/") or "/") + "\n")
    return 0


@toy("seq")
def seq(inv: Invocation) -> int:
    """seq [-s SEP] [-f FMT] [FIRST [INCREMENT]] LAST"""
    opts, numbers = parse_options(inv.args, "s:f:w")
    if not 1 <= len(numbers) <= 3:
        raise UsageError("Need 1 argument" if not numbers else "Max 3 arguments")
    try:
        values = [float(n) for n in numbers]
    except ValueError:
        bad = next(n for n in numbers if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", n))
        raise UsageError(f"Not a number '{bad}'") from None
    first, step, last = (1.0, 1.0, values[0]) if len(values) == 1 else (
        (values[0], 1.0, values[1]) if len(values) == 2 else tuple(values))
    if step == 0:
        raise UsageError("Invalid increment 0")
    integral = all(v == int(v) for v in (first, step, last)) and "f" not in opts
    items = []
    k = 0
    separator = str(opts.get("s", "\n"))
    pending = 0
    while (first + k * step <= last) if step > 0 else (first + k * step >= last):
        value = first + k * step
        items.append(str(int(value)) if integral else (
            str(opts["f"]) % value if "f" in opts else f"{value:g}"))
        pending += len(items[-1]) + 1
        k += 1
        if pending >= _STREAM_CHUNK:  # write as it goes: a huge range streams, within the limits
            inv.out(separator.join(items) + separator)
            items, pending = [], 0
            limits.check()
    if items:
        inv.out(separator.join(items) + "\n")
    elif k:
        inv.stdout[-len(separator):] = b"\n" if separator else b""
    return 0


@toy("which")
def which(inv: Invocation) -> int:
    _, names = parse_options(inv.args, "a")
    status = 0
    for name in names:
        if "/" not in name and find_command(name) is not None:
            inv.out(("/system/xbin/" if name == "su" else "/system/bin/") + name + "\n")
        else:
            status = 1
    return status


# ============================================================================================
# ls
# ============================================================================================
def _fmt_time(epoch: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(epoch))


@toy("ls")
def ls(inv: Invocation) -> int:
    """ls [-1aAdFhHilLnpRrSst] [FILE...]; stdout is no tty, so one name per line."""
    opts, paths = parse_options(inv.args, "1aAdFhHilLnpRrSstCxmcuZ")
    # `-l` twice (toybox counts it): times in full, `2023-10-15 15:34:00.000000000 +0000`
    opts["full_time"] = sum(arg.count("l") for arg in inv.args if arg.startswith("-") and arg != "-") > 1
    state = inv.state
    long = "l" in opts or "n" in opts
    if "d" in opts:
        opts.pop("R", None)
    follow_args = not (long or "d" in opts or "F" in opts) or "L" in opts or "H" in opts
    status = 0
    entries: list[tuple[str, VStat]] = []
    for path in paths or ["."]:
        try:
            entries.append((path, vstat(state, path, inv.cwd, follow_args)))
        except OSError as exc:
            inv.err(f"ls: {path}: {_strerror(exc)}\n")
            status = 1
    entries = _ls_sort(entries, opts)
    lines: list[str] = []
    top_files = [e for e in entries if e[1].kind != "dir" or "d" in opts]
    top_dirs = [e for e in entries if e[1].kind == "dir" and "d" not in opts]
    if top_files:
        lines.extend(_ls_block(top_files, opts))
    single = len(entries) == 1 and len(top_dirs) == 1 and "R" not in opts
    printed = bool(top_files)
    for display, st in top_dirs:
        printed = _ls_dir(inv, display, st, opts, lines, not single, printed)
    inv.out("".join(line + "\n" for line in lines))
    return status


def _ls_sort(entries: list[tuple[str, VStat]], opts: dict) -> list[tuple[str, VStat]]:
    if "t" in opts:
        entries = sorted(entries, key=lambda e: (-e[1].mtime, _bytes_key(e[0])))
    elif "S" in opts:
        entries = sorted(entries, key=lambda e: (-e[1].size, _bytes_key(e[0])))
    else:
        entries = sorted(entries, key=lambda e: _bytes_key(e[0]))
    return entries[::-1] if "r" in opts else entries


def _ls_dir(inv: Invocation, display: str, st: VStat, opts: dict, lines: list[str],
            header: bool, printed: bool) -> bool:
    state = inv.state
    if header:
        if printed:
            lines.append("")
        lines.append(f"{display}:")
        printed = True
    try:
        names = _listdir(state, st.path)
    except OSError as exc:
        inv.err(f"ls: {display}: {_strerror(exc)}\n")
        return printed
    children: list[tuple[str, VStat]] = []
    if "a" in opts:
        children.append((".", st))
        children.append(("..", vstat(state, posixpath.dirname(st.path))))
    for name in names:
        if name.startswith(".") and not ("a" in opts or "A" in opts):
            continue
        child = try_vstat(state, _child_norm(st.path, name), follow=False)
        if child is not None:
            children.append((name, child))
    children = _ls_sort(children, opts)
    if _is_long(opts) or "s" in opts:
        total = sum(c.blocks for _, c in children) // 2
        lines.append(f"total {total}")
    lines.extend(_ls_block(children, opts))
    printed = printed or bool(children)
    if "R" in opts:
        for name, child in children:
            if child.kind == "dir" and name not in (".", ".."):
                printed = _ls_dir(inv, _child(display, name), child, opts, lines, True, True)
    return printed


def _ls_block(entries: list[tuple[str, VStat]], opts: dict) -> list[str]:
    if not entries:
        return []  # an empty directory: `ls -l` prints its `total 0` line and nothing else
    is_long = _is_long(opts)
    suffix = (lambda st: "/" if st.kind == "dir" else ("@" if st.kind == "link" and "F" in opts
                                                        else "")) if ("F" in opts or "p" in opts) \
        else (lambda st: "")
    prefix_parts: list[list[str]] = [[] for _ in entries]
    if "i" in opts:
        width = max(len(str(st.ino)) for _, st in entries)
        for parts, (_, st) in zip(prefix_parts, entries):
            parts.append(f"{st.ino:>{width}}")
    if "s" in opts:
        width = max(len(str(st.blocks // 2)) for _, st in entries)
        for parts, (_, st) in zip(prefix_parts, entries):
            parts.append(f"{st.blocks // 2:>{width}}")
    if not is_long:
        if "m" in opts:
            return [", ".join(" ".join(p + [name + suffix(st)]) for p, (name, st)
                              in zip(prefix_parts, entries))] if entries else []
        return [" ".join(p + [name + suffix(st)]) for p, (name, st) in zip(prefix_parts, entries)]
    user = "0" if "n" in opts else OWNER
    group = "0" if "n" in opts else GROUP
    nlinks = [st.nlink for _, st in entries]
    w_link = max(len(str(n)) for n in nlinks)
    w_size = max(len(str(st.size)) for _, st in entries)
    lines = []
    for parts, nlink, (name, st) in zip(prefix_parts, nlinks, entries):
        when = _stat_time(st.mtime) if opts.get("full_time") else _fmt_time(st.mtime)
        text = f"{mode_string(st.mode)} {nlink:>{w_link}} {user} {group} {st.size:>{w_size}} {when} {name}"
        if st.kind == "link":
            text += f" -> {st.target}"
        lines.append(" ".join(parts + [text + suffix(st)]))
    return lines


def _is_long(opts: dict) -> bool:
    return "l" in opts or "n" in opts


# ============================================================================================
# rm, rmdir, mkdir, touch
# ============================================================================================
def _remove_tree(state: SimState, st: VStat) -> None:
    """Delete a directory tree; protected directories (mount points) keep themselves."""
    canonical = SimState.canonical(st.path)
    if canonical in _PROTECTED:
        for name in os.listdir(st.host):
            child = st.host / name
            if not os.path.islink(child) and os.path.isdir(child):
                shutil.rmtree(child)
            else:
                os.unlink(child)
        state.stamp(st.host)
        raise _os_error(errno.EBUSY)
    shutil.rmtree(st.host)


def remove_path(state: SimState, path: str, cwd: str = "/", recursive: bool = False) -> None:
    """`rm` (`rm -r`) of one device path, stamping its folder; raises OSError as rm meets it."""
    st = vstat(state, path, cwd, follow=False)
    if st.path == "/" or (st.path.count("/") == 1 and st.kind != "dir"):
        raise _os_error(errno.EROFS)
    if st.kind == "dir":
        if not recursive:
            raise _os_error(errno.EISDIR)
        _remove_tree(state, st)
    else:
        os.unlink(st.host)
    _stamp_parent(state, st.path)


@toy("rm")
def rm(inv: Invocation) -> int:
    opts, paths = parse_options(inv.args, "fiRrv")
    force = "f" in opts
    recursive = "r" in opts or "R" in opts
    if not paths:
        if force:
            return 0
        raise UsageError("Need 1 argument")
    status = 0
    for path in paths:
        try:
            remove_path(inv.state, path, inv.cwd, recursive)
        except OSError as exc:
            if force and exc.errno == errno.ENOENT:
                continue
            inv.err(f"rm: {path}: {_strerror(exc)}\n")
            status = 1
        if "v" in opts and status == 0:
            inv.out(f"removed '{path}'\n")
    return status


@toy("rmdir")
def rmdir(inv: Invocation) -> int:
    opts, paths = parse_options(inv.args, "p")
    if not paths:
        raise UsageError("Need 1 argument")
    state = inv.state
    status = 0
    for path in paths:
        targets = [path]
        if "p" in opts:
            parent = path.rstrip("/")
            while "/" in parent.strip("/"):
                parent = posixpath.dirname(parent)
                targets.append(parent)
        for target in targets:
            try:
                st = vstat(state, target, inv.cwd, follow=False)
                if st.kind != "dir":
                    raise _os_error(errno.ENOTDIR)
                if SimState.canonical(st.path) in _PROTECTED:
                    raise _os_error(errno.EBUSY)
                os.rmdir(st.host)
                _stamp_parent(state, st.path)
            except OSError as exc:
                inv.err(f"rmdir: {target}: {_strerror(exc)}\n")
                status = 1
                break
    return status


def make_dirs(state: SimState, path: str, cwd: str = "/", parents: bool = False) -> None:
    """mkdir (or mkdir -p) a device path, stamping what it creates; raises OSError."""
    norm = state.normalize(path, cwd)
    steps = [norm]
    if parents:
        steps = []
        probe = norm
        while probe != "/":
            steps.append(probe)
            probe = posixpath.dirname(probe)
        steps.reverse()
    for step in steps[_walk_from(state, steps):]:
        host = state.host_path(step)
        if os.path.isdir(host):
            if step == norm and not parents:
                raise _os_error(errno.EEXIST)
            continue
        if os.path.lexists(host):
            raise _os_error(errno.EEXIST if step == norm else errno.ENOTDIR)
        check_writable_parent(state, step)
        os.mkdir(host)
        state.stamp(host)
        _stamp_parent(state, step)


def _walk_from(state: SimState, steps: list[str]) -> int:
    """Where `mkdir -p` must begin walking `steps` (a path's folders, outermost first): past the
    deepest that is a folder, as every step above it resolved through folders and would only
    have been passed by; at the deepest that exists otherwise (a file: the walk's error). A step
    that does not resolve starts the walk from the top, which meets the error in turn."""
    for index in range(len(steps) - 1, 0, -1):
        try:
            host = state.host_path(steps[index])
        except OSError:
            return 0
        if os.path.isdir(host):
            return index + 1
        if os.path.lexists(host):
            return index
    return 0


@toy("mkdir")
def mkdir(inv: Invocation) -> int:
    opts, paths = parse_options(inv.args, "pvm:Z:")
    if not paths:
        raise UsageError("Need 1 argument")
    status = 0
    for path in paths:
        try:
            make_dirs(inv.state, path, inv.cwd, parents="p" in opts)
        except OSError as exc:
            inv.err(f"mkdir: '{path}': {_strerror(exc)}\n")
            status = 1
    return status


def parse_date(text: str) -> int | None:
    """`touch -d` / `-t` time strings: @EPOCH, YYYY-MM-DD[ T]hh:mm[:ss], [[CC]YY]MMDDhhmm[.ss]."""
    import calendar

    if text.startswith("@") and re.fullmatch(r"@-?\d+(\.\d+)?", text):
        return int(float(text[1:]))
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?Z?", text)
    if m:
        y, mo, d, h, mi, s = (int(g or 0) for g in m.groups())
        return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0))
    m = re.fullmatch(r"(\d{2,4})?(\d\d)(\d\d)(\d\d)(\d\d)(?:\.(\d\d))?", text)
    if m:
        year = m.group(1)
        y = 2023 if year is None else (int(year) + (2000 if int(year) < 69 else 1900)
                                       if len(year) == 2 else int(year))
        mo, d, h, mi = (int(m.group(k)) for k in range(2, 6))
        return calendar.timegm((y, mo, d, h, mi, int(m.group(6) or 0), 0, 0, 0))
    return None


@toy("touch")
def touch(inv: Invocation) -> int:
    opts, paths = parse_options(inv.args, "acmhd:t:r:")
    if not paths:
        raise UsageError("Need 1 argument")
    state = inv.state
    when = state.clock_epoch
    if "r" in opts:
        ref = try_vstat(state, str(opts["r"]), inv.cwd)
        if ref is None:
            return inv.fail(f"touch: '{opts['r']}': No such file or directory")
        when = ref.mtime
    for key in ("d", "t"):
        if key in opts:
            parsed = parse_date(str(opts[key]))
            if parsed is None:
                return inv.fail(f"touch: bad date '{opts[key]}'")
            when = parsed
    status = 0
    for path in paths:
        norm = state.normalize(path, inv.cwd)
        try:
            host = state.host_path(norm)
            if not os.path.lexists(host):
                if "c" in opts:
                    continue
                check_writable_parent(state, norm)
                host.touch()
                _stamp_parent(state, norm)
            os.utime(host, (when, when))
        except OSError as exc:
            inv.err(f"touch: '{path}': {_strerror(exc)}\n")
            status = 1
    return status


# ============================================================================================
# cp, mv
# ============================================================================================
def _copy_file(state: SimState, src: VStat, dest_host: Path, preserve: bool) -> None:
    if os.path.isdir(dest_host):
        raise _os_error(errno.EISDIR)
    storage.of(state).copy_file(src.host, dest_host)
    t = src.mtime if preserve else state.clock_epoch
    os.utime(dest_host, (t, t))


def _copy_tree(state: SimState, src: VStat, dest_norm: str, preserve: bool) -> None:
    """cp -r: snapshot the source first, so copying a tree into itself terminates."""
    plan: list[tuple[str, VStat]] = []

    def collect(st: VStat, rel: str) -> None:
        plan.append((rel, st))
        if st.kind == "dir":
            for name in _listdir(state, st.path):
                child = try_vstat(state, _child_norm(st.path, name), follow=False)
                if child is not None:
                    collect(child, rel + "/" + name)

    collect(src, "")
    dirs: list[tuple[Path, int]] = []
    for rel, st in plan:
        norm = dest_norm + rel
        host = state.host_path(norm, follow=st.kind != "link")
        if st.kind == "dir":
            if not os.path.isdir(host):
                if os.path.lexists(host):
                    raise _os_error(errno.ENOTDIR)
                if rel == "":
                    check_writable_parent(state, norm)
                os.mkdir(host)
                _stamp_parent(state, norm)
            dirs.append((host, st.mtime))
        elif st.kind == "link":
            if os.path.lexists(host):
                os.unlink(host)
            os.symlink(os.readlink(st.host), host)
        elif st.kind == "file":
            existed = os.path.lexists(host)
            _copy_file(state, st, host, preserve)
            if not existed:
                _stamp_parent(state, norm)
    for host, mtime in reversed(dirs):
        t = mtime if preserve else state.clock_epoch
        os.utime(host, (t, t))


def _cp_mv(inv: Invocation, tool: str) -> int:
    spec = "vnfiT" if tool == "mv" else "RrapdfinvlsLHPDFT"
    opts, operands = parse_options(inv.args, spec)
    if len(operands) < 2:
        raise UsageError("Need 2 arguments")
    state = inv.state
    dest = operands[-1]
    dest_st = try_vstat(state, dest, inv.cwd)
    dest_dir = dest_st is not None and dest_st.kind == "dir" and "T" not in opts
    if len(operands) > 2 and not dest_dir:
        return inv.fail(f"{tool}: '{dest}' not directory")
    recursive = tool == "mv" or any(f in opts for f in "Rra")
    preserve = "a" in opts or "p" in opts
    status = 0
    for src in operands[:-1]:
        trimmed = src.rstrip("/") or src
        target = _child(dest, posixpath.basename(trimmed)) if dest_dir else dest
        target_norm = state.normalize(target, inv.cwd)
        try:
            st = vstat(state, trimmed, inv.cwd, follow=tool == "cp")
        except OSError as exc:
            inv.err(f"{tool}: bad '{src}': {_strerror(exc)}\n")
            status = 1
            continue
        try:  # mv replaces a link at the target; cp writes through it
            target_host = state.host_path(target_norm, follow=tool == "cp")
            same = st.kind != "link" and os.path.lexists(target_host) and os.path.samefile(
                state.host_path(target_norm), st.host)
        except OSError as exc:
            inv.err(f"{tool}: '{target}': {_strerror(exc)}\n")
            status = 1
            continue
        if "n" in opts and os.path.lexists(target_host):
            continue
        if same:
            inv.err(f"{tool}: '{target}' is '{trimmed}'\n")
            status = 1
            continue
        try:
            if tool == "mv":
                if st.path.count("/") == 1 or target_norm.count("/") == 1:
                    raise _os_error(errno.EROFS)
                if SimState.canonical(st.path) in _PROTECTED:
                    raise _os_error(errno.EBUSY)
                if not os.path.lexists(target_host):
                    check_writable_parent(state, target_norm)
                os.rename(st.host, target_host)
                _stamp_parent(state, st.path)
                _stamp_parent(state, target_norm)
            elif st.kind == "dir":
                if not recursive:
                    inv.err(f"cp: Skipped dir '{trimmed}'\n")
                    status = 1
                    continue
                _copy_tree(state, st, target_norm, preserve)
            else:
                existed = os.path.lexists(target_host)
                if not existed:
                    check_writable_parent(state, target_norm)
                _copy_file(state, st, target_host, preserve)
                if not existed:
                    _stamp_parent(state, target_norm)
            if "v" in opts:
                inv.out(f"{tool} '{trimmed}'\n")
        except OSError as exc:
            inv.err(f"{tool}: bad '{src}': {_strerror(exc)}\n")
            status = 1
    return status


@toy("cp")
def cp(inv: Invocation) -> int:
    return _cp_mv(inv, "cp")


@toy("mv")
def mv(inv: Invocation) -> int:
    return _cp_mv(inv, "mv")


# ============================================================================================
# find
# ============================================================================================
@dataclasses.dataclass
class _Node:
    display: str
    st: VStat
    depth: int
    name: str


class _FindExpr:
    """Parses a find expression into a predicate; collects global options and actions."""

    def __init__(self, inv: Invocation, tokens: list[str]):
        self.inv = inv
        self.tokens = tokens
        self.pos = 0
        self.maxdepth: int | None = None
        self.mindepth = 0
        self.depth_first = False
        self.has_action = False
        self.batches: list[tuple[list[str], list[str]]] = []
        self.quit = False
        self.failed = False
        self.now = inv.state.clock_epoch

    def parse(self) -> Callable[[_Node], bool]:
        if not self.tokens:
            pred: Callable[[_Node], bool] = lambda node: True
        else:
            pred = self._or()
            if self.pos < len(self.tokens):
                raise UsageError(f"bad arg '{self.tokens[self.pos]}'")
        if not self.has_action:
            inner = pred
            pred = lambda node: inner(node) and self._print(node, "\n")
        return pred

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _or(self) -> Callable[[_Node], bool]:
        left = self._and()
        while self._peek() in ("-o", "-or"):
            self.pos += 1
            right = self._and()
            left = (lambda a, b: lambda node: a(node) or b(node))(left, right)
        return left

    def _and(self) -> Callable[[_Node], bool]:
        left = self._not()
        while self._peek() not in (None, ")", "-o", "-or"):
            if self._peek() in ("-a", "-and"):
                self.pos += 1
            right = self._not()
            left = (lambda a, b: lambda node: a(node) and b(node))(left, right)
        return left

    def _not(self) -> Callable[[_Node], bool]:
        if self._peek() in ("!", "-not"):
            self.pos += 1
            inner = self._not()
            return lambda node: not inner(node)
        if self._peek() == "(":
            self.pos += 1
            inner = self._or()
            if self._peek() != ")":
                raise UsageError("missing ')'")
            self.pos += 1
            return inner
        return self._primary()

    def _arg(self, name: str) -> str:
        if self.pos >= len(self.tokens):
            raise UsageError(f"'{name}' needs 1 arg")
        value = self.tokens[self.pos]
        self.pos += 1
        return value

    def _primary(self) -> Callable[[_Node], bool]:
        token = self._peek()
        if token is None:
            raise UsageError("missing argument")
        self.pos += 1
        if token in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"):
            pattern = self._arg(token)
            flags = re.S | (re.I if token.startswith("-i") else 0)
            regex = re.compile(glob_regex([(pattern, True)]), flags)
            if "name" in token and "whole" not in token:
                return lambda node: regex.fullmatch(node.name) is not None
            return lambda node: regex.fullmatch(node.display) is not None
        if token == "-type":
            kinds = {"f": "file", "d": "dir", "l": "link"}
            wanted = {kinds.get(k, "other:" + k) for k in self._arg(token).split(",")}
            return lambda node: node.st.kind in wanted
        if token in ("-maxdepth", "-mindepth"):
            value = _int_arg("find", self._arg(token))
            if token == "-maxdepth":
                self.maxdepth = value
            else:
                self.mindepth = value
            return lambda node: True
        if token in ("-depth", "-d"):
            self.depth_first = True
            return lambda node: True
        if token in ("-xdev", "-mount", "-follow", "-noleaf", "-true"):
            return lambda node: True
        if token == "-false":
            return lambda node: False
        if token == "-empty":
            return lambda node: (node.st.kind == "file" and node.st.size == 0) or (
                node.st.kind == "dir" and not os.listdir(node.st.host))
        if token == "-newer":
            ref = self._arg(token)
            ref_st = try_vstat(self.inv.state, ref, self.inv.cwd)
            if ref_st is None:
                raise UsageError(f"'{ref}': No such file or directory")
            return lambda node: node.st.mtime > ref_st.mtime
        if token in ("-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"):
            unit = 60 if token.endswith("min") else 86400
            return self._compare(self._arg(token), lambda node: (self.now - node.st.mtime) // unit)
        if token == "-size":
            text = self._arg(token)
            m = re.fullmatch(r"([+-]?\d+)([bckMG]?)", text)
            if not m:
                raise UsageError(f"bad -size '{text}'")
            unit = {"": 512, "b": 512, "c": 1, "k": 1024, "M": 1 << 20, "G": 1 << 30}[m.group(2)]
            return self._compare(m.group(1), lambda node: -(-node.st.size // unit))
        if token in ("-user", "-group"):
            who = self._arg(token)
            return lambda node: who in (OWNER, "0")
        if token in ("-uid", "-gid"):
            return self._compare(self._arg(token), lambda node: 0)
        if token == "-perm":
            return self._perm(self._arg(token))
        if token == "-prune":
            return lambda node: setattr(node, "pruned", True) or True
        if token == "-quit":
            self.has_action = True
            return lambda node: setattr(self, "quit", True) or True
        if token in ("-print", "-print0"):
            self.has_action = True
            end = "\n" if token == "-print" else "\0"
            return lambda node: self._print(node, end)
        if token == "-delete":
            self.has_action = True
            self.depth_first = True
            return self._delete
        if token in ("-exec", "-execdir", "-ok", "-okdir"):
            self.has_action = True
            return self._exec()
        raise UsageError(f"bad arg '{token}'")

    def _compare(self, text: str, value: Callable[[_Node], int]) -> Callable[[_Node], bool]:
        m = re.fullmatch(r"([+-]?)(\d+)", text)
        if not m:
            raise UsageError(f"not integer '{text}'")
        sign, number = m.group(1), int(m.group(2))
        if sign == "+":
            return lambda node: value(node) > number
        if sign == "-":
            return lambda node: value(node) < number
        return lambda node: value(node) == number

    def _perm(self, text: str) -> Callable[[_Node], bool]:
        m = re.fullmatch(r"([-/]?)([0-7]{1,4})", text)
        if not m:
            raise UsageError(f"bad -perm '{text}'")
        bits = int(m.group(2), 8)
        if m.group(1) == "-":
            return lambda node: node.st.mode & bits == bits
        if m.group(1) == "/":
            return lambda node: bool(node.st.mode & bits) or bits == 0
        return lambda node: node.st.mode & 0o7777 == bits

    def _print(self, node: _Node, end: str) -> bool:
        self.inv.out(node.display + end)
        return True

    def _delete(self, node: _Node) -> bool:
        state = self.inv.state
        try:
            if node.st.kind == "dir":
                if SimState.canonical(node.st.path) in _PROTECTED:
                    raise _os_error(errno.EBUSY)
                os.rmdir(node.st.host)
            else:
                os.unlink(node.st.host)
            _stamp_parent(state, node.st.path)
            return True
        except OSError as exc:
            self.inv.err(f"find: '{node.display}': {_strerror(exc)}\n")
            self.failed = True
            return False

    def _exec(self) -> Callable[[_Node], bool]:
        argv: list[str] = []
        while True:
            if self.pos >= len(self.tokens):
                raise UsageError("-exec needs ';' or '+'")
            token = self.tokens[self.pos]
            self.pos += 1
            if token == ";":
                break
            if token == "+" and argv and argv[-1] == "{}":
                argv.pop()
                batch: list[str] = []
                self.batches.append((argv, batch))
                return lambda node: batch.append(node.display) is None
            argv.append(token)
        if not argv:
            raise UsageError("-exec needs a command")

        def run(node: _Node) -> bool:
            cmd = [node.display if a == "{}" else a for a in argv]
            return self._run(cmd) == 0

        return run

    def _run(self, argv: list[str]) -> int:
        status = spawn(self.inv, argv)
        if status is None:
            self.inv.err(f"find: exec {argv[0]}: No such file or directory\n")
            self.failed = True
            return 127
        return status

    def finish(self) -> None:
        for argv, batch in self.batches:
            for k in range(0, len(batch), 4096):
                if self._run(argv + batch[k:k + 4096]) != 0:
                    self.failed = True


@toy("find")
def find(inv: Invocation) -> int:
    """find [-HL] [PATH...] [EXPRESSION]: sorted traversal (see the module docstring)."""
    args = list(inv.args)
    follow_roots = follow_all = False
    while args and args[0] in ("-H", "-L", "-P"):
        flag = args.pop(0)
        follow_roots = flag in ("-H", "-L")
        follow_all = flag == "-L"
    roots: list[str] = []
    while args and not (args[0].startswith("-") and len(args[0]) > 1) and args[0] not in ("(", "!"):
        roots.append(args.pop(0))
    expr = _FindExpr(inv, args)
    predicate = expr.parse()
    state = inv.state
    status = 0

    def visit(node: _Node) -> None:
        if expr.quit:
            return
        matched_here = not expr.depth_first and node.depth >= expr.mindepth
        if matched_here:
            predicate(node)
        descend = node.st.kind == "dir" and not getattr(node, "pruned", False) and (
            expr.maxdepth is None or node.depth < expr.maxdepth)
        if descend:
            try:
                names = sorted(os.listdir(node.st.host), key=_bytes_key)  # a resolved directory
            except OSError as exc:
                inv.err(f"find: '{node.display}': {_strerror(exc)}\n")
                expr.failed = True
                names = []
            for name in names:
                child = _child_stat(state, node.st, name, follow_all)
                if child is not None:
                    visit(_Node(_child(node.display, name), child, node.depth + 1, name))
                if expr.quit:
                    return
        if expr.depth_first and node.depth >= expr.mindepth and not expr.quit:
            predicate(node)

    for root in roots or ["."]:
        try:
            st = vstat(state, root, inv.cwd, follow=follow_roots)
        except OSError as exc:
            inv.err(f"find: '{root}': {_strerror(exc)}\n")
            status = 1
            continue
        name = posixpath.basename(root.rstrip("/")) or root
        visit(_Node(root, st, 0, name))
    expr.finish()
    return 1 if status or expr.failed else 0


# ============================================================================================
# stat
# ============================================================================================
_STAT_DEFAULT = ("  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %o\t%F\n"
                 "Device: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n"
                 "Access: (%a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\n"
                 "Access: %x\nModify: %y\nChange: %z")
_STAT_TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %o"
_DEVICE_ID = 0xFD05


def _stat_time(epoch: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(epoch)) + ".000000000 +0000"


def stat_field(st: VStat, name: str, spec: str) -> str | None:
    """The text of one `stat -c` conversion (without width), or None if unknown."""
    numeric = {
        "s": st.size, "b": st.blocks, "B": 512, "o": BLOCK_SIZE, "d": _DEVICE_ID, "h": st.nlink,
        "i": st.ino, "u": 0, "g": 0, "X": st.mtime, "Y": st.mtime, "Z": st.mtime, "t": 0,
        "T": 0,
    }
    if spec in numeric:
        return str(numeric[spec])
    text = {
        "n": name, "a": f"{st.mode & 0o7777:o}", "A": mode_string(st.mode), "F": st.type_name,
        "U": OWNER, "G": GROUP, "D": f"{_DEVICE_ID:x}", "f": f"{st.mode:x}", "m": "/",
        "x": _stat_time(st.mtime), "y": _stat_time(st.mtime), "z": _stat_time(st.mtime),
        "N": f"'{name}'" + (f" -> '{st.target}'" if st.kind == "link" else ""), "%": "%",
    }
    return text.get(spec)


def format_stat(fmt: str, st: VStat, name: str) -> str:
    """Expand a `stat -c` format for one file (supports `%-8U`-style widths)."""
    def field(m: re.Match) -> str:
        flags, width, spec = m.group(1), m.group(2), m.group(3)
        value = stat_field(st, name, spec)
        if value is None:
            return "?"
        if width:
            value = value.ljust(int(width)) if "-" in flags else value.rjust(int(width))
        return value

    return re.sub(r"%([-0]?)(\d*)(.|$)", field, fmt)


@toy("stat")
def stat(inv: Invocation) -> int:
    opts, paths = parse_options(inv.args, "c:fLt")
    if not paths:
        raise UsageError("Need 1 argument")
    fmt = str(opts["c"]) if "c" in opts else (_STAT_TERSE if "t" in opts else _STAT_DEFAULT)
    status = 0
    for path in paths:
        try:
            st = vstat(inv.state, path, inv.cwd, follow="L" in opts)
        except OSError as exc:
            inv.err(f"stat: '{path}': {_strerror(exc)}\n")
            status = 1
            continue
        inv.out(format_stat(fmt, st, path) + "\n")
    return status


# ============================================================================================
# wc, md5sum & co, head, tail
# ============================================================================================
@toy("wc")
def wc(inv: Invocation) -> int:
    opts, files = parse_options(inv.args, "lwcm")
    order = [f for f in "lwcm" if f in opts] or ["l", "w", "c"]
    order = [f for f in "lwcm" if f in order]
    pad = 0 if (not files and len(order) == 1) or len(files) == 1 else 7
    totals = dict.fromkeys("lwcm", 0)
    status = 0

    def show(counts: dict[str, int], name: str | None) -> None:
        numbers = [f"{counts[f]:>{pad}}" for f in order]
        inv.out(" ".join(numbers) + (f" {name}" if name is not None else "") + "\n")

    for path in files or ["-"]:
        data = _read_input(inv, "wc", path)
        if data is None:
            status = 1
            continue
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data),
                  "m": len(data.decode("utf-8", "replace"))}
        for key in totals:
            totals[key] += counts[key]
        show(counts, path if files else None)
    if len(files) > 1:
        show(totals, "total")
    return status


def _hash_tool(inv: Invocation, algorithm: str) -> int:
    opts, files = parse_options(inv.args, "bcs")
    tool = posixpath.basename(inv.name)
    status = 0
    if "c" in opts:
        for path in files or ["-"]:
            data = _read_input(inv, tool, path)
            if data is None:
                status = 1
                continue
            for line in data.decode("utf-8", "surrogateescape").splitlines():
                digest, _, name = line.partition("  ")
                content = _read_input(inv, tool, name)
                ok = content is not None and hashlib.new(algorithm, content).hexdigest() == digest
                inv.out(f"{name}: {'OK' if ok else 'FAILED'}\n")
                status |= 0 if ok else 1
        return status
    for path in files or ["-"]:
        data = _read_input(inv, tool, path)
        if data is None:
            status = 1
            continue
        digest = hashlib.new(algorithm, data).hexdigest()
        inv.out(digest + "\n" if "b" in opts else f"{digest}  {path}\n")
    return status


@toy("md5sum")
def md5sum(inv: Invocation) -> int:
    return _hash_tool(inv, "md5")


@toy("sha1sum")
def sha1sum(inv: Invocation) -> int:
    return _hash_tool(inv, "sha1")


@toy("sha256sum")
def sha256sum(inv: Invocation) -> int:
    return _hash_tool(inv, "sha256")


def _count_args(args: list[str], tail: bool) -> list[str]:
    """Rewrite the obsolete `-5` / `+5` forms into `-n 5` / `-n +5`."""
    out: list[str] = []
    for arg in args:
        takes_value = bool(out) and out[-1] in ("-n", "-c")
        if not takes_value and re.fullmatch(r"-\d+", arg):
            out += ["-n", arg[1:]]
        elif not takes_value and tail and re.fullmatch(r"\+\d+", arg):
            out += ["-n", arg]
        else:
            out.append(arg)
    return out


def _head_tail(inv: Invocation, tail: bool) -> int:
    opts, files = parse_options(_count_args(inv.args, tail), "n:c:qvfF" if tail else "n:c:qv")
    tool = "tail" if tail else "head"
    by_bytes = "c" in opts
    text = str(opts.get("c", opts.get("n", "10")))
    from_start = tail and text.startswith("+")
    try:
        count = int(text.lstrip("+"))
    except ValueError:
        raise UsageError(f"not integer '{text}'") from None
    names = files or ["-"]
    headers = ("v" in opts or len(names) > 1) and "q" not in opts
    status = 0
    for k, path in enumerate(names):
        data = _read_input(inv, tool, path)
        if data is None:
            status = 1
            continue
        if headers:
            inv.out(("\n" if k else "") + f"==> {path} <==\n")
        if by_bytes:
            if not tail:
                chunk = data[:count]
            else:
                chunk = data[count - 1:] if from_start else (data[-count:] if count else b"")
        else:
            lines = data.splitlines(keepends=True)
            if not tail:
                chunk = b"".join(lines[:count])
            elif from_start:
                chunk = b"".join(lines[max(count - 1, 0):])
            else:
                chunk = b"".join(lines[-count:]) if count else b""
        inv.out(chunk)
    return status


@toy("head")
def head(inv: Invocation) -> int:
    return _head_tail(inv, False)


@toy("tail")
def tail(inv: Invocation) -> int:
    return _head_tail(inv, True)


# ============================================================================================
# grep, sort
# ============================================================================================
_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "xdigit": "0-9A-Fa-f", "cntrl": "\\x00-\\x1f\\x7f",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), "print": " -~", "graph": "!-~",
}


def class_body(body: str) -> str:
    """A POSIX bracket expression's body (between `[` and `]`) as a Python class body."""
    out: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith("[:", i):
            end = body.find(":]", i)
            if end > 0 and body[i + 2:end] in _CLASSES:
                out.append(_CLASSES[body[i + 2:end]])
                i = end + 2
                continue
        ch = body[i]
        out.append(ch if ch == "-" and 0 < i < len(body) - 1 else re.escape(ch))
        i += 1
    return "".join(out)


def _bracket_end(chars: list[str], start: int) -> int:
    """Index of the `]` closing the bracket expression opened at `start`, or -1."""
    k = start + 1
    if k < len(chars) and chars[k] in "!^":
        k += 1
    if k < len(chars) and chars[k] == "]":
        k += 1
    while k < len(chars):
        if chars[k] == "[" and k + 1 < len(chars) and chars[k + 1] in ":.=":
            close = "".join(chars[k + 2:]).find(chars[k + 1] + "]")
            if close >= 0:
                k += close + 4
                continue
        if chars[k] == "]":
            return k
        k += 1
    return -1


def glob_regex(segments: list[tuple[str, bool]]) -> str:
    """A Python regex for a shell pattern given as (text, active) pieces (quoted = inactive)."""
    chars = [c for text, _ in segments for c in text]
    active = [a for text, a in segments for _ in text]
    out: list[str] = []
    i = 0
    while i < len(chars):
        ch = chars[i]
        if active[i] and ch == "*":
            out.append(".*")
        elif active[i] and ch == "?":
            out.append(".")
        elif active[i] and ch == "[" and (end := _bracket_end(chars, i)) > 0:
            negate = chars[i + 1] in "!^"
            body = "".join(chars[i + 1 + negate:end])
            out.append("[" + ("^" if negate else "") + class_body(body) + "]")
            i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def posix_regex(pattern: str, extended: bool) -> str:
    """Translate a POSIX BRE (GNU flavour) or ERE into Python `re` syntax."""
    chars = list(pattern)
    out: list[str] = []
    i = 0
    while i < len(chars):
        c = chars[i]
        if c == "\\" and i + 1 < len(chars):
            d = chars[i + 1]
            i += 2
            if not extended and d in "(){}|+?":
                out.append(d)
            elif d in "<>":
                out.append(r"\b")
            elif d in "wWsSbB" or d.isdigit():
                out.append("\\" + d)
            else:
                out.append(re.escape(d))
            continue
        if c == "[":
            end = _bracket_end(chars, i)
            if end > 0:
                negate = chars[i + 1] in "^"
                body = "".join(chars[i + 1 + negate:end])
                out.append("[" + ("^" if negate else "") + class_body(body) + "]")
                i = end + 1
                continue
            out.append(r"\[")
        elif not extended and c in "(){}|+?":
            out.append("\\" + c)
        elif c == "*" and (not out or out[-1] in ("^", "(", "|")):
            out.append(r"\*")
        elif extended and c == "{" and not re.match(r"\{\d+(,\d*)?\}", pattern[i:]):
            out.append(r"\{")
        elif c in ".^$*+?(){}|":
            out.append(c)
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@toy("grep", "egrep", "fgrep")
def grep(inv: Invocation) -> int:
    opts, operands = parse_options(inv.args, "EFGivwxclLnqshHoe*rRzm:f*")
    tool = posixpath.basename(inv.name)
    if tool == "egrep":
        opts["E"] = True
    elif tool == "fgrep":
        opts["F"] = True
    patterns: list[str] = list(opts.get("e", []))  # type: ignore[arg-type]
    for path in opts.get("f", []):  # type: ignore[union-attr]
        data = _read_input(inv, "grep", path)
        if data is None:
            return 2
        patterns.extend(data.decode("utf-8", "surrogateescape").splitlines())
    if not patterns and "f" not in opts:
        if not operands:
            raise UsageError("Need 1 argument")
        patterns = [operands.pop(0)]
    pieces = [p for pattern in patterns for p in pattern.split("\n")]
    if "F" in opts:
        pieces = [re.escape(p) for p in pieces]
    else:
        pieces = [posix_regex(p, "E" in opts) for p in pieces]
    if "w" in opts:
        pieces = [rf"(?<![A-Za-z0-9_])(?:{p})(?![A-Za-z0-9_])" for p in pieces]
    joined = "|".join(f"(?:{p})" for p in pieces) if pieces else "(?!)"
    try:
        regex = re.compile(joined, re.I if "i" in opts else 0)
    except re.error as exc:
        return inv.fail(f"grep: {exc}", 2)
    recursive = "r" in opts or "R" in opts
    files = operands or (["."] if recursive else ["-"])
    show_names = ("H" in opts or len(files) > 1 or recursive) and "h" not in opts
    limit = int(str(opts["m"])) if "m" in opts else None
    matched = False
    error = False
    state = inv.state

    def targets() -> Iterator[str]:
        for path in files:
            st = try_vstat(state, path, inv.cwd) if path != "-" else None
            if recursive and st is not None and st.kind == "dir":
                yield from _walk_files(state, path, st)
            else:
                yield path

    for path in targets():
        data = _read_input(inv, "grep", path, quiet="s" in opts)
        if data is None:
            error = True
            continue
        name = "(standard input)" if path == "-" else path
        prefix = name + ":" if show_names else ""
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        count = 0
        for number, raw in enumerate(lines, start=1):
            line = raw.decode("utf-8", "surrogateescape")
            hit = regex.fullmatch(line) if "x" in opts else regex.search(line)
            if bool(hit) == ("v" in opts):
                continue
            count += 1
            matched = True
            if "q" in opts:
                return 0
            if "c" not in opts and "l" not in opts and "L" not in opts:
                lead = prefix + (f"{number}:" if "n" in opts else "")
                if "o" in opts and "v" not in opts:
                    for m in regex.finditer(line):
                        if m.group():
                            inv.out((lead + m.group() + "\n").encode("utf-8", "surrogateescape"))
                else:
                    inv.out(lead.encode("utf-8", "surrogateescape") + raw + b"\n")
            if limit is not None and count >= limit:
                break
        if "c" in opts:
            inv.out(f"{prefix}{count}\n")
        if "l" in opts and count:
            inv.out(name + "\n")
        if "L" in opts and not count:
            inv.out(name + "\n")
    if error and not ("q" in opts and matched):
        return 2
    return 0 if matched else 1


def _walk_files(state: SimState, display: str, st: VStat) -> Iterator[str]:
    for name in _listdir(state, st.path):
        child = try_vstat(state, _child_norm(st.path, name), follow=False)
        if child is None:
            continue
        path = _child(display, name)
        if child.kind == "dir":
            yield from _walk_files(state, path, child)
        elif child.kind == "file":
            yield path


_NUMBER = re.compile(rb"\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)")


@toy("sort")
def sort(inv: Invocation) -> int:
    opts, files = parse_options(inv.args, "rnufbsdcMgk*t:o:")
    lines: list[bytes] = []
    for path in files or ["-"]:
        data = _read_input(inv, "sort", path)
        if data is None:
            return 2
        chunk = data.split(b"\n")
        if chunk and chunk[-1] == b"":
            chunk.pop()
        lines.extend(chunk)
    sep = str(opts["t"]).encode("utf-8", "surrogateescape") if "t" in opts else None
    keys = [_sort_key_spec(str(k)) for k in opts.get("k", [])]  # type: ignore[union-attr]

    def field_text(line: bytes) -> bytes:
        if not keys:
            return line
        fields = line.split(sep) if sep is not None else re.findall(rb"\s*\S+", line)
        start, end = keys[0]
        joiner = sep if sep is not None else b""
        return joiner.join(fields[start - 1:end if end else None])

    def key(line: bytes) -> tuple:
        text = field_text(line)
        if "b" in opts:
            text = text.strip()
        if "f" in opts:
            text = text.upper()
        if "n" in opts or "g" in opts:
            m = _NUMBER.match(text)
            primary: object = float(m.group(1)) if m else 0.0
        else:
            primary = text
        return (primary,) if "s" in opts or "u" in opts else (primary, line)

    ordered = sorted(lines, key=key, reverse="r" in opts)
    if "u" in opts:
        unique: list[bytes] = []
        last = object()
        for line in ordered:
            k = key(line)
            if k != last:
                unique.append(line)
                last = k
        ordered = unique
    output = b"".join(line + b"\n" for line in ordered)
    if "o" in opts:
        try:
            write_file(inv.state, str(opts["o"]), output, inv.cwd)
        except OSError as exc:
            return inv.fail(f"sort: {opts['o']}: {_strerror(exc)}", 2)
        return 0
    inv.out(output)
    return 0


def _sort_key_spec(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)(?:\.\d+)?[a-zA-Z]*(?:,(\d+)(?:\.\d+)?[a-zA-Z]*)?", text)
    if not m:
        raise UsageError(f"bad -k '{text}'")
    return int(m.group(1)), int(m.group(2) or 0)


# ============================================================================================
# chmod, chown, chgrp, chcon, restorecon: check operands, change nothing
# ============================================================================================
_SYMBOLIC_MODE = re.compile(r"([ugoa]*([-+=]([rwxXst]*|[ugo]))+)(,[ugoa]*([-+=]([rwxXst]*|[ugo]))+)*")


def _attribute_tool(inv: Invocation, needs_value: bool) -> int:
    tool = posixpath.basename(inv.name)
    opts, operands = parse_options(inv.args, "RhfvcHLPnrFDTd0ZN")
    if needs_value:
        if len(operands) < 2:
            raise UsageError("Need 2 arguments")
        value, paths = operands[0], operands[1:]
        if tool == "chmod" and not (re.fullmatch(r"[0-7]{1,4}", value)
                                    or _SYMBOLIC_MODE.fullmatch(value)):
            return inv.fail(f"chmod: bad mode '{value}'")
    else:
        if not operands:
            raise UsageError("Need 1 argument")
        paths = operands
    status = 0
    for path in paths:
        if try_vstat(inv.state, path, inv.cwd, follow="h" not in opts) is None:
            if "f" not in opts or tool != "chmod":
                inv.err(f"{tool}: {path}: No such file or directory\n")
            status = 1
    return status


@toy("chmod", "chown", "chgrp", "chcon")
def chmod(inv: Invocation) -> int:
    return _attribute_tool(inv, True)


@toy("restorecon")
def restorecon(inv: Invocation) -> int:
    return _attribute_tool(inv, False)


# ============================================================================================
# printf, xargs
# ============================================================================================
_PRINTF_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])")


def _printf_number(text: str, floating: bool) -> tuple[float | int, bool]:
    """(value, ok) of a printf numeric argument (C syntax; 'c gives the character code)."""
    raw = text.strip()
    if raw[:1] in ("'", '"'):
        return (ord(raw[1]) if len(raw) > 1 else 0), True
    try:
        if floating:
            return float(raw or 0), True
        sign = -1 if raw.startswith("-") else 1
        body = raw.lstrip("+-")
        if body[:2].lower() == "0x":
            return sign * int(body[2:], 16), True
        if len(body) > 1 and body.startswith("0"):
            return sign * int(body, 8), True
        return sign * int(body or "0"), True
    except ValueError:
        return 0, False


def printf_format(fmt: str, args: list[str]) -> tuple[bytes, list[str]]:
    """printf(1): returns (output, error messages). The format repeats while args remain."""
    out = bytearray()
    errors: list[str] = []
    queue = list(args)
    while True:
        before = len(queue)
        stop = _printf_pass(fmt, queue, out, errors)
        if stop or not queue or len(queue) == before:
            break
    return bytes(out), errors


def _printf_pass(fmt: str, queue: list[str], out: bytearray, errors: list[str]) -> bool:
    pos = 0
    while pos < len(fmt):
        pct = fmt.find("%", pos)
        literal = fmt[pos:] if pct < 0 else fmt[pos:pct]
        if literal:
            data, stop = unescape(literal, printf_format=True)
            out += data
            if stop:
                return True
        if pct < 0:
            break
        m = _PRINTF_SPEC.match(fmt, pct)
        if not m:
            errors.append(f"printf: {fmt[pct:pct + 2]}: invalid format")
            return True
        pos = m.end()
        flags, width, prec, conv = m.groups()
        if conv == "%":
            out += b"%"
            continue
        if width == "*":
            width = str(int(_printf_number(queue.pop(0) if queue else "0", False)[0]))
        if prec == "*":
            prec = str(int(_printf_number(queue.pop(0) if queue else "0", False)[0]))
        for size in (width, prec):
            limits.check_size(abs(int(size)) if size and size.lstrip("-").isdigit() else 0, "printf: field")
        limits.check_size(len(out), "printf: output")
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        arg = queue.pop(0) if queue else None
        if conv in "sb":
            text = arg or ""
            if conv == "b":
                data, stop = unescape(text)
                text = data.decode("utf-8", "surrogateescape")
                out += (spec + "s").__mod__(text).encode("utf-8", "surrogateescape")
                if stop:
                    return True
                continue
            out += (spec + "s").__mod__(text).encode("utf-8", "surrogateescape")
        elif conv == "c":
            out += (spec + "s").__mod__((arg or "")[:1]).encode("utf-8", "surrogateescape")
        elif conv in "diouxX":
            value, ok = _printf_number(arg or "0", False)
            if not ok:
                errors.append(f"printf: invalid number '{arg}'")
            out += (spec + ("d" if conv in "iu" else conv)).__mod__(int(value)).encode()
        elif conv in "eEfFgGaA":
            value, ok = _printf_number(arg or "0", True)
            if not ok:
                errors.append(f"printf: invalid number '{arg}'")
            out += (spec + ("f" if conv == "F" else conv)).__mod__(float(value)).encode()
        else:
            errors.append(f"printf: %{conv}: invalid format")
            return True
    return False


@toy("printf")
def printf(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Need 1 argument")
    data, errors = printf_format(inv.args[0], inv.args[1:])
    inv.out(data)
    for message in errors:
        inv.err(message + "\n")
    return 1 if errors else 0


@toy("xargs")
def xargs(inv: Invocation) -> int:
    """xargs [-0rt] [-n N] [-I STR] [-d C] [COMMAND...]: words of stdin appended to COMMAND."""
    opts, command_argv = parse_options(inv.args, "0rtpn:s:I:E:d:L:P:x", stop_at_operand=True)
    command_argv = command_argv or ["echo"]
    text = inv.stdin.decode("utf-8", "surrogateescape")
    if "0" in opts:
        items = text.split("\0")
    elif "d" in opts:
        items = text.split(unescape(str(opts["d"]))[0].decode("utf-8", "surrogateescape") or "\n")
    elif "I" in opts or "L" in opts:
        items = [line for line in text.split("\n")]
    else:
        items = text.split()
    if items and items[-1] == "":
        items.pop()
    if "E" in opts and str(opts["E"]) in items:
        items = items[: items.index(str(opts["E"]))]
    if not items and "r" in opts:
        return 0
    batches: list[list[str]]
    if "I" in opts:
        needle = str(opts["I"])
        batches = [[a.replace(needle, item) for a in command_argv] for item in items if item]
    else:
        size = int(str(opts.get("n", opts.get("L", "0")))) or len(items) or 1
        batches = [command_argv + items[k:k + size] for k in range(0, len(items), size)] or [
            list(command_argv)]
    status = 0
    for argv in batches:
        if "t" in opts:
            inv.err(" ".join(argv) + "\n")
        rc = spawn(inv, argv)
        if rc is None:
            return inv.fail(f"xargs: exec {argv[0]}: No such file or directory", 127)
        if rc == 255:
            return 124
        if rc:
            status = 123
    return status


# ============================================================================================
# test / [
# ============================================================================================
class TestError(TaskkitError):
    """A malformed test expression (exit status 2)."""

    __test__ = False  # not a pytest test class


_UNARY = frozenset("-e -f -d -s -r -w -x -h -L -b -c -p -S -z -n -t -g -u -k -O -G".split())
_BINARY = frozenset("= == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split())


def evaluate_test(state: SimState, cwd: str, args: list[str]) -> bool:
    """Evaluate a `test` expression (POSIX rules for up to 4 arguments, then -a/-o/!/( ))."""
    n = len(args)
    if n == 0:
        return False
    if n == 1:
        return args[0] != ""
    if n == 2:
        if args[0] == "!":
            return args[1] == ""
        if args[0] in _UNARY:
            return _test_unary(state, cwd, args[0], args[1])
        raise TestError(f"{args[0]}: unexpected operator")
    if n == 3:
        if args[1] in _BINARY:
            return _test_binary(state, cwd, args[0], args[1], args[2])
        if args[0] == "!":
            return not evaluate_test(state, cwd, args[1:])
        if args[0] == "(" and args[2] == ")":
            return args[1] != ""
    if n == 4:
        if args[0] == "!":
            return not evaluate_test(state, cwd, args[1:])
        if args[0] == "(" and args[3] == ")":
            return evaluate_test(state, cwd, args[1:3])
    parser = _TestParser(state, cwd, args)
    value = parser.or_expr()
    if parser.pos != n:
        raise TestError(f"{args[parser.pos]}: unexpected operator")
    return value


class _TestParser:
    def __init__(self, state: SimState, cwd: str, args: list[str]):
        self.state, self.cwd, self.args, self.pos = state, cwd, args, 0

    def _next(self) -> str:
        if self.pos >= len(self.args):
            raise TestError("argument expected")
        self.pos += 1
        return self.args[self.pos - 1]

    def or_expr(self) -> bool:
        value = self.and_expr()
        while self.pos < len(self.args) and self.args[self.pos] == "-o":
            self.pos += 1
            right = self.and_expr()
            value = value or right
        return value

    def and_expr(self) -> bool:
        value = self.not_expr()
        while self.pos < len(self.args) and self.args[self.pos] == "-a":
            self.pos += 1
            right = self.not_expr()
            value = value and right
        return value

    def not_expr(self) -> bool:
        if self.pos < len(self.args) and self.args[self.pos] == "!":
            self.pos += 1
            return not self.not_expr()
        return self.primary()

    def primary(self) -> bool:
        token = self._next()
        rest = len(self.args) - self.pos
        if token == "(":
            value = self.or_expr()
            if self._next() != ")":
                raise TestError("missing )")
            return value
        if rest >= 2 and self.args[self.pos] in _BINARY:
            op = self._next()
            return _test_binary(self.state, self.cwd, token, op, self._next())
        if token in _UNARY and rest >= 1:
            return _test_unary(self.state, self.cwd, token, self._next())
        return token != ""


def _test_unary(state: SimState, cwd: str, op: str, operand: str) -> bool:
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-t":
        return False
    st = try_vstat(state, operand, cwd, follow=op not in ("-h", "-L")) if operand else None
    if st is None:
        return False
    if op in ("-e", "-r", "-w", "-O", "-G"):
        return True
    if op == "-f":
        return st.kind == "file"
    if op == "-d":
        return st.kind == "dir"
    if op in ("-h", "-L"):
        return st.kind == "link"
    if op == "-s":
        return st.size > 0
    if op == "-x":
        return bool(st.mode & 0o111)
    return False  # -b -c -p -S -g -u -k: no such files in the simulator


def _test_int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise TestError(f"{text}: bad number") from None


def _test_binary(state: SimState, cwd: str, left: str, op: str, right: str) -> bool:
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return _bytes_key(left) < _bytes_key(right)
    if op == ">":
        return _bytes_key(left) > _bytes_key(right)
    if op in ("-nt", "-ot", "-ef"):
        a, b = try_vstat(state, left, cwd), try_vstat(state, right, cwd)
        if op == "-ef":
            return a is not None and b is not None and a.ino == b.ino
        if op == "-nt":
            return a is not None and (b is None or a.mtime > b.mtime)
        return b is not None and (a is None or a.mtime < b.mtime)
    a, b = _test_int(left), _test_int(right)
    return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b,
            "-ge": a >= b}[op]


def evaluate_test_command(state: SimState, cwd: str, name: str, args: list[str]
                          ) -> tuple[int, str | None]:
    """`test ARGS` / `[ ARGS ]`: (exit status, error message without the program prefix)."""
    if name == "[":
        if not args or args[-1] != "]":
            return 2, "[: missing ]"
        args = args[:-1]
    try:
        return (0 if evaluate_test(state, cwd, args) else 1), None
    except TestError as exc:
        return 2, f"{name}: {exc}"


@toy("test", "[")
def test(inv: Invocation) -> int:
    status, message = evaluate_test_command(inv.state, inv.cwd, posixpath.basename(inv.name),
                                            list(inv.args))
    return status if message is None else inv.fail(message, status)
