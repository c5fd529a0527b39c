"""Bounded concurrency for the served device: a fixed-size worker pool and a timer heap.

The adbd server (`taskkit/sim/adbd.py`) runs every socket in one I/O thread; what may take long
(a stream's service: a shell command, a file transfer) runs here. A `TaskQueue` holds one
stream's tasks, run in order and never two at once; a `WorkerPool` runs the queues that have work
on at most `size` threads, started as work arrives, so a server's thread count is bounded
whatever its clients do: more busy streams than workers wait their turn. `Timers` runs callbacks
at given times in the thread that polls it (the I/O thread), instead of one thread per timer.
"""
from __future__ import annotations

import collections
import heapq
import itertools
import logging
import threading
import time
from typing import Callable

_log = logging.getLogger(__name__)
Task = tuple[Callable[..., None], tuple[object, ...]]


class TaskQueue:
    """One stream's tasks: run by `pool` in submission order, one at a time."""

    def __init__(self, pool: "WorkerPool"):
        self._pool = pool
        self._tasks: collections.deque[Task] = collections.deque()
        self._scheduled = False  # in the pool's ready queue or being run

    def submit(self, func: Callable[..., None], *args: object) -> None:
        """Run `func(*args)` after the tasks submitted before it."""
        self._pool.submit(self, (func, args))

    def discard(self) -> None:
        """Drop the tasks not started yet."""
        self._pool.discard(self)


class WorkerPool:
    """At most `size` threads running the tasks of `TaskQueue`s (`run` calls each task)."""

    def __init__(self, size: int, name: str, run: Callable[[Callable[..., None], tuple[object, ...]], None]):
        if size < 1:
            raise ValueError(f"a worker pool needs at least one thread, not {size}")
        self.size = size
        self.name = name
        self._run = run
        self._cond = threading.Condition()
        self._ready: collections.deque[TaskQueue] = collections.deque()
        self._threads = 0
        self._idle = 0
        self._stopped = False

    @property
    def threads(self) -> int:
        """Worker threads alive now (at most `size`)."""
        with self._cond:
            return self._threads

    def queue(self) -> TaskQueue:
        return TaskQueue(self)

    def submit(self, queue: TaskQueue, task: Task) -> None:
        with self._cond:
            if self._stopped:
                return
            queue._tasks.append(task)  # noqa: SLF001 (the queue's owner)
            if queue._scheduled:  # noqa: SLF001
                return
            queue._scheduled = True  # noqa: SLF001
            self._ready.append(queue)
            if self._idle:
                self._cond.notify()
            elif self._threads < self.size:
                self._start()

    def discard(self, queue: TaskQueue) -> None:
        with self._cond:
            queue._tasks.clear()  # noqa: SLF001

    def stop(self) -> None:
        """Run nothing more; idle workers exit, busy ones after their task."""
        with self._cond:
            self._stopped = True
            self._ready.clear()
            self._cond.notify_all()

    def _start(self) -> None:
        try:
            threading.Thread(target=self._work, name=f"{self.name}-{self._threads}", daemon=True).start()
        except RuntimeError:  # the host is out of threads: the work waits for a running worker
            _log.warning("%s: cannot start a worker thread; %d running", self.name, self._threads)
            return
        self._threads += 1

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._ready and not self._stopped:
                    self._idle += 1
                    self._cond.wait()
                    self._idle -= 1
                if self._stopped:
                    self._threads -= 1
                    return
                queue = self._ready.popleft()
                if not queue._tasks:  # noqa: SLF001 (discarded meanwhile)
                    queue._scheduled = False  # noqa: SLF001
                    continue
                func, args = queue._tasks.popleft()  # noqa: SLF001
            try:
                self._run(func, args)
            except BaseException:  # a worker never dies of its task
                _log.exception("%s: task failed", self.name)
            with self._cond:
                if queue._tasks and not self._stopped:  # noqa: SLF001
                    self._ready.append(queue)  # behind the others: a busy stream cannot starve them
                else:
                    queue._scheduled = False  # noqa: SLF001


class Timer:
    """A pending `Timers.call_later` callback."""

    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], None]):
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class Timers:
    """Callbacks due at given times, run by whoever calls `run_due` (thread-safe to add)."""

    def __init__(self, wake: Callable[[], None]):
        self._wake = wake  # tells the polling thread that the next deadline may be sooner
        self._heap: list[tuple[float, int, Timer]] = []
        self._lock = threading.Lock()
        self._seq = itertools.count()

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(time.monotonic() + seconds, callback)
        with self._lock:
            heapq.heappush(self._heap, (timer.when, next(self._seq), timer))
        self._wake()
        return timer

    def timeout(self) -> float | None:
        """Seconds until the next callback is due (None: no callback pending)."""
        with self._lock:
            while self._heap and self._heap[0][2].cancelled:
                heapq.heappop(self._heap)
            return max(0.0, self._heap[0][0] - time.monotonic()) if self._heap else None

    def run_due(self) -> None:
        now = time.monotonic()
        while True:
            with self._lock:
                if not self._heap or self._heap[0][0] > now:
                    return
                _, _, timer = heapq.heappop(self._heap)
            if not timer.cancelled:
                try:
                    timer.callback()
                except Exception:
                    _log.exception("timer callback failed")
