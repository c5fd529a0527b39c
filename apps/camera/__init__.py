"""Camera (AOSP Camera2, `com.android.camera2`): the app AndroidWorld's camera tasks use.

Package and launcher activity: `com.android.camera.CameraLauncher` (AOSP packages/apps/Camera2
AndroidManifest.xml). Camera2 saves photos and videos in DCIM/Camera (its `Storage.DIRECTORY`,
`IMG_….jpg` and `VID_….mp4`); AndroidWorld's camera tasks count new files in Pictures and Movies, so
taskkit's look in both places. The simulated device has no camera: capturing needs a real
device (the camera tasks are `real_device_only`), and on the simulator the app can only be opened.
"""
from __future__ import annotations

import posixpath

from taskkit.apps.base import App
from taskkit.device.base import Device

PACKAGE = "com.android.camera2"
CAMERA_DIR = "/sdcard/DCIM/Camera"
PHOTO_DIRS = (CAMERA_DIR, "/sdcard/Pictures")
VIDEO_DIRS = (CAMERA_DIR, "/sdcard/Movies")
PHOTO_EXTENSIONS = (".jpg", ".jpeg", ".png", ".heic", ".dng")
VIDEO_EXTENSIONS = (".mp4", ".3gp", ".webm", ".mkv")
STILL_IMAGE_CAMERA = "android.media.action.STILL_IMAGE_CAMERA"
VIDEO_CAMERA = "android.media.action.VIDEO_CAMERA"


def media_files(device: Device, folders: tuple[str, ...], extensions: tuple[str, ...]) -> set[str]:
    """The paths of the files with one of `extensions` directly in `folders` (absent folders: none)."""
    found = set()
    for folder in folders:
        if device.files.is_dir(folder):
            found |= {posixpath.join(folder, name) for name in device.files.listdir(folder)
                      if name.lower().endswith(extensions)}
    return found


APP = App(name="camera", package=PACKAGE, data_paths=(CAMERA_DIR, "/sdcard/Pictures", "/sdcard/Movies"))
