"""The lines Android's services log when a Settings or quick-settings screen changes something.

Each function writes, in the words and under the tag of the Android 13 code named (the table in
docs/sim-device.md cites each), the line the service logs for the change; a screen calls it right
after it changed the state. Two lines are stand-ins where B-MoCA's detector regex is all that is
public (`setting_changed`'s dark theme and volume lines): they are documented as such.
"""
from __future__ import annotations

import struct

from taskkit.sim.commands.activity import app_pid
from taskkit.sim.logbuffer import SYSTEM_SERVER_PID, append_log
from taskkit.sim.state import SimState

SETTINGS = "com.android.settings"
PHONE = "com.android.phone"
# B-MoCA's words for the volume streams (its detectors: ^(.*)MEDIA, CALL, ALARM; RING for its "MUSIC")
VOLUME_WORDS = {"volume_music_speaker": "MEDIA", "volume_voice_earpiece": "CALL",
                "volume_ring_speaker": "RING", "volume_alarm_speaker": "ALARM"}


def java_float(value: float) -> str:
    """Java's Float.toString for a float (the shortest digits that read back as the same float)."""
    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        text = f"{single:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            return text if "." in text or "e" in text else text + ".0"
    return repr(single)


def setting_changed(state: SimState, namespace: str, key: str, value: str) -> None:
    """SettingsProvider's change notification (`Notifying for 0: content://settings/NS/KEY`, V),
    plus B-MoCA's stand-in line for the dark theme and the volume streams."""
    uri = f"content://settings/{namespace}/{key}"
    append_log(state, "V", "SettingsProvider", f"Notifying for 0: {uri}")
    if key == "ui_night_mode":
        append_log(state, "V", "SettingsProvider", f"{uri}: dark mode {'on' if value == '2' else 'off'}")
    elif key in VOLUME_WORDS:
        append_log(state, "V", "SettingsProvider", f"{uri}: {VOLUME_WORDS[key]} volume {value}")


def wifi_enabled(state: SimState, package: str, uid: int, on: bool) -> None:
    """WifiServiceImpl.setWifiEnabled's `setWifiEnabled package=% uid=% enable=%` (I WifiService)."""
    append_log(state, "I", "WifiService", f"setWifiEnabled package={package} uid={uid} enable={str(on).lower()}")


def airplane_mode(state: SimState, on: bool) -> None:
    """PhoneGlobals (the phone process) turning the radio off or on for airplane mode."""
    append_log(state, "I", "PhoneGlobals", f"Turning radio {'off' if on else 'on'} - airplane", pid=app_pid(PHONE))


def brightness_changed(state: SimState, level: int) -> None:
    """DisplayPowerController's reason change when a slider lets go: temporary → manual (V)."""
    brightness = java_float((max(1, min(255, level)) - 1) / 254)
    append_log(state, "V", "DisplayPowerController",
               f"Brightness [{brightness}] reason changing to: 'manual', previous reason: 'temporary'.")


def fragment_switched(state: SimState, fragment: str) -> None:
    """SettingsActivity.switchToFragment's `Switching to fragment X` (D SettingsActivity)."""
    append_log(state, "D", "SettingsActivity", f"Switching to fragment {fragment}", pid=app_pid(SETTINGS))


def controller_without_context(state: SimState, controller: str) -> None:
    """PreferenceControllerListHelper on a controller with no (Context) constructor (D)."""
    append_log(state, "D", "PrefCtrlListHelper", f"Could not find Context-only controller for pref: {controller}",
               pid=app_pid(SETTINGS))
