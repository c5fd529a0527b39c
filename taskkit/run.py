"""Run a task suite: `python -m taskkit.run --seed 30`.

Builds the suite from the seed, opens the device (a fresh simulator by default), runs every
episode with the chosen agent, prints a summary per task and per app, and, with --output_dir,
appends one JSON line per episode to results.jsonl as soon as it finishes.
"""
from __future__ import annotations

import sys

from absl import app, flags

from taskkit import agents, connect, registry, report, suite
from taskkit.env import Env
from taskkit.params import ParamError
from taskkit.runner import run_suite

FLAGS = flags.FLAGS
flags.DEFINE_integer("seed", 30, "Run seed; each instance's seed derives from it as in AndroidWorld.")
flags.DEFINE_list("tasks", [], "Task names to run (default: every registered task).")
flags.DEFINE_integer("n_task_combinations", 1, "Instances (parameter draws) per task.")
flags.DEFINE_string("agent", "oracle", "oracle, noop, or package.module:Class.")
flags.DEFINE_string("device", "sim", connect.DEVICE_SPECS + ".")
flags.DEFINE_string("adb_host", "127.0.0.1", "Host of the adb server for --device adb[:SERIAL].")
flags.DEFINE_integer("adb_port", 5037, "Port of the adb server for --device adb[:SERIAL].")
flags.DEFINE_multi_string("task_module", [], "Extra tasks: a module name or a .py path (repeatable).")
flags.DEFINE_multi_string("spec_dir", [], "Extra tasks: a directory of *.textproto task specs (repeatable).")
flags.DEFINE_string("output_dir", None, "Directory that receives results.jsonl.")
flags.DEFINE_bool("list_tasks", False, "Print the registered tasks (name, apps, source) and exit.")


class UsageError(ValueError):
    """Bad input from the command line: printed as one line, exit code 2."""


def _load_tasks() -> None:
    registry.load_builtin()
    for spec in FLAGS.task_module:
        registry.load_module(spec)
    for directory in FLAGS.spec_dir:
        registry.load_spec_dir(directory)


def _list_tasks() -> None:
    for cls in registry.all_tasks():
        print(f"{cls.name}\t{','.join(cls.app_names)}\t{cls.source}")


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        raise UsageError(f"unexpected argument(s) {' '.join(argv[1:])}; every option is a --flag")
    _load_tasks()
    if FLAGS.list_tasks:
        _list_tasks()
        return 0
    instances = suite.build_suite(FLAGS.seed, FLAGS.tasks or None, FLAGS.n_task_combinations)
    agent = agents.load(FLAGS.agent)
    device = connect.open_device(FLAGS.device, adb_host=FLAGS.adb_host, adb_port=FLAGS.adb_port)
    connect.ensure_root(device, [instance.task.name for instance in instances])
    writer = report.ResultsWriter(FLAGS.output_dir) if FLAGS.output_dir else None
    progress = report.Progress(len(instances))

    def on_result(result: "report.EpisodeResult") -> None:
        if writer:
            writer.write(result)
        progress.update(result)

    try:
        results = run_suite(Env(device), instances, agent, FLAGS.seed, on_result)
    finally:
        device.close()
        if writer:
            writer.close()
    print(report.summary(results))
    if writer:
        print(f"\nresults: {writer.path}")
    return 0


def run(argv: list[str]) -> None:
    """absl entry point: bad input is one line on stderr and exit code 2, never a traceback."""
    try:
        sys.exit(main(argv))
    except (UsageError, registry.TaskLoadError, agents.AgentLoadError, connect.DeviceSpecError, ParamError, ValueError) as error:
        print(f"taskkit.run: error: {error}", file=sys.stderr)
        sys.exit(2)


def parse_flags(argv: list[str]) -> list[str]:
    """absl flag parsing with bad flags reported as one line and exit code 2."""
    try:
        return FLAGS(argv)
    except flags.Error as error:
        print(f"taskkit.run: error: {error} (see --help)", file=sys.stderr)
        sys.exit(2)


def entry() -> None:
    app.run(run, flags_parser=parse_flags)


if __name__ == "__main__":
    entry()
