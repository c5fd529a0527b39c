"""The factory image of the simulated device: an Android 13 emulator after first-run setup.

`build(state)` lays out a fresh device in `state.root`: the filesystem skeleton, the settings
database with an emulator's defaults, system properties, the clock, and the databases the
apps create on their first run (like AndroidWorld's app snapshots) — given by the app models,
which own their schemas (`taskkit.apps`), so the simulator never hard-codes an app's tables.
The content is data (`SHARED_FOLDERS`, `DEFAULT_SETTINGS`, `DEFAULT_PROPS`; the databases in `taskkit.sim.databases`) so it
is easy to read and extend. Every file and directory gets the device clock as its mtime.
"""
from __future__ import annotations

import os
import shutil
from typing import Mapping

from taskkit.sim.commands.settings import put_settings
from taskkit.sim.databases import create_database, first_run_databases, record_app_databases
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SDCARD_BACKING, SimState

# The folders of shared storage (/sdcard) on a fresh device.
SHARED_FOLDERS = (
    "Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications",
    "Pictures", "Podcasts", "Recordings", "Ringtones", "Android", "Android/data", "Android/media",
    "Android/obb",
    # The Audio Recorder's records folder, made by its first run (AndroidWorld's setup runs it).
    "Android/data/com.dimowner.audiorecorder", "Android/data/com.dimowner.audiorecorder/files",
    "Android/data/com.dimowner.audiorecorder/files/Music",
    "Android/data/com.dimowner.audiorecorder/files/Music/records",
    # OsmAnd's files and tracks folders, made by its first run too (AndroidWorld's OsmAndTrack
    # lists the tracks folder before anything is recorded).
    "Android/data/net.osmand", "Android/data/net.osmand/files", "Android/data/net.osmand/files/tracks",
)

DIRECTORIES = (
    "/data/data", "/data/app", "/data/local/tmp", "/data/system/users/0", "/data/user_de/0",
    "/data/misc", "/storage/emulated", "/storage/self",
)

# Symbolic links as on a device, with targets relative so that they resolve inside the state dir.
SYMLINKS = {
    "/sdcard": "storage/self/primary",
    "/storage/self/primary": "../emulated/0",
    "/storage/emulated/0": "../../data/media/0",
    "/data/user/0": "../data",
}

DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    "global": {
        "adb_enabled": "1",
        "airplane_mode_on": "0",
        "animator_duration_scale": "1.0",
        "auto_time": "0",
        "auto_time_zone": "0",
        "bluetooth_on": "0",
        "data_roaming": "0",
        "development_settings_enabled": "1",
        "device_name": "sdk_gphone64_x86_64",
        "device_provisioned": "1",
        "heads_up_notifications_enabled": "1",
        "mobile_data": "1",
        "stay_on_while_plugged_in": "0",
        "transition_animation_scale": "1.0",
        "usb_mass_storage_enabled": "1",
        "wifi_on": "1",
        "window_animation_scale": "1.0",
        "zen_mode": "0",
    },
    "system": {
        "accelerometer_rotation": "0",
        "dtmf_tone": "1",
        "font_scale": "1.0",
        "haptic_feedback_enabled": "1",
        "screen_brightness": "102",
        "screen_brightness_mode": "0",
        "screen_off_timeout": "60000",
        "sound_effects_enabled": "1",
        "time_12_24": "24",
        "user_rotation": "0",
        "volume_alarm": "6",
        "volume_music": "5",
        "volume_notification": "5",
        "volume_ring": "5",
    },
    "secure": {
        "accessibility_enabled": "0",
        "android_id": "5c2d8e1a9f3b7046",
        "default_input_method": "com.android.inputmethod.latin/.LatinIME",
        # ADBKeyboard is installed and enabled, not selected: taskkit selects it to type text
        # `input text` cannot carry (taskkit.actions)
        "enabled_input_methods": "com.android.inputmethod.latin/.LatinIME:com.android.adbkeyboard/.AdbIME",
        "location_mode": "3",
        "sms_default_application": "com.simplemobiletools.smsmessenger",
        "ui_night_mode": "1",
        "user_setup_complete": "1",
    },
}

DEFAULT_PROPS: dict[str, str] = {
    "persist.sys.locale": "en-US",
    "persist.sys.timezone": "UTC",
    "ro.boot.qemu": "1",
    "ro.build.characteristics": "emulator",
    "ro.build.fingerprint": "google/sdk_gphone64_x86_64/emu64x:13/TE1A.220922.034/10940250:userdebug/dev-keys",
    "ro.build.id": "TE1A.220922.034",
    "ro.build.tags": "dev-keys",
    "ro.build.type": "userdebug",
    "ro.build.version.codename": "REL",
    "ro.build.version.release": "13",
    "ro.build.version.sdk": "33",
    "ro.debuggable": "1",
    "ro.hardware": "ranchu",
    "ro.product.brand": "google",
    "ro.product.cpu.abi": "x86_64",
    "ro.product.device": "emu64x",
    "ro.product.manufacturer": "Google",
    "ro.product.model": "sdk_gphone64_x86_64",
    "ro.product.name": "sdk_gphone64_x86_64",
    "ro.secure": "1",
    "ro.serialno": "EMULATOR33X1X1X0",
    "ro.sf.lcd_density": "420",
    "sys.boot_completed": "1",
}

def stamp_tree(state: SimState) -> None:
    """Give every file, directory and link under the filesystem the device clock as mtime."""
    t = state.clock_epoch
    for dirpath, dirnames, filenames in os.walk(state.fs_root, topdown=False):
        for name in dirnames + filenames:
            os.utime(os.path.join(dirpath, name), (t, t), follow_symlinks=False)
        os.utime(dirpath, (t, t))


def _layout(state: SimState) -> None:
    if state.fs_root.exists():
        shutil.rmtree(state.fs_root)
    for path in DIRECTORIES + tuple(f"{SDCARD_BACKING}/{name}" for name in SHARED_FOLDERS):
        (state.fs_root / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
    for link, target in SYMLINKS.items():
        host = state.fs_root / link.lstrip("/")
        host.parent.mkdir(parents=True, exist_ok=True)
        host.symlink_to(target)


def build(state: SimState, app_databases: Mapping[str, str] | None = None) -> None:
    """Lay out a fresh device in `state.root` (replacing any filesystem already there), with the
    apps' first-run databases (device path -> DDL) as their models declare them."""
    from taskkit.sim import packages, providers

    state.root.mkdir(parents=True, exist_ok=True)
    state.config["clock_epoch"] = DEVICE_EPOCH
    state.config["props"] = dict(DEFAULT_PROPS)
    state.config["foreground"] = None
    state.config["log_seq"] = 0
    _layout(state)
    record_app_databases(state, app_databases or {})  # beside device.json (databases.APP_DATABASES)
    for path, ddl in first_run_databases(state).items():
        create_database(state, path, ddl)
    for ns, values in DEFAULT_SETTINGS.items():
        put_settings(state, ns, values)
    state.logcat_path.write_text("")
    os.utime(state.logcat_path, (state.clock_epoch, state.clock_epoch))
    providers.create_databases(state)
    packages.install_all(state)
    stamp_tree(state)
    from taskkit.sim.commands.activity import go_home  # the launcher is in front after boot

    go_home(state)
    state.save()  # device.json last: its presence marks a finished image
