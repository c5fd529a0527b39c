"""`AdbDevice`: a real phone or emulator (or the simulator's adbd) through the adb server.

Everything goes through `adbutils` speaking the adb server's smart-socket protocol; the
`adb` binary is never run. Each operation opens its own connection to the server, bound to
the device, and shares one deadline: a timeout, a refused connection, or a server or device
that goes away raises `DeviceError` with a message naming the device and the operation.

Shell commands use the shell v2 protocol when the device advertises `shell_v2` (separate
stdout and stderr, the real exit code). Without it they fall back to `shell:` with an
exit-code marker appended; stdout and stderr then arrive merged (as stdout).

Root: tasks read app databases under `/data/data`, so they need adbd running as root.
`ensure_root` asks adbd to restart as root (the `root:` service, as `adb root` does) and waits
for the device to come back. Only builds whose adbd can run as root are supported (emulator
images, userdebug and eng builds); `su` on rooted user builds is deliberately not used.

One `AdbDevice` is meant to be used from one thread at a time.
"""
from __future__ import annotations

import contextlib
import dataclasses
import re
import socket
import stat
import struct
import time
from typing import Any, Callable, Iterator, Sequence, TypeVar

import adbutils
from adbutils.errors import AdbConnectionError, AdbError, AdbSyncError, AdbTimeout

from taskkit.device.base import Device, DeviceError, ShellResult
from taskkit.device.quoting import shell_quote
from taskkit.device.shell_protocol import (CLOSE_STDIN, EXIT, STDERR, STDIN, STDOUT, WINDOW_SIZE,  # noqa: F401
                                           PacketDecoder, ShellProtocolError, encode_packet)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5037
DEFAULT_TIMEOUT = 60.0  # seconds for one shell command, and the base of transfer timeouts
MIN_TRANSFER_RATE = 1 << 20  # bytes/s: transfers get DEFAULT_TIMEOUT + size / this rate
# The smart-socket length field is 4 hex digits: longer commands travel as a pushed script.
MAX_SERVICE_BYTES = 0xFFFF
SCRIPT_DIR = "/data/local/tmp"
_POLL_INTERVAL = 0.1  # seconds between checks while a device comes online
_TRANSIENT_STATES = frozenset({"offline", "connecting", "authorizing"})
_EXIT_MARKER = "--taskkit-exit-status--"
_TCP_SERIAL = re.compile(r"^[^\s:]+:\d+$")
_T = TypeVar("_T")


class DeviceSelectionError(DeviceError):
    """No device, several devices, or not the requested one: names the serials found."""


class RootUnavailable(DeviceError):
    """adbd cannot run as root on this device, and tasks that need root were requested."""


# --- shell v2 framing ---------------------------------------------------------------------
ShellV2Error = ShellProtocolError


@dataclasses.dataclass
class ShellV2Decoder:
    """A command's stdout, stderr and exit code from shell-protocol bytes split anywhere.

    Feed it the bytes as they arrive; `exit_code` is set once the exit packet is complete.
    Packets of other kinds (the host-to-device ones, or future ones) are ignored.
    """

    stdout: bytearray = dataclasses.field(default_factory=bytearray)
    stderr: bytearray = dataclasses.field(default_factory=bytearray)
    exit_code: int | None = None
    _packets: PacketDecoder = dataclasses.field(default_factory=lambda: PacketDecoder(last_kind=EXIT))

    @property
    def done(self) -> bool:
        return self.exit_code is not None

    def feed(self, data: bytes) -> None:
        if self.done:
            return  # the device closes the stream after the exit packet; ignore stragglers
        for kind, payload in self._packets.feed(data):
            if kind == STDOUT:
                self.stdout += payload
            elif kind == STDERR:
                self.stderr += payload
            elif kind == EXIT:
                if not payload:
                    raise ShellV2Error("exit packet without an exit code")
                self.exit_code = payload[0]
                return


shell_v2_packet = encode_packet


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


# --- adbutils, with a deadline on every socket call and no server auto-start ----------------
class _SocketProxy:
    """The socket adbutils sees: every `send` is a `sendall` (adbutils ignores short writes)."""

    def __init__(self, sock: socket.socket):
        self._sock = sock

    def send(self, data: bytes) -> int:
        self._sock.sendall(data)
        return len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _Connection(adbutils.AdbConnection):
    """An adbutils connection that never spawns `adb start-server` and keeps a deadline."""

    def __init__(self, host: str, port: int, deadline: float):
        self.deadline = deadline
        super().__init__(host, port)

    def _safe_connect(self) -> socket.socket:
        sock = self._create_socket()  # adbutils would run the adb binary to start a server
        # adbutils writes sync headers and data in separate small sends: without this, Nagle's
        # algorithm and delayed ACKs stall every push by ~40 ms.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    @property
    def conn(self) -> Any:
        sock = super().conn
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise AdbTimeout("deadline passed")
        sock.settimeout(remaining)
        return _SocketProxy(sock)

    def close(self) -> None:
        # adbutils' close() sleeps 10 ms after a half-close (on every command); a plain close
        # is enough. Its socket lives in a name-mangled attribute.
        if "_AdbConnection__conn" not in self.__dict__:
            return super().close()
        sock, self.__dict__["_AdbConnection__conn"] = self.__dict__["_AdbConnection__conn"], None
        if sock is not None:
            sock.close()


class _Client(adbutils.AdbClient):
    """An `adbutils.AdbClient` whose connections share the deadline of the current operation."""

    def __init__(self, host: str, port: int, timeout: float):
        super().__init__(host, port)
        self.timeout = timeout
        self._deadline: float | None = None
        self._version: int | None = None

    @contextlib.contextmanager
    def deadline(self, seconds: float) -> Iterator[None]:
        previous = self._deadline
        self._deadline = time.monotonic() + seconds
        try:
            yield
        finally:
            self._deadline = previous

    def make_connection(self, timeout: float | None = None) -> _Connection:
        deadline = self._deadline if self._deadline is not None else time.monotonic() + self.timeout
        return _Connection(self.host, self.port, deadline)

    def server_version(self) -> int:
        if self._version is None:  # adbutils asks before every device connection
            self._version = super().server_version()
        return self._version


def _describe(error: BaseException) -> str:
    if isinstance(error, (AdbTimeout, TimeoutError)):
        return "timed out"
    closed = isinstance(error, AdbError) and ("closed" in str(error) or str(error) == "Unknown data: b''")
    if isinstance(error, (EOFError, ConnectionError)) or closed:
        return "the connection closed"
    text = " ".join(str(arg) for arg in error.args if arg) if error.args else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class AdbDevice(Device):
    """A device reached through the adb server at `host:port`.

    `serial` None means the only attached device (none or several raise
    `DeviceSelectionError`, which lists the serials found). A `HOST:PORT` serial that the server
    does not know yet is connected first, as `adb connect` does. `timeout` bounds one shell
    command; transfers get it plus one second per MiB.
    """

    def __init__(
        self,
        serial: str | None = None,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        timeout: float = DEFAULT_TIMEOUT,
    ):
        super().__init__()
        self.timeout = timeout
        self.client = _Client(host, port, timeout)
        self._where = f"adb server {host}:{port}"
        self._closed = False
        self._script_count = 0
        patience = 0.0 if serial is None else timeout  # a named device may be coming online
        self.serial = self._call("contact the adb server", lambda: self._select(serial, patience), timeout + patience)
        self._adb = adbutils.AdbDevice(self.client, serial=self.serial)
        features = self._call("read the device features", self._adb.get_features)
        self.features = frozenset(f for f in features.split(",") if f)
        self.shell_v2 = "shell_v2" in self.features

    def __repr__(self) -> str:
        return f"AdbDevice({self.serial!r}, {self._where})"

    # --- errors and deadlines ---------------------------------------------------------------
    def _call(self, what: str, body: Callable[[], _T], seconds: float | None = None) -> _T:
        """Run `body` under a deadline; every failure of the transport becomes a DeviceError."""
        if self._closed:
            raise DeviceError(f"{self}: {what}: the device was closed")
        seconds = self.timeout if seconds is None else seconds
        try:
            with self.client.deadline(seconds):
                return body()
        except (DeviceError, FileNotFoundError, IsADirectoryError):
            raise
        except AdbConnectionError as error:  # refused or unreachable
            raise DeviceError(f"{self._where} is not reachable ({error}): is it running (`adb start-server`)?") from error
        except (AdbTimeout, TimeoutError) as error:
            raise DeviceError(f"{self}: {what}: timed out after {seconds:g} s") from error
        except (AdbError, OSError, EOFError, ShellV2Error, struct.error, ValueError, AssertionError) as error:
            diagnosis = self._diagnose()
            raise DeviceError(f"{self}: {what}: {_describe(error)}" + (f"; {diagnosis}" if diagnosis else "")) from error

    def _diagnose(self) -> str | None:
        """After a failure: is the adb server still there, and the device still online?"""
        if self.serial == Device.serial:  # still choosing the device
            return None
        try:
            with self.client.deadline(min(self.timeout, 5.0)):
                state = self._states().get(self.serial)
        except (AdbError, OSError, EOFError, ValueError):
            return f"the {self._where} is gone"
        if state is None:
            return f"the device is no longer attached to the {self._where}"
        return None if state == "device" else f"the device is {state}"

    def _transfer_timeout(self, size: int) -> float:
        return self.timeout + size / MIN_TRANSFER_RATE

    # --- choosing the device ----------------------------------------------------------------
    def _states(self) -> dict[str, str]:
        return {info.serial: info.state for info in self.client.list()}

    def _select(self, serial: str | None, patience: float) -> str:
        """The serial to use; waits up to `patience` s for a named device that is coming online."""
        states = self._states()
        found = ", ".join(f"{s} ({state})" for s, state in states.items()) or "none"
        if serial is None:
            ready = [s for s, state in states.items() if state == "device"]
            if len(ready) == 1:
                return ready[0]
            problem = "no device is attached" if not ready else "several devices are attached"
            raise DeviceSelectionError(f"{problem} to the {self._where} (found: {found}); use adb:SERIAL")
        deadline = time.monotonic() + patience
        connected = False
        while True:
            state = states.get(serial)
            if state == "device":
                return serial
            if state is None and _TCP_SERIAL.match(serial) and not connected:
                reply = self.client.connect(serial)  # as `adb connect SERIAL`
                if not reply.startswith(("connected", "already connected")):
                    raise DeviceSelectionError(f"adb could not connect to {serial}: {reply.strip()}")
                connected = True
            elif state is None and not connected:
                raise DeviceSelectionError(f"device {serial!r} is not attached to the {self._where} (found: {found})")
            elif (state is not None and state not in _TRANSIENT_STATES) or time.monotonic() > deadline:
                raise DeviceSelectionError(
                    f"device {serial!r} is {state or 'gone'}, not ready"
                    + (": accept the debugging prompt on the phone" if state == "unauthorized" else "")
                )
            time.sleep(_POLL_INTERVAL)  # bounded by the deadline above
            states = self._states()

    # --- the transport ----------------------------------------------------------------------
    def _open(self, service: str) -> adbutils.AdbConnection:
        connection = self._adb.open_transport()
        try:
            connection.send_command(service)
            connection.check_okay()
        except BaseException:
            connection.close()
            raise
        return connection

    def _shell(self, command: str) -> ShellResult:
        return self._shell_within(command, self.timeout)

    def _shell_within(self, command: str, seconds: float) -> ShellResult:
        service = f"shell,v2,raw:{command}" if self.shell_v2 else f"shell:{self._v1_wrap(command)}"
        if len(service.encode("utf-8")) > MAX_SERVICE_BYTES:
            return self._shell_script(command)
        read = self._shell_v2 if self.shell_v2 else self._shell_v1
        return self._call(f"shell {command[:60]!r}", lambda: read(service), seconds)

    def _exec_out(self, command: str) -> tuple[bytes, str, int]:
        if not self.shell_v2:  # exec: has no exit status; the bytes still arrive untouched
            data = self._call(f"exec-out {command[:60]!r}", lambda: self._read_all(f"exec:{command}"), self.timeout)
            return data, "", 0
        decoder = self._call(f"shell {command[:60]!r}", lambda: self._v2_stream(f"shell,v2,raw:{command}"), self.timeout)
        return bytes(decoder.stdout), _text(decoder.stderr), int(decoder.exit_code)

    def _read_all(self, service: str) -> bytes:
        with self._open(service) as connection:
            return connection.read_until_close(encoding=None)

    def _shell_v2(self, service: str) -> ShellResult:
        decoder = self._v2_stream(service)
        return ShellResult(_text(decoder.stdout), _text(decoder.stderr), int(decoder.exit_code))

    def _v2_stream(self, service: str) -> ShellV2Decoder:
        decoder = ShellV2Decoder()
        with self._open(service) as connection:
            connection.conn.send(shell_v2_packet(CLOSE_STDIN, b""))  # no stdin: readers see EOF
            while not decoder.done:
                chunk = connection.conn.recv(1 << 16)
                if not chunk:
                    raise EOFError("stream closed before the exit status")
                decoder.feed(chunk)
        return decoder

    @staticmethod
    def _v1_wrap(command: str) -> str:
        # A subshell keeps `exit N` and a trailing comment from swallowing the marker.
        return f"(\n{command}\n); echo {_EXIT_MARKER}$?"

    def _shell_v1(self, service: str) -> ShellResult:
        text = _text(self._read_all(service))
        body, marker, status = text.rpartition(_EXIT_MARKER)
        if not marker or not status.strip().isdigit():
            raise EOFError("the output ended before the exit status")
        return ShellResult(body, "", int(status.strip()))

    def _shell_script(self, command: str) -> ShellResult:
        """A command too long for one request: push it as a script, run it, remove it."""
        self._script_count += 1
        path = f"{SCRIPT_DIR}/.taskkit-command-{self._script_count}.sh"
        self._push(command.encode("utf-8"), path)
        quoted = shell_quote(path)
        return self._shell(f"sh {quoted}; status=$?; rm -f {quoted}; exit $status")

    def push(self, data: bytes, path: str) -> None:
        """Write `data` to `path`, then `touch -c` it: adb's sync protocol stamps a pushed file
        with the host's clock, while what an app writes carries the device's (the one task set-up
        fixes, and "newest note" checks and the screens read). Batched inside `batch()`."""
        super().push(data, path)
        self.run(f"touch -c {shell_quote(path)}")

    def _push(self, data: bytes, path: str) -> None:
        if "fixed_push_mkdir" not in self.features:
            parent = path.rsplit("/", 1)[0] or "/"
            self._shell(f"mkdir -p {shell_quote(parent)}")
        sync = adbutils.Sync(self._adb)

        def push() -> None:
            try:
                sync.push(data, path, mode=0o644)
            except AdbSyncError as error:  # the target is a directory
                raise IsADirectoryError(f"{self.serial}: remote object '{path}' is a directory") from error
            except AdbError as error:
                if str(error) == "FAIL":
                    raise DeviceError(f"{self}: the device refused to write {path} (permissions? see ensure_root)") from error
                raise

        self._call(f"push {path}", push, self._transfer_timeout(len(data)))

    def _pull(self, path: str) -> bytes:
        sync = adbutils.Sync(self._adb)
        info = self._call(f"stat {path}", lambda: sync.stat(path))
        if info.mode == 0:  # all-zero STAT: adbutils would pull it as an empty directory
            raise FileNotFoundError(f"{self.serial}: remote object '{path}' does not exist")
        if stat.S_ISDIR(info.mode):
            raise IsADirectoryError(f"{self.serial}: remote object '{path}' is a directory")

        def pull() -> bytes:
            try:
                return sync.read_bytes(path)
            except AdbError as error:
                if error.args[1:] != (path,):  # not a FAIL reply, which adbutils raises as (message, path)
                    raise
                message = str(error.args[0])
                if "No such file" in message:
                    raise FileNotFoundError(f"{self.serial}: remote object '{path}' does not exist") from error
                raise DeviceError(f"{self}: pull {path}: {message or error}") from error

        return self._call(f"pull {path}", pull, self._transfer_timeout(info.size))

    def reconnect(self) -> None:
        """Wait (bounded by `timeout`) until the device is online again; a HOST:PORT serial is
        redialed as `adb connect` does. Raises DeviceError if it does not come back."""
        deadline = time.monotonic() + self.timeout
        while True:
            patience = max(0.0, deadline - time.monotonic())
            try:
                self._call("reconnect", lambda: self._select(self.serial, patience), patience + self.timeout)
                return
            except DeviceSelectionError:
                if time.monotonic() >= deadline:
                    raise
            time.sleep(_POLL_INTERVAL)

    def close(self) -> None:
        """Nothing stays open between operations; later calls raise DeviceError."""
        super().close()
        self._closed = True

    # --- root --------------------------------------------------------------------------------
    def is_root(self) -> bool:
        """Whether the shell runs as root (`id -u` prints 0), so `/data/data` is readable."""
        return self._uid(self.timeout) == "0"

    def _uid(self, seconds: float) -> str:
        return self._shell_within("id -u", seconds).stdout.strip()

    def ensure_root(self, required: bool = True, tasks: Sequence[str] = ()) -> bool:
        """Make adbd run as root (as `adb root` does) and wait until the device is back.

        Returns whether the shell now runs as root. If root is unavailable (a user build) and
        `required`, raises `RootUnavailable` naming `tasks`, the tasks that need it.
        """
        if self.is_root():
            return True
        reply = self._call("restart adbd as root", self._root_service)
        if "restarting" not in reply:
            if required:
                names = ", ".join(tasks) or "the requested tasks"
                raise RootUnavailable(
                    f"{self.serial}: root is unavailable ({reply.strip() or 'no reply'}); {names} need "
                    "adbd running as root: use an emulator image or a userdebug/eng build"
                )
            return False
        self._wait_for_root()
        return True

    def _root_service(self) -> str:
        with self._open("root:") as connection:
            return connection.read_until_close()

    def _wait_for_root(self) -> None:
        """Poll (bounded by `timeout`) until the restarted adbd answers `id -u` with 0."""
        deadline = time.monotonic() + self.timeout
        last_error: Exception | None = None
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                if self._uid(min(remaining, 5.0)) == "0":
                    return
            except DeviceError as error:  # adbd restarting: the device is briefly gone
                last_error = error
                with contextlib.suppress(DeviceError):  # redial a HOST:PORT device the server dropped
                    self._call("reconnect", lambda: self._select(self.serial, 0.0), min(remaining, 5.0))
            time.sleep(_POLL_INTERVAL)
        raise DeviceError(f"{self}: the device did not come back as root within {self.timeout:g} s"
                          + (f" ({last_error})" if last_error else ""))
