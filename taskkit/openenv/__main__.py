"""Serve taskkit's tasks as an OpenEnv environment: `python -m taskkit.openenv --port 8000
[--tasks A,B | --suite_family F] [--device sim] [--max_sessions 4]`.

Each OpenEnv session (a `TaskkitEnv` client, or any OpenEnv client of the `/ws` protocol) gets a
`taskkit/Task-v0` environment on a fresh simulated device of its own; at most `--max_sessions`
at once, the next client is refused (OpenEnv's CAPACITY_REACHED). `--reward`, `--success_check`
and `--malformed_action` mean what they mean for taskkit.gym. The server listens on the
loopback interface only (`--host` 127.0.0.1, ::1 or localhost): it has no authentication, and a
session runs whatever actions it is sent on its device; reach it from another machine through
an SSH tunnel (`ssh -L 8000:127.0.0.1:8000 HOST`).

Exit codes: 0 stopped (Ctrl-C; SIGTERM ends it as the signal does, after the same graceful
shutdown: open sessions closed, their devices with them), 2 bad input (one line).
"""
from __future__ import annotations

import importlib
import ipaddress
import socket
import sys

from absl import flags

from taskkit import cli
from taskkit.openenv import DEFAULT_SESSIONS, INSTALL, MAX_SESSIONS, skip_web_ui

PROG = "taskkit.openenv"
LOOPBACK_NAMES = ("localhost",)
FLAGS = flags.FlagValues()
cli.define_task_flags(FLAGS)
flags.DEFINE_string("host", "127.0.0.1", "Address to listen on: a loopback address only (no authentication).",
                    flag_values=FLAGS)
flags.DEFINE_integer("port", 8000, "Port to listen on.", lower_bound=1, upper_bound=65535, flag_values=FLAGS)
flags.DEFINE_string("device", "sim", "sim (a fresh simulated device per session), or one device for one session "
                    "(--max_sessions 1): sim:DIR, adb, adb:SERIAL (the adb server at 127.0.0.1:5037).",
                    flag_values=FLAGS)
flags.DEFINE_integer("max_sessions", DEFAULT_SESSIONS, "Sessions (devices) served at once; the next client is "
                     "refused.", lower_bound=1, upper_bound=MAX_SESSIONS, flag_values=FLAGS)
flags.DEFINE_enum("reward", "score", ["score", "progress"], "taskkit.gym's reward.", flag_values=FLAGS)
flags.DEFINE_enum("success_check", "final", ["final", "every_step"], "taskkit.gym's success_check.",
                  flag_values=FLAGS)
flags.DEFINE_enum("malformed_action", "error", ["error", "noop_step"], "taskkit.gym's malformed_action.",
                  flag_values=FLAGS)


def _check_host(host: str) -> None:
    """UsageError unless `host` is a loopback address."""
    try:
        loopback = host in LOOPBACK_NAMES or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise cli.UsageError(f"--host {host}: the server has no authentication and listens on loopback only "
                             "(127.0.0.1, ::1, localhost); reach it from elsewhere with ssh -L 8000:127.0.0.1:8000")


def _check_port(host: str, port: int) -> None:
    """UsageError if `port` cannot be listened on at `host` now (another server has it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closing port is free
        try:
            probe.bind((host, port))
        except OSError as error:
            raise cli.UsageError(f"--port {port}: cannot listen on {host}: {error.strerror}; choose another port") from None


def _check_device(device: str, sessions: int) -> None:
    """UsageError for a device spec that is not sim/adb, or one device shared by several sessions."""
    kind = device.partition(":")[0]
    if kind not in ("sim", "adb"):
        raise cli.UsageError(f"--device {device}: use sim, sim:DIR, adb or adb:SERIAL")
    if device != "sim" and sessions > 1:
        raise cli.UsageError(f"--device {device} is one device: serve it with --max_sessions 1 "
                             "(--device sim gives each session a fresh simulated device)")


def main(argv: list[str]) -> int:
    _check_host(FLAGS.host)
    _check_port(FLAGS.host, FLAGS.port)
    _check_device(FLAGS.device, FLAGS.max_sessions)
    for notice in cli.load_tasks(FLAGS):
        print(notice, file=sys.stderr)
    classes, notice = cli.runnable_here(FLAGS, cli.chosen_tasks(FLAGS))
    if notice:
        print(notice, file=sys.stderr)
    skip_web_ui()
    try:
        import uvicorn

        server = importlib.import_module("taskkit.openenv.server")  # (not the package's attribute: sys.modules decides)
    except ImportError as error:
        raise cli.UsageError(f"{error}; install the extra: {INSTALL}") from None

    serving = server.Serving(tuple(classes), device=FLAGS.device, reward=FLAGS.reward,
                             success_check=FLAGS.success_check, malformed_action=FLAGS.malformed_action,
                             max_sessions=FLAGS.max_sessions)
    address = f"[{FLAGS.host}]" if ":" in FLAGS.host else FLAGS.host
    print(f"{PROG}: {len(classes)} task(s) on ws://{address}:{FLAGS.port}/ws, at most {FLAGS.max_sessions} "
          "session(s) at once", file=sys.stderr, flush=True)
    uvicorn.run(server.app(serving), host=FLAGS.host, port=FLAGS.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run_main(PROG, FLAGS, main, sys.argv, __doc__))
