"""`android_world.env.adb_utils`: the adb helpers AndroidWorld's tasks call, over taskkit's device
services (every value through taskkit's quoting).

Requests answer as AndroidWorld's do: android_env's `adb_pb2.AdbResponse` with `status` and
`generic.output` (bytes). Covered: generic shell requests, the foreground activity, starting, stopping and
clearing apps, settings, Wi-Fi/Bluetooth/airplane toggles, brightness, the clipboard (Clipper),
heads-up notifications, `execute_sql_command` and incoming texts (`text_emulator`, stored as the
telephony provider stores a received SMS).
"""
from __future__ import annotations

import re
from typing import Any, Collection

from taskkit import apps
from taskkit.apps import clipper, contacts, sms
from taskkit.compat.android_world._device import device_of, unsupported
from taskkit.compat.android_world.android_env.proto import adb_pb2
from taskkit.compat.android_world.env import adb_requests
from taskkit.device.quoting import shell_join


AdbResponse = adb_pb2.AdbResponse
Status = adb_pb2.AdbResponse.Status


def _response(result: Any) -> adb_pb2.AdbResponse:
    """A generic request's answer, as android_env gives it: the status, and stdout as bytes."""
    answer = adb_requests.answered(result)
    answer.generic.output = result.stdout.encode("utf-8", "surrogateescape")
    return answer


def _ok() -> adb_pb2.AdbResponse:
    """The answer of a request taskkit serves without a shell command."""
    return AdbResponse(status=AdbResponse.OK, generic=AdbResponse.GenericResponse())


def check_ok(answer: adb_pb2.AdbResponse, message: str | None = None) -> None:
    """RuntimeError (with `message`, or a generic one) unless the request answered OK."""
    if answer.status != AdbResponse.OK:
        raise RuntimeError(message or f"ADB command failed: {answer.error_message}")


def issue_generic_request(args: Collection[str] | str, env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    """`adb shell …` given as `["shell", …]` or `"shell …"`. As adb does, the words are joined with
    spaces and the device's shell reads the line: AndroidWorld's code passes whole scripts this
    way, and a caller quotes its own values (taskkit's callers with shell_quote)."""
    words = args.split(" ") if isinstance(args, str) else list(args)
    if words and words[0] == "shell":
        words = words[1:]
    return _response(device_of(env).shell(" ".join(words)))


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
    """AndroidWorld passes android_env's namespace enum (an int: `GLOBAL` is 3); its name, an
    enum's `.name` or a plain string works here."""
    if isinstance(namespace, int):
        return adb_pb2.AdbRequest.SettingsRequest.Namespace.Name(namespace).lower()
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
    return _ok()


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
    return _ok()


def call_phone_number(env: Any, phone_number: str, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    """Dial `phone_number` (the dialer's CALL intent)."""
    return _shell(env, "am", "start", "-a", "android.intent.action.CALL", "-d", f"tel:{phone_number}")


_ORIENTATIONS = {"portrait": "0", "landscape": "1", "reverse_portrait": "2", "reverse_landscape": "3"}


def change_orientation(orientation: str, env: Any) -> None:
    """Lock the screen to portrait, landscape, reverse_portrait or reverse_landscape."""
    if orientation not in _ORIENTATIONS:
        raise ValueError(f"Unknown orientation {orientation!r}: one of {', '.join(_ORIENTATIONS)}")
    put_settings("system", "accelerometer_rotation", "0", env)
    put_settings("system", "user_rotation", _ORIENTATIONS[orientation], env)


def close_recents(env: Any) -> None:
    """Every app closed (the recents list cleared), as AndroidWorld's reset does."""
    device = device_of(env)
    for app in apps.all_apps():
        app.force_stop(device)


def extract_broadcast_data(raw_output: str) -> str | None:
    """The `data="..."` of `am broadcast`'s answer; None when its result is 0 (nobody answered)."""
    if re.search(r"result=0\b", raw_output):
        return None
    match = re.search(r'data="(.*)"', raw_output, re.DOTALL)
    return match.group(1) if match else None


def grant_permissions(activity_name: str, permission: str, env: Any) -> None:
    """`pm grant` the permission to the activity's package."""
    _shell(env, "pm", "grant", extract_package_name(activity_name), permission)


def set_root_if_needed(env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    """taskkit's devices already run their shell with the rights restore points need: OK."""
    return _ok()


def set_screen_size(width: int, height: int, env: Any) -> adb_pb2.AdbResponse:
    """`wm size WIDTHxHEIGHT`."""
    return _shell(env, "wm", "size", f"{int(width)}x{int(height)}")


# --- input ---------------------------------------------------------------------------------------
def tap_screen(x: int, y: int, env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    return _shell(env, "input", "tap", int(x), int(y))


def double_tap(x: int, y: int, env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    tap_screen(x, y, env)
    return tap_screen(x, y, env)


def long_press(x: int, y: int, env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    """A one-second press (a swipe that does not move), as AndroidWorld presses."""
    return _shell(env, "input", "swipe", int(x), int(y), int(x), int(y), 1000)


def press_enter_button(env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    return _shell(env, "input", "keyevent", "KEYCODE_ENTER")


def press_keyboard_generic(keycode: str, env: Any, timeout_sec: float | None = None) -> adb_pb2.AdbResponse:
    return _shell(env, "input", "keyevent", keycode)


def type_text(text: str, env: Any, timeout_sec: float | None = None) -> None:
    """Type `text` into the focused field (lines separated by ENTER presses)."""
    for index, line in enumerate(text.split("\n")):
        if index:
            press_enter_button(env)
        if line:
            check_ok(_shell(env, "input", "text", line), f"Failed to type {line!r}")


def _drag(start_x: int, start_y: int, end_x: int, end_y: int, duration_ms: int | None, verb: str) -> list[str]:
    words = ["shell", "input", verb, str(start_x), str(start_y), str(end_x), str(end_y)]
    return words + [str(duration_ms)] if duration_ms is not None else words


def generate_swipe_command(start_x: int, start_y: int, end_x: int, end_y: int,
                           duration_ms: int | None = None) -> list[str]:
    """The `issue_generic_request` words of a swipe."""
    return _drag(start_x, start_y, end_x, end_y, duration_ms, "swipe")


def generate_drag_and_drop_command(start_x: int, start_y: int, end_x: int, end_y: int,
                                   duration_ms: int | None = None) -> list[str]:
    """The `issue_generic_request` words of a drag and drop."""
    return _drag(start_x, start_y, end_x, end_y, duration_ms, "draganddrop")


def uiautomator_dump(env: Any, timeout_sec: float | None = None) -> str:
    """The screen's uiautomator XML (dumped to /sdcard/window_dump.xml, then read)."""
    _shell(env, "uiautomator", "dump", "/sdcard/window_dump.xml")
    return _shell(env, "cat", "/sdcard/window_dump.xml").generic.output.decode("utf-8")


# --- the device ----------------------------------------------------------------------------------
def get_all_package_names(env: Any, timeout_sec: float | None = None) -> list[str]:
    """The packages `pm list packages` lists."""
    output = _shell(env, "pm", "list", "packages").generic.output.decode()
    return [line.partition(":")[2] for line in output.splitlines() if line.startswith("package:")]


def get_all_apps(env: Any, timeout_sec: float | None = None) -> list[str]:
    """The names of the modelled apps installed on the device."""
    installed = set(get_all_package_names(env))
    return [app.name for app in apps.all_apps() if app.package in installed]


def get_api_level(env: Any) -> int:
    answer = _shell(env, "getprop", "ro.build.version.sdk")
    check_ok(answer, "Failed to read the API level")
    return int(answer.generic.output)


def set_default_app(setting_key: str, package_name: str, env: Any, timeout_sec: float | None = None
                    ) -> adb_pb2.AdbResponse:
    return _shell(env, "settings", "put", "secure", setting_key, package_name)


def get_all_settings(env: Any) -> dict[str, str]:
    """Every setting of the three namespaces, `key: value` (a later namespace's key wins, as
    AndroidWorld merges them)."""
    found: dict[str, str] = {}
    for namespace in ("secure", "global", "system"):
        for line in _shell(env, "settings", "list", namespace).generic.output.decode().splitlines():
            key, sep, value = line.partition("=")
            if sep:
                found[key] = value
    return found


def get_screen_size(env: Any) -> tuple[int, int]:
    """(width, height) in pixels, from `wm size` (its override when one is set)."""
    return device_of(env).ui.size()


def get_logical_screen_size(env: Any) -> tuple[int, int]:
    """The screen size as the windows see it (the simulated display has no separate logical frame)."""
    return get_screen_size(env)


def get_physical_frame_boundary(env: Any) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the display."""
    width, height = get_screen_size(env)
    return 0, 0, width, height


def get_orientation(env: Any) -> int:
    """0 portrait, 1 landscape, 2 reverse portrait, 3 reverse landscape (the locked rotation)."""
    value = get_settings("system", "user_rotation", env)
    return int(value) if value and value.isdigit() else 0


def retry(n: int) -> Any:
    """A decorator that calls the function up to `n` times while it raises."""
    def decorator(func: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for attempt in range(n):
                try:
                    return func(*args, **kwargs)
                except Exception:  # noqa: BLE001 - AndroidWorld's retry catches everything but the last
                    if attempt == n - 1:
                        raise
            return None
        return wrapper
    return decorator


def install_apk(apk_location: str, env: Any) -> None:
    """Unsupported: taskkit installs no APKs (its devices have their apps); one clear line."""
    raise NotImplementedError(f"adb_utils.install_apk({apk_location!r}): taskkit installs no APKs; install it with "
                              "adb install, or use the simulated device, whose apps are installed")


__getattr__ = unsupported("env.adb_utils")
