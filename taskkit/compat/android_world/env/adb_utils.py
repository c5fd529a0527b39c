"""`android_world.env.adb_utils`: the adb helpers AndroidWorld's tasks call, over taskkit's device
services (every value through taskkit's quoting). Covered so far: shell commands, the foreground
activity, launching and stopping apps, settings, the clipboard (Clipper)."""
from __future__ import annotations

from typing import Any

from taskkit import apps
from taskkit.apps import clipper
from taskkit.device.quoting import shell_join


def _device(controller: Any) -> Any:
    return controller.device


def issue_generic_request(args: list[str] | str, controller: Any) -> str:
    """Run `adb shell …` (the words after `shell`, or the whole `["shell", …]` list); its output."""
    words = args.split() if isinstance(args, str) else list(args)
    if words and words[0] == "shell":
        words = words[1:]
    return _device(controller).check(shell_join(words))


def get_current_activity(controller: Any) -> tuple[str | None, None]:
    """(`package/activity` in front, None), as AndroidWorld returns it."""
    return _device(controller).activity.foreground(), None


def _on_app(app_name: str, controller: Any, act: str) -> str | None:
    """Run the app model's `act` ("launch" or "force_stop"); None for an app taskkit does not know."""
    try:
        app = apps.get(app_name)
    except KeyError:
        return None
    getattr(app, act)(_device(controller))
    return app_name


def launch_app(app_name: str, controller: Any) -> str | None:
    """Start the app AndroidWorld calls `app_name`; its name, or None for an unknown app."""
    return _on_app(app_name, controller, "launch")


def close_app(app_name: str, controller: Any) -> str | None:
    """Force-stop the app; its name, or None for an unknown app."""
    return _on_app(app_name, controller, "force_stop")


def put_settings(namespace: Any, key: str, value: str, controller: Any) -> None:
    _device(controller).settings.put(str(getattr(namespace, "value", namespace)).lower(), key, value)


def get_settings(namespace: Any, key: str, controller: Any) -> str | None:
    return _device(controller).settings.get(str(getattr(namespace, "value", namespace)).lower(), key)


def set_clipboard_contents(content: str, controller: Any) -> None:
    clipper.set_clipboard(_device(controller), content)


def get_clipboard_contents(controller: Any) -> str:
    return clipper.clipboard(_device(controller))
