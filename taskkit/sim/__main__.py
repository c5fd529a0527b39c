"""`python -m taskkit.sim serve --port 5555 --state DIR [--host 127.0.0.1]`.

Serves the simulated device stored in DIR (built there first if DIR is new) on the adb device
protocol, so that `adb connect HOST:PORT` makes it an ordinary device. Runs until SIGINT or
SIGTERM, then exits 0. Several simulators at once are several processes on several ports.
Bad flags: one line on stderr, exit 2. A port that cannot be bound: one line, exit 1.
"""
from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import NoReturn, Sequence

PROG = "python -m taskkit.sim"


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message} (see {PROG} serve --help)\n")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: expected an integer 0..65535") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {value}: expected 0..65535 (0 picks a free port)")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="The taskkit simulated Android device.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    serve = commands.add_parser("serve", help="serve a simulated device on the adb device protocol")
    serve.add_argument("--state", required=True, type=Path, help="state directory (built if new)")
    serve.add_argument("--port", type=_port, default=5555, help="TCP port (0: a free one)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    return parser


def install_apps(state: Path) -> None:
    """Build (or complete) the device in `state` with every registered app's first-run databases.

    This entry point is a composition root: it may import the app models, which the simulator
    itself never does.
    """
    from taskkit import apps
    from taskkit.sim.device import SimDevice

    SimDevice(state, app_databases=apps.first_run_databases()).close()


def serve(state: Path, host: str, port: int) -> int:
    """Serve until SIGINT/SIGTERM; the exit code."""
    from taskkit.sim.adbd import AdbdServer

    if state.exists() and not state.is_dir():
        print(f"{PROG}: error: --state {state}: not a directory", file=sys.stderr)
        return 2
    try:
        install_apps(state)
        server = AdbdServer(state, host=host, port=port)
    except OSError as exc:
        print(f"{PROG}: error: --state {state}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        server.listen()
    except OSError as exc:
        print(f"{PROG}: error: cannot serve on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1

    def shutdown(_signum: int, _frame: object) -> None:
        server.stop()

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    print(f"serving simulated device {state} on {host}:{server.port}", flush=True)
    server.serve_forever()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return serve(args.state, args.host, args.port)
    return 2


if __name__ == "__main__":
    sys.exit(main())
