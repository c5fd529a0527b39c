"""AndroidWorld's own code imported unmodified from a checkout (taskkit.compat.android_world.checkout):
its device layer (`android_world.env`, `android_env`) is taskkit's, the rest is the checkout's,
its protos are compiled on import; and android_env's adb requests answered on the device.

CI has no AndroidWorld checkout (no internet), so a small one is written here with the same
layout; the session note measures the real one."""
from __future__ import annotations

import json
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


_TASK_EVAL = """
    import random
    from android_world.env import adb_utils, device_constants, interface

    class TaskEval:
      template = ""
      def __init__(self, params):
        self.initialized = False
        self._params = params
      @property
      def params(self):
        return self._params
      @property
      def goal(self):
        return self.template.format(**self.params)
      def initialize_task(self, env):
        self.initialized = True
      def is_successful(self, env):
        return 1.0
      def tear_down(self, env):
        self.initialized = False
    """
_SINGLE = """
    import random
    from android_world.env import adb_utils, device_constants
    from android_world.task_evals import task_eval

    class SystemWifiTurnOn(task_eval.TaskEval):
      app_names = ("settings",)
      complexity = 1.5
      template = "Turn wifi on. ({word})"
      @classmethod
      def generate_random_params(cls):
        return {"word": random.choice(["alpha", "beta", "gamma", "delta"]), "when": device_constants.DT}
      def initialize_task(self, env):
        super().initialize_task(env)
        adb_utils.toggle_wifi(env.controller, "off")
      def is_successful(self, env):
        answer = adb_utils.issue_generic_request(["shell", "settings get global wifi_on"], env.controller)
        return 1.0 if answer.generic.output.strip() == b"1" else 0.0
    """
_REGISTRY = """
    from android_world.task_evals.single import system

    class TaskRegistry:
      ANDROID_WORLD_FAMILY = "android_world"
      def get_registry(self, family):
        return {"SystemWifiTurnOn": system.SystemWifiTurnOn} if family == "android_world" else {}
    """


def _fake_suite(root: Path) -> Path:
    """A checkout with AndroidWorld's layout: a base TaskEval, one task and a registry."""
    files = {"android_world/__init__.py": "", "android_world/task_evals/__init__.py": "",
             "android_world/task_evals/task_eval.py": _TASK_EVAL, "android_world/task_evals/single/__init__.py": "",
             "android_world/task_evals/single/system.py": _SINGLE, "android_world/registry.py": _REGISTRY}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taskkit.run", *args], capture_output=True, text=True, timeout=300)


def test_a_run_takes_the_checkout_s_own_tasks_with_their_own_params_and_checks(tmp_path) -> None:
    checkout_dir = _fake_suite(tmp_path / "aw")
    shown = _run("--android_world", str(checkout_dir), "--show_instance", "SystemWifiTurnOn", "--seed", "30")
    assert shown.returncode == 0, shown.stderr
    assert "note: 1 task(s) run AndroidWorld's own code" in shown.stderr
    import random

    from taskkit.suite import instance_seed
    random.seed(instance_seed(30, "SystemWifiTurnOn", 0))  # AndroidWorld's suite: seed, then draw
    word = random.choice(["alpha", "beta", "gamma", "delta"])
    assert f"Turn wifi on. ({word})" in shown.stdout
    result = _run("--android_world", str(checkout_dir), "--tasks", "SystemWifiTurnOn", "--agent", "noop",
                  "--output_dir", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert row["error"] is None and row["score"] == 0.0 and row["goal"] == f"Turn wifi on. ({word})"
    assert row["params"]["when"] == "2023-10-15T15:34:00+00:00"  # a date param, recorded as text


def test_a_bad_checkout_is_one_line_and_exit_2(tmp_path) -> None:
    result = _run("--android_world", str(tmp_path), "--agent", "noop")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().endswith("give the checkout's folder or its android_world package")
    missing = _fake_suite(tmp_path / "aw")
    (missing / "android_world/registry.py").write_text("import a_module_taskkit_lacks\n" + textwrap.dedent(_REGISTRY))
    result = _run("--android_world", str(missing), "--agent", "noop")
    assert result.returncode == 2 and "needs 'a_module_taskkit_lacks': pip install 'taskkit[android-world]'" in result.stderr


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


def test_every_adb_utils_function_android_world_has_is_served_and_a_missing_one_is_one_line() -> None:
    # AndroidWorld's adb_utils at d9c569f: its 56 public functions (names only, from its source)
    names = """issue_generic_request get_adb_activity get_all_package_names get_all_apps launch_app close_app
        start_activity get_current_activity extract_package_name clear_app_data grant_permissions press_back_button
        press_home_button press_enter_button press_keyboard_generic tap_screen double_tap long_press type_text
        generate_swipe_command generate_drag_and_drop_command get_api_level toggle_airplane_mode
        check_airplane_mode extract_broadcast_data get_clipboard_contents set_clipboard_contents install_apk
        set_default_app get_all_settings check_ok set_root_if_needed uiautomator_dump get_screen_size
        get_logical_screen_size get_physical_frame_boundary get_orientation change_orientation set_screen_size
        retry call_emulator end_call_if_active clear_android_emulator_call_log call_phone_number get_call_state
        text_emulator toggle_wifi toggle_bluetooth set_brightness put_settings get_settings delete_contacts
        execute_sql_command disable_headsup_notifications enable_headsup_notifications send_android_intent""".split()
    assert len(names) == 56 and [name for name in names if not callable(getattr(adb_utils, name))] == []
    with pytest.raises(AttributeError, match=r"^android_world\.env\.adb_utils\.no_such is not provided by taskkit"):
        adb_utils.no_such  # noqa: B018


def test_adb_utils_input_and_screen_helpers_act_on_the_device(env) -> None:
    assert adb_utils.get_screen_size(env) == adb_utils.get_logical_screen_size(env) == env.device.ui.size()
    assert adb_utils.get_physical_frame_boundary(env) == (0, 0, *env.device.ui.size())
    adb_utils.change_orientation("landscape", env)
    assert adb_utils.get_orientation(env) == 1
    assert adb_utils.generate_swipe_command(1, 2, 3, 4, 50) == ["shell", "input", "swipe", "1", "2", "3", "4", "50"]
    assert "com.simplemobiletools.smsmessenger" in adb_utils.get_all_package_names(env)
    assert {"contacts", "audio recorder"} <= set(adb_utils.get_all_apps(env))
    assert adb_utils.uiautomator_dump(env).startswith("<?xml")
    calls = []

    @adb_utils.retry(3)
    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise RuntimeError("not yet")
        return "done"

    assert flaky() == "done" and len(calls) == 3


def test_the_rewrite_path_takes_android_world_s_constructors_and_leaves_its_bases_out(monkeypatch) -> None:
    from taskkit import registry
    from taskkit.compat.android_world.task_evals import task_eval

    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))  # this test's classes stay here

    class Markor(task_eval.TaskEval):  # a base as AndroidWorld writes one: apps, no goal
        app_names = ("markor",)

    class RewrittenNote(Markor):
        template = "Create {name}."

        def __init__(self, params):
            super().__init__(params)
            self.initialized = False  # AndroidWorld's constructors assign it
            self.name_seen = self._params["name"]

        def is_successful(self, env):
            return super().is_successful(env)

    assert "Markor" not in registry.names() and "RewrittenNote" in registry.names()
    task = RewrittenNote({"name": "a.md"})
    assert task.name_seen == "a.md" and task.goal == "Create a.md." and task.initialized is False


class _ReadsAQueue:
    """An AndroidWorld-style task whose check reads a database the app creates when it runs."""

    app_names, complexity, db = ("retro music",), 1.0, ""

    def __init__(self, params):
        self.params = params

    @property
    def goal(self) -> str:
        return "Queue a song."

    def initialize_task(self, env) -> None:
        pass

    def tear_down(self, env) -> None:
        pass

    def is_successful(self, env) -> float:
        import sqlite3

        with sqlite3.connect(self.db) as db:
            return float(bool(db.execute(self.query).fetchall()))


@pytest.mark.parametrize("query, verdict", [("SELECT title FROM playing_queue", "a reason"),
                                            ("SELEC title", "an error")])
def test_a_check_reading_a_table_the_app_never_made_scores_0_not_an_error(env, tmp_path, query, verdict) -> None:
    from taskkit.compat.android_world import native

    body = {"db": str(tmp_path / "music_playback_state.db"), "query": query}
    task = native.wrap("ReadsAQueue", type("ReadsAQueue", (_ReadsAQueue,), body))()
    task.initialize_state(env)
    try:
        if verdict == "a reason":  # AndroidWorld's push_file emptied databases/; the agent never opened the app
            assert task.is_successful(env) == 0.0
            assert "never created the table its check reads (no such table: playing_queue)" in task.last_result.reasons[0]
        else:  # any other failure of the check stays the task's error
            with pytest.raises(Exception, match="syntax error"):
                task.is_successful(env)
    finally:
        task.teardown(env)


_SUITE_UTILS = """
    import hashlib
    import random

    def create_suite(task_registry, n_task_combinations=1, seed=None):
      suite = {}
      for name, task_type in task_registry.items():
        suite[name] = []
        for i in range(n_task_combinations):  # AndroidWorld's instance seed, then its params
          random.seed(int(hashlib.sha256(f"{seed}_{name}_{i}".encode()).hexdigest(), 16) % 2**32)
          suite[name].append(task_type(task_type.generate_random_params()))
      return suite
    """


def test_the_goal_comparison_sets_the_checkout_s_suite_beside_taskkit_s(tmp_path) -> None:
    checkout_dir = _fake_suite(tmp_path / "aw")
    (checkout_dir / "android_world/suite_utils.py").write_text(textwrap.dedent(_SUITE_UTILS))
    command = [sys.executable, "-m", "taskkit.compat.android_world.goals", "--android_world", str(checkout_dir)]
    result = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    [row] = json.loads(result.stdout)
    assert row["task"] == "SystemWifiTurnOn" and row["android_world"] == row["taskkit_android_world"]
    assert row["android_world"].startswith("Turn wifi on. (") and row["taskkit_builtin"] == "Turn wifi on."
    (checkout_dir / "android_world/suite_utils.py").write_text(textwrap.dedent(_SUITE_UTILS).replace(
        "random.seed(", "random.seed(1 + "))  # a suite seeded otherwise: the goals differ, exit 1
    differs = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert differs.returncode == 1 and "0 of 1 goals equal AndroidWorld's at seed 30" in differs.stdout
    missing = subprocess.run(command[:-2], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and missing.stderr.strip().endswith("the AndroidWorld checkout whose goals to compare")
