"""Bad input and what a new task author hits (issue 9): one line and exit 2, never a traceback;
a task bug is that task's error; a device is held by one run at a time."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit.device import lock


def run(*args: str, cwd: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=300)


def one_line_exit_2(proc: subprocess.CompletedProcess, message: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_sim_dir_that_is_a_file_or_holds_other_things_is_refused_untouched(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("mine")
    one_line_exit_2(run("--device", f"sim:{a_file}", "--tasks", "SystemWifiTurnOn"), "is a file")
    assert a_file.read_text() == "mine"
    busy = tmp_path / "busy"
    (busy / "fs").mkdir(parents=True)
    (busy / "fs" / "keep.txt").write_text("precious")
    one_line_exit_2(run("--device", f"sim:{busy}", "--tasks", "SystemWifiTurnOn"), "not empty and not a taskkit device")
    assert (busy / "fs" / "keep.txt").read_text() == "precious"
    assert sorted(p.name for p in busy.iterdir()) == ["fs"]


def test_sim_dir_new_then_reused(tmp_path: Path) -> None:
    device_dir = tmp_path / "dev"
    for _ in range(2):
        proc = run("--device", f"sim:{device_dir}", "--tasks", "SystemWifiTurnOn")
        assert proc.returncode == 0, proc.stderr
    assert (device_dir / "device.json").is_file()


def test_a_held_device_is_refused_naming_the_holder(tmp_path: Path) -> None:
    device_dir = tmp_path / "dev"
    device_dir.mkdir()
    with lock.hold(lock.key_for(f"sim:{device_dir}"), label="pid 4242 (the other run)"):
        proc = run("--device", f"sim:{device_dir}", "--tasks", "SystemWifiTurnOn")
    one_line_exit_2(proc, "in use by pid 4242 (the other run)")
    assert run("--device", f"sim:{device_dir}", "--tasks", "SystemWifiTurnOn").returncode == 0  # released


def test_a_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    device_dir = tmp_path / "dev"
    device_dir.mkdir()
    key = lock.key_for(f"sim:{device_dir}")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import os, time
        from pathlib import Path
        from taskkit.device import lock
        with lock.hold(Path({str(key)!r})):
            print("held", flush=True)
            os._exit(0)  # dies holding the lock: no release runs
    """)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    holder.wait(timeout=60)
    with lock.hold(key):
        assert key.read_text().startswith(f"pid {os.getpid()}")


def test_output_dir_that_is_a_file_or_unwritable(tmp_path: Path) -> None:
    a_file = tmp_path / "results"
    a_file.write_text("x")
    one_line_exit_2(run("--output_dir", str(a_file), "--tasks", "SystemWifiTurnOn"), "--output_dir")
    one_line_exit_2(run("--output_dir", "/proc/taskkit", "--tasks", "SystemWifiTurnOn"), "--output_dir /proc/taskkit")


def test_a_task_whose_params_raise_is_its_own_error_and_the_suite_goes_on(tmp_path: Path) -> None:
    module = tmp_path / "broken_tasks.py"
    module.write_text(textwrap.dedent('''
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class BrokenParams(TaskEval):
            app_names = ("settings",)
            template = "never"
            schema = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}

            @classmethod
            def generate_random_params(cls, rng):
                raise ValueError("no params today")

            def validator(self):
                return setting_equals("global", "wifi_on", "1")
    '''))
    out = tmp_path / "out"
    proc = run("--task_module", str(module), "--tasks", "BrokenParams,SystemWifiTurnOn", "--output_dir", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = {row["task"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert rows["SystemWifiTurnOn"]["score"] == 1.0
    broken = rows["BrokenParams"]
    assert broken["error_kind"] == "task"
    assert "no params today" in broken["error"] and f"{module}:12" in broken["error"]


def test_a_task_name_collision_names_both_sources_unless_replacing(tmp_path: Path) -> None:
    module = tmp_path / "mine.py"
    module.write_text(textwrap.dedent('''
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class SystemWifiTurnOn(TaskEval):
            app_names = ("settings",)
            template = "Turn on Wi-Fi, my way"

            def validator(self):
                return setting_equals("global", "wifi_on", "1")

            def solve(self, env):
                env.device.settings.put("global", "wifi_on", "1")
    '''))
    proc = run("--task_module", str(module), "--list_tasks")
    one_line_exit_2(proc, "task name 'SystemWifiTurnOn' is defined twice")
    assert "taskkit.apps.settings" in proc.stderr and "--replace_tasks" in proc.stderr
    proc = run("--task_module", str(module), "--replace_tasks", "--show_instance", "SystemWifiTurnOn")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["goal"] == "Turn on Wi-Fi, my way"
    assert proc.stderr.count("is replaced by the one in") == 1


def test_task_module_imports_its_siblings(tmp_path: Path) -> None:
    (tmp_path / "helpers_for_tasks.py").write_text("GOAL = 'Turn on Wi-Fi from a sibling'\n")
    module = tmp_path / "sibling_user.py"
    module.write_text(textwrap.dedent('''
        from helpers_for_tasks import GOAL
        from taskkit import TaskEval
        from taskkit.validators import setting_equals

        class SiblingTask(TaskEval):
            app_names = ("settings",)
            template = GOAL

            def validator(self):
                return setting_equals("global", "wifi_on", "1")
    '''))
    proc = run("--task_module", str(module), "--show_instance", "SiblingTask", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["goal"] == "Turn on Wi-Fi from a sibling" and shown["instance_id"] == "SiblingTask_0"


def test_show_instance_matches_the_run(tmp_path: Path) -> None:
    proc = run("--show_instance", "ExpenseAddSingle", "--seed", "30")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    out = tmp_path / "out"
    assert run("--tasks", "ExpenseAddSingle", "--seed", "30", "--output_dir", str(out)).returncode == 0
    row = json.loads((out / "results.jsonl").read_text())
    assert (shown["params"], shown["goal"], shown["seed"]) == (row["params"], row["goal"], row["seed"])


@pytest.mark.parametrize("env, message", [
    ({"ANDROID_ADB_SERVER_PORT": "1"}, "127.0.0.1:1"),
    ({"ANDROID_ADB_SERVER_HOST": "127.0.0.1", "ANDROID_ADB_SERVER_PORT": "notaport"}, "ANDROID_ADB_SERVER_PORT"),
])
def test_adb_environment_is_honoured(env: dict[str, str], message: str) -> None:
    proc = run("--device", "adb", "--tasks", "SystemWifiTurnOn", env=env)
    assert proc.returncode in (2, 3), proc.stderr
    assert "Traceback" not in proc.stderr and message in proc.stderr, proc.stderr


def test_flags_win_over_the_adb_environment() -> None:
    proc = run("--device", "adb", "--adb_port", "2", "--tasks", "SystemWifiTurnOn",
               env={"ANDROID_ADB_SERVER_PORT": "1"})
    assert "127.0.0.1:2" in proc.stderr and "127.0.0.1:1" not in proc.stderr, proc.stderr


def test_a_spec_naming_an_unregistered_app_says_which_flag_loads_it() -> None:
    root = Path(__file__).resolve().parents[1] / "examples"
    proc = run("--spec_dir", str(root / "recipe_specs"), "--list_tasks")
    one_line_exit_2(proc, "unknown app 'recipe box'")
    assert "--task_module" in proc.stderr
    proc = run("--task_module", str(root / "recipe_box.py"), "--spec_dir", str(root / "recipe_specs"), "--list_tasks")
    assert proc.returncode == 0 and "RecipeDelete" in proc.stdout, proc.stderr


@pytest.mark.parametrize("signum", [2, 15])  # SIGINT, SIGTERM
def test_an_interrupted_run_ends_its_episode_cleanly(tmp_path: Path, signum: int) -> None:
    import signal as signal_module
    import time

    from taskkit.connect import sim_device
    from taskkit.device import state as device_state

    device_dir, out = tmp_path / "dev", tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "taskkit.run", "--device", f"sim:{device_dir}",
                             "--output_dir", str(out), "--tasks", "ExpenseAddSingle,SimpleSmsSend",
                             "--n_task_combinations", "40"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = out / "results.jsonl"
    for _ in range(6000):  # bounded wait until some episodes are recorded
        if results.exists() and results.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted after" in stderr
    rows = [json.loads(line) for line in results.read_text().splitlines()]  # every line whole
    assert 3 <= len(rows) < 80
    assert all(row["error_kind"] in (None, "interrupted") for row in rows)
    device = sim_device(device_dir)
    try:
        assert device_state.pending_restore_points(device) == []  # the last episode was torn down
    finally:
        device.close()


def test_a_killed_run_resumes_with_every_episode_exactly_once(tmp_path: Path) -> None:
    import signal as signal_module
    import time

    out = tmp_path / "out"
    args = ["--tasks", "ExpenseAddSingle,SimpleSmsSend,SystemWifiTurnOn", "--n_task_combinations", "12",
            "--device", f"sim:{tmp_path / 'dev'}", "--output_dir", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "taskkit.run", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    for _ in range(6000):  # bounded wait until a few episodes are recorded
        if results.exists() and results.read_text().count("\n") >= 4:
            break
        time.sleep(0.01)
    proc.send_signal(signal_module.SIGKILL)  # no cleanup at all: mid-episode, maybe mid-line
    proc.wait(timeout=60)
    before = results.read_text().count("\n")
    assert 4 <= before < 36
    with results.open("a") as handle:
        handle.write('{"instance_id": "ExpenseAddSingle_11", "torn')  # a torn last line
    again = run(*args)
    assert again.returncode == 0, again.stderr
    assert "already recorded" in again.stderr
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    ids = [row["instance_id"] for row in rows]
    assert len(ids) == len(set(ids)) == 36  # every episode exactly once
    assert all(row["score"] == 1.0 and row["error"] is None for row in rows)
    refused = run(*args[:-2], "--seed", "31", "--output_dir", str(out))
    one_line_exit_2(refused, "holds another run (its seed is 30, this run's is 31)")
    strict = run(*args, "--strict")  # scored by another rule: its rows would not belong together
    same = "'success_check': 'final', 'malformed_action': 'error', 'instructions': 'high'"
    one_line_exit_2(strict, "holds another run (its options is {'fixed_task_seed': False, 'config_axis': False, "
                            f"'side_effects': 'report', {same}}}, this run's is {{'fixed_task_seed': False, 'config_axis': "
                            f"False, 'side_effects': 'strict', {same}}})")
