"""Installing the catalog's packages on a simulated device: their private-data folders, and which
of them user 0 has installed (`pm install-existing` / `pm uninstall --user 0`): every package but
B-MoCA's image's own (catalog.BMOCA_IMAGE) until a command installs it. The image keeps every
APK, so an uninstalled package can come back with its `install-existing`, as on a device whose
system image holds it (PackageManagerShellCommand.runInstallExisting)."""
from __future__ import annotations

import os
from typing import Iterable

from taskkit.device.catalog import ALWAYS_DIRS, BMOCA_IMAGE, CATALOG, Package, get
from taskkit.sim.state import SimState


def _make_dirs(state: SimState, device_dir: str, subdirs: Iterable[str]) -> None:
    """Create `device_dir` and its `subdirs` (those missing: a mkdir is a write the change hooks
    follow), stamping each (and the parent) with the clock."""
    t = state.clock_epoch
    root = state.host_path(device_dir)
    if not root.is_dir():
        root.mkdir(parents=True, exist_ok=True)
    for sub in subdirs:
        host = state.host_path(f"{device_dir}/{sub}")
        if not host.is_dir():
            host.mkdir(exist_ok=True)
        os.utime(host, (t, t))
    os.utime(root, (t, t))
    os.utime(root.parent, (t, t))


def data_layout(package: Package) -> dict[str, tuple[str, ...]]:
    """The private-data folders of one package (device path -> the subfolders made in it)."""
    return {package.data_dir: ALWAYS_DIRS + package.data_dirs,
            package.de_data_dir: ("databases",) if package.name.endswith("deskclock") else ()}


def create_data_dirs(state: SimState, package: Package) -> None:
    """Lay out the (empty) private-data folders of one package; existing files are kept."""
    for device_dir, subdirs in data_layout(package).items():
        _make_dirs(state, device_dir, subdirs)


def install_all(state: SimState) -> None:
    """Create `/data/data/<pkg>/` (and `/data/user_de/0/<pkg>/`) for every catalog package."""
    for package in CATALOG:
        create_data_dirs(state, package)


def uninstalled(state: SimState) -> frozenset[str]:
    """The catalog's packages user 0 has not installed (at first: B-MoCA's image's own)."""
    return frozenset(state.config.get("uninstalled_packages", BMOCA_IMAGE))


def installed(state: SimState, name: str) -> Package | None:
    """The package called `name` if user 0 has it installed, else None."""
    package = get(name)
    return package if package is not None and name not in uninstalled(state) else None


def all_installed(state: SimState) -> list[Package]:
    """The packages user 0 has installed, in catalog order."""
    absent = uninstalled(state)
    return [package for package in CATALOG if package.name not in absent]


def set_installed(state: SimState, name: str, on: bool) -> None:
    """Install `name` for user 0 (from the image) or uninstall it."""
    absent = set(uninstalled(state))
    if on:
        absent.discard(name)
    else:
        absent.add(name)
    state.config["uninstalled_packages"] = sorted(absent)
    state.save()
