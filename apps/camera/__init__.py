"""Camera (AOSP Camera2, `com.android.camera2`): the app AndroidWorld's OpenAppTaskEval opens.

Launch-only so far: its package and launcher activity (`com.android.camera.CameraLauncher`,
AOSP packages/apps/Camera2 AndroidManifest.xml). Photos and videos, which AndroidWorld's camera
tasks count in DCIM/Camera, are not modelled yet.
"""
from __future__ import annotations

from taskkit.apps.base import App

PACKAGE = "com.android.camera2"
ACTIVITY = "com.android.camera.CameraLauncher"

APP = App(name="camera", package=PACKAGE, activity=ACTIVITY)
