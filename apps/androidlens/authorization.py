"""AndroidLens' authorization interaction (its supplement, Sec. C) on a modelled app: Android's
runtime-permission dialog, which the task's flow must answer.

AndroidLens' own authorization tasks bind third-party accounts (online); the stand-in here is the
permission an app asks for when a feature needs it: Audio Recorder asks for RECORD_AUDIO when
Record is tapped (MainActivity.checkRecordPermission2, Dimowner/AudioRecorder 05545b9), and the
system's dialog (taskkit/sim/gui/permissions.py) offers "While using the app", "Only this time" and
"Don't allow". AndroidWorld's set-up grants RECORD_AUDIO (android_world/env/setup_device/apps.py,
AudioRecorder.setup), so these tasks take it back at set-up (`pm revoke`, its flags cleared, as
before the app ever asked) and give it back at tear-down. A milestone reads the permission as the
package manager reports it (`taskkit.validators.permission_granted`: `dumpsys package`'s runtime permissions).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import audio_recorder
from taskkit.apps.androidlens import steps as st
from taskkit.apps.androidlens.goals import Goal, LensTask, note_written, sms_sent
from taskkit.apps.common import random_phone_number
from taskkit.device.base import Device
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.validators import file_exists, permission_granted
from taskkit.validators.permissions import USER_FLAGS

RECORD_AUDIO = "android.permission.RECORD_AUDIO"
_FLAGS = tuple(USER_FLAGS.values())  # pm's names of the flags an answer sets


def ask_again(device: Device, package: str, name: str) -> None:
    """Not granted and never answered: the app's next request shows the dialog."""
    device.packages.revoke(package, name)
    device.packages.clear_permission_flags(package, name, *_FLAGS)


def restore_setup_grant(device: Device, package: str, name: str) -> None:
    """Granted as AndroidWorld's set-up grants it (`pm grant`, no user flags)."""
    device.packages.grant(package, name)
    device.packages.clear_permission_flags(package, name, *_FLAGS)


def answer_dialog(device: Device, package: str, name: str, one_time: bool) -> None:
    """What "While using the app" (or "Only this time") stores: granted, USER_SET (ONE_TIME)."""
    device.packages.grant(package, name)
    device.packages.set_permission_flags(package, name, "user-set", *(("one-time",) if one_time else ()))


def mic_allowed(name: str, one_time: bool) -> Goal:
    """The dialog answered with "While using the app" (or "Only this time")."""
    package = audio_recorder.PACKAGE
    return Goal(name, permission_granted(package, RECORD_AUDIO, one_time),
                lambda env: answer_dialog(env.device, package, RECORD_AUDIO, one_time), must_hold=True)


class _MicTask(LensTask):
    """Audio Recorder without the microphone: the flow records, so it must answer the dialog."""

    abstract = True
    one_time = False

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"name": audio_recorder.random_recording_name(rng)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        ask_again(env.device, audio_recorder.PACKAGE, RECORD_AUDIO)

    def teardown(self, env: TaskEnv) -> None:
        restore_setup_grant(env.device, audio_recorder.PACKAGE, RECORD_AUDIO)

    def _recorded(self) -> Goal:
        file_name = self.params["name"] + audio_recorder.EXTENSION
        return Goal("recorded", file_exists(f"{audio_recorder.RECORDS_DIR}/{file_name}"),
                    lambda env: audio_recorder.save_recording(env.device, 6, file_name) and None, must_hold=True)

    def _record_steps(self) -> list[Step]:
        answer = "permission_allow_one_time_button" if self.one_time else "permission_allow_foreground_only_button"
        return [open_app("audio recorder"), tap("btn_record"), tap(answer), tap("btn_record_stop"), tap("txt_name"),
                type_text("input_name", self.params["name"]), tap("Save")]


def _schema(*names: str) -> dict[str, Any]:
    return {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": list(names)}


class AndroidLensMicPermissionMemo(_MicTask):
    """Allow the microphone while the app is in use, record and name a memo, then text its name:
    the grant, the recording and the text, in that order."""

    app_names = ("audio recorder", "simple sms messenger")
    complexity = 3
    difficulty, optimal_steps = "medium", 13
    tags = ("androidlens", "audio_recorder", "sms", "category:multi-goal", "subcategory:cross-app-related",
            "interaction:authorization")
    template = ("Audio Recorder may not use the microphone yet. Record a memo in Audio Recorder, allowing it the "
                "microphone while the app is in use, name the recording '{{ name }}', then text '{{ message }}' to "
                "{{ number }} in Simple SMS Messenger.")
    schema = _schema("name", "number", "message")

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        name = super().generate_random_params(rng)["name"]
        return {"name": name, "number": random_phone_number(rng), "message": f"New recording: {name}"}

    def goal_groups(self):
        return [(True, [mic_allowed("mic_allowed", False), self._recorded(),
                        sms_sent("sms", self.params["number"], self.params["message"])])]

    def gui_reference(self) -> list[Step]:
        return [*self._record_steps(), open_app("simple sms messenger"),
                *st.finish(st.sms_steps(self.params["number"], self.params["message"]))]


class AndroidLensOneTimeMicNote(_MicTask):
    """Allow the microphone only this time, record and name a memo, then list it in a Markor note."""

    app_names = ("audio recorder", "markor")
    one_time = True
    complexity = 3
    difficulty, optimal_steps = "medium", 13
    tags = ("androidlens", "audio_recorder", "markor", "category:multi-goal", "subcategory:cross-app-related",
            "interaction:authorization")
    template = ("Audio Recorder may not use the microphone yet. Record a memo in Audio Recorder, allowing the "
                "microphone only this time, name the recording '{{ name }}', then add a Markor note recordings.md "
                "with the line '{{ name }}.m4a'.")
    schema = _schema("name")

    def goal_groups(self):
        return [(True, [mic_allowed("mic_once", True), self._recorded(),
                        note_written("note", "recordings.md", f"{self.params['name']}.m4a")])]

    def gui_reference(self) -> list[Step]:
        return [*self._record_steps(), open_app("markor"),
                *st.finish(st.new_note("recordings.md", f"{self.params['name']}.m4a"))]

