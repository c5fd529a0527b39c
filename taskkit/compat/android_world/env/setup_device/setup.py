"""`android_world.env.setup_device.setup`: the apps a task needs are there or the task cannot run."""
from __future__ import annotations

from typing import Any

from taskkit import apps
from taskkit.compat.android_world._device import device_of
from taskkit.errors import TaskkitError


class AppNotInstalled(TaskkitError):
    """A task's app is not on the device (taskkit installs no APKs)."""


def install_app_if_not_installed(app_name: str, env: Any) -> None:
    """Nothing to do when the app AndroidWorld calls `app_name` is installed; otherwise one line
    saying so (taskkit does not download or install APKs: install it with `adb install`)."""
    try:
        app = apps.get(app_name)
    except KeyError:
        raise AppNotInstalled(f"AndroidWorld's app {app_name!r} is not one taskkit knows") from None
    if not device_of(env).shell(f"pm path {app.package}").ok:
        raise AppNotInstalled(f"{app_name} ({app.package}) is not installed on {device_of(env).serial}: "
                              f"install its APK with adb install, then run again")
