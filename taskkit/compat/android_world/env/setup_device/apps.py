"""`android_world.env.setup_device.apps`: the apps AndroidWorld sets up, by the names its tasks use.

On taskkit the device image already holds each modeled app's first-run state, so `setup(env)`
only makes sure the app has created its data (launch, then stop). `app_name` is AndroidWorld's
name for the app, which taskkit's app registry knows as a name or alias.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import vlc
from taskkit.compat.android_world.env import adb_utils


class AppSetup:
    """One app: `app_name`, and `setup(env)`."""

    app_name = ""

    @classmethod
    def setup(cls, env: Any) -> None:
        if adb_utils.launch_app(cls.app_name, env) is None:
            raise NotImplementedError(f"taskkit has no model of the app {cls.app_name!r} (docs/android-world.md)")
        adb_utils.close_app(cls.app_name, env)


def _app(class_name: str, app_name: str) -> type[AppSetup]:
    return type(class_name, (AppSetup,), {"app_name": app_name, "__doc__": f"AndroidWorld's {app_name!r}."})


CameraApp = _app("CameraApp", "camera")
ClockApp = _app("ClockApp", "clock")
ContactsApp = _app("ContactsApp", "contacts")
DialerApp = _app("DialerApp", "dialer")
FilesApp = _app("FilesApp", "files")
SettingsApp = _app("SettingsApp", "settings")
MarkorApp = _app("MarkorApp", "markor")
ClipperApp = _app("ClipperApp", "clipper")
SimpleCalendarProApp = _app("SimpleCalendarProApp", "simple calendar pro")
TasksApp = _app("TasksApp", "tasks")
SimpleSMSMessengerApp = _app("SimpleSMSMessengerApp", "simple sms messenger")
ExpenseApp = _app("ExpenseApp", "pro expense")
RecipeApp = _app("RecipeApp", "broccoli app")
OpenTracksApp = _app("OpenTracksApp", "activity tracker")
JoplinApp = _app("JoplinApp", "joplin")
RetroMusicApp = _app("RetroMusicApp", "retro music")
OsmAndApp = _app("OsmAndApp", "osmand")
ChromeApp = _app("ChromeApp", "chrome")
VlcApp = _app("VlcApp", "vlc")
VlcApp.videos_path = vlc.VIDEOS_DIR  # type: ignore[attr-defined]
