"""`android_world.env.adb_utils`: the adb helpers AndroidWorld's tasks call, over taskkit's device
services (every value through taskkit's quoting).

Requests answer as AndroidWorld's do: an `AdbResponse` with `status` and `generic.output`
(bytes). Covered: generic shell requests, the foreground activity, starting, stopping and
clearing apps, settings, Wi-Fi/Bluetooth/airplane toggles, brightness, the clipboard (Clipper),
heads-up notifications, `execute_sql_command` and incoming texts (`text_emulator`, stored as the
telephony provider stores a received SMS).
"""
from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any, Collection

from taskkit import apps
from taskkit.apps import clipper, contacts, sms
from taskkit.compat.android_world._device import device_of
from taskkit.device.quoting import shell_join


class Status(enum.IntEnum):
    """`AdbResponse.Status`: the outcomes tasks compare against."""

    UNKNOWN_STATUS = 0
    OK = 1
    BAD_REQUEST = 2
    ADB_ERROR = 3
    FAILED_PRECONDITION = 7


@dataclasses.dataclass
class GenericResponse:
    output: bytes = b""


@dataclasses.dataclass
class AdbResponse:
    """What a request answered: `status`, `generic.output` (stdout as bytes), `error_message`."""

    status: Status = Status.OK
    generic: GenericResponse = dataclasses.field(default_factory=GenericResponse)
    error_message: str = ""

    Status = Status


def _response(result: Any) -> AdbResponse:
    return AdbResponse(Status.OK if result.ok else Status.ADB_ERROR, GenericResponse(result.stdout.encode("utf-8")),
                       "" if result.ok else (result.stderr or result.stdout).strip())


def issue_generic_request(args: Collection[str] | str, env: Any, timeout_sec: float | None = None) -> AdbResponse:
    """Run `adb shell …` given as `["shell", …]` or `"shell …"` (split on spaces, as AndroidWorld does)."""
    words = args.split(" ") if isinstance(args, str) else list(args)
    if words and words[0] == "shell":
        words = words[1:]
    return _response(device_of(env).shell(shell_join(words)))


def _shell(env: Any, *words: object) -> AdbResponse:
    return _response(device_of(env).shell(shell_join(list(words))))


def get_current_activity(env: Any, timeout_sec: float | None = None) -> tuple[str | None, None]:
    """(`package/activity` in front, None), as AndroidWorld returns it."""
    return device_of(env).activity.foreground(), None


def extract_package_name(activity: str) -> str:
    return activity.split("/")[0]


def _app(app_name: str) -> Any:
    try:
        return apps.get(app_name)
    except KeyError:
        return None


def get_adb_activity(app_name: str) -> str | None:
    """`package/activity` of the app AndroidWorld calls `app_name`; None for one taskkit does not know."""
    app = _app(app_name)
    return app.component if app else None


def launch_app(app_name: str, env: Any) -> str | None:
    """Start the app AndroidWorld calls `app_name`; its name, or None for an unknown app."""
    app = _app(app_name)
    if app is None:
        return None
    app.launch(device_of(env))
    return app_name


def close_app(app_name: str, env: Any, timeout_sec: float | None = None) -> str | None:
    """Force-stop the app; its name, or None for an unknown app."""
    app = _app(app_name)
    if app is None:
        return None
    app.force_stop(device_of(env))
    return app_name


def start_activity(activity: str, extra_args: Collection[str] | None, env: Any,
                   timeout_sec: float | None = None) -> AdbResponse:
    """`am start -n activity [extra args…]`."""
    return _shell(env, "am", "start", "-n", activity, *(extra_args or ()))


def send_android_intent(command: str, action: str, env: Any, data_uri: str | None = None,
                        mime_type: str | None = None, extras: dict[str, Any] | None = None,
                        timeout_sec: float | None = None) -> AdbResponse:
    """`am start` or `am broadcast` with an action, optional data URI, type and string extras."""
    if command not in ("start", "broadcast"):
        raise ValueError('Intent command must be either "start" or "broadcast"')
    args = ["am", command, "-a", action]
    if data_uri:
        args += ["-d", data_uri]
    if mime_type:
        args += ["-t", mime_type]
    for key, value in (extras or {}).items():
        args += ["--es", key, str(value)]
    return _shell(env, *args)


def clear_app_data(package_name: str, env: Any, timeout_sec: float | None = None) -> AdbResponse:
    return _shell(env, "pm", "clear", package_name)


def _namespace(namespace: Any) -> str:
    """AndroidWorld passes a namespace enum; its name (`GLOBAL`) or a plain string works here."""
    return str(getattr(namespace, "name", namespace)).lower()


def put_settings(namespace: Any, key: str, value: str, env: Any) -> None:
    device_of(env).settings.put(_namespace(namespace), key, value)


def get_settings(namespace: Any, key: str, env: Any) -> str | None:
    return device_of(env).settings.get(_namespace(namespace), key)


def _toggle_service(service: str, on_or_off: str, env: Any) -> AdbResponse:
    if on_or_off not in ("on", "off"):
        raise ValueError(f"on_or_off must be 'on' or 'off', got {on_or_off!r}")
    return _shell(env, "svc", service, "enable" if on_or_off == "on" else "disable")


def toggle_wifi(env: Any, on_or_off: str) -> AdbResponse:
    return _toggle_service("wifi", on_or_off, env)


def toggle_bluetooth(env: Any, on_or_off: str) -> AdbResponse:
    return _toggle_service("bluetooth", on_or_off, env)


def toggle_airplane_mode(on_or_off: str, env: Any) -> AdbResponse:
    if on_or_off not in ("on", "off"):
        raise ValueError(f"on_or_off must be 'on' or 'off', got {on_or_off!r}")
    return _shell(env, "cmd", "connectivity", "airplane-mode", "enable" if on_or_off == "on" else "disable")


def check_airplane_mode(env: Any) -> bool:
    return get_settings("global", "airplane_mode_on", env) == "1"


def set_brightness(max_or_min: str, env: Any) -> AdbResponse:
    """Screen brightness to 255 ("max") or 1 (anything else), as AndroidWorld sets it."""
    return _shell(env, "settings", "put", "system", "screen_brightness", "255" if max_or_min == "max" else "1")


def press_home_button(env: Any, timeout_sec: float | None = None) -> AdbResponse:
    return _shell(env, "input", "keyevent", "KEYCODE_HOME")


def press_back_button(env: Any, timeout_sec: float | None = None) -> AdbResponse:
    return _shell(env, "input", "keyevent", "KEYCODE_BACK")


def disable_headsup_notifications(env: Any, timeout_sec: float | None = None) -> AdbResponse:
    return _shell(env, "settings", "put", "global", "heads_up_notifications_enabled", "0")


def enable_headsup_notifications(env: Any, timeout_sec: float | None = None) -> AdbResponse:
    return _shell(env, "settings", "put", "global", "heads_up_notifications_enabled", "1")


def execute_sql_command(db_path: str, sql_command: str, env: Any) -> AdbResponse:
    """Run one SQL script on a device database with `sqlite3` (as root on a phone)."""
    return _shell(env, "sqlite3", db_path, sql_command)


_CALL_STATES = {"0": "IDLE", "1": "RINGING", "2": "OFFHOOK"}


def get_call_state(env: Any) -> str:
    """"IDLE", "RINGING" or "OFFHOOK", from `dumpsys telephony.registry`'s mCallState (a device
    without the telephony service, as the simulated one, has no call: IDLE)."""
    output = _shell(env, "dumpsys", "telephony.registry").generic.output.decode()
    match = re.search(r"mCallState=(\d)", output)
    return _CALL_STATES.get(match.group(1), "IDLE") if match else "IDLE"


def end_call_if_active(env: Any) -> None:
    if get_call_state(env) == "OFFHOOK":
        _shell(env, "input", "keyevent", "KEYCODE_ENDCALL")


def clear_android_emulator_call_log(env: Any) -> AdbResponse:
    return _shell(env, "content", "delete", "--uri", "content://call_log/calls")


def call_emulator(env: Any, phone_number: str, timeout_sec: float | None = None) -> AdbResponse:
    """An incoming call from `phone_number` (its digits and `+`), as the call log keeps one that
    rang and was not answered: AndroidWorld's tasks end the call at once (`emu gsm call` needs an
    emulator console; this writes the call log the dialer shows)."""
    number = re.sub(r"[^0-9+]", "", phone_number)
    now_ms = device_of(env).clock.now_ms()
    device_of(env).content.insert("content://call_log/calls", {"number": number, "type": 3, "date": now_ms,
                                                              "duration": 0, "new": 1})
    return AdbResponse()


def delete_contacts(env: Any) -> None:
    """Every contact gone (the contacts provider's data cleared)."""
    contacts.reset(device_of(env))


def set_clipboard_contents(content: str, env: Any) -> None:
    clipper.set_clipboard(device_of(env), content)


def get_clipboard_contents(env: Any) -> str:
    return clipper.clipboard(device_of(env))


def text_emulator(env: Any, phone_number: str, message: str, timeout_sec: float | None = None) -> AdbResponse:
    """An incoming text from `phone_number` (its digits and `+` only, as the emulator keeps them)."""
    sms.receive(device_of(env), re.sub(r"[^0-9+]", "", phone_number), message)
    return AdbResponse()
