"""`am`, `pm`, `monkey` and `dumpsys window|activity|package` of the simulated device.

The activity state is a stack of tasks in `state.config["tasks"]` (top first: one task per
package, `{"id", "package", "component"}`) and `state.config["foreground"]`, the short component
(`pkg/.Cls`) of the top task or None. Starting an activity brings its package's task to the top;
`am force-stop` and `pm clear` remove the package's task, so the task below (often the launcher)
comes to the front, as on a device. Other commands (e.g. `input keyevent HOME`) use
`go_home(state)`, `set_foreground(state, component)` and `stop_package(state, package)`.

Output follows ActivityManagerShellCommand / PackageManagerShellCommand (adb-and-shell.md §6.4–6.6).
Hashes, pids, task ids and launch times are stable functions of the component, so outputs are
deterministic. Installed packages come from `taskkit.device.catalog`.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import re
import shutil
import urllib.parse
from typing import Callable, Iterator

from taskkit.device import catalog
from taskkit.errors import TaskkitError
from taskkit.sim import databases, display, packages, providers, telecom
from taskkit.sim.commands import Invocation, command
from taskkit.sim.commands.settings import get_setting
from taskkit.sim.logbuffer import SYSTEM_SERVER_PID, append_log
from taskkit.device.catalog import LAUNCHER, Package, short_component, split_component
from taskkit.sim.state import SimState

_ERROR = 255  # a Java shell command's -1
FLAG_ACTIVITY_NEW_TASK = 0x10000000
FLAG_RECEIVER_FROM_SHELL = 0x00400000
RESULT_OK = -1
_FIRST_TASK_ID = 10


class CommandError(TaskkitError):
    """An exception a Java shell command lets escape: `Exception occurred while executing`."""

    def __init__(self, message: str, exception: str = "java.lang.IllegalArgumentException"):
        super().__init__(message)
        self.exception = exception


def _exception(inv: Invocation, verb: str, error: CommandError, shell: str) -> int:
    """Print what ShellCommand prints for an escaping exception; exit 255."""
    return inv.fail(f"Exception occurred while executing '{verb}':\n{error.exception}: {error}\n"
                    f"\tat {shell}.onCommand({shell.rsplit('.', 1)[1]}.java)", _ERROR)


@functools.lru_cache(maxsize=1024)
def stable_hash(text: str, salt: str = "") -> str:
    """A 7-hex-digit identity hash, stable for `text` (like Integer.toHexString output); kept for
    the few texts a device names (its windows, records and sessions, asked for at every dump)."""
    digest = int(hashlib.sha256(f"{salt}:{text}".encode()).hexdigest()[:8], 16)
    return format(0x1000000 + digest % 0xF000000, "x")


def app_pid(package: str) -> int:
    return 1500 + int(hashlib.sha256(package.encode()).hexdigest()[:4], 16) % 8000


# --- the task stack -------------------------------------------------------------------------
def _tasks(state: SimState) -> list[dict]:
    """The task stack, reconciled with `config["foreground"]` if someone set that directly."""
    tasks: list[dict] = state.config.setdefault("tasks", [])
    foreground = state.config.get("foreground")
    if foreground is None:
        tasks.clear()
    elif not tasks or tasks[0]["component"] != foreground:
        _push_task(state, tasks, foreground)
    return tasks


def _push_task(state: SimState, tasks: list[dict], component: str) -> dict:
    package = component.split("/", 1)[0]
    existing = next((t for t in tasks if t["package"] == package), None)
    if existing is None:
        used = [t["id"] for t in tasks] + [state.config.get("next_task_id", _FIRST_TASK_ID) - 1]
        existing = {"id": max(used) + 1, "package": package, "component": component}
        state.config["next_task_id"] = existing["id"] + 1
    else:
        tasks.remove(existing)
        existing["component"] = component
    tasks.insert(0, existing)
    return existing


def foreground_component(state: SimState) -> str | None:
    """The short component (`pkg/.Cls`) of the activity in front, or None."""
    tasks = _tasks(state)
    return tasks[0]["component"] if tasks else None


def set_foreground(state: SimState, component: str) -> None:
    """Bring `component` (`pkg/.Cls` or `pkg/full.Cls`) to the front and save the state."""
    package, cls = split_component(component)
    tasks = _tasks(state)
    _ensure_home(tasks)  # the home task is always somewhere in the stack
    _push_task(state, tasks, short_component(package, cls))
    state.config["foreground"] = tasks[0]["component"]
    state.save()


def go_home(state: SimState) -> None:
    """Press HOME: the launcher comes to the front."""
    set_foreground(state, LAUNCHER.launch_component or "")


def stop_package(state: SimState, package: str) -> None:
    """Kill `package`: drop its task; the next task (or nothing) comes to the front."""
    tasks = [t for t in _tasks(state) if t["package"] != package]
    state.config["tasks"] = tasks
    state.config["foreground"] = tasks[0]["component"] if tasks else None
    state.save()


def _ensure_home(tasks: list[dict]) -> None:
    if not any(t["package"] == LAUNCHER.name for t in tasks):
        tasks.append({"id": 1, "package": LAUNCHER.name, "component": LAUNCHER.launch_component})


# --- intents ----------------------------------------------------------------------------------
_FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1, "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40, "--grant-prefix-uri-permission": 0x80,
    "--debug-log-resolution": 0x8, "--exclude-stopped-packages": 0x10,
    "--include-stopped-packages": 0x20, "--activity-brought-to-front": 0x400000,
    "--activity-clear-top": 0x4000000, "--activity-clear-when-task-reset": 0x80000,
    "--activity-exclude-from-recents": 0x800000, "--activity-launched-from-history": 0x100000,
    "--activity-multiple-task": 0x8000000, "--activity-no-animation": 0x10000,
    "--activity-no-history": 0x40000000, "--activity-no-user-action": 0x40000,
    "--activity-previous-is-top": 0x1000000, "--activity-reorder-to-front": 0x20000,
    "--activity-reset-task-if-needed": 0x200000, "--activity-single-top": 0x20000000,
    "--activity-clear-task": 0x8000, "--activity-task-on-home": 0x4000,
    "--activity-match-external": 0x800, "--receiver-registered-only": 0x40000000,
    "--receiver-replace-pending": 0x20000000, "--receiver-foreground": 0x10000000,
    "--receiver-no-abort": 0x8000000, "--receiver-include-background": 0x1000000,
}
# extra option -> number of values after the key
_EXTRA_OPTIONS = {"--esn": 0, "-e": 1, "--es": 1, "--ei": 1, "--eu": 1, "--ecn": 1, "--eia": 1,
                  "--eial": 1, "--el": 1, "--ela": 1, "--elal": 1, "--ef": 1, "--efa": 1, "--efal": 1,
                  "--ed": 1, "--eda": 1, "--edal": 1, "--esa": 1, "--esal": 1, "--ez": 1}
# am options (not part of the intent) -> whether they take a value
_AM_OPTIONS = {"-D": False, "-N": False, "-W": False, "-S": False, "--streaming": False,
               "--track-allocation": False, "--task-overlay": False, "--lock-task": False,
               "--allow-background-activity-starts": False, "--dismiss-keyguard": False,
               "-P": True, "--start-profiler": True, "--sampling": True, "--attach-agent": True,
               "--attach-agent-bind": True, "-R": True, "--user": True, "--display": True,
               "--windowingMode": True, "--activityType": True, "--task": True,
               "--receiver-permission": True, "--async": False}


@dataclasses.dataclass
class Intent:
    """The parts of an Intent that the simulator uses and prints."""

    action: str | None = None
    data: str | None = None
    mime_type: str | None = None
    categories: list[str] = dataclasses.field(default_factory=list)
    component: tuple[str, str] | None = None  # (package, full class)
    package: str | None = None
    flags: int = 0
    extras: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def scheme(self) -> str | None:
        if self.data and ":" in self.data:
            return self.data.split(":", 1)[0].lower()
        return None

    def to_string(self) -> str:
        """Intent.toString(): `Intent { act=… cat=[…] dat=… typ=… flg=0x… pkg=… cmp=… }`."""
        return "Intent { " + self.short_string() + " }"

    def short_string(self) -> str:
        """Intent.toShortString(secure, comp, extras, no clip): `act=… cat=[…] … cmp=…`."""
        parts = []
        if self.action is not None:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data is not None:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.mime_type is not None:
            parts.append(f"typ={self.mime_type}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package is not None:
            parts.append(f"pkg={self.package}")
        if self.component is not None:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return " ".join(parts)


def safe_uri(uri: str) -> str:
    """Uri.toSafeString: hide phone numbers and addresses, shorten web URLs."""
    scheme, sep, rest = uri.partition(":")
    if not sep or "/" in scheme:
        return uri.split("#", 1)[0]
    ssp = rest.split("#", 1)[0]
    lowered = scheme.lower()
    if lowered in ("tel", "sip", "sms", "smsto", "mailto", "nfc"):
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in ssp)
    if lowered in ("http", "https", "ftp", "rtsp"):
        authority = ssp[2:].split("/", 1)[0].split("?", 1)[0] if ssp.startswith("//") else ""
        host = authority.rsplit("@", 1)[-1]
        return f"{scheme}://{host}/..."
    return f"{scheme}:{ssp}"


def _parse_int(text: str) -> int:
    """Integer.decode: optional sign, then `0x`/`#` hex, `0…` octal or decimal digits."""
    match = re.fullmatch(r"([+-]?)(0[xX]|#|0(?=[0-7]))?([0-9a-fA-F]+)", text)
    base = {None: 10, "0": 8}.get(match.group(2), 16) if match else 10
    try:
        if not match:
            raise ValueError(text)
        value = int(match.group(3), base)
    except ValueError:
        raise CommandError(f'For input string: "{text}"', "java.lang.NumberFormatException") from None
    return -value if match.group(1) == "-" else value


def parse_intent(args: list[str]) -> tuple[Intent, dict[str, str | bool]]:
    """Intent.parseCommandArgs plus am's own options: (intent, options)."""
    intent, options = Intent(), {}
    tokens = iter(args)

    def value(option: str) -> str:
        found = next(tokens, None)
        if found is None:
            raise CommandError(f"Argument expected after \"{option}\"")
        return found

    positional: list[str] = []
    for arg in tokens:
        if arg == "--":
            positional.extend(tokens)
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        if arg == "-a":
            intent.action = value(arg)
        elif arg == "-d":
            intent.data = value(arg)
        elif arg == "-t":
            intent.mime_type = value(arg)
        elif arg == "-c":
            intent.categories.append(value(arg))
        elif arg == "-n":
            text = value(arg)
            try:
                intent.component = split_component(text)
            except ValueError:
                raise CommandError(f"Bad component name: {text}") from None
        elif arg == "-p":
            intent.package = value(arg)
        elif arg == "-f":
            intent.flags |= _parse_int(value(arg))
        elif arg in _FLAG_OPTIONS:
            intent.flags |= _FLAG_OPTIONS[arg]
        elif arg in _EXTRA_OPTIONS:
            key = value(arg)
            item = value(arg) if _EXTRA_OPTIONS[arg] else ""
            if arg in ("--ei", "--el"):
                _parse_int(item)
            intent.extras[key] = item
        elif arg in _AM_OPTIONS:
            options[arg] = value(arg) if _AM_OPTIONS[arg] else True
        else:
            raise CommandError(f"Unknown option: {arg}")
    for arg in positional:
        if ":" in arg:
            intent.data = arg
            intent.action = intent.action or "android.intent.action.VIEW"
        elif "/" in arg:
            intent.component = split_component(arg)
        else:
            intent.package = arg
    if intent == Intent():
        raise CommandError("No intent supplied")
    return intent, options


def resolve_activity(state: SimState, intent: Intent) -> tuple[Package | None, str | None]:
    """(package, full class) the intent starts among the installed packages; (None, None) when
    nothing matches."""
    if intent.component is not None:
        package = packages.installed(state, intent.component[0])
        if package is None or not package.has_activity(intent.component[1]):
            return None, None
        return package, intent.component[1]
    found = catalog.resolve_intent(intent.action, intent.scheme, intent.mime_type, intent.categories,
                                    intent.package, packages.all_installed(state))
    return found if found is not None else (None, None)


# --- starting an activity -------------------------------------------------------------------
ATM_TAG = "ActivityTaskManager"  # ActivityStarter's TAG: TAG_ATM unless TAG_WITH_CLASS_NAME
_ATM_TID = 541  # a binder thread of system_server, which serves startActivity
SHELL_UID = 2000
ROOT_UID = 0
FLAG_ACTIVITY_RESET_TASK_IF_NEEDED = 0x00200000
FLAG_DEBUG_TRIAGED_MISSING = 0x00000100
ACTION_MAIN = "android.intent.action.MAIN"
ACTION_CALL = "android.intent.action.CALL"


def log_start(state: SimState, intent: Intent, package: str, cls: str, uid: int) -> None:
    """Log Android 13's START line for `intent` sent by `uid`, resolved to `package`/`cls`.

    The line is ActivityStarter.executeRequest's (frameworks/base services/core/java/com/
    android/server/wm/ActivityStarter.java, Android 12-13): `Slog.i(TAG, "START u" + userId +
    " {" + intent.toShortString(true, true, true, false) + "} from uid " + callingUid)`, logged
    before the task is looked for (so a start that only brings a task to the front logs it too),
    with the component already stored in the intent by ActivityTaskSupervisor.resolveActivity.
    """

    resolved = dataclasses.replace(intent, component=(package, cls))
    append_log(state, "I", ATM_TAG, f"START u0 {{{resolved.short_string()}}} from uid {uid}",
               pid=SYSTEM_SERVER_PID, tid=_ATM_TID)
    if package != LAUNCHER.name and not any(t["package"] == package for t in _tasks(state)):
        log_process_start(state, package, cls)  # no task: its process is not running
        log_created(state, package, cls)  # a new task: its activity is created


# apps whose manifest shares a system uid (android:sharedUserId): Settings is android.uid.system
SHARED_UIDS = {"com.android.settings": 1000}
FIRST_APPLICATION_UID = 10000  # android.os.Process.FIRST_APPLICATION_UID


def process_uid(package: str) -> int:
    """The uid `package`'s process runs as: its shared system uid, else its catalog uid."""
    found = catalog.get(package)
    return SHARED_UIDS.get(package, found.uid if found is not None else FIRST_APPLICATION_UID)


def format_uid(uid: int) -> str:
    """UserHandle.formatUid for user 0: a system uid as its number (1000), an app's as u0aN."""
    return str(uid) if uid < FIRST_APPLICATION_UID else f"u0a{uid - FIRST_APPLICATION_UID}"


# what an app logs when its launcher activity is created (onCreate, in a new task): (level, tag, message)
CREATE_LINES = {
    # AOSP Dialer's MainActivity.onCreate: LogUtil.enterBlock("MainActivity.onCreate") → I "Dialer"
    # "MainActivity.onCreate - enter" (java/com/android/dialer/common/LogUtil.java, SEPARATOR " - ")
    "com.google.android.dialer": ("I", "Dialer", "MainActivity.onCreate - enter"),
}


def log_created(state: SimState, package: str, cls: str) -> None:
    """The line `package` logs (CREATE_LINES) when its launcher activity `cls` is created."""
    line, found = CREATE_LINES.get(package), catalog.get(package)
    launcher = found.full_class(found.launch_activity) if found is not None and found.launch_activity else None
    if line is not None and launcher == cls:
        append_log(state, line[0], line[1], line[2], pid=app_pid(package))


def log_process_start(state: SimState, package: str, cls: str) -> None:
    """ProcessList.handleProcessStartedLocked's line for an app process started for an activity
    (Android 13: `Start proc PID:PROCESS/UID for pre-top-activity {PKG/CLASS}`, I ActivityManager);
    the process is named after the package, the uid formatted by `format_uid`."""
    append_log(state, "I", "ActivityManager",
               f"Start proc {app_pid(package)}:{package}/{format_uid(process_uid(package))} "
               f"for pre-top-activity {{{package}/{cls}}}", pid=SYSTEM_SERVER_PID)


def start_activity(state: SimState, intent: Intent, package: str, cls: str, uid: int) -> None:
    """Start `package`/`cls` for `intent` sent by `uid`: its START line, then it comes to the front."""
    log_start(state, intent, package, cls, uid)
    set_foreground(state, short_component(package, cls))


def launcher_intent(package: Package) -> Intent:
    """The intent `monkey -p` sends (MonkeyActivityEvent), a launcher icon's too (Launcher3's
    AppInfo.makeLaunchIntent) but for its source bounds: MAIN, LAUNCHER, NEW_TASK |
    RESET_TASK_IF_NEEDED (0x10200000)."""
    return Intent(ACTION_MAIN, categories=["android.intent.category.LAUNCHER"],
                  flags=FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_RESET_TASK_IF_NEEDED)


def launch(state: SimState, package: Package, uid: int) -> None:
    """Start `package`'s launcher activity as `monkey -p` does, sent by `uid`."""
    _, cls = split_component(package.launch_component or "")
    start_activity(state, launcher_intent(package), package.name, cls, uid)


def start_home(state: SimState) -> None:
    """KEYCODE_HOME: RootWindowContainer.startHomeOnTaskDisplayArea starts the home activity from
    uid 0 with ActivityTaskManagerService.getHomeIntent (MAIN, HOME, FLAG_DEBUG_TRIAGED_MISSING)
    plus NEW_TASK and the EXTRA_FROM_HOME_KEY extra: `START u0 {act=android.intent.action.MAIN
    cat=[android.intent.category.HOME] flg=0x10000100 cmp=… (has extras)} from uid 0`."""
    home = Intent(ACTION_MAIN, categories=["android.intent.category.HOME"],
                  flags=FLAG_ACTIVITY_NEW_TASK | FLAG_DEBUG_TRIAGED_MISSING,
                  extras={"android.intent.extra.FROM_HOME_KEY": "true"})
    _, cls = split_component(LAUNCHER.launch_component or "")
    start_activity(state, home, LAUNCHER.name, cls, ROOT_UID)


def caller_uid(state: SimState) -> int:
    """The uid a shell command (`am`, `monkey`) starts activities as: root after `adb root`."""
    return ROOT_UID if state.config.get("is_root") else SHELL_UID


# --- am ---------------------------------------------------------------------------------------
def _launch_times(component: str, cold: bool) -> tuple[int, int]:
    base = int(stable_hash(component, "launch"), 16)
    total = (350 + base % 500) if cold else (60 + base % 120)
    return total, total + 3 + base % 7


def _am_start(inv: Invocation, args: list[str]) -> int:
    intent, options = parse_intent(args)
    wait = bool(options.get("-W"))
    out = inv.out if wait else inv.err
    inv.out(f"Starting: {intent.to_string()}\n")
    intent.flags |= FLAG_ACTIVITY_NEW_TASK
    package, cls = resolve_activity(inv.state, intent)
    if package is None or cls is None:
        if intent.component is not None:
            out(f"Error type 3\nError: Activity class {{{intent.component[0]}/{intent.component[1]}}} "
                "does not exist.\n")
        else:
            out(f"Error: Activity not started, unable to resolve {intent.to_string()}\n")
        return 0
    state = inv.state
    component = short_component(package.name, cls)
    if options.get("-S"):
        stop_package(state, package.name)
    tasks = _tasks(state)
    task = next((t for t in tasks if t["package"] == package.name), None)
    to_front = task is not None and task["component"] == component
    cold = task is None
    start_activity(state, intent, package.name, cls, caller_uid(state))
    if intent.action == ACTION_CALL and intent.scheme == "tel" and intent.data:  # the call goes to Telecom
        telecom.place_call(state, urllib.parse.unquote(intent.data.split(":", 1)[1]))
    if to_front:
        out("Warning: Activity not started, its current task has been brought to the front\n")
    if wait:
        inv.out("Status: ok\n")
        if to_front:
            inv.out(f"LaunchState: UNKNOWN (0)\nActivity: {component}\nWaitTime: 4\nComplete\n")
        else:
            total, waited = _launch_times(component, cold)
            inv.out(f"LaunchState: {'COLD' if cold else 'WARM'}\nActivity: {component}\n"
                    f"TotalTime: {total}\nWaitTime: {waited}\nComplete\n")
    return 0


# Broadcast receivers of the modelled apps: action -> handler(state, intent) -> (code, data).
def _clipper_set(state: SimState, intent: Intent) -> tuple[int, str | None]:
    state.config["clipboard"] = intent.extras.get("text", "")
    state.save()
    return RESULT_OK, "Text is copied into clipboard."


def _clipper_get(state: SimState, intent: Intent) -> tuple[int, str | None]:
    return RESULT_OK, state.config.get("clipboard") or ""


def _adb_keyboard(decode: Callable[[str], str | None]) -> Callable[[SimState, Intent], tuple[int, str | None]]:
    """ADBKeyboard's receivers (ADB_INPUT_TEXT: `msg` as given; ADB_INPUT_B64: `msg` in base64 of
    UTF-8): the text goes to the focused field, as its IME commits it, while it is the selected
    input method (it registers them only then; otherwise nobody receives the broadcast). A
    message `decode` cannot read (None) types nothing; the broadcast completes all the same."""
    def receive(state: SimState, intent: Intent) -> tuple[int, str | None]:
        if get_setting(state, "secure", "default_input_method") != catalog.ADB_KEYBOARD_IME:
            return 0, None
        text = decode(str(intent.extras.get("msg", "")))
        screen = display.for_state(state)  # the screen types it, as `input text` does
        if screen is not None and text is not None:
            screen.input(state, "text", [text])
        return 0, None
    return receive


_B64_ALPHABET = {c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def android_b64decode(text: str) -> bytes | None:
    """android.util.Base64.decode(text, DEFAULT), or None where it throws `bad base-64`.

    AOSP frameworks/base/core/java/android/util/Base64.java (Decoder.process): bytes outside the
    alphabet other than `=` are skipped, padding is optional, and only a misplaced `=`, data after
    the padding, or one character left over at the end are errors.
    """
    out = bytearray()
    value, count, padding = 0, 0, 0  # count: data characters of the current quantum
    for byte in text.encode("utf-8", "surrogatepass"):
        digit = _B64_ALPHABET.get(byte)
        if byte == ord("="):
            if count < 2 or (padding and count == 3) or padding == 2:
                return None
            padding += 1
            if padding == 1:
                out += (value >> 4).to_bytes(1, "big") if count == 2 else (value >> 2).to_bytes(2, "big")
        elif digit is None:
            continue
        elif padding:
            return None
        else:
            value, count = (value << 6) | digit, count + 1
            if count == 4:
                out += value.to_bytes(3, "big")
                value, count = 0, 0
    if padding:
        return None if count == 2 and padding == 1 else bytes(out)
    if count == 1:
        return None
    if count:
        out += (value >> (2 if count == 3 else 4)).to_bytes(count - 1, "big")
    return bytes(out)


def _from_base64(text: str) -> str | None:
    """ADBKeyboard: `new String(Base64.decode(msg, Base64.DEFAULT), "UTF-8")`; None if bad."""
    data = android_b64decode(text)
    return None if data is None else data.decode("utf-8", "replace")


RECEIVERS: dict[str, tuple[str, Callable[[SimState, Intent], tuple[int, str | None]]]] = {
    "clipper.set": ("ca.zgrs.clipper", _clipper_set),
    "clipper.get": ("ca.zgrs.clipper", _clipper_get),
    "ADB_INPUT_TEXT": ("com.android.adbkeyboard", _adb_keyboard(lambda text: text)),
    "ADB_INPUT_B64": ("com.android.adbkeyboard", _adb_keyboard(_from_base64)),
}


def _am_broadcast(inv: Invocation, args: list[str]) -> int:
    intent, _ = parse_intent(args)
    intent.flags |= FLAG_RECEIVER_FROM_SHELL
    inv.out(f"Broadcasting: {intent.to_string()}\n")
    code, data = 0, None
    receiver = RECEIVERS.get(intent.action or "")
    if receiver and catalog.get(receiver[0]) and intent.package in (None, receiver[0]):
        code, data = receiver[1](inv.state, intent)
    line = f"Broadcast completed: result={code}"
    if data is not None:
        line += f', data="{data}"'
    inv.out(line + "\n")
    return 0


def _am_force_stop(inv: Invocation, args: list[str]) -> int:
    names = [a for i, a in enumerate(args) if a != "--user" and (i == 0 or args[i - 1] != "--user")]
    if len(names) != 1:
        raise CommandError("Argument expected after \"force-stop\"")
    stop_package(inv.state, names[0])
    return 0


_AM_HELP = """\
Activity manager (activity) commands:
  help
      Print this help text.
  start [-W] [-S] [--user <USER_ID> | current] <INTENT>
      Start an Activity.
  broadcast [--user <USER_ID> | all | current] <INTENT>
      Send a broadcast Intent.
  force-stop [--user <USER_ID> | all | current] <PACKAGE>
      Stop every process and task of PACKAGE.
  kill [--user <USER_ID> | all | current] <PACKAGE>
      Kill PACKAGE's background processes.
<INTENT> specifications include these flags and arguments:
    [-a <ACTION>] [-d <DATA_URI>] [-t <MIME_TYPE>] [-c <CATEGORY> [-c <CATEGORY>] ...]
    [-n <COMPONENT_NAME>] [-p <PACKAGE>] [-f <FLAG>]
    [-e|--es <EXTRA_KEY> <EXTRA_STRING_VALUE> ...] [--esn <EXTRA_KEY> ...]
    [--ez <EXTRA_KEY> <EXTRA_BOOLEAN_VALUE> ...] [--ei <EXTRA_KEY> <EXTRA_INT_VALUE> ...]
    [--el <EXTRA_KEY> <EXTRA_LONG_VALUE> ...] [--ef <EXTRA_KEY> <EXTRA_FLOAT_VALUE> ...]
    [<URI> | <PACKAGE> | <COMPONENT>]
"""
_AM_VERBS: dict[str, Callable[[Invocation, list[str]], int]] = {
    "start": _am_start, "start-activity": _am_start, "broadcast": _am_broadcast,
    "force-stop": _am_force_stop, "kill": lambda inv, args: 0,
    "get-current-user": lambda inv, args: (inv.out("0\n"), 0)[1],
}


def _dispatch(inv: Invocation, verbs: dict[str, Callable[[Invocation, list[str]], int]], help_text: str,
              shell: str) -> int:
    """Run a ShellCommand-style verb: help, `Unknown command`, or the verb's handler."""
    if not inv.args or inv.args[0] in ("help", "-h"):
        inv.out(help_text)
        return 0
    verb, rest = inv.args[0], inv.args[1:]
    handler = verbs.get(verb)
    if handler is None:
        inv.out(f"Unknown command: {verb}\n")
        return _ERROR
    try:
        return handler(inv, rest)
    except CommandError as error:
        return _exception(inv, verb, error, shell)


@command("am")
def am(inv: Invocation) -> int:
    """`am start|broadcast|force-stop|kill|get-current-user ...`."""
    return _dispatch(inv, _AM_VERBS, _AM_HELP, "com.android.server.am.ActivityManagerShellCommand")


# --- pm ---------------------------------------------------------------------------------------
def _without_user(args: list[str]) -> list[str]:
    """Drop `--user N` pairs (single-user device)."""
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            kept.append(arg)
    return kept


def _pm_list(inv: Invocation, args: list[str]) -> int:
    if not args or args[0] not in ("packages", "package"):
        inv.out(f"Error: unknown list type '{args[0] if args else ''}'\n")
        return _ERROR
    flags, filters = set(), []
    for arg in _without_user(args[1:]):
        if arg.startswith("-"):
            if arg not in ("-f", "-d", "-e", "-s", "-3", "-i", "-l", "-u", "-U", "-a",
                           "--show-versioncode", "--apex-only"):
                inv.out(f"Error: Unknown option: {arg}\n")
                return _ERROR
            flags.add(arg)
        else:
            filters.append(arg)
    disabled = set(inv.state.config.get("disabled_packages", []))
    for package in packages.all_installed(inv.state):
        if ("-s" in flags and not package.system) or ("-3" in flags and package.system):
            continue
        if ("-d" in flags and package.name not in disabled) or ("-e" in flags and package.name in disabled):
            continue
        if "--apex-only" in flags or (filters and filters[0] not in package.name):
            continue
        line = "package:" + (f"{package.path}=" if "-f" in flags else "") + package.name
        if "--show-versioncode" in flags:
            line += f" versionCode:{package.version_code}"
        if "-i" in flags:
            line += "  installer=null"
        if "-U" in flags:
            line += f" uid:{package.uid}"
        inv.out(line + "\n")
    return 0


def _pm_path(inv: Invocation, args: list[str]) -> int:
    names = _without_user(args)
    package = packages.installed(inv.state, names[0]) if names else None
    if package is None:
        return 1
    inv.out(f"package:{package.path}\n")
    return 0


def clear_package_data(state: SimState, package: Package) -> None:
    """What `pm clear` does to the filesystem: empty the package's data folders (keeping the
    standard subfolders), then recreate the databases the image or a provider creates.

    A standard subfolder is emptied where it stands rather than removed and made again: the
    same tree, names and times after, with fewer writes (each one an event the change hooks
    follow), and none at all in one that is empty already."""
    stop_package(state, package.name)
    layout = packages.data_layout(package)
    roots = [state.host_path(device_dir) for device_dir in layout]
    for root, standard in zip(roots, layout.values()):
        for child in _entries(root):
            if child.name in standard and child.is_dir(follow_symlinks=False):
                for entry in _entries(child.path):
                    _remove(entry)
            else:
                _remove(child)
    packages.create_data_dirs(state, package)
    providers.reset_package_data(state, package.name)
    databases.create_package_databases(state, package.name)
    t = state.clock_epoch
    for root in roots:
        for path in _walk(root):
            os.utime(path, (t, t), follow_symlinks=False)


def _entries(folder: str | os.PathLike[str]) -> list[os.DirEntry[str]]:
    """What is in `folder` (nothing if it is not one)."""
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _remove(entry: os.DirEntry[str]) -> None:
    """Delete a folder's entry: a folder with everything in it, or a file or link."""
    if entry.is_dir(follow_symlinks=False):
        shutil.rmtree(entry.path)
    else:
        os.unlink(entry.path)


def _walk(root: os.PathLike[str]) -> Iterator[str]:
    """`root` (if it is a folder) and every path under it, once each."""
    top = os.fspath(root)
    for dirpath, dirnames, filenames in os.walk(top):
        if dirpath == top:
            yield dirpath
        for name in dirnames + filenames:
            yield os.path.join(dirpath, name)


def _pm_clear(inv: Invocation, args: list[str]) -> int:
    names = _without_user(args)
    package = catalog.get(names[0]) if names else None
    if package is None:
        return inv.fail("Failed", 1)
    clear_package_data(inv.state, package)
    inv.out("Success\n")
    return 0


# --- runtime permissions ----------------------------------------------------------------------
#: The runtime permissions AndroidWorld's set-up grants once per device (android_world/env/
#: setup_device/apps.py: each AppSetup's `adb_utils.grant_permissions`), granted on the image.
SETUP_GRANTS: dict[str, tuple[str, ...]] = {
    "com.android.camera2": ("android.permission.ACCESS_COARSE_LOCATION",),
    "com.dimowner.audiorecorder": ("android.permission.RECORD_AUDIO", "android.permission.POST_NOTIFICATIONS"),
    "com.simplemobiletools.calendar.pro": ("android.permission.READ_CALENDAR", "android.permission.WRITE_CALENDAR",
                                           "android.permission.POST_NOTIFICATIONS"),
    "com.simplemobiletools.gallery.pro": ("android.permission.WRITE_EXTERNAL_STORAGE",
                                          "android.permission.ACCESS_MEDIA_LOCATION",
                                          "android.permission.READ_MEDIA_IMAGES", "android.permission.READ_MEDIA_VIDEO",
                                          "android.permission.POST_NOTIFICATIONS"),
    "net.osmand": ("android.permission.POST_NOTIFICATIONS",),
}
#: `pm set-permission-flags` / `clear-permission-flags` names -> the names `dumpsys package`
#: prints (PackageManager.FLAG_PERMISSION_USER_SET, _USER_FIXED, _ONE_TIME).
PERMISSION_FLAGS = {"user-set": "USER_SET", "user-fixed": "USER_FIXED", "one-time": "ONE_TIME"}


@dataclasses.dataclass(frozen=True)
class Grant:
    """One runtime permission of one package: granted or not, and its flags (`PERMISSION_FLAGS`' values)."""

    granted: bool
    flags: frozenset[str] = frozenset()


def permission(state: SimState, package: str, name: str) -> Grant:
    """The runtime permission `name` of `package` (`device.json`'s `runtime_permissions`, else the set-up's)."""
    stored = state.config.get("runtime_permissions", {}).get(package, {}).get(name)
    if stored is None:
        return Grant(name in SETUP_GRANTS.get(package, ()))
    return Grant(bool(stored.get("granted")), frozenset(stored.get("flags", ())))


def set_permission(state: SimState, package: str, name: str, grant: Grant) -> None:
    """Store `grant` as the permission `name` of `package` (as PermissionManagerService does)."""
    table = state.config.setdefault("runtime_permissions", {}).setdefault(package, {})
    table[name] = {"granted": grant.granted, "flags": sorted(grant.flags)}
    state.save()


def runtime_permissions(state: SimState, package: str) -> dict[str, Grant]:
    """Every runtime permission `package` has a state for, by name."""
    names = set(SETUP_GRANTS.get(package, ())) | set(state.config.get("runtime_permissions", {}).get(package, {}))
    return {name: permission(state, package, name) for name in sorted(names)}


def _pm_permission(verb: str) -> Callable[[Invocation, list[str]], int]:
    """`pm grant|revoke PACKAGE PERMISSION` and `pm set-|clear-permission-flags PACKAGE PERMISSION FLAG...`."""
    def change(inv: Invocation, args: list[str]) -> int:
        names = _without_user(args)
        if len(names) < 2:
            raise CommandError(f"Argument expected after \"{verb}\"" if not names else "no permission specified")
        if catalog.get(names[0]) is None:
            raise CommandError(f"Unknown package: {names[0]}")
        old = permission(inv.state, names[0], names[1])
        if verb in ("grant", "revoke"):
            set_permission(inv.state, names[0], names[1], Grant(verb == "grant", old.flags))
            return 0
        unknown = [f for f in names[2:] if f not in PERMISSION_FLAGS]
        if unknown or len(names) < 3:
            inv.err(f"Unknown permission flags given: {' '.join(unknown)}\n" if unknown else "no flags specified\n")
            return _ERROR
        flags = {PERMISSION_FLAGS[f] for f in names[2:]}
        changed = old.flags | flags if verb == "set-permission-flags" else old.flags - flags
        set_permission(inv.state, names[0], names[1], Grant(old.granted, frozenset(changed)))
        return 0

    return change


def _pm_state(new_state: str) -> Callable[[Invocation, list[str]], int]:
    def change(inv: Invocation, args: list[str]) -> int:
        names = _without_user(args)
        if not names or catalog.get(names[0]) is None:
            raise CommandError(f"Unknown package: {names[0] if names else ''}")
        disabled = set(inv.state.config.get("disabled_packages", []))
        if new_state == "enabled":
            disabled.discard(names[0])
        else:
            disabled.add(names[0])
            stop_package(inv.state, names[0])
        inv.state.config["disabled_packages"] = sorted(disabled)
        inv.state.save()
        inv.out(f"Package {names[0]} new state: {new_state}\n")
        return 0

    return change


_PM_HELP = """\
Package manager (package) commands:
  help
      Print this help text.
  path [--user USER_ID] PACKAGE
      Print the path to the .apk of the given PACKAGE.
  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-U] [--show-versioncode] [--user USER_ID] [FILTER]
      Prints all packages; optionally only those whose name contains the text in FILTER.
  clear [--user USER_ID] PACKAGE
      Deletes all data associated with a package.
  grant|revoke [--user USER_ID] PACKAGE PERMISSION
      Grant or revoke a permission.
  set-permission-flags|clear-permission-flags [--user USER_ID] PACKAGE PERMISSION [FLAGS..]
      Set or clear a permission's flags (user-set, user-fixed, one-time).
  enable|disable|disable-user [--user USER_ID] PACKAGE
      Change the enabled state of a package.
  install-existing [--user USER_ID] PACKAGE
      Installs an existing application for a new user.
  uninstall [-k] [--user USER_ID] PACKAGE
      Remove the given package name from the system.
"""
def _pm_install(inv: Invocation, args: list[str]) -> int:
    """The simulated device has its apps built in: installing an APK is refused, saying so (and why)."""
    inv.err("Failure [INSTALL_FAILED_ABORTED: the simulated device does not install packages; "
            "its apps are models registered with taskkit.apps]\n")
    return 1


def _pm_install_existing(inv: Invocation, args: list[str]) -> int:
    """`pm install-existing [--user 0] PACKAGE`: install for user 0 a package the image holds
    (PackageManagerShellCommand.runInstallExisting: its line, or the NameNotFoundException)."""
    names = [a for a in _without_user(args) if not a.startswith("-")]
    if not names:
        raise CommandError("package name not specified")
    if catalog.get(names[0]) is None:
        inv.out(f"android.content.pm.PackageManager$NameNotFoundException: Package {names[0]} doesn't exist\n")
        return 1
    packages.set_installed(inv.state, names[0], True)
    inv.out(f"Package {names[0]} installed for user: 0\n")
    return 0


def _pm_uninstall(inv: Invocation, args: list[str]) -> int:
    """`pm uninstall [-k] [--user 0] PACKAGE`: a third-party package uninstalled for user 0 (the
    image keeps it for `install-existing`), its data deleted unless `-k`; "Success"."""
    names = [a for a in _without_user(args) if not a.startswith("-")]
    package = packages.installed(inv.state, names[0]) if names else None
    if package is None or package.system:
        inv.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        return 1
    stop_package(inv.state, package.name)
    if "-k" not in args:
        clear_package_data(inv.state, package)
    packages.set_installed(inv.state, package.name, False)
    inv.out("Success\n")
    return 0


_PM_VERBS: dict[str, Callable[[Invocation, list[str]], int]] = {
    **{verb: _pm_install for verb in ("install", "install-create", "install-write", "install-commit",
                                      "install-multiple")},
    "install-existing": _pm_install_existing, "uninstall": _pm_uninstall,
    "list": _pm_list, "path": _pm_path, "clear": _pm_clear, "grant": _pm_permission("grant"),
    "revoke": _pm_permission("revoke"), "set-permission-flags": _pm_permission("set-permission-flags"),
    "clear-permission-flags": _pm_permission("clear-permission-flags"),
    "enable": _pm_state("enabled"), "disable": _pm_state("disabled"),
    "disable-user": _pm_state("disabled-user"),
}


@command("pm")
def pm(inv: Invocation) -> int:
    """`pm list packages|path|clear|grant|revoke|enable|disable|disable-user|install-existing|uninstall ...`."""
    return _dispatch(inv, _PM_VERBS, _PM_HELP, "com.android.server.pm.PackageManagerShellCommand")


# --- dumpsys -----------------------------------------------------------------------------------
def _record(component: str, task_id: int) -> str:
    return f"ActivityRecord{{{stable_hash(component, 'record')} u0 {component} t{task_id}}}"


def _window(component: str) -> str:
    package, cls = split_component(component)
    return f"Window{{{stable_hash(component, 'window')} u0 {package}/{cls}}}"


def _dump_window(inv: Invocation, args: list[str]) -> int:
    tasks = _tasks(inv.state)
    top = tasks[0] if tasks else None
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    windows = [f"Window{{{stable_hash(name, 'window')} u0 {name}}}" for name in ("NavigationBar0", "StatusBar")]
    if top:
        windows.append(_window(top["component"]))
    for number, window in enumerate(windows):
        lines.append(f"  Window #{number} {window}:")
        lines.append("    mDisplayId=0 rootTaskId=" + (str(top["id"]) if top and window == windows[-1] else "1")
                     + " mSession=Session{" + stable_hash(window, "session") + " 1234:u0a10123}")
        lines.append("    isOnScreen=true isVisible=true")
    lines += [
        "",
        "  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port finger -keyb/v/h -nav/h}",
        "  mHasPermanentDpad=false",
        "  mTopFocusedDisplayId=0",
        f"  mCurrentFocus={_window(top['component']) if top else 'null'}",
        f"  mFocusedApp={_record(top['component'], top['id']) if top else 'null'}",
    ]
    inv.out("\n".join(lines) + "\n")
    return 0


def _dump_activity(inv: Invocation, args: list[str]) -> int:
    tasks = _tasks(inv.state)
    if args[:1] == ["top"]:
        lines = []
        if tasks:
            top = tasks[0]
            package = catalog.get(top["package"])
            lines.append(f"TASK {package.uid if package else 10000}:{top['package']} id={top['id']} userId=0")
            lines.append(f"  ACTIVITY {top['component']} {stable_hash(top['component'], 'record')} "
                         f"pid={app_pid(top['package'])}")
        inv.out("\n".join(lines) + "\n")
        return 0
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
             "Display #0 (activities from top to bottom):"]
    for index, task in enumerate(tasks):
        package = catalog.get(task["package"])
        kind = "home" if task["package"] == LAUNCHER.name else "standard"
        record = _record(task["component"], task["id"])
        lines.append(f"  * Task{{{stable_hash(str(task['id']), 'task')} #{task['id']} type={kind} "
                     f"A={package.uid if package else 10000}:{task['package']} U=0 "
                     f"visible={'true' if index == 0 else 'false'} "
                     f"visibleRequested={'true' if index == 0 else 'false'} mode=fullscreen "
                     "translucent=false sz=1}")
        if index == 0:
            lines.append(f"    topResumedActivity={record}")
        lines.append(f"    * Hist  #0: {record}")
        lines.append(f"      packageName={task['package']} processName={task['package']}")
    if tasks:
        record = _record(tasks[0]["component"], tasks[0]["id"])
        lines += ["", "  Resumed activities in task display areas (from top to bottom):",
                  f"    Resumed: {record}", "", f"  ResumedActivity: {record}",
                  f"  mResumedActivity: {record}"]
    inv.out("\n".join(lines) + "\n")
    return 0


def _dump_package(inv: Invocation, args: list[str]) -> int:
    names = [a for a in args if not a.startswith("-")]
    lines = ["Packages:"]
    for package in packages.all_installed(inv.state):
        if names and package.name != names[0]:
            continue
        lines += [f"  Package [{package.name}] ({stable_hash(package.name, 'package')}):",
                  f"    userId={package.uid}",
                  f"    codePath={os.path.dirname(package.path)}",
                  f"    versionCode={package.version_code} minSdk=21 targetSdk=33",
                  f"    dataDir={package.data_dir}",
                  f"    flags=[ {'SYSTEM ' if package.system else ''}HAS_CODE ALLOW_CLEAR_USER_DATA ]"]
        granted = runtime_permissions(inv.state, package.name)
        if granted:  # PermissionManagerService's dump of the user's state (Android 13's layout)
            lines += ["    User 0: installed=true hidden=false suspended=false stopped=false enabled=0",
                      "      runtime permissions:"]
            lines += [f"        {name}: granted={'true' if grant.granted else 'false'}, "
                      f"flags=[ {'|'.join(sorted(grant.flags))}]" for name, grant in granted.items()]
    inv.out("\n".join(lines) + "\n")
    return 0


DUMPSYS_SERVICES: dict[str, Callable[[Invocation, list[str]], int]] = {
    "window": _dump_window, "activity": _dump_activity, "package": _dump_package,
}


@command("pidof")
def pidof(inv: Invocation) -> int:
    """toybox `pidof [-s] NAME...`: the pids of the running apps named (an app runs while it has
    a task: from its start until it is force-stopped); exit 1 when none runs."""
    single = "-s" in inv.args
    running = {task["package"] for task in _tasks(inv.state)}
    pids = [str(app_pid(name)) for name in inv.args if name != "-s" and name in running]
    if single:
        pids = pids[:1]
    if pids:
        inv.out(" ".join(pids) + "\n")
    return 0 if pids else 1


@command("dumpsys")
def dumpsys(inv: Invocation) -> int:
    """`dumpsys SERVICE [ARGS]` for the services in DUMPSYS_SERVICES; `dumpsys -l` lists them."""
    if inv.args[:1] == ["-l"] or not inv.args:
        inv.out("Currently running services:\n" + "".join(f"  {n}\n" for n in sorted(DUMPSYS_SERVICES)))
        return 0
    service = DUMPSYS_SERVICES.get(inv.args[0])
    if service is None:
        inv.err(f"Can't find service: {inv.args[0]}\n")
        return 0
    return service(inv, inv.args[1:])


# --- monkey ------------------------------------------------------------------------------------
@command("monkey")
def monkey(inv: Invocation) -> int:
    """`monkey -p PKG [-c CATEGORY] [-v] COUNT`: launches PKG's launcher activity (one event)."""
    args = inv.args
    for arg in args:
        inv.out(f"  bash arg: {' '.join(arg.split())}\n")
    allowed: list[str] = []
    i = 0
    while i < len(args):
        if args[i] in ("-p", "-c", "-s", "--throttle", "--pct-touch", "--pct-motion") and i + 1 < len(args):
            if args[i] == "-p":
                allowed.append(args[i + 1])
            i += 2
        else:
            i += 1
    launchable = [p for p in (packages.installed(inv.state, n) for n in allowed) if p and p.launch_component]
    if not launchable:
        inv.err("** No activities found to run, monkey aborted.\n")
        return 252
    launch(inv.state, launchable[0], caller_uid(inv.state))
    elapsed = 12 + int(stable_hash(launchable[0].name, "monkey"), 16) % 40
    inv.out(f"Events injected: 1\n## Network stats: elapsed time={elapsed}ms (0ms mobile, 0ms wifi, "
            f"{elapsed}ms not connected)\n")
    return 0
