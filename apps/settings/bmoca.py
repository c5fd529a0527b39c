"""B-MoCA's Settings tasks (its Appendix B tables, v2, plus v1's "turn off airplane mode" and
"turn on wifi"): instruction as the template, step limit (complexity = limit / 10), detector.

Each is judged by the setting it changes, read from the device (a volume raised above the seeded
level, brightness lowered, a switch flipped), AND by B-MoCA's logcat detector, or by the detector
alone where a page visit leaves no state. The detectors read the lines the simulated Settings
screens log where Android's services do (taskkit/sim/gui/syslog.py; docs/sim-device.md). Two of
B-MoCA's published regexes are repaired, as documented there: "go to app info list" (v2 prints
"…(.*)System log", v1 "…(.*)ManageApplications") takes v1's; "increase ring volume" (both print
`^(.*)MUSIC`, the media stream's name) takes RING. B-MoCA's ActivityManager START detectors are
ActivityTaskManager's on Android 13 (docs/sim-device.md).

`solve` drives the Settings screens with `input tap` (as Android's lines come from the screens,
not from `settings put`); `gui_reference` taps the same rows. `optimal_steps` is the reference's
action count.
"""
from __future__ import annotations

from typing import Any, ClassVar

from taskkit import metadata
from taskkit.apps import settings
from taskkit.apps.bmoca_detect import find_and_tap
from taskkit.device.base import Device
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, Target, contains, description, open_app, tap
from taskkit.rng import TaskRng
from taskkit.sim.gui import volumes
from taskkit.task import TaskEval
from taskkit.validators import all_of, logcat_matches, setting_equals
from taskkit.validators.base import Validator

WIFI = "Wi\u2011Fi"
SOUND = "Sound & vibration"
TAGS = ("bmoca", "settings", "category:system")
# the volume streams: (the stream, B-MoCA's detector word, the seeded start range: below the top)
VOLUMES = {"media": (volumes.MEDIA, "MEDIA", (4, 9)), "call": (volumes.CALL, "CALL", (2, 3)),
           "ring": (volumes.RING, "RING", (2, 4)), "alarm": (volumes.ALARM, "ALARM", (2, 4))}
Press = "Target | tuple[str, float]"  # a row (label or locator), or (a slider's description, where along it)
START_BRIGHTNESS = 102  # the image's level (40 %)
SEE_ALL_APPS = contains("See all")  # "See all %1$d apps" (see_all_apps_title)


def above(namespace: str, key: str, start: int, top: int) -> Validator:
    """The integer setting was raised from `start` (to at most `top`)."""
    return setting_equals(namespace, key, [str(v) for v in range(start + 1, top + 1)])


def _target(press: "Press") -> tuple[Target, float | None]:
    """(where to tap, the fraction along it for a slider) of one press."""
    if isinstance(press, tuple):
        return description(press[0]), press[1]
    return press, None


def press_settings(device: Device, presses: "list[Press]", home: bool = True) -> None:
    """Open Settings at its top level and tap each row (scrolling to it), or a slider at a
    fraction, then (`home`) go home; rows are found as the GUI reference finds them (taskkit.gui_reference
    locators)."""
    settings.APP.force_stop(device)
    device.check("am start -n com.android.settings/.Settings")
    for press in presses:
        find_and_tap(device, *_target(press))
    if home:  # Settings' sub pages run in activities `am start` cannot name: leave none in front
        device.check("input keyevent HOME")


def _steps(presses: "list[Press]") -> list[Step]:
    """The GUI reference of `presses`: open Settings, tap each row or slider."""
    return [open_app("settings")] + [tap(target, at=None if fraction is None else (fraction, 0.5))
                                     for target, fraction in map(_target, presses)]


class BmocaSettingsTask(TaskEval, register=False):
    """One of B-MoCA's Settings tasks: `presses` from the top level do it; `detector` is B-MoCA's
    (tag:level, regex); `state()` the device state that must hold too (None: the detector alone)."""

    abstract = True
    app_names = ("settings",)
    tags = TAGS
    step_limit: ClassVar[int] = 10
    detector: ClassVar[tuple[str, str]]
    presses: ClassVar[tuple]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "step_limit" in cls.__dict__:
            cls.complexity, cls.difficulty = metadata.from_step_limit(cls.step_limit)
        if "presses" in cls.__dict__:
            cls.optimal_steps = len(cls.presses) + 1
        super().__init_subclass__(**kwargs)

    def path(self) -> "list[Press]":
        return list(self.presses)

    def prepare(self, device: Device) -> None:
        """Put the device in the task's start state (after the apps were closed)."""

    def state(self) -> Validator | None:
        return None

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        settings.APP.force_stop(env.device)  # its process is not running: opening it starts one
        self.prepare(env.device)

    def validator(self) -> Validator:
        tag, pattern = self.detector
        state = self.state()
        return logcat_matches(tag, pattern) if state is None else all_of(state, logcat_matches(tag, pattern))

    def solve(self, env: TaskEnv) -> None:
        press_settings(env.device, self.path())

    def gui_reference(self) -> list[Step]:
        return _steps(self.path())


def _put(namespace: str, key: str, value: str):
    return staticmethod(lambda device: device.settings.put(namespace, key, value))


class BmocaSettingsOpen(BmocaSettingsTask):
    template = "open the setting app"
    step_limit = 4
    detector = ("ActivityManager:I", r"^(.*)Start proc(.*)com.android.settings.Settings")
    presses = ()


class BmocaAirplaneModeOn(BmocaSettingsTask):
    template = "turn on airplane mode"
    step_limit = 5
    detector = ("PhoneGlobals:I", r"^(.*)Turning radio off(.*)airplane")
    presses = ("Network & internet", "Airplane mode")
    prepare = _put("global", "airplane_mode_on", "0")

    def state(self) -> Validator:
        return setting_equals("global", "airplane_mode_on", "1")


class BmocaAirplaneModeOff(BmocaAirplaneModeOn):
    """B-MoCA v1's."""

    template = "turn off airplane mode"
    detector = ("PhoneGlobals:I", r"^(.*)Turning radio on(.*)airplane")
    prepare = _put("global", "airplane_mode_on", "1")

    def state(self) -> Validator:
        return setting_equals("global", "airplane_mode_on", "0")


class BmocaWifiOff(BmocaSettingsTask):
    template = "turn off wifi"
    step_limit = 5
    detector = ("WifiService:I", r"^(.*)setWifiEnabled(.*)com.android.settings(.*)enable=false")
    presses = ("Network & internet", "Internet", WIFI)
    prepare = staticmethod(lambda device: settings.set_wifi(device, True))

    def state(self) -> Validator:
        return setting_equals("global", "wifi_on", ("0", "3"))


class BmocaWifiOn(BmocaWifiOff):
    """B-MoCA v1's."""

    template = "turn on wifi"
    detector = ("WifiService:I", r"^(.*)setWifiEnabled(.*)com.android.settings(.*)enable=true")
    prepare = staticmethod(lambda device: settings.set_wifi(device, False))

    def state(self) -> Validator:
        return setting_equals("global", "wifi_on", ("1", "2"))


class BmocaBrightnessDecrease(BmocaSettingsTask):
    template = "decrease the screen brightness in setting"
    step_limit = 6
    detector = ("DisplayPowerController:V", r"^(.*)Brightness(.*)changing(.*)manual")
    presses = ("Display", ("Brightness level", 0.1))
    prepare = staticmethod(lambda device: settings.set_brightness(device, START_BRIGHTNESS))

    def state(self) -> Validator:
        return setting_equals("system", "screen_brightness", [str(v) for v in range(settings.BRIGHTNESS_MIN, START_BRIGHTNESS)])


class BmocaAppInfoList(BmocaSettingsTask):
    template = "go to app info list in setting"
    step_limit = 6
    detector = ("SettingsActivity:D", r"^(.*)Switching(.*)android.settings(.*)ManageApplications")
    presses = ("Apps", SEE_ALL_APPS)


class BmocaBluetoothPage(BmocaSettingsTask):
    template = "go to bluetooth setting"
    step_limit = 6
    detector = ("PrefCtrlListHelper:D", r"^(.*)android.settings.bluetooth.BluetoothDevice")
    presses = ("Connected devices", "Bluetooth")


class _Toggle(BmocaSettingsTask):
    """Flip a switch whose start position is drawn from the seed."""

    abstract = True
    step_limit = 6
    schema = {"type": "object", "properties": {"start_on": {"type": "boolean"}}, "required": ["start_on"]}
    setting: ClassVar[tuple[str, str, str, str]]  # namespace, key, on value, off value

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"start_on": rng.random() < 0.5}

    def prepare(self, device: Device) -> None:
        namespace, key, on, off = self.setting
        device.settings.put(namespace, key, on if self.params["start_on"] else off)

    def state(self) -> Validator:
        namespace, key, on, off = self.setting
        return setting_equals(namespace, key, off if self.params["start_on"] else on)


class BmocaToggleDarkTheme(_Toggle):
    template = "toggle dark theme in setting"
    detector = ("SettingsProvider:V", r"^(.*)content(.*)settings(.*)dark(.*)mode")
    presses = ("Display", "Dark theme")
    setting = ("secure", "ui_night_mode", "2", "1")


class BmocaToggleVibrateForCalls(_Toggle):
    template = "toggle vibrate for calls in setting"
    detector = ("SettingsProvider:V", r"^(.*)vibrate(.*)when(.*)ringing")
    presses = (SOUND, "Vibrate for calls")
    setting = ("system", "vibrate_when_ringing", "1", "0")


class _VolumeUp(BmocaSettingsTask):
    """Raise one stream's volume from a seeded middle level (`stream`: a VOLUMES key)."""

    abstract = True
    step_limit = 6
    stream: ClassVar[str]
    schema = {"type": "object", "properties": {"start": {"type": "integer", "minimum": 0}}, "required": ["start"]}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "stream" in cls.__dict__:
            stream, word, _ = VOLUMES[cls.stream]
            cls.template = f"increase {cls.stream} volume in setting"
            cls.detector = ("SettingsProvider:V", f"^(.*){word}")
            cls.presses = (SOUND, (stream.title, 0.95))
        super().__init_subclass__(**kwargs)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        low, high = VOLUMES[cls.stream][2]
        return {"start": rng.randint(low, high)}

    def prepare(self, device: Device) -> None:
        device.settings.put("system", VOLUMES[self.stream][0].key, str(self.params["start"]))

    def state(self) -> Validator:
        stream = VOLUMES[self.stream][0]
        return above("system", stream.key, self.params["start"], stream.maximum)


class BmocaMediaVolumeUp(_VolumeUp):
    stream = "media"


class BmocaCallVolumeUp(_VolumeUp):
    stream = "call"


class BmocaRingVolumeUp(_VolumeUp):
    stream = "ring"


class BmocaAlarmVolumeUp(_VolumeUp):
    stream = "alarm"


class BmocaAddLanguagePage(BmocaSettingsTask):
    template = "go to 'add a language' page in setting"
    step_limit = 7
    detector = ("ActivityTaskManager:I", r"^(.*)LocalePicker")
    presses = ("System", "Languages & input", "Languages", "Add a language")
