"""Activities and packages through `am`, `dumpsys window` and `pm`.

`Activity` starts activities and intents, stops apps, sends broadcasts and reads the focused
window; `Packages` lists, clears and grants permissions to packages. Each method is one shell
command, built by a pure `build_*` function and read by a pure `parse_*` function.

Notes on the commands these rely on:

* `am start` exits 0 even when nothing starts; the outcome is in its `Error...` lines, which
  `check_start` turns into `ActivityError`.
* Components are `pkg/.Cls` or `pkg/full.Cls`; `foreground()` answers with the full class
  (`pkg/pkg.Cls`), as window titles print it.
* Intent extras are typed by the Python value: str `--es`, bool `--ez`, int `--ei` (`--el`
  beyond 32 bits), float `--ef` (am's float is 32-bit), None `--esn`.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from taskkit.device.quoting import shell_join, shell_quote
from taskkit.errors import TaskkitError

if TYPE_CHECKING:  # pragma: no cover
    from taskkit.device.base import Device, ShellResult

_INT32 = (-(2 ** 31), 2 ** 31 - 1)
_FOCUS = re.compile(r"^\s*mCurrentFocus=Window\{\S+ u\d+ (?P<title>[^}]*)\}", re.M)
_FOCUSED_APP = re.compile(r"^\s*mFocusedApp=ActivityRecord\{\S+ u\d+ (?P<component>\S+)", re.M)
_BROADCAST = re.compile(r"^Broadcast completed: result=(-?\d+)", re.M)
_PACKAGE_LINE = re.compile(r"^package:(\S+?)\r?$", re.M)


class ActivityError(TaskkitError, RuntimeError):
    """`am` could not start the activity or resolve the intent."""


class PackageError(TaskkitError, RuntimeError):
    """`pm` refused the request."""


# --- am ---------------------------------------------------------------------------------------
def _check_component(component: str) -> str:
    package, sep, cls = component.partition("/")
    if not (package and sep and cls):
        raise ValueError(f"a component is 'package/class', got {component!r}")
    return component


def full_component(component: str) -> str:
    """`pkg/.Cls` → `pkg/pkg.Cls` (a full form is returned unchanged)."""
    package, _, cls = _check_component(component).partition("/")
    return f"{package}/{package}{cls}" if cls.startswith(".") else component


def extra_args(extras: Mapping[str, Any] | None) -> list[str]:
    """`am` arguments for typed intent extras."""
    words: list[str] = []
    for key, value in (extras or {}).items():
        if value is None:
            words += ["--esn", key]
        elif isinstance(value, bool):
            words += ["--ez", key, "true" if value else "false"]
        elif isinstance(value, int):
            words += ["--ei" if _INT32[0] <= value <= _INT32[1] else "--el", key, str(value)]
        elif isinstance(value, float):
            words += ["--ef", key, repr(value)]
        elif isinstance(value, str):
            words += ["--es", key, value]
        else:
            raise TypeError(f"cannot pass a {type(value).__name__} as an intent extra: {value!r}")
    return words


def build_start(component: str) -> str:
    return shell_join(["am", "start", "-n", _check_component(component)])


def build_start_intent(action: str, data: str | None = None, extras: Mapping[str, Any] | None = None,
                       mime_type: str | None = None, package: str | None = None) -> str:
    words = ["am", "start", "-a", action]
    if data is not None:
        words += ["-d", data]
    if mime_type is not None:
        words += ["-t", mime_type]
    if package is not None:
        words += ["-p", package]
    return shell_join(words + extra_args(extras))


def build_force_stop(package: str) -> str:
    return shell_join(["am", "force-stop", package])


# Clipper's receiver (ca.zgrs.clipper, which AndroidWorld installs to reach the clipboard).
CLIPBOARD_SET = "clipper.set"


def build_close_apps(packages: Sequence[str]) -> str:
    """One command that puts the device's apps back to a fresh start, as far as Android allows:
    each of `packages` that runs is force-stopped (its activities, dialogs and unsaved input go,
    as AndroidWorld's close_app does), the clipboard is emptied and the home screen comes up."""
    # one loop rather than a line per package: the same commands run, in a tenth of the text to parse
    stops = (f"for p in {' '.join(shell_quote(p) for p in packages)}; do "
             f"if pidof \"$p\" >/dev/null; then am force-stop \"$p\"; fi; done") if packages else ""
    return "; ".join(filter(None, [stops, f"{build_broadcast(CLIPBOARD_SET, {'text': ''})} >/dev/null",
                                    "input keyevent KEYCODE_HOME"]))


def build_broadcast(action: str, extras: Mapping[str, Any] | None = None) -> str:
    return shell_join(["am", "broadcast", "-a", action] + extra_args(extras))


def check_start(result: "ShellResult") -> None:
    """Raise ActivityError if `am start` reported an error (it exits 0 regardless)."""
    text = result.stdout + "\n" + result.stderr
    errors = [line for line in text.splitlines() if line.startswith(("Error:", "Error type", "Exception"))]
    if errors or result.exit_code != 0:
        raise ActivityError("; ".join(errors) or text.strip() or f"am exited {result.exit_code}")


def parse_foreground(stdout: str) -> str | None:
    """The focused activity (`pkg/full.Cls`) in `dumpsys window` output, or None.

    The focused window's title is used; when the focus is a system window (status bar, a
    dialog without an activity) the focused app's activity is used instead.
    """
    for match in _FOCUS.finditer(stdout):
        title = match.group("title")
        if "/" in title and " " not in title:
            return full_component(title)
    match = _FOCUSED_APP.search(stdout)
    return full_component(match.group("component")) if match else None


def parse_broadcast(stdout: str) -> tuple[int, str | None]:
    """(result code, result data or None) from `am broadcast` output."""
    match = _BROADCAST.search(stdout)
    if match is None:
        raise ActivityError(f"no broadcast result in: {stdout.strip()[:200]!r}")
    rest = stdout[match.end():]
    if not rest.startswith(', data="'):
        return int(match.group(1)), None
    tail = rest[len(', data="'):]
    return int(match.group(1)), tail[:tail.rfind('"')]  # the data may hold quotes and newlines


class Activity:
    """`device.activity`: start and stop apps, read the foreground activity, broadcast."""

    def __init__(self, device: "Device"):
        self._device = device

    def start(self, component: str) -> None:
        """`am start -n component`; raises ActivityError if the activity does not exist."""
        check_start(self._device.shell(build_start(component)))

    def start_intent(self, action: str, data: str | None = None,
                     extras: Mapping[str, Any] | None = None, mime_type: str | None = None) -> None:
        """Start the activity that handles `action` (with optional data URI, MIME type and extras)."""
        check_start(self._device.shell(build_start_intent(action, data, extras, mime_type)))

    def force_stop(self, package: str) -> None:
        """Stop the app's processes (`am force-stop`), as Android's close-app does."""
        self._device.run(build_force_stop(package))

    def foreground(self) -> str | None:
        """The focused activity as `pkg/full.Cls`, or None."""
        return parse_foreground(self._device.check(build_foreground()))

    def foreground_package(self) -> str | None:
        """The package of the activity in the foreground (None when none is resumed)."""
        component = self.foreground()
        return component.split("/", 1)[0] if component else None

    def broadcast(self, action: str, extras: Mapping[str, Any] | None = None) -> str:
        """Send a broadcast; returns the command's output (see `parse_broadcast`)."""
        return self._device.check(build_broadcast(action, extras))


def build_foreground() -> str:
    """The command whose output `parse_foreground` reads."""
    return shell_join(["dumpsys", "window", "windows"])


# --- pm ---------------------------------------------------------------------------------------
def build_list(third_party_only: bool = False) -> str:
    return shell_join(["pm", "list", "packages"] + (["-3"] if third_party_only else []))


def parse_packages(stdout: str) -> list[str]:
    """Package names from `pm list packages` output, in the order printed."""
    return _PACKAGE_LINE.findall(stdout)


def build_path(package: str) -> str:
    return shell_join(["pm", "path", package])


def build_clear(package: str) -> str:
    return shell_join(["pm", "clear", package])


def build_grant(package: str, permission: str) -> str:
    return shell_join(["pm", "grant", package, permission])


#: A runtime permission's line in `dumpsys package PKG` (PermissionsState's dump:
#: `      android.permission.RECORD_AUDIO: granted=true, flags=[ USER_SET|ONE_TIME]`).
_PERMISSION_LINE = re.compile(r"^\s+(\S+): granted=(true|false), flags=\[ ?([^\]]*)\]")


def parse_runtime_permission(dumpsys: str, permission: str) -> tuple[bool, frozenset[str]]:
    """(granted, flags) of `permission` in `dumpsys package` output; (False, {}) when unlisted."""
    for line in dumpsys.splitlines():
        match = _PERMISSION_LINE.match(line)
        if match and match.group(1) == permission:
            return match.group(2) == "true", frozenset(f for f in match.group(3).split("|") if f)
    return False, frozenset()


class Packages:
    """`device.packages`: installed packages and their data."""

    def __init__(self, device: "Device"):
        self._device = device

    def list(self, third_party_only: bool = False) -> list[str]:
        """The installed packages' names (`pm list packages`)."""
        return parse_packages(self._device.check(build_list(third_party_only)))

    def is_installed(self, package: str) -> bool:
        """Whether `package` is installed."""
        result = self._device.shell(build_path(package))
        return result.exit_code == 0 and result.stdout.startswith("package:")

    def clear(self, package: str) -> None:
        """`pm clear`: delete all of the package's data; raises PackageError on `Failed`."""
        result = self._device.shell(build_clear(package))
        if result.exit_code != 0 or "Success" not in result.stdout:
            raise PackageError(f"pm clear {package}: {(result.stderr or result.stdout).strip() or 'Failed'}")

    def grant(self, package: str, permission: str) -> None:
        """Grant `package` a runtime permission (`pm grant`)."""
        self._pm("grant", package, permission)

    def revoke(self, package: str, permission: str) -> None:
        """Take a runtime permission back (`pm revoke`)."""
        self._pm("revoke", package, permission)

    def set_permission_flags(self, package: str, permission: str, *flags: str) -> None:
        """Set a permission's flags by pm's names (`user-set`, `user-fixed`, `one-time`, ...)."""
        self._pm("set-permission-flags", package, permission, *flags)

    def clear_permission_flags(self, package: str, permission: str, *flags: str) -> None:
        """Clear a permission's flags by pm's names."""
        self._pm("clear-permission-flags", package, permission, *flags)

    def runtime_permission(self, package: str, permission: str) -> tuple[bool, frozenset[str]]:
        """(granted, flags) of `package`'s runtime permission, as `dumpsys package` lists it
        (flags by their dump names: USER_SET, USER_FIXED, ONE_TIME, ...)."""
        return parse_runtime_permission(self._device.check(shell_join(["dumpsys", "package", package])), permission)

    def _pm(self, *args: str) -> None:
        result = self._device.shell(shell_join(["pm", *args]))
        if result.exit_code != 0:
            raise PackageError(f"pm {' '.join(args)}: {result.stderr.strip() or result.stdout.strip()}")
