"""`taskkit-changes`: the simulated device's file-change recorder as a shell command.

    taskkit-changes start [--skip PATH]... ROOT...   prints `watch ID`
    taskkit-changes diff ID                          prints `- LINE` / `+ LINE` per changed path

A simulator-only command (a phone has no such tool): taskkit.device.services.changes runs it
when `which` finds it and falls back to `find -newer` otherwise. See taskkit.sim.changes.
"""
from __future__ import annotations

from taskkit.sim import changes
from taskkit.sim.commands import Invocation, command

NAME = "taskkit-changes"
_USAGE = f"usage: {NAME} start [--skip PATH]... ROOT... | {NAME} diff ID"


@command(NAME)
def taskkit_changes(inv: Invocation) -> int:
    args = inv.args
    recorder = changes.recorder(inv.state)
    if args[:1] == ["start"]:
        roots: list[str] = []
        skip: list[str] = []
        rest = args[1:]
        while rest:
            if rest[0] == "--skip" and len(rest) > 1:
                skip.append(rest[1])
                rest = rest[2:]
            else:
                roots.append(rest.pop(0))
        if not roots:
            return inv.fail(_USAGE)
        canonical = {_canonical(inv, root): inv.normalize(root) for root in roots}
        inv.out(f"watch {recorder.start(canonical, tuple(_canonical(inv, path) for path in skip))}\n")
        return 0
    if len(args) == 2 and args[0] == "diff":
        try:
            lines = recorder.diff(args[1])
        except changes.WatchError as error:
            return inv.fail(f"{NAME}: {error}")
        inv.out("".join(line + "\n" for line in lines))
        return 0
    return inv.fail(_USAGE)


def _canonical(inv: Invocation, path: str) -> str:
    """The path's place in the device's filesystem, every link resolved (as the recorder keys it)."""
    relative = inv.host_path(path).relative_to(inv.state.fs_root).as_posix()
    return "/" if relative == "." else "/" + relative
