"""Whole-device state operations built from shell commands: restore points and digests.

A restore point copies app data paths aside on the device (`cp -a`, one round trip) and
records every setting (one round trip); restoring puts both back. A digest summarizes app data,
shared storage and settings so tests can prove that a teardown left nothing behind.
"""
from __future__ import annotations

import dataclasses
import hashlib

from taskkit.device.base import Device
from taskkit.device.quoting import shell_quote

RESTORE_ROOT = "/data/local/tmp/taskkit/restore"
DIGEST_ROOTS = ("/data/data", "/storage/emulated/0")
_MARK = "--taskkit-section--"


@dataclasses.dataclass(frozen=True)
class RestorePoint:
    """Where a device's app data and settings were saved, and what they were."""

    directory: str
    paths: tuple[str, ...]
    packages: tuple[str, ...]
    settings: dict[str, dict[str, str]]


def save_restore_point(device: Device, label: str, paths: tuple[str, ...], packages: tuple[str, ...]) -> RestorePoint:
    """Copy `paths` aside under RESTORE_ROOT/label and record the settings (two round trips)."""
    directory = f"{RESTORE_ROOT}/{label}"
    commands = [f"rm -rf {shell_quote(directory)}", f"mkdir -p {shell_quote(directory)}"]
    for index, path in enumerate(paths):
        commands.append(f"[ -e {shell_quote(path)} ] && cp -a {shell_quote(path)} {shell_quote(f'{directory}/{index}')}")
    device.run("; ".join(commands) + "; true")
    return RestorePoint(directory, tuple(paths), tuple(packages), device.settings.snapshot())


def restore(device: Device, point: RestorePoint) -> None:
    """Put back the paths and settings saved in `point`, then delete the copy."""
    commands = [f"am force-stop {shell_quote(package)}" for package in point.packages]
    for index, path in enumerate(point.paths):
        saved = shell_quote(f"{point.directory}/{index}")
        commands.append(f"rm -rf {shell_quote(path)}")
        commands.append(f"[ -e {saved} ] && cp -a {saved} {shell_quote(path)}")
    commands.append(f"rm -rf {shell_quote(point.directory)}")
    device.run("; ".join(commands))
    device.settings.restore(point.settings)


def state_digest(device: Device, roots: tuple[str, ...] = DIGEST_ROOTS) -> str:
    """A sha256 over every directory, file content and setting under `roots` (one round trip)."""
    quoted = " ".join(shell_quote(root) for root in roots)
    sections = [
        f"find {quoted} -type d",
        f"find {quoted} -type f -exec md5sum {{}} +",
        "settings list system",
        "settings list secure",
        "settings list global",
    ]
    output = device.check(f"; echo {_MARK}; ".join(sections))
    parts = [sorted(part.strip("\n").splitlines()) for part in output.split(_MARK + "\n")]
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()
