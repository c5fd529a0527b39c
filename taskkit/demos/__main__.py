"""Write a dataset of verified demonstrations: `python -m taskkit.demos --suite_family android_world
--n_task_combinations 3 --output_dir D`.

Runs every chosen task's GUI reference through `taskkit.run` (`--agent gui_reference
--save_screenshots --output_dir D/run`: the same episode loop, pool, resume and device configs),
then writes D/steps.jsonl, D/episodes.jsonl and D/dataset.json from what the run recorded
(taskkit/demos/dataset.py describes the records). Only episodes that scored 1.0 are kept; the
count dropped is printed. The flags shared with taskkit.run mean what they mean there.

OUTPUT_DIR must be new, empty or a dataset; it is locked while the command runs and written
without following links (taskkit/demos/dataset.py, taskkit.outdir).

Exit codes: 0 the dataset is written, 2 bad input (one line; also an OUTPUT_DIR that is neither
new, empty nor a dataset, or is in use), 3 the device failed or the dataset could not be written
(a full disk), 130 interrupted (the same command resumes the run and then writes the dataset).
"""
from __future__ import annotations

import contextlib
import copy
import sys
from pathlib import Path
from typing import Any

from absl import flags

from taskkit import cli, outdir, run
from taskkit.demos import dataset

PROG = "taskkit.demos"
#: taskkit.run's flags that mean the same here (their definitions are copied from taskkit.run's).
SHARED = ("seed", "n_task_combinations", "device_config", "config_axis", "fixed_task_seed", "parallel", "executor",
          "ray_address", "side_effects", "tasks", "task_module", "spec_dir", "android_world", "replace_tasks",
          "suite_family", "device", "adb_host", "adb_port")
FLAGS = flags.FlagValues()
for _name in SHARED:
    flags.DEFINE_flag(copy.deepcopy(run.FLAGS[_name]), flag_values=FLAGS)
flags.DEFINE_string("output_dir", None, "The dataset's directory (the run that plays the references goes to "
                    "OUTPUT_DIR/run; the same command resumes it).", flag_values=FLAGS)
flags.DEFINE_bool("hf_dataset", False, "Also save the dataset in Hugging Face's format to OUTPUT_DIR/hf (needs "
                  f"{dataset.EXTRA}).", flag_values=FLAGS)
MAX_LISTED = 5  # dropped episodes named in the output; dataset.json lists them all


def _run_argv(output_dir: Path) -> list[str]:
    """taskkit.run's command line: the shared flags as given, the GUI reference agent, screenshots."""
    given = [line for name in SHARED if FLAGS[name].present for line in FLAGS[name].serialize().split("\n")]
    return [run.PROG, *given, "--agent=gui_reference", "--save_screenshots",
            f"--output_dir={output_dir / dataset.RUN}"]


def main(argv: list[str]) -> int:
    if not FLAGS.output_dir:
        raise cli.UsageError("--output_dir is required: the directory that receives the dataset")
    if FLAGS.hf_dataset:
        try:
            dataset.check_extra()
        except dataset.MissingExtra as error:
            raise cli.UsageError(str(error)) from None
    meta = {"seed": FLAGS.seed, "suite_family": FLAGS.suite_family, "tasks": FLAGS.tasks,
            "n_task_combinations": FLAGS.n_task_combinations, "device_config": FLAGS.device_config,
            "taskkit_version": run.taskkit_version()}
    run.FLAGS.unparse_flags()
    run.FLAGS(_run_argv(Path(FLAGS.output_dir)))
    run.load_tasks()
    chosen = run.plan()  # bad input is refused before the directory is claimed
    with dataset.claim(FLAGS.output_dir) as directory:  # locked until the dataset is written
        return _write(directory, meta, chosen)


def _write(directory: outdir.OutputDir, meta: dict[str, Any], chosen: run.Plan) -> int:
    """Play the references into directory/run, then write the dataset from it."""
    root = directory.path
    with contextlib.redirect_stdout(sys.stderr):  # the run's summary; stdout is the dataset's
        code = run.execute(chosen)
    if code != 0:
        return code
    summary = dataset.build(directory, meta)
    print(f"dataset: {root}: {summary['episodes']} episode(s), {summary['steps']} step(s)")
    print(f"dropped {summary['dropped']} episode(s) that did not score 1.0")
    for dropped in summary["dropped_episodes"][:MAX_LISTED]:
        print(f"  {dropped['episode_id']}: score {dropped['score']}: {dropped['reason']}"[:200])
    if summary["dropped"] > MAX_LISTED:
        print(f"  ... and {summary['dropped'] - MAX_LISTED} more (see {root / dataset.META})")
    if FLAGS.hf_dataset:
        dataset.to_hf_dataset(root).save_to_disk(str(root / dataset.HF))
        print(f"hf dataset: {root / dataset.HF}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run_main(PROG, FLAGS, main, sys.argv, __doc__))
