"""`taskkit-changes`: the simulated device's file-change recorder as a shell command.

    taskkit-changes start [--undo NAME] [--skip PATH]... ROOT...   prints `watch ID`
    taskkit-changes diff ID          prints `- LINE` / `+ LINE` per changed path
    taskkit-changes undo NAME        puts the paths back as they were at `start --undo NAME`
    taskkit-changes check NAME       exits 1 (changing nothing) if that journal is damaged
    taskkit-changes drop NAME        deletes that journal
    taskkit-changes save-point DIR MANIFEST [--skip PATH]... ROOT...
    taskkit-changes check-point DIR
    taskkit-changes restore-point DIR

A simulator-only command (a phone has no such tool): taskkit.device.services.changes runs it
when `which` finds it and falls back to `find -newer` otherwise. See taskkit.sim.changes.

The `-point` verbs keep an incremental restore point (taskkit.device.state) in one command each,
with the steps the shell would take in the same order, so a run killed anywhere leaves what
`recover` expects: `save-point` makes the folder DIR afresh (`rm -rf`, `mkdir -p`), starts an
undo watch of the ROOTs journaled under DIR's name (DIR: a folder in RESTORE_ROOT), leaves the
undo marker, and writes MANIFEST to the manifest last; `check-point` fails (changing nothing) if the marker is there and
the journal is damaged; `restore-point`, if the marker is there, undoes, removes the marker,
drops the journal, then (unless the undo failed) removes DIR.
"""
from __future__ import annotations

import errno
import os
import posixpath
from pathlib import Path

from taskkit.device.state import MANIFEST, RESTORE_ROOT, UNDO_MARKER
from taskkit.sim import changes, storage
from taskkit.sim.commands import Invocation, command, toybox

NAME = "taskkit-changes"
_USAGE = (f"usage: {NAME} start [--undo NAME] [--skip PATH]... ROOT... | {NAME} diff ID"
          f" | {NAME} undo|check|drop NAME | {NAME} save-point DIR MANIFEST [--skip PATH]... ROOT..."
          f" | {NAME} check-point|restore-point DIR")


@command(NAME)
def taskkit_changes(inv: Invocation) -> int:
    args = inv.args
    recorder = changes.recorder(inv.state)
    if args[:1] == ["start"]:
        options = _options(args[1:], ("--skip", "--undo"))
        roots, undo = options[""], options["--undo"]
        if not roots or len(undo) > 1:
            return inv.fail(_USAGE)
        journal = _journal(inv, undo[0]) if undo else None
        if undo and journal is None:
            return inv.fail(f"{NAME}: bad undo journal name {undo[0]!r} (letters, digits, '.', '_', '-')")
        inv.out(f"watch {_start(inv, recorder, roots, options['--skip'], journal)}\n")
        return 0
    if len(args) == 2 and args[0] in ("undo", "check", "drop"):
        journal = _journal(inv, args[1])
        if journal is None:
            return inv.fail(f"{NAME}: bad undo journal name {args[1]!r}")
        try:
            if args[0] == "undo":
                _undo(inv, recorder, journal)
            elif args[0] == "check":
                recorder.check(journal)
            else:
                recorder.drop(journal)
        except changes.WatchError as error:
            return inv.fail(f"{NAME}: {error}")
        return 0
    if args[:1] == ["save-point"] and len(args) >= 4:
        options = _options(args[3:], ("--skip",))
        if not options[""]:
            return inv.fail(_USAGE)
        point = _point(inv, args[1])
        return 1 if point is None else _save_point(inv, recorder, *point, args[2], options[""], options["--skip"])
    if len(args) == 2 and args[0] in ("check-point", "restore-point"):
        point = _point(inv, args[1])
        if point is None:
            return 1
        return (_check_point if args[0] == "check-point" else _restore_point)(inv, recorder, *point)
    if len(args) == 2 and args[0] == "diff":
        try:
            lines = recorder.diff(args[1])
        except changes.WatchError as error:
            return inv.fail(f"{NAME}: {error}")
        inv.out("".join(line + "\n" for line in lines))
        return 0
    return inv.fail(_USAGE)


def _options(words: list[str], names: tuple[str, ...]) -> dict[str, list[str]]:
    """Each of `names`' values (an option takes the word after it), and the other words under ""."""
    found: dict[str, list[str]] = {name: [] for name in ("", *names)}
    rest = list(words)
    while rest:
        if rest[0] in names and len(rest) > 1:
            found[rest[0]].append(rest[1])
            rest = rest[2:]
        else:
            found[""].append(rest.pop(0))
    return found


def _start(inv: Invocation, recorder: changes.Recorder, roots: list[str], skip: list[str],
           journal: Path | None) -> str:
    canonical = {_canonical(inv, root): inv.normalize(root) for root in roots}
    return recorder.start(canonical, tuple(_canonical(inv, path) for path in skip), journal)


def _undo(inv: Invocation, recorder: changes.Recorder, journal: Path) -> None:
    copied = recorder.restored_bytes
    inv.state.stamp(*recorder.undo(journal))
    # what was put back is charged (what was removed is not counted off: the total may only be
    # too high), so an undo that put nothing back costs the accounting nothing
    storage.of(inv.state).account(recorder.restored_bytes - copied)


def _point(inv: Invocation, directory: str) -> tuple[str, Path] | None:
    """A restore point's folder (normalized: RESTORE_ROOT/NAME) and its journal (NAME); None,
    having said why, for any other folder."""
    folder = inv.normalize(directory)
    parent, name = posixpath.split(folder)
    journal = _journal(inv, name) if parent == RESTORE_ROOT else None
    if journal is None:
        inv.fail(f"{NAME}: bad restore point {directory!r} (one in {RESTORE_ROOT}, named with letters, digits, '.', '_', '-')")
        return None
    return folder, journal


def _remove(inv: Invocation, path: str, recursive: bool = False) -> None:
    """`rm -f` (`rm -rf`) of `path`: a missing one is fine; raises OSError otherwise."""
    try:
        toybox.remove_path(inv.state, path, recursive=recursive)
    except OSError as error:
        if error.errno != errno.ENOENT:
            raise


def _failed(inv: Invocation, path: str, error: OSError) -> int:
    return inv.fail(f"{NAME}: {path}: {os.strerror(error.errno) if error.errno else error}")


def _save_point(inv: Invocation, recorder: changes.Recorder, folder: str, journal: Path, manifest: str,
                roots: list[str], skip: list[str]) -> int:
    try:
        _remove(inv, folder, recursive=True)
        toybox.make_dirs(inv.state, folder, parents=True)
        _start(inv, recorder, roots, skip, journal)
        toybox.write_file(inv.state, f"{folder}/{UNDO_MARKER}", b"")
        toybox.write_file(inv.state, f"{folder}/{MANIFEST}", manifest.encode("utf-8", "surrogateescape"))
    except OSError as error:
        return _failed(inv, folder, error)
    return 0


def _marked(inv: Invocation, folder: str) -> bool:
    """Whether the restore point's undo marker is there (`[ -e DIR/undo ]`)."""
    return toybox.try_vstat(inv.state, f"{folder}/{UNDO_MARKER}") is not None


def _check_point(inv: Invocation, recorder: changes.Recorder, folder: str, journal: Path) -> int:
    try:
        if _marked(inv, folder):
            recorder.check(journal)
    except changes.WatchError as error:
        return inv.fail(f"{NAME}: {error}")
    return 0


def _restore_point(inv: Invocation, recorder: changes.Recorder, folder: str, journal: Path) -> int:
    status = 0
    if _marked(inv, folder):
        try:
            _undo(inv, recorder, journal)
        except changes.WatchError as error:
            status = inv.fail(f"{NAME}: {error}")
        try:  # the marker goes whether the undo did or not, and then the journal (a rerun undoes the rest)
            _remove(inv, f"{folder}/{UNDO_MARKER}")
        except OSError as error:
            return _failed(inv, f"{folder}/{UNDO_MARKER}", error)
        recorder.drop(journal)
    if status:
        return status
    try:
        _remove(inv, folder, recursive=True)
    except OSError as error:
        return _failed(inv, folder, error)
    return 0


def _journal(inv: Invocation, name: str) -> Path | None:
    """The undo journal's folder in the state directory (outside the device's filesystem)."""
    return inv.state.root / "undo" / name if changes.JOURNAL_NAME.fullmatch(name) else None


def _canonical(inv: Invocation, path: str) -> str:
    """The path's place in the device's filesystem, every link resolved (as the recorder keys it)."""
    return os.fspath(inv.host_path(path))[len(os.fspath(inv.state.fs_root)):] or "/"  # (always inside fs_root)
