"""Open a device from a `--device` spec."""
from __future__ import annotations

from taskkit.device.base import Device

DEVICE_SPECS = "sim (a fresh simulated device) or sim:DIR (a simulated device stored in DIR)"


class DeviceSpecError(ValueError):
    """--device named no device taskkit can open."""


def open_device(spec: str) -> Device:
    """`sim` → a fresh simulator in a temp dir; `sim:DIR` → the simulator stored in DIR."""
    kind, _, argument = spec.partition(":")
    if kind == "sim":
        from taskkit.sim.device import SimDevice

        return SimDevice(argument or None)
    raise DeviceSpecError(f"unknown device {spec!r}: use {DEVICE_SPECS}")
