"""Tasks that need a real device (AndroidWorld's camera tasks): listed with the reason, left out
of runs and checks on the simulated device with one notice, refused when nothing else is left,
and their checks still read device state (here: files written into the camera folders)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import cli, loading, registry
from taskkit.apps import camera
from taskkit.connect import sim_device
from taskkit.env import Env

ROOT = Path(__file__).resolve().parents[2]


def run(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_list_tasks_says_where_each_task_runs() -> None:
    listed = run("taskkit.run", "--list_tasks", "--json", "--tasks", "CameraTakePhoto,CameraTakeVideo,SystemWifiTurnOn")
    rows = {task["name"]: task["runs_on"] for task in json.loads(listed.stdout)}
    assert rows["SystemWifiTurnOn"] == "any"
    assert rows["CameraTakePhoto"].startswith("real device only: ") and "no camera" in rows["CameraTakePhoto"]


def test_runs_and_checks_on_the_simulator_leave_them_out_with_one_notice() -> None:
    ran = run("taskkit.run", "--tasks", "CameraTakePhoto,SystemWifiTurnOn", "--agent", "noop")
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.count("need a real device and are left out on the simulated device: CameraTakePhoto") == 1
    assert "SystemWifiTurnOn" in ran.stdout and "CameraTakePhoto" not in ran.stdout
    refused = run("taskkit.run", "--tasks", "CameraTakeVideo")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines()[-1].endswith("run with --device adb:SERIAL")
    checked = run("taskkit.check", "--tasks", "CameraTakePhoto,SystemWifiTurnOn", "--seeds", "1")
    assert checked.returncode == 0 and "1 task(s), every property holds" in checked.stdout
    assert "left out on the simulated device: CameraTakePhoto" in checked.stderr


@pytest.mark.parametrize("spec, simulated", [("sim", True), ("sim:/tmp/d", True), ("adb:emulator-5554", False),
                                             ("adb:A,adb:B", False), ("adb", False)])
def test_which_device_specs_are_simulated(spec: str, simulated: bool) -> None:
    assert cli.simulated(spec) is simulated


def test_the_photo_check_counts_exactly_one_new_photo_in_the_camera_folders(tmp_path: Path) -> None:
    loading.load_builtin()
    device = sim_device(tmp_path / "device")
    env = Env(device)
    try:
        device.files.write_bytes("/sdcard/Pictures/old.jpg", b"\xff\xd8old")
        task = registry.get("CameraTakePhoto").from_seed(1)
        task.initialize_state(env)
        assert task.is_successful(env) == 0.0
        device.files.write_bytes(f"{camera.CAMERA_DIR}/IMG_20231015_153400.jpg", b"\xff\xd8new")
        device.files.write_text(f"{camera.CAMERA_DIR}/notes.txt", "not a photo")
        assert task.is_successful(env) == 1.0
        device.files.write_bytes(f"{camera.CAMERA_DIR}/IMG_20231015_153401.jpg", b"\xff\xd8two")
        assert task.is_successful(env) == 0.0  # two photos are not one
        device.files.remove(f"{camera.CAMERA_DIR}/IMG_20231015_153401.jpg")
        device.files.remove("/sdcard/Pictures/old.jpg")
        assert task.is_successful(env) == 0.0  # a photo that was there is gone
        task.teardown(env)
        assert device.files.exists("/sdcard/Pictures/old.jpg")
        assert not device.files.exists(f"{camera.CAMERA_DIR}/IMG_20231015_153400.jpg")
    finally:
        device.close()


SPEC = '''
name: "RecordTheCallSpec"
description: "A spec task that needs a real device."
apps: "settings"
complexity: 1
real_device_only: "records a phone call; the simulated device has no telephony"
goal: "Turn on call recording."
success { setting_equals { namespace: "global" key: "call_recording" values: "1" } }
oracle { set_setting { namespace: "global" key: "call_recording" value: "1" } }
'''


def test_a_spec_says_it_needs_a_real_device_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "record_call.textproto").write_text(SPEC)
    listed = run("taskkit.run", "--spec_dir", str(tmp_path), "--list_tasks", "--json", "--tasks", "RecordTheCallSpec")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)[0]["runs_on"] == \
        "real device only: records a phone call; the simulated device has no telephony"
    ran = run("taskkit.run", "--spec_dir", str(tmp_path), "--tasks", "RecordTheCallSpec,SystemWifiTurnOn",
              "--agent", "noop")
    assert ran.returncode == 0 and "left out on the simulated device: RecordTheCallSpec (records a phone call" in ran.stderr
