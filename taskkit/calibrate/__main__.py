"""Measure the simulator against a device: `python -m taskkit.calibrate --device adb:SERIAL
--suite_family android_world --seeds 1 --output_dir D`.

Runs the same episodes twice with taskkit.run, the same seeds and agent (default: the GUI
reference): once on the device (D/device) and once on a fresh simulated device (D/sim). Then it
compares them step by step and episode by episode (taskkit/calibrate/compare.py says what is
compared) and writes D/calibration.json and D/calibration.html. `--record` keeps each step's
screenshot on both sides, shown side by side at the first step where they diverged; the two run
folders keep every step's element list. The same command resumes an interrupted calibration.

Exit codes: 0 the report is written (whether or not the two agree: read its verdict), 2 bad input
(one line), 3 a device failed or the report could not be written, 130 interrupted.
"""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from absl import flags

from taskkit import cli, connect, outdir, run
from taskkit.device.errors import DeviceError
from taskkit.calibrate import compare, report

PROG = "taskkit.calibrate"
MARKER = "calibration.json"
SIDES = ("device", "sim")
MANY_CONFIGS = ("train", "test", "random")  # --device_config values that name several configs
KIND = "taskkit.calibrate"
#: taskkit.run's flags that mean the same here (their definitions are copied from taskkit.run's).
SHARED = ("seed", "agent", "device_config", "tasks", "task_module", "spec_dir", "android_world", "replace_tasks",
          "suite_family", "device", "adb_host", "adb_port")
FLAGS = flags.FlagValues()
for _name in SHARED:
    flags.DEFINE_flag(copy.deepcopy(run.FLAGS[_name]), flag_values=FLAGS)
FLAGS.set_default("agent", "gui_reference")
FLAGS.set_default("device", None)
flags.DEFINE_integer("seeds", 1, "Instances (parameter draws) of each task, on both sides.", flag_values=FLAGS)
flags.DEFINE_string("sim_device_config", None, "A device config (taskkit.config) put on the simulated side only: "
                    "the one the device already has (its locale, density, font scale...).", flag_values=FLAGS)
flags.DEFINE_float("bounds_tolerance_dp", 4.0, "Bounds that differ by more than this many dp are a difference.",
                   flag_values=FLAGS)
flags.DEFINE_integer("density", None, "The screens' density in dpi for dp (default: the device's `wm density`).",
                     flag_values=FLAGS)
flags.DEFINE_bool("record", False, "Keep every step's screenshot on both sides (D/device, D/sim), shown side by "
                  "side in the report; a maintainer turns them into test fixtures.", flag_values=FLAGS)
flags.DEFINE_string("output_dir", None, "The calibration's directory: device/ and sim/ (the two runs), "
                    "calibration.json and calibration.html.", flag_values=FLAGS)
_DENSITY = re.compile(r"(Physical|Override) density: (\d+)")


def _run_argv(side: str, root: Path, tasks: list[str] | None = None) -> list[str]:
    """taskkit.run's command line for one side: the shared flags as given (`tasks`, when given,
    in place of the task choice), the side's device."""
    chosen = ("tasks", "suite_family") if tasks is not None else ()
    given = [line for name in SHARED if FLAGS[name].present and name not in ("device", "device_config", *chosen)
             for line in FLAGS[name].serialize().split("\n")]
    argv = [*given, f"--agent={FLAGS.agent}", f"--n_task_combinations={FLAGS.seeds}", "--output_dir",
            str(root / side)]
    argv += [f"--tasks={','.join(tasks)}"] if tasks is not None else []
    config = FLAGS.device_config if side == "device" else FLAGS.sim_device_config or FLAGS.device_config
    argv += [f"--device_config={config}"] if config else []
    argv += ["--save_screenshots"] if FLAGS.record else []
    return argv + [f"--device={FLAGS.device if side == 'device' else 'sim'}"]


def _check(argv: list[str]) -> run.Plan:
    """Refuse bad input as taskkit.run would, before anything is written; the run's plan."""
    run.FLAGS.unparse_flags()
    run.FLAGS([run.PROG, *argv])
    run.load_tasks()
    return run.plan()


def _comparable(root: Path) -> list[str]:
    """The chosen tasks both sides can run (not those that need a real device), checked."""
    _check(_run_argv("device", root))
    simulated = _check(_run_argv("sim", root))
    if simulated.left_out:
        print(f"{PROG}: not compared: {simulated.left_out}", file=sys.stderr)
    return [cls.name for cls in simulated.instances.classes]


def _density() -> int:
    """The device's density (its override when it has one), for bounds in dp."""
    if FLAGS.density:
        return FLAGS.density
    host, port = cli.adb_server(FLAGS)
    device = connect.open_device(FLAGS.device, adb_host=host, adb_port=port)
    try:
        found = dict(match.groups() for match in _DENSITY.finditer(device.check("wm density")))
    finally:
        device.close()
    value = found.get("Override") or found.get("Physical")
    if value is None:
        raise cli.UsageError(f"--device {FLAGS.device}: `wm density` printed no density; pass --density")
    return int(value)


def _run(side: str, argv: list[str], directory: outdir.OutputDir) -> None:
    """One side's taskkit.run, its output kept in D/<side>.log; its bad input or failure is ours."""
    print(f"{PROG}: running on the {'device' if side == 'device' else 'simulated device'} "
          f"(output: {directory.path / (side + '.log')})", file=sys.stderr)
    done = subprocess.run([sys.executable, "-m", "taskkit.run", *argv], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    directory.replace(f"{side}.log", done.stdout)
    if done.returncode == 130:
        raise KeyboardInterrupt
    if done.returncode:
        last = (done.stdout.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        error = cli.UsageError if done.returncode == 2 else DeviceError
        raise error(f"the {side} run failed: {last}")


def main(argv: list[str]) -> int:
    if not FLAGS.device:
        raise cli.UsageError("--device is required: the device to measure the simulator against (adb:SERIAL)")
    if not FLAGS.output_dir:
        raise cli.UsageError("--output_dir is required: the directory that receives the calibration")
    if FLAGS.seeds < 1:
        raise cli.UsageError(f"--seeds must be at least 1, got {FLAGS.seeds}")
    if FLAGS.sim_device_config and ("," in FLAGS.sim_device_config or FLAGS.sim_device_config in MANY_CONFIGS):
        raise cli.UsageError(f"--sim_device_config takes one config (the device's), got {FLAGS.sim_device_config!r}")
    root = Path(FLAGS.output_dir)
    tasks = _comparable(root)
    argvs = {side: _run_argv(side, root, tasks) for side in SIDES}
    density = _density()
    with outdir.claim(root, "--output_dir", MARKER, lambda data: data.get("kind") == KIND, "a calibration",
                      own_files=(*SIDES, *(f"{side}.log" for side in SIDES))) as directory:
        for side in SIDES:
            _run(side, argvs[side], directory)
        calibration = compare.compare_runs(root / "device", root / "sim", FLAGS.bounds_tolerance_dp, density,
                                           without_config=bool(FLAGS.sim_device_config))
        meta: dict[str, Any] = {"kind": KIND, "device": FLAGS.device, "agent": FLAGS.agent, "seed": FLAGS.seed,
                                "seeds": FLAGS.seeds, "density": density,
                                "bounds_tolerance_dp": FLAGS.bounds_tolerance_dp,
                                "sim_device_config": FLAGS.sim_device_config, "device_config": FLAGS.device_config}
        data = report.as_json(calibration, meta)
        directory.replace("calibration.html", report.as_html(data, root, SIDES))
        directory.replace(MARKER, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{PROG}: {'agree' if data['agrees'] else 'differ'}: {data['episodes']} episode(s); score agreement "
          f"{data['score_agreement']:.1%}, state {data['state_agreement']:.1%}, steps {data['step_agreement']:.1%}")
    for episode in data["per_episode"]:
        if episode["first_divergence"] is not None or not episode["state_agrees"]:
            print(f"  {episode['instance_id']}: first diverged at step {episode['first_divergence']}; "
                  f"{', '.join(episode['differences']) or 'steps only'}"[:200])
    print(f"report: {root / 'calibration.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run_main(PROG, FLAGS, main, sys.argv, __doc__))
