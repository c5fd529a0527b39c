"""Installing the catalog's packages on a simulated device: their private-data folders."""
from __future__ import annotations

import os
from typing import Iterable

from taskkit.device.catalog import ALWAYS_DIRS, CATALOG, Package
from taskkit.sim.state import SimState


def _make_dirs(state: SimState, device_dir: str, subdirs: Iterable[str]) -> None:
    """Create `device_dir` and its `subdirs`, stamping each (and the parent) with the clock."""
    t = state.clock_epoch
    root = state.host_path(device_dir)
    root.mkdir(parents=True, exist_ok=True)
    for sub in subdirs:
        host = state.host_path(f"{device_dir}/{sub}")
        host.mkdir(exist_ok=True)
        os.utime(host, (t, t))
    os.utime(root, (t, t))
    os.utime(root.parent, (t, t))


def create_data_dirs(state: SimState, package: Package) -> None:
    """Lay out the (empty) private-data folders of one package; existing files are kept."""
    _make_dirs(state, package.data_dir, ALWAYS_DIRS + package.data_dirs)
    _make_dirs(state, package.de_data_dir, ("databases",) if package.name.endswith("deskclock") else ())


def install_all(state: SimState) -> None:
    """Create `/data/data/<pkg>/` (and `/data/user_de/0/<pkg>/`) for every catalog package."""
    for package in CATALOG:
        create_data_dirs(state, package)
