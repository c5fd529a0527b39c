"""What the properties of one check share: the device, cached lifecycles, the fresh process.

Several properties judge the same lifecycle (solvable, not trivially solved, clean teardown,
and the initial state that determinism compares), so a `Session` runs it once per (task, seed).
The fresh process that determinism compares with starts once per session; `prefetch` sends it
work ahead, so it computes while this process checks other properties.
"""
from __future__ import annotations

from typing import Any

from taskkit.connect import open_device
from taskkit.env import Env
from taskkit.suite import TaskInstance
from taskkit.testing.episodes import Lifecycle, observe_lifecycle
from taskkit.testing.fresh_process import FreshProcess
from taskkit.testing.nearmiss import NearMissProbe, NearMissRun
from taskkit.testing.simcopies import SimTemplate


class Session:
    """Use as a context manager; `env` None opens a device from `device` (closed at exit)."""

    def __init__(self, env: Env | None = None, device: str = "sim", near_misses: bool = True,
                 device_options: dict[str, Any] | None = None):
        self.device_spec = device
        self.device_options = dict(device_options or {})  # e.g. adb_host/adb_port for open_device
        self.probe_near_misses = near_misses
        self._owned: list[Any] = []
        if env is None:
            env = Env(self._open())
        self.env = env
        self._lifecycles: dict[tuple[Any, int], Lifecycle] = {}
        self._near: dict[tuple[Any, int], NearMissRun] = {}
        self._instances: dict[tuple[Any, int], TaskInstance] = {}
        self._fresh: FreshProcess | None = None
        self._template: SimTemplate | None = None

    def _open(self) -> Any:
        device = open_device(self.device_spec, **self.device_options)
        self._owned.append(device)
        return device

    def lifecycle(self, task_cls: Any, seed: int) -> Lifecycle:
        """The observed lifecycle (with the near-miss mutations riding along, if enabled)."""
        key = (task_cls, seed)
        if key not in self._lifecycles:
            probe = NearMissProbe(seed) if self.probe_near_misses else None
            self._lifecycles[key] = observe_lifecycle(task_cls, seed, self.env, probe=probe)
            if probe is not None:
                self._near[key] = probe.run
        return self._lifecycles[key]

    def instance(self, task_cls: Any, seed: int) -> TaskInstance:
        """Instance 0 of `task_cls` at `seed` for the episodes the checks play: its params drawn once."""
        key = (task_cls, seed)
        if key not in self._instances:
            self._instances[key] = TaskInstance(task_cls, 0, seed)
        return self._instances[key]

    def near_misses(self, task_cls: Any, seed: int) -> NearMissRun:
        key = (task_cls, seed)
        if key not in self._near:
            self._lifecycles.pop(key, None)  # observed without mutations: observe again with them
            self.probe_near_misses = True
            run = self.lifecycle(task_cls, seed)
            if key not in self._near:
                self._near[key] = NearMissRun(seed, error=run.error)
        return self._near[key]

    def near_miss_runs(self, task_cls: Any, seeds: list[int]) -> list[NearMissRun]:
        return [self._near[(task_cls, s)] for s in seeds if (task_cls, s) in self._near]

    @property
    def fresh_devices(self) -> bool:
        """Whether opening the device spec gives a new, untouched device (the plain simulator)."""
        return self.device_spec == "sim"

    def with_fresh_device(self, use: Any) -> Any:
        """`use(device)` on a device opened just for it (closed afterwards)."""
        if self.device_spec == "sim":
            self._template = self._template or SimTemplate()
            device = self._template.new()
        else:
            device = open_device(self.device_spec, **self.device_options)
        try:
            return use(device)
        finally:
            device.close()

    @property
    def fresh_process(self) -> FreshProcess:
        if self._fresh is None:
            self._fresh = FreshProcess(self.device_spec, fresh_devices=self.fresh_devices, options=self.device_options)
        return self._fresh

    def prefetch(self, task_cls: Any, seeds: list[int]) -> None:
        """Ask the fresh process for these fingerprints now (only where it has its own devices)."""
        if self.fresh_devices:
            for seed in seeds:
                self.fresh_process.request(task_cls, seed)

    def close(self) -> None:
        if self._fresh is not None:
            self._fresh.close()
            self._fresh = None
        while self._owned:
            self._owned.pop().close()
        if self._template is not None:
            self._template.close()
            self._template = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
