"""What every taskkit command line shares: flags, loading tasks, opening the device, bad input.

`python -m taskkit.run` and `python -m taskkit.check` define their flags through this module, so
`--tasks`, `--task_module`, `--spec_dir`, `--replace_tasks`, `--device`, `--adb_host` and
`--adb_port` mean the same everywhere, and both report bad input the same way: one line naming
the problem and the fix, exit code 2, never a traceback. adb's own environment variables
(`ANDROID_ADB_SERVER_HOST`, `ANDROID_ADB_SERVER_PORT`, `ANDROID_SERIAL`) are the defaults; a
flag wins over them.
"""
from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Callable, Iterator

from absl import flags

from taskkit import connect, families, loading, outdir, registry, suite
from taskkit.agents import AgentLoadError, AgentUnavailable, ReplayMismatch
from taskkit.device.base import Device, DeviceError
from taskkit.device import lock
from taskkit.errors import TaskkitError
from taskkit.params import ParamError
from taskkit.sim.device import StateDirError, check_state_dir
from taskkit.specs import SpecError

USAGE = 2
INFRASTRUCTURE = 3


class UsageError(TaskkitError, ValueError):
    """Bad input from the command line: printed as one line, exit code 2."""


class SpecErrors(UsageError):
    """Bad specs: one `file:line:col: field: message` line each, exit code 2."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


# Errors that are the user's input, not a bug and not the device: one line, exit 2.
BAD_INPUT = (UsageError, registry.TaskLoadError, AgentLoadError, connect.DeviceSpecError, ParamError,
             SpecError, lock.DeviceBusy, lock.LockUnusable, ReplayMismatch, outdir.OutputDirError, suite.SuiteSizeError)
# Infrastructure that failed (the device, the agent's endpoint, a write to the output dir): one line, exit 3.
INFRASTRUCTURE_ERRORS = (DeviceError, AgentUnavailable, outdir.WriteFailed)


def define_task_flags(values: flags.FlagValues) -> None:
    flags.DEFINE_list("tasks", [], "Task names (default: every registered task).", flag_values=values)
    flags.DEFINE_multi_string("task_module", [], "Extra tasks: a module name or a .py path (repeatable).",
                              flag_values=values)
    flags.DEFINE_multi_string("spec_dir", [], "Extra tasks: a directory of *.textproto task specs (repeatable).",
                              flag_values=values)
    flags.DEFINE_string("android_world", None, "An AndroidWorld checkout (or its android_world package): its own "
                        "task code, imported unmodified, replaces the built-in tasks of the same names (needs "
                        "pip install 'taskkit[android-world]').", flag_values=values)
    flags.DEFINE_bool("replace_tasks", False, "Let --task_module/--spec_dir tasks replace registered tasks "
                      "of the same name (a notice is printed for each).", flag_values=values)
    flags.DEFINE_enum("suite_family", "all", list(families.FAMILIES), "Which tasks: android_world (AndroidWorld's, "
                      "by name), information_retrieval (AndroidWorld's 25 question tasks), bmoca, spa, androidlens (the other seed "
                      "benchmarks' tasks, by tag), taskkit (taskkit's own) or all.",
                      flag_values=values)


def define_device_flags(values: flags.FlagValues) -> None:
    flags.DEFINE_string("device", "sim", connect.DEVICE_SPECS + "; `adb` uses $ANDROID_SERIAL when set.",
                        flag_values=values)
    flags.DEFINE_string("adb_host", None, "Host of the adb server (default $ANDROID_ADB_SERVER_HOST or 127.0.0.1).",
                        flag_values=values)
    flags.DEFINE_integer("adb_port", None, "Port of the adb server (default $ANDROID_ADB_SERVER_PORT or 5037).",
                         flag_values=values)


def adb_server(values: flags.FlagValues) -> tuple[str, int]:
    """The adb server's host and port: the flags, else adb's environment, else 127.0.0.1:5037."""
    host = values.adb_host or os.environ.get("ANDROID_ADB_SERVER_HOST") or "127.0.0.1"
    if values.adb_port is not None:
        return host, values.adb_port
    port = os.environ.get("ANDROID_ADB_SERVER_PORT", "5037")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"ANDROID_ADB_SERVER_PORT={port!r} is not a port number; fix it or pass --adb_port")
    return host, int(port)


def device_spec(values: flags.FlagValues) -> str:
    """`--device`, with `adb` completed by $ANDROID_SERIAL when it names no serial."""
    serial = os.environ.get("ANDROID_SERIAL")
    if values.device == "adb" and serial:
        return f"adb:{serial}"
    return values.device


def simulated(spec: str) -> bool:
    """Whether a `--device` spec (or any of a comma-separated list) names the simulated device."""
    return any(part.strip().partition(":")[0] == "sim" for part in spec.split(","))


def runnable_here(values: flags.FlagValues, classes: list[Any]) -> tuple[list[Any], str | None]:
    """The task classes that can run on the chosen device, and a one-line notice naming those left
    out (tasks that need a real device, on the simulated one); UsageError if none is left."""
    if not simulated(device_spec(values)):
        return classes, None
    left_out = [cls for cls in classes if cls.real_device_only]
    kept = [cls for cls in classes if not cls.real_device_only]
    if not left_out:
        return classes, None
    by_reason: dict[str, list[str]] = {}
    for cls in left_out:
        by_reason.setdefault(cls.real_device_only, []).append(cls.name)
    reasons = "; ".join(f"{', '.join(names)} ({reason})" for reason, names in by_reason.items())
    if not kept:
        raise UsageError(f"every chosen task needs a real device: {reasons}; run with --device adb:SERIAL")
    return kept, f"{len(left_out)} task(s) need a real device and are left out on the simulated device: {reasons}"


def load_tasks(values: flags.FlagValues) -> list[str]:
    """Register the built-in tasks and those of --android_world, --task_module and --spec_dir.

    Returns the notices of replaced tasks (one for a checkout's, one per task --replace_tasks
    replaced); raises SpecErrors listing every bad spec, or TaskLoadError for a module that does
    not load, a name collision or a checkout that cannot be used.
    """
    replaced, errors = loading.load_tasks(values.task_module, values.spec_dir, values.replace_tasks,
                                          values.android_world)
    if errors:
        raise SpecErrors(errors)
    from_checkout = [name for name, _, new in replaced if new.startswith("AndroidWorld checkout")]
    notices = [f"note: {len(from_checkout)} task(s) run AndroidWorld's own code from {values.android_world} "
               "in place of taskkit's of the same names"] if from_checkout else []
    return notices + [f"note: task {name} from {old} is replaced by the one in {new} (--replace_tasks)"
                      for name, old, new in replaced if not new.startswith("AndroidWorld checkout")]


def chosen_task_names(values: flags.FlagValues) -> list[str] | None:
    """The task names --tasks and --suite_family choose (None: every registered task)."""
    family = None if values.suite_family == "all" else families.tasks_in(values.suite_family)
    if not values.tasks:
        return family
    outside = [name for name in values.tasks if family is not None and name in registry.names() and name not in family]
    if outside:
        raise UsageError(f"--tasks {', '.join(outside)}: not in --suite_family {values.suite_family}; drop the "
                         "family or the task")
    return list(values.tasks)


def chosen_tasks(values: flags.FlagValues) -> list[Any]:
    """The task classes --tasks and --suite_family choose (all registered ones by default);
    raises SpecErrors listing every chosen spec that does not compile."""
    classes, errors = loading.resolve(chosen_task_names(values))
    if errors:
        raise SpecErrors(errors)
    return classes


@contextlib.contextmanager
def opened_device(values: flags.FlagValues, task_names: list[str]) -> Iterator[Device]:
    """The --device, held by this process alone for the block (see `connect.ready_device`);
    closed and released afterwards."""
    spec = device_spec(values)
    host, port = adb_server(values)
    kind, _, directory = spec.partition(":")
    if kind == "sim" and directory:  # refuse a bad directory before locking anything in it
        try:
            check_state_dir(directory)
        except StateDirError as error:
            raise connect.DeviceSpecError(f"--device {spec}: {error}") from None
    with lock.hold(lock.key_for(spec, host, port)), connect.ready_device(spec, host, port, task_names) as device:
        yield device


def _strings(value: Any) -> list[str]:
    """The strings of a flag's value (a list flag's items)."""
    items = value if isinstance(value, (list, tuple)) else [value]
    return [item for item in items if isinstance(item, str)]


def refuse_nul(name: str, value: str) -> None:
    """UsageError if `value` (of flag or argument `name`) holds a NUL byte: no path, serial or name
    can (the OS refuses one with a ValueError deep in the run). `run_main` applies it to every
    argument and flag value of every command, a --flagfile's too."""
    if "\0" in value:
        shown = repr(value) if len(value) <= 60 else repr(value[:60]) + "..."
        raise UsageError(f"{name} {shown}: a NUL byte (\\x00) cannot be part of a path or a name; remove it")


def run_main(prog: str, values: flags.FlagValues, main: Callable[[list[str]], int], argv: list[str],
             doc: str | None = None) -> int:
    """Parse `argv` into `values` and call `main`; every kind of bad input is one line, exit 2.

    The device or the agent's endpoint failing is an infrastructure error: one line, exit 3.
    """
    if "--help" in argv[1:] or "-h" in argv[1:] or "--helpfull" in argv[1:]:
        print(f"usage: python -m {prog} [flags]\n\n{doc or ''}\n{values.get_help()}")
        return 0
    values.unparse_flags()  # run() may be called again in one process (tests)
    try:
        flag = "argument"
        for argument in argv[1:]:  # before parsing: a --flagfile path with a NUL could not be opened
            refuse_nul(argument.partition("=")[0] if argument.startswith("-") else flag, argument)
            flag = argument if argument.startswith("--") and "=" not in argument else "argument"
        rest = values(argv)
        for name in values:  # a --flagfile's values too
            for value in _strings(values[name].value):
                refuse_nul(f"--{name}", value)
        if len(rest) > 1:
            raise UsageError(f"unexpected argument(s) {' '.join(rest[1:])}; every option is a --flag")
        return main(rest)
    except flags.Error as error:
        print(f"{prog}: error: {error} (see --help)", file=sys.stderr)
        return USAGE
    except SpecErrors as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        return USAGE
    except SpecError as error:  # a spec compiled on first use (`--show_instance`): its line alone
        print(error, file=sys.stderr)
        return USAGE
    except BAD_INPUT as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return USAGE
    except INFRASTRUCTURE_ERRORS as error:
        print(f"{prog}: infrastructure error: {error}", file=sys.stderr)
        return INFRASTRUCTURE
