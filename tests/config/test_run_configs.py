"""`taskkit.run --device_config`: the suite under each config, rows carrying their config, the
summary broken down by config field, and the device's own config back after a run — and at
the next start after a killed one."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from taskkit import config
from taskkit.config import apply
from taskkit.connect import sim_device

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_every_config_runs_the_same_instances_and_rows_carry_it(tmp_path: Path) -> None:
    state = tmp_path / "phone"
    sim_device(state).close()
    before = apply.read(sim_device(state))
    proc = run("--tasks", "SystemWifiTurnOn,ExpenseAddSingle", "--device_config", "test", "--device", f"sim:{state}",
               "--output_dir", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    rows = _rows(tmp_path / "out")
    names = [c.name for c in config.resolve("test")]
    assert sorted({r["device_config"]["name"] for r in rows}) == sorted(names) and len(rows) == 2 * len(names)
    assert all(r["success"] for r in rows)
    expense = {r["device_config"]["name"]: r["params"] for r in rows if r["task"] == "ExpenseAddSingle"}
    assert len({json.dumps(p, sort_keys=True) for p in expense.values()}) == 1  # AndroidWorld-compatible: same params
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["per_config_locale"]["ko-KR"]["episodes"] == 2 and "bmoca-105" in summary["per_device_config"]
    assert "config_locale" in proc.stdout
    assert apply.read(sim_device(state)) == before  # the device's own config is back


def test_config_axis_draws_params_per_config(tmp_path: Path) -> None:
    proc = run("--tasks", "ExpenseAddSingle", "--device_config", "test", "--config_axis", "--output_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    params = [json.dumps(r["params"], sort_keys=True) for r in _rows(tmp_path)]
    assert len(set(params)) == len(params) == 10


def test_a_config_left_by_a_killed_run_is_put_back_at_the_next_start(tmp_path: Path) -> None:
    state = tmp_path / "phone"
    device = sim_device(state)
    before = apply.read(device)
    apply.apply(device, config.resolve("bmoca-105")[0])  # what a run killed mid-way leaves behind
    device.close()
    proc = run("--tasks", "SystemWifiTurnOn", "--device", f"sim:{state}")
    assert proc.returncode == 0, proc.stderr
    assert "put back the device config a stopped run left" in proc.stderr
    assert apply.read(sim_device(state)) == before


def test_bad_config_flags_are_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, message in ((["--device_config", "bmoca-999"], "unknown device config 'bmoca-999'"),
                          (["--config_axis"], "--config_axis needs --device_config"),
                          (["--device_config", "test", "--parallel", "0"], "--parallel must be at least 1")):
        proc = run("--tasks", "SystemWifiTurnOn", *args, "--output_dir", str(tmp_path / "never"))
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr
        assert not (tmp_path / "never").exists()


def _key(row: dict) -> tuple:
    return (row["instance_id"], json.dumps(row["params"], sort_keys=True), row["goal"], row["score"],
            row["device_config"]["name"])


def test_parallel_workers_give_the_serial_rows_under_configs(tmp_path: Path) -> None:
    common = ("--tasks", "SystemWifiTurnOn,ExpenseAddSingle", "--device_config", "bmoca-105")
    serial = run(*common, "--n_task_combinations", "2", "--output_dir", str(tmp_path / "serial"))
    parallel = run(*common, "--n_task_combinations", "2", "--parallel", "2", "--output_dir", str(tmp_path / "par"))
    assert serial.returncode == 0 and parallel.returncode == 0, serial.stderr + parallel.stderr
    assert sorted(map(_key, _rows(tmp_path / "serial"))) == sorted(map(_key, _rows(tmp_path / "par")))


def test_fixed_task_seed_gives_every_instance_the_same_params(tmp_path: Path) -> None:
    proc = run("--tasks", "ExpenseAddSingle", "--n_task_combinations", "3", "--fixed_task_seed",
               "--output_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = _rows(tmp_path)
    assert len(rows) == 3 and len({r["seed"] for r in rows}) == 1 and len({r["instance_id"] for r in rows}) == 3
    shown = run("--show_instance", "ExpenseAddSingle", "--n_task_combinations", "2")
    assert len(set(line for line in shown.stdout.splitlines() if '"seed"' in line)) == 2  # without it: two seeds
