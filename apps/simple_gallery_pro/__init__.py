"""Simple Gallery Pro (SimpleMobileTools/Simple-Gallery, `com.simplemobiletools.gallery.pro`):
the photos and videos in shared storage, by folder.

The app keeps no data of its own that a task reads: it lists the folders that hold media and
copies, moves and renames files in place. AndroidWorld puts its gallery tasks' pictures in DCIM
(`device_constants.GALLERY_DATA`) and reads the result in Download.
"""
from __future__ import annotations

import posixpath

from taskkit.apps.base import App
from taskkit.apps.files import DOWNLOAD_DIR, STORAGE_ROOT
from taskkit.device.base import Device

PACKAGE = "com.simplemobiletools.gallery.pro"
DCIM = f"{STORAGE_ROOT}/DCIM"
DOWNLOAD = DOWNLOAD_DIR
# What the gallery shows (the app's photo and video extensions, lower-cased).
MEDIA_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".bmp", ".mp4", ".3gp", ".webm", ".mkv")


def is_media(name: str) -> bool:
    return posixpath.splitext(name)[1].lower() in MEDIA_EXTENSIONS and not name.startswith(".")


def add_picture(device: Device, folder: str, name: str, data: bytes) -> str:
    """Put a picture in `folder` (as the camera or a download would); its path."""
    path = posixpath.join(folder, name)
    device.files.write_bytes(path, data)
    return path


def remove_pictures(device: Device, folder: str, names: list[str]) -> None:
    """Delete pictures `names` from `folder` (absent ones are fine)."""
    for name in names:
        device.files.remove(posixpath.join(folder, name))


APP = App(name="simple gallery pro", package=PACKAGE, data_paths=(DCIM, DOWNLOAD),
          aliases=("simple gallery",))
