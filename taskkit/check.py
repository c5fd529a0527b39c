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
from typing import Any

from absl import flags

from taskkit import cli, config as device_config, report
from taskkit.config import apply as config_apply
from taskkit.agents.builtin import BASELINES
from taskkit.runner import run_episode
from taskkit.suite import instantiate
from taskkit.env import Env
from taskkit.testing import properties as props
from taskkit.testing.checks import PropertyResult, run_property
from taskkit.testing.search import DEFAULT_SEEDS, planned_seeds
from taskkit.testing.session import Session

FLAGS = flags.FlagValues()  # our own: importing this module never clashes with taskkit.run's flags
cli.define_task_flags(FLAGS)
cli.define_device_flags(FLAGS)
flags.DEFINE_integer("seeds", DEFAULT_SEEDS, "Seeds drawn per task and property (failures shrink to a minimal seed).",
                     flag_values=FLAGS)
flags.DEFINE_integer("seed", None, "Check this one seed instead of drawing --seeds.", flag_values=FLAGS)
flags.DEFINE_bool("hostile", False, "Also check that hostile free text round-trips and injects nothing.",
                  flag_values=FLAGS)
flags.DEFINE_bool("baselines", False, "Instead of the properties: run the trivial agents (noop = always complete, "
                  "always-infeasible, empty-answer) over --seeds instances of each task and list every task one of "
                  "them passes (tasks that start solved, the *Verify tasks, are listed apart as expected passes).",
                  flag_values=FLAGS)
flags.DEFINE_list("properties", [], f"Only these properties ({', '.join(props.BY_NAME)}).", flag_values=FLAGS)
flags.DEFINE_string("device_configs", None, "Check the properties under each of these device configs in turn "
                    "(default, random, train, test, a name such as bmoca-105, or FILE.json[:NAME|:SPLIT]; see "
                    "docs/device-configs.md); the device's own config comes back afterwards.", flag_values=FLAGS)

PROG = "taskkit.check"


def _chosen() -> list[props.Property]:
    if FLAGS.properties:
        unknown = [name for name in FLAGS.properties if name not in props.BY_NAME]
        if unknown:
            raise cli.UsageError(f"--properties: unknown {', '.join(unknown)}; known: {', '.join(props.BY_NAME)}")
        chosen = [props.BY_NAME[name] for name in FLAGS.properties]
        return chosen + ([props.HOSTILE] if FLAGS.hostile and props.HOSTILE not in chosen else [])
    return list(props.ALL if FLAGS.hostile else props.DEFAULT)


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
    host, port = cli.adb_server(FLAGS)
    options = {"adb_host": host, "adb_port": port} if cli.device_spec(FLAGS).startswith("adb") else {}
    progress = report.Progress(len(classes) * len(chosen))  # on stderr: a unit per task and property
    with Session(env, cli.device_spec(FLAGS), near_misses=props.NEAR_MISS in chosen, device_options=options) as session:
        if props.DETERMINISTIC in chosen:
            ahead = planned_seeds(seeds)
            for cls in classes:
                session.prefetch(cls, ahead)
        for cls in classes:
            results = []
            for prop in chosen:
                results.append(run_property(prop, cls, session, seeds))
                progress.advance(f"{cls.name} {prop.name}", not results[-1].failed, results[-1].failed)
            table.append(results)
            progress.clear()
            print(_row(cls.name, results, width, chosen), flush=True)
    return table


def baselines(classes: list[Any], count: int, env: Env) -> list[str]:
    """Run each trivial agent on `count` instances (run seed 30) of every task; print and return
    the lines naming the tasks one of them passes.

    A task that starts solved (`starts_solved`: AndroidWorld's *Verify tasks, whose goal already
    holds) passes them by design: it is marked in its row and named apart, not counted.
    """
    passed, expected = [], []
    width = max([len(cls.name) for cls in classes] + [4])
    print("  ".join(["task".ljust(width)] + [agent.name for agent in BASELINES]), flush=True)
    for cls in classes:
        cells, solved = [], getattr(cls, "starts_solved", False)
        for agent in BASELINES:
            results = [run_episode(env, instantiate(cls, 30, index), agent, 30) for index in range(count)]
            wins = [r for r in results if r.success]
            errors = [r for r in results if r.error]
            cells.append(f"{len(wins)}/{count}".ljust(len(agent.name)) + (" (errors)" if errors else ""))
            if wins and not solved:
                passed.append(f"{cls.name}: {agent.name} passes {len(wins)} of {count} instance(s) "
                              f"(e.g. {wins[0].instance_id}: {wins[0].goal!r})")
        if solved:
            expected.append(cls.name)
        print("  ".join([cls.name.ljust(width)] + cells + (["(starts solved: passes by design)"] if solved else [])
                        ).rstrip(), flush=True)
    print()
    for line in passed:
        print(line)
    if expected:
        print(f"expected passes, not counted: {', '.join(expected)} (they start solved, as AndroidWorld's *Verify "
              "tasks: the goal already holds; the agent must check it and stop without breaking it)")
    verdict = f"{len(passed)} passable by a trivial agent" if passed else "no trivial agent passes any"
    print(f"{len(classes)} task(s); {verdict}" + (f" (besides {len(expected)} that start(s) solved)" if expected else ""))
    return passed


def _configs() -> list[Any]:
    """The device configs --device_configs names ([None]: the device as it is)."""
    if not FLAGS.device_configs:
        return [None]
    try:
        return list(device_config.resolve(FLAGS.device_configs))
    except device_config.ConfigError as error:
        raise cli.UsageError(f"--device_configs: {error}") from None


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        raise cli.UsageError(f"unexpected argument(s) {' '.join(argv[1:])}; every option is a --flag")
    if FLAGS.seeds < 1:
        raise cli.UsageError(f"--seeds must be at least 1, got {FLAGS.seeds}")
    chosen = _chosen()
    for notice in cli.load_tasks(FLAGS):
        print(notice, file=sys.stderr)
    classes, left_out = cli.runnable_here(FLAGS, cli.chosen_tasks(FLAGS))
    seeds: Any = [FLAGS.seed] if FLAGS.seed is not None else FLAGS.seeds
    started = time.monotonic()
    configs = None if FLAGS.baselines else _configs()  # bad input is refused before the notice
    if left_out:
        print(f"{PROG}: {left_out}", file=sys.stderr)
    if FLAGS.baselines:
        with cli.opened_device(FLAGS, [cls.name for cls in classes]) as device:
            passed = baselines(classes, FLAGS.seeds, Env(device))
        print(f"{PROG}: {time.monotonic() - started:.1f} s", file=sys.stderr)
        return 1 if passed else 0
    table = []
    with cli.opened_device(FLAGS, [cls.name for cls in classes]) as device:
        _warn_without_gui_reference(classes, chosen)
        for device_config in configs:
            if device_config is None:
                table += check(classes, chosen, seeds, Env(device))
                continue
            print(f"\ndevice config {device_config.name}", flush=True)
            previous = config_apply.apply(device, device_config)
            try:
                table += check(classes, chosen, seeds, Env(device))
            finally:
                config_apply.restore(device, previous)
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


def _warn_without_gui_reference(classes: list[Any], chosen: list[props.Property]) -> None:
    without = [cls.name for cls in classes if not cls.has_gui_reference()]
    if without and props.GUI_SOLVABLE in chosen:
        print(f"{PROG}: warning: {len(without)} task(s) give no GUI reference, so nothing proves them doable through "
              f"the screens: {', '.join(without)}", file=sys.stderr)


def run(argv: list[str]) -> int:
    """Parse flags and run; bad input is one line per problem on stderr and exit code 2."""
    return cli.run_main(PROG, FLAGS, main, argv, __doc__)


def entry() -> None:
    sys.exit(run(sys.argv))


if __name__ == "__main__":
    entry()
