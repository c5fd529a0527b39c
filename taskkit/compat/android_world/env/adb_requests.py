"""android_env's adb requests (`adb_pb2.AdbRequest`) answered on a taskkit device.

Each request becomes the shell command adb would run for it (every value through taskkit's
quoting) and its answer the `AdbResponse` android_env gives: OK with the payload, ADB_ERROR with
the error message, or UNKNOWN_COMMAND naming a request this device cannot serve (installing or
uninstalling APKs, screen pinning: the simulated device's apps are fixed).
"""
from __future__ import annotations

from typing import Any

from taskkit.compat.android_world.android_env.proto import adb_pb2
from taskkit.device.quoting import shell_join

Request = adb_pb2.AdbRequest
Response = adb_pb2.AdbResponse
_BUTTONS = {Request.PressButton.HOME: "KEYCODE_HOME", Request.PressButton.BACK: "KEYCODE_BACK",
            Request.PressButton.ENTER: "KEYCODE_ENTER"}
_NAMESPACES = {Request.SettingsRequest.SYSTEM: "system", Request.SettingsRequest.SECURE: "secure",
               Request.SettingsRequest.GLOBAL: "global"}


def _shell_words(request: Request) -> list[str] | None:
    """The shell command of a request that is one (None: not one)."""
    kind = request.WhichOneof("command")
    if kind == "generic":
        args = list(request.generic.args)
        return args[1:] if args[:1] == ["shell"] else None
    if kind == "start_activity":
        start = request.start_activity
        return ["am", "start", *(["-S"] if start.force_stop else []), "-n", start.full_activity, *start.extra_args]
    if kind == "force_stop":
        return ["am", "force-stop", request.force_stop.package_name]
    if kind == "tap":
        return ["input", "tap", str(request.tap.x), str(request.tap.y)]
    if kind == "press_button":
        return ["input", "keyevent", _BUTTONS[request.press_button.button]]
    if kind == "input_text":
        return ["input", "text", request.input_text.text]
    if kind == "send_broadcast":
        broadcast = request.send_broadcast
        return ["am", "broadcast", "-a", broadcast.action, *(["-n", broadcast.component] if broadcast.component else [])]
    if kind == "dumpsys":
        return ["dumpsys", *([request.dumpsys.service] if request.dumpsys.service else []), *request.dumpsys.args]
    if kind == "settings":
        return _settings_words(request.settings)
    if kind == "package_manager":
        return _package_manager_words(request.package_manager)
    return None


def _settings_words(settings: Request.SettingsRequest) -> list[str] | None:
    namespace = _NAMESPACES.get(settings.name_space)
    verb = settings.WhichOneof("verb")
    if namespace is None or verb is None:
        return None
    if verb == "get":
        return ["settings", "get", namespace, settings.get.key]
    if verb == "put":
        return ["settings", "put", namespace, settings.put.key, settings.put.value]
    if verb == "delete_key":
        return ["settings", "delete", namespace, settings.delete_key.key]
    if verb == "list":
        return ["settings", "list", namespace]
    return ["settings", "reset", namespace, settings.reset.package_name or "untrusted_defaults"]


def _package_manager_words(manager: Request.PackageManagerRequest) -> list[str] | None:
    verb = manager.WhichOneof("verb")
    if verb == "clear":
        return ["pm", "clear", manager.clear.package_name]
    if verb == "grant":
        return ["pm", "grant", manager.grant.package_name, *manager.grant.permissions]
    if verb == "list" and manager.list.WhichOneof("what") == "packages":
        return ["pm", "list", "packages", *manager.list.packages.options, *filter(None, [manager.list.packages.filter])]
    return None


def answered(result: Any) -> Response:
    """A shell result's `AdbResponse` status: OK, or ADB_ERROR with the error message (the
    payload is the caller's to fill)."""
    return Response(status=Response.OK if result.ok else Response.ADB_ERROR,
                    error_message="" if result.ok else (result.stderr or result.stdout).strip())


def execute(device: Any, request: Request) -> Response:
    """`request` answered on `device`."""
    kind = request.WhichOneof("command")
    if kind == "push":
        device.push(request.push.content, request.push.path)
        return Response(status=Response.OK, push=Response.PushResponse())
    if kind == "pull":
        return Response(status=Response.OK, pull=Response.PullResponse(content=device.pull(request.pull.path)))
    if kind == "get_current_activity":
        activity = device.activity.foreground() or ""
        return Response(status=Response.OK,
                        get_current_activity=Response.GetCurrentActivityResponse(full_activity=activity))
    words = _shell_words(request)
    if words is None:
        return Response(status=Response.UNKNOWN_COMMAND,
                        error_message=f"taskkit cannot serve the adb request {kind or 'with no command'}: "
                                      f"{str(request).strip()[:200]}")
    # a generic request's words are joined as adb joins them (the device's shell reads the line);
    # the others' values are quoted, as android_env's adb calls pass each as one argument
    result = device.shell(" ".join(words) if kind == "generic" else shell_join(words))
    output = result.stdout.encode("utf-8", "surrogateescape")
    answer = answered(result)
    payload = {"settings": answer.settings, "package_manager": answer.package_manager, "dumpsys": answer.dumpsys,
               "start_activity": answer.start_activity, "press_button": answer.press_button}.get(kind, answer.generic)
    payload.output = output
    if kind == "package_manager" and words[1] == "list":
        answer.package_manager.list.items.extend(line.partition(":")[2] for line in result.stdout.splitlines() if ":" in line)
    if kind == "input_text":
        answer.input_text.SetInParent()
    return answer
