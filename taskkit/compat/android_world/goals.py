"""Compare goals with AndroidWorld's own suite:
`python -m taskkit.compat.android_world.goals --android_world PATH [--seed 30] [--json]`.

For every task of AndroidWorld's registry (families android_world and information_retrieval),
the goal its own `suite_utils.create_suite(seed=SEED)` builds is set beside the goal taskkit's
run builds with `--android_world PATH` (the same object's goal, drawn as the runner draws it)
and the goal of taskkit's built-in task of that name (its own wording, documented in
docs/android-world.md). Prints a table of the ones that differ and a count line; `--json`
prints the rows instead. Exit code 0 when every `--android_world` goal equals AndroidWorld's,
except the tasks whose goal reads the wall clock (named by `--clock_tasks`), else 1.
"""
from __future__ import annotations

import json
import sys
from typing import Any

from absl import flags

from taskkit import cli, loading, registry
from taskkit.compat.android_world import checkout, native
from taskkit.report import table
from taskkit.suite import build_suite

PROG = "taskkit.compat.android_world.goals"
FLAGS = flags.FlagValues()
flags.DEFINE_string("android_world", None, "An AndroidWorld checkout (or its android_world package).",
                    flag_values=FLAGS)
flags.DEFINE_integer("seed", 30, "The suite seed (AndroidWorld's `--suite_seed`).", flag_values=FLAGS)
flags.DEFINE_list("clock_tasks", ["MarkorCreateFolder"], "Tasks whose goal reads the wall clock (expected to differ).",
                  flag_values=FLAGS)
flags.DEFINE_bool("json", False, "Print the rows as JSON.", flag_values=FLAGS)


def android_world_goals(seed: int) -> dict[str, str]:
    """Goal per task of AndroidWorld's own suite at `seed` (one instance each)."""
    from android_world import registry as aw_registry, suite_utils  # the checkout's, through the hook

    tasks = aw_registry.TaskRegistry()
    goals = {}
    for family in native.FAMILIES:
        suite = suite_utils.create_suite(tasks.get_registry(family), n_task_combinations=1, seed=seed)
        goals.update({name: instances[0].goal for name, instances in suite.items()})
    return goals


def taskkit_goals(seed: int) -> dict[str, str]:
    """Goal per registered task, as taskkit's run builds instance 0 at `seed`."""
    return {instance.task.name: instance.create().goal for instance in build_suite(seed, sorted(registry.names()))}


def compare(path: str, seed: int) -> list[dict[str, Any]]:
    """One row per AndroidWorld task: its goal, the `--android_world` goal and the built-in's."""
    loading.load_builtin()
    builtin = taskkit_goals(seed)
    checkout.use(path)
    native.register()
    served = taskkit_goals(seed)
    theirs = android_world_goals(seed)
    return [{"task": name, "android_world": goal, "taskkit_android_world": served.get(name),
             "taskkit_builtin": builtin.get(name)} for name, goal in sorted(theirs.items())]


def main(argv: list[str]) -> int:
    if not FLAGS.android_world:
        raise cli.UsageError("--android_world PATH is required: the AndroidWorld checkout whose goals to compare")
    try:
        rows = compare(FLAGS.android_world, FLAGS.seed)
    except checkout.CheckoutError as error:
        raise cli.UsageError(str(error)) from None
    if FLAGS.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    differ = [r for r in rows if r["taskkit_android_world"] != r["android_world"]]
    unexpected = [r["task"] for r in differ if r["task"] not in FLAGS.clock_tasks]
    same_builtin = sum(r["taskkit_builtin"] == r["android_world"] for r in rows)
    if not FLAGS.json:
        if differ:
            print(table(["task", "AndroidWorld's goal", "--android_world goal"],
                        [[r["task"], r["android_world"], str(r["taskkit_android_world"])] for r in differ]))
        print(f"{len(rows) - len(differ)} of {len(rows)} goals equal AndroidWorld's at seed {FLAGS.seed} "
              f"(differing: {', '.join(r['task'] for r in differ) or 'none'}; "
              f"unexpected: {', '.join(unexpected) or 'none'}); the built-in tasks' own wording equals "
              f"{same_builtin} of them")
    return 1 if unexpected else 0


def entry() -> None:
    sys.exit(cli.run_main(PROG, FLAGS, main, sys.argv, __doc__))


if __name__ == "__main__":
    entry()
