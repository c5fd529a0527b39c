"""Open a device from a `--device` spec."""
from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Iterator, Sequence

from taskkit.config import apply as config_apply
from taskkit.device import state as device_state
from taskkit.device.base import Device, DeviceError
from taskkit.errors import TaskkitError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.sim.device import SimDevice

DEVICE_SPECS = (
    "sim (a fresh simulated device), sim:DIR (a simulated device stored in DIR), "
    "adb (the only device of the adb server at --adb_host:--adb_port) or adb:SERIAL"
)


class DeviceSpecError(TaskkitError, ValueError):
    """--device named no device taskkit can open."""


def sim_device(state_dir: "str | os.PathLike[str] | None" = None) -> "SimDevice":
    """A simulated device (fresh in a temp dir, or the one stored in `state_dir`) on which every
    registered app is installed: its first-run databases come from the app models."""
    from taskkit import apps
    from taskkit.sim import gui
    from taskkit.sim.device import SimDevice

    device = SimDevice(state_dir, app_databases=apps.first_run_databases())
    gui.install(device.state)  # its screens: `uiautomator dump`, `screencap`, `input` act on them
    return device


def open_device(spec: str, adb_host: str = "127.0.0.1", adb_port: int = 5037) -> Device:
    """`sim` → a fresh simulator in a temp dir; `sim:DIR` → the simulator stored in DIR;
    `adb` → the only device of the adb server at adb_host:adb_port; `adb:SERIAL` → that device.

    DeviceSpecError (bad input) if the spec names no device the server has; DeviceError (the
    device failed) if the adb server cannot be reached."""
    kind, _, argument = spec.partition(":")
    if kind == "sim":
        from taskkit.sim.device import StateDirError
        from taskkit.sim.scratch import ScratchDirError

        try:
            return sim_device(argument or None)
        except (StateDirError, ScratchDirError) as error:
            raise DeviceSpecError(f"--device {spec}: {error}") from None
    if kind == "adb":
        from taskkit.device.adb import AdbDevice, DeviceSelectionError

        try:
            return AdbDevice(argument or None, host=adb_host, port=adb_port)
        except DeviceSelectionError as error:  # the server has no such device (or several): bad input, exit 2
            raise DeviceSpecError(f"cannot open device {spec!r}: {error}") from error
        except DeviceError as error:  # no adb server there, or it does not answer: the device failed, exit 3
            raise DeviceError(f"cannot open device {spec!r}: {error}") from error
    raise DeviceSpecError(f"unknown device {spec!r}: use {DEVICE_SPECS}")


def ensure_root(device: Device, tasks: Sequence[str]) -> None:
    """Root a device that can be rooted (adb) before `tasks` run; a no-op for the simulator.

    Every task sets the device clock and most read app databases under /data/data, so an adb
    device whose adbd cannot run as root is refused here, naming the tasks.
    """
    ensure = getattr(device, "ensure_root", None)
    if ensure is None:
        return
    try:
        ensure(required=True, tasks=tasks)
    except DeviceError as error:
        raise DeviceSpecError(f"cannot use device {device.serial!r}: {error}") from error


@contextlib.contextmanager
def ready_device(spec: str, adb_host: str, adb_port: int, tasks: Sequence[str]) -> Iterator[Device]:
    """The device `spec` names, rooted where it can be, with any restore point and any device
    config a killed run left behind put back first (a note on stderr); closed afterwards."""
    device = open_device(spec, adb_host=adb_host, adb_port=adb_port)
    try:
        ensure_root(device, tasks)
        for directory in device_state.recover(device):
            print(f"note: finished the restore point {directory} a stopped run left on {device.serial}",
                  file=sys.stderr)
        if config_apply.recover(device):
            print(f"note: put back the device config a stopped run left on {device.serial}", file=sys.stderr)
        yield device
    finally:
        device.close()
