"""B-MoCA's Settings tasks and the Settings pages they use: the pages' labels and ids, what their
controls write, the lines Android's services log for them (each matching B-MoCA's detector), and
per task the reference passing while a near miss (the opposite change, a different page, a write
from outside the screens) fails."""
from __future__ import annotations

import re

import pytest

from taskkit.apps.settings import bmoca, bmoca_cross
from taskkit.gui_reference import Step, contains, description, open_app, tap
from taskkit.rng import TaskRng
from taskkit.sim.gui.syslog import java_float
from taskkit.task import TaskEval
from tests.sim.gui.helpers import find, texts

SETTINGS = "com.android.settings"
TASKS = [cls for module in (bmoca, bmoca_cross) for cls in vars(module).values()
         if isinstance(cls, type) and issubclass(cls, TaskEval) and not cls.abstract and cls.__module__ == module.__name__]


def _open(device, *labels) -> None:
    bmoca.press_settings(device, list(labels), home=False)


def _log(device, tag: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in device.check(f"logcat -d -v threadtime -s {tag}").splitlines()
            if ": " in line and f" {tag}" in line]


def _slide(device, title: str, fraction: float) -> None:
    slider = find(device, lambda e: e.content_description == title and e.class_name == "android.widget.SeekBar")
    x = round(slider.bbox.x_min + fraction * (slider.bbox.x_max - slider.bbox.x_min))
    device.check(f"input tap {x} {slider.bbox.center[1]}")


# --- the pages -------------------------------------------------------------------------------------
def test_sound_page_sliders_write_audio_services_persisted_indexes(device) -> None:
    _open(device, "Sound & vibration")
    assert texts(device)[0] == "Sound & vibration"
    sliders = [e for e in device.ui.screen().elements if e.class_name == "android.widget.SeekBar"]
    assert [e.content_description for e in sliders] == ["Media volume", "Call volume", "Ring & notification volume",
                                                        "Alarm volume"]
    assert {e.resource_name for e in sliders} == {f"{SETTINGS}:id/seekbar"}
    # AudioService's MAX_STREAM_VOLUME and MIN_STREAM_VOLUME (Android 13)
    for title, key, top, lowest in (("Media volume", "volume_music_speaker", "15", "0"),
                                    ("Call volume", "volume_voice_earpiece", "5", "1"),
                                    ("Ring & notification volume", "volume_ring_speaker", "7", "0"),
                                    ("Alarm volume", "volume_alarm_speaker", "7", "1")):
        _slide(device, title, 0.99)
        assert device.settings.get("system", key) == top
        _slide(device, title, 0.0)
        assert device.settings.get("system", key) == lowest
    assert "0%" in texts(device)  # the media slider shows the stored level


def test_vibrate_for_calls_flips_vibrate_when_ringing(device) -> None:
    device.settings.put("system", "vibrate_when_ringing", "0")
    _open(device, "Sound & vibration", "Vibrate for calls")
    assert device.settings.get("system", "vibrate_when_ringing") == "1"
    assert any(re.search(r"^(.*)vibrate(.*)when(.*)ringing", line) for line in _log(device, "SettingsProvider"))


def test_see_all_apps_lists_the_launcher_apps_by_label(device) -> None:
    _open(device, "Apps")
    row = find(device, lambda e: (e.text or "").startswith("See all"))
    assert re.fullmatch(r"See all \d+ apps", row.text)
    _open(device, "Apps", contains("See all"))
    shown = texts(device)
    assert shown[0] == "All apps" and shown[1:4] == ["Audio Recorder", "Broccoli", "Calculator"]
    assert "Pixel Launcher" not in shown and "Settings Storage" not in shown
    assert _log(device, "SettingsActivity")[-1] == (
        "Switching to fragment com.android.settings.applications.manageapplications.ManageApplications")


def test_add_a_language_starts_the_locale_picker(device) -> None:
    _open(device, "System", "Languages & input", "Languages")
    assert texts(device)[:3] == ["Languages", "English (United States)", "Add a language"]
    _open(device, "System", "Languages & input", "Languages", "Add a language")
    assert device.activity.foreground() == f"{SETTINGS}/{SETTINGS}.localepicker.LocalePickerWithRegionActivity"
    assert texts(device)[0] == "Add a language" and "Deutsch" in texts(device)
    assert _log(device, "ActivityTaskManager")[-1] == (
        "START u0 {cmp=com.android.settings/.localepicker.LocalePickerWithRegionActivity} from uid 1000")
    device.check("input keyevent BACK")
    assert texts(device)[0] == "Languages"


def test_emergency_sos_switch_is_secure_emergency_gesture_enabled(device) -> None:
    assert device.settings.get("secure", "emergency_gesture_enabled") is None  # unset: on, the default
    _open(device, "Safety & emergency")
    assert "Emergency SOS" in texts(device) and "On" in texts(device)
    _open(device, "Safety & emergency", "Emergency SOS", "Use Emergency SOS")
    assert device.settings.get("secure", "emergency_gesture_enabled") == "0"
    switch = find(device, lambda e: e.class_name == "android.widget.Switch")
    assert not switch.is_checked
    _open(device, "Safety & emergency", "Emergency SOS", "Play countdown alarm")
    assert device.settings.get("secure", "emergency_gesture_sound_enabled") == "1"


# --- the lines Android's services log ----------------------------------------------------------------
def test_the_settings_process_start_is_logged_once_per_process(device) -> None:
    device.check(f"am force-stop {SETTINGS}")
    device.check(f"am start -n {SETTINGS}/.Settings")
    device.check(f"am start -n {SETTINGS}/.Settings")
    lines = _log(device, "ActivityManager")
    assert len(lines) == 1 and re.fullmatch(
        r"Start proc \d+:com\.android\.settings/1000 for pre-top-activity \{com\.android\.settings/com\.android\.settings\.Settings\}",
        lines[0])


def test_switches_and_sliders_log_what_their_services_log(device) -> None:
    settings_ = device.settings
    settings_.put("global", "airplane_mode_on", "0")
    _open(device, "Network & internet", "Airplane mode")
    _open(device, "Network & internet", "Airplane mode")
    assert _log(device, "PhoneGlobals") == ["Turning radio off - airplane", "Turning radio on - airplane"]
    _open(device, "Network & internet", "Internet", "Wi\u2011Fi")
    assert _log(device, "WifiService") == ["setWifiEnabled package=com.android.settings uid=1000 enable=false"]
    _open(device, "Display")
    _slide(device, "Brightness level", 0.5)
    level = int(settings_.get("system", "screen_brightness"))
    assert _log(device, "DisplayPowerController") == [
        f"Brightness [{java_float((level - 1) / 254)}] reason changing to: 'manual', previous reason: 'temporary'."]
    _open(device, "Connected devices", "Bluetooth")
    assert _log(device, "PrefCtrlListHelper") == [
        "Could not find Context-only controller for pref: com.android.settings.bluetooth.BluetoothDeviceRenamePreferenceController"]


def test_java_float_prints_as_float_to_string() -> None:
    assert [java_float(x) for x in (0.0, 1.0, 101 / 254, 0.5)] == ["0.0", "1.0", "0.39763778", "0.5"]


def test_a_settings_put_logs_no_settings_provider_line(device) -> None:
    device.check("settings put system volume_music_speaker 12")
    assert _log(device, "SettingsProvider") == []


# --- the tasks --------------------------------------------------------------------------------------
def test_the_tasks_carry_bmocas_wording_limits_and_tags() -> None:
    by_name = {cls.__name__: cls for cls in TASKS}
    assert len(TASKS) == 21
    assert by_name["BmocaAddLanguagePage"].template == "go to 'add a language' page in setting"
    assert by_name["BmocaAddLanguagePage"]().max_steps == 7 and by_name["BmocaSettingsOpen"]().max_steps == 4
    for cls in TASKS:  # B-MoCA files its cross-app "Clock (*)" tasks under the Event group
        group = "category:event" if cls.__module__ == bmoca_cross.__name__ else "category:system"
        assert {"bmoca", "settings", group} <= set(cls.tags), cls.__name__
        assert cls.optimal_steps <= 10 * cls.complexity
    assert {cls.template for cls in TASKS if "volume" in cls.template and cls.__module__ == bmoca.__name__} == {
        f"increase {s} volume in setting" for s in ("media", "call", "ring", "alarm")}
    assert by_name["BmocaAlarm1030AndAlarmVolumeUp"].complexity == 1.8
    assert by_name["BmocaAlarm1030AndAlarmVolumeUp"].app_names == ("clock", "settings")


def _episode(task_env, cls, act=None, seed: int = 0) -> float:
    """Initialize an instance, do `act(device)` (default: its solve), score, tear down."""
    task = cls(cls.generate_random_params(TaskRng(seed)))
    task.initialize_state(task_env)
    try:
        if act is None:
            task.solve(task_env)
        else:
            act(task_env.device)
        return task.is_successful(task_env)
    finally:
        task.teardown(task_env)


NEAR_MISSES = {
    # the opposite change through the same screen
    bmoca.BmocaMediaVolumeUp: lambda d: bmoca.press_settings(d, ["Sound & vibration", ("Media volume", 0.0)]),
    bmoca.BmocaAlarmVolumeUp: lambda d: bmoca.press_settings(d, ["Sound & vibration", ("Alarm volume", 0.0)]),
    bmoca.BmocaBrightnessDecrease: lambda d: bmoca.press_settings(d, ["Display", ("Brightness level", 1.0)]),
    # the right state written from outside the screens: no line for the detector
    bmoca.BmocaAirplaneModeOn: lambda d: d.settings.put("global", "airplane_mode_on", "1"),
    bmoca.BmocaWifiOff: lambda d: d.check("svc wifi disable"),
    bmoca.BmocaToggleDarkTheme: lambda d: d.settings.put(
        "secure", "ui_night_mode", "1" if d.settings.get("secure", "ui_night_mode") == "2" else "2"),
    # a neighbouring page, or a page short of the goal
    bmoca.BmocaRingVolumeUp: lambda d: bmoca.press_settings(d, ["Sound & vibration", ("Media volume", 1.0)]),
    bmoca.BmocaAppInfoList: lambda d: bmoca.press_settings(d, ["Apps"]),
    bmoca.BmocaBluetoothPage: lambda d: bmoca.press_settings(d, ["Connected devices"]),
    bmoca.BmocaAddLanguagePage: lambda d: bmoca.press_settings(d, ["System", "Languages & input", "Languages"]),
    bmoca.BmocaSettingsOpen: lambda d: d.check("input keyevent HOME"),
    bmoca_cross.BmocaAirplaneAndAlarm1030: lambda d: bmoca.press_settings(d, ["Network & internet", "Airplane mode"]),
}


@pytest.mark.parametrize("cls", sorted(NEAR_MISSES, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_the_solve_passes_and_a_near_miss_fails(task_env, cls) -> None:
    assert _episode(task_env, cls) == 1.0
    assert _episode(task_env, cls, NEAR_MISSES[cls]) == 0.0


def test_a_toggle_task_flips_from_either_start(task_env) -> None:
    starts = {bmoca.BmocaToggleVibrateForCalls.generate_random_params(TaskRng(s))["start_on"] for s in range(8)}
    assert starts == {True, False}
    for seed in range(4):
        assert _episode(task_env, bmoca.BmocaToggleVibrateForCalls, seed=seed) == 1.0


def test_the_gui_reference_of_a_volume_task_taps_its_slider() -> None:
    steps = bmoca.BmocaCallVolumeUp({"start": 2}).gui_reference()
    assert steps == [open_app("settings"), tap("Sound & vibration"), tap(description("Call volume"), at=(0.95, 0.5))]
    assert all(isinstance(step, Step) for step in steps)


def test_emergency_contacts_are_the_emergency_info_apps_preference(device) -> None:
    from taskkit.apps import contacts
    from taskkit.device.services import shared_prefs
    from taskkit.sim.gui import emergency

    contacts.add_contact(device, "Ada Lovelace", "+12025550101")
    contacts.add_contact(device, "Bob Stone", "+12025550102")
    _open(device, "Safety & emergency")
    assert "Add contacts" in texts(device)
    _open(device, "Safety & emergency", "Emergency contacts", "Add contact")
    assert texts(device) == ["Choose a contact", "Ada Lovelace", "+12025550101", "Bob Stone", "+12025550102"]
    for name in ("Bob Stone", "Add contact", "Ada Lovelace", "Add contact", "Bob Stone"):  # Bob twice: kept once
        x, y = find(device, name).bbox.center
        device.check(f"input tap {x} {y}")
    assert texts(device) == ["Emergency contacts", "Bob Stone", "+12025550102", "Ada Lovelace", "+12025550101",
                             "Add contact"]
    stored = shared_prefs.parse(device.files.read_text(emergency.PREFS_PATH))["emergency_contacts"]
    assert re.fullmatch(r"content://com\.android\.contacts/data/\d+\|content://com\.android\.contacts/data/\d+",
                        stored.value) and stored.kind == "string"
    device.check("input keyevent BACK")
    assert "2 contacts" in texts(device)
