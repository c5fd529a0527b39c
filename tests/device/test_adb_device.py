"""AdbDevice: the shell-v2 parser, error mapping against a scripted adb server, and the real
`adb` server talking to the simulator's adbd (skipped when /usr/bin/adb or the adbd is absent)."""
from __future__ import annotations

import contextlib
import hashlib
import os
import random
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Mapping

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit import connect
from taskkit.device import adb as adb_module
from taskkit.device.adb import (
    EXIT, STDERR, STDOUT, AdbDevice, DeviceSelectionError, RootUnavailable, ShellV2Decoder, ShellV2Error,
    shell_v2_packet,
)
from taskkit.device.base import DeviceError
from taskkit.device.quoting import shell_quote
from taskkit.ports import PortTaken, free_port, on_free_port

ADB = "/usr/bin/adb"
# A query that never ends on its own (the simulator stops it at its command time limit).
ENDLESS_QUERY = ("sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                 "SELECT count(*) FROM c;'")

# --- the shell v2 packet parser ---------------------------------------------------------------
packets = st.lists(st.tuples(st.sampled_from([STDOUT, STDERR, 0, 5, 9]), st.binary(max_size=300)), max_size=8)


@given(packets, st.integers(0, 255), st.lists(st.integers(1, 40), min_size=1, max_size=30), st.binary(max_size=20))
def test_v2_parser_reassembles_packets_split_anywhere(body, exit_code, cuts, trailing):
    stream = b"".join(shell_v2_packet(kind, data) for kind, data in body)
    stream += shell_v2_packet(EXIT, bytes([exit_code])) + trailing
    decoder = ShellV2Decoder()
    position = 0
    for size in cuts * (len(stream) // sum(cuts) + 1):
        assert not decoder.done or position >= len(stream) - len(trailing)
        decoder.feed(stream[position:position + size])
        position += size
    assert decoder.done and decoder.exit_code == exit_code
    assert bytes(decoder.stdout) == b"".join(data for kind, data in body if kind == STDOUT)
    assert bytes(decoder.stderr) == b"".join(data for kind, data in body if kind == STDERR)


@given(packets)
def test_v2_parser_is_not_done_without_the_exit_packet(body):
    decoder = ShellV2Decoder()
    stream = b"".join(shell_v2_packet(kind, data) for kind, data in body)
    decoder.feed(stream + shell_v2_packet(EXIT, b"\x07")[:-1])  # exit packet one byte short
    assert not decoder.done


def test_v2_parser_refuses_an_empty_exit_packet():
    with pytest.raises(ShellV2Error, match="exit"):
        ShellV2Decoder().feed(shell_v2_packet(EXIT, b""))


# --- a scripted adb server: the host side of the smart-socket protocol ---------------------------
Service = Callable[[str], "bytes | None"]


def _block(text: str | bytes) -> bytes:
    data = text.encode() if isinstance(text, str) else text
    return b"%04x" % len(data) + data


def host_sh(request: str) -> bytes | None:
    """Answer shell services with the host's `sh`, framed as the device would."""
    if request.startswith("shell,v2,raw:"):
        done = subprocess.run(["sh", "-c", request.split(":", 1)[1]], capture_output=True, timeout=10)
        return (shell_v2_packet(STDOUT, done.stdout) + shell_v2_packet(STDERR, done.stderr)
                + shell_v2_packet(EXIT, bytes([done.returncode & 0xFF])))
    if request.startswith("shell:"):
        done = subprocess.run(["sh", "-c", request.split(":", 1)[1]], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=10)
        return done.stdout
    return None


class FakeAdbServer:
    """An adb server on loopback with scripted devices; `service` answers device services
    (None: OKAY, then silence). Requests are recorded in `requests`."""

    def __init__(self, devices: dict[str, str], features: str = "shell_v2,fixed_push_mkdir", service: Service = host_sh):
        self.devices, self.features, self.service = devices, features, service
        self.requests: list[str] = []
        self.reachable: set[str] = set()  # HOST:PORT serials that host:connect brings online
        self.connections: list[socket.socket] = []
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() in the serving thread
        self._listener.close()

    def kill(self) -> None:
        """Die as a killed server does: every open connection drops."""
        self.close()
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while not self._stop.is_set():
                connection, _ = self._listener.accept()
                self.connections.append(connection)
                threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    @staticmethod
    def _read_exact(connection: socket.socket, n: int) -> bytes | None:
        data = b""
        while len(data) < n:
            chunk = connection.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def _serve(self, connection: socket.socket) -> None:
        with connection, contextlib.suppress(OSError):
            while (header := self._read_exact(connection, 4)) is not None:
                request = (self._read_exact(connection, int(header, 16)) or b"").decode()
                self.requests.append(request)
                reply = self._answer(request)
                if reply is None:  # a device service that accepts and then never answers
                    connection.sendall(b"OKAY")
                    self._stop.wait(10)
                    return
                connection.sendall(reply)
                if not request.startswith("host:tport:"):
                    return  # one request per connection, except binding to a device

    def _answer(self, request: str) -> bytes | None:
        if request == "host:version":
            return b"OKAY" + _block("0029")
        if request == "host:devices":
            return b"OKAY" + _block("".join(f"{s}\t{state}\n" for s, state in self.devices.items()))
        if request.startswith("host-serial:") and request.endswith(":features"):
            return b"OKAY" + _block(self.features)
        if request.startswith("host:tport:serial:"):
            serial = request[len("host:tport:serial:"):]
            if self.devices.get(serial) != "device":
                return b"FAIL" + _block(f"device '{serial}' not found")
            return b"OKAY" + (1).to_bytes(8, "little")
        if request.startswith("host:connect:"):
            address = request[len("host:connect:"):]
            if address in self.reachable:
                self.devices[address] = "device"
                return b"OKAY" + _block(f"connected to {address}")
            return b"OKAY" + _block(f"failed to connect to '{address}': Connection refused")
        answer = self.service(request)
        return None if answer is None else b"OKAY" + answer


@pytest.fixture
def fake() -> Iterator[Callable[..., FakeAdbServer]]:
    servers: list[FakeAdbServer] = []

    def make(devices: dict[str, str] | None = None, **kwargs) -> FakeAdbServer:
        servers.append(FakeAdbServer({"emu-1": "device"} if devices is None else devices, **kwargs))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def test_v2_shell_keeps_stdout_stderr_and_exit_code_apart(fake):
    server = fake()
    device = AdbDevice(port=server.port, timeout=10)
    assert device.serial == "emu-1" and device.shell_v2
    assert device.shell("echo out; echo err >&2; exit 3") == device.shell("echo out; echo err >&2; exit 3")
    result = device.shell("echo out; echo err >&2; exit 3")
    assert (result.stdout, result.stderr, result.exit_code) == ("out\n", "err\n", 3)
    assert "shell,v2,raw:echo out; echo err >&2; exit 3" in server.requests


def test_v1_fallback_reads_the_exit_code_from_a_marker(fake):
    server = fake(features="fixed_push_mkdir")
    device = AdbDevice(port=server.port, timeout=10)
    assert not device.shell_v2
    assert device.shell("printf 'no newline'; exit 7").exit_code == 7
    assert device.shell("printf 'no newline'; exit 7").stdout == "no newline"
    result = device.shell("echo out; echo err >&2 # a trailing comment")
    assert (result.stdout, result.stderr, result.exit_code) == ("out\nerr\n", "", 0)  # merged in v1
    assert all(not r.startswith("shell,v2") for r in server.requests)


def test_device_selection_names_the_serials_found(fake):
    with pytest.raises(DeviceSelectionError, match=r"no device is attached .*found: none"):
        AdbDevice(port=fake({}).port)
    several = fake({"emu-1": "device", "emu-2": "device"})
    with pytest.raises(DeviceSelectionError, match=r"several devices .*emu-1 \(device\), emu-2 \(device\).*adb:SERIAL"):
        AdbDevice(port=several.port)
    assert AdbDevice("emu-2", port=several.port).serial == "emu-2"
    with pytest.raises(DeviceSelectionError, match=r"'emu-9' is not attached .*found: emu-1 \(device\), emu-2"):
        AdbDevice("emu-9", port=several.port)
    with pytest.raises(DeviceSelectionError, match="unauthorized.*accept"):
        AdbDevice("phone", port=fake({"phone": "unauthorized"}).port)
    with pytest.raises(DeviceSelectionError, match="could not connect to 127.0.0.1:9.*refused"):
        AdbDevice("127.0.0.1:9", port=several.port)


def test_open_device_turns_selection_problems_into_one_line_spec_errors(fake):
    server = fake({"emu-1": "device", "emu-2": "device"})
    with pytest.raises(connect.DeviceSpecError, match=r"^cannot open device 'adb': several devices") as caught:
        connect.open_device("adb", adb_port=server.port)
    assert "\n" not in str(caught.value)
    assert connect.open_device("adb:emu-1", adb_port=server.port).serial == "emu-1"
    assert "adb:SERIAL" in connect.DEVICE_SPECS


def test_no_adb_server_is_a_device_error_and_none_is_started():
    port = free_port()
    with pytest.raises(DeviceError, match=rf"adb server 127.0.0.1:{port} is not reachable.*adb start-server"):
        AdbDevice(port=port, timeout=5)
    with pytest.raises(DeviceError, match="cannot open device 'adb': .*not reachable") as caught:  # exit 3, not 2
        connect.open_device("adb", adb_port=port)
    assert not isinstance(caught.value, connect.DeviceSpecError)
    with pytest.raises(ConnectionRefusedError):  # adbutils would have spawned a server here
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_server_that_accepts_and_never_answers_times_out():
    with socket.create_server(("127.0.0.1", 0)) as silent:  # the kernel accepts; nobody answers
        with pytest.raises(DeviceError, match="timed out after 0.3 s"):
            AdbDevice(port=silent.getsockname()[1], timeout=0.3)


def test_a_shell_command_that_never_answers_times_out(fake):
    server = fake(service=lambda request: None if "hang" in request else host_sh(request))
    device = AdbDevice(port=server.port, timeout=0.3)
    with pytest.raises(DeviceError, match=r"emu-1.*shell 'hang'.*timed out after 0.3 s"):
        device.shell("hang")
    assert device.shell("echo still here").stdout == "still here\n"


def test_a_stream_cut_before_the_exit_status_is_a_device_error(fake):
    server = fake(service=lambda request: shell_v2_packet(STDOUT, b"partial"))
    device = AdbDevice(port=server.port, timeout=5)
    with pytest.raises(DeviceError, match="closed"):
        device.shell("echo x")


def start_capturing(call: Callable[[], object]) -> tuple[threading.Thread, list[BaseException]]:
    """Run `call` in a started thread; whatever it raises lands in the returned list."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - recorded for the assertion
            failure.append(error)

    runner = threading.Thread(target=run)
    runner.start()
    return runner, failure


def test_the_server_killed_mid_command_is_a_device_error(fake):
    started = threading.Event()

    def service(request: str) -> bytes | None:
        if "slow" not in request:
            return host_sh(request)
        started.set()
        return None  # stays silent until the server dies

    server = fake(service=service)
    device = AdbDevice(port=server.port, timeout=20)
    runner, failure = start_capturing(lambda: device.shell("slow"))
    assert started.wait(10), "the command never reached the server"
    server.kill()
    runner.join(10)
    assert not runner.is_alive() and len(failure) == 1
    assert isinstance(failure[0], DeviceError) and "closed" in str(failure[0])


def test_a_device_that_disappears_is_a_device_error(fake):
    server = fake()
    device = AdbDevice(port=server.port, timeout=5)
    server.devices.clear()
    with pytest.raises(DeviceError, match="emu-1.*not found"):
        device.shell("echo x")
    server.close()
    with pytest.raises(DeviceError, match="not reachable"):
        device.shell("echo x")


def test_reconnect_redials_a_tcp_device_and_gives_up_in_bounded_time(fake):
    server = fake({"10.0.2.15:5555": "device"})
    server.reachable.add("10.0.2.15:5555")
    device = AdbDevice("10.0.2.15:5555", port=server.port, timeout=0.5)
    del server.devices["10.0.2.15:5555"]  # the server dropped it
    with pytest.raises(DeviceError, match="no longer attached"):
        device.shell("echo x")
    device.reconnect()
    assert "host:connect:10.0.2.15:5555" in server.requests
    assert device.shell("echo back").stdout == "back\n"
    server.devices["10.0.2.15:5555"] = "offline"
    with pytest.raises(DeviceSelectionError, match="offline"):
        device.reconnect()


def test_a_closed_device_refuses_further_calls(fake):
    device = AdbDevice(port=fake().port, timeout=5)
    device.close()
    with pytest.raises(DeviceError, match="closed"):
        device.shell("echo x")


def _root_service(uid: list[str], reply: str) -> Service:
    def service(request: str) -> bytes | None:
        if request == "root:":
            if "restarting" in reply:
                uid[0] = "0"
            return reply.encode()
        if request.endswith("id -u"):
            return shell_v2_packet(STDOUT, uid[0].encode() + b"\n") + shell_v2_packet(EXIT, b"\0")
        return host_sh(request)
    return service


def test_root_unavailable_names_the_tasks_that_need_it(fake):
    uid = ["2000"]
    server = fake(service=_root_service(uid, "adbd cannot run as root in production builds\n"))
    device = AdbDevice(port=server.port, timeout=5)
    assert device.ensure_root(required=False) is False
    with pytest.raises(RootUnavailable, match="production builds.*ExpenseAddSingle, SimpleSmsSend need adbd running as root"):
        device.ensure_root(required=True, tasks=["ExpenseAddSingle", "SimpleSmsSend"])
    with pytest.raises(connect.DeviceSpecError, match="cannot use device 'emu-1'.*root"):
        connect.ensure_root(device, ["ExpenseAddSingle"])


def test_ensure_root_restarts_adbd_and_waits_for_root(fake):
    uid = ["2000"]
    server = fake(service=_root_service(uid, "restarting adbd as root\n"))
    device = AdbDevice(port=server.port, timeout=5)
    assert device.ensure_root(required=True, tasks=["T"]) is True
    assert device.is_root() and server.requests.count("root:") == 1
    assert device.ensure_root(required=True) is True and server.requests.count("root:") == 1


def test_connect_ensure_root_leaves_the_simulator_alone(sim_device):
    connect.ensure_root(sim_device, ["T"])


# --- the real adb server and the simulator's adbd ------------------------------------------------
def _adbd():
    try:
        from taskkit.sim import adbd
    except ImportError:
        return None
    return adbd


requires_adb = pytest.mark.skipif(
    not os.path.exists(ADB) or _adbd() is None,
    reason=f"needs {ADB} (Debian's adb) and taskkit.sim.adbd",
)


@contextlib.contextmanager
def private_adb_server(env: Mapping[str, str] | None = None) -> Iterator[int]:
    """A private adb server on a free port (never the default 5037), started with `env` (default:
    this process's) and killed afterwards. A port taken before adb binds it is replaced by another."""
    base = dict(os.environ if env is None else env)

    def start(port: int) -> int:
        with tempfile.TemporaryFile() as log:
            started = subprocess.run([ADB, "-P", str(port), "start-server"], env=_on(base, port),
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=log, timeout=60)
            log.seek(0)
            if started.returncode != 0:
                raise PortTaken(f"adb start-server on port {port}: {log.read().decode(errors='replace')}")
        return port

    port = on_free_port(start)
    try:
        yield port
    finally:
        subprocess.run([ADB, "-P", str(port), "kill-server"], env=_on(base, port), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)


def _on(env: Mapping[str, str], port: int) -> dict[str, str]:
    """`env` with the adb server port set to `port`."""
    return {**env, "ANDROID_ADB_SERVER_PORT": str(port)}


@contextlib.contextmanager
def served_sim(state_dir: Path, *, is_root: bool = True, command_timeout: float = 60.0) -> Iterator[object]:
    """The simulator in `state_dir` served over the adb wire protocol on a free port."""
    sim_device(state_dir)  # build the image
    if not is_root:
        from taskkit.sim.state import SimState

        state = SimState(state_dir)
        state.config["is_root"] = False
        state.save()
    server = _adbd().AdbdServer(state_dir, host="127.0.0.1", port=0, command_timeout=command_timeout)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def adb_connect(adb_port: int, serial: str, attempts: int = 50) -> None:
    """`adb connect SERIAL` through adbutils, retried until the server lists it online (bounded)."""
    import adbutils

    client = adbutils.AdbClient("127.0.0.1", adb_port)
    for _ in range(attempts):
        client.connect(serial, timeout=5)
        if any(info.serial == serial and info.state == "device" for info in client.list()):
            return
        time.sleep(0.1)
    raise AssertionError(f"{serial} never came online: {client.list()}")


@contextlib.contextmanager
def served_adb_device(state_dir: Path) -> Iterator["AdbDevice"]:
    """A simulator in `state_dir` reached through a private adb server, as an `AdbDevice`."""
    with private_adb_server() as port, served_sim(state_dir) as server:
        serial = f"127.0.0.1:{server.port}"
        adb_connect(port, serial)
        device = AdbDevice(serial, port=port, timeout=30)
        try:
            yield device
        finally:
            device.close()


def adb_disconnect(adb_port: int, serial: str) -> None:
    import adbutils

    adbutils.AdbClient("127.0.0.1", adb_port).disconnect(serial)


@pytest.fixture(scope="module")
def adb_port() -> Iterator[int]:
    with private_adb_server() as port:
        yield port


@pytest.fixture(scope="module")
def sim_server(tmp_path_factory, adb_port) -> Iterator[object]:
    with served_sim(tmp_path_factory.mktemp("adb-sim")) as server:
        adb_connect(adb_port, f"127.0.0.1:{server.port}")
        yield server


@pytest.fixture(scope="module")
def device(sim_server, adb_port) -> Iterator[AdbDevice]:
    device = AdbDevice(f"127.0.0.1:{sim_server.port}", port=adb_port, timeout=30)
    yield device
    device.close()


@requires_adb
def test_shell_through_adb_keeps_streams_and_exit_codes(device):
    assert device.shell_v2
    result = device.shell("echo out; echo err >&2; exit 3")
    assert (result.stdout, result.stderr, result.exit_code) == ("out\n", "err\n", 3)
    missing = device.shell("no-such-tool")
    assert missing.exit_code == 127 and "no-such-tool: inaccessible or not found" in missing.stderr
    assert device.check("id -u") == "0\n"


@requires_adb
def test_the_v1_fallback_through_adb(device, adb_port):
    v1 = AdbDevice(device.serial, port=adb_port, timeout=30)
    v1.shell_v2 = False  # as a device without shell_v2 is driven
    result = v1.shell("echo out; echo err >&2; exit 3")
    assert (result.stdout, result.stderr, result.exit_code) == ("out\nerr\n", "", 3)
    assert v1.shell("printf 'a b'").stdout == "a b"


hostile_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=80)
HOSTILE = ["'", "'\\''", "$(touch {canary})", "`touch {canary}`", "; touch {canary}", "\n touch {canary}",
           "&& touch {canary} #", "| touch {canary}", '"; touch {canary}; "', "${IFS}", "\\", "-n", "*"]
CANARY = "/data/local/tmp/adb-canary"


@requires_adb
@settings(max_examples=15)
@given(st.lists(hostile_text | st.sampled_from(HOSTILE), min_size=1, max_size=3))
def test_hostile_text_round_trips_and_never_runs(device, words):
    words = [word.replace("{canary}", CANARY) for word in words]
    for word in words:
        assert device.check(f"printf %s {shell_quote(word)}") == word
    assert device.shell(f"ls {CANARY}").exit_code == 1, "an injected command ran"


@requires_adb
def test_push_and_pull_move_mebibytes_unchanged(device):
    data = random.Random(7).randbytes(3 * 1024 * 1024 + 17)
    device.push(data, "/data/local/tmp/adb-test/nested/dir/blob.bin")  # parents are created
    assert hashlib.sha256(device.pull("/data/local/tmp/adb-test/nested/dir/blob.bin")).hexdigest() == \
        hashlib.sha256(data).hexdigest()
    assert device.check("stat -c %s /data/local/tmp/adb-test/nested/dir/blob.bin") == f"{len(data)}\n"
    device.push(b"", "/data/local/tmp/adb-test/empty")
    assert device.pull("/data/local/tmp/adb-test/empty") == b""


@requires_adb
def test_missing_paths_and_directories(device):
    with pytest.raises(FileNotFoundError, match="/data/local/tmp/nope"):
        device.pull("/data/local/tmp/nope")
    with pytest.raises(IsADirectoryError):
        device.pull("/data/local/tmp")
    with pytest.raises(IsADirectoryError):
        device.push(b"x", "/data/local/tmp")


@requires_adb
def test_a_command_longer_than_one_request_runs_as_a_script(device):
    word = "x" * (adb_module.MAX_SERVICE_BYTES + 1000)
    result = device.shell(f"echo {word} | wc -c; exit 4")
    assert (result.stdout.strip(), result.exit_code) == (str(len(word) + 1), 4)
    assert device.check(f"ls -a {adb_module.SCRIPT_DIR}").count(".taskkit-command-") == 0


@requires_adb
def test_a_disconnected_device_is_a_device_error_until_it_reconnects(device, adb_port):
    adb_disconnect(adb_port, device.serial)
    with pytest.raises(DeviceError, match="no longer attached to the adb server"):
        device.shell("echo x")
    device.reconnect()
    assert device.check("echo back") == "back\n"


@requires_adb
def test_open_device_by_serial_and_the_only_device(device, sim_server, adb_port, tmp_path):
    serial = f"127.0.0.1:{sim_server.port}"
    opened = connect.open_device(f"adb:{serial}", adb_port=adb_port)
    assert isinstance(opened, AdbDevice) and opened.check("echo hi") == "hi\n"
    assert connect.open_device("adb", adb_port=adb_port).serial == serial
    with served_sim(tmp_path / "second") as second:
        adb_connect(adb_port, f"127.0.0.1:{second.port}")
        try:
            with pytest.raises(connect.DeviceSpecError, match="several devices") as caught:
                connect.open_device("adb", adb_port=adb_port)
            assert f"{serial} (device)" in str(caught.value) and f"127.0.0.1:{second.port} (device)" in str(caught.value)
        finally:
            adb_disconnect(adb_port, f"127.0.0.1:{second.port}")


@requires_adb
def test_no_device_then_the_adb_server_killed_mid_command(tmp_path):
    with private_adb_server() as port:
        with pytest.raises(connect.DeviceSpecError, match="no device is attached .*found: none"):
            connect.open_device("adb", adb_port=port)
        with served_sim(tmp_path / "sim", command_timeout=5) as sim:
            adb_connect(port, f"127.0.0.1:{sim.port}")
            device = AdbDevice(f"127.0.0.1:{sim.port}", port=port, timeout=30)
            opened = sim.stats.snapshot()["streams_opened"]
            # a command that runs until the device's time limit: it cannot finish first
            runner, failure = start_capturing(lambda: device.shell(ENDLESS_QUERY))
            for _ in range(500):  # bounded poll until the command's stream is open on the device
                if sim.stats.snapshot()["streams_opened"] > opened:
                    break
                time.sleep(0.01)
            else:
                raise AssertionError("the command never reached the device")
            subprocess.run([ADB, "-P", str(port), "kill-server"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
            runner.join(30)
            assert not runner.is_alive() and len(failure) == 1, failure
            assert isinstance(failure[0], DeviceError)
            assert f"adb server 127.0.0.1:{port} is gone" in str(failure[0])
            with pytest.raises(DeviceError, match="not reachable"):
                device.shell("echo x")


@requires_adb
def test_ensure_root_roots_a_non_root_simulator(tmp_path, adb_port):
    with served_sim(tmp_path / "user", is_root=False) as sim:
        serial = f"127.0.0.1:{sim.port}"
        adb_connect(adb_port, serial)
        try:
            device = AdbDevice(serial, port=adb_port, timeout=30)
            assert not device.is_root()
            assert device.ensure_root(required=True, tasks=["ExpenseAddSingle"]) is True
            assert device.is_root() and device.check("id -u") == "0\n"
        finally:
            adb_disconnect(adb_port, serial)
