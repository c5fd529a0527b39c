"""The authorization interaction: Android 13's runtime-permission dialog in front of Audio Recorder's
Record (taskkit/sim/gui/permissions.py), the permission state `pm` stores and `dumpsys package`
shows, and the AndroidLens tasks whose flow must answer the dialog."""
from __future__ import annotations

from taskkit import registry
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.apps import audio_recorder
from taskkit.apps.androidlens import authorization
from taskkit.gui_reference import tap as tap_step
from taskkit.runner import run_episode
from taskkit.sim.gui import permissions
from taskkit.suite import TaskInstance
from tests.sim.gui.helpers import labels, tap

PACKAGE, MIC = audio_recorder.PACKAGE, authorization.RECORD_AUDIO
PC = "com.android.permissioncontroller:id/"


def _state(device) -> tuple[bool, frozenset[str]]:
    return device.packages.runtime_permission(PACKAGE, MIC)


def _open_and_record(device) -> list[str]:
    device.check(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(device, "btn_record")
    return [e.resource_name or "" for e in device.ui.screen().elements]


def test_the_set_up_grants_the_microphone_so_record_starts_without_a_dialog(sim_device):
    assert _state(sim_device) == (True, frozenset())  # AndroidWorld's AudioRecorder.setup grants it
    ids = _open_and_record(sim_device)
    assert f"{PACKAGE}:id/btn_record_stop" in ids and not any(i.startswith(PC) for i in ids)


def test_without_the_permission_record_asks_and_a_second_denial_stops_asking(sim_device):
    authorization.ask_again(sim_device, PACKAGE, MIC)
    ids = _open_and_record(sim_device)
    assert [i for i in ids if i.startswith(PC)][-3:] == [
        f"{PC}permission_allow_foreground_only_button", f"{PC}permission_allow_one_time_button",
        f"{PC}permission_deny_button"]
    assert "Allow Audio Recorder to record audio?" in labels(sim_device)
    assert {e.package_name for e in sim_device.ui.screen().elements} == {"com.google.android.permissioncontroller"}
    tap(sim_device, "permission_deny_button")  # the app does nothing with a denial
    assert "Start recording" in labels(sim_device) and _state(sim_device) == (False, frozenset({"USER_SET"}))
    tap(sim_device, "btn_record")  # asked again: the deny button fixes the answer
    tap(sim_device, "permission_deny_and_dont_ask_again_button")
    assert _state(sim_device) == (False, frozenset({"USER_SET", "USER_FIXED"}))
    tap(sim_device, "btn_record")  # denied without a dialog
    assert "Start recording" in labels(sim_device) and permissions.DENY not in labels(sim_device)


def test_allowing_grants_the_permission_and_the_recording_starts(sim_device):
    authorization.ask_again(sim_device, PACKAGE, MIC)
    _open_and_record(sim_device)
    tap(sim_device, "permission_allow_one_time_button")
    assert _state(sim_device) == (True, frozenset({"USER_SET", "ONE_TIME"}))
    assert "btn_record_stop" in labels(sim_device)


def test_pm_refuses_an_unknown_permission_flag(sim_device):
    result = sim_device.shell(f"pm set-permission-flags {PACKAGE} {MIC} user-sett")
    assert result.exit_code == 255 and "Unknown permission flags given: user-sett" in result.stderr
    assert _state(sim_device) == (True, frozenset())


def _denying(steps):
    """The reference with the dialog answered "Don't allow"."""
    allow = next(i for i, s in enumerate(steps) if "permission_allow" in str(s.target))
    return [*steps[:allow], tap_step("permission_deny_button"), *steps[allow + 1:]]


def test_denying_the_dialog_fails_the_authorization_tasks(env):
    for name in ("AndroidLensMicPermissionMemo", "AndroidLensOneTimeMicNote"):
        cls = registry.get(name)
        assert "interaction:authorization" in cls.tags
        result = run_episode(env, TaskInstance(cls, 0, 0), GuiReferenceAgent(variant=_denying), 1)
        assert result.error is None and result.score == 0.0 and result.progress == 0.0, result
        assert _state(env.device) == (True, frozenset())  # the tear-down gave the set-up's grant back
