"""`python -m taskkit.sim serve --port 5555 --state DIR [--host 127.0.0.1]`.

Serves the simulated device stored in DIR (built there first if DIR is new) on the adb device
protocol, so that `adb connect HOST:PORT` makes it an ordinary device. Runs until SIGINT or
SIGTERM, then exits 0. Several simulators at once are several processes on several ports.

It listens on loopback by default. Any other address needs `--adb_keys FILE`: clients then
authenticate as with a real phone (adb's RSA keys; only the public keys in FILE get in). Every
command has a time limit (`--command_timeout`, exit 124 when it passes) and an output limit
(`--max_output`); the server bounds its connections, streams, worker threads and buffered bytes
(`--max_connections`, `--max_client_connections`, `--max_streams`, `--service_workers`,
`--handshake_timeout`, `--max_stream_buffer`, `--max_buffered`; defaults in taskkit.sim.adbd).
`--storage_quota BYTES` gives the device that much storage (kept in its device.json; default
taskkit.sim.storage.DEFAULT_QUOTA): writes past it fail with ENOSPC, as on a full phone.
Bad flags: one line on stderr, exit 2. A port that cannot be bound: one line, exit 1.
"""
from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

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
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (not loopback: needs --adb_keys)")
    serve.add_argument("--adb_keys", type=Path, default=None,
                       help="adb public keys allowed to connect, one per line (e.g. ~/.android/adbkey.pub); "
                            "required to listen on a non-loopback address")
    serve.add_argument("--command_timeout", type=_positive(float), default=60.0,
                       help="seconds one command may run (default 60)")
    serve.add_argument("--max_output", type=_positive(int), default=64 << 20,
                       help="bytes one command may print (default 64 MiB)")
    serve.add_argument("--storage_quota", type=_positive(int), default=None,
                       help="bytes of storage the device has, kept in its device.json "
                            "(default: the stored value, else $TASKKIT_SIM_STORAGE_QUOTA, else 4 GiB)")
    _add_limit_flags(serve)
    return parser


# serve's flags for AdbdLimits: field -> (type, help); the defaults are AdbdLimits'.
_LIMIT_FLAGS: dict[str, tuple[type, str]] = {
    "max_connections": (int, "connections the server holds at once; more are closed at once"),
    "max_client_connections": (int, "connections from one client address at once"),
    "max_streams": (int, "open streams per connection; an OPEN beyond is refused"),
    "service_workers": (int, "threads running commands and transfers; more wait their turn"),
    "handshake_timeout": (float, "seconds a connection may take to complete CNXN/AUTH"),
    "max_stream_buffer": (int, "bytes one stream may hold from its client (stdin ...)"),
    "max_buffered": (int, "bytes all streams may hold from their clients together"),
}


def _add_limit_flags(serve: argparse.ArgumentParser) -> None:
    from taskkit.sim.adbd import AdbdLimits

    defaults = AdbdLimits()
    for field, (kind, text) in _LIMIT_FLAGS.items():
        default = getattr(defaults, field)
        serve.add_argument(f"--{field}", type=_positive(kind), default=default, help=f"{text} (default {default})")


def _positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a positive number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a positive number")
        return value

    return parse


def install_apps(state: Path) -> None:
    """Build (or complete) the device in `state` with every registered app's first-run databases.

    This entry point is a composition root: it may import the app models, which the simulator
    itself never does.
    """
    from taskkit import apps
    from taskkit.sim import gui
    from taskkit.sim.device import SimDevice

    device = SimDevice(state, app_databases=apps.first_run_databases())
    gui.install(device.state)
    device.close()


def serve(state: Path, host: str, port: int, adb_keys: Path | None = None, command_timeout: float = 60.0,
          max_output: int = 64 << 20, limits: Any = None, storage_quota: int | None = None) -> int:
    """Serve until SIGINT/SIGTERM, within `limits` (AdbdLimits; None: the defaults), the device
    having `storage_quota` bytes (None: as stored); the exit code."""
    from taskkit.sim import storage
    from taskkit.sim.adb_auth import KeyFormatError
    from taskkit.sim.adbd import AdbdServer, is_loopback
    from taskkit.sim.device import StateDirError
    from taskkit.sim.state import SimState

    if not is_loopback(host) and adb_keys is None:
        print(f"{PROG}: error: --host {host} is not loopback: anyone who reaches it would get a root shell; "
              "pass --adb_keys FILE (the adb public keys allowed in, e.g. ~/.android/adbkey.pub)", file=sys.stderr)
        return 2
    try:
        install_apps(state)
        if storage_quota is not None:
            storage.set_quota(SimState(state), storage_quota)
        storage.quota_of(SimState(state))  # a bad stored or environment value is bad input
        server = AdbdServer(state, host=host, port=port, adb_keys=adb_keys, require_auth=adb_keys is not None,
                            command_timeout=command_timeout, max_output=max_output, limits=limits)
    except (StateDirError, KeyFormatError, storage.QuotaError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"--adb_keys {adb_keys}" if adb_keys is not None and exc.filename == str(adb_keys) else f"--state {state}"
        print(f"{PROG}: error: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
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
    server.serve_forever(wake_on_signals=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from taskkit.sim.adbd import AdbdLimits

        bounds = AdbdLimits(**{field: getattr(args, field) for field in _LIMIT_FLAGS})
        return serve(args.state, args.host, args.port, args.adb_keys, args.command_timeout, args.max_output, bounds,
                     args.storage_quota)
    return 2


if __name__ == "__main__":
    sys.exit(main())
