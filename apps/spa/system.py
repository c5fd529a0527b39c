"""Ladder kinds on Settings (SPA's Settings ladder: "... Then turn the dark theme on"): one switch
per level, each reached from the top of Settings through its page, as the Settings pages label
them (AOSP Settings: Display › Dark theme, Sound & vibration › Vibrate for calls, Network &
internet › Airplane mode / Internet › Wi‑Fi, Connected devices › Bluetooth › Use Bluetooth)."""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from taskkit.apps import settings
from taskkit.apps.bmoca_detect import tap_through
from taskkit.apps.spa.kind import Kind
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, open_app, tap
from taskkit.rng import TaskRng
from taskkit.validators import Validator, all_of, setting_equals


@dataclasses.dataclass(frozen=True)
class Switch:
    """A switch: its path from the top of Settings (the switch last), its setting, the value it
    starts at and the values that count as switched."""

    path: tuple[str, ...]
    namespace: str
    key: str
    start: str
    done: tuple[str, ...]

    def put(self, env: TaskEnv, value: str) -> None:
        if self.key == "ui_night_mode":  # the framework keeps it: UiModeManager's shell command
            settings.set_dark_mode(env.device, value == str(settings.NIGHT_MODE_DARK))
        elif self.key in ("wifi_on", "bluetooth_on"):  # their services own them: svc
            env.device.check(f"svc {self.key[:-3]} {'enable' if value == '1' else 'disable'}")
        else:
            env.device.settings.put(self.namespace, self.key, value)


DARK = Switch(("Display", "Dark theme"), "secure", "ui_night_mode", "1", ("2",))
VIBRATE = Switch(("Sound & vibration", "Vibrate for calls"), "system", "vibrate_when_ringing", "1", ("0",))
AIRPLANE = Switch(("Network & internet", "Airplane mode"), "global", "airplane_mode_on", "0", ("1",))
WIFI = Switch(("Network & internet", "Internet", "Wi\u2011Fi"), "global", "wifi_on", "1", ("0", "3"))
BLUETOOTH = Switch(("Connected devices", "Bluetooth", "Use Bluetooth"), "global", "bluetooth_on", "1", ("0",))


class _SettingsKind(Kind):
    """Level N flips the first N of `switches`."""

    app_names = ("settings",)
    switches: ClassVar[tuple[Switch, Switch, Switch]]

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        return {}

    def _flipped(self) -> tuple[Switch, ...]:
        return self.switches[:self.level]

    def setup(self, env: TaskEnv) -> None:
        for switch in self.switches:
            switch.put(env, switch.start)

    def check(self) -> Validator:
        return all_of(*(setting_equals(s.namespace, s.key, s.done) for s in self._flipped()))

    def solve(self, env: TaskEnv) -> None:
        for switch in self._flipped():
            switch.put(env, switch.done[0])
        self.open_page(env)

    def open_page(self, env: TaskEnv) -> None:
        """Open the page of the level's last switch, where the reference ends: the key component is
        its title, which Settings' top level holds only in English ("Network & internet" holds
        "internet"; under ko-KR "블루투스" is the Bluetooth page's title, not on the top level)."""
        tap_through(env.device, settings.APP.package, list(self._flipped()[-1].path[:-1]))

    def steps(self) -> list[Step]:
        steps: list[Step] = [open_app("settings")]
        for index, switch in enumerate(self._flipped()):
            if index:
                steps += [back()] * (len(self._flipped()[index - 1].path) - 1)
            steps += [tap(label) for label in switch.path]
        return steps


class DarkVibrateAirplaneKind(_SettingsKind):
    switches = (DARK, VIBRATE, AIRPLANE)


class WifiBluetoothDarkKind(_SettingsKind):
    switches = (WIFI, BLUETOOTH, DARK)
