"""The command lines' bad input and what they tell the user (issue 34, items 5, 11, 15, 21).

A module that exits while taskkit imports it is bad input (one line naming it, exit 2); a NUL
byte in any flag (also through --flagfile) is one line and exit 2 for every command;
`--list_tasks --json` gives the table's facts with their types; `taskkit.check` shows progress on
stderr, `--list_tasks` dry-runs only the specs that are not taskkit's own, an adb server that is
not there is a device failure (exit 3), and the summary names the episodes with side effects.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit import cli, loading, report_html
from taskkit.ports import free_port
from taskkit.report import summary

ROOT = Path(__file__).resolve().parents[1]


def _benchmark(name: str) -> types.ModuleType:
    """A module of benchmarks/ (not a package), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pool_scaling = _benchmark("pool_scaling")


def run(module: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd or ROOT,
                          timeout=600)


def one_line(proc: subprocess.CompletedProcess, code: int, *needles: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


# --- item 5: a module that exits while it is imported -------------------------------------------

@pytest.mark.parametrize("how, body, code", [("task_module file", "import sys\nsys.exit(0)\n", "0"),
                                              ("task_module name", "raise SystemExit(3)\n", "3"),
                                              ("agent file", "import sys\nsys.exit('bye')\n", "'bye'")])
def test_a_module_that_exits_on_import_is_bad_input(tmp_path, how, body, code):
    (tmp_path / "exits_here.py").write_text(body)
    flag, spec = {"task_module file": ("--task_module", str(tmp_path / "exits_here.py")),
                  "task_module name": ("--task_module", "exits_here"),
                  "agent file": ("--agent", f"{tmp_path / 'exits_here.py'}:Agent")}[how]
    proc = run("taskkit.run", flag, spec, "--tasks", "SystemWifiTurnOn", "--output_dir", str(tmp_path / "out"),
               cwd=tmp_path)
    shown = spec.rpartition(":")[0] if flag == "--agent" else spec
    one_line(proc, 2, f"{flag} {shown}:", f"exited while being imported (sys.exit({code}))")
    assert not (tmp_path / "out").exists()


def test_the_check_refuses_an_exiting_task_module_the_same_way(tmp_path):
    (tmp_path / "exits_here.py").write_text("raise SystemExit(0)\n")
    one_line(run("taskkit.check", "--task_module", str(tmp_path / "exits_here.py")), 2,
             "exited while being imported (sys.exit(0))")


def test_an_interrupt_while_importing_stays_an_interrupt(tmp_path):
    (tmp_path / "interrupted.py").write_text("raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        loading.load_module(str(tmp_path / "interrupted.py"))


# --- item 11: NUL bytes (and other control characters) in flags ---------------------------------

def _commands() -> dict[str, tuple[object, str]]:
    """Every taskkit command line that parses flags through cli.run_main: its module and prog."""
    names = {"taskkit.run": "taskkit.run", "taskkit.check": "taskkit.check", "taskkit.demos": "taskkit.demos.__main__",
             "static_eval": "taskkit.static_eval.__main__"}
    return {prog: importlib.import_module(module) for prog, module in names.items()}


COMMANDS = _commands()
PATH_FLAGS = ["output_dir", "device", "task_module", "spec_dir", "android_world", "agent", "dataset", "output",
              "device_config", "flagfile"]
CONTROL = st.characters(min_codepoint=0, max_codepoint=31) | st.characters(min_codepoint=127, max_codepoint=159)
TEXT = st.text(CONTROL | st.sampled_from("ab/._-:é"), max_size=8)
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85"  # a flagfile is read a line at a time: a value holds none


def _call(module: object, argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.run_main(module.PROG, module.FLAGS, module.main, argv)  # type: ignore[attr-defined]
    return code, err.getvalue()


@given(command=st.sampled_from(sorted(COMMANDS)), before=TEXT, after=TEXT, prefix=st.sampled_from(["", "sim:", "replay:"]),
       through_flagfile=st.booleans(), data=st.data())
def test_a_nul_byte_in_any_path_flag_is_one_line_and_exit_2(tmp_path_factory, command, before, after, prefix,
                                                            through_flagfile, data):
    module = COMMANDS[command]
    flag = data.draw(st.sampled_from([name for name in PATH_FLAGS if name in module.FLAGS]))  # type: ignore[attr-defined]
    value = f"{prefix}{before}\0{after}"
    argv = [command, f"--{flag}={value}"]
    if through_flagfile and flag != "flagfile":
        flagfile = tmp_path_factory.mktemp("flags") / "flags.txt"
        kept = "".join(char for char in value if char not in LINE_BREAKS)
        flagfile.write_text(f"--{flag}={kept}\n", encoding="utf-8", newline="\n")
        argv = [command, f"--flagfile={flagfile}"]
    code, err = _call(module, argv)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err and "\0" not in err, err
    assert f"--{flag} " in err and "NUL byte" in err, err


@given(value=st.text(CONTROL | st.sampled_from("ab/"), min_size=1, max_size=8))
def test_the_report_takes_a_nul_byte_in_its_directory_as_bad_input(value):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = report_html.run(["taskkit.report", f"/nonexistent/{value}\0"])
    assert code == 2 and err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()


@given(value=TEXT.filter(lambda text: "\0" not in text))
def test_control_characters_without_a_nul_pass_the_check(value):
    """Other control characters can be part of a path: the NUL check lets them through."""
    cli.refuse_nul("--output_dir", value)


# --- item 15: --list_tasks --json -----------------------------------------------------------------

def test_list_tasks_json_has_the_tables_fields_with_their_types():
    listed = run("taskkit.run", "--list_tasks", "--json")
    table = run("taskkit.run", "--list_tasks")
    assert listed.returncode == 0 and table.returncode == 0, listed.stderr + table.stderr
    tasks = json.loads(listed.stdout)
    header, *rows = [line.split("\t") for line in table.stdout.splitlines()]
    assert [list(task) for task in tasks] == [header] * len(rows) and len(tasks) == len(rows) > 200
    facts = {task["name"]: task for task in tasks}
    assert facts["ExpenseAddSingle"] == {
        "name": "ExpenseAddSingle", "apps": ["pro expense"], "difficulty": "easy", "optimal_steps": 6,
        "tags": ["data_entry", "expense", "parameterized", "search"], "source": "taskkit.apps.expense.tasks",
        "runs_on": "any", "gui": True, "benchmark": "android_world", "level": None, "category": None, "max_steps": 12}
    assert facts["CameraTakePhoto"]["runs_on"].startswith("real device only: ") and facts["CameraTakePhoto"]["gui"] is False
    for task in tasks:
        assert isinstance(task["apps"], list) and isinstance(task["tags"], list) and isinstance(task["gui"], bool)
        assert task["optimal_steps"] is None or isinstance(task["optimal_steps"], int)
        assert isinstance(task["max_steps"], int)
    for row in rows:  # the table shows the same facts
        name = row[0]
        assert row[6] == facts[name]["runs_on"] and row[11] == str(facts[name]["max_steps"])


def test_json_without_list_tasks_is_refused():
    one_line(run("taskkit.run", "--json"), 2, "--json goes with --list_tasks")


def test_pool_scaling_selects_tasks_that_run_on_the_simulator():
    listed = json.loads(run("taskkit.run", "--list_tasks", "--json").stdout)
    chosen = pool_scaling.select(listed, 120, 3)
    runs_on = {task["name"]: task["runs_on"] for task in listed}
    assert len(chosen) == 40 and all(runs_on[name] == "any" for name in chosen)
    with pytest.raises(pool_scaling.NothingMeasured, match="needs 1000 task"):
        pool_scaling.select(listed, 3000, 3)


# --- item 21: taskkit.check's progress, --list_tasks' cost, adb failures, side effects ---------------

def test_the_check_shows_its_progress_on_stderr():
    proc = run("taskkit.check", "--tasks", "SystemWifiTurnOn,SystemWifiTurnOff", "--seeds", "1", "--properties",
               "solvable,clean_teardown")
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stderr.splitlines() if line.startswith("[")]
    assert [line.split("]")[1].split()[0] for line in progress] == ["1/4", "2/4", "3/4", "4/4"], proc.stderr
    assert progress[0].endswith("SystemWifiTurnOn solvable") and progress[-1].endswith("SystemWifiTurnOff clean_teardown")


SPEC = """name: "HardeningListedSpec"
apps: "settings"
complexity: 1
goal: "Turn on Wi-Fi."
success { setting_equals { namespace: "global" key: "wifi_on" values: "1" } }
oracle { set_setting { namespace: "global" key: "wifi_on" value: "1" } }
"""


def test_list_tasks_dry_runs_only_the_specs_that_are_not_taskkits_own(tmp_path):
    """Listing compiles every spec (their facts are the classes'), but dry-runs — draws params and
    renders goals, the larger part of compiling — only the user's: taskkit's own are dry-run by
    the test suite (tests/specs/test_builtin_specs.py)."""
    (tmp_path / "mine.textproto").write_text(SPEC)
    code = textwrap.dedent(f"""
        import sys
        from taskkit import run
        from taskkit.specs import compiler
        dry = []
        real = compiler.dry_run
        compiler.dry_run = lambda cls, *a, **k: (dry.append(cls.name), real(cls, *a, **k))[1]
        code = run.run(["taskkit.run", "--list_tasks", "--spec_dir", {str(tmp_path)!r}])
        print("DRY", ",".join(dry), file=sys.stderr)
        sys.exit(code)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "HardeningListedSpec" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "DRY HardeningListedSpec"


def test_a_bad_user_spec_is_still_reported_by_list_tasks(tmp_path):
    (tmp_path / "bad.textproto").write_text(SPEC.replace('goal: "Turn on Wi-Fi."', 'goal: "{{ 1 / 0 }}"'))
    proc = run("taskkit.run", "--list_tasks", "--spec_dir", str(tmp_path))
    assert proc.returncode == 2 and "bad.textproto" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("module", ["taskkit.run", "taskkit.check"])
def test_no_adb_server_is_a_device_failure_exit_3(module):
    proc = run(module, "--device", "adb", "--adb_port", str(free_port()), "--tasks", "SystemWifiTurnOn")
    one_line(proc, 3, "cannot open device 'adb'", "not reachable", "`adb start-server`")


def _row(index: int, effects: list[str] | None) -> dict:
    return {"task": "A", "instance_id": f"A_{index}", "apps": ["settings"], "score": 1.0, "success": True, "steps": 1,
            "max_steps": 10, "status": "complete", "error": None, "error_kind": None, "duration_s": 0.1,
            "side_effects": effects}


def test_the_summary_names_the_episodes_with_side_effects():
    rows = [_row(i, ["files: /sdcard/x created"]) for i in range(7)] + [_row(7, []), _row(8, None)]
    assert "side effects: 7 of 8 episode(s): A_0, A_1, A_2, A_3, A_4 and 2 more" in summary(rows)
    assert "side effects: 1 of 2 episode(s): A_3\n" in summary([_row(3, ["x"]), _row(4, [])]) + "\n"
