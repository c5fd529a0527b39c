"""`taskkit-changes`: the simulated device's file-change recorder as a shell command.

    taskkit-changes start [--undo NAME] [--skip PATH]... ROOT...   prints `watch ID`
    taskkit-changes diff ID          prints `- LINE` / `+ LINE` per changed path
    taskkit-changes undo NAME        puts the paths back as they were at `start --undo NAME`
    taskkit-changes check NAME       exits 1 (changing nothing) if that journal is damaged
    taskkit-changes drop NAME        deletes that journal

A simulator-only command (a phone has no such tool): taskkit.device.services.changes runs it
when `which` finds it and falls back to `find -newer` otherwise. See taskkit.sim.changes.
"""
from __future__ import annotations

import os
from pathlib import Path

from taskkit.sim import changes, storage
from taskkit.sim.commands import Invocation, command

NAME = "taskkit-changes"
_USAGE = (f"usage: {NAME} start [--undo NAME] [--skip PATH]... ROOT... | {NAME} diff ID"
          f" | {NAME} undo|check|drop NAME")


@command(NAME)
def taskkit_changes(inv: Invocation) -> int:
    args = inv.args
    recorder = changes.recorder(inv.state)
    if args[:1] == ["start"]:
        roots: list[str] = []
        options: dict[str, list[str]] = {"--skip": [], "--undo": []}
        rest = args[1:]
        while rest:
            if rest[0] in options and len(rest) > 1:
                options[rest[0]].append(rest[1])
                rest = rest[2:]
            else:
                roots.append(rest.pop(0))
        undo = options["--undo"]
        if not roots or len(undo) > 1:
            return inv.fail(_USAGE)
        journal = _journal(inv, undo[0]) if undo else None
        if undo and journal is None:
            return inv.fail(f"{NAME}: bad undo journal name {undo[0]!r} (letters, digits, '.', '_', '-')")
        canonical = {_canonical(inv, root): inv.normalize(root) for root in roots}
        skip = tuple(_canonical(inv, path) for path in options["--skip"])
        inv.out(f"watch {recorder.start(canonical, skip, journal)}\n")
        return 0
    if len(args) == 2 and args[0] in ("undo", "check", "drop"):
        journal = _journal(inv, args[1])
        if journal is None:
            return inv.fail(f"{NAME}: bad undo journal name {args[1]!r}")
        try:
            if args[0] == "undo":
                copied = recorder.restored_bytes
                inv.state.stamp(*recorder.undo(journal))
                # what was put back is charged (what was removed is not counted off: the total may
                # only be too high), so an undo that put nothing back costs the accounting nothing
                storage.of(inv.state).account(recorder.restored_bytes - copied)
            elif args[0] == "check":
                recorder.check(journal)
            else:
                recorder.drop(journal)
        except changes.WatchError as error:
            return inv.fail(f"{NAME}: {error}")
        return 0
    if len(args) == 2 and args[0] == "diff":
        try:
            lines = recorder.diff(args[1])
        except changes.WatchError as error:
            return inv.fail(f"{NAME}: {error}")
        inv.out("".join(line + "\n" for line in lines))
        return 0
    return inv.fail(_USAGE)


def _journal(inv: Invocation, name: str) -> Path | None:
    """The undo journal's folder in the state directory (outside the device's filesystem)."""
    return inv.state.root / "undo" / name if changes.JOURNAL_NAME.fullmatch(name) else None


def _canonical(inv: Invocation, path: str) -> str:
    """The path's place in the device's filesystem, every link resolved (as the recorder keys it)."""
    return os.fspath(inv.host_path(path))[len(os.fspath(inv.state.fs_root)):] or "/"  # (always inside fs_root)
