"""A device pool: episodes spread over worker processes, one device each (`--parallel N`).

Each worker is a fresh Python process (multiprocessing's `spawn`) that lists the same tasks
(built-ins, `--task_module`, `--spec_dir`), opens its own device — a new simulated device, or
the adb device it is given — builds the agent from the same `--agent` spec, and runs the
episodes it takes from a shared queue. A worker compiles only the specs of the episodes it
takes and draws only their params (the parent draws none), so start-up is not paid twice. An
episode's params, goal and score depend only on its instance (seed, task, index), never on which
worker ran it, so the set of result rows equals a serial run's. Rows come back to the parent as
they finish; the parent writes them.
"""
from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import queue as queue_module
from typing import Any, Callable, Sequence

from taskkit.agents.base import StopRun
from taskkit.runner import EpisodeOptions, EpisodeResult

_DONE = "done"


@dataclasses.dataclass(frozen=True)
class WorkerSetup:
    """Everything a worker needs to rebuild the run in its own process."""

    task_modules: tuple[str, ...]
    spec_dirs: tuple[str, ...]
    replace_tasks: bool
    agent: str
    agent_options: dict[str, Any]
    run_seed: int
    output_dir: str | None
    save_screenshots: bool
    config_axis: bool = False
    fixed_task_seed: bool = False
    android_world: str | None = None  # an AndroidWorld checkout whose own tasks the run takes
    options: EpisodeOptions = EpisodeOptions()  # how each episode is judged (taskkit.runner)


class Worker:
    """One device's share of a run: the run's tasks and agent rebuilt in this process, the device
    opened (and its config switched per episode); `run(job)` plays one episode and returns its row.

    Both executors use it: the local pool's worker processes and the Ray executor's actors.
    """

    def __init__(self, setup: WorkerSetup, device_spec: str, adb: tuple[str, int]):
        from taskkit import agents, connect, loading, registry
        from taskkit.env import Env

        self.setup = setup
        loading.load_tasks(setup.task_modules, setup.spec_dirs, setup.replace_tasks, setup.android_world)
        self.agent = agents.load(setup.agent, **setup.agent_options)
        self._held = contextlib.ExitStack()
        self.env = Env(self._held.enter_context(connect.ready_device(device_spec, adb[0], adb[1], registry.names())))
        self._applied: dict[str, Any] | None = None
        self._previous: Any = None

    def run(self, job: tuple[str, int, dict[str, Any] | None]) -> dict[str, Any]:
        from taskkit import registry, suite
        from taskkit.config import DeviceConfig, apply as config_apply
        from taskkit.runner import run_episode

        name, index, device_config = job
        if device_config != self._applied:  # this worker's device takes the episode's config
            self._restore_config()
            device = self.env.device
            self._previous = config_apply.apply(device, DeviceConfig.from_json(device_config)) if device_config else None
            self._applied = device_config
        setup = self.setup
        instance = suite.instantiate(registry.get(name), setup.run_seed, index, device_config, setup.config_axis,
                                     setup.fixed_task_seed)
        return run_episode(self.env, instance, self.agent, setup.run_seed, setup.output_dir, setup.save_screenshots,
                           setup.options).to_json()

    def _restore_config(self) -> None:
        from taskkit.config import apply as config_apply

        if self._previous is not None:
            previous, self._previous = self._previous, None
            config_apply.restore(self.env.device, previous)

    def close(self) -> None:
        """Put the device's own config back and close it."""
        try:
            self._restore_config()
        finally:
            self._held.close()


def jobs_of(instances: Sequence[Any]) -> list[tuple[str, int, dict[str, Any] | None]]:
    """What a worker needs to rebuild each instance: task name, index, device config."""
    return [(instance.task.name, instance.index, instance.device_config) for instance in instances]


def _worker(setup: WorkerSetup, device_spec: str, adb: tuple[str, int], jobs: Any, results: Any) -> None:
    try:  # the parent listed the same tasks and checked the agent: this process lists and loads them again
        worker = Worker(setup, device_spec, adb)
        try:
            while (job := jobs.get()) is not None:
                results.put(worker.run(job))
        except StopRun as error:  # the agent cannot go on: the parent ends the run with it
            results.put(error)
        finally:
            worker.close()
    finally:
        results.put(_DONE)


def run_parallel(instances: Sequence[Any], setup: WorkerSetup, device_specs: Sequence[str], adb: tuple[str, int],
                 on_result: Callable[[EpisodeResult], None]) -> list[EpisodeResult]:
    """Run `instances` on one worker per entry of `device_specs`; hand each row to `on_result`."""
    context = multiprocessing.get_context("spawn")
    jobs, results = context.Queue(), context.Queue()
    for job in jobs_of(instances):
        jobs.put(job)
    for _ in device_specs:
        jobs.put(None)
    workers = [context.Process(target=_worker, args=(setup, spec, adb, jobs, results), daemon=True)
               for spec in device_specs]
    for worker in workers:
        worker.start()
    rows: list[EpisodeResult] = []
    running = len(workers)
    try:
        while running:
            try:
                item = results.get(timeout=1.0)
            except queue_module.Empty:
                if not any(worker.is_alive() for worker in workers):
                    break  # every worker is gone (a crash): what came back is all there is
                continue
            if item == _DONE:
                running -= 1
                continue
            if isinstance(item, StopRun):
                raise item
            result = EpisodeResult(**item)
            on_result(result)
            rows.append(result)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join(timeout=10)
    return rows
