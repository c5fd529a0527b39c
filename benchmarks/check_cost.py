"""What one success check costs over a real adb link, against the simulator served as adbd.

    python benchmarks/check_cost.py [--sizes 1000,10000,100000] [--repeat 5] [--sections ...] [--json]

Starts the simulator's adbd on loopback and a private Debian `adb` server, connects them, and
for an `expense` table of each size measures, per check: wall time, bytes over the adb link
(counted by the simulator's adbd) and adb round trips (streams the host opened), for
  (a) taskkit's check: `rows_added` on an on-device snapshot, diffed in SQL on the device;
  (b) the AndroidWorld method: pull the app's databases folder file by file, read every row
      on the host and diff it against the rows read at initialize time;
  (c) the floor: a bare `adb shell true`.
Then whole task lifecycles (initialize, solve, check, teardown): round trips and bytes, and the
side-effect diff of an episode (taskkit.side_effects) at each table size.
Then the side-effect diff's file part with unchanged files on the device (none, 100 files,
10,000 files, one 100 MB file), per ExpenseAddSingle episode (start + finish), on the simulated
device in process and over adb: taskkit's way (the simulator's change recorder), the `find
-newer` way other devices get (over adb), and the full listing it replaced (every file's md5,
at start and at finish), with the files each hashed.
Needs Debian's `adb` on PATH.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from taskkit.apps import expense
from taskkit import loading, registry, side_effects, suite
from taskkit.device.adb import AdbDevice
from taskkit.device.base import Device
from taskkit.device.services import changes
from taskkit.device.state import DIGEST_ROOTS, listing
from taskkit.env import Env
from taskkit.ports import PortTaken, on_free_port
from taskkit.report import table
from taskkit.connect import sim_device
from taskkit.sim import changes as recorder_lib
from taskkit.sim.adbd import AdbdServer
from taskkit.sim.state import SimState
from taskkit.validators import rows_added

TABLE = expense.EXPENSES
# (label, unchanged small files, bytes of one big file) put on the device before the episodes
FILE_CASES = (("empty device", 0, 0), ("100 files", 100, 0), ("10,000 files", 10_000, 0), ("one 100 MB file", 0, 100 << 20))
SECTIONS = ("checks", "lifecycles", "side_effects", "files")
LIFECYCLE_TASKS = ("ExpenseAddSingle", "ExpenseDeleteMultiple", "SimpleSmsSend", "MarkorCreateNote", "SystemWifiTurnOn")


def _adb_env(port: int) -> dict[str, str]:
    return {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port)}


def _start_adb_server(port: int) -> int:
    """A private adb server on `port` (PortTaken if it does not start: another process took it)."""
    started = subprocess.run(["adb", "start-server"], env=_adb_env(port), capture_output=True, text=True)
    if started.returncode != 0:
        raise PortTaken(f"adb start-server on port {port}: {started.stderr.strip()}")
    return port


class Link:
    """A simulator behind adbd, reached through a private adb server by `AdbDevice`."""

    def __init__(self, state_dir: Path):
        sim_device(state_dir).close()  # the device image, with every app's databases
        self.server = AdbdServer(state_dir, port=0)
        self.server.start()
        self.adb_port = on_free_port(_start_adb_server)
        self.env = _adb_env(self.adb_port)
        self.device = AdbDevice(f"127.0.0.1:{self.server.port}", port=self.adb_port)

    def measure(self, action: Callable[[], Any]) -> dict[str, float]:
        """Wall time, link bytes (both directions) and round trips of one call."""
        self.server.stats.reset()
        started = time.perf_counter()
        action()
        elapsed = time.perf_counter() - started
        stats = self.server.stats.snapshot()
        return {"ms": 1000 * elapsed, "bytes": stats["bytes_sent"] + stats["bytes_received"],
                "round_trips": stats["streams_opened"]}

    def close(self) -> None:
        self.device.close()
        subprocess.run(["adb", "kill-server"], env=self.env, capture_output=True)
        self.server.stop()


def fill(device: AdbDevice, size: int) -> None:
    rows = [{"name": f"Expense {i}", "amount": 1000 + i, "category": 1 + i % 11, "note": f"note {i}",
             "created_date": 1696118400000 + i, "modified_date": 1696118400000 + i} for i in range(size)]
    with device.batch():
        expense.APP.reset(device)
        expense.EXPENSES.insert(device, rows)


def androidworld_rows(device: AdbDevice, workdir: Path) -> list[tuple]:
    """Pull every file of the databases folder, then read all rows on the host (AndroidWorld)."""
    for name in device.files.listdir(expense.DB_DIR):
        (workdir / name).write_bytes(device.pull(f"{expense.DB_DIR}/{name}"))
    with sqlite3.connect(workdir / "accounting.db") as conn:
        return conn.execute("SELECT * FROM expense ORDER BY expense_id").fetchall()


def median(samples: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def check_costs(link: Link, sizes: list[int], repeat: int) -> list[dict[str, Any]]:
    env, out = Env(link.device), []
    for size in sizes:
        fill(link.device, size)
        samples: dict[str, list[dict[str, float]]] = {"taskkit": [], "androidworld": [], "floor": []}
        for attempt in range(repeat):
            check = rows_added(TABLE, [{"name": f"New {attempt}", "amount": 4242}])
            snapshot = check.snapshot(env)
            with tempfile.TemporaryDirectory() as before_dir, tempfile.TemporaryDirectory() as after_dir:
                before = androidworld_rows(link.device, Path(before_dir))
                expense.EXPENSES.insert(link.device, [{"name": f"New {attempt}", "amount": 4242, "category": 1,
                                                       "note": "", "created_date": 0, "modified_date": 0}])
                result: dict[str, Any] = {}
                samples["taskkit"].append(link.measure(lambda: result.update(r=check.evaluate(env, snapshot))))
                assert result["r"].score == 1.0, result["r"].reasons
                aw: dict[str, Any] = {}
                samples["androidworld"].append(link.measure(
                    lambda: aw.update(new=set(androidworld_rows(link.device, Path(after_dir))) - set(before))))
                assert len(aw["new"]) == 1
            samples["floor"].append(link.measure(lambda: link.device.shell("true")))
        out.append({"rows": size, **{method: median(s) for method, s in samples.items()}})
    return out


def side_effect_costs(link: Link, sizes: list[int]) -> list[dict[str, Any]]:
    """The side-effect diff of an ExpenseAddSingle episode over an expense table of each size:
    what starting the watch and diffing at the end cost (taskkit.side_effects)."""
    env, out = Env(link.device), []
    for size in sizes:
        task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, 0).create()
        task.initialize_state(env)
        try:
            fill(link.device, size)
            watch: dict[str, Any] = {}
            start = link.measure(lambda: watch.update(w=side_effects.start(env, task)))
            _solve(task, env)
            found: dict[str, Any] = {}
            finish = link.measure(lambda: found.update(f=side_effects.finish(env, watch["w"])))
            assert found["f"] == [], found["f"]
        finally:
            task.teardown(env)
        out.append({"rows": size, "start": start, "finish": finish})
    return out


def _solve(task: Any, env: Env) -> None:
    with env.device.batch():  # as the runner's oracle runs it
        task.solve(env)


def lifecycle_costs(link: Link) -> list[dict[str, Any]]:
    env, out = Env(link.device), []
    for name in LIFECYCLE_TASKS:
        task = suite.instantiate(registry.get(name), 30, 0).create()
        costs = {"initialize": link.measure(lambda: task.initialize_state(env))}
        costs["solve"] = link.measure(lambda: _solve(task, env))
        score: dict[str, float] = {}
        costs["check"] = link.measure(lambda: score.update(s=task.is_successful(env)))
        costs["teardown"] = link.measure(lambda: task.teardown(env))
        assert score["s"] == 1.0, (name, task.last_result)
        total = {key: sum(c[key] for c in costs.values()) for key in ("ms", "bytes", "round_trips")}
        out.append({"task": name, **{phase: c for phase, c in costs.items()}, "total": total})
    return out


def put_files(state: SimState, files: int, big: int) -> None:
    """Unchanged files in /sdcard/Download/bulk, written straight into the state directory."""
    folder = state.host_path("/sdcard/Download/bulk")
    folder.mkdir()
    for i in range(files):
        (folder / f"f{i:05}.txt").write_text(f"file {i} " * 8)
    if big:
        with open(folder / "big.bin", "wb") as fh:
            for _ in range(big >> 20):
                fh.write(b"taskkit!" * (1 << 17))
    os.sync()  # written back before measuring: no writeback competing with the episodes' fsyncs


def _measure(device: Device, recorder: recorder_lib.Recorder, action: Callable[[], Any]) -> dict[str, float]:
    """Wall time, round trips, bytes received and files hashed by the simulator of one call."""
    before = (device.stats.round_trips, device.stats.bytes_received, recorder.hashed)
    started = time.perf_counter()
    action()
    elapsed = time.perf_counter() - started
    return {"ms": 1000 * elapsed, "round_trips": device.stats.round_trips - before[0],
            "bytes": device.stats.bytes_received - before[1], "hashed": recorder.hashed - before[2]}


def _episode_diff(device: Device, recorder: recorder_lib.Recorder, n: int) -> dict[str, float]:
    """One ExpenseAddSingle episode's side-effect diff (start + finish), solved by its oracle."""
    env = Env(device)
    task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, n).create()
    task.initialize_state(env)
    try:
        watch: dict[str, Any] = {}
        start = _measure(device, recorder, lambda: watch.update(w=side_effects.start(env, task)))
        _solve(task, env)
        found: dict[str, Any] = {}
        finish = _measure(device, recorder, lambda: found.update(f=side_effects.finish(env, watch["w"])))
        assert found["f"] == [], found["f"]
    finally:
        task.teardown(env)
    return {key: start[key] + finish[key] for key in start}


def _find_newer_diff(device: Device, recorder: recorder_lib.Recorder) -> dict[str, float]:
    """The `find -newer` method of other devices: start, one write, since."""
    def run() -> None:
        watch = changes.parse_start(device.check(changes.build_start(DIGEST_ROOTS, recorder=False)), DIGEST_ROOTS)
        device.check("echo x > /sdcard/Download/find-newer.txt")
        changes.parse_since(watch, device.check(changes.build_since(watch)))
    return _measure(device, recorder, run)


def file_costs(root: Path, repeat: int) -> list[dict[str, Any]]:
    """The side-effect diff per episode with each FILE_CASES set of unchanged files, on a fresh
    device per case and transport."""
    out = []
    for label, files, big in FILE_CASES:
        for transport in ("in process", "adb"):
            state_dir = root / f"{label}-{transport}".replace(" ", "_").replace(",", "")
            if transport == "in process":
                device: Device = sim_device(state_dir)
                link = None
            else:
                link = Link(state_dir)
                device = link.device
            try:
                put_files(SimState(state_dir), files, big)
                recorder = recorder_lib.recorder(SimState(state_dir))
                samples = [_episode_diff(device, recorder, n) for n in range(repeat)]
                lines: dict[str, set[str]] = {}
                full = _measure(device, recorder, lambda: lines.update(start=listing(device), finish=listing(device)))
                full["hashed"] = sum(line.startswith("file ") for found in lines.values() for line in found)
                entry = {"case": label, "transport": transport, "taskkit": median(samples), "full listing": full}
                if link is not None:
                    entry["find -newer"] = _find_newer_diff(device, recorder)
                out.append(entry)
            finally:
                (link or device).close()
    return out


def checks_table(entries: list[dict[str, Any]]) -> str:
    rows = []
    for entry in entries:
        floor = entry["floor"]["ms"]
        for method in ("taskkit", "androidworld", "floor"):
            m = entry[method]
            rows.append([f"{entry['rows']:,}", method, f"{m['ms']:.1f}", f"{m['ms'] / floor:.1f}x",
                         f"{m['bytes']:,.0f}", f"{m['round_trips']:.0f}"])
    return table(["rows", "check", "ms", "vs floor", "bytes over adb", "round trips"], rows)


def lifecycles_table(entries: list[dict[str, Any]]) -> str:
    rows = [[e["task"]] + [f"{e[p]['round_trips']:.0f}" for p in ("initialize", "solve", "check", "teardown")]
            + [f"{e['total']['round_trips']:.0f}", f"{e['total']['bytes']:,.0f}", f"{e['total']['ms']:.0f}"]
            for e in entries]
    return table(["task lifecycle", "init", "solve", "check", "teardown", "round trips", "bytes", "ms"], rows)


def side_effects_table(entries: list[dict[str, Any]]) -> str:
    rows = [[f"{e['rows']:,}"] + [f"{e[p][k]:,.0f}" for p in ("start", "finish") for k in ("round_trips", "bytes", "ms")]
            for e in entries]
    return table(["rows", "start: round trips", "bytes", "ms", "diff: round trips", "bytes", "ms"], rows)


def files_table(entries: list[dict[str, Any]]) -> str:
    empty = {e["transport"]: e["taskkit"]["ms"] for e in entries if e["case"] == FILE_CASES[0][0]}
    rows = []
    for e in entries:
        for method in ("taskkit", "find -newer", "full listing"):
            if method in e:
                m = e[method]
                ratio = f"{m['ms'] / empty[e['transport']]:.2f}x" if e["transport"] in empty else "-"
                rows.append([e["case"], e["transport"], method, f"{m['ms']:.1f}", ratio,
                             f"{m['round_trips']:.0f}", f"{m['bytes']:,.0f}", f"{m['hashed']:,.0f}"])
    return table(["unchanged files", "device", "side-effect diff", "ms / episode", "vs empty (taskkit)",
                  "round trips", "bytes received", "files hashed"], rows)


TABLES = {"checks": checks_table, "lifecycles": lifecycles_table, "side_effects": side_effects_table,
          "files": files_table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated table sizes")
    parser.add_argument("--repeat", type=int, default=5, help="checks (and episodes) per case (the median is shown)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes takes whole numbers separated by commas, got {args.sizes!r}")
    sections = args.sections.split(",")
    if not set(sections) <= set(SECTIONS):
        parser.error(f"--sections takes {', '.join(SECTIONS)} separated by commas, got {args.sections!r}")
    loading.load_builtin()
    data: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as state:
        if set(sections) - {"files"}:
            link = Link(Path(state) / "device")
            try:
                measures = {"checks": lambda: check_costs(link, sizes, args.repeat),
                            "lifecycles": lambda: lifecycle_costs(link),
                            "side_effects": lambda: side_effect_costs(link, sizes)}
                data.update({name: measures[name]() for name in SECTIONS if name in sections and name != "files"})
            finally:
                link.close()
        if "files" in sections:
            data["files"] = file_costs(Path(state) / "files", args.repeat)
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        print()
    else:
        print("\n\n".join(TABLES[name](data[name]) for name in SECTIONS if name in data))


if __name__ == "__main__":
    main()
