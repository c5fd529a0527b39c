"""`android_world.env.device_constants`: the device paths and the fixed date AndroidWorld's tasks use
(the same values taskkit's app models and simulated device use)."""
from __future__ import annotations


from taskkit.device.reference import DEVICE_TIME

EMULATOR_DATA = "/storage/emulated/0/"
DOWNLOAD_DATA = "/storage/emulated/0/Download"
MARKOR_DATA = "/storage/emulated/0/Documents/Markor"
GALLERY_DATA = "/sdcard/DCIM"
MUSIC_DATA = "/sdcard/Music"
PHOTOS_DATA = "/sdcard/Pictures"
VIDEOS_DATA = "/sdcard/Movies"
TIMEZONE = "UTC"
# The device clock every episode starts from (taskkit's simulated device starts there too).
DT = DEVICE_TIME
