"""Which files and folders changed since a moment, on any device: the side-effect check's files.

`build_start`/`parse_start` begin a watch and `build_since`/`parse_since` read what changed
since; each is one shell command, and the device decides how it answers:

* **The simulated device** has a recorder (`taskkit-changes`, taskkit.sim.changes) that keeps
  the state of every path written after `start`; `since` compares only those paths with what is
  there now. Its cost follows what changed, not the number or size of the files on the device.
* **Any other device** (`which` does not find the command): `start` touches a marker file in
  taskkit's scratch folder and lists the *names* of the folders and files under the roots;
  `since` lists the names again, tagging the files `find -newer MARKER` selects (modified after
  the marker). A name in one listing only was added or removed; a file in both and newer than
  the marker changed. No file is read or hashed: the cost is two names-only walks of the roots
  on the device and their listings over adb (about 50–100 bytes a path), whatever the files'
  sizes. What this method can miss or get wrong:

  - mtime granularity: a write in the same timestamp tick as the marker's `touch` (the kernel's
    coarse clock, a few ms; 2 s on FAT-style storage) is not newer, so it is missed;
  - a write that sets an old mtime (`touch -d`, `cp -p`/`-a`, `tar`/`unzip` extraction, `mv` of an
    older file onto a name) is missed; a file with an mtime in the future always looks changed;
  - a file rewritten with its old content is "changed" (the simulator's recorder compares
    content, as the full listing's md5s did);
  - like every listing, names containing a newline are misread.

Both answer with two sets of `taskkit.device.state.listing` lines (`dir PATH`, `file PATH
DIGEST`), before and after, holding at least every path that changed; paths in both with the
same line did not change.
"""
from __future__ import annotations

import dataclasses

from taskkit.device.quoting import shell_join, shell_quote
from taskkit.device.state import RECORDER, SCRATCH_ROOT, build_recorder_start, find_prune
MARKER = f"{SCRATCH_ROOT}/side-effects.marker"  # one watch per device at a time, as the recorder
_NEWER = "newer"  # the digest of a file `find -newer` selected (its content was not read)
_NAMES = "-"  # the digest of a file known by name only


@dataclasses.dataclass(frozen=True)
class ChangeWatch:
    """A watch begun by `start`: how the device answers, and what `since` needs to ask it."""

    method: str  # "recorder" | "find"
    token: str  # the recorder's watch id, or the marker's path
    roots: tuple[str, ...]
    skip: tuple[str, ...]
    names: frozenset[str] = frozenset()  # find: the listing at start


def _find_names(roots: tuple[str, ...], skip: tuple[str, ...], newer: str | None) -> str:
    """One names-only walk: `D PATH` per folder, `F PATH` per file (`N PATH` if newer than `newer`)."""
    def tagged(tag: str) -> str:
        return f"-exec printf '{tag} %s\\n' {{}} +"

    files = (f"-type f -newer {shell_quote(newer)} {tagged('N')} -o " if newer else "") + f"-type f {tagged('F')}"
    return f"find {' '.join(map(shell_quote, roots))} {find_prune(skip)} -type d {tagged('D')} -o {files}"


def build_start(roots: tuple[str, ...], skip: tuple[str, ...] = (), recorder: bool = True) -> str:
    """Begin watching `roots` (minus `skip`); `recorder=False` forces the `find -newer` method."""
    record = build_recorder_start(roots, skip)  # skipping taskkit's scratch space, as find_prune does
    find = (f"echo method find && mkdir -p {shell_quote(SCRATCH_ROOT)} && touch {shell_quote(MARKER)} && "
            f"{_find_names(roots, skip, None)}")
    if not recorder:
        return find
    return f"if which {RECORDER} >/dev/null 2>&1; then echo method recorder && {record}; else {find}; fi"


def parse_start(output: str, roots: tuple[str, ...], skip: tuple[str, ...] = ()) -> ChangeWatch:
    head, _, rest = output.partition("\n")
    if head == "method recorder" and rest.startswith("watch "):
        return ChangeWatch("recorder", rest.split()[1], roots, skip)
    if head == "method find":
        return ChangeWatch("find", MARKER, roots, skip, frozenset(_names(rest)))
    raise ValueError(f"unexpected answer to a change watch's start: {output[:200]!r}")


def build_since(watch: ChangeWatch) -> str:
    """Ask what changed since `watch` began (one command)."""
    if watch.method == "recorder":
        return shell_join([RECORDER, "diff", watch.token])
    marker = shell_quote(watch.token)
    gone = shell_quote(f"side-effect marker {watch.token} is gone (removed since the watch began)")
    return f"{{ [ -e {marker} ] || {{ echo {gone} >&2; exit 1; }}; }} && {_find_names(watch.roots, watch.skip, watch.token)}"


def parse_since(watch: ChangeWatch, output: str) -> tuple[set[str], set[str]]:
    """(before, after): listing lines at start and now, holding every path that changed."""
    if watch.method == "find":
        return set(watch.names), _names(output)
    before, after = set(), set()
    for line in output.splitlines():
        sign, _, rest = line.partition(" ")
        (before if sign == "-" else after).add(rest)
    return before, after


def _names(output: str) -> set[str]:
    lines = set()
    for line in output.splitlines():
        tag, _, path = line.partition(" ")
        if tag == "D":
            lines.add(f"dir {path}")
        elif tag in ("F", "N"):
            lines.add(f"file {path} {_NEWER if tag == 'N' else _NAMES}")
    return lines
