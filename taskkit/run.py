"""Run a task suite: `python -m taskkit.run --seed 30`.

Builds the suite from the seed, opens the device (a fresh simulator by default), runs every
episode with the chosen agent, prints a summary per task and per app, and, with --output_dir,
appends one JSON line per episode to results.jsonl as soon as it finishes. SIGINT or SIGTERM
end the current episode cleanly (teardown runs, its row is written) before the run stops.

Exit codes: 0 the run finished, 2 bad input (one line; also a --strict_replay trajectory that
does not fit), 3 the device or the agent's endpoint failed, 130 interrupted. A run stopped by 3
(or by a replay that does not fit) keeps its rows: the same command resumes it.
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib.metadata
import itertools
import json
import signal
import sys
from pathlib import Path
from typing import Any

from absl import flags

from taskkit import agents, cli, config as device_config, metadata, pool, ray_pool, report, report_html, resume, runner, suite
from taskkit.task import step_budget
from taskkit.config import apply as config_apply
from taskkit.device import lock
from taskkit.env import Env

PROG = "taskkit.run"
FLAGS = flags.FlagValues()  # our own: importing this module never clashes with other flags
flags.DEFINE_integer("seed", 30, "Run seed; each instance's seed derives from it as in AndroidWorld.", flag_values=FLAGS)
flags.DEFINE_integer("n_task_combinations", 1, "Instances (parameter draws) per task.", flag_values=FLAGS)
flags.DEFINE_string("agent", "oracle", "oracle (the runner runs each task's reference solution), noop, random, "
                    "replay:PATH, human, llm, or package.module:Class.", flag_values=FLAGS)
flags.DEFINE_bool("strict_replay", False, "--agent replay:PATH: stop the run (exit 2) on a missing trajectory or a "
                  "screen that differs from the recorded one, instead of a warning per episode.", flag_values=FLAGS)
flags.DEFINE_string("output_dir", None, "Directory that receives results.jsonl and trajectories/.", flag_values=FLAGS)
flags.DEFINE_bool("side_effects", True, "Record in each result the changes the episode made outside what its task "
                  "checks (rows of other tables, files, settings).", flag_values=FLAGS)
flags.DEFINE_enum("success_check", "final", ["final", "every_step"], "When the task's check runs: once the agent "
                  "stops (final, AndroidWorld's way) or also after every action, ending the episode as a success at "
                  "the first step whose check passes (every_step, B-MoCA's way; rows record first_success_step).",
                  flag_values=FLAGS)
flags.DEFINE_enum("malformed_action", "error", list(runner.MALFORMED_ACTIONS), "What an action the agent could not "
                  "form (a reply that parses to no action) does: it costs a step and changes nothing; error "
                  "(AndroidWorld's) tells the agent why in its next observation, noop_step (B-MoCA's) tells it nothing.",
                  flag_values=FLAGS)
flags.DEFINE_enum("instructions", "high", list(runner.INSTRUCTION_LEVELS), "What the agent is told: the goal "
                  "(high) or also each step's low-level instruction (low: AndroidControl/AndroidLens' level, written "
                  "by playing the task's GUI reference on the same instance first; rows keep them as instructions).",
                  flag_values=FLAGS)
flags.DEFINE_bool("strict", False, "Score an episode with side effects 0 (AppWorld's collateral-damage rule).",
                  flag_values=FLAGS)
flags.DEFINE_bool("save_screenshots", False, "With --output_dir: one PNG per agent step beside its trajectory.",
                  flag_values=FLAGS)
flags.DEFINE_string("llm_model", None, "--agent llm: the model name.", flag_values=FLAGS)
flags.DEFINE_enum("llm_mode", "t3a", ["t3a", "m3a"], "--agent llm: what the model sees, as AndroidWorld's agents: t3a "
                  "(the numbered element list) or m3a (also the screenshot and its set-of-marks copy).",
                  flag_values=FLAGS)
flags.DEFINE_string("llm_base_url", None, "--agent llm: an OpenAI-compatible endpoint (default: OpenAI's).",
                    flag_values=FLAGS)
flags.DEFINE_string("llm_api_key_env", "OPENAI_API_KEY", "--agent llm: the environment variable holding the key.",
                    flag_values=FLAGS)
flags.DEFINE_bool("list_tasks", False, "Print the registered tasks (name, apps, difficulty, optimal steps, tags, "
                  "source, where each runs: any, or why it needs a real device, and gui: whether it gives a GUI "
                  "reference) and exit.", flag_values=FLAGS)
flags.DEFINE_integer("parallel", 1, "Worker processes, each with its own fresh simulated device (with --device sim). "
                     "--device adb:S1,adb:S2 runs one worker per listed device.", flag_values=FLAGS)
flags.DEFINE_enum("executor", "local", ["local", "ray"], "Where the workers run: local processes, or one Ray actor "
                  "per device (needs the ray extra: pip install 'taskkit[ray]').", flag_values=FLAGS)
flags.DEFINE_string("ray_address", None, "--executor ray: the cluster to join (default: a local Ray instance started "
                    "for the run).", flag_values=FLAGS)
flags.DEFINE_string("show_instance", None, "Print the params and goal of this task's instance(s) for --seed "
                    "and exit.", flag_values=FLAGS)
flags.DEFINE_string("device_config", None, "Run the suite under each of these device configs in turn (B-MoCA's "
                    "axes; docs/device-configs.md): default, random, train, test, a name such as bmoca-105, or "
                    "FILE.json[:NAME|:SPLIT]. The device's own config comes back at the end.", flag_values=FLAGS)
flags.DEFINE_bool("fixed_task_seed", False, "Every instance of a task gets instance 0's seed, hence the same params "
                  "(AndroidWorld's flag of the same name).", flag_values=FLAGS)
flags.DEFINE_bool("config_axis", False, "With --device_config: make the config part of each instance's seed, so "
                  "every config draws its own params (off: the same instances under every config, as AndroidWorld).",
                  flag_values=FLAGS)
cli.define_task_flags(FLAGS)
cli.define_device_flags(FLAGS)


def _list_tasks() -> None:
    """One tab-separated row per task under a header: name, apps, difficulty, optimal steps (the
    golden steps), tags, source, where it runs ("any", or why it needs a real device), `gui`
    ("yes": it gives a GUI reference, `--agent gui_reference` plays it; "-": it gives none), then
    the benchmark it comes from, its level and category (taskkit.metadata's facets; "-" when it
    has none) and its step budget."""
    print("name\tapps\tdifficulty\toptimal_steps\ttags\tsource\truns_on\tgui\tbenchmark\tlevel\tcategory\tmax_steps")
    for cls in cli.chosen_tasks(FLAGS):
        runs_on = f"real device only: {cls.real_device_only}" if cls.real_device_only else "any"
        print("\t".join((cls.name, ",".join(cls.app_names), cls.difficulty or "-", str(cls.optimal_steps or "-"),
                         ",".join(metadata.plain_tags(cls.tags)) or "-", cls.source, runs_on,
                         "yes" if cls.has_gui_reference() else "-", metadata.benchmark(cls.name, cls.tags),
                         metadata.facet(cls.tags, "level") or "-", metadata.facet(cls.tags, "category") or "-",
                         str(step_budget(cls.complexity)))))


def _show_instance(name: str) -> None:
    for instance in suite.build_suite(FLAGS.seed, [name], FLAGS.n_task_combinations, fixed_task_seed=FLAGS.fixed_task_seed):
        if instance.error is not None:
            raise cli.UsageError(f"{instance.instance_id}: {instance.error}")
        shown: dict[str, Any] = {"instance_id": instance.instance_id, "seed": instance.seed,
                                 "params": instance.params, "goal": instance.create().goal}
        print(json.dumps(shown, indent=2, ensure_ascii=False))


def _stop_on_signals() -> None:
    """SIGINT or SIGTERM asks the run to stop at the next step boundary (the current episode is
    torn down and recorded first); a second one stops at once."""
    def stop(signum: int, frame: Any) -> None:
        if runner.STOP.is_set():
            raise KeyboardInterrupt(f"signal {signum}")
        runner.STOP.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def _open_results(directory: str | None, instances: list[Any]) -> tuple["report.ResultsWriter | None", list[Any]]:
    """The results writer and the rows a resumed run already has (see taskkit.resume)."""
    if directory is None:
        return None, []
    options = {"fixed_task_seed": FLAGS.fixed_task_seed, "config_axis": FLAGS.config_axis,
               **dataclasses.asdict(_episode_options())}
    manifest = resume.Manifest(FLAGS.seed, tuple(i.instance_id for i in instances), FLAGS.agent,
                               cli.device_spec(FLAGS), taskkit_version(), options)
    try:
        done = resume.prepare(directory, manifest)
        return report.ResultsWriter(directory), [runner.EpisodeResult(**row) for row in done]
    except resume.ResumeMismatch as error:
        raise cli.UsageError(str(error)) from None
    except OSError as error:
        raise cli.UsageError(f"--output_dir {directory}: {error.strerror or error}; give a writable directory") from None
    except TypeError as error:  # a row written by another version of taskkit
        raise cli.UsageError(f"--output_dir {directory}: {resume.RESULTS} has rows this taskkit cannot read "
                             f"({error}); use a new --output_dir") from None


def _agent_options() -> dict[str, Any]:
    return {"model": FLAGS.llm_model, "base_url": FLAGS.llm_base_url, "api_key_env": FLAGS.llm_api_key_env,
            "mode": FLAGS.llm_mode, "strict_replay": FLAGS.strict_replay}


def _check_replay(agent: agents.Agent, instances: list[Any]) -> None:
    """--strict_replay: every episode's trajectory must exist before anything runs."""
    if not FLAGS.strict_replay:
        return
    if not isinstance(agent, agents.ReplayAgent):
        raise cli.UsageError("--strict_replay needs --agent replay:PATH")
    missing = [str(path) for path in dict.fromkeys(agent.source(i.instance_id) for i in instances) if not path.exists()]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise cli.UsageError(f"--strict_replay: no trajectory {missing[0]}{more}; replay the run's own --output_dir "
                             "with the same --seed and --tasks, or drop --strict_replay")


def _worker_devices() -> list[str]:
    """One device spec per worker: `--parallel N` fresh simulators, or the listed adb devices."""
    specs = [spec.strip() for spec in cli.device_spec(FLAGS).split(",") if spec.strip()]
    if FLAGS.parallel < 1:
        raise cli.UsageError(f"--parallel must be at least 1, got {FLAGS.parallel}")
    if len(specs) > 1:
        if any(not spec.startswith("adb") for spec in specs):
            raise cli.UsageError("--device with several devices takes adb:SERIAL,adb:SERIAL,...; "
                                 "for several simulated devices use --device sim --parallel N")
        return specs
    if FLAGS.parallel > 1:
        if specs != ["sim"]:
            raise cli.UsageError(f"--parallel {FLAGS.parallel} needs --device sim (fresh devices) or a list of adb "
                                 "devices; one device cannot run several episodes at once")
        return ["sim"] * FLAGS.parallel
    return specs


def _write_report(directory: str) -> None:
    """The run's HTML report beside its results; a failure to write it is a warning, not a failed run."""
    try:
        path, warnings = report_html.write(directory)
    except report_html.ReportError as error:
        print(f"{PROG}: warning: no report.html: {error}", file=sys.stderr)
        return
    for warning in warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    print(f"report: {path}")


def _device_configs() -> list[dict[str, Any]]:
    """The configs --device_config names, as JSON ([] when it is not given)."""
    if not FLAGS.device_config:
        if FLAGS.config_axis:
            raise cli.UsageError("--config_axis needs --device_config")
        return []
    try:
        return [c.as_json() for c in device_config.resolve(FLAGS.device_config, seed=FLAGS.seed)]
    except device_config.ConfigError as error:
        raise cli.UsageError(f"--device_config: {error}") from None


def _run_serial(instances: list[Any], agent: Any, on_result: Any) -> None:
    """Every instance on the one device, config by config: each config is applied before its
    episodes and the device's own comes back afterwards (also when the run is stopped)."""
    with cli.opened_device(FLAGS, [instance.task.name for instance in instances]) as device:
        for config_json, group in itertools.groupby(instances, key=lambda i: i.device_config):
            group = list(group)
            previous = config_apply.apply(device, device_config.DeviceConfig.from_json(config_json)) if config_json else None
            try:
                runner.run_suite(Env(device), group, agent, FLAGS.seed, on_result, output_dir=FLAGS.output_dir,
                                 save_screenshots=FLAGS.save_screenshots, options=_episode_options())
            finally:
                if previous is not None:
                    config_apply.restore(device, previous)


def _episode_options() -> runner.EpisodeOptions:
    """How each episode is judged, from the flags."""
    if FLAGS.strict and not FLAGS.side_effects:
        raise cli.UsageError("--strict scores side effects: drop --noside_effects")
    side_effects = "strict" if FLAGS.strict else "report" if FLAGS.side_effects else "off"
    return runner.EpisodeOptions(side_effects, FLAGS.success_check, FLAGS.malformed_action, FLAGS.instructions)


def taskkit_version() -> str:
    try:
        return importlib.metadata.version("taskkit")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def main(argv: list[str]) -> int:
    for notice in cli.load_tasks(FLAGS):
        print(notice, file=sys.stderr)
    if FLAGS.list_tasks:
        _list_tasks()
        return 0
    if FLAGS.n_task_combinations < 1:
        raise cli.UsageError(f"--n_task_combinations must be at least 1, got {FLAGS.n_task_combinations}")
    if FLAGS.show_instance:
        _show_instance(FLAGS.show_instance)
        return 0
    configs = _device_configs()
    runnable, left_out = cli.runnable_here(FLAGS, cli.chosen_tasks(FLAGS))
    instances = suite.build_suite(FLAGS.seed, [cls.name for cls in runnable], FLAGS.n_task_combinations, configs,
                                  FLAGS.config_axis, FLAGS.fixed_task_seed)
    agent = agents.load(FLAGS.agent, **_agent_options())
    _check_replay(agent, instances)
    if FLAGS.save_screenshots and not FLAGS.output_dir:
        raise cli.UsageError("--save_screenshots needs --output_dir (the screenshots go beside the trajectories)")
    _episode_options()  # bad combinations are a usage error before any device opens
    if FLAGS.executor == "ray":
        try:
            ray_pool.check_installed()
        except ray_pool.RayMissing as error:
            raise cli.UsageError(str(error)) from None
    elif FLAGS.ray_address:
        raise cli.UsageError("--ray_address needs --executor ray")
    workers = _worker_devices()  # bad input is refused before anything is written
    if left_out:
        print(f"{PROG}: {left_out}", file=sys.stderr)
    writer, results = _open_results(FLAGS.output_dir, instances)
    if results:
        finished = {row.instance_id for row in results}
        print(f"{PROG}: resuming {FLAGS.output_dir}: {len(finished)} of {len(instances)} episode(s) already recorded",
              file=sys.stderr)
        instances = [instance for instance in instances if instance.instance_id not in finished]
    progress = report.Progress(len(instances))

    def on_result(result: "report.EpisodeResult") -> None:
        if writer:
            writer.write(result)
        progress.update(result)
        results.append(result)

    runner.STOP.clear()
    _stop_on_signals()
    interrupted, stopped = False, None
    try:
        if len(workers) > 1 or FLAGS.executor == "ray":
            setup = pool.WorkerSetup(tuple(FLAGS.task_module), tuple(FLAGS.spec_dir), FLAGS.replace_tasks, FLAGS.agent,
                                     _agent_options(), FLAGS.seed, FLAGS.output_dir, FLAGS.save_screenshots,
                                     FLAGS.config_axis, FLAGS.fixed_task_seed, FLAGS.android_world,
                                     _episode_options())
            adb = cli.adb_server(FLAGS)
            with contextlib.ExitStack() as held:  # each worker's device is this run's alone
                for spec in workers:
                    held.enter_context(lock.hold(lock.key_for(spec, *adb)))
                if FLAGS.executor == "ray":
                    ray_pool.run_ray(instances, setup, workers, adb, on_result, FLAGS.ray_address)
                else:
                    pool.run_parallel(instances, setup, workers, adb, on_result)
        else:
            _run_serial(instances, agent, on_result)
    except KeyboardInterrupt:
        interrupted = True
        print(f"\n{PROG}: interrupted after {progress.done} of {len(instances)} episode(s); "
              "run the same command again to resume", file=sys.stderr)
    except agents.StopRun as error:  # reported by cli.run_main after the summary: exit 2 or 3
        stopped = _stopped(error, progress.done, len(instances))
        if progress.tty:
            print(file=sys.stderr)  # end the progress bar's line
    finally:
        if writer:
            writer.close()
    print(report.summary(results))
    if writer:
        summary_path = Path(FLAGS.output_dir) / "summary.json"
        summary_path.write_text(json.dumps(report.summary_json(results), indent=1) + "\n", encoding="utf-8")
        print(f"\nresults: {writer.path}\nsummary: {summary_path}")
        _write_report(FLAGS.output_dir)
    if stopped is not None:
        raise stopped
    return 130 if interrupted else 0


def _stopped(error: "agents.StopRun", done: int, total: int) -> "agents.StopRun":
    """The agent's reason to stop, with how far the run got and how to go on."""
    where = f"; kept in {FLAGS.output_dir}: run the same command again to resume" if FLAGS.output_dir else ""
    return type(error)(f"{error}; the run stopped after {done} of {total} episode(s){where}")


def run(argv: list[str]) -> int:
    """Parse flags and run; bad input is one line on stderr and exit code 2, never a traceback."""
    return cli.run_main(PROG, FLAGS, main, argv, __doc__)


def entry() -> None:
    sys.exit(run(sys.argv))


if __name__ == "__main__":
    entry()
