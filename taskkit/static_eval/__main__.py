"""Offline action matching: `python -m taskkit.static_eval --dataset D --agent NAME
[--instructions high|low] [--output FILE.json]`.

Feeds each recorded step of a taskkit.demos dataset to the agent (built by name as taskkit.run
builds it) and prints type match (TM) and action match (AMS) per task, app and step index, and
overall; `--output` writes the same as JSON (with `"written_by": "taskkit.static_eval"`). See
taskkit/static_eval/__init__.py for what the agent sees and taskkit/static_eval/matching.py for
what matches.

`--output FILE` is written atomically in FILE's directory and never through a link; an existing
FILE is replaced only if it is an earlier output of this command (its "written_by" says so):
anything else, or a link, is refused (exit 2).

Exit codes: 0 done, 2 bad input (one line), 3 the agent's endpoint failed or FILE could not be
written (a full disk).
"""
from __future__ import annotations

import copy
import json
import sys
from typing import Any

from absl import flags

from taskkit import agents, cli, demos, outdir, run, runner, static_eval

PROG = "taskkit.static_eval"
#: The key that marks an --output file as this command's: only such a file is replaced.
MARKER = "written_by"
#: taskkit.run's flags that mean the same here (their definitions are copied from taskkit.run's).
SHARED = ("agent", "llm_model", "llm_mode", "llm_base_url", "llm_api_key_env", "task_module", "spec_dir",
          "replace_tasks", "android_world")
FLAGS = flags.FlagValues()
for _name in SHARED:
    flags.DEFINE_flag(copy.deepcopy(run.FLAGS[_name]), flag_values=FLAGS)
FLAGS.set_default("agent", None)  # required here: the oracle is a run mode, not an agent
flags.DEFINE_string("dataset", None, "A dataset written by python -m taskkit.demos.", flag_values=FLAGS)
flags.DEFINE_enum("instructions", "high", list(runner.INSTRUCTION_LEVELS), "What the agent is told: the episode's goal "
                  "(high), or the goal and each step's low-level instruction beside it (low), as the runner's "
                  "--instructions tells it.", flag_values=FLAGS)
flags.DEFINE_string("output", None, "Also write the figures as JSON to this file.", flag_values=FLAGS)


def _is_own_output(data: dict[str, Any]) -> bool:
    """Whether an existing --output file is this command's (it may be replaced)."""
    return data.get(MARKER) == PROG


def main(argv: list[str]) -> int:
    if not FLAGS.dataset or not FLAGS.agent:
        raise cli.UsageError("--dataset DIR (written by python -m taskkit.demos) and --agent NAME are required")
    if FLAGS.agent == "oracle":
        raise cli.UsageError("--agent oracle is a run mode, not an agent that acts on observations; "
                             "use gui_reference, random, llm, replay:PATH or package.module:Class")
    if FLAGS.output:  # before the evaluation, which may take long: a file that is not ours is refused
        outdir.check_own_file(FLAGS.output, "--output", _is_own_output)
    for notice in cli.load_tasks(FLAGS):
        print(notice, file=sys.stderr)
    agent = agents.load(FLAGS.agent, model=FLAGS.llm_model, base_url=FLAGS.llm_base_url,
                        api_key_env=FLAGS.llm_api_key_env, mode=FLAGS.llm_mode)
    try:
        outcomes = static_eval.evaluate(FLAGS.dataset, agent, FLAGS.instructions)
    except demos.DatasetError as error:
        raise cli.UsageError(str(error)) from None
    data = {MARKER: PROG, "dataset": str(FLAGS.dataset), "agent": FLAGS.agent, "instructions": FLAGS.instructions,
            **static_eval.summary(outcomes)}
    print(static_eval.tables(data))
    if FLAGS.output:
        outdir.write_own_file(FLAGS.output, "--output", json.dumps(data, indent=1) + "\n", _is_own_output)
        print(f"\nfigures: {FLAGS.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run_main(PROG, FLAGS, main, sys.argv, __doc__))
