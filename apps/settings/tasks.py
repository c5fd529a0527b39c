"""System settings tasks: Wi-Fi, Bluetooth, brightness, airplane and dark mode (AndroidWorld's System*)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from taskkit.apps import settings
from taskkit.device.base import Device
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, home, open_app, resource_id, tap
from taskkit.task import TaskEval
from taskkit import apps
from taskkit.rng import TaskRng
from taskkit.validators import app_in_foreground, setting_equals


class SettingTask(TaskEval):
    """Bring one setting to a target value; `initialize_state` first sets the opposite."""

    abstract = True
    app_names = ("settings",)
    complexity = 1
    tags = ("system",)
    namespace: ClassVar[str]
    key: ClassVar[str]
    accepted: ClassVar[tuple[str, ...]]  # values that count as done
    start: ClassVar[Callable[[Device], None]]  # puts the device in the opposite state
    reference: ClassVar[Callable[[Device], None]]  # the reference solution
    page: ClassVar[tuple[str, ...]]  # the rows tapped from Settings' top level to the setting's page
    change: ClassVar[Step]  # the step on that page that changes the setting

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        type(self).start(env.device)

    def validator(self):
        return setting_equals(self.namespace, self.key, self.accepted)

    def solve(self, env: TaskEnv) -> None:
        type(self).reference(env.device)

    def gui_reference(self) -> list[Step]:
        """Open the setting's page; change it there, unless the task starts solved (*Verify: look, then stop)."""
        steps = [open_app("settings")] + [tap(label) for label in self.page]
        return steps if getattr(self, "starts_solved", False) else steps + [self.change]


WIFI = "Wi\u2011Fi"  # Settings writes Wi-Fi with a non-breaking hyphen
SLIDER = resource_id("seekbar")  # Display's brightness slider
# The launcher labels of the apps OpenAppTaskEval picks from (the app's own label on the home screen).
LAUNCHER_LABELS = {"camera": "Camera", "clock": "Clock", "contacts": "Contacts", "settings": "Settings", "dialer": "Phone"}


def _setter(func: Callable[[Device, Any], None], value: Any) -> Callable[[Device], None]:
    return staticmethod(lambda device: func(device, value))  # type: ignore[return-value]


class SystemWifiTurnOn(SettingTask):
    template = "Turn wifi on."
    namespace, key, accepted = "global", "wifi_on", ("1", "2")
    start, reference = _setter(settings.set_wifi, False), _setter(settings.set_wifi, True)
    page, change = ("Network & internet", "Internet"), tap(WIFI)


class SystemWifiTurnOff(SettingTask):
    template = "Turn wifi off."
    namespace, key, accepted = "global", "wifi_on", ("0", "3")
    start, reference = _setter(settings.set_wifi, True), _setter(settings.set_wifi, False)
    page, change = ("Network & internet", "Internet"), tap(WIFI)


class SystemBluetoothTurnOn(SettingTask):
    template = "Turn bluetooth on."
    namespace, key, accepted = "global", "bluetooth_on", ("1",)
    start, reference = _setter(settings.set_bluetooth, False), _setter(settings.set_bluetooth, True)
    page, change = ("Connected devices", "Bluetooth"), tap("Use Bluetooth")


class SystemBluetoothTurnOff(SettingTask):
    template = "Turn bluetooth off."
    namespace, key, accepted = "global", "bluetooth_on", ("0",)
    start, reference = _setter(settings.set_bluetooth, True), _setter(settings.set_bluetooth, False)
    page, change = ("Connected devices", "Bluetooth"), tap("Use Bluetooth")


class SystemBrightnessMax(SettingTask):
    template = "Turn brightness to the max value."
    namespace, key, accepted = "system", "screen_brightness", (str(settings.BRIGHTNESS_MAX),)
    start, reference = _setter(settings.set_brightness, 102), _setter(settings.set_brightness, settings.BRIGHTNESS_MAX)
    page, change = ("Display",), tap(SLIDER, at=(1.0, 0.5))


class SystemBrightnessMin(SettingTask):
    template = "Turn brightness to the min value."
    namespace, key, accepted = "system", "screen_brightness", (str(settings.BRIGHTNESS_MIN),)
    start, reference = _setter(settings.set_brightness, 102), _setter(settings.set_brightness, settings.BRIGHTNESS_MIN)
    page, change = ("Display",), tap(SLIDER, at=(0.0, 0.5))


class SystemAirplaneModeOn(SettingTask):
    template = "Turn on airplane mode."
    difficulty, optimal_steps = "easy", 2
    namespace, key, accepted = "global", "airplane_mode_on", ("1",)
    start, reference = _setter(settings.set_airplane_mode, False), _setter(settings.set_airplane_mode, True)
    page, change = ("Network & internet",), tap("Airplane mode")


class SystemDarkModeOn(SettingTask):
    template = "Turn on dark theme."
    difficulty, optimal_steps = "easy", 2
    namespace, key, accepted = "secure", "ui_night_mode", (str(settings.NIGHT_MODE_DARK),)
    start, reference = _setter(settings.set_dark_mode, False), _setter(settings.set_dark_mode, True)
    page, change = ("Display",), tap("Dark theme")


# AndroidWorld's *Verify variants: the device already shows the goal's state, so the agent's job
# is to check it and stop without breaking it (`starts_solved`: taskkit.check then requires a
# score of 1.0 right after initialize_state, and every near miss must still fail).
class SystemWifiTurnOnVerify(SystemWifiTurnOn):
    starts_solved = True
    start = _setter(settings.set_wifi, True)


class SystemWifiTurnOffVerify(SystemWifiTurnOff):
    starts_solved = True
    start = _setter(settings.set_wifi, False)


class SystemBluetoothTurnOnVerify(SystemBluetoothTurnOn):
    starts_solved = True
    start = _setter(settings.set_bluetooth, True)


class SystemBluetoothTurnOffVerify(SystemBluetoothTurnOff):
    starts_solved = True
    start = _setter(settings.set_bluetooth, False)


class SystemBrightnessMaxVerify(SystemBrightnessMax):
    starts_solved = True
    start = _setter(settings.set_brightness, settings.BRIGHTNESS_MAX)


class SystemBrightnessMinVerify(SystemBrightnessMin):
    starts_solved = True
    start = _setter(settings.set_brightness, settings.BRIGHTNESS_MIN)


# AndroidWorld's OpenAppTaskEval: the apps it picks from, by its names.
OPENABLE_APPS = ("camera", "clock", "contacts", "settings", "dialer")


class OpenAppTaskEval(TaskEval):
    """Open one app; the app in front at check time is what counts (its launch leaves it there)."""

    app_names = OPENABLE_APPS
    complexity = 1
    tags = ("system",)
    template = ("Open the {{ app_name }} app. Clear any pop-ups that may appear by granting all permissions that "
                "are required.")
    schema = {"type": "object", "properties": {"app_name": {"enum": list(OPENABLE_APPS)}}, "required": ["app_name"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"app_name": rng.choice(OPENABLE_APPS)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        apps.get(self.params["app_name"]).force_stop(env.device)  # not in front when the episode starts

    def validator(self):
        return app_in_foreground(self.params["app_name"])

    def solve(self, env: TaskEnv) -> None:
        apps.get(self.params["app_name"]).launch(env.device)

    def gui_reference(self) -> list[Step]:
        """Tap the app's icon on the home screen."""
        return [home(), tap(LAUNCHER_LABELS[self.params["app_name"]])]


# B-MoCA's Settings tasks and its Clock (*) cross-app tasks register with this module.
from taskkit.apps.settings import bmoca, bmoca_cross  # noqa: E402,F401
