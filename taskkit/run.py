"""Run a task suite: `python -m taskkit.run --seed 30`.

Builds the suite from the seed, opens the device (a fresh simulator by default), runs every
episode with the chosen agent, prints a summary per task and per app, and, with --output_dir,
appends one JSON line per episode to results.jsonl as soon as it finishes. SIGINT or SIGTERM
end the current episode cleanly (teardown runs, its row is written) before the run stops.

Exit codes: 0 the run finished, 2 bad input (one line; also a --strict_replay trajectory that
does not fit, an --output_dir that is neither new, empty nor a run's, or is in use by another
run), 3 the device, the agent's endpoint or a write to --output_dir (a full disk) failed, 130
interrupted. A run stopped by 3 (or by a replay that does not fit) keeps its rows: the same
command resumes it. The output directory's rules are taskkit.outdir's.
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import signal
import sys
from typing import Any

from absl import flags

import taskkit
from taskkit import agents, cli, config as device_config, metadata, outdir, pool, report, resume, runner, suite
from taskkit.task import step_budget
from taskkit.config import apply as config_apply
from taskkit.device import lock
from taskkit.env import Env

PROG = "taskkit.run"
SUMMARY = "summary.json"
FLAGS = flags.FlagValues()  # our own: importing this module never clashes with other flags
flags.DEFINE_integer("seed", 30, "Run seed; each instance's seed derives from it as in AndroidWorld.", flag_values=FLAGS)
flags.DEFINE_integer("n_task_combinations", 1, "Instances (parameter draws) per task.", flag_values=FLAGS)
flags.DEFINE_string("agent", "oracle", "oracle (the runner runs each task's reference solution), noop, random, "
                    "random_policy (the seeded mix of benchmarks/random_policy.py), gui_reference, replay:PATH, human, "
                    "llm, or package.module:Class.", flag_values=FLAGS)
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
                  "reference) and exit; with --json, as JSON.", flag_values=FLAGS)
flags.DEFINE_bool("json", False, "With --list_tasks: print the tasks as one JSON array of objects with the same "
                  "fields (apps and tags lists, optimal_steps an int or null, gui a bool, level/category null when "
                  "the task has none), for programs to read.", flag_values=FLAGS)
flags.DEFINE_integer("parallel", 1, "Worker processes, each with its own fresh simulated device (with --device sim). "
                     "--device adb:S1,adb:S2 runs one worker per listed device.", flag_values=FLAGS)
flags.DEFINE_integer("worker_memory_mb", pool.WORKER_MEMORY_MB, "The memory one --parallel worker is counted to take: "
                     "no more workers start than the available memory (MemAvailable) holds at this much each.",
                     flag_values=FLAGS)
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


LISTED = ("name", "apps", "difficulty", "optimal_steps", "tags", "source", "runs_on", "gui", "benchmark", "level",
          "category", "max_steps")
"""The fields of `--list_tasks`, in column order."""


def _task_facts(cls: Any) -> dict[str, Any]:
    """What `--list_tasks` says of a task, with real types (`--json`): apps and tags lists,
    optimal_steps an int or None, gui a bool, level/category None when the task has none."""
    return {"name": cls.name, "apps": list(cls.app_names), "difficulty": cls.difficulty or None,
            "optimal_steps": cls.optimal_steps, "tags": metadata.plain_tags(cls.tags), "source": cls.source,
            "runs_on": f"real device only: {cls.real_device_only}" if cls.real_device_only else "any",
            "gui": cls.has_gui_reference(), "benchmark": metadata.benchmark(cls.name, cls.tags),
            "level": metadata.facet(cls.tags, "level"), "category": metadata.facet(cls.tags, "category"),
            "max_steps": step_budget(cls.complexity)}


def _cell(value: Any) -> str:
    """A fact as a table cell: a list comma-joined, True "yes", nothing (None, empty, False) "-"."""
    if value is True:
        return "yes"
    if value in (None, False, 0, "", []):
        return "-"
    return ",".join(value) if isinstance(value, list) else str(value)


def _list_tasks() -> None:
    """The registered tasks (those --tasks and --suite_family choose): with --json a JSON array of
    `_task_facts`, else one tab-separated row per task under a header — name, apps, difficulty,
    optimal steps (the golden steps), tags, source, where it runs ("any", or why it needs a real
    device), `gui` ("yes": it gives a GUI reference, `--agent gui_reference` plays it; "-": it
    gives none), then the benchmark it comes from, its level and category (taskkit.metadata's
    facets; "-" when it has none) and its step budget."""
    facts = [_task_facts(cls) for cls in cli.chosen_tasks(FLAGS)]
    if FLAGS.json:
        print("[\n" + ",\n".join(json.dumps(task, ensure_ascii=False) for task in facts) + "\n]")  # a task a line
        return
    print("\t".join(LISTED))
    for task in facts:
        print("\t".join(_cell(task[field]) for field in LISTED))


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


def _open_results(directory: str | None, instances: suite.Suite) -> tuple["report.ResultsWriter | None", list[Any]]:
    """The results writer and the rows a resumed run already has (see taskkit.resume)."""
    if directory is None:
        return None, []
    options = {"fixed_task_seed": FLAGS.fixed_task_seed, "config_axis": FLAGS.config_axis,
               **dataclasses.asdict(_episode_options())}
    manifest = resume.Manifest(FLAGS.seed, instances.shape, FLAGS.agent,
                               cli.device_spec(FLAGS), taskkit_version(), options)
    claimed = resume.claim(directory)  # locked until the writer is closed
    with contextlib.ExitStack() as unless_opened:
        unless_opened.callback(claimed.close)
        try:
            done, notices = resume.prepare(claimed, manifest)
            rows = [runner.EpisodeResult(**row) for row in done]
        except resume.ResumeMismatch as error:
            raise cli.UsageError(str(error)) from None
        except TypeError as error:  # a row written by another version of taskkit
            raise cli.UsageError(f"--output_dir {directory}: {resume.RESULTS} has rows this taskkit cannot read "
                                 f"({error}); use a new --output_dir") from None
        writer = report.ResultsWriter(claimed)
        unless_opened.pop_all()
    for notice in notices:
        print(f"{PROG}: {notice}", file=sys.stderr)
    return writer, rows


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
    """One device spec per worker: `--parallel N` fresh simulators, or the listed adb devices; at
    most pool.MAX_WORKERS of them."""
    specs = [spec.strip() for spec in cli.device_spec(FLAGS).split(",") if spec.strip()]
    if FLAGS.parallel < 1:
        raise cli.UsageError(f"--parallel must be at least 1, got {FLAGS.parallel}")
    if FLAGS.worker_memory_mb < 1:
        raise cli.UsageError(f"--worker_memory_mb must be at least 1, got {FLAGS.worker_memory_mb}")
    asked = len(specs) if len(specs) > 1 else FLAGS.parallel
    if asked > pool.MAX_WORKERS:
        what = f"--device lists {asked} devices" if len(specs) > 1 else f"--parallel {asked}"
        raise cli.UsageError(f"{what}: a run has at most {pool.MAX_WORKERS} workers (pool.MAX_WORKERS), each a process "
                             f"with its own device; ask for fewer")
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


def _fewer_workers(workers: list[str], episodes: int) -> list[str]:
    """The first of `workers` that the run's episodes and this machine's memory call for (see
    pool.worker_count; a Ray cluster's memory is its own), saying so on stderr when fewer (one,
    silently, when nothing is left to run)."""
    if len(workers) < 2 or episodes == 0:
        return workers[:1]
    meminfo = None if FLAGS.executor == "ray" and FLAGS.ray_address else pool.MEMINFO
    count, reason = pool.worker_count(len(workers), episodes, FLAGS.worker_memory_mb, meminfo)
    if reason is not None:
        print(f"{PROG}: starting {count} worker(s), not {len(workers)}: {reason}", file=sys.stderr)
    return workers[:count]


def _write_report(directory: outdir.OutputDir) -> None:
    """The run's HTML report beside its results; bad rows are a warning, not a failed run (a
    failed write is outdir.WriteFailed)."""
    from taskkit import report_html  # its plots and templates load for a run with --output_dir only

    try:
        path, warnings = report_html.write_into(directory)
    except report_html.ReportError as error:
        print(f"{PROG}: warning: no report.html: {error}", file=sys.stderr)
        return
    for warning in warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    print(f"report: {path}")


def _finish(writer: "report.ResultsWriter | None", results: list[Any],
            stopped: "agents.StopRun | None") -> "agents.StopRun | None":
    """Print the summary; with --output_dir write summary.json and report.html, then release the
    directory. Returns what stops the run: `stopped`, or a write that failed here (exit 3) — none
    is tried after a write already failed (the directory cannot be written)."""
    try:
        print(report.summary(results))
        if writer is None or isinstance(stopped, outdir.WriteFailed):
            return stopped
        try:
            summary_path = writer.directory.replace(SUMMARY, json.dumps(report.summary_json(results), indent=1) + "\n")
            print(f"\nresults: {writer.path}\nsummary: {summary_path}")
            _write_report(writer.directory)
        except outdir.WriteFailed as error:
            if stopped is None:
                return error
            print(f"{PROG}: warning: {error}", file=sys.stderr)
        return stopped
    finally:
        if writer:
            writer.close()


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


def _run_serial(instances: "suite.Suite | suite.Remaining", agent: Any, on_result: Any) -> None:
    """Every instance on the one device, config by config: each config is applied before its
    episodes and the device's own comes back afterwards (also when the run is stopped)."""
    with cli.opened_device(FLAGS, instances.task_names) as device:
        for config_json, group in itertools.groupby(instances, key=lambda i: i.device_config):
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
    return taskkit.__version__


def load_tasks() -> None:
    """Load the tasks the flags name (built-in, --task_module, --spec_dir), printing any notice."""
    for notice in cli.load_tasks(FLAGS):
        print(notice, file=sys.stderr)


@dataclasses.dataclass(frozen=True)
class Plan:
    """A run's episodes, agent and devices, checked against the flags."""

    instances: suite.Suite
    agent: Any
    workers: list[str]
    left_out: str | None


def plan() -> Plan:
    """The run the flags ask for; bad input is a UsageError here, before anything is written."""
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
        from taskkit import ray_pool

        try:
            ray_pool.check_installed()
        except ray_pool.RayMissing as error:
            raise cli.UsageError(str(error)) from None
    elif FLAGS.ray_address:
        raise cli.UsageError("--ray_address needs --executor ray")
    return Plan(instances, agent, _worker_devices(), left_out)


def main(argv: list[str]) -> int:
    load_tasks()
    if FLAGS.list_tasks:
        _list_tasks()
        return 0
    if FLAGS.json:
        raise cli.UsageError("--json goes with --list_tasks (a run's rows are JSON already: --output_dir)")
    suite.check_combinations(FLAGS.n_task_combinations)
    if FLAGS.show_instance:
        _show_instance(FLAGS.show_instance)
        return 0
    return execute(plan())


def execute(chosen: Plan) -> int:
    """Run the planned episodes, writing each row as it finishes: 0, or 130 when interrupted."""
    instances, agent, workers = chosen.instances, chosen.agent, chosen.workers
    if chosen.left_out:
        print(f"{PROG}: {chosen.left_out}", file=sys.stderr)
    writer, results = _open_results(FLAGS.output_dir, instances)
    if results:
        finished = {row.instance_id for row in results}
        print(f"{PROG}: resuming {FLAGS.output_dir}: {len(finished)} of {len(instances)} episode(s) already recorded",
              file=sys.stderr)
        instances = instances.without(finished)
    workers = _fewer_workers(workers, len(instances))
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
                    from taskkit import ray_pool

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
    except BaseException:  # the run ends here: its rows are on disk, the directory is released
        if writer:
            writer.close()
        raise
    stopped = _finish(writer, results, stopped)
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
