"""`python -m taskkit.check`: the table, failures with reproduce commands, and exit codes."""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import check

try:  # the adb device tests' helpers: a private adb server and the simulator served over adbd
    from tests.device.test_adb_device import adb_connect, private_adb_server, requires_adb, served_sim
except ImportError:
    requires_adb = pytest.mark.skip(reason="tests.device.test_adb_device is not available")

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "taskkit.check", *args], capture_output=True, text=True, cwd=ROOT)


def test_built_in_tasks_pass_with_every_near_miss_killed():
    proc = cli("--tasks", "SystemWifiTurnOnSpec,ExpenseDeleteMultipleSpec", "--seeds", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    header, wifi, expense = proc.stdout.splitlines()[:3]
    assert header.split() == ["task", "solvable", "not_trivially_solved", "clean_teardown", "deterministic",
                              "near_miss", "gui_solvable", "killed"]
    assert wifi.split() == ["SystemWifiTurnOnSpec"] + ["pass"] * 6 + ["4/4"]
    killed, total = expense.split()[-1].split("/")
    assert expense.split()[1:7] == ["pass"] * 6 and killed == total and int(total) >= 8
    assert "2 task(s), every property holds; near misses killed" in proc.stdout


def test_a_failure_is_reported_with_its_minimal_seed_and_the_command_reproduces_it():
    proc = cli("--task_module", "tests/testing/cli_tasks.py", "--tasks", "CliAddCoffee,CliSolveFailsOnEvenSeeds",
               "--properties", "solvable")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].split() == ["CliAddCoffee", "pass"]
    assert lines[2].split() == ["CliSolveFailsOnEvenSeeds", "FAIL"]
    assert "CliSolveFailsOnEvenSeeds: solvable FAILED at seed 102 (shrunk from seed 2142)" in proc.stdout
    reproduce = next(line for line in lines if "reproduce:" in line).split("reproduce: ", 1)[1]
    assert reproduce == ("python -m taskkit.check --task_module tests/testing/cli_tasks.py "
                         "--tasks CliSolveFailsOnEvenSeeds --seed 102 --properties solvable")
    again = cli(*shlex.split(reproduce)[3:])
    assert again.returncode == 1 and "solvable FAILED at seed 102\n" in again.stdout


def run_in_process(capsys, *args):
    code = check.run(["taskkit.check", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "Unknown command line flag 'bogus'"),
    (["--seeds", "0"], "--seeds must be at least 1, got 0"),
    (["--tasks", "NoSuchTask"], "unknown task 'NoSuchTask'"),
    (["--properties", "fast"], "--properties: unknown fast"),
    (["--device", "phone"], "unknown device 'phone'"),
    (["--task_module", "no/such/file.py"], "no such file"),
    (["extra"], "unexpected argument(s) extra"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, args, message):
    code, out, err = run_in_process(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("taskkit.check: error: ") and message in err


def test_every_bad_spec_is_reported_on_its_own_line(capsys, tmp_path):
    pytest.importorskip("taskkit.specs")
    (tmp_path / "a_syntax.textproto").write_text('name: "A"\ngoal: "x"\nthis is not a field\n')
    (tmp_path / "b_unknown.textproto").write_text('name: "B"\n  colour: "red"\n')
    code, out, err = run_in_process(capsys, "--spec_dir", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{tmp_path / 'a_syntax.textproto'}:3:")
    assert lines[1].startswith(f"{tmp_path / 'b_unknown.textproto'}:2:3:") and "colour" in lines[1]


def test_help(capsys):
    code, out, _ = run_in_process(capsys, "--help")
    assert code == 0 and "--seeds" in out and "--spec_dir" in out


@requires_adb
def test_hostile_text_never_runs_through_adb_either(tmp_path):
    """The hostile property over the real `adb` server to the simulator's adbd (`--device adb:SERIAL`)."""
    with private_adb_server() as port, served_sim(tmp_path / "sim") as sim:
        serial = f"127.0.0.1:{sim.port}"
        adb_connect(port, serial)
        proc = cli("--device", f"adb:{serial}", "--adb_port", str(port), "--tasks", "SimpleSmsSend,MarkorCreateNote",
                   "--seed", "0", "--properties", "hostile")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [line.split() for line in proc.stdout.splitlines()[1:3]] == [["SimpleSmsSend", "pass"],
                                                                        ["MarkorCreateNote", "pass"]]


def test_device_configs_checks_the_properties_under_each_config():
    proc = cli("--tasks", "SystemWifiTurnOnSpec", "--seeds", "1", "--device_configs", "bmoca-105")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "device config bmoca-105" in proc.stdout
    row = next(line for line in proc.stdout.splitlines() if line.startswith("SystemWifiTurnOnSpec"))
    # every property, gui_solvable too: the GUI reference finds the Korean screens' labels
    assert row.split() == ["SystemWifiTurnOnSpec"] + ["pass"] * 6 + ["2/2"]
    bad = cli("--tasks", "SystemWifiTurnOn", "--device_configs", "bmoca-999")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown device config 'bmoca-999'" in bad.stderr


def test_baselines_list_a_verify_task_apart_as_an_expected_pass():
    """A *Verify task starts solved, so every trivial agent passes it: the table marks it, the
    summary names it apart and does not claim that no trivial agent passes anything."""
    proc = cli("--baselines", "--seeds", "2", "--tasks", "SystemWifiTurnOnVerify,SystemWifiTurnOn")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines()[1:3]}
    assert rows["SystemWifiTurnOnVerify"] == ["2/2", "2/2", "2/2", "(starts", "solved:", "passes", "by", "design)"]
    assert rows["SystemWifiTurnOn"] == ["0/2", "0/2", "0/2"]
    assert "expected passes, not counted: SystemWifiTurnOnVerify (they start solved" in proc.stdout
    assert proc.stdout.rstrip().endswith("2 task(s); no trivial agent passes any (besides 1 that start(s) solved)")
