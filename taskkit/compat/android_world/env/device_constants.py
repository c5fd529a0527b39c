"""`android_world.env.device_constants`: the device paths and the fixed date AndroidWorld's tasks use
(the same values taskkit's app models and simulated device use)."""
from __future__ import annotations

from taskkit.compat.android_world._device import unsupported
from taskkit.device.reference import DEVICE_TIME, SCREEN_SIZE

SCREEN_WIDTH, SCREEN_HEIGHT = SCREEN_SIZE
EMULATOR_DATA = "/storage/emulated/0/"
DOWNLOAD_DATA = "/storage/emulated/0/Download"
MARKOR_DATA = "/storage/emulated/0/Documents/Markor"
GALLERY_DATA = "/sdcard/DCIM"
MUSIC_DATA = "/sdcard/Music"
PHOTOS_DATA = "/sdcard/Pictures"
VIDEOS_DATA = "/sdcard/Movies"
AUDIORECORDER_DATA = "/storage/emulated/0/Android/data/com.dimowner.audiorecorder/files/Music/records"
OSMAND_DATA = "/storage/emulated/0/Android/data/net.osmand/files"
# Where AndroidWorld keeps app-data snapshots; taskkit restores app data with its restore points
# instead, so nothing is kept here (AndroidWorld's restore_snapshot logs a warning and goes on).
SNAPSHOT_DATA = "/data/data/android_world/snapshots"
TIMEZONE = "UTC"
# The device clock every episode starts from (taskkit's simulated device starts there too).
DT = DEVICE_TIME
ANDROID_DT = DT.strftime("%m%d%H%M%y.%S")  # `date`'s MMDDhhmmYY.ss form


__getattr__ = unsupported("env.device_constants")
