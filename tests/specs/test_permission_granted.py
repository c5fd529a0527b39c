"""The `permission_granted` check kind: compiled to `taskkit.validators.permission_granted`, an
unknown package or permission refused at file:line:col, and the built-in spec that uses it
(AudioRecorderAllowMicAndRecordSpec) judged by its GUI reference and its near misses."""
from __future__ import annotations

import pytest

from taskkit import loading, registry, specs
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.env import Env
from taskkit.gui_reference import tap
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance
from taskkit.testing.session import Session
from taskkit.validators import all_of, file_exists, permission_granted

PACKAGE, MIC = "com.dimowner.audiorecorder", "android.permission.RECORD_AUDIO"
SPEC = "AudioRecorderAllowMicAndRecordSpec"


def _spec(tmp_path, check: str):
    path = tmp_path / "mic.textproto"
    path.write_text('name: "MicCheck"\napps: "audio recorder"\ncomplexity: 1\ngoal: "Allow the microphone."\n'
                    f"success {{ {check} }}\n"
                    f'oracle {{ shell {{ command: "pm grant {PACKAGE} {MIC}" }} }}\n')
    return path


@pytest.mark.parametrize("one_time, expected", [("", None), ("one_time: true", True), ("one_time: false", False)])
def test_the_kind_builds_the_public_validator(tmp_path, one_time, expected):
    check = f'permission_granted {{ package: "{PACKAGE}" permission: "{MIC}" {one_time} }}'
    task = specs.load_file(_spec(tmp_path, check), register=False).from_seed(0)
    assert task.validator() == permission_granted(PACKAGE, MIC, expected)


@pytest.mark.parametrize("fields, at, field, message", [
    (f'package: "com.dimowner.audiorecorde" permission: "{MIC}"', "package:", "package",
     "'com.dimowner.audiorecorde' is not installed on the device (did you mean com.dimowner.audiorecorder?)"),
    (f'package: "{PACKAGE}" permission: "RECORD_AUDIO"', "permission:", "permission",
     "'RECORD_AUDIO' is not one of Android 13's runtime permissions (did you mean android.permission.RECORD_AUDIO"),
    (f'package: "{PACKAGE}" permission: "android.permission.INTERNET"', "permission:", "permission",
     "by its full name: e.g. android.permission.RECORD_AUDIO"),
    (f'permission: "{MIC}"', "permission_granted", "package", "required: the package"),
])
def test_an_unknown_package_or_permission_is_one_line_at_its_field(tmp_path, fields, at, field, message):
    path = _spec(tmp_path, f"permission_granted {{ {fields} }}")
    with pytest.raises(specs.SpecError) as caught:
        specs.load_file(path, register=False)
    column = path.read_text().splitlines()[4].index(at) + 1  # line 5 holds the check
    assert str(caught.value).startswith(f"{path}:5:{column}: success.permission_granted.{field}: ")
    assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


@pytest.fixture(scope="module")
def mic_spec():
    loading.load_builtin()
    return registry.get(SPEC)


def test_the_spec_checks_the_grant_and_the_recording(mic_spec):
    task = mic_spec.from_seed(0)
    path = f"/storage/emulated/0/Android/data/{PACKAGE}/files/Music/records/{task.params['name']}.m4a"
    assert task.validator() == all_of(permission_granted(PACKAGE, MIC, one_time=False), file_exists(path))


def test_its_near_misses_include_the_dialog_denied_and_answered_only_this_time(mic_spec, module_device):
    run = Session(env=Env(module_device)).near_misses(mic_spec, 0)
    assert run.survived == [] and run.unapplied == [] and not run.error, run
    assert run.killed[:2] == [f"permission {MIC} denied", f"permission {MIC} granted only this time"]


def _only_this_time(steps):
    """The reference with the dialog answered "Only this time"."""
    return [tap("permission_allow_one_time_button") if "permission_allow_foreground_only_button" in str(s.target) else s
            for s in steps]


def test_answering_only_this_time_fails_and_the_tear_down_gives_the_grant_back(mic_spec, module_device):
    env = Env(module_device)
    result = run_episode(env, TaskInstance(mic_spec, 0, 0), GuiReferenceAgent(variant=_only_this_time), 1)
    assert result.error is None and result.score == 0.0, result
    assert module_device.packages.runtime_permission(PACKAGE, MIC) == (True, frozenset())
