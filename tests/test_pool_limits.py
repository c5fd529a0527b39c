"""`--parallel N` is bounded and stops on a signal (issue 34, item 1).

Workers are min(N, episodes, what memory allows); above `pool.MAX_WORKERS` the run is refused in
one line. SIGTERM or SIGINT stops the run and every worker at any moment of start-up, a worker
dies with its parent, and Ctrl-C (SIGINT to the whole process group) is handled by the parent
alone. Processes are counted from /proc; no assertion is about time.
"""
from __future__ import annotations

import json
import multiprocessing.context
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit import pool, run

MB = 2**20


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a live process, None once it is gone (a zombie counts as gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text[text.rindex(")") + 2:].split()[:2]
    return None if state in "ZX" else (state, int(ppid))


def descendants(root: int) -> set[int]:
    """Every live process below `root` (children, their children, ...)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(stat[1], []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def workers_of(root: int) -> set[int]:
    """The spawned worker processes below `root` (multiprocessing's spawn children)."""
    found = set()
    for pid in descendants(root):
        try:
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:
            continue
    return found


def poll(condition: Callable[[], bool], polls: int = 600) -> bool:
    """Whether `condition` held within `polls` polls (0.1 s apart: a generous bound, not a timing)."""
    for _ in range(polls):
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def start_run(out: Path, *extra: str, combinations: int = 30, **popen) -> subprocess.Popen:
    """The run in the background, its output in files beside `out` (a pipe would be held open by
    any worker that outlives the run, and reading it would wait for that worker)."""
    with open(out.parent / "stdout", "wb") as stdout, open(out.parent / "stderr", "wb") as stderr:
        return subprocess.Popen([sys.executable, "-m", "taskkit.run", "--tasks",
                                 "SystemWifiTurnOn,SystemBluetoothTurnOn", "--n_task_combinations", str(combinations),
                                 "--output_dir", str(out), *extra], stdout=stdout, stderr=stderr, **popen)


def stderr_of(out: Path) -> str:
    return (out.parent / "stderr").read_text(errors="replace")


def running(proc: subprocess.Popen, out: Path) -> None:
    """Fail at once (with the run's stderr) if the run ended before the moment a test waits for."""
    if proc.poll() is not None:
        raise AssertionError(f"the run ended first (exit {proc.returncode}): {stderr_of(out)}")


@given(asked=st.integers(1, pool.MAX_WORKERS), episodes=st.integers(0, 10**7),
       available_mb=st.one_of(st.none(), st.integers(0, 10**6)), per_worker_mb=st.integers(1, 4096))
def test_workers_are_the_least_of_asked_episodes_and_memory(tmp_path_factory, asked, episodes, available_mb,
                                                            per_worker_mb):
    meminfo = tmp_path_factory.mktemp("proc") / "meminfo"
    if available_mb is not None:
        meminfo.write_text(f"MemTotal:       99999999 kB\nMemAvailable:   {available_mb * 1024} kB\n")
    count, reason = pool.worker_count(asked, episodes, per_worker_mb, meminfo=meminfo)
    room = asked if available_mb is None else available_mb // per_worker_mb
    assert count == max(1, min(asked, episodes, room))
    assert (reason is None) == (count == asked)


@pytest.mark.parametrize("extra", [(), ("--executor", "ray")])
def test_parallel_above_the_maximum_is_refused_in_one_line(tmp_path, extra):
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn", "--parallel", "100000",
                           "--output_dir", str(tmp_path / "out"), *extra], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"at most {pool.MAX_WORKERS}" in proc.stderr and "pool.MAX_WORKERS" in proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture
def own_signal_handlers():
    """An in-process run installs SIGINT/SIGTERM handlers: the test process gets its own back."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


def test_a_large_parallel_starts_no_more_workers_than_episodes(tmp_path, monkeypatch, capsys, own_signal_handlers):
    """Two episodes and `--parallel 200`: two workers start (counted at Process.start; a third
    is refused by the counter instead of being started), and one stderr line says so."""
    started = []
    real_start = multiprocessing.context.SpawnProcess.start

    def counted(self):
        started.append(self)
        if len(started) > 2:
            raise AssertionError(f"worker {len(started)} started for 2 episodes")
        return real_start(self)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", counted)
    code = run.run(["taskkit.run", "--tasks", "SystemWifiTurnOn,SystemBluetoothTurnOn", "--parallel", "200",
                    "--output_dir", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert len(started) == 2
    assert "starting 2 worker(s), not 200: the run has 2 episode(s)" in err
    rows = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(row)["instance_id"] for row in rows) == ["SystemBluetoothTurnOn_0", "SystemWifiTurnOn_0"]


def test_workers_are_capped_by_the_memory_they_would_take(tmp_path, monkeypatch, capsys, own_signal_handlers):
    """A per-worker estimate above what the machine has leaves one worker: the run goes on."""
    code = run.run(["taskkit.run", "--tasks", "SystemWifiTurnOn,SystemBluetoothTurnOn", "--parallel", "2",
                    "--worker_memory_mb", str(10**9)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "starting 1 worker(s), not 2: available memory" in err and "--worker_memory_mb" in err


def _row_written(out: Path) -> bool:
    results = out / "results.jsonl"
    return results.exists() and results.read_text().count("\n") >= 1


def stop_at(proc: subprocess.Popen, out: Path, moment: Callable[[], bool], stop: Callable[[], None]) -> str:
    """Wait for `moment` (a worker seen, a row written...), `stop` the run, and assert that the run
    and every process seen below it are gone; the run's stderr. Leftovers are killed."""
    seen: set[int] = set()

    def reached() -> bool:
        running(proc, out)
        seen.update(descendants(proc.pid))
        return moment()

    try:
        assert poll(reached, polls=3000), "the moment never came"
        seen.update(descendants(proc.pid))
        stop()
        assert poll(lambda: proc.poll() is not None and not any(_stat(pid) for pid in seen | {proc.pid}))
        return stderr_of(out)
    finally:
        for pid in seen | {proc.pid}:
            if _stat(pid):
                os.kill(pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize("moment", ["spawning", "running"])
def test_sigterm_stops_the_run_and_every_worker(tmp_path, moment):
    """SIGTERM while the workers are being spawned (the first one seen) or once a row is written:
    the run and all its processes are gone, exit 130, and the rows written are kept whole."""
    out = tmp_path / "out"
    proc = start_run(out, "--parallel", "3")
    err = stop_at(proc, out, lambda: bool(workers_of(proc.pid)) and (moment == "spawning" or _row_written(out)),
                  lambda: proc.send_signal(signal.SIGTERM))
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "Traceback" not in err, err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()] if moment == "running" else []
    assert all(row["error_kind"] != "interrupted" for row in rows)
    assert (out / "manifest.json").exists()


def test_ctrl_c_to_the_process_group_is_handled_by_the_run_alone(tmp_path):
    """SIGINT to the whole group (a terminal's Ctrl-C) during start-up: no worker prints a
    KeyboardInterrupt; the run stops with 130 and takes its workers with it."""
    out = tmp_path / "out"
    proc = start_run(out, "--parallel", "3", start_new_session=True)
    err = stop_at(proc, out, lambda: bool(workers_of(proc.pid)), lambda: os.killpg(proc.pid, signal.SIGINT))
    assert proc.returncode == 130, err
    assert "KeyboardInterrupt" not in err and "Traceback" not in err, err


def test_workers_die_with_their_parent(tmp_path):
    """SIGKILL to the run (no handler can run) with thousands of episodes to go: its workers
    do not go on without it."""
    out = tmp_path / "out"
    proc = start_run(out, "--parallel", "2", combinations=2000)
    workers: set[int] = set()
    try:
        assert poll(lambda: running(proc, out) or _row_written(out), polls=3000), "no row written"
        workers = workers_of(proc.pid)
        assert workers
        proc.kill()
        proc.wait()
        assert poll(lambda: not any(_stat(pid) for pid in workers))
    finally:
        for pid in workers:
            if _stat(pid):
                os.kill(pid, signal.SIGKILL)


class _Results:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel_join_thread(self) -> None:
        self.cancelled = True


class _SignalledWhileReading:
    """A jobs queue whose `get` is interrupted by a stop request halfway through a message, as
    SIGTERM may come while a worker reads one; it records whether the read was left half done."""

    def __init__(self, jobs: "pool._Jobs | None" = None) -> None:
        self.worker: pool._Jobs | None = jobs
        self.whole = False

    def get(self, timeout: float) -> str:
        assert self.worker is not None
        self.worker.stop(signal.SIGTERM)  # the handler runs here, between two reads of the pipe
        self.whole = True  # the rest of the message: read only if the handler let the read go on
        return "job"


def test_a_stop_while_a_job_is_read_waits_for_the_whole_message_then_ends_the_worker() -> None:
    """A stop mid-message would leave the shared queue's pipe mid-message for the other workers."""
    jobs, results = _SignalledWhileReading(), _Results()
    jobs.worker = pool._Jobs(jobs, results)
    with pytest.raises(SystemExit) as ended:
        jobs.worker.next()
    assert jobs.whole and results.cancelled and ended.value.code == 128 + signal.SIGTERM


def test_a_stop_between_jobs_ends_the_worker_at_once() -> None:
    worker = pool._Jobs(_SignalledWhileReading(), _Results())
    with pytest.raises(SystemExit) as ended:
        worker.stop(signal.SIGTERM)
    assert ended.value.code == 128 + signal.SIGTERM


def test_a_stop_while_the_worker_sets_up_ends_it_once_set_up() -> None:
    """Raised inside a C library's callback (SQLite's authorizer, while the device is made), the
    stop's SystemExit would be dropped and surface as that library's error, with a traceback."""
    results, done = _Results(), []
    worker = pool._Jobs(_Silent(empty=0), results)
    with pytest.raises(SystemExit) as ended:
        with worker.stop_deferred():
            worker.stop(signal.SIGTERM)  # the handler, mid-setup: it raises nothing there
            done.append("set up")
    assert done == ["set up"] and results.cancelled and ended.value.code == 128 + signal.SIGTERM
    with pytest.raises(SystemExit):  # and a stop after the block ends the worker at once again
        worker.stop(signal.SIGTERM)


class _Silent:
    """A jobs queue on which no job comes for `empty` waits, then one does."""

    def __init__(self, empty: int) -> None:
        self.empty = empty

    def get(self, timeout: float) -> str:
        if self.empty:
            self.empty -= 1
            raise pool.queue_module.Empty
        return "job"


def test_a_worker_whose_parent_is_gone_ends_at_its_next_wait_for_a_job() -> None:
    """Should the kernel's SIGTERM be lost (raised inside a `__del__`, Python drops it), the worker
    does not wait for jobs forever: no parent, no job."""
    results = _Results()
    worker = pool._Jobs(_Silent(empty=3), results, parent=os.getppid() + 1_000_000)
    with pytest.raises(SystemExit) as ended:
        worker.next()
    assert ended.value.code == 128 + signal.SIGTERM and results.cancelled
    assert pool._Jobs(_Silent(empty=3), _Results(), parent=os.getppid()).next() == "job"
