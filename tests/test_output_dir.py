"""Output directories (taskkit.outdir): locked while a command writes them, never written
through a symbolic link, refused when they hold files taskkit did not write, and a full disk is
one line and exit 3 with no torn row and no temporary file (issue #34 items 4, 9, 10, 12).

Every command that writes an output directory is covered: taskkit.run (--output_dir),
taskkit.demos (--output_dir), taskkit.report (OUT_DIR) and taskkit.static_eval (--output FILE).
Runs go in-process where nothing but the result is measured (fast), and in a child process
where the child's exit, its lock or its disk matter.
"""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from taskkit import cli, report_html, run
from taskkit.demos import __main__ as demos_main
from taskkit.static_eval import __main__ as static_eval_main

TASK, INSTANCE = "SystemWifiTurnOn", "SystemWifiTurnOn_0"
RUN_ARGS = ("--tasks", TASK, "--agent", "noop", "--save_screenshots")
VICTIM = b"the victim's own bytes\n"
ENOSPC_TEXT = os.strerror(errno.ENOSPC)  # "No space left on device"


def in_process(main: Callable[[list[str]], int], argv: list[str]) -> tuple[int, str]:
    """Run a CLI's entry in this process: its exit code and its stderr (progress bars excluded:
    they write to the stderr the process started with)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def taskkit_run(out: Path, *extra: str) -> tuple[int, str]:
    return in_process(run.run, ["taskkit.run", *RUN_ARGS, *extra, "--output_dir", str(out)])


def taskkit_demos(out: Path) -> tuple[int, str]:
    return in_process(lambda argv: cli.run_main(demos_main.PROG, demos_main.FLAGS, demos_main.main, argv),
                      ["taskkit.demos", "--tasks", TASK, "--output_dir", str(out)])


def taskkit_report(out: Path) -> tuple[int, str]:
    return in_process(report_html.run, ["taskkit.report", str(out)])


def static_eval(dataset: Path, output: Path) -> tuple[int, str]:
    return in_process(lambda argv: cli.run_main(static_eval_main.PROG, static_eval_main.FLAGS, static_eval_main.main,
                                                argv),
                      ["taskkit.static_eval", "--dataset", str(dataset), "--agent", "random", "--output", str(output)])


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("[")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def snapshot(path: Path) -> object:
    """What a victim is: a file's bytes, a directory's files and bytes, or None (nothing there)."""
    if path.is_symlink() or not path.exists():
        return None if not path.is_symlink() else ("link", os.readlink(path))
    if path.is_file():
        return path.read_bytes()
    return sorted((str(p.relative_to(path)), p.read_bytes() if p.is_file() else None) for p in path.rglob("*"))


def plant_link(link: Path, kind: str, outside: Path) -> Path:
    """Put a symbolic link at `link` (replacing what is there) to a victim outside the output
    directory: a file, a directory holding a file, or a path where nothing is (dangling)."""
    victim = outside / f"victim-{kind}"
    if kind == "file":
        victim.write_bytes(VICTIM)
    elif kind == "directory":
        victim.mkdir()
        (victim / "inside").write_bytes(VICTIM)
    if link.is_dir() and not link.is_symlink():
        shutil.rmtree(link)
    elif link.exists() or link.is_symlink():
        link.unlink()
    link.symlink_to(victim)
    return victim


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One finished run (with a trajectory and a screenshot), one dataset and one static_eval
    output, copied afresh by each example."""
    root = tmp_path_factory.mktemp("templates")
    code, stderr = taskkit_run(root / "run")
    assert code == 0, stderr
    code, stderr = taskkit_demos(root / "dataset")
    assert code == 0, stderr
    code, stderr = static_eval(root / "dataset", root / "figures.json")
    assert code == 0, stderr
    assert (root / "run" / "trajectories" / INSTANCE / "step_000.png").is_file()
    return {"run": root / "run", "dataset": root / "dataset", "figures": root / "figures.json"}


# (command, the name it writes, what it does with a link there). "refused": the command stops
# with one line, exit 2, before it writes (the files it reads as its state or its marker, the
# lock, the directories it writes into); "replaced": the link is replaced by the file (files it
# rewrites whole). Either way the link's target is left byte-identical.
WRITTEN = [
    ("run", "manifest.json", "refused"), ("run", "results.jsonl", "refused"), ("run", ".taskkit.lock", "refused"),
    ("run", "trajectories", "refused"), ("run", "summary.json", "replaced"), ("run", "report.html", "replaced"),
    ("run", f"trajectories/{INSTANCE}.jsonl", "replaced"), ("run", f"trajectories/{INSTANCE}", "replaced"),
    ("run", f"trajectories/{INSTANCE}/step_000.png", "replaced"),
    ("demos", "dataset.json", "refused"), ("demos", "run", "refused"), ("demos", "hf", "refused"),
    ("demos", "steps.jsonl", "replaced"), ("demos", "episodes.jsonl", "replaced"),
    ("demos", ".taskkit.lock", "refused"),
    ("report", "report.html", "replaced"), ("report", "manifest.json", "refused"),
    ("static_eval", "figures.json", "refused"),
]


@pytest.mark.parametrize("kind", ["file", "directory", "dangling"])
@pytest.mark.parametrize("case", WRITTEN, ids=lambda case: f"{case[0]}:{case[1]}")
def test_a_link_planted_where_taskkit_writes_leaves_its_target_untouched(templates, tmp_path_factory, case, kind):
    """Every file taskkit writes, with every kind of link planted there (not a sample)."""
    command, name, rule = case
    work = tmp_path_factory.mktemp("planted")
    outside = work / "outside"
    outside.mkdir()
    if command == "static_eval":
        out = work / "figures.json"
        victim = plant_link(out, kind, outside)
        before = snapshot(victim)
        code, stderr = static_eval(templates["dataset"], out)
    else:
        out = work / "out"
        shutil.copytree(templates["dataset" if command == "demos" else "run"], out, symlinks=True)
        if command in ("run", "demos"):  # the episode runs again: every file of the run is written anew
            (out / ("run/results.jsonl" if command == "demos" else "results.jsonl")).write_text("")
        victim = plant_link(out / name, kind, outside)
        before = snapshot(victim)
        code, stderr = {"run": taskkit_run, "demos": taskkit_demos, "report": taskkit_report}[command](out)
    assert snapshot(victim) == before, f"{name}: the link's target changed"
    if rule == "refused":
        assert code == 2, (code, stderr)
        one_error_line(stderr)
    else:
        assert code == 0, stderr
        assert not (out / name).is_symlink() and (out / name).exists()


@pytest.mark.parametrize("foreign", ["results.jsonl", "summary.json", "report.html", "notes.txt", "trajectories"])
def test_a_run_refuses_a_directory_it_did_not_write_and_changes_nothing(tmp_path, foreign):
    out = tmp_path / "out"
    out.mkdir()
    made = out / foreign
    if foreign == "trajectories":
        made.mkdir()
        (made / "mine.jsonl").write_text("not taskkit's\n")
    else:
        made.write_text('{"instance_id": "SystemWifiTurnOn_0", "mine": true}\n')
    before = snapshot(out)
    code, stderr = taskkit_run(out)
    assert code == 2
    line = one_error_line(stderr)
    assert f"--output_dir {out}" in line and "not empty and not a taskkit.run output" in line
    assert snapshot(out) == before


@given(name=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"), min_size=1, max_size=20)
       .filter(lambda n: n not in (".", "..", ".taskkit.lock", "manifest.json")),
       content=st.binary(max_size=64))
@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_foreign_entry_makes_a_directory_not_taskkits(tmp_path_factory, name, content):
    out = tmp_path_factory.mktemp("foreign")
    try:
        (out / name).write_bytes(content)
    except OSError:  # a name this file system cannot hold (too long in bytes)
        return
    code, stderr = taskkit_run(out)
    assert code == 2 and "not a taskkit.run output" in one_error_line(stderr)
    assert sorted(p.name for p in out.iterdir()) == [name] and (out / name).read_bytes() == content


def test_a_foreign_manifest_is_not_taskkits(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text('{"name": "my-package", "version": "1.0.0"}\n')
    (out / "results.jsonl").write_text("mine\n")
    before = snapshot(out)
    code, stderr = taskkit_run(out)
    assert code == 2 and "manifest.json is not taskkit's" in one_error_line(stderr)
    assert snapshot(out) == before


@pytest.mark.parametrize("foreign", ["steps.jsonl", "dataset.json", "episodes.jsonl"])
def test_demos_refuses_a_directory_that_is_not_a_dataset(tmp_path, foreign):
    out = tmp_path / "dataset"
    out.mkdir()
    (out / foreign).write_text('{"format": 1}\n')  # no taskkit_version: not a dataset's
    before = snapshot(out)
    code, stderr = taskkit_demos(out)
    assert code == 2 and f"--output_dir {out}" in one_error_line(stderr)
    assert snapshot(out) == before


def test_report_writes_only_into_a_run_directory(templates, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(templates["run"] / "results.jsonl", out / "results.jsonl")  # rows, but no manifest
    code, stderr = taskkit_report(out)
    assert code == 2 and "not a taskkit.run output (it has no manifest.json)" in one_error_line(stderr)
    assert sorted(p.name for p in out.iterdir()) == ["results.jsonl"]


def test_static_eval_replaces_its_own_output_only(templates, tmp_path):
    figures = tmp_path / "figures.json"
    figures.write_text('{"overall": "mine"}\n')
    code, stderr = static_eval(templates["dataset"], figures)
    assert code == 2 and "exists and is not this command's output" in one_error_line(stderr)
    assert figures.read_text() == '{"overall": "mine"}\n'
    shutil.copy(templates["figures"], figures)  # an earlier output of static_eval: replaced
    code, stderr = static_eval(templates["dataset"], figures)
    assert code == 0, stderr
    assert json.loads(figures.read_text())["written_by"] == "taskkit.static_eval"


HOLDING_AGENT = '''
import os
import time
from pathlib import Path
from taskkit.agents import Action, Agent

class Holding(Agent):
    """In the process the test starts holding (HOLD=1): says it started, then waits for the
    test's go-ahead (a file). Then (elsewhere at once) declares complete."""
    name = "holding"
    wants_ui_elements = False

    def step(self, observation):
        Path({started!r}).touch()
        while os.environ.get("HOLD") == "1" and not Path({go!r}).exists():
            time.sleep(0.001)
        return Action("status", goal_status="complete")
'''


def wait_until_started(started: Path, proc: subprocess.Popen) -> None:
    """Until the holding agent's first step (a bounded number of polls)."""
    for _ in range(600000):
        if started.exists() or proc.poll() is not None:
            break
        time.sleep(0.001)
    assert started.exists(), proc.stderr.read() if proc.poll() is not None else "the run never started an episode"


def test_a_second_run_on_the_same_output_dir_stops_at_once_naming_the_holder(tmp_path):
    out, started, go = tmp_path / "out", tmp_path / "started", tmp_path / "go"
    agent = tmp_path / "holding.py"
    agent.write_text(HOLDING_AGENT.format(started=str(started), go=str(go)))
    args = [sys.executable, "-m", "taskkit.run", "--tasks", TASK, "--n_task_combinations", "2",
            "--agent", f"{agent}:Holding", "--output_dir", str(out)]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "HOLD": "1"})
    try:
        wait_until_started(started, first)
        second = subprocess.run(args, capture_output=True, text=True, timeout=600)  # the same command
        assert second.returncode == 2
        line = one_error_line(second.stderr)
        assert f"--output_dir {out} is in use by pid {first.pid} (" in line and "taskkit.run" in line
        go.touch()
        assert first.wait(timeout=600) == 0, first.stderr.read()
    finally:
        go.touch()
        if first.poll() is None:
            first.kill()
            first.wait()
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(row["instance_id"] for row in rows) == [f"{TASK}_0", f"{TASK}_1"]  # once each
    assert json.loads((out / "summary.json").read_text())["all"]["episodes"] == 2


def test_the_lock_dies_with_its_process(tmp_path):
    out, started, go = tmp_path / "out", tmp_path / "started", tmp_path / "go"
    agent = tmp_path / "holding.py"
    agent.write_text(HOLDING_AGENT.format(started=str(started), go=str(go)))
    args = ["--tasks", TASK, "--output_dir", str(out)]
    first = subprocess.Popen([sys.executable, "-m", "taskkit.run", *args, "--agent", f"{agent}:Holding"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "HOLD": "1"})
    wait_until_started(started, first)
    first.kill()  # SIGKILL: no release runs
    first.wait()
    code, stderr = in_process(run.run, ["taskkit.run", *args, "--agent", f"{agent}:Holding"])
    assert code == 0, stderr


# A disk that fills up, injected in the child (no root, no real full disk): after BUDGET bytes
# written into the output directory, every write there fails with ENOSPC — whichever API writes
# them: os.write on a descriptor (a short write first, as a filling disk gives), or a file object
# opened with open()/Path.open for writing (it writes what fits, then raises).
FILLING_DISK = '''
import builtins, errno, io, os, runpy, sys

OUT = os.path.realpath(os.environ["FILL_DIR"])
left = [int(os.environ["FILL_BUDGET"])]


def inside(path):
    return os.path.realpath(path).startswith(OUT + os.sep)


def take(size):
    fits = min(size, left[0])
    left[0] -= fits
    return fits


def full():
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


real_write = os.write


def write(fd, data):
    try:
        path = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        path = ""
    if not inside(path):
        return real_write(fd, data)
    fits = take(len(data))
    if not fits and len(data):
        raise full()
    return real_write(fd, bytes(data[:fits]))


class Filling:
    def __init__(self, handle):
        self._handle = handle

    def write(self, data):
        fits = take(len(data))
        if fits < len(data):
            self._handle.write(data[:fits])
            self._handle.flush()
            raise full()
        return self._handle.write(data)

    def __getattr__(self, name):
        return getattr(self._handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._handle.close()


real_open = builtins.open


def open_(file, mode="r", *args, **kwargs):
    handle = real_open(file, mode, *args, **kwargs)
    if isinstance(file, (str, os.PathLike)) and set(mode) & set("wax+") and inside(os.fspath(file)):
        return Filling(handle)
    return handle


os.write = write
builtins.open = io.open = open_
sys.argv = [sys.argv[1], *sys.argv[2:]]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
'''


def filling(tmp_path: Path, out: Path, budget: int, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    shim = tmp_path / "filling_disk.py"
    shim.write_text(FILLING_DISK)
    env = {**os.environ, "FILL_DIR": str(out), "FILL_BUDGET": str(budget)}
    return subprocess.run([sys.executable, str(shim), module, *args], capture_output=True, text=True, env=env,
                          timeout=600)


def leftovers(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if ".tmp" in p.name)


@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(budget=0).via("the manifest does not fit")
@example(budget=1500).via("a trajectory or the first screenshot does not fit")
@example(budget=118_000).via("the report does not fit")
@given(budget=st.integers(0, 120_000))
def test_a_full_disk_is_one_line_exit_3_no_torn_row_no_temporary_file_and_the_run_resumes(tmp_path_factory, budget):
    tmp_path = tmp_path_factory.mktemp("full")
    out = tmp_path / "out"
    args = ["--tasks", TASK, "--n_task_combinations", "3", "--agent", "noop", "--save_screenshots",
            "--output_dir", str(out)]
    proc = filling(tmp_path, out, budget, "taskkit.run", *args)
    if proc.returncode == 0:  # the budget held everything the run writes
        return
    assert proc.returncode == 3, proc.stderr
    line = one_error_line(proc.stderr)
    assert str(out) in line and ENOSPC_TEXT in line
    results = out / "results.jsonl"
    text = results.read_text() if results.exists() else ""
    assert text == "" or text.endswith("\n"), "a torn row"
    assert all(json.loads(row) for row in text.splitlines())
    assert leftovers(out) == []
    again = subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    ids = [json.loads(row)["instance_id"] for row in results.read_text().splitlines()]
    assert sorted(ids) == [f"{TASK}_{n}" for n in range(3)]


def test_a_report_that_does_not_fit_is_exit_3_and_leaves_no_temporary_file(templates, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(templates["run"], out, symlinks=True)
    before = (out / "report.html").read_bytes()
    proc = filling(tmp_path, out, 100, "taskkit.report", str(out))
    assert proc.returncode == 3
    assert str(out) in one_error_line(proc.stderr) and ENOSPC_TEXT in proc.stderr
    assert leftovers(out) == [] and (out / "report.html").read_bytes() == before


def test_a_resumed_run_says_it_dropped_a_torn_last_line(templates, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(templates["run"], out, symlinks=True)
    with (out / "results.jsonl").open("a") as handle:
        handle.write('{"instance_id": "SystemWifiTurnOn_1", "to')
    code, stderr = taskkit_run(out)
    assert code == 0
    said = f"taskkit.run: {out / 'results.jsonl'}: dropped a torn last line (the run was stopped while writing it)"
    assert stderr.splitlines().count(said) == 1 and "Traceback" not in stderr
    assert (out / "results.jsonl").read_text().count("\n") == 1


def test_a_row_that_does_not_fit_is_cut_back_whole(tmp_path, monkeypatch):
    """The writer's own guarantee, without a child: a short write then ENOSPC leaves the file as
    it was before the row, and says which file and why."""
    from taskkit import outdir

    directory = outdir.claim(tmp_path / "out", "--output_dir", "manifest.json", lambda data: True, "a test output")
    try:
        appender = directory.append("results.jsonl", sync=True)
        appender.write(b'{"row": 1}\n')
        real_write, calls = os.write, []

        def filling_write(fd: int, data: bytes) -> int:
            calls.append(len(data))
            if len(calls) == 1:
                return real_write(fd, bytes(data[:5]))  # a short write...
            raise OSError(errno.ENOSPC, ENOSPC_TEXT)  # ...then the disk is full

        monkeypatch.setattr(os, "write", filling_write)
        with pytest.raises(outdir.WriteFailed, match=f"results.jsonl: {ENOSPC_TEXT}"):
            appender.write(b'{"row": 2, "padding": "' + b"x" * 100 + b'"}\n')
        with pytest.raises(outdir.WriteFailed, match=f"summary.json: {ENOSPC_TEXT}"):
            directory.replace("summary.json", "{}\n")
        monkeypatch.undo()
        appender.close()
        assert (tmp_path / "out" / "results.jsonl").read_bytes() == b'{"row": 1}\n'
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".taskkit.lock", "results.jsonl"]
    finally:
        directory.close()


@pytest.mark.parametrize("path", ["out\0put", "a/\0"])
def test_a_path_the_os_cannot_take_is_a_taskkit_error(tmp_path, path):
    from taskkit import outdir
    from taskkit.errors import TaskkitError

    with pytest.raises(outdir.OutputDirError, match="NUL byte") as raised:
        outdir.claim(str(tmp_path / path), "--output_dir", "manifest.json", lambda data: True, "a test output")
    assert isinstance(raised.value, TaskkitError)
    with pytest.raises(outdir.OutputDirError, match="NUL byte"):
        outdir.write_own_file(str(tmp_path / path), "--output", "{}", lambda data: True)


def test_a_link_planted_at_an_adb_devices_lock_is_one_line_and_truncates_nothing(tmp_path):
    """The adb lock lives under the host's temp directory, where anyone may plant a link: the run
    refuses to open it (exit 2, one line naming the lock) and the link's target keeps its bytes."""
    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    key = subprocess.run([sys.executable, "-c", "from taskkit.device import lock; "
                          "print(lock.key_for('adb:emulator-9', '127.0.0.1', 1))"],
                         capture_output=True, text=True, env=env, check=True).stdout.strip()
    Path(key).parent.mkdir(parents=True)
    Path(key).symlink_to(victim)
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", TASK, "--device", "adb:emulator-9",
                           "--adb_port", "1"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2
    assert f"the lock file {key} cannot be opened" in one_error_line(proc.stderr)
    assert victim.read_bytes() == VICTIM
