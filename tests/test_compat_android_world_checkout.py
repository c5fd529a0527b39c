"""AndroidWorld's own code imported unmodified from a checkout (taskkit.compat.android_world.checkout):
its device layer (`android_world.env`, `android_env`) is taskkit's, the rest is the checkout's,
its protos are compiled on import; and android_env's adb requests answered on the device.

CI has no AndroidWorld checkout (no internet), so a small one is written here with the same
layout; the session note measures the real one."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit.compat.android_world import checkout
from taskkit.compat.android_world.android_env.proto import adb_pb2
from taskkit.compat.android_world.env import adb_requests, adb_utils

Request, Response = adb_pb2.AdbRequest, adb_pb2.AdbResponse


def _fake_checkout(root: Path) -> Path:
    files = {
        "android_world/__init__.py": "",
        "android_world/task_evals/__init__.py": "",
        "android_world/task_evals/task_eval.py": """
            from android_env.proto import adb_pb2
            from android_world.env import adb_utils, interface
            from android_world.task_evals.info.proto import task_pb2
            ORIGIN = "checkout"
            """,
        "android_world/task_evals/info/__init__.py": "",
        "android_world/task_evals/info/proto/__init__.py": "",
        "android_world/task_evals/info/proto/state.proto": """
            syntax = "proto2";
            package android_world.task_evals.info.proto;
            message State { optional string name = 1; }
            """,
        "android_world/task_evals/info/proto/task.proto": """
            syntax = "proto2";
            package android_world.task_evals.info.proto;
            import "android_world/task_evals/info/proto/state.proto";
            message Task { optional State state = 1; }
            """,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


def test_the_checkout_s_code_runs_as_written_over_taskkit_s_device_layer(tmp_path) -> None:
    root = _fake_checkout(tmp_path)
    probe = f"""
        from taskkit.compat.android_world import checkout
        checkout.use({str(root)!r})
        from android_world.task_evals import task_eval
        import taskkit.compat.android_world.env.adb_utils as served
        import taskkit.compat.android_world.android_env.proto.adb_pb2 as served_pb2
        assert task_eval.ORIGIN == "checkout" and task_eval.__file__.startswith({str(root)!r})
        assert task_eval.adb_utils is served and task_eval.adb_pb2 is served_pb2
        task = task_eval.task_pb2.Task(state={{"name": "x"}})
        print(task.state.name)
        """
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(probe)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "x\n"


def test_a_folder_that_is_not_a_checkout_is_one_clear_line(tmp_path) -> None:
    with pytest.raises(checkout.CheckoutError, match="not an AndroidWorld checkout .*give the checkout's folder"):
        checkout.find_package(tmp_path)
    assert checkout.find_package(_fake_checkout(tmp_path)) == tmp_path / "android_world"
    assert checkout.find_package(tmp_path / "android_world") == tmp_path / "android_world"


def test_adb_requests_are_answered_on_the_device(sim_device) -> None:
    def call(**command) -> Response:
        return adb_requests.execute(sim_device, Request(**command))

    settings = Request.SettingsRequest
    put = call(settings=settings(name_space=settings.GLOBAL, put=settings.Put(key="k", value="v 1")))
    got = call(settings=settings(name_space=settings.GLOBAL, get=settings.Get(key="k")))
    assert put.status == Response.OK and got.settings.output == b"v 1\n"
    assert call(push=Request.Push(content=b"hi", path="/sdcard/Download/a b.txt")).status == Response.OK
    assert call(pull=Request.Pull(path="/sdcard/Download/a b.txt")).pull.content == b"hi"
    script = 'if [ -f "/sdcard/Download/a b.txt" ]; then echo Exists; fi'  # a whole script, as AndroidWorld sends
    assert call(generic=Request.GenericRequest(args=["shell", script])).generic.output == b"Exists\n"
    failed = call(generic=Request.GenericRequest(args=["shell", "ls", "/nowhere"]))
    assert failed.status == Response.ADB_ERROR and "nowhere" in failed.error_message
    unknown = call(install_apk=Request.InstallApk(filesystem=Request.InstallApk.Filesystem(path="/x.apk")))
    assert unknown.status == Response.UNKNOWN_COMMAND and "install_apk" in unknown.error_message


def test_adb_utils_answers_with_android_env_s_response(env) -> None:
    answer = adb_utils.issue_generic_request(["shell", "echo", "$((1+2))"], env)
    assert isinstance(answer, Response) and answer.status == Response.OK and answer.generic.output == b"3\n"
    adb_utils.check_ok(answer)
    with pytest.raises(RuntimeError, match="no such"):
        adb_utils.check_ok(adb_utils.issue_generic_request(["shell", "ls", "/nowhere"], env), "no such")
    assert adb_utils.extract_broadcast_data('Broadcast completed: result=-1, data="hello"') == "hello"
    assert adb_utils.extract_broadcast_data("Broadcast completed: result=0") is None
