"""Runtime permissions: `permission_granted(package, name, one_time=None)`.

A package holds a runtime permission when the package manager says so: `dumpsys package PKG`
lists it under its runtime permissions with `granted=true` (read through
`device.packages.runtime_permission`, on the simulated device and over adb alike). How it was
granted is in its flags: the permission dialog's "While using the app" stores USER_SET, "Only this
time" USER_SET|ONE_TIME (PermissionController's GrantPermissionsViewModel), `pm grant` neither.
`one_time` asks for one of the two, or (None) accepts either.

The names are Android 13's runtime permissions, those PermissionController puts in a permission
group (`Utils.PLATFORM_PERMISSIONS`, packages/modules/Permission, LineageOS branch lineage-20.0 =
android-13.0.0_r*): an install-time permission (INTERNET) is never asked for, so checking one is
the author's mistake, said when the check is built.
"""
from __future__ import annotations

import dataclasses
import difflib
from typing import Any

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless

_PREFIX = "android.permission."
#: Android 13's runtime permissions (Utils.PLATFORM_PERMISSIONS at lineage-20.0, SDK 33's entries).
RUNTIME_PERMISSIONS: frozenset[str] = frozenset(
    [_PREFIX + name for name in (
        "READ_CONTACTS", "WRITE_CONTACTS", "GET_ACCOUNTS",  # CONTACTS
        "READ_CALENDAR", "WRITE_CALENDAR",  # CALENDAR
        "SEND_SMS", "RECEIVE_SMS", "READ_SMS", "RECEIVE_MMS", "RECEIVE_WAP_PUSH", "READ_CELL_BROADCASTS",  # SMS
        "READ_EXTERNAL_STORAGE", "WRITE_EXTERNAL_STORAGE",  # STORAGE
        "READ_MEDIA_AUDIO", "READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO", "ACCESS_MEDIA_LOCATION",  # READ_MEDIA_*
        "ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION", "ACCESS_BACKGROUND_LOCATION",  # LOCATION
        "BLUETOOTH_ADVERTISE", "BLUETOOTH_CONNECT", "BLUETOOTH_SCAN", "UWB_RANGING",
        "NEARBY_WIFI_DEVICES",  # NEARBY_DEVICES
        "READ_CALL_LOG", "WRITE_CALL_LOG", "PROCESS_OUTGOING_CALLS",  # CALL_LOG
        "READ_PHONE_STATE", "READ_PHONE_NUMBERS", "CALL_PHONE", "USE_SIP", "ANSWER_PHONE_CALLS",
        "ACCEPT_HANDOVER",  # PHONE
        "RECORD_AUDIO", "RECORD_BACKGROUND_AUDIO",  # MICROPHONE
        "ACTIVITY_RECOGNITION",  # ACTIVITY_RECOGNITION
        "CAMERA", "BACKGROUND_CAMERA",  # CAMERA
        "BODY_SENSORS", "BODY_SENSORS_BACKGROUND",  # SENSORS
        "POST_NOTIFICATIONS",  # NOTIFICATIONS
    )] + ["com.android.voicemail.permission.ADD_VOICEMAIL"])  # PHONE (Manifest.permission.ADD_VOICEMAIL)
#: The flags a user's answer sets, by the names `dumpsys package` prints -> `pm set-permission-flags` names.
USER_FLAGS = {"USER_SET": "user-set", "USER_FIXED": "user-fixed", "ONE_TIME": "one-time"}


def _grant_kind(one_time: bool) -> str:
    return "only this time" if one_time else "for good"


@dataclasses.dataclass(frozen=True)
class PermissionGranted(Stateless):
    """`package` holds the runtime permission `name`: for good (`one_time` False), only this time
    (True), or either (None), as `dumpsys package` lists it (its ONE_TIME flag)."""

    package: str
    name: str
    one_time: bool | None = None

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        granted, flags = env.device.packages.runtime_permission(self.package, self.name)
        if not granted:
            return CheckResult(0.0, (f"{self.package} does not hold {self.name}",))
        if self.one_time is not None and ("ONE_TIME" in flags) != self.one_time:
            return CheckResult(0.0, (f"{self.name} is granted {_grant_kind('ONE_TIME' in flags)}, "
                                     f"expected {_grant_kind(self.one_time)}",))
        return CheckResult(1.0)


def unknown_permission(name: str) -> str:
    """Why `name` is not a runtime permission, with the names it may mean."""
    by_short = {full.rsplit(".", 1)[-1]: full for full in sorted(RUNTIME_PERMISSIONS)}  # compared without the prefix
    close = [by_short[s] for s in difflib.get_close_matches(name.rsplit(".", 1)[-1], by_short, n=3)]
    hint = f"did you mean {', '.join(close)}?" if close else \
        f"a permission an app asks for in a dialog, by its full name: e.g. {_PREFIX}RECORD_AUDIO"
    return f"{name!r} is not one of Android 13's runtime permissions ({hint})"


def permission_granted(package: str, name: str, one_time: bool | None = None) -> PermissionGranted:
    """`package` holds the runtime permission `name` (its full name, "android.permission.RECORD_AUDIO"):
    granted for good with `one_time=False` ("While using the app", `pm grant`), only this time with
    True ("Only this time"), either way with None. ValueError when `name` is not a runtime permission."""
    if name not in RUNTIME_PERMISSIONS:
        raise ValueError(f"permission_granted: {unknown_permission(name)}")
    return PermissionGranted(package, name, one_time)
