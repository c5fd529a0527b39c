"""`AdbdServer`: the simulated device served on the adb *device* protocol (what adbd speaks).

Stock `adb connect 127.0.0.1:PORT` turns a simulator state directory into an ordinary device:
`adb shell`, `adb push/pull`, `adb ls`, `adb root`, `adb devices -l`, and adbutils through the
real adb server. Facts: ../shared/reference/adb-and-shell.md §1–§4 and the checklist in §7.

Layout of this module, bottom up:

* wire codecs, pure and tested without adb: `Message` (24-byte header + payload),
  `encode_packet` / `PacketDecoder` (shell protocol v2), `SyncDecoder` and the sync reply
  encoders (file sync protocol);
* `_DeviceHost`: the `SimDevice` of a server, a fresh view of its state per operation, and the
  command runner with its time and output limits (`taskkit/sim/limits.py`);
* services, one class per service family (`shell:`, `shell,v2,…:`, `exec:`, `sync:`,
  `root:`/`unroot:`, `reboot:`), each fed a stream's data and writing to it;
* `_Connection`: one TCP connection, read and written by the server's one I/O thread without
  blocking; each stream's service runs on the server's bounded worker pool
  (`taskkit/sim/workers.py`), with one unacknowledged WRTE per direction per stream;
* `AdbdServer`: the listening socket, the I/O loop, its bounds (`AdbdLimits`) and `AdbdStats`.

Features advertised (exactly what is implemented): shell_v2, cmd, stat_v2, ls_v2,
fixed_push_mkdir. RSA authentication (`adb_auth.py`) off loopback or with `adb_keys`; no TLS,
no delayed_ack, no sendrecv_v2, no abb.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import errno
import ipaddress
import logging
import os
import re
import selectors
import signal
import socket
import stat as stat_mod
import struct
import tempfile
import threading
from pathlib import Path
from typing import Callable

from taskkit.device.shell_protocol import HEADER as PACKET_HEADER
from taskkit.device.shell_protocol import (CLOSE_STDIN, EXIT, STDERR, STDIN, STDOUT, WINDOW_SIZE,
                                           PacketDecoder, ShellProtocolError, encode_packet)
from taskkit.errors import TaskkitError
from taskkit.sim import adb_auth, limits, shell, storage, writeback
from taskkit.sim.device import SimDevice
from taskkit.sim.state import SimState
from taskkit.sim.workers import Timer, Timers, WorkerPool

# --- wire constants (§1) ----------------------------------------------------------------------


def _cmd(name: bytes) -> int:
    return int.from_bytes(name, "little")


A_CNXN, A_AUTH, A_OPEN, A_OKAY = _cmd(b"CNXN"), _cmd(b"AUTH"), _cmd(b"OPEN"), _cmd(b"OKAY")
A_CLSE, A_WRTE, A_STLS, A_SYNC = _cmd(b"CLSE"), _cmd(b"WRTE"), _cmd(b"STLS"), _cmd(b"SYNC")
COMMANDS = frozenset({A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_STLS, A_SYNC})
A_VERSION_MIN = 0x01000000
A_VERSION = 0x01000001  # A_VERSION_SKIP_CHECKSUM
MAX_PAYLOAD = 1 << 20
MAX_PAYLOAD_V1 = 4096
HEADER = struct.Struct("<6I")
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")
_log = logging.getLogger(__name__)
# Seconds a `shell,v2,raw:CMD` stream waits for the client's first stdin-side packet.
STDIN_GRACE = 1.0
# Per-command limits (serve --command_timeout / --max_output change them).
DEFAULT_COMMAND_TIMEOUT = 60.0
DEFAULT_MAX_OUTPUT = 64 << 20
# A stream's output waiting for the client's OKAY; a command writing more waits (flow control).
HIGH_WATER = 1 << 20
# Exit statuses of a command stopped by a limit: time (124, as toybox `timeout`), output (as
# SIGXFSZ would end it: 128 + 25), the client gone (as SIGPIPE would: 128 + 13).
OUTPUT_LIMIT_STATUS = 153
CLIENT_GONE_STATUS = limits.CLIENT_GONE_STATUS

# --- the server's bounds (AdbdLimits; `python -m taskkit.sim serve` flags change them) ---------
# Real adbd (AOSP packages/modules/adb) bounds a message's payload (MAX_PAYLOAD, 1 MiB, adb.h)
# and each stream's flow (one WRTE in flight per direction until the OKAY, protocol.txt), but
# not connections, streams or threads: it starts a thread or process per service. The simulator
# serves every client in one process, so it bounds those too; what is past a bound is refused
# the way adbd refuses (a connection closed, an OPEN answered with CLSE) or waits its turn.
#: Connections one server holds at once; each further one is accepted and closed at once.
MAX_CONNECTIONS = 64
#: Connections from one client address at once (all loopback clients share one address).
MAX_CLIENT_CONNECTIONS = 32
#: Open streams per connection; an OPEN beyond is refused with CLSE(0, id), as an unknown service.
MAX_STREAMS = 32
#: Threads running the services (commands, file transfers) of all the server's streams; more
#: busy streams wait their turn. With the I/O thread, the server never runs more threads. As many
#: as the connections a server holds, so that each connection's command runs at once (a client
#: that fills every worker with long commands makes the others wait: queue, round robin).
SERVICE_WORKERS = MAX_CONNECTIONS
#: Seconds a connection may take to go online (CNXN, and AUTH when keys are required).
HANDSHAKE_TIMEOUT = 20.0
#: Bytes one stream's service may keep from its host (stdin waiting for close-stdin, a partial
#: packet or input line); past it the stream fails with `out of memory`. The WRTE waiting for
#: the stream's worker (one, at most MAX_PAYLOAD) counts against MAX_BUFFERED.
MAX_STREAM_BUFFER = 16 << 20
#: Bytes all the streams of one server may hold from their hosts together; a WRTE past it is
#: refused (its stream reset).
MAX_BUFFERED = 256 << 20
#: Bytes queued for a client that does not read, past which the server stops reading from it
#: (its own flow control: a host that never reads cannot make the server queue replies).
MAX_SEND_BACKLOG = 4 << 20
# Bytes read from a socket at a time.
_RECV_CHUNK = 256 * 1024


@dataclasses.dataclass(frozen=True)
class AdbdLimits:
    """The bounds of one server; each default is the module constant of the same name."""

    max_connections: int = MAX_CONNECTIONS
    max_client_connections: int = MAX_CLIENT_CONNECTIONS
    max_streams: int = MAX_STREAMS
    service_workers: int = SERVICE_WORKERS
    handshake_timeout: float = HANDSHAKE_TIMEOUT
    max_stream_buffer: int = MAX_STREAM_BUFFER
    max_buffered: int = MAX_BUFFERED


class ProtocolError(TaskkitError):
    """The peer broke the wire protocol: the connection is closed."""


@dataclasses.dataclass(frozen=True)
class Message:
    """One adb transport message: 24-byte header (six uint32 LE) and its payload."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    def encode(self, checksum: bool = True) -> bytes:
        """Header + payload; `checksum` writes the payload's byte sum (else 0)."""
        check = sum(self.data) & 0xFFFFFFFF if checksum else 0
        header = HEADER.pack(self.command, self.arg0, self.arg1, len(self.data), check,
                             self.command ^ 0xFFFFFFFF)
        return header + self.data

    @property
    def name(self) -> str:
        return command_name(self.command)


def command_name(command: int) -> str:
    """`CNXN` for A_CNXN, else the hex value."""
    raw = command.to_bytes(4, "little")
    return raw.decode("ascii") if raw.isalpha() and raw.isupper() else f"0x{command:08x}"


def decode_header(raw: bytes, max_payload: int = MAX_PAYLOAD) -> tuple[int, int, int, int]:
    """(command, arg0, arg1, data_length) of a 24-byte header; ProtocolError if invalid.

    The checksum is not verified (Android 13 does not either); the magic, the command and the
    payload length are.
    """
    if len(raw) != HEADER.size:
        raise ProtocolError(f"short header ({len(raw)} bytes)")
    command, arg0, arg1, length, _check, magic = HEADER.unpack(raw)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic 0x{magic:08x} for command 0x{command:08x}")
    if command not in COMMANDS:
        raise ProtocolError(f"unknown command {command_name(command)}")
    if length > max_payload:
        raise ProtocolError(f"{command_name(command)} payload of {length} bytes > {max_payload}")
    return command, arg0, arg1, length


def decode_message(raw: bytes, max_payload: int = MAX_PAYLOAD) -> tuple[Message, int]:
    """The first complete message in `raw` and the bytes it used; ProtocolError if incomplete."""
    command, arg0, arg1, length = decode_header(raw[:HEADER.size], max_payload)
    end = HEADER.size + length
    if len(raw) < end:
        raise ProtocolError(f"truncated payload ({len(raw) - HEADER.size} of {length} bytes)")
    return Message(command, arg0, arg1, bytes(raw[HEADER.size:end])), end


def clean_prop(value: str) -> str:
    """A banner value: the host splits on `:`, `;` and `=`, so those become `_`."""
    return re.sub(r"[:;=\x00]", "_", value)


def banner(props: dict[str, str], features: tuple[str, ...] = FEATURES) -> bytes:
    """`device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`."""
    fields = [f"{key}={clean_prop(str(props.get(key, '')))}"
              for key in ("ro.product.name", "ro.product.model", "ro.product.device")]
    fields.append("features=" + ",".join(features))
    return ("device::" + ";".join(fields)).encode("utf-8")[:MAX_PAYLOAD_V1]


# --- shell protocol v2 (§3) -------------------------------------------------------------------
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = (
    STDIN, STDOUT, STDERR, EXIT, CLOSE_STDIN, WINDOW_SIZE)
PACKET_CHUNK = 64 * 1024  # data bytes per stdout/stderr packet we send


def encode_output(kind: int, data: bytes) -> bytes:
    """`data` as packets of at most PACKET_CHUNK bytes each (nothing for empty data)."""
    return b"".join(encode_packet(kind, data[i:i + PACKET_CHUNK])
                    for i in range(0, len(data), PACKET_CHUNK))


# --- file sync protocol (§4) ------------------------------------------------------------------
SYNC_DATA_MAX = 64 * 1024
SYNC_PATH_MAX = 1024
# Where pushed files are staged until DONE: a folder of the state directory, never the host's
# temporary directory; the first SEND_SPOOL_MEMORY bytes of each stay in memory.
STAGING = "staging"
SEND_SPOOL_MEMORY = 1 << 20
_SYNC_HEAD = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4sIII")           # STAT mode size mtime
_DENT_V1 = struct.Struct("<4sIIII")          # DENT mode size mtime namelen
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")   # id error dev ino mode nlink uid gid size atime mtime ctime
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")  # the same + namelen
_NO_PAYLOAD = frozenset({b"DONE", b"QUIT"})  # their length field is a value (mtime / 0)


@dataclasses.dataclass(frozen=True)
class SyncFrame:
    """One sync-protocol unit: a request (`STAT` + path), `DATA` + bytes, or `DONE` + mtime."""

    id: bytes
    value: int          # the length field: payload length, or DONE's mtime
    payload: bytes = b""

    def encode(self) -> bytes:
        body = b"" if self.id in _NO_PAYLOAD else self.payload
        return _SYNC_HEAD.pack(self.id, self.value if self.id in _NO_PAYLOAD else len(body)) + body


class SyncError(TaskkitError):
    """A sync request the device refuses with FAIL and then ends the service."""


class SyncDecoder:
    """Sync frames from a byte stream cut anywhere."""

    def __init__(self) -> None:
        self._buf = bytearray()

    @property
    def buffered(self) -> int:
        """Bytes fed and not yet returned in a frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[SyncFrame]:
        self._buf += data
        frames = []
        while len(self._buf) >= _SYNC_HEAD.size:
            ident, value = _SYNC_HEAD.unpack_from(self._buf)
            if ident in _NO_PAYLOAD:
                frames.append(SyncFrame(ident, value))
                del self._buf[:_SYNC_HEAD.size]
                continue
            limit = SYNC_DATA_MAX if ident == b"DATA" else SYNC_PATH_MAX
            if value > limit:
                what = "data" if ident == b"DATA" else "path"
                raise SyncError(f"{what} too long")
            end = _SYNC_HEAD.size + value
            if len(self._buf) < end:
                break
            frames.append(SyncFrame(ident, value, bytes(self._buf[_SYNC_HEAD.size:end])))
            del self._buf[:end]
        return frames


def sync_fail(message: str) -> bytes:
    data = message.encode("utf-8")
    return _SYNC_HEAD.pack(b"FAIL", len(data)) + data


@dataclasses.dataclass(frozen=True)
class FileStat:
    """What the sync protocol reports about one path (uid/gid are 0, as the simulator's stat)."""

    mode: int
    size: int
    mtime: int
    dev: int = 0
    ino: int = 0
    nlink: int = 1

    @classmethod
    def of(cls, st: os.stat_result, fallback_mtime: int) -> "FileStat":
        """From a host stat; an mtime of 0 becomes `fallback_mtime` (0 means "missing")."""
        return cls(st.st_mode, st.st_size, int(st.st_mtime) or fallback_mtime, st.st_dev,
                   st.st_ino, st.st_nlink)


def stat_v1(st: FileStat | None) -> bytes:
    """`STAT mode size mtime`; all zeros for a missing path."""
    if st is None:
        return _STAT_V1.pack(b"STAT", 0, 0, 0)
    return _STAT_V1.pack(b"STAT", st.mode & 0xFFFFFFFF, st.size & 0xFFFFFFFF, st.mtime & 0xFFFFFFFF)


def stat_v2(ident: bytes, st: FileStat | None, error: int = 0) -> bytes:
    """STA2/LST2 reply: 72 bytes, all zero but `error` for a failure."""
    if st is None:
        return _STAT_V2.pack(ident, error, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return _STAT_V2.pack(ident, 0, st.dev, st.ino, st.mode, st.nlink, 0, 0, st.size,
                         st.mtime, st.mtime, st.mtime)


def dent_v1(name: bytes, st: FileStat) -> bytes:
    return _DENT_V1.pack(b"DENT", st.mode & 0xFFFFFFFF, st.size & 0xFFFFFFFF,
                         st.mtime & 0xFFFFFFFF, len(name)) + name


def dent_v2(name: bytes, st: FileStat) -> bytes:
    return _DENT_V2.pack(b"DNT2", 0, st.dev, st.ino, st.mode, st.nlink, 0, 0, st.size,
                         st.mtime, st.mtime, st.mtime, len(name)) + name


LIST_DONE_V1 = b"DONE" + bytes(_DENT_V1.size - 4)   # padded to the 20-byte dent size
LIST_DONE_V2 = b"DONE" + bytes(_DENT_V2.size - 4)   # padded to the 76-byte dent size
SYNC_OKAY = _SYNC_HEAD.pack(b"OKAY", 0)
RECV_DONE = _SYNC_HEAD.pack(b"DONE", 0)


def parse_send_spec(spec: str) -> tuple[str, int]:
    """`path,mode` (split at the last comma; mode as C `strtoul(s, 0)`) → (path, mode)."""
    path, comma, mode_text = spec.rpartition(",")
    if not comma:
        raise SyncError(f"missing mode in '{spec}'")
    text = mode_text.strip().lower()
    try:
        if text.startswith("0x"):
            mode = int(text[2:], 16)
        elif text.startswith("0") and len(text) > 1:
            mode = int(text[1:], 8)
        else:
            mode = int(text, 10)
    except ValueError:
        raise SyncError(f"bad mode '{mode_text}'") from None
    return path, mode


def send_permissions(mode: int) -> int:
    """adbd's rule: keep the 0777 bits and copy the user bits to group and other."""
    mode &= 0o777
    mode |= (mode >> 3) & 0o070
    mode |= (mode >> 3) & 0o007
    return mode


# --- the device behind a server ---------------------------------------------------------------
class _DeviceHost:
    """One simulated device: a fresh view of its state for every operation, so that streams run
    side by side (device.json changes are merged, see `SimState.save`), and the per-command
    limits (`command_timeout` seconds, `max_output` bytes)."""

    def __init__(self, state_dir: str | os.PathLike[str], command_timeout: float | None = DEFAULT_COMMAND_TIMEOUT,
                 max_output: int = DEFAULT_MAX_OUTPUT):
        self.device = SimDevice(state_dir)
        self.root = Path(state_dir)
        self.command_timeout = command_timeout
        self.max_output = max_output
        self.lock = threading.RLock()  # file transfers and the adbd-is-root flag

    @property
    def state(self) -> SimState:
        """The device's state as stored now (a new view each time)."""
        return SimState(self.root)

    def run(self, command: str, stdin: bytes, term: str | None, out: Callable[[bytes], None],
            err: Callable[[bytes], None] | None = None, cancelled: threading.Event | None = None) -> int:
        """Run `/system/bin/sh -c command` under the time limit and return its status.

        Its output goes to `out` (stdout) and `err` (stderr) as it is written, never buffered
        whole, within the output limit; with no `err` stderr joins stdout in write order (a raw
        subprocess or a PTY). Setting `cancelled` stops the command at its next check.
        """
        budget = _Budget(self.max_output)
        stdout = _Sink(out, budget)
        stderr = stdout if err is None else _Sink(err, budget)
        state = self.state
        # The environment adbd hands to the shell: init's, the passwd entry of the uid,
        # and TERM from the service arguments.
        env = shell._initial_env(state)  # noqa: SLF001 (the same package's defaults)
        if term:
            env["TERM"] = term
        try:
            with limits.deadline(self.command_timeout, cancelled):
                try:
                    status = shell.call_command(state, ["sh", "-c", command], stdin, "/", env, stdout, stderr)
                except limits.LimitExceeded as exc:
                    status = exc.status
                    with contextlib.suppress(limits.LimitExceeded):  # the client may be gone
                        stderr += f"/system/bin/sh: {exc}\n".encode()
        finally:
            writeback.write_back(self.root)  # a served device's directory holds what its clients did
        return 127 if status is None else status & 0xFF

    def prop(self, name: str, default: str = "") -> str:
        return str(self.state.config.get("props", {}).get(name, default))

    def set_root(self, value: bool) -> bool:
        """Set the adbd-is-root flag; True if it changed."""
        with self.lock:
            state = self.state
            before = bool(state.config.get("is_root", True))
            if before != value:
                state.config["is_root"] = value
                state.save()
            return before != value

    def host_path(self, path: str, follow: bool = True) -> Path:
        return SimState(self.root).host_path(path, follow=follow)

    def path_stat(self, path: str, follow: bool) -> FileStat | None:
        """stat (follow) or lstat of a device path; None if it does not resolve or exist."""
        try:
            host = self.host_path(path, follow)
        except OSError:
            return None
        return self.file_stat(host, follow)

    def file_stat(self, host: Path, follow: bool) -> FileStat | None:
        try:
            st = os.stat(host) if follow else os.lstat(host)
        except OSError:
            return None
        return FileStat.of(st, SimState(self.root).clock_epoch)


# --- streams and services ---------------------------------------------------------------------
class _Stream:
    """One open stream of a connection, from the device's side.

    Its service's callbacks run in order on the server's worker pool, never two at once, so a
    long command on one stream never holds up the connection's other streams (or `adb connect`).
    What it holds from the host is counted in `pending` (a WRTE waiting for its worker) and
    `kept` (what the service keeps: stdin, a partial packet or line), charged to the server.
    """

    __slots__ = ("conn", "local_id", "remote_id", "service", "outbuf", "awaiting_ack", "finishing",
                 "drop_after", "closed", "cancelled", "pending", "kept", "_timer", "_tasks")

    def __init__(self, conn: "_Connection", local_id: int, remote_id: int):
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.service: _Service | None = None
        self.outbuf = bytearray()
        self.awaiting_ack = False
        self.finishing = False
        self.drop_after = False
        self.closed = False
        self.cancelled = threading.Event()  # set at close: the stream's command stops
        self.pending = 0  # bytes of the host WRTE not acknowledged yet (0: none)
        self.kept = 0
        self._timer: Timer | None = None
        self._tasks = conn.server.pool.queue()

    def write(self, data: bytes) -> None:
        """Queue `data` for the host (sent as WRTEs, one unacknowledged at a time)."""
        with self.conn.lock:
            if data and not self.closed:
                self.outbuf += data
                self.conn.pump(self)

    def wait_for_room(self) -> None:
        """Block the writer while more than HIGH_WATER bytes wait for the host's OKAY (adb's
        flow control); a closed stream or the command's deadline stops the command."""
        with self.conn.cond:
            while len(self.outbuf) > HIGH_WATER and not self.closed:
                limits.check()
                self.conn.cond.wait(0.05)
            if self.closed:
                raise limits.LimitExceeded("the client closed the stream", status=CLIENT_GONE_STATUS)

    def finish(self, drop_connection: bool = False) -> None:
        """Close the stream once everything queued is acknowledged (then maybe drop the link)."""
        with self.conn.lock:
            self.finishing = True
            self.drop_after = self.drop_after or drop_connection
            self.conn.pump(self)

    def submit(self, func: Callable[..., None], *args: object) -> None:
        """Run `func(*args)` on a worker, after what was submitted before."""
        self._tasks.submit(self.conn.run_guarded, self, func, *args)

    def discard_tasks(self) -> None:
        """Drop what was submitted and has not started."""
        self._tasks.discard()

    def after(self, seconds: float, func: Callable[[], None]) -> None:
        """Submit `func` in `seconds`, unless `cancel_timer` comes first (the server's timers:
        no thread waits for it)."""
        self.cancel_timer()
        self._timer = self.conn.server.timers.call_later(
            seconds, lambda: None if self.closed else self.submit(func))

    def cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class _Sink(bytearray):
    """A command's stdout or stderr, forwarded to its stream as it is written: output is never
    buffered whole, waits for the host under flow control, and counts against `budget`."""

    def __init__(self, emit: Callable[[bytes], None], budget: "_Budget"):
        super().__init__()
        self._emit, self._budget = emit, budget

    def __iadd__(self, data: bytes | bytearray) -> "_Sink":  # type: ignore[override]
        data = bytes(data)
        if data:
            self._budget.spend(len(data))
            self._emit(data)
        return self

    def extend(self, data: bytes | bytearray) -> None:  # type: ignore[override]
        self.__iadd__(data)

    def append(self, byte: int) -> None:
        self.__iadd__(bytes([byte]))


class _Budget:
    """How many more bytes one command may print (`max_output` in all)."""

    def __init__(self, limit: int):
        self.limit, self.left, self.exceeded = limit, limit, False

    def spend(self, count: int) -> None:
        if self.exceeded:
            return  # the line saying why the command stopped still goes out
        self.left -= count
        if self.left < 0:
            self.exceeded = True
            raise limits.LimitExceeded(f"output exceeded {self.limit} bytes (the simulator's output limit); "
                                       "the command was stopped", status=OUTPUT_LIMIT_STATUS)


class _Service:
    """A device service bound to one stream."""

    def __init__(self, stream: _Stream, host: _DeviceHost):
        self.stream = stream
        self.host = host

    def start(self) -> None:
        """Called once after OKAY went out."""

    def on_data(self, data: bytes) -> None:
        """Bytes from the host."""

    def on_close(self) -> None:
        """The host closed the stream."""

    def on_timeout(self) -> None:
        """The stream's `deadline` passed with no data from the host."""

    def held(self) -> int:
        """Bytes from the host this service keeps now (stdin, a partial packet or line)."""
        return 0

    def overflow(self) -> None:
        """The service keeps more than its stream may hold: end the stream."""
        self.stream.conn.reset(self.stream)


def _decode_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class _RawShell(_Service):
    """`shell:<cmd>` (v1) and `exec:<cmd>`: no protocol, stdout and stderr merged, no exit code."""

    def __init__(self, stream: _Stream, host: _DeviceHost, command: str, term: str | None = None,
                 pty: bool = False):
        super().__init__(stream, host)
        self.command = command
        self.term = term
        self.pty = pty

    def start(self) -> None:
        def emit(data: bytes) -> None:
            self.stream.write(data.replace(b"\n", b"\r\n") if self.pty else data)
            self.stream.wait_for_room()

        self.host.run(self.command, b"", self.term, emit, cancelled=self.stream.cancelled)
        self.stream.finish()


class _Repl:
    """A minimal interactive shell: each complete input line runs as one `sh -c`.

    Lines do not share variables or the working directory. In `pty` mode the device does what
    a terminal line discipline would: echo, a prompt, CR→LF on input, LF→CRLF on output,
    backspace, ^C (drop the line) and ^D on an empty line (end of input).
    """

    def __init__(self, host: _DeviceHost, pty: bool, term: str | None,
                 emit: Callable[[int, bytes], None], done: Callable[[int], None], cancelled: threading.Event):
        self.host, self.pty, self.term = host, pty, term
        self.emit, self.done = emit, done
        self.cancelled = cancelled
        self.line = bytearray()
        self.status = 0
        self.finished = False

    def _prompt(self) -> None:
        if self.pty:
            sign = "#" if self.host.state.config.get("is_root", True) else "$"
            self.emit(ID_STDOUT, f"{clean_prop(self.host.prop('ro.product.device', 'android'))}:/ {sign} "
                      .encode())

    def start(self) -> None:
        self._prompt()

    def _out(self, kind: int, data: bytes) -> None:
        if data:
            self.emit(ID_STDOUT if self.pty else kind, data.replace(b"\n", b"\r\n") if self.pty else data)

    def _execute(self, line: bytes) -> None:
        text = _decode_text(line).strip()
        exit_match = re.fullmatch(r"exit(?:\s+(\d+))?\s*;?", text)
        if exit_match:
            self.status = int(exit_match.group(1) or self.status) & 0xFF
            self.finish()
            return
        if text:
            self.status = self.host.run(text, b"", self.term, lambda data: self._out(ID_STDOUT, data),
                                        None if self.pty else lambda data: self._out(ID_STDERR, data),
                                        self.cancelled)
        self._prompt()

    def feed(self, data: bytes) -> None:
        for byte in data:
            if self.finished:
                return
            if not self.pty:
                if byte == 0x0A:
                    self._execute(bytes(self.line))
                    self.line.clear()
                else:
                    self.line.append(byte)
                continue
            if byte in (0x0D, 0x0A):
                self.emit(ID_STDOUT, b"\r\n")
                self._execute(bytes(self.line))
                self.line.clear()
            elif byte in (0x7F, 0x08):
                if self.line:
                    self.line.pop()
                    self.emit(ID_STDOUT, b"\b \b")
            elif byte == 0x03:  # ^C
                self.line.clear()
                self.emit(ID_STDOUT, b"^C\r\n")
                self.status = 130
                self._prompt()
            elif byte == 0x04:  # ^D
                if not self.line:
                    self.finish()
            else:
                self.line.append(byte)
                self.emit(ID_STDOUT, bytes([byte]))

    def end_of_input(self) -> None:
        if not self.finished:
            if self.line:
                self._execute(bytes(self.line))
                self.line.clear()
            self.finish()

    def finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.done(self.status)


@dataclasses.dataclass(frozen=True)
class ShellRequest:
    """A parsed `shell[,args]:command` service name."""

    command: str
    v2: bool = False
    pty: bool = False
    explicit_type: bool = False  # the client said raw or pty
    term: str | None = None

    @classmethod
    def parse(cls, service: str) -> "ShellRequest":
        head, _, command = service.partition(":")
        args = head.split(",")[1:]
        term = next((a[5:] for a in args if a.startswith("TERM=")), None)
        explicit = "raw" in args or "pty" in args
        pty = "pty" in args if explicit else not command
        return cls(command, "v2" in args, pty, explicit, term)


class _ShellV2(_Service):
    """`shell,v2,…:<cmd>`: packet framing, stdin until close-stdin, separate stderr, exit code.

    The interpreter needs all of stdin before a command starts, so when to start is decided
    from what the client does. adb's stdin thread sends a window-size packet first if its
    stdin is a terminal (the command then runs at once: a person sends no EOF), else data and
    close-stdin (the command runs at close-stdin). A client that names neither `raw` nor `pty`
    (adbutils' `shell,v2:`) never sends stdin: its command runs at once. A client that names
    `raw` and then sends nothing at all for STDIN_GRACE seconds gets its command run with empty
    stdin (a lean client should send close-stdin right after OPEN to avoid that wait).
    """

    def __init__(self, stream: _Stream, host: _DeviceHost, request: ShellRequest):
        super().__init__(stream, host)
        self.request = request
        self.decoder = PacketDecoder()
        self.partial = 0  # bytes fed to the decoder and not yet returned in a packet
        self.stdin = bytearray()
        self.ran = False
        self.repl: _Repl | None = None

    def _emit(self, kind: int, data: bytes) -> None:
        self.stream.write(encode_output(kind, data))

    def _exit(self, status: int) -> None:
        self.stream.write(encode_packet(ID_EXIT, bytes([status & 0xFF])))
        self.stream.finish()

    def start(self) -> None:
        if not self.request.command:
            self.repl = _Repl(self.host, self.request.pty, self.request.term, self._emit, self._exit,
                              self.stream.cancelled)
            self.repl.start()
        elif self.request.pty or not self.request.explicit_type:
            self._run()
        else:
            self.stream.after(STDIN_GRACE, self.on_timeout)

    def on_timeout(self) -> None:
        self._run()

    def _run(self) -> None:
        if self.ran:
            return
        self.ran = True
        req = self.request

        def emitter(kind: int) -> Callable[[bytes], None]:
            def emit(data: bytes) -> None:
                self._emit(kind, data.replace(b"\n", b"\r\n") if req.pty else data)
                self.stream.wait_for_room()
            return emit

        stdin, self.stdin = bytes(self.stdin), bytearray()
        self._exit(self.host.run(req.command, stdin, req.term, emitter(ID_STDOUT),
                                 None if req.pty else emitter(ID_STDERR), self.stream.cancelled))

    def held(self) -> int:
        return self.partial + len(self.stdin) + (len(self.repl.line) if self.repl is not None else 0)

    def overflow(self) -> None:
        """Stdin (or an input line) past the stream's bound: the command fails as one that ran out
        of memory, with a message, instead of the server holding more."""
        if self.ran or self.repl is not None:
            super().overflow()
            return
        self.ran = True
        self.stdin = bytearray()
        self._emit(ID_STDERR, f"/system/bin/sh: stdin: more than {self.stream.conn.server.limits.max_stream_buffer} "
                              "bytes (the simulator's limit for what one stream holds): out of memory\n".encode())
        self._exit(limits.OUT_OF_MEMORY_STATUS)

    def on_data(self, data: bytes) -> None:
        self.stream.cancel_timer()  # the client speaks: follow the protocol from now on
        self.partial += len(data)
        packets = self.decoder.feed(data)
        self.partial -= sum(PACKET_HEADER.size + len(payload) for _, payload in packets)
        for kind, payload in packets:
            if self.ran and self.repl is None:
                return
            if self.repl is not None:
                if kind == ID_STDIN:
                    self.repl.feed(payload)
                elif kind == ID_CLOSE_STDIN:
                    self.repl.end_of_input()
            elif kind == ID_STDIN:
                self.stdin += payload
            elif kind == ID_CLOSE_STDIN:
                self._run()
            elif kind == ID_WINDOW_SIZE and not self.stdin:
                self._run()  # stdin is a terminal: no EOF will come


class _ShellV1Interactive(_Service):
    """`shell:` with no command: the REPL, output merged, no exit code."""

    def start(self) -> None:
        self.repl = _Repl(self.host, True, None, lambda _kind, data: self.stream.write(data),
                          lambda _status: self.stream.finish(), self.stream.cancelled)
        self.repl.start()

    def on_data(self, data: bytes) -> None:
        self.repl.feed(data)

    def held(self) -> int:
        return len(self.repl.line)


class _Sync(_Service):
    """`sync:`: STAT/LIST/SEND/RECV/QUIT and STA2/LST2/LIS2 (§4)."""

    def __init__(self, stream: _Stream, host: _DeviceHost):
        super().__init__(stream, host)
        self.decoder = SyncDecoder()
        self.send: _PendingSend | None = None
        self.ended = False

    def on_data(self, data: bytes) -> None:
        if self.ended:
            return
        try:
            for frame in self.decoder.feed(data):
                self._handle(frame)
                if self.ended:
                    return
        except SyncError as exc:
            self._fail(str(exc))
        except OSError as exc:  # a host-side failure (a name too long...): FAIL, as adbd does
            self._fail(f"{os.strerror(exc.errno)}" if exc.errno else str(exc))
        except limits.LimitExceeded:  # the host closed the stream during a RECV
            self._end()

    def held(self) -> int:
        return self.decoder.buffered

    def _fail(self, message: str) -> None:
        self.stream.write(sync_fail(message))
        self._end()

    def _end(self) -> None:
        self.ended = True
        if self.send is not None:
            self.send.discard()
            self.send = None
        self.stream.finish()

    def on_close(self) -> None:
        if self.send is not None:
            self.send.discard()
            self.send = None

    def _handle(self, frame: SyncFrame) -> None:
        if self.send is not None:
            self._send_frame(frame)
            return
        ident, path = frame.id, _decode_text(frame.payload)
        if ident == b"QUIT":
            self._end()
        elif ident == b"STAT":
            with self.host.lock:
                st = self.host.path_stat(path, follow=False)
            self.stream.write(stat_v1(st))
        elif ident in (b"STA2", b"LST2"):
            with self.host.lock:
                st = self.host.path_stat(path, follow=ident == b"STA2")
            self.stream.write(stat_v2(ident, st, 0 if st else 2))  # ENOENT
        elif ident in (b"LIST", b"LIS2"):
            self.stream.write(self._listing(path, v2=ident == b"LIS2"))
        elif ident == b"RECV":
            self._recv(path)
        elif ident == b"SEND":
            device_path, mode = parse_send_spec(path)
            if stat_mod.S_ISLNK(mode):
                raise SyncError("symlinks are not supported by the simulator")
            self.send = _PendingSend(self.host, device_path, mode)
        else:
            raise SyncError(f"unknown command {ident!r}")

    def _listing(self, path: str, v2: bool) -> bytes:
        with self.host.lock:
            try:
                directory = self.host.host_path(path)
                names = sorted(os.listdir(directory))
            except OSError:
                names = None
            parts = []
            if names is not None:
                # `.` and `..` come first, as readdir gives them; `/..` is `/` itself
                parent = directory if directory == self.host.state.fs_root else directory.parent
                targets = {".": directory, "..": parent}
                for name in [".", "..", *names]:
                    st = self.host.file_stat(targets.get(name, directory / name), follow=False)
                    if st is not None:
                        raw = os.fsencode(name)
                        parts.append(dent_v2(raw, st) if v2 else dent_v1(raw, st))
        parts.append(LIST_DONE_V2 if v2 else LIST_DONE_V1)
        return b"".join(parts)

    def _recv(self, path: str) -> None:
        """The file as DATA frames, read one frame at a time under flow control (never whole)."""
        with self.host.lock:
            try:
                source = open(self.host.host_path(path), "rb")  # noqa: SIM115 (closed below)
            except IsADirectoryError:
                raise SyncError("open failed: Is a directory") from None
            except OSError as exc:
                raise SyncError(f"open failed: {os.strerror(exc.errno or 2)}") from None
        with source:
            while chunk := source.read(SYNC_DATA_MAX):
                self.stream.write(_SYNC_HEAD.pack(b"DATA", len(chunk)) + chunk)
                self.stream.wait_for_room()
        self.stream.write(RECV_DONE)

    def _send_frame(self, frame: SyncFrame) -> None:
        send = self.send
        assert send is not None
        if frame.id == b"DATA":
            send.add(frame.payload)
        elif frame.id == b"DONE":
            self.send = None
            error = send.commit(frame.value)
            if error is not None:
                raise SyncError(error)
            self.stream.write(SYNC_OKAY)
        else:
            raise SyncError(f"unexpected {frame.id!r} during SEND")


class _PendingSend:
    """A file being received: staged in the state directory (STAGING, outside the device's
    filesystem; the first SEND_SPOOL_MEMORY bytes in memory), its bytes charged to the device's
    storage as they arrive (ENOSPC as soon as they do not fit), written at DONE under the lock."""

    def __init__(self, host: _DeviceHost, path: str, mode: int):
        self.host = host
        self.path = path
        self.mode = mode
        staging = host.root / STAGING
        staging.mkdir(exist_ok=True)
        self.spool = tempfile.SpooledTemporaryFile(max_size=SEND_SPOOL_MEMORY, dir=staging)
        self.storage = storage.of(host.state)
        self.reserved = 0

    def add(self, data: bytes) -> None:
        """Stage `data`; SyncError `write failed: No space left on device` (adbd's) if it does not fit."""
        try:
            self.storage.reserve(len(data), self.path)
        except OSError as exc:
            raise SyncError(f"write failed: {os.strerror(exc.errno or errno.ENOSPC)}") from None
        self.reserved += len(data)
        self.spool.write(data)

    def discard(self) -> None:
        self.spool.close()
        self.storage.release(self.reserved)
        self.reserved = 0

    def commit(self, mtime: int) -> str | None:
        """Write the file; None on success, else the FAIL message (adbd's wording)."""
        try:
            with self.host.lock, self.storage.lock:
                return self._write(mtime or self.host.state.clock_epoch)
        except OSError as exc:  # a host-side failure anywhere (a name too long...)
            return f"couldn't create file: {os.strerror(exc.errno or 5)}"
        finally:
            self.discard()

    def _write(self, mtime: int) -> str | None:
        try:
            target = self.host.host_path(self.path)
        except OSError as exc:
            return f"couldn't create file: {os.strerror(exc.errno or 5)}"
        if target.is_dir():
            return "couldn't create file: Is a directory"
        is_new = not target.exists()
        created = []
        ancestor = target.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            created.append(ancestor)
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            return "secure_mkdirs failed: Not a directory"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".adbd-")
            try:
                self.spool.seek(0)
                with os.fdopen(fd, "wb") as out:
                    while chunk := self.spool.read(1 << 20):
                        out.write(chunk)
                os.chmod(tmp, send_permissions(self.mode) | 0o600)
                os.utime(tmp, (mtime, mtime))
                old = target.stat().st_size if target.is_file() else 0
                os.replace(tmp, target)
                self.storage.account(target.stat().st_size - old)  # the staged bytes are the file's now
                self.storage.release(self.reserved)
                self.reserved = 0
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            return f"couldn't create file: {os.strerror(exc.errno or 5)}"
        # a directory's mtime moves when an entry is added: the new ones and their parent
        clock = self.host.state.clock_epoch
        for path in [*created, *([ancestor] if created or is_new else [])]:
            os.utime(path, (clock, clock))
        return None


class _Restart(_Service):
    """`root:`, `unroot:`, `reboot:`: answer, and drop the connection if adbd 'restarts'."""

    def __init__(self, stream: _Stream, host: _DeviceHost, service: str):
        super().__init__(stream, host)
        self.service = service

    def start(self) -> None:
        name = self.service.partition(":")[0]
        if name == "reboot":
            self.stream.finish(drop_connection=True)
            return
        want_root = name == "root"
        if self.host.set_root(want_root):
            self.stream.conn.restarting = True
            message = "restarting adbd as root\n" if want_root else "restarting adbd as non root\n"
            self.stream.write(message.encode())
            self.stream.finish(drop_connection=True)
        else:
            message = "adbd is already running as root\n" if want_root else "adbd not running as root\n"
            self.stream.write(message.encode())
            self.stream.finish()


def make_service(service: str, stream: _Stream, host: _DeviceHost) -> _Service | None:
    """The service a host OPEN names, or None (refused with CLSE(0, id))."""
    if service.startswith("shell:") or service.startswith("shell,"):
        request = ShellRequest.parse(service)
        if request.v2:
            return _ShellV2(stream, host, request)
        if not request.command:
            return _ShellV1Interactive(stream, host)
        return _RawShell(stream, host, request.command, request.term, request.pty)
    if service.startswith("exec:"):
        return _RawShell(stream, host, service[len("exec:"):])
    if service == "sync:":
        return _Sync(stream, host)
    if service in ("root:", "unroot:") or service.startswith("reboot:"):
        return _Restart(stream, host, service)
    name = service.partition(":")[0]
    if name in UNSUPPORTED_SERVICES:
        return _Unsupported(stream, host, service)
    return None


# adbd services the simulated device does not offer; each answers with a message saying so.
UNSUPPORTED_SERVICES = frozenset({"reverse", "tcpip", "usb", "remount", "enable-verity", "disable-verity",
                                  "framebuffer", "jdwp", "track-jdwp", "track-app", "backup", "restore",
                                  "abb", "abb_exec", "sideload", "sideload-host", "spin", "dev", "tcp", "local",
                                  "localreserved", "localabstract", "localfilesystem", "sink", "source"})


class _Unsupported(_Service):
    """A real adbd service the simulator does not have: say so instead of dropping the stream.

    `reverse:` speaks the smart-socket framing, in the form its client call reads (AOSP
    client/adb_client.cpp): `reverse:list-forward` is read with `adb_query` as one hex4-length
    string, which `adb reverse --list` prints; every other `reverse:` command is read with
    `adb_command` as an OKAY/FAIL status, whose FAIL message the client prints. The other
    services print their message as their output, as adbd's text services do.
    """

    def __init__(self, stream: _Stream, host: _DeviceHost, service: str):
        super().__init__(stream, host)
        self.service = service
        self.name = service.partition(":")[0]

    def start(self) -> None:
        message = f"the simulated device does not support adb {self.name} (taskkit.sim)"
        if self.service == "reverse:list-forward":
            self.stream.write(_protocol_string(message))  # the client adds the newline
        elif self.name == "reverse":
            self.stream.write(b"FAIL" + _protocol_string(message))
        else:
            self.stream.write((message + "\n").encode())
        self.stream.finish()


def _protocol_string(text: str) -> bytes:
    """A smart-socket string: 4 hex digits of length, then the bytes."""
    data = text.encode("utf-8")
    return f"{len(data):04x}".encode() + data


# --- statistics -------------------------------------------------------------------------------
@dataclasses.dataclass
class AdbdStats:
    """Counters of one server, thread-safe, resettable (`snapshot()` for a consistent copy).

    `buffered_peak` is the most bytes the server's streams held from their hosts at once.
    """

    bytes_received: int = 0
    bytes_sent: int = 0
    messages_received: int = 0
    messages_sent: int = 0
    streams_opened: int = 0
    streams_refused: int = 0
    streams_reset: int = 0
    connections: int = 0
    connections_refused: int = 0
    handshake_timeouts: int = 0
    buffered_peak: int = 0
    _lock: threading.Lock = dataclasses.field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def peak(self, name: str, value: int) -> None:
        """Raise counter `name` to `value` if it is below."""
        with self._lock:
            setattr(self, name, max(getattr(self, name), value))

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "_lock"}

    def reset(self) -> None:
        with self._lock:
            for f in dataclasses.fields(self):
                if f.name != "_lock":
                    setattr(self, f.name, 0)


class _Buffered:
    """The bytes all of a server's streams hold from their hosts, against `limit`."""

    def __init__(self, limit: int, stats: AdbdStats):
        self.limit = limit
        self.total = 0
        self._stats = stats
        self._lock = threading.Lock()

    def take(self, count: int) -> bool:
        """Charge `count` more bytes; False (nothing charged) if that would pass the limit."""
        with self._lock:
            if self.total + count > self.limit:
                return False
            self.total += count
            self._stats.peak("buffered_peak", self.total)
            return True

    def change(self, delta: int) -> None:
        """Charge (or release, negative) `delta` bytes already held."""
        with self._lock:
            self.total += delta
            self._stats.peak("buffered_peak", self.total)


# --- one TCP connection -----------------------------------------------------------------------
class _DropConnection(Exception):
    """Close the TCP connection (adbd 'restarting')."""


class _LinkBroken(Exception):
    """The TCP connection failed while sending (not an OSError: those are a service's own)."""


class _Connection:
    """One host connection, driven by the server's I/O thread: what arrives is decoded and
    handled at once (never waiting for a service); each stream's service runs on the server's
    worker pool. Sends never block: what the socket does not take waits in `backlog` until it is
    writable. Before the handshake completes the connection holds only its partial message
    (at most MAX_PAYLOAD_V1 bytes of payload) and a handshake timer."""

    def __init__(self, sock: socket.socket, server: "AdbdServer", address: str):
        self.sock = sock
        self.server = server
        self.host = server._device  # noqa: SLF001 (its owner)
        self.stats = server.stats
        self.keys = server._keys  # noqa: SLF001 (None: no authentication, a loopback server)
        self.address = address
        self.token: bytes | None = None
        self.online = False
        self.version = A_VERSION_MIN
        self.max_data = MAX_PAYLOAD_V1
        self.streams: dict[int, _Stream] = {}
        self._next_id = 1
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self._inbuf = bytearray()
        self.backlog = bytearray()  # sent bytes the socket has not taken yet
        self.closing = False  # to be closed by the I/O thread
        #: adbd is 'restarting' (root:, unroot:): as a real adbd that has exited, it opens no new
        #: stream, so no command answers under the new identity before the link is dropped.
        self.restarting = False
        self.registered = 0  # the selector events the I/O thread watches for it
        self.handshake: Timer | None = None  # pending: the connection must be online by then

    # -- I/O (the server's I/O thread) --
    def on_readable(self) -> None:
        """Read what the socket has and handle every complete message."""
        data = self.sock.recv(_RECV_CHUNK)
        if not data:
            raise ConnectionError("peer closed")
        self.stats.add(bytes_received=len(data))
        self._inbuf += data
        while len(self._inbuf) >= HEADER.size and not self.closing:
            limit = MAX_PAYLOAD if self.online else MAX_PAYLOAD_V1
            command, arg0, arg1, length = decode_header(bytes(self._inbuf[:HEADER.size]), limit)
            end = HEADER.size + length
            if len(self._inbuf) < end:
                return
            message = Message(command, arg0, arg1, bytes(self._inbuf[HEADER.size:end]))
            del self._inbuf[:end]
            self.stats.add(messages_received=1)
            with self.lock:
                self.handle(message)

    def flush(self) -> None:
        """Send what waits in `backlog`, as far as the socket takes it."""
        with self.lock:
            if self.backlog:
                try:
                    sent = self.sock.send(self.backlog)
                except (BlockingIOError, InterruptedError):
                    return
                del self.backlog[:sent]

    def events(self) -> int:
        """The selector events to watch: read unless closing or too much waits to be sent; write
        if anything waits (0: a closing connection with nothing left to send)."""
        with self.lock:
            wanted = selectors.EVENT_READ if not self.closing and len(self.backlog) <= MAX_SEND_BACKLOG else 0
            return wanted | (selectors.EVENT_WRITE if self.backlog else 0)

    def request_close(self) -> None:
        """End the connection once what is queued is sent (any thread; the I/O thread closes it,
        at the latest after the handshake timeout)."""
        with self.lock:
            if self.closing:
                return
            self.closing = True
        self.server.linger(self)

    def close(self) -> None:
        """Forget every stream (their commands stop) and close the socket (I/O thread)."""
        with self.lock:
            self.closing = True
            for stream in list(self.streams.values()):
                self._forget(stream, notify=True)
            self.backlog.clear()
            self.sock.close()

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        raw = Message(command, arg0, arg1, data).encode(checksum=self.version < A_VERSION)
        self._send_raw(raw)

    def _send_raw(self, raw: bytes) -> None:
        """Send `raw` now as far as the socket takes it; the rest waits for the I/O thread."""
        size = len(raw)
        with self.lock:
            if self.closing:
                raise _LinkBroken("the connection is closing")
            if not self.backlog:
                try:
                    sent = self.sock.send(raw)
                except (BlockingIOError, InterruptedError):
                    sent = 0
                except OSError as error:
                    raise _LinkBroken(str(error)) from error
                raw = raw[sent:]
            waiting = bool(raw)
            self.backlog += raw
        self.stats.add(bytes_sent=size, messages_sent=1)
        if waiting:
            self.server.touch(self)

    # -- messages --
    def handle(self, msg: Message) -> None:
        """One message from the host (called with `lock` held; never blocks on a service)."""
        if msg.command == A_CNXN:
            self._connect(msg)
        elif msg.command == A_AUTH:
            self._auth(msg)
        elif not self.online:
            return  # everything before the handshake is ignored
        elif msg.command == A_OPEN:
            self._open(msg)
        elif msg.command == A_OKAY:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0:
                stream.awaiting_ack = False
                self.pump(stream)
                self.cond.notify_all()
        elif msg.command == A_WRTE:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0 and stream.service is not None:
                self._receive(stream, msg.data)
        elif msg.command == A_CLSE:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0:
                self._forget(stream, notify=True)

    def _receive(self, stream: _Stream, data: bytes) -> None:
        """A host WRTE. Without delayed_ack a host sends a stream's next WRTE only after the OKAY
        for the previous one (adb protocol.txt; reference §2), so at most one waits for the
        stream's worker: a second one, or one the server has no room for, resets the stream."""
        if stream.pending or not self.server.buffered.take(len(data) or 1):
            self.reset(stream)
            return
        stream.pending = len(data) or 1
        stream.submit(self._deliver, stream, data)

    def _deliver(self, stream: _Stream, data: bytes) -> None:
        """(worker) Acknowledge the host's data when the worker takes it (so a host waits while a
        command runs), hand it to the service, then charge what the service keeps of it."""
        with self.lock:
            if stream.closed or stream.service is None:
                return
            self.server.buffered.change(-stream.pending)
            stream.pending = 0
            self.send(A_OKAY, stream.local_id, stream.remote_id)
        stream.service.on_data(data)
        held = stream.service.held()
        with self.lock:
            if stream.closed:
                return
            self.server.buffered.change(held - stream.kept)
            stream.kept = held
        if held > self.server.limits.max_stream_buffer:
            stream.service.overflow()

    def reset(self, stream: _Stream) -> None:
        """Close `stream` at once, its pending work dropped (a host that broke flow control,
        a service past its bounds)."""
        with self.lock:
            if stream.closed:
                return
            self.stats.add(streams_reset=1)
            self._forget(stream, notify=True)
            self.send(A_CLSE, stream.local_id, stream.remote_id)

    def _connect(self, msg: Message) -> None:
        with self.lock:
            for stream in list(self.streams.values()):
                self._forget(stream, notify=True)
        self.online = False
        self.version = min(msg.arg0, A_VERSION) if msg.arg0 >= A_VERSION_MIN else A_VERSION_MIN
        self.max_data = max(1, min(msg.arg1 or MAX_PAYLOAD_V1, MAX_PAYLOAD))
        if self.keys is None:
            self._online()
        else:  # adbd: answer with a token to sign (auth.cpp, send_auth_request)
            self.server.expect_handshake(self)
            self._send_token()

    def _send_token(self) -> None:
        self.token = adb_auth.new_token()
        self.send(A_AUTH, adb_auth.AUTH_TOKEN, 0, self.token)

    def _auth(self, msg: Message) -> None:
        if self.keys is None or self.online or self.token is None:
            return
        if msg.arg0 == adb_auth.AUTH_SIGNATURE:
            if adb_auth.authorized(self.keys, self.token, msg.data):
                self.token = None
                self._online()
            else:
                self._send_token()  # the host tries its next key, then offers its public key
        # AUTH_RSAPUBLICKEY: a phone would ask its user; with no one to ask, a key that is not
        # in adb_keys stays unauthorized (no answer, as while the dialog is open).

    def _online(self) -> None:
        props = {k: self.host.prop(k) for k in ("ro.product.name", "ro.product.model", "ro.product.device")}
        self._send_raw(Message(A_CNXN, A_VERSION, MAX_PAYLOAD, banner(props)).encode(checksum=True))
        self.online = True

    def _open(self, msg: Message) -> None:
        remote_id = msg.arg0
        if remote_id == 0:
            return
        service_name = _decode_text(msg.data.rstrip(b"\x00"))
        service = None
        if msg.arg1 == 0 and len(self.streams) < self.server.limits.max_streams and not self.restarting:
            stream = _Stream(self, self._next_id, remote_id)
            service = make_service(service_name, stream, self.host)
        if service is None:
            self.stats.add(streams_refused=1)
            self.send(A_CLSE, 0, remote_id)
            return
        self._next_id = self._next_id + 1 if self._next_id < 0x7FFFFFFF else 1
        stream.service = service
        self.streams[stream.local_id] = stream
        self.stats.add(streams_opened=1)
        self.send(A_OKAY, stream.local_id, remote_id)
        stream.submit(service.start)

    def run_guarded(self, stream: _Stream, func: Callable[..., None], *args: object) -> None:
        """Run a service callback (on a worker); a bug in it closes that stream, never the server,
        and a restart request ends the connection. A closed stream runs only its `on_close`."""
        if stream.closed and (stream.service is None or func != stream.service.on_close):
            return
        try:
            func(*args)
        except (_DropConnection, _LinkBroken, ProtocolError):
            self.request_close()
        except Exception:  # OSError included: a host file problem is the stream's, not the link's
            _log.exception("adbd: service %s failed", type(stream.service).__name__)
            with self.lock:
                if not stream.closed:
                    stream.outbuf.clear()
                    try:
                        stream.finish()
                    except (_DropConnection, _LinkBroken):
                        self.request_close()

    def pump(self, stream: _Stream) -> None:
        """Send the next WRTE if none is unacknowledged; CLSE once drained and finishing."""
        with self.lock:
            if stream.closed or stream.awaiting_ack:
                return
            if stream.outbuf:
                chunk = bytes(stream.outbuf[:self.max_data])
                del stream.outbuf[:len(chunk)]
                stream.awaiting_ack = True
                self.send(A_WRTE, stream.local_id, stream.remote_id, chunk)
                self.cond.notify_all()
            elif stream.finishing:
                self.send(A_CLSE, stream.local_id, stream.remote_id)
                self._forget(stream, notify=False)
                if stream.drop_after:
                    raise _DropConnection()

    def _forget(self, stream: _Stream, notify: bool) -> None:
        with self.lock:
            if stream.closed:
                return
            stream.closed = True
            stream.cancelled.set()
            stream.cancel_timer()
            stream.discard_tasks()
            self.server.buffered.change(-(stream.pending + stream.kept))
            stream.pending = stream.kept = 0
            self.streams.pop(stream.local_id, None)
            self.cond.notify_all()
            if notify and stream.service is not None:
                stream.submit(stream.service.on_close)


# --- the server -------------------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """Whether `host` (a name or address) only accepts connections from this machine."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


class AdbdServer:
    """Serve the simulated device stored in `state_dir` on the adb device protocol.

    `start()` listens and serves in a background thread (port 0 picks a free port, read it from
    `.port`); `serve_forever()` serves in the calling thread; `stop()` ends either. One I/O
    thread reads and writes every socket; services run on a pool of at most
    `limits.service_workers` threads, each command within `command_timeout` seconds and
    `max_output` bytes; `limits` (AdbdLimits) bounds connections, streams and buffered bytes,
    and what is past a bound is refused without taking the server down. A non-loopback `host`
    (or `require_auth`) needs the RSA keys of `adb_keys`. `stats` counts the bytes and messages
    on the TCP links, the streams and connections opened and refused.
    """

    def __init__(self, state_dir: str | os.PathLike[str], host: str = "127.0.0.1", port: int = 5555, *,
                 adb_keys: str | os.PathLike[str] | None = None, require_auth: bool | None = None,
                 command_timeout: float | None = DEFAULT_COMMAND_TIMEOUT, max_output: int = DEFAULT_MAX_OUTPUT,
                 limits: AdbdLimits | None = None):
        if require_auth is None:
            require_auth = not is_loopback(host)
        if require_auth and adb_keys is None:
            raise ValueError(f"serving on {host} (not loopback) needs adb's RSA authentication: "
                             "pass the public keys allowed to connect (--adb_keys FILE, e.g. ~/.android/adbkey.pub)")
        self._keys = adb_auth.load_keys(adb_keys) if require_auth and adb_keys is not None else None
        self._device = _DeviceHost(state_dir, command_timeout, max_output)
        self.host = host
        self.port = port
        self.limits = limits or AdbdLimits()
        self.stats = AdbdStats()
        self.buffered = _Buffered(self.limits.max_buffered, self.stats)
        self.pool = WorkerPool(self.limits.service_workers, "adbd", lambda func, args: func(*args))
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_w.setblocking(False)
        self.timers = Timers(self._wake)
        self._serving_thread: threading.Thread | None = None
        self._signal_fd: int | None = None  # the signal wakeup fd to put back when serving ends (`serve_forever`)
        self._selector: selectors.BaseSelector | None = None
        self._conns: set[_Connection] = set()  # the I/O thread's
        self._per_client: collections.Counter[str] = collections.Counter()
        self._touched: set[_Connection] = set()
        self._touched_lock = threading.Lock()

    @property
    def device(self) -> SimDevice:
        """The simulated device served (use it only while no client is busy)."""
        return self._device.device

    @property
    def serial(self) -> str:
        """The serial the adb server gives this device after `adb connect`."""
        return f"{self.host}:{self.port}"

    def listen(self) -> None:
        """Bind and listen now (idempotent); `.port` is then the real port."""
        if self._listener is not None:
            return
        listener = socket.create_server((self.host, self.port), reuse_port=False)
        listener.setblocking(False)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self.pool.name = f"adbd:{self.port}"

    def start(self) -> "AdbdServer":
        """Listen, serve in a background thread, return once connections are accepted."""
        if self._serving_thread is not None:
            return self
        self.listen()
        thread = threading.Thread(target=self._serve_loop, name=f"adbd:{self.port}", daemon=True)
        self._serving_thread = thread
        thread.start()
        return self

    def serve_forever(self, wake_on_signals: bool = False) -> None:
        """Listen (if not yet) and serve in this thread until `stop()`.

        `wake_on_signals` (the main thread only): a signal wakes the loop whichever thread the
        kernel hands it to (`signal.set_wakeup_fd` on the wake socket), so that its Python
        handler, which only the main thread runs, runs at once. Without it a SIGTERM taken by a
        worker thread left the loop asleep until the next connection. Stopped before it serves
        (by a signal handler in this thread, say, just after the handler is set), it returns."""
        self._serving_thread = threading.current_thread()  # (from now on `stop()` leaves the closing to the loop)
        if self._wake_r.fileno() < 0:  # `stop()` came first and closed the sockets
            return
        self.listen()
        if wake_on_signals:
            self._signal_fd = signal.set_wakeup_fd(self._wake_w.fileno(), warn_on_full_buffer=False)
        self._serve_loop()

    def stop(self) -> None:
        """Stop accepting, drop every connection, wait for the serving thread (unless it is us)."""
        self._stop.set()
        self._wake()
        serving = self._serving_thread
        if serving is not None and serving is not threading.current_thread():
            serving.join(timeout=10)
        elif serving is None:
            if self._listener is not None:
                self._listener.close()
            self._wake_r.close()
            self._wake_w.close()

    def __enter__(self) -> "AdbdServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- called from any thread --
    def touch(self, conn: _Connection) -> None:
        """Have the I/O thread look at `conn` again (it has bytes to send, or is closing)."""
        with self._touched_lock:
            self._touched.add(conn)
        self._wake()

    def expect_handshake(self, conn: _Connection) -> None:
        """Drop `conn` unless it is online within the handshake timeout (one timer at a time,
        however many CNXNs it sends)."""
        if conn.handshake is None:
            conn.handshake = self.timers.call_later(self.limits.handshake_timeout, lambda: self._handshake_due(conn))

    def linger(self, conn: _Connection) -> None:
        """Close closing `conn` once its queued bytes are sent, or after the handshake timeout."""
        self.timers.call_later(self.limits.handshake_timeout, lambda: self._close(conn))
        self.touch(conn)

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"x")
        except OSError:  # full (a wake-up is pending anyway) or closed (stopping)
            pass

    # -- the I/O thread --
    def _serve_loop(self) -> None:
        assert self._listener is not None
        selector = self._selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ, "accept")
        selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        try:
            while not self._stop.is_set():
                for key, events in selector.select(self.timers.timeout()):
                    if key.data == "accept":
                        self._accept()
                    elif key.data == "wake":
                        self._wake_r.recv(4096)
                    else:
                        self._serve_connection(key.data, events)
                self.timers.run_due()
                with self._touched_lock:
                    touched, self._touched = self._touched, set()
                for conn in touched:
                    self._refresh(conn)
        finally:
            if self._signal_fd is not None:  # (before the socket goes: its number may be reused)
                signal.set_wakeup_fd(self._signal_fd)
                self._signal_fd = None
            self.pool.stop()
            for conn in list(self._conns):
                self._close(conn)
            selector.close()
            self._listener.close()
            self._wake_r.close()
            self._wake_w.close()

    def _accept(self) -> None:
        """Take every waiting connection; one past a bound is closed at once."""
        assert self._listener is not None
        for _ in range(self.limits.max_connections + 1):
            try:
                sock, address = self._listener.accept()
            except OSError:  # none waiting (BlockingIOError), or out of descriptors: later
                return
            client = address[0]
            if len(self._conns) >= self.limits.max_connections or \
                    self._per_client[client] >= self.limits.max_client_connections:
                self.stats.add(connections_refused=1)
                sock.close()
                continue
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = _Connection(sock, self, client)
            self._conns.add(conn)
            self._per_client[client] += 1
            conn.registered = selectors.EVENT_READ
            assert self._selector is not None
            self._selector.register(sock, selectors.EVENT_READ, conn)
            self.stats.add(connections=1)
            self.expect_handshake(conn)

    def _serve_connection(self, conn: _Connection, events: int) -> None:
        """Read and write one connection; any failure closes it, never the server."""
        if conn not in self._conns:  # closed by an earlier event of this round
            return
        try:
            if events & selectors.EVENT_WRITE:
                conn.flush()
            if events & selectors.EVENT_READ:
                conn.on_readable()
        except (BlockingIOError, InterruptedError):
            pass
        except _DropConnection:  # adbd restarting: what is queued (the last CLSE) still goes out
            conn.request_close()
        except (ProtocolError, ShellProtocolError, _LinkBroken, ConnectionError, OSError):
            self._close(conn)
            return
        except Exception:  # a bug must not take the server down
            _log.exception("adbd: connection from %s failed", conn.address)
            self._close(conn)
            return
        self._refresh(conn)

    def _refresh(self, conn: _Connection) -> None:
        """Watch `conn` for what it needs now, or close it."""
        if conn not in self._conns:
            return
        events = conn.events()
        if not events:
            self._close(conn)
            return
        if events != conn.registered:
            assert self._selector is not None
            self._selector.modify(conn.sock, events, conn)
            conn.registered = events

    def _handshake_due(self, conn: _Connection) -> None:
        conn.handshake = None
        if conn in self._conns and not conn.online:
            self.stats.add(handshake_timeouts=1)
            self._close(conn)

    def _close(self, conn: _Connection) -> None:
        if conn not in self._conns:
            return
        self._conns.discard(conn)
        self._per_client[conn.address] -= 1
        if not self._per_client[conn.address]:
            del self._per_client[conn.address]
        if self._selector is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(conn.sock)
        conn.close()
