"""B-MoCA's "open the camera app": judged by its detector, ActivityManager's process-start line
matching `^(.*)Start proc(.*)com.android.camera` — the modelled AOSP Camera2 runs as process
`com.android.camera2`, which the regex matches (taskkit/sim/commands/activity.py
`log_process_start`). Opening the app leaves no state, so the detector alone judges it.
"""
from __future__ import annotations

from taskkit.apps import camera
from taskkit.apps.bmoca_detect import BmocaAppTask


class BmocaCameraOpen(BmocaAppTask):
    app_names = ("camera",)
    package = camera.PACKAGE
    tags = ("bmoca", "camera", "category:utility")
    template = "open the camera app"
    step_limit = 4
    LOGCAT = ("ActivityManager:I", r"^(.*)Start proc(.*)com.android.camera")
