"""Loading spec directories: every error collected, includes in any file order, cycles and
duplicate names caught, positions exact, shell steps injection-proof, the CLI's --spec_dir."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taskkit import registry, specs
from taskkit.specs import positions
from taskkit.task_protos import task_spec_pb2

ROOT = Path(__file__).resolve().parents[2]

WIFI = '''
name: "{name}"
apps: "settings"
complexity: 1
goal: "Turn wifi on."
setup {{ shell {{ command: "svc wifi disable" }} }}
success {{ setting_equals {{ namespace: "global" key: "wifi_on" values: ["1", "2"] }} }}
oracle {{ shell {{ command: "svc wifi enable" }} }}
'''
BLUETOOTH = WIFI.replace("wifi", "bluetooth").replace('["1", "2"]', '"1"')
COMPOSITE = '''
name: "{name}"
goal: "Turn wifi and bluetooth on."
include {{ label: "wifi" task: "{first}" weight: 3 }}
include {{ label: "bt" task: "{second}" }}
'''


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_load_dir_compiles_good_specs_and_collects_every_error(tmp_path):
    write(tmp_path, "good.textproto", WIFI.format(name="LoaderGood"))
    write(tmp_path, "bad_app.textproto", WIFI.format(name="LoaderBadApp").replace('"settings"', '"setings"'))
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "bad_syntax.textproto", "name: {")  # subdirectories are loaded too
    result = specs.load_dir(tmp_path, register=False)
    assert [cls.name for cls in result.classes] == ["LoaderGood"]
    assert sorted(Path(e.path).name for e in result.errors) == ["bad_app.textproto", "bad_syntax.textproto"]
    assert all(isinstance(e, specs.SpecError) and e.line >= 1 and e.col >= 1 for e in result.errors)


def test_a_composite_may_include_specs_of_its_directory_in_any_order(tmp_path, env):
    write(tmp_path, "a_both.textproto", COMPOSITE.format(name="LoaderBoth", first="LoaderWifi", second="LoaderBt"))
    write(tmp_path, "z_wifi.textproto", WIFI.format(name="LoaderWifi"))
    write(tmp_path, "z_bt.textproto", BLUETOOTH.format(name="LoaderBt"))
    result = specs.load_dir(tmp_path, register=False)
    assert result.errors == []
    both = next(cls for cls in result.classes if cls.name == "LoaderBoth")
    assert set(both.app_names) == {"settings"} and both.complexity == 2
    task = both.from_seed(1)
    task.initialize_state(env)
    try:
        assert task.is_successful(env) == 0.0
        env.device.check("svc wifi enable")  # only the part of weight 3 of 4
        assert task.is_successful(env) == 0.75
        task.solve(env)
        assert task.is_successful(env) == 1.0
    finally:
        task.teardown(env)


def test_include_cycles_and_duplicate_names_are_errors(tmp_path):
    write(tmp_path, "a.textproto", COMPOSITE.format(name="LoaderA", first="LoaderB", second="LoaderB"))
    write(tmp_path, "b.textproto", COMPOSITE.format(name="LoaderB", first="LoaderA", second="LoaderA"))
    write(tmp_path, "c.textproto", WIFI.format(name="LoaderC"))
    write(tmp_path, "d.textproto", WIFI.format(name="LoaderC"))
    result = specs.load_dir(tmp_path, register=False)
    messages = sorted(str(error) for error in result.errors)
    assert [cls.name for cls in result.classes] == ["LoaderC"]
    assert f"{tmp_path / 'b.textproto'}:3:25: include[0].task: include cycle: LoaderA -> LoaderB -> LoaderA" in messages
    assert f"{tmp_path / 'a.textproto'}:3:25: include[0].task: task 'LoaderB' is defined by a spec that failed to load " \
           f"({tmp_path / 'b.textproto'})" in messages
    assert any(m.startswith(f"{tmp_path / 'd.textproto'}:1:1: name: task name 'LoaderC' is already defined in ")
               for m in messages)


def test_loading_a_file_twice_replaces_its_class_and_another_file_cannot_take_the_name(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))  # what this test registers goes away after it
    first = write(tmp_path, "one.textproto", WIFI.format(name="LoaderTwice"))
    cls = specs.load_file(first)
    assert registry.get("LoaderTwice") is cls and cls.source == str(first.resolve())
    assert specs.load_file(first) is registry.get("LoaderTwice")
    other = write(tmp_path, "two.textproto", WIFI.format(name="LoaderTwice"))
    with pytest.raises(specs.SpecError, match=r"two.textproto:1:1: name: task name 'LoaderTwice' is already defined"):
        specs.load_file(other)


def test_positions_name_every_field_and_list_element():
    text = 'name: "x"\nparams {\n  name: "a"\n  choice { strings: ["p", "q"] }\n}\nparams { name: "b" }\n'
    where = positions.scan(text, task_spec_pb2.TaskSpec.DESCRIPTOR)
    assert where.locate("params[0].choice.strings[1]") == (4, 27)
    assert where.locate("params[1].name") == (6, 10)
    assert where.locate("params[1].int_range.min") == (6, 1)  # absent: its nearest present ancestor
    assert where.locate_text("params[0].choice.strings[1]", "q") == (4, 28)


def test_spec_error_is_one_line():
    error = specs.SpecError("a/b.textproto", 3, 7, "params[0].name", "required")
    assert str(error) == "a/b.textproto:3:7: params[0].name: required"
    assert isinstance(error, ValueError)


PAYLOADS = ["$(touch /sdcard/pwned)", "`touch /sdcard/pwned`", "x; touch /sdcard/pwned", "a' ; touch /sdcard/pwned; '",
            'b" && touch /sdcard/pwned && "', "c\ntouch /sdcard/pwned", "| touch /sdcard/pwned", "$HOME ${PATH}"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_shell_steps_quote_every_interpolated_value(tmp_path, env, payload):
    spec = write(tmp_path, "canary.textproto", f'''
        name: "LoaderCanary"
        apps: "files"
        complexity: 1
        goal: "Nothing."
        params {{ name: "title" constant {{ str: {payload!r} }} }}
        setup {{ shell {{ command: "echo {{{{ title }}}} > /sdcard/Download/out.txt; echo $(echo authored) >> /sdcard/Download/out.txt" }} }}
        success {{ file_exists {{ path: "/sdcard/Download/none.txt" }} }}
        oracle {{ write_file {{ path: "/sdcard/Download/none.txt" content: "" }} }}
    '''.replace('{payload!r}', repr(payload)))
    task = specs.load_file(spec, register=False).from_seed(0)
    assert task.params["title"] == payload
    task.initialize_state(env)
    try:
        assert not env.device.files.exists("/sdcard/pwned"), payload
        # the value arrives as one literal word; a command substitution the author wrote runs
        assert env.device.files.read_text("/sdcard/Download/out.txt") == payload + "\nauthored\n"
    finally:
        task.teardown(env)


def test_run_cli_rejects_a_bad_spec_dir_with_one_line(tmp_path):
    write(tmp_path, "bad.textproto", WIFI.format(name="LoaderCli").replace('namespace: "global"', 'namespace: "globl"'))
    proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--spec_dir", str(tmp_path), "--list_tasks"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert f"{tmp_path / 'bad.textproto'}:6:28: success.setting_equals.namespace: must be global, system or secure; got 'globl'" in lines[0]


def test_run_cli_runs_the_example_spec_with_oracle_and_noop(tmp_path):
    def run(agent: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--spec_dir", "examples/specs", "--tasks",
                               "ExampleCalendarEventsOnDay", "--n_task_combinations", "2", "--agent", agent,
                               "--output_dir", str(tmp_path / agent)], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        return (tmp_path / agent / "results.jsonl").read_text()

    oracle = [json.loads(line) for line in run("oracle").splitlines()]
    noop = [json.loads(line) for line in run("noop").splitlines()]
    assert [r["score"] for r in oracle] == [1.0, 1.0] and all(r["answer"] for r in oracle)
    assert [r["score"] for r in noop] == [0.0, 0.0] and all(r["error"] is None for r in noop)


def test_a_step_that_fails_at_run_time_names_its_file_line_and_field(tmp_path, env):
    path = write(tmp_path, "fails.textproto", WIFI.format(name="LoaderFails").replace(
        'oracle { shell { command: "svc wifi enable" } }', 'oracle { shell { command: "ls /no/such/dir" } }'))
    task = specs.load_file(path, register=False).from_seed(0)
    task.initialize_state(env)
    try:
        with pytest.raises(specs.SpecRuntimeError) as caught:
            task.solve(env)
    finally:
        task.teardown(env)
    assert str(caught.value).startswith(f"{path.resolve()}:7:10: oracle[0].shell: CommandFailed: ")


def test_the_readme_spec_loads(tmp_path):
    readme = (ROOT / "README.md").read_text()
    block = readme.split("### Tasks without Python: specs", 1)[1].split("```", 2)[1]
    cls = specs.load_file(write(tmp_path, "readme.textproto", block), register=False)
    assert cls.name == "SystemBrightnessSetSpec"
