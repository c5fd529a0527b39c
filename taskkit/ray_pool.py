"""The device pool on a Ray cluster (`--executor ray`): one actor per device.

Each actor is a `pool.Worker` — the run's tasks and agent rebuilt in the actor's process, its
own device opened there (a fresh simulated device, or the adb device it is given; the adb
server address must be reachable from the node the actor lands on). The driver keeps every
actor busy with one episode at a time and hands the next job to whichever finishes first, so
rows come back in completion order; their set equals a serial run's. Without `--ray_address`
a local Ray instance is started for the run and stopped after it. Ray is an optional extra
(`pip install 'taskkit[ray]'`).
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Iterable, Sequence

from taskkit.errors import TaskkitError
from taskkit.pool import POLL_S, Worker, WorkerSetup, jobs_of
from taskkit.runner import STOP, EpisodeResult

INSTALL = "pip install 'taskkit[ray]'"


class RayMissing(TaskkitError, RuntimeError):
    """Ray is not installed: the message says how to install it."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayMissing(f"--executor ray needs Ray, an optional extra: {INSTALL}") from None
    return ray


def check_installed() -> None:
    """Raise RayMissing (saying how to install Ray) when it is not importable."""
    _ray()


def run_ray(instances: Iterable[Any], setup: WorkerSetup, device_specs: Sequence[str], adb: tuple[str, int],
            on_result: Callable[[EpisodeResult], None], address: str | None = None,
            stop: threading.Event = STOP) -> list[EpisodeResult]:
    """Run `instances` on one Ray actor per entry of `device_specs`; hand each row to `on_result`.

    Raises KeyboardInterrupt once `stop` is set (looked at every `pool.POLL_S`), after ending
    the actors: a local Ray instance started here is shut down, a cluster's actors are killed."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        local = {"num_cpus": max(len(device_specs), os.cpu_count() or 1), "include_dashboard": False}
        ray.init(address=address, log_to_driver=False, **({} if address else local))
    actors: list[Any] = []
    try:
        actor = ray.remote(num_cpus=1)(Worker)
        actors = [actor.remote(setup, spec, adb) for spec in device_specs]
        pending = jobs_of(instances)
        running: dict[Any, Any] = {}
        for worker in actors:
            if (job := next(pending, None)) is not None:
                running[worker.run.remote(job)] = worker
        rows: list[EpisodeResult] = []
        while running:
            if stop.is_set():
                raise KeyboardInterrupt("stop requested")
            done, _ = ray.wait(list(running), num_returns=1, timeout=POLL_S)
            if not done:
                continue
            worker = running.pop(done[0])
            result = EpisodeResult(**ray.get(done[0]))
            on_result(result)
            rows.append(result)
            if (job := next(pending, None)) is not None:
                running[worker.run.remote(job)] = worker
        ray.get([worker.close.remote() for worker in actors])
        actors = []
        return rows
    finally:
        if started_here:
            ray.shutdown()
        else:
            for worker in actors:
                ray.kill(worker)
