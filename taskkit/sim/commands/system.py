"""System commands of the simulated device: identity, clock, properties, log, input, radios.

`date`, `getprop`/`setprop`, `logcat`/`log`, `input`, `svc`, `cmd`, `wm`, `id`, `whoami`,
`uname` and `screencap`, answering as Android 13 does (../shared/reference/adb-and-shell.md
§6.1, 6.7, 6.8, 6.10, 6.11). Radios, night mode and display density live in the settings
database; the clock and properties in `state.config`; the log buffer is taskkit/sim/logbuffer.py
(its `append_log` is how other commands write to the log), local time taskkit/sim/devicetime.py.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
import struct
import zlib
from datetime import datetime, timezone

from taskkit.device.catalog import ADB_KEYBOARD_IME, LATIN_IME
from taskkit.device.reference import SCREEN_DENSITY, SCREEN_SIZE
from taskkit.sim import display, storage
from taskkit.sim.commands import COMMANDS, Invocation, command
from taskkit.sim.commands.activity import DUMPSYS_SERVICES
from taskkit.sim.commands.settings import delete_setting, get_setting, put_setting
from taskkit.sim.devicetime import DEFAULT_DATE_FORMAT, format_time, local_time
from taskkit.sim.logbuffer import LAYOUTS, PRIORITIES, append_log, clear_log, format_entry, read_log
from taskkit.sim.state import SimState

SHELL_PID = 4180  # the pid `log` and `input` report: a shell started by adbd
_ERROR = 255  # what a Java shell command's `return -1` becomes




_DATE_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M",
                 "%Y-%m-%d", "%H:%M:%S", "%H:%M")
_POSIX_DATE = re.compile(r"([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2}|[0-9]{4})?(?:\.([0-9]{2}))?")


def parse_date(text: str, now: datetime, parse_format: str | None = None) -> int:
    """Epoch seconds of a `date` SET or `-d` argument, read in `now`'s zone; ValueError if bad.

    Accepts `@EPOCH`, `MMDDhhmm[[CC]YY][.ss]`, `YYYY-MM-DD[ T]hh:mm[:ss]`, `YYYY-MM-DD`,
    `hh:mm[:ss]` (today), or anything matching `parse_format` (toybox `-D`).
    """
    epoch = _parse_date(text.strip(), now, parse_format)
    datetime.fromtimestamp(epoch, timezone.utc)  # ValueError/OverflowError if unrepresentable
    return epoch


def _parse_date(text: str, now: datetime, parse_format: str | None) -> int:
    zone = now.tzinfo
    if parse_format is not None:
        return int(datetime.strptime(text, parse_format).replace(tzinfo=zone).timestamp())
    if text.startswith("@"):
        return int(float(text[1:]))
    posix = _POSIX_DATE.fullmatch(text)
    if posix:
        month, day, hour, minute, year, second = posix.groups()
        if year is None:
            full_year = now.year
        elif len(year) == 2:
            full_year = (1900 if int(year) >= 69 else 2000) + int(year)
        else:
            full_year = int(year)
        when = datetime(full_year, int(month), int(day), int(hour), int(minute),
                        int(second or 0), tzinfo=zone)
        return int(when.timestamp())
    for fmt in _DATE_FORMATS:
        try:
            parsed = datetime.strptime(text, fmt)
        except ValueError:
            continue
        if not fmt.startswith("%Y"):
            parsed = parsed.replace(year=now.year, month=now.month, day=now.day)
        return int(parsed.replace(tzinfo=zone).timestamp())
    raise ValueError(text)


_ISO_FORMATS = {"d": "%Y-%m-%d", "h": "%Y-%m-%dT%H%:z", "m": "%Y-%m-%dT%H:%M%:z",
                "s": "%Y-%m-%dT%H:%M:%S%:z", "n": "%Y-%m-%dT%H:%M:%S,%N%:z"}


def _date_options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """Toybox-style option parsing for `date`; raises ValueError with the error message."""
    opts: dict[str, str] = {}
    positional: list[str] = []
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "--":
            positional += args
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        letters = arg[1:]
        while letters:
            flag, letters = letters[0], letters[1:]
            if flag == "u":
                opts["u"] = ""
            elif flag == "I":
                opts["I"], letters = (letters[:1] or "d"), ""
            elif flag in "drDs":
                if not letters and not args:
                    raise ValueError(f"date: Missing argument to -{flag}")
                opts[flag], letters = (letters or args.pop(0)), ""
            else:
                raise ValueError(f"date: Unknown option '{flag}' (see \"date --help\")")
    return opts, positional


@command("date")
def date(inv: Invocation) -> int:
    """`date [-u] [-I[dhmsn]] [-r FILE] [-d DATE] [-D FMT] [-s DATE] [+FORMAT] [SET]`.

    Setting needs root; without it the parsed date is still printed and the exit code is 1.
    """
    try:
        opts, positional = _date_options(inv.args)
    except ValueError as problem:
        return inv.fail(str(problem))
    fmt = DEFAULT_DATE_FORMAT
    if positional and positional[0].startswith("+"):
        fmt = positional.pop(0)[1:]
    if "I" in opts:
        if opts["I"] not in _ISO_FORMATS:
            return inv.fail(f"date: bad -I: {opts['I']}")
        fmt = _ISO_FORMATS[opts["I"]]
    setdate = positional.pop(0) if positional else opts.get("s")
    if positional:
        return inv.fail('date: Max 1 argument (see "date --help")')
    utc = "u" in opts
    now = local_time(inv.state, utc=utc)
    epoch = inv.state.clock_epoch
    if "r" in opts:
        try:
            epoch = int(inv.host_path(opts["r"]).stat().st_mtime)
        except OSError as exc:
            return inv.fail(f"date: {opts['r']}: {os.strerror(exc.errno or 2)}")
    for text in (opts.get("d"), setdate):
        if text is not None:
            try:
                epoch = parse_date(text, now, opts.get("D"))
            except (ValueError, OverflowError, OSError):
                return inv.fail(f"date: bad date '{text}'")
    code = 0
    if setdate is not None:
        if inv.state.config.get("is_root"):
            inv.state.set_clock(epoch)
        else:
            inv.err("date: cannot set date: Operation not permitted\n")
            code = 1
    inv.out(format_time(fmt, local_time(inv.state, epoch, utc=utc)) + "\n")
    return code


# --- properties -----------------------------------------------------------------------------
PROP_VALUE_MAX = 92
_PROP_NAME = re.compile(r"[A-Za-z0-9_.\-:@]+")
_SHELL_WRITABLE_PROPS = ("debug.", "log.tag", "persist.debug.", "persist.log.tag", "service.adb.")


@command("getprop")
def getprop(inv: Invocation) -> int:
    """`getprop [NAME [DEFAULT]]`."""
    props: dict[str, str] = inv.state.config["props"]
    if len(inv.args) > 2:
        return inv.fail('getprop: Max 2 arguments (see "getprop --help")')
    if not inv.args:
        inv.out("".join(f"[{name}]: [{props[name]}]\n" for name in sorted(props)))
        return 0
    default = inv.args[1] if len(inv.args) == 2 else ""
    inv.out(props.get(inv.args[0], default) + "\n")
    return 0


def _may_set_prop(state: SimState, name: str, value: str) -> bool:
    props: dict[str, str] = state.config["props"]
    if not _PROP_NAME.fullmatch(name) or name.startswith(".") or ".." in name:
        return False
    if name.startswith("ro."):
        return name not in props  # read-only properties can be set once
    if len(value.encode("utf-8")) >= PROP_VALUE_MAX:
        return False
    return bool(state.config.get("is_root")) or name.startswith(_SHELL_WRITABLE_PROPS)


@command("setprop")
def setprop(inv: Invocation) -> int:
    """`setprop NAME VALUE`; the shell user may set only debug and log properties."""
    if len(inv.args) != 2:
        which = "Need" if len(inv.args) < 2 else "Max"
        return inv.fail(f'setprop: {which} 2 arguments (see "setprop --help")')
    name, value = inv.args
    if not _may_set_prop(inv.state, name, value):
        return inv.fail(f"Failed to set property '{name}' to '{value}'.\nSee dmesg for error reason.")
    if name.startswith("ctl."):
        return 0  # a control message to init (ctl.start/stop/restart SERVICE), never stored
    inv.state.config["props"][name] = value
    inv.state.save()
    return 0


_LOG_MODIFIERS = ("color", "colour", "descriptive", "epoch", "monotonic", "printable", "uid",
                  "usec", "nsec", "UTC", "year", "zone")
_BUFFERS = ("main", "system", "radio", "events", "crash", "kernel", "security", "stats", "all",
            "default")


class _LogUsage(Exception):
    pass


def _filter_level(specs: list[str], silent: bool) -> tuple[dict[str, int], int]:
    """Per-tag minimum priorities and the default one (7 = silent) from `TAG[:P]` specs."""
    default = len(PRIORITIES) if silent else 0
    levels: dict[str, int] = {}
    for spec in specs:
        for item in spec.split():
            tag, _, level = item.rpartition(":") if ":" in item else (item, "", "V")
            level = level.upper() or "V"
            if level not in PRIORITIES + "S":
                raise _LogUsage(f'Invalid filter expression "{item}"')
            rank = (PRIORITIES + "S").index(level)
            if tag == "*":
                default = rank
            else:
                levels[tag] = rank
    return levels, default


_LOG_TIME = re.compile(r"(?:\d{4}-)?(\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d{1,9}))?")


def _log_time(state: SimState, word: str) -> str:
    """`-t`/`-T TIME` (logcat's `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or `sss.mmm`
    seconds since the epoch) as an entry stamp to compare with; the simulated log keeps no
    year, so a log spanning New Year compares wrongly."""
    match = _LOG_TIME.fullmatch(word)
    if match:
        return f"{match[1]}.{(match[2] or '').ljust(3, '0')[:3]}"
    seconds, dot, fraction = word.partition(".")
    if seconds.isdigit() and (not dot or fraction.isdigit()):
        return format_time("%m-%d %H:%M:%S.", local_time(state, int(seconds))) + fraction.ljust(3, "0")[:3]
    raise _LogUsage(f'-t "{word}" not in time format')


@command("logcat")
def logcat(inv: Invocation) -> int:
    """`logcat [-d] [-c] [-s] [-v FMT] [-t N|TIME] [-m N] [-e RE] [-b BUF] [--pid P] [TAG:P ...]`.

    The simulated log never grows on its own, so `logcat` without `-d` dumps and exits too.
    `-t`/`-T` with a time keeps the entries logged at or after it.
    """
    style, clear, silent = "threadtime", False, False
    tail: int | None = None
    since: str | None = None
    max_count: int | None = None
    regex: re.Pattern[str] | None = None
    pid: int | None = None
    buffers: list[str] = []
    specs: list[str] = []
    args = list(inv.args)
    try:
        while args:
            arg = args.pop(0)
            name, eq, attached = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
            if name in ("-c", "-d", "-s", "-D") and attached:
                args.insert(0, "-" + attached)  # combined flags: -ds = -d -s
                attached = ""
            value = attached if (eq or attached) else None

            def need() -> str:
                if value is not None:
                    return value
                if not args:
                    raise _LogUsage(f"option '{name}' requires an argument")
                return args.pop(0)

            if not arg.startswith("-") or arg == "-":
                specs.append(arg)
            elif name in ("-c", "--clear"):
                clear = True
            elif name in ("-d", "--dump") or arg in ("-D", "--dividers"):
                pass
            elif name == "-s":
                silent = True
            elif name in ("-v", "--format"):
                word = need()
                if word in LAYOUTS:
                    style = word
                elif word not in _LOG_MODIFIERS:
                    raise _LogUsage(f'Invalid parameter "{word}" to -v')
            elif name in ("-t", "-T"):
                word = need()
                if word.isdigit():
                    tail = int(word)
                else:
                    since = _log_time(inv.state, word)
            elif name in ("-m", "--max-count"):
                max_count = int(need())
            elif name in ("-e", "--regex"):
                regex = re.compile(need())
            elif name in ("-b", "--buffer"):
                for word in need().split(","):
                    if word not in _BUFFERS:
                        raise _LogUsage(f'Invalid buffer "{word}"')
                    buffers.append(word)
            elif name == "--pid":
                pid = int(need())
            else:
                raise _LogUsage(f"unknown option '{arg}'")
        levels, default = _filter_level(specs, silent)
    except (_LogUsage, ValueError, re.error) as problem:
        return inv.fail(f"logcat: {problem}", 1)
    if clear:
        clear_log(inv.state)
        return 0
    if buffers and not {"main", "all", "default"} & set(buffers):
        return 0  # every simulated entry is in the main buffer
    entries = [
        e for e in read_log(inv.state)
        if PRIORITIES.index(e.priority) >= levels.get(e.tag, default)
        and (pid is None or e.pid == pid)
        and (regex is None or regex.search(e.message))
        and (since is None or e.stamp >= since)
    ]
    if tail is not None:
        entries = entries[-tail:] if tail > 0 else []
    if max_count is not None:
        entries = entries[:max_count]
    if entries:
        inv.out("--------- beginning of main\n")
        inv.out("".join(format_entry(e, style) for e in entries))
    return 0


@command("log")
def log(inv: Invocation) -> int:
    """`log [-p v|d|i|w|e|f] [-t TAG] MESSAGE...`: write one entry to the main log."""
    priority, tag = "I", "log"
    args = list(inv.args)
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        if flag[:2] not in ("-p", "-t"):
            return inv.fail(f"log: Unknown option '{flag[1:2]}' (see \"log --help\")")
        value = flag[2:] or (args.pop(0) if args else None)
        if value is None:
            return inv.fail(f"log: Missing argument to {flag[:2]}")
        if flag[:2] == "-t":
            tag = value
        elif value[:1].upper() in PRIORITIES:
            priority = value[:1].upper()
        else:
            return inv.fail(f"log: bad -p '{value}'")
    if not args:
        return inv.fail('log: Need 1 argument (see "log --help")')
    append_log(inv.state, priority, tag, " ".join(args), pid=SHELL_PID)
    return 0


# --- input ----------------------------------------------------------------------------------
_INPUT_SOURCES = ("keyboard", "mouse", "joystick", "touchscreen", "touchpad", "gamepad", "dpad",
                  "stylus", "trackball", "touchnavigation", "rotaryencoder")
# command -> (minimum, maximum) number of numeric arguments
_INPUT_NUMERIC = {"tap": (2, 2), "swipe": (4, 5), "draganddrop": (4, 5), "roll": (2, 2),
                  "press": (0, 0)}
_INPUT_USAGE = """\
Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard)
"""


def _java_float(text: str) -> float:
    if not re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?\s*", text):
        raise ValueError(f'For input string: "{text}"')
    return float(text.strip().rstrip("fFdD"))


@command("input")
def input_(inv: Invocation) -> int:
    """`input [SOURCE] [-d DISPLAY] COMMAND ARGS...`: accepted silently and logged."""
    args = list(inv.args)
    if args and args[0] in _INPUT_SOURCES:
        args.pop(0)
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args or args[0] in ("help", "-h"):
        inv.out(_INPUT_USAGE)
        return _ERROR
    verb, rest = args[0], args[1:]
    failure = None
    if verb in _INPUT_NUMERIC:
        low, high = _INPUT_NUMERIC[verb]
        if not low <= len(rest) <= high:
            failure = f"java.lang.IllegalArgumentException: Error: Invalid arguments for command: {verb}"
        else:
            try:
                for word in rest:
                    _java_float(word)
            except ValueError as problem:
                failure = f"java.lang.NumberFormatException: {problem}"
    elif verb == "text":
        if len(rest) != 1:
            failure = f"java.lang.IllegalArgumentException: Error: Invalid arguments for command: {verb}"
        else:
            rest = [rest[0].replace("%s", " ")]
    elif verb in ("keyevent", "keycombination", "motionevent"):
        if not [word for word in rest if not word.startswith("-")]:
            failure = f"java.lang.IllegalArgumentException: Error: Invalid arguments for command: {verb}"
    else:
        inv.out(f"Unknown command: {verb}\n")
        return _ERROR
    if failure:
        return inv.fail(f"Exception occurred while executing '{verb}':\n{failure}", _ERROR)
    screen = display.for_state(inv.state)
    if screen is not None:
        screen.input(inv.state, verb, rest)
    elif verb == "keyevent" and any(word in ("KEYCODE_HOME", "HOME", "3") for word in rest):
        from taskkit.sim.commands.activity import start_home  # a sibling command module

        start_home(inv.state)
    append_log(inv.state, "I", "Input", " ".join([verb] + rest), pid=SHELL_PID)
    return 0


# --- radios, night mode, display --------------------------------------------------------------
_SVC_SETTINGS = {"wifi": "wifi_on", "bluetooth": "bluetooth_on", "data": "mobile_data"}
_STAY_ON = {"true": "7", "false": "0", "usb": "2", "ac": "1", "wireless": "4"}


@command("svc")
def svc(inv: Invocation) -> int:
    """`svc wifi|bluetooth|data enable|disable`, `svc power stayon true|false|usb|ac|wireless`."""
    args = inv.args
    if len(args) == 2 and args[0] in _SVC_SETTINGS and args[1] in ("enable", "disable"):
        put_setting(inv.state, "global", _SVC_SETTINGS[args[0]], "1" if args[1] == "enable" else "0")
        return 0
    if len(args) == 3 and args[:2] == ["power", "stayon"] and args[2] in _STAY_ON:
        put_setting(inv.state, "global", "stay_on_while_plugged_in", _STAY_ON[args[2]])
        return 0
    service = args[0] if args else ""
    if service in _SVC_SETTINGS:
        return inv.fail(f"usage: svc {service} [enable|disable]")
    if service == "power":
        return inv.fail("usage: svc power stayon [true|false|usb|ac|wireless]")
    return inv.fail("Available commands:\n    bluetooth\n    data\n    power\n    wifi")


_NIGHT_MODES = {"auto": "0", "no": "1", "yes": "2", "custom": "3"}


def _uimode(inv: Invocation, args: list[str]) -> int:
    if not args or args[0] != "night":
        inv.out(f"Unknown command: {args[0] if args else ''}\n")
        return _ERROR
    if len(args) > 1:
        if args[1] not in ("yes", "no", "auto"):
            return inv.fail("Error: mode must be 'yes', 'no', or 'auto'", _ERROR)
        put_setting(inv.state, "secure", "ui_night_mode", _NIGHT_MODES[args[1]])
    stored = get_setting(inv.state, "secure", "ui_night_mode") or "1"
    names = {code: name for name, code in _NIGHT_MODES.items()}
    inv.out(f"Night mode: {names.get(stored, 'unknown')}\n")
    return 0


def _connectivity(inv: Invocation, args: list[str]) -> int:
    if not args or args[0] != "airplane-mode":
        inv.out(f"Unknown command: {args[0] if args else ''}\n")
        return _ERROR
    if len(args) == 1:
        on = get_setting(inv.state, "global", "airplane_mode_on") == "1"
        inv.out("enabled\n" if on else "disabled\n")
        return 0
    if args[1] not in ("enable", "disable"):
        return inv.fail(f"Unsupported argument: {args[1]}", _ERROR)
    put_setting(inv.state, "global", "airplane_mode_on", "1" if args[1] == "enable" else "0")
    return 0


def _wifi(inv: Invocation, args: list[str]) -> int:
    if args[:1] != ["set-wifi-enabled"]:
        inv.out(f"Unknown command: {args[0] if args else ''}\n")
        return _ERROR
    if len(args) != 2 or args[1] not in ("enabled", "disabled"):
        return inv.fail("Invalid argument to 'set-wifi-enabled' - must be 'enabled' or 'disabled'",
                        _ERROR)
    put_setting(inv.state, "global", "wifi_on", "1" if args[1] == "enabled" else "0")
    return 0


def _bluetooth(inv: Invocation, args: list[str]) -> int:
    if args not in (["enable"], ["disable"]):
        inv.out(f"Unknown command: {args[0] if args else ''}\n")
        return _ERROR
    put_setting(inv.state, "global", "bluetooth_on", "1" if args[0] == "enable" else "0")
    return 0


_CMD_SERVICES = {"uimode": _uimode, "connectivity": _connectivity, "wifi": _wifi,
                 "bluetooth_manager": _bluetooth}
# services whose `cmd` form is another command of the simulator
_CMD_ALIASES = {"settings": "settings", "package": "pm", "activity": "am", "input": "input",
                "window": "wm"}


@command("cmd")
def cmd(inv: Invocation) -> int:
    """`cmd SERVICE ARGS...`: uimode, connectivity, wifi, bluetooth_manager, and aliases."""
    if not inv.args:
        return inv.fail("cmd: No service specified; use -l to list all running services. "
                        "Use -w to start and wait for a service.", 20)
    service, rest = inv.args[0], inv.args[1:]
    if service == "-l":
        names = sorted(set(_CMD_SERVICES) | {s for s, c in _CMD_ALIASES.items() if c in COMMANDS})
        inv.out("Currently running services:\n" + "".join(f"  {n}\n" for n in names))
        return 0
    if service in _CMD_SERVICES:
        return _CMD_SERVICES[service](inv, rest)
    target = COMMANDS.get(_CMD_ALIASES.get(service, ""))
    if target is None:
        return inv.fail(f"cmd: Can't find service: {service}", 20)
    sub = dataclasses.replace(inv, argv=[_CMD_ALIASES[service]] + rest, stdout=bytearray(),
                              stderr=bytearray())
    code = target(sub)
    inv.out(bytes(sub.stdout))
    inv.err(bytes(sub.stderr))
    return code


def display_size(state: SimState) -> tuple[int, int]:
    """The current display size: the `wm size` override, else the physical size."""
    override = state.config.get("wm_size")
    if override:
        width, height = override.split("x")
        return int(width), int(height)
    return SCREEN_SIZE


_DISPLAY_ID = "local:4619827259835644672"  # a built-in panel's stable id, as SurfaceFlinger forms it


def _dump_display(inv: Invocation, args: list[str]) -> int:
    """`dumpsys display`: DisplayManagerService's viewport (`DisplayViewport.toString`, whose
    `orientation=N` adbutils reads for the rotation) and the built-in display device, at the
    current size, density and rotation (`settings system user_rotation`, 0 by default)."""
    width, height = display_size(inv.state)
    physical_w, physical_h = SCREEN_SIZE
    forced = get_setting(inv.state, "secure", "display_density_forced")
    density = int(forced) if forced and forced.isdigit() else SCREEN_DENSITY
    rotation = get_setting(inv.state, "system", "user_rotation")
    rotation = int(rotation) % 4 if rotation and rotation.isdigit() else 0
    frame = f"Rect(0, 0 - {width}, {height})"
    inv.out("DISPLAY MANAGER (dumpsys display)\n"
            "  mOnlyCode=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
            f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='{_DISPLAY_ID}', physicalPort=0, orientation={rotation}, logicalFrame={frame}, "
            f"physicalFrame={frame}, deviceWidth={width}, deviceHeight={height}}}]\n\n"
            "Display Devices: size=1\n"
            f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"{_DISPLAY_ID}\", {physical_w} x {physical_h}, "
            f"modeId 1, defaultModeId 1, density {density}, {density}.0 x {density}.0 dpi, "
            f"touch INTERNAL, rotation {rotation}, type INTERNAL, state ON, FLAG_DEFAULT_DISPLAY}}\n")
    return 0


DUMPSYS_SERVICES["display"] = _dump_display


@command("wm")
def wm(inv: Invocation) -> int:
    """`wm size [WxH|reset]`, `wm density [N|reset]` (`-d DISPLAY` is accepted and ignored)."""
    args = [a for i, a in enumerate(inv.args) if a != "-d" and (i == 0 or inv.args[i - 1] != "-d")]
    if not args:
        inv.out("Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n")
        return _ERROR
    verb, rest = args[0], args[1:]
    if verb == "size":
        if not rest:
            override = inv.state.config.get("wm_size")
            inv.out(f"Physical size: {SCREEN_SIZE[0]}x{SCREEN_SIZE[1]}\n")
            if override:
                inv.out(f"Override size: {override}\n")
            return 0
        if rest[0] == "reset":
            inv.state.config.pop("wm_size", None)
        else:
            width, x, height = rest[0].partition("x")
            if not x:
                return inv.fail(f"Error: bad size {rest[0]}", _ERROR)
            if not (width.isdigit() and height.isdigit()):
                bad = width if not width.isdigit() else height
                return inv.fail(f'Error: bad number java.lang.NumberFormatException: For input string: "{bad}"',
                                _ERROR)
            inv.state.config["wm_size"] = f"{int(width)}x{int(height)}"
        inv.state.save()
        return 0
    if verb == "density":
        if not rest:
            inv.out(f"Physical density: {SCREEN_DENSITY}\n")
            forced = get_setting(inv.state, "secure", "display_density_forced")
            if forced:
                inv.out(f"Override density: {forced}\n")
            return 0
        if rest[0] == "reset":
            delete_setting(inv.state, "secure", "display_density_forced")
        elif rest[0].isdigit() and int(rest[0]) > 0:
            put_setting(inv.state, "secure", "display_density_forced", str(int(rest[0])))
        else:
            return inv.fail(f'Error: bad number java.lang.NumberFormatException: For input string: "{rest[0]}"',
                            _ERROR)
        return 0
    inv.out(f"Unknown command: {verb}\n")
    return _ERROR


# --- identity -------------------------------------------------------------------------------
_GROUPS = ("1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),"
           "1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),"
           "3009(readproc),3011(uhid),3012(readtracefs)")
_UNAME = {"s": "Linux", "n": "localhost", "r": "5.15.41-android13-8-00205-gf1bf82c3dacd-ab8747247",
          "v": "#1 SMP PREEMPT Fri Jun 24 21:24:59 UTC 2022", "m": "x86_64", "o": "Toybox"}


def _identity(state: SimState) -> tuple[int, str, str]:
    """(uid, name, SELinux context) of the shell."""
    if state.config.get("is_root"):
        return 0, "root", "u:r:su:s0"
    return 2000, "shell", "u:r:shell:s0"


@command("whoami")
def whoami(inv: Invocation) -> int:
    inv.out(_identity(inv.state)[1] + "\n")
    return 0


@command("id")
def id_(inv: Invocation) -> int:
    """`id [-u|-g|-G] [-n]`, `id -Z`, or the full line of §6.1."""
    uid, name, context = _identity(inv.state)
    flags = "".join(a[1:] for a in inv.args if a.startswith("-"))
    if any(not a.startswith("-") for a in inv.args):
        user = next(a for a in inv.args if not a.startswith("-"))
        if user not in (name, str(uid)):
            return inv.fail(f"id: no such user '{user}'")
    if "Z" in flags:
        inv.out(context + "\n")
    elif "u" in flags or "g" in flags:
        inv.out((name if "n" in flags else str(uid)) + "\n")
    elif "G" in flags:
        names = [name] + re.findall(r"\((\w+)\)", _GROUPS)
        ids = [str(uid)] + re.findall(r"(\d+)\(", _GROUPS)
        inv.out(" ".join(names if "n" in flags else ids) + "\n")
    else:
        inv.out(f"uid={uid}({name}) gid={uid}({name}) groups={uid}({name}),{_GROUPS} context={context}\n")
    return 0


@command("uname")
def uname(inv: Invocation) -> int:
    """`uname [-asnrvmo]`."""
    flags = "".join(a[1:] for a in inv.args if a.startswith("-")) or "s"
    if any(not a.startswith("-") for a in inv.args) or set(flags) - set("asnrvmo"):
        return inv.fail('uname: Unknown option (see "uname --help")')
    keys = "snrvmo" if "a" in flags else [k for k in "snrvmo" if k in flags]
    inv.out(" ".join(_UNAME[k] for k in keys) + "\n")
    return 0


# --- screencap ------------------------------------------------------------------------------
def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@functools.lru_cache(maxsize=4)
def blank_png(width: int, height: int) -> bytes:
    """A valid, deterministic all-white PNG of the given size (1-bit palette: a few KB)."""
    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    header = struct.pack(">IIBBBBB", width, height, 1, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"PLTE", b"\xff\xff\xff")
            + _png_chunk(b"IDAT", zlib.compress(row * height, 9)) + _png_chunk(b"IEND", b""))


def raw_header(width: int, height: int) -> bytes:
    """The header `screencap` without -p writes before the pixels, as Android 13's
    (frameworks/base cmds/screencap/screencap.cpp, android-13.0.0_r1): width, height, format
    (1 = PIXEL_FORMAT_RGBA_8888) and dataspace (0: unknown), each a little-endian uint32."""
    return struct.pack("<IIII", width, height, 1, 0)


def raw_screen(width: int, height: int) -> bytes:
    """`screencap` without -p of a blank screen: the header, then white RGBA pixels."""
    return raw_header(width, height) + b"\xff" * (width * height * 4)


@command("uiautomator")
def uiautomator(inv: Invocation) -> int:
    """`uiautomator dump [--compressed] [FILE]`: the screen's window_dump.xml (needs a display)."""
    screen = display.for_state(inv.state)
    if screen is None:
        return inv.fail("/system/bin/sh: uiautomator: inaccessible or not found", 127)
    args = [a for a in inv.args if a != "--compressed"]
    if not args or args[0] != "dump" or len(args) > 2:
        inv.out("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                "help: displays help message\n\ndump: creates an XML dump of current UI hierarchy\n")
        return 0 if args[:1] == ["help"] else 1
    target = args[1] if len(args) > 1 else "/sdcard/window_dump.xml"
    xml = screen.dump(inv.state)
    if target == "/dev/tty":
        inv.out(xml)
        return 0
    try:
        path = inv.host_path(target)
        storage.write_file(inv.state, path, xml.encode("utf-8"))
    except OSError as exc:
        return inv.fail(f"ERROR: could not write {target}: {os.strerror(exc.errno or 2)}")
    os.utime(path, (inv.state.clock_epoch, inv.state.clock_epoch))
    inv.out(f"UI hierchary dumped to: {inv.normalize(target)}\n")  # DumpCommand: getAbsolutePath()
    return 0


@command("screencap")
def screencap(inv: Invocation) -> int:
    """`screencap [-hp] [-d DISPLAY] [FILE]`: the screen (blank without a display) as PNG (-p or *.png) or raw."""
    png, target = False, None
    args = list(inv.args)
    while args:
        arg = args.pop(0)
        if arg == "-d":
            if args:
                args.pop(0)
        elif arg.startswith("-") and len(arg) > 1:
            if set(arg[1:]) - set("hp") or "h" in arg:
                return inv.fail("usage: screencap [-hp] [-d display-id] [FILENAME]\n"
                                "   -h: this message\n   -p: save the file as a png.")
            png = True
        else:
            target = arg
    if target is not None and target.endswith(".png"):
        png = True
    width, height = display_size(inv.state)
    screen = display.for_state(inv.state)
    if screen is None:
        parts = [blank_png(width, height) if png else raw_screen(width, height)]
    elif png:
        parts = [screen.render(inv.state, width, height)]
    else:  # drawn straight to pixels: no PNG is encoded, nor decoded again
        parts = [raw_header(width, height), screen.pixels(inv.state, width, height)]
    if target is None:
        for part in parts:  # (a 10 MB frame is not joined to its header first)
            inv.out(part)
        return 0
    try:
        path = inv.host_path(target)
    except OSError as exc:
        return inv.fail(f"Error opening file: {target} ({os.strerror(exc.errno or 2)})")
    if not path.parent.is_dir() or path.is_dir():
        reason = "Is a directory" if path.is_dir() else "No such file or directory"
        return inv.fail(f"Error opening file: {target} ({reason})")
    try:
        storage.write_file(inv.state, path, b"".join(parts))
    except OSError as exc:
        return inv.fail(f"Error writing file: {target} ({os.strerror(exc.errno or 28)})")
    os.utime(path, (inv.state.clock_epoch, inv.state.clock_epoch))
    return 0


# --- ime ----------------------------------------------------------------------------------------
# `ime` as Android 13's input method manager shell command answers it (AOSP
# services/core/java/com/android/server/inputmethod/InputMethodManagerService.java, its
# ShellCommandImpl: `ime list [-a] [-s]`, `ime enable|disable ID`, `ime set ID`).
_IMES = (LATIN_IME, ADB_KEYBOARD_IME)  # the input methods the simulated device has


def _enabled_imes(state: SimState) -> list[str]:
    return [ime for ime in (get_setting(state, "secure", "enabled_input_methods") or "").split(":") if ime]


@command("ime")
def ime(inv: Invocation) -> int:
    """`ime list [-s] [-a]`, `ime enable|disable ID`, `ime set ID`."""
    args, state = inv.args, inv.state
    if args[:1] == ["list"]:
        listed = list(_IMES) if "-a" in args else _enabled_imes(state)
        inv.out("".join(f"{ime}\n" for ime in listed) if "-s" in args else
                "".join(f"{ime}:\n  mId={ime}\n" for ime in listed))
        return 0
    if len(args) == 2 and args[0] in ("enable", "disable", "set"):
        verb, ime_id = args
        if ime_id not in _IMES:
            return inv.fail(f"Unknown input method {ime_id} cannot be {'selected' if verb == 'set' else verb + 'd'}.")
        enabled = _enabled_imes(state)
        if verb == "set":
            put_setting(state, "secure", "default_input_method", ime_id)
            inv.out(f"Input method {ime_id} selected for user #0\n")
            return 0
        was = ime_id in enabled
        now = [i for i in enabled if i != ime_id] + ([ime_id] if verb == "enable" else [])
        put_setting(state, "secure", "enabled_input_methods", ":".join(now))
        state_word = ("already enabled" if was else "now enabled") if verb == "enable" else \
            ("now disabled" if was else "already disabled")
        inv.out(f"Input method {ime_id}: {state_word}\n")
        return 0
    return inv.fail("usage: ime list [-a] [-s] | ime enable|disable|set ID")
