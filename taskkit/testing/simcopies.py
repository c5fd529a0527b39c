"""Fresh simulated devices, fast: build one pristine image, then copy its directory per device.

Building an image runs every first-boot step (databases, settings, packages); copying the
finished directory gives the same device (the same `state_digest`) in a fraction of the time.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from taskkit import apps
from taskkit.sim.device import SimDevice


class _CopiedSim(SimDevice):
    """A simulated device in a copied directory, deleted with it on `close`."""

    def close(self) -> None:
        super().close()
        shutil.rmtree(self.state.root, ignore_errors=True)


class SimTemplate:
    """`new()` gives a fresh simulated device; `close()` deletes the template."""

    def __init__(self) -> None:
        self._root = Path(tempfile.mkdtemp(prefix="taskkit-simtemplate-"))
        # An explicit directory: kept by close(). Every registered app's databases are in it.
        SimDevice(self._root / "image", app_databases=apps.first_run_databases()).close()

    def new(self) -> SimDevice:
        target = Path(tempfile.mkdtemp(prefix="taskkit-sim-", dir=self._root)) / "device"
        shutil.copytree(self._root / "image", target, symlinks=True)
        return _CopiedSim(target)

    def close(self) -> None:
        shutil.rmtree(self._root, ignore_errors=True)
