"""Self-test tasks: `python -m taskkit.check`.

Runs the task properties of `taskkit.testing` (solvable, not trivially solved, clean teardown,
deterministic, near misses rejected; hostile input with --hostile) over the registered tasks —
the built-in ones plus those of --task_module and --spec_dir — and prints one row per task:
each property's pass/FAIL/n/a and how many derived near-miss mutations were killed. Every
failure is then printed with its minimal seed and the command that reproduces it.

Exit codes: 0 every property holds, 1 a property failed, 2 bad input (flags, modules, specs:
one line each), 3 the device failed (an infrastructure error, not a task's fault).
"""
from __future__ import annotations

import sys
import time
from typing import Any, Sequence

from absl import flags

from taskkit import connect, registry
from taskkit.device.base import DeviceError
from taskkit.env import Env
from taskkit.testing import properties as props
from taskkit.testing.checks import PropertyResult, run_property
from taskkit.testing.search import DEFAULT_SEEDS, planned_seeds
from taskkit.testing.session import Session

FLAGS = flags.FlagValues()  # our own: importing this module never clashes with taskkit.run's flags
flags.DEFINE_list("tasks", [], "Task names to check (default: every registered task).", flag_values=FLAGS)
flags.DEFINE_multi_string("task_module", [], "Extra tasks: a module name or a .py path (repeatable).",
                          flag_values=FLAGS)
flags.DEFINE_multi_string("spec_dir", [], "Extra declarative tasks: a folder of *.textproto specs (repeatable).",
                          flag_values=FLAGS)
flags.DEFINE_integer("seeds", DEFAULT_SEEDS, "Seeds drawn per task and property (failures shrink to a minimal seed).",
                     flag_values=FLAGS)
flags.DEFINE_integer("seed", None, "Check this one seed instead of drawing --seeds.", flag_values=FLAGS)
flags.DEFINE_string("device", "sim", connect.DEVICE_SPECS + ".", flag_values=FLAGS)
flags.DEFINE_string("adb_host", "127.0.0.1", "Host of the adb server for --device adb[:SERIAL].", flag_values=FLAGS)
flags.DEFINE_integer("adb_port", 5037, "Port of the adb server for --device adb[:SERIAL].", flag_values=FLAGS)
flags.DEFINE_bool("hostile", False, "Also check that hostile free text round-trips and injects nothing.",
                  flag_values=FLAGS)
flags.DEFINE_list("properties", [], f"Only these properties ({', '.join(props.BY_NAME)}).", flag_values=FLAGS)

PROG = "taskkit.check"


class UsageError(ValueError):
    """Bad input: one line, exit code 2."""


class SpecErrors(UsageError):
    """Bad specs: one `file:line:col: field: message` line each, exit code 2."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def _chosen() -> list[props.Property]:
    if FLAGS.properties:
        unknown = [name for name in FLAGS.properties if name not in props.BY_NAME]
        if unknown:
            raise UsageError(f"--properties: unknown {', '.join(unknown)}; known: {', '.join(props.BY_NAME)}")
        chosen = [props.BY_NAME[name] for name in FLAGS.properties]
        return chosen + ([props.HOSTILE] if FLAGS.hostile and props.HOSTILE not in chosen else [])
    return list(props.ALL if FLAGS.hostile else props.DEFAULT)


def _load_specs(directories: Sequence[str]) -> None:
    if not directories:
        return
    try:
        from taskkit import specs
    except ImportError as error:  # the spec compiler is optional
        raise UsageError(f"--spec_dir needs taskkit.specs, which cannot be imported: {error}") from None
    errors: list[str] = []
    for directory in directories:
        errors += [str(error) for error in specs.load_dir(directory).errors]
    if errors:
        raise SpecErrors(errors)


def _classes() -> list[Any]:
    registry.load_builtin()
    for module in FLAGS.task_module:
        registry.load_module(module)
    _load_specs(FLAGS.spec_dir)
    if FLAGS.tasks:
        return [registry.get(name) for name in FLAGS.tasks]
    return registry.all_tasks()


def _device_options() -> dict[str, Any]:
    """adb server options, for the `open_device` versions that take them."""
    if FLAGS.device.partition(":")[0] != "adb":
        return {}
    return {"adb_host": FLAGS.adb_host, "adb_port": FLAGS.adb_port}


def _row(name: str, results: list[PropertyResult], width: int, chosen: list[props.Property]) -> str:
    cells = [f"{name:<{width}}"]
    for prop, result in zip(chosen, results):
        cells.append(f"{result.status:<{len(prop.name)}}")
    if props.NEAR_MISS in chosen:
        near = results[chosen.index(props.NEAR_MISS)]
        kills = "n/a" if near.status == "n/a" else f"{near.killed}/{near.total}"
        cells.append(kills + (f" ({near.unapplied} not applied)" if near.unapplied else ""))
    return "  ".join(cells).rstrip()


def check(classes: list[Any], chosen: list[props.Property], seeds: Any, env: Env) -> list[list[PropertyResult]]:
    """Every chosen property of every class, printing one row per task as it is done."""
    width = max([len(cls.name) for cls in classes] + [4])
    header = ["task".ljust(width)] + [prop.name for prop in chosen]
    if props.NEAR_MISS in chosen:
        header.append("killed")
    print("  ".join(header), flush=True)
    table = []
    with Session(env, FLAGS.device, near_misses=props.NEAR_MISS in chosen, device_options=_device_options()) as session:
        if props.DETERMINISTIC in chosen:
            ahead = planned_seeds(seeds)
            for cls in classes:
                session.prefetch(cls, ahead)
        for cls in classes:
            results = [run_property(prop, cls, session, seeds) for prop in chosen]
            table.append(results)
            print(_row(cls.name, results, width, chosen), flush=True)
    return table


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        raise UsageError(f"unexpected argument(s) {' '.join(argv[1:])}; every option is a --flag")
    if FLAGS.seeds < 1:
        raise UsageError(f"--seeds must be at least 1, got {FLAGS.seeds}")
    chosen = _chosen()
    classes = _classes()
    seeds: Any = [FLAGS.seed] if FLAGS.seed is not None else FLAGS.seeds
    started = time.monotonic()
    device = connect.open_device(FLAGS.device, **_device_options())
    try:
        ensure_root = getattr(connect, "ensure_root", None)
        if ensure_root is not None:
            ensure_root(device, [cls.name for cls in classes])
        table = check(classes, chosen, seeds, Env(device))
    finally:
        device.close()
    failures = [result for results in table for result in results if result.failed]
    for result in failures:
        print(f"\n{result}")
    near = [r for results in table for r in results if r.prop == "near_miss" and r.status != "n/a"]
    killed, total = sum(r.killed for r in near), sum(r.total for r in near)
    verdict = f"{len(failures)} property failure(s)" if failures else "every property holds"
    kills = f"; near misses killed {killed}/{total}" if props.NEAR_MISS in chosen else ""
    print(f"\n{len(classes)} task(s), {verdict}{kills}")
    print(f"{PROG}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 1 if failures else 0


def run(argv: list[str]) -> int:
    """Parse flags and run; bad input is one line per problem on stderr and exit code 2."""
    if "--help" in argv[1:] or "-h" in argv[1:]:
        print(f"usage: python -m {PROG} [flags]\n\n{__doc__}\n{FLAGS.get_help()}")
        return 0
    FLAGS.unparse_flags()  # run() may be called again in one process (tests)
    try:
        rest = FLAGS(argv)
        return main(rest)
    except flags.Error as error:
        print(f"{PROG}: error: {error} (see --help)", file=sys.stderr)
        return 2
    except SpecErrors as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        return 2
    except (UsageError, registry.TaskLoadError, connect.DeviceSpecError, ValueError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except DeviceError as error:
        print(f"{PROG}: infrastructure error: {error}", file=sys.stderr)
        return 3


def entry() -> None:
    sys.exit(run(sys.argv))


if __name__ == "__main__":
    entry()
