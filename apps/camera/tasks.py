"""Camera tasks (AndroidWorld's CameraTakePhoto and CameraTakeVideo): they need a real device's
camera, so runs on the simulated device leave them out (`real_device_only`)."""
from __future__ import annotations


from taskkit.apps import camera
from taskkit.env import TaskEnv
from taskkit.task import TaskEval

_NO_CAMERA = "captures with the device's camera; the simulated device has no camera"


class _CaptureTask(TaskEval, register=False):
    """Exactly one new photo (or video) file where the camera saves them, and none removed."""

    abstract = True
    app_names = ("camera",)
    complexity = 1  # AndroidWorld's
    tags = ("camera", "real_device")  # AndroidWorld publishes none
    real_device_only = _NO_CAMERA
    folders: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    action = ""  # the intent that opens the camera in this mode (the reference solution)
    presses = 1  # camera-key presses the reference solution makes

    def files(self, env: TaskEnv) -> set[str]:
        return camera.media_files(env.device, self.folders, self.extensions)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        self.before = self.files(env)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        after = self.files(env)
        return 1.0 if self.before <= after and len(after - self.before) == 1 else 0.0

    def solve(self, env: TaskEnv) -> None:
        """Open the camera in this mode and press the camera key (a real device's camera app)."""
        env.device.activity.start_intent(self.action)
        for press in range(self.presses):
            if press:
                env.device.check("sleep 2")
            env.device.check("input keyevent KEYCODE_CAMERA")


class CameraTakePhoto(_CaptureTask):
    template = "Take one photo."
    folders, extensions, action = camera.PHOTO_DIRS, camera.PHOTO_EXTENSIONS, camera.STILL_IMAGE_CAMERA
    presses = 1  # the camera key is the shutter


class CameraTakeVideo(_CaptureTask):
    template = "Take one video."
    folders, extensions, action = camera.VIDEO_DIRS, camera.VIDEO_EXTENSIONS, camera.VIDEO_CAMERA
    presses = 2  # the camera key starts, then stops, a recording


# B-MoCA's tasks on this app (apps/camera/bmoca.py) register with this module.
from taskkit.apps.camera import bmoca  # noqa: E402,F401
