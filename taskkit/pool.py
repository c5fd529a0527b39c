"""A device pool: episodes spread over worker processes, one device each (`--parallel N`).

Each worker is a fresh Python process (multiprocessing's `spawn`) that lists the same tasks
(built-ins, `--task_module`, `--spec_dir`), opens its own device — a new simulated device, or
the adb device it is given — builds the agent from the same `--agent` spec, and runs the
episodes it takes from a shared queue. A worker compiles only the specs of the episodes it
takes and draws only their params (the parent draws none), so start-up is not paid twice. An
episode's params, goal and score depend only on its instance (seed, task, index), never on which
worker ran it, so the set of result rows equals a serial run's. Rows come back to the parent as
they finish; the parent writes them.

Bounds: at most `MAX_WORKERS` workers, and no more than the run's episodes or than the available
memory holds at `WORKER_MEMORY_MB` each (`worker_count`). The parent hands out a few jobs per
worker at a time, so a run of millions of episodes never queues them all. A stop request (the
run's SIGINT/SIGTERM handler sets `runner.STOP`) ends the pool within `POLL_S` at any moment,
start-up included: the workers are sent SIGTERM (each closes its device), and any still alive
after `STOP_GRACE_S` is killed. A worker ignores SIGINT (a terminal's Ctrl-C is the parent's to
handle, once) and is sent SIGTERM by the kernel when its parent dies (Linux's PR_SET_PDEATHSIG);
one that finds its parent gone while it waits for a job ends too.
"""
from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import multiprocessing
import os
import queue as queue_module
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from taskkit.agents.base import StopRun
from taskkit.runner import STOP, EpisodeOptions, EpisodeResult

_DONE = "done"
MAX_WORKERS = 256
"""The most workers (processes, or Ray actors) one run may have; `--parallel` above it is refused."""
WORKER_MEMORY_MB = 200
"""The memory one worker is counted to take (a worker with a simulated device peaks near 140 MiB);
`--worker_memory_mb` changes it."""
MEMINFO = Path("/proc/meminfo")
"""Where the kernel says how much memory new processes can have (MemAvailable)."""
POLL_S = 0.2
"""How often the parent looks at the stop request while it waits for rows."""
STOP_GRACE_S = 0.5
"""How long stopped workers get to close their devices before they are killed."""
END_GRACE_S = 10.0
"""How long workers that ran out of jobs get to close their devices before they are stopped."""
JOBS_AHEAD = 2
"""Jobs queued per worker beyond the ones being played (the rest stay unbuilt in the parent)."""
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def available_mb(meminfo: Path = MEMINFO) -> int | None:
    """MemAvailable of `meminfo` in MiB (Linux's estimate of what new processes can take without
    swapping), or None where it cannot be read."""
    try:
        for line in meminfo.read_text(encoding="ascii").splitlines():
            key, _, value = line.partition(":")
            if key == "MemAvailable":
                return int(value.split()[0]) // 1024  # the kernel counts in kB (KiB)
    except (OSError, ValueError, IndexError):
        return None
    return None


def worker_count(asked: int, episodes: int, per_worker_mb: int = WORKER_MEMORY_MB,
                 meminfo: Path | None = MEMINFO) -> tuple[int, str | None]:
    """How many of `asked` workers to start: no more than `episodes` nor than the memory `meminfo`
    says is available holds at `per_worker_mb` each (None: workers elsewhere, a Ray cluster), and
    at least one; with why, when fewer than asked."""
    available = available_mb(meminfo) if meminfo is not None else None
    bounds: list[tuple[int, str | None]] = [(asked, None), (episodes, f"the run has {episodes} episode(s)")]
    if available is not None:
        room = available // max(per_worker_mb, 1)
        bounds.append((room, f"available memory ({available} MiB) holds {room} worker(s) at --worker_memory_mb "
                             f"{per_worker_mb}"))
    count, reason = min(bounds, key=lambda bound: bound[0])
    count = max(count, 1)
    return count, (reason if count < asked else None)


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


def jobs_of(instances: Iterable[Any]) -> Iterator[tuple[str, int, dict[str, Any] | None]]:
    """What a worker needs to rebuild each instance (task name, index, device config), made as asked for."""
    return ((instance.task.name, instance.index, instance.device_config) for instance in instances)


def _die_with(parent: int) -> None:
    """Have the kernel send this process SIGTERM when its parent dies (Linux's PR_SET_PDEATHSIG;
    nothing elsewhere); exit now if the parent is already gone."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if os.getppid() != parent:
        raise SystemExit(128 + signal.SIGTERM)


class _Jobs:
    """A worker's side of the jobs queue, and what a stop request does to it: one that comes while
    a job is read, or while the worker sets up, takes effect once that is done (`stop_deferred`);
    any other time it ends the worker at once."""

    def __init__(self, jobs: Any, results: Any, parent: int | None = None) -> None:
        self.jobs, self.results = jobs, results
        self.parent = parent  # the parent's pid: gone, no job comes any more
        self._deferred: int | None = None  # None: no stop deferred; 0: deferring; a signal: asked to stop meanwhile

    def stop(self, signum: int, frame: Any = None) -> None:
        """The SIGTERM handler: the parent stops the run (close the device and go)."""
        self.results.cancel_join_thread()  # nobody reads what is left unsent
        if self._deferred is not None:
            self._deferred = signum
            return
        raise SystemExit(128 + signum)

    @contextlib.contextmanager
    def stop_deferred(self) -> Iterator[None]:
        """A stop requested in the block ends the worker when the block ends. Reading a job: no
        other worker may find the queue's pipe (theirs too) mid-message. Setting up: raised
        inside a C library's callback (SQLite's authorizer, while the device is made), the
        SystemExit would be dropped and surface as that library's error."""
        self._deferred = 0
        try:
            yield
        finally:
            signum, self._deferred = self._deferred, None
            if signum:
                raise SystemExit(128 + signum)

    def next(self) -> Any:
        """The next job (None: the end mark). A worker whose parent is gone ends at its next wait
        for a job, should the kernel's SIGTERM have been lost (Python drops an exception that a
        signal handler raises inside a `__del__` or a finalizer)."""
        while True:
            with self.stop_deferred():
                try:
                    return self.jobs.get(timeout=POLL_S)
                except queue_module.Empty:
                    if self.parent is not None and os.getppid() != self.parent:
                        self.results.cancel_join_thread()
                        raise SystemExit(128 + signal.SIGTERM) from None


def _worker(setup: WorkerSetup, device_spec: str, adb: tuple[str, int], jobs: Any, results: Any, parent: int) -> None:
    """A worker process: play the jobs of `jobs` until its end mark, putting each row on `results`."""
    queue = _Jobs(jobs, results, parent)
    signal.signal(signal.SIGTERM, queue.stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; one held since spawn is dropped
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with(parent)
    worker: Worker | None = None
    try:
        try:
            with queue.stop_deferred():  # (a stop meanwhile ends it once set up: closed below)
                # the parent listed the same tasks and checked the agent: this process lists and loads them again
                worker = Worker(setup, device_spec, adb)
            while (job := queue.next()) is not None:
                results.put(worker.run(job))
        except StopRun as error:  # the agent cannot go on: the parent ends the run with it
            results.put(error)
        finally:  # closing already: a stop request has nothing left to cut short (the parent kills after its grace)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if worker is not None:
                worker.close()
    finally:
        results.put(_DONE)


def _start(process: Any) -> None:
    """Start `process` with SIGINT blocked: it keeps the mask across exec, so a Ctrl-C while it
    imports waits (and is then ignored, see `_worker`) instead of printing a traceback; this
    process takes any such signal once the mask is back."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _end(workers: list[Any], stopping: bool) -> None:
    """Wait for `workers` to exit (`END_GRACE_S`), or, when `stopping`, send them SIGTERM first
    and wait `STOP_GRACE_S`; kill whichever is still alive."""
    if stopping:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
    deadline = time.monotonic() + (STOP_GRACE_S if stopping else END_GRACE_S)
    for worker in workers:
        worker.join(max(deadline - time.monotonic(), 0))
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join()


def _check_stop(stop: threading.Event) -> None:
    if stop.is_set():
        raise KeyboardInterrupt("stop requested")


class _Feed:
    """The jobs queue, topped up from `pending` as rows come back (so it never holds more than a
    few jobs per worker); one end mark per worker once the jobs run out."""

    def __init__(self, jobs: Any, pending: Iterator[Any], workers: int):
        self.jobs, self.pending, self.workers, self.ended = jobs, pending, workers, False

    def put(self, count: int) -> None:
        for _ in range(count):
            if self.ended:
                return
            job = next(self.pending, None)
            if job is None:
                for _ in range(self.workers):
                    self.jobs.put(None)
                self.ended = True
                return
            self.jobs.put(job)


def run_parallel(instances: Iterable[Any], setup: WorkerSetup, device_specs: Sequence[str], adb: tuple[str, int],
                 on_result: Callable[[EpisodeResult], None], stop: threading.Event = STOP) -> list[EpisodeResult]:
    """Run `instances` on one worker per entry of `device_specs`; hand each row to `on_result`.

    Raises KeyboardInterrupt once `stop` is set, after ending every worker."""
    context = multiprocessing.get_context("spawn")
    jobs, results = context.Queue(), context.Queue()
    workers: list[Any] = []
    rows: list[EpisodeResult] = []
    stopping = True
    try:
        for spec in device_specs:
            _check_stop(stop)
            worker = context.Process(target=_worker, args=(setup, spec, adb, jobs, results, os.getpid()), daemon=True)
            _start(worker)
            workers.append(worker)
        feed = _Feed(jobs, jobs_of(instances), len(workers))
        feed.put((JOBS_AHEAD + 1) * len(workers))
        running = len(workers)
        while running:
            _check_stop(stop)
            try:
                item = results.get(timeout=POLL_S)
            except queue_module.Empty:
                if not any(worker.is_alive() for worker in workers):
                    break  # every worker is gone (a crash): what came back is all there is
                continue
            if item == _DONE:
                running -= 1
                continue
            if isinstance(item, StopRun):
                raise item
            feed.put(1)
            result = EpisodeResult(**item)
            on_result(result)
            rows.append(result)
        stopping = False
    finally:
        jobs.cancel_join_thread()  # jobs no worker took are dropped with the run
        _end(workers, stopping)
    return rows
