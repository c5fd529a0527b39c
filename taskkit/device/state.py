"""Whole-device state operations built from shell commands: restore points and state listings.

A restore point copies app data paths aside on the device (`cp -a`; a path that does not exist
leaves a note saying so) and records every setting, in one round trip. It doubles as a journal:
its directory holds a manifest (what was saved) and the settings, and it is retired — renamed
away in one atomic step, then deleted — only after everything has been put back. Restoring
stages each saved copy beside its path and swaps it in with `mv`, so an interrupted restore can
simply be run again; `recover` does that for the restore points a killed run left behind, and
refuses (RestoreError, nothing changed) a journal in which a saved copy is missing. `cp -a` as
root keeps each file's owner and mode, and `restorecon -RF` gives the restored tree the SELinux
labels the app needs on a real device, as AndroidWorld does after its restore (the simulated
device has no SELinux: there it only checks the paths exist).

An *incremental* restore point (the one every task episode saves) costs what the episode changes
instead, where the device has the simulator's change recorder (`taskkit-changes`): nothing is
copied and no setting is read when it is saved; the recorder journals each path, the settings
database included, before its first write, and the restore puts back only the files whose
content differs, with no setting read either. The recorder keeps such a restore point in one
command each way (`save-point`, `check-point`, `restore-point`: taskkit.sim.commands.changes),
the steps in the order above. Saving and restoring then hold no command that needs an answer,
so inside `device.batch()` they travel with the commands around them. A phone has no recorder:
there an incremental restore point is the copying one above.

`listing` names every directory, file checksum and setting where a task or an agent can write;
`state_digest` hashes it, and `difference` says what changed between two listings.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import weakref

from taskkit.device.base import CommandFailed, Device, DeviceError
from taskkit.device.quoting import shell_join, shell_quote
from taskkit.device.services.settings import Snapshot, build_restore, build_snapshot, parse_snapshot

SCRATCH_ROOT = "/data/local/tmp/taskkit"
RECORDER = "taskkit-changes"  # the simulated device's change recorder (taskkit.sim.commands.changes)
RESTORE_ROOT = f"{SCRATCH_ROOT}/restore"
DIGEST_ROOTS = ("/data/data", "/storage/emulated/0", "/data/local/tmp")
MANIFEST = "manifest.json"
UNDO_MARKER = "undo"  # in a restore point: the device's recorder journals everything else written
_SETTINGS = "settings.txt"
_STAGED = ".taskkit-restoring"
_ABSENT = ".absent"  # beside a saved copy's index: the path did not exist when it was saved
_RETIRED = ".retired-"  # a restored restore point, renamed away before it is deleted
_INCONSISTENT = "restore point damaged: a saved copy is missing"
_MARK = "--taskkit-section--"
# The shell variables naming a restore point's folder and label in the commands that save and
# restore it: set on a short line of their own, so that every line after it is the same text each
# episode (the simulated shell keeps each line's tokens by its text; the label changes every episode).
_POINT, _LABEL = "tk_point", "tk_label"
_AT_POINT, _AT_UNDO, _AT_LABEL = f'"${_POINT}"', f'"${_POINT}/{UNDO_MARKER}"', f'"${_LABEL}"'
# Where the settings provider keeps the settings (AOSP SettingsProvider: /data/system/users/<user>/;
# the simulator's settings.db, taskkit.sim.state.SETTINGS_DB): journaled by an incremental restore point.
SETTINGS_STORE = "/data/system/users/0"
_RECORDING: weakref.WeakKeyDictionary[Device, bool] = weakref.WeakKeyDictionary()


class RestoreError(DeviceError):
    """A restore point could not be saved, read or applied."""


@dataclasses.dataclass(frozen=True)
class RestorePoint:
    """Where a device's app data and settings were saved, and what they were."""

    directory: str
    paths: tuple[str, ...]
    packages: tuple[str, ...]
    settings: Snapshot
    journaled: bool = False  # incremental: the recorder journals the paths and settings (nothing copied)


def has_recorder(device: Device) -> bool:
    """Whether `device` runs the simulator's change recorder: known for an in-process simulated
    device (its `change_recorder`), asked once (`which`) of any other."""
    known = getattr(device, "change_recorder", None)
    if known is None:
        known = _RECORDING.get(device)
    if known is None:
        known = _RECORDING[device] = device.shell(f"which {RECORDER} >/dev/null 2>&1").exit_code == 0
    return known


def build_recorder_start(roots: tuple[str, ...], skip: tuple[str, ...] = (), undo: str | None = None) -> str:
    """The simulated device's recorder command that begins a watch of `roots` minus `skip` and
    taskkit's scratch space (with `undo`, a shell word naming a journal, quoted as the shell
    should read it: one whose restore undoes every write)."""
    return " ".join([RECORDER, "start", *(["--undo", undo] if undo else []), _watched(roots, skip)])


def _watched(roots: tuple[str, ...], skip: tuple[str, ...] = ()) -> str:
    """The recorder's words for a watch of `roots` minus `skip` and taskkit's scratch space."""
    return shell_join([*(word for path in (SCRATCH_ROOT, *skip) for word in ("--skip", path)), *roots])


def save_restore_point(device: Device, label: str, paths: tuple[str, ...], packages: tuple[str, ...],
                       elsewhere: tuple[str, ...] = (), incremental: bool = False) -> RestorePoint:
    """Copy `paths` aside under RESTORE_ROOT/label and record the settings (one round trip).

    Each path leaves either its copy (`N`) or a note that it did not exist (`N.absent`). The
    manifest is written last: a restore point without one was never complete (nothing had
    changed yet) and `recover` discards it. Any failure raises, naming the command.

    `elsewhere`: folders (outside `paths`) whose every later write is undone by the restore too.
    Copying them all would cost their size each time; the simulated device instead journals each
    path there before its first write (its recorder's `start --undo`), so the cost follows what
    changed. A device without the recorder (a phone) leaves them as they are.

    `incremental`: on a device with the recorder, journal `paths` and the settings that way too
    (see the module doc): one command, held back inside `device.batch()` like any `run`.
    """
    directory = f"{RESTORE_ROOT}/{label}"
    if incremental and has_recorder(device):
        point = RestorePoint(directory, tuple(paths), tuple(packages), {}, journaled=True)
        device.run(_journaled_save(point, (*paths, *elsewhere, SETTINGS_STORE)))
        return point
    manifest = json.dumps({"paths": list(paths), "packages": list(packages)})
    with device.batch():
        device.run(f"rm -rf {shell_quote(directory)} && mkdir -p {shell_quote(directory)}")
        if elsewhere:
            start = build_recorder_start(elsewhere, paths, undo=shell_quote(label))
            device.run(f"if which {RECORDER} >/dev/null 2>&1; then {start} >/dev/null && "
                       f": > {shell_quote(f'{directory}/{UNDO_MARKER}')}; fi")
        for index, path in enumerate(paths):
            saved = f"{directory}/{index}"
            device.run(f"if [ -e {shell_quote(path)} ]; then cp -a {shell_quote(path)} {shell_quote(saved)}; "
                       f"else : > {shell_quote(saved + _ABSENT)}; fi")
        settings_file = shell_quote(f"{directory}/{_SETTINGS}")
        output = device.check(
            f"{{ {build_snapshot()}\n}} > {settings_file}"
            f" && {shell_join(['printf', '%s', manifest])} > {shell_quote(f'{directory}/{MANIFEST}')}"
            f" && cat {settings_file}"
        )
    return RestorePoint(directory, tuple(paths), tuple(packages), parse_snapshot(output))


def _journaled_save(point: RestorePoint, roots: tuple[str, ...]) -> str:
    """The one command saving an incremental restore point: the recorder's `save-point` makes its
    folder afresh, starts an undo watch of `roots` (journal named after the folder), leaves the
    marker saying so, and writes the manifest last (taskkit.sim.commands.changes)."""
    manifest = json.dumps({"paths": list(point.paths), "packages": list(point.packages), "journaled": True})
    return f"{_at(point.directory)}{RECORDER} save-point {_AT_POINT} {shell_quote(manifest)} {_watched(_outermost(roots))}"


def _outermost(roots: tuple[str, ...]) -> tuple[str, ...]:
    """`roots` without those inside another of them (in their first order)."""
    unique = tuple(dict.fromkeys(root.rstrip("/") or "/" for root in roots))
    return tuple(root for root in unique
                 if not any(other != root and (root + "/").startswith(other.rstrip("/") + "/") for other in unique))


def _at(directory: str) -> str:
    """The line that sets _POINT to a restore point's `directory` and _LABEL to its last part."""
    return f"{_POINT}={shell_quote(directory)} {_LABEL}={shell_quote(directory.rsplit('/', 1)[-1])}\n"


def _journal_check(point: RestorePoint) -> str:
    """A command that fails, changing nothing, unless every path has its copy or absence note
    and the recorder's undo journal, where the restore point has one, is whole."""
    if point.journaled:
        tests = [f"{RECORDER} check-point {_AT_POINT} >/dev/null 2>&1"]
    else:
        tests = [f'{{ [ -e "${_POINT}/{i}" ] || [ -e "${_POINT}/{i}{_ABSENT}" ]; }}' for i in range(len(point.paths))]
        tests.append(f"{{ [ ! -e {_AT_UNDO} ] || {RECORDER} check {_AT_LABEL} >/dev/null 2>&1; }}")
    return f"{_at(point.directory)}{' && '.join(tests)} || {{ echo {shell_quote(_INCONSISTENT)} >&2; exit 1; }}"


def restore(device: Device, point: RestorePoint) -> None:
    """Put back the paths and settings saved in `point`, then retire it (one round trip; a
    copying restore point on a device without the recorder reads the settings first: two).

    The journal is checked whole first: a path with neither its copy nor its absence note, or a
    damaged undo journal, means the restore point is damaged, and RestoreError is raised before
    anything is changed. Each path is then staged beside itself and swapped in (or, journaled,
    put back by the recorder), the settings are put back, and the restore point is retired by one
    rename (atomic) before it is deleted, so a restore stopped anywhere can be run again
    (`recover`) with the same result, and a half-deleted restore point is never read as a
    journal. Inside `device.batch()` a journaled restore is held back with the rest, and a
    damaged journal surfaces where the batch is sent, as `CommandFailed` naming the check
    (`damaged_journal` tells it apart).
    """
    check = _journal_check(point)
    try:
        with device.batch():
            device.run(check)
            for package in point.packages:
                device.run(f"am force-stop {shell_quote(package)}")
            if point.journaled:  # the recorder undoes, drops its journal and removes the folder
                device.run(f"{_at(point.directory)}{RECORDER} restore-point {_AT_POINT}")
            else:
                _put_back(device, point)
    except CommandFailed as error:
        if not damaged_journal(error, point):
            raise
        raise _damaged(device, point.directory, "a saved copy is missing") from None


def _put_back(device: Device, point: RestorePoint) -> None:
    """A copying restore point's commands: what the recorder journaled elsewhere undone, each
    path staged beside itself and swapped in, the settings put back, the point retired."""
    device.run(_undo_elsewhere(point))
    for index, path in enumerate(point.paths):
        saved, target = shell_quote(f"{point.directory}/{index}"), shell_quote(path)
        staged = shell_quote(path + _STAGED)
        device.run(f"rm -rf {staged}")
        device.run(f"if [ -e {saved} ]; then cp -a {saved} {staged}; fi")
        device.run(f"rm -rf {target}")
        device.run(f"if [ -e {staged} ]; then mv {staged} {target} && restorecon -RF {target}; fi")
    command = build_restore(device.settings.snapshot(), point.settings)
    if command is not None:
        device.run(command)
    _retire(device, point.directory)


def damaged_journal(error: CommandFailed, point: RestorePoint) -> bool:
    """Whether `error` is `point`'s journal check failing: nothing of the restore was done."""
    return error.command == _journal_check(point)


def _undo_elsewhere(point: RestorePoint) -> str:
    """Undo what the recorder journaled since the restore point, if it did; the marker goes
    either way, and then the journal, so that a failed undo is reported once, a rerun restores
    the rest, and a run killed before the marker went undoes again (the same writes)."""
    return (f"{_at(point.directory)}if [ -e {_AT_UNDO} ]; then {RECORDER} undo {_AT_LABEL}; undone=$?;"
            f" rm -f {_AT_UNDO} && {RECORDER} drop {_AT_LABEL}; [ $undone -eq 0 ]; fi")


def _damaged(device: Device, directory: str, why: str) -> RestoreError:
    return RestoreError(f"restore point {directory} on {device.serial} is damaged ({why}); nothing was restored "
                        f"or deleted: inspect it (adb shell ls -la {directory}), then remove it by hand")


def _retire(device: Device, directory: str) -> None:
    """Rename a restore point out of the journal (atomic), then delete it (none there: nothing
    to do, as when the batch saving it was never sent). (A journaled one is deleted where it
    stands by the recorder's `restore-point`.)"""
    quoted = shell_quote(directory)
    retired = shell_quote(f"{RESTORE_ROOT}/{_RETIRED}{directory.rsplit('/', 1)[-1]}")
    device.run(f"rm -rf {retired} && {{ [ ! -e {quoted} ] || mv {quoted} {retired}; }} && rm -rf {retired}")


def pending_restore_points(device: Device) -> list[RestorePoint]:
    """The restore points left on the device by a run that did not finish (one round trip).

    Incomplete ones (no manifest: the run died while saving, before changing anything) are
    listed too, with no paths, so that `recover` removes them. Retired ones (renamed away once
    restored, their deletion cut short) are not restore points any more and are not listed.
    """
    root = shell_quote(RESTORE_ROOT)
    output = device.check(
        f"if [ -d {root} ]; then for d in {root}/*; do [ -d \"$d\" ] || continue; echo \"{_MARK} $d\"; "
        f"cat \"$d/{MANIFEST}\" 2>/dev/null; echo; echo {_MARK}; cat \"$d/{_SETTINGS}\" 2>/dev/null || true; done; fi"
    )
    points = []
    for block in output.split(f"{_MARK} ")[1:]:
        directory, _, rest = block.partition("\n")
        manifest_text, _, settings_text = rest.partition(f"{_MARK}\n")
        try:
            manifest = json.loads(manifest_text) if manifest_text.strip() else None
            journaled = manifest is not None and manifest.get("journaled") is True
            settings = parse_snapshot(settings_text) if manifest is not None and not journaled else {}
            paths = tuple(manifest["paths"]) if manifest is not None else ()
            packages = tuple(manifest["packages"]) if manifest is not None else ()
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise _damaged(device, directory, f"unreadable manifest: {error}") from None
        points.append(RestorePoint(directory, paths, packages, settings, journaled))
    return points


def recover(device: Device) -> list[str]:
    """Finish every restore point a killed run left behind; returns their directories.

    Retired restore points are deleted first. The newest pending one is applied first, so when
    several overlap the oldest state wins. A damaged one raises RestoreError before any is applied.
    """
    with device.batch():
        device.run(f"rm -rf {shell_quote(RESTORE_ROOT)}/{_RETIRED}*")
        points = sorted(pending_restore_points(device), key=lambda p: p.directory, reverse=True)
    for point in points:
        check = _journal_check(point)
        if device.shell(check).exit_code:
            raise _damaged(device, point.directory, "a saved copy is missing")
    for point in points:
        if point.paths or point.settings or point.journaled:
            restore(device, point)
        else:
            _retire(device, point.directory)
    return [point.directory for point in points]


def listing(device: Device, roots: tuple[str, ...] = DIGEST_ROOTS, skip: tuple[str, ...] = ()) -> set[str]:
    """One line per directory (`dir PATH`), file (`file PATH MD5`) and setting (`setting NS K=V`).

    Everything under `roots` except taskkit's own scratch space and the `skip` paths (find
    patterns; one round trip).
    """
    quoted = " ".join(shell_quote(root) for root in roots)
    prune = find_prune(skip)
    # one walk: directories print their (absolute) path, files their md5sum line
    sections = [f"find {quoted} {prune} -type d -print -o -type f -exec md5sum {{}} +",
                "settings list system", "settings list secure", "settings list global"]
    parts = device.check(f"; echo {_MARK}; ".join(sections)).split(_MARK + "\n")
    lines: set[str] = set()
    for line in parts[0].splitlines():
        if line.startswith("/"):
            lines.add(f"dir {line}")
            continue
        checksum, _, path = line.partition("  ")
        if path:
            lines.add(f"file {path} {checksum}")
    for namespace, part in zip(("system", "secure", "global"), parts[1:]):
        lines.update(f"setting {namespace} {line}" for line in part.splitlines() if line)
    return lines


def find_prune(skip: tuple[str, ...] = ()) -> str:
    """The `find` operators that leave out taskkit's scratch space and the `skip` paths."""
    return " ".join(f"-path {shell_quote(path)} -prune -o" for path in (SCRATCH_ROOT, *skip))


def digest_of(lines: set[str]) -> str:
    """The sha256 of a `listing`."""
    return hashlib.sha256("\n".join(sorted(lines)).encode("utf-8", "surrogateescape")).hexdigest()


def state_digest(device: Device, roots: tuple[str, ...] = DIGEST_ROOTS) -> str:
    """A sha256 over every directory, file content and setting under `roots` (one round trip)."""
    return digest_of(listing(device, roots))


def difference(before: set[str], after: set[str], limit: int = 6) -> str:
    """"added: …; removed: …; changed: …" over paths and setting keys (at most `limit` each)."""
    def name(line: str) -> str:
        kind, _, rest = line.partition(" ")
        if kind == "file":
            return "file " + rest.rsplit(" ", 1)[0]
        if kind == "setting":
            return "setting " + rest.split("=", 1)[0]
        return line

    old = {name(line): line for line in before - after}
    new = {name(line): line for line in after - before}
    parts = []
    for label, keys in (("added", sorted(set(new) - set(old))), ("removed", sorted(set(old) - set(new))),
                        ("changed", sorted(set(old) & set(new)))):
        if keys:
            more = f" (+{len(keys) - limit} more)" if len(keys) > limit else ""
            parts.append(f"{label}: {', '.join(keys[:limit])}{more}")
    return "; ".join(parts) or "no difference"
