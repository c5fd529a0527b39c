"""The served device under abuse: an endless command, a flood of output, a client that never
acknowledges, a too-long sync path, a crashing command, services it does not have. Each test
bounds counts and bytes, never seconds."""
from __future__ import annotations

import struct
import threading
import tracemalloc

import pytest

from taskkit.sim import adbd, limits
from taskkit.sim.adbd import A_CLSE, A_OKAY, A_WRTE, ID_CLOSE_STDIN, AdbdServer
from taskkit.sim.commands import command
from tests.sim.test_adbd import RawHost

ENDLESS = ("shell,v2,raw:sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
           "SELECT count(*) FROM c;'")


@pytest.fixture
def server(tmp_path):
    with AdbdServer(tmp_path / "device", port=0, command_timeout=3, max_output=1 << 20) as srv:
        yield srv


def v2_result(client: RawHost, service: str) -> tuple[bytes, bytes, int]:
    local, remote = client.open(service)
    client.send(A_WRTE, local, remote, adbd.encode_packet(ID_CLOSE_STDIN))
    data, _ = client.collect(local, remote)
    decoder = adbd.PacketDecoder()
    out, err, status = b"", b"", None
    for kind, payload in decoder.feed(data):
        if kind == adbd.ID_STDOUT:
            out += payload
        elif kind == adbd.ID_STDERR:
            err += payload
        elif kind == adbd.ID_EXIT:
            status = payload[0]
    return out, err, status


def test_an_endless_command_blocks_nobody_and_stops_at_its_time_limit(server) -> None:
    slow = RawHost(server.port, timeout=60)
    slow.connect()
    result: list[tuple[bytes, bytes, int]] = []
    runner = threading.Thread(target=lambda: result.append(v2_result(slow, ENDLESS)))
    runner.start()
    answered = 0
    other = RawHost(server.port)
    other.connect()  # a new connection's handshake is answered while the query runs
    for index in range(5):  # and so are other streams, on another connection and on the same one
        assert other.run(f"shell:echo {index}") == f"{index}\n".encode()
        answered += 1
    runner.join(60)
    assert answered == 5 and result, "the endless command should have been stopped"
    out, err, status = result[0]
    assert status == limits.TIMEOUT_STATUS and b"timed out after 3 s" in err
    assert runner.is_alive() is False


def test_two_commands_on_one_connection_run_side_by_side(server) -> None:
    client = RawHost(server.port, timeout=60)
    client.connect()
    local, remote = client.open(ENDLESS)
    client.send(A_WRTE, local, remote, adbd.encode_packet(ID_CLOSE_STDIN))
    assert client.read().command == A_OKAY  # the close-stdin is taken: the query starts
    # the same connection opens a second stream while the first one runs
    second_local, second_remote = client.open("shell:echo beside")
    messages = []
    while True:
        message = client.read()
        messages.append(message)
        if message.command == A_WRTE and message.arg1 == second_local:
            break
    assert message.data == b"beside\n"
    assert not any(m.command == A_CLSE and m.arg1 == local for m in messages)  # the first still runs


def test_output_streams_under_flow_control_with_bounded_memory(tmp_path) -> None:
    # Its own server with a long time limit: tracemalloc slows every allocation several times over,
    # and this test is about memory, not the time limit (tested above).
    with AdbdServer(tmp_path / "device", port=0, command_timeout=120, max_output=1 << 20) as server:
        _stream_seq(server)


def _stream_seq(server: AdbdServer) -> None:
    client = RawHost(server.port, timeout=120)
    client.connect()
    tracemalloc.start()
    try:
        local, remote = client.open("exec:seq 1 150000")
        data, sizes = client.collect(local, remote)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(data) == 938_895 and data.startswith(b"1\n2\n") and data.endswith(b"\n150000\n")
    assert max(sizes) <= adbd.MAX_PAYLOAD
    assert peak < 4 * len(data)  # streamed, not held whole and copied


FLOOD_CHUNK = 64 * 1024


@command("taskkit-test-flood")
def _flood(inv) -> int:
    """Print argv[1] chunks of FLOOD_CHUNK bytes, one write each (a fast `yes | head -c`)."""
    chunk = b"y\n" * (FLOOD_CHUNK // 2)
    for _ in range(int(inv.args[0])):
        inv.out(chunk)
    return 0


def test_a_flood_is_streamed_holding_a_bounded_number_of_bytes(tmp_path) -> None:
    chunks = 640  # 40 MiB out; the server may hold only a few MiB of it at any time
    with AdbdServer(tmp_path / "device", port=0, max_output=1 << 30) as flood_server:
        client = RawHost(flood_server.port, timeout=60)
        client.connect()
        received = 0
        tracemalloc.start()
        try:
            local, remote = client.open(f"exec:taskkit-test-flood {chunks}")
            while (message := client.read()).command != A_CLSE:
                if message.command == A_WRTE:
                    received += len(message.data)  # counted, not kept
                    client.send(A_OKAY, local, remote)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert received == chunks * FLOOD_CHUNK
    assert peak < 4 * adbd.HIGH_WATER + 2 * adbd.MAX_PAYLOAD, peak  # < 8 MiB for 40 MiB streamed


def test_output_over_the_cap_is_cut_with_a_message(server) -> None:
    client = RawHost(server.port, timeout=60)
    client.connect()
    out, err, status = v2_result(client, "shell,v2,raw:seq 1 100000000")
    assert status == adbd.OUTPUT_LIMIT_STATUS
    assert len(out) <= 1 << 20 and b"output exceeded 1048576 bytes" in err


def test_a_client_that_never_acknowledges_holds_a_bounded_amount(server) -> None:
    client = RawHost(server.port, timeout=60)
    client.connect()
    local, remote = client.open("exec:seq 1 100000000")
    first = client.read()
    assert first.command == A_WRTE
    # no OKAY is ever sent: the command must wait, holding at most HIGH_WATER bytes queued
    for _ in range(100):
        with server._device.lock:
            pass
        streams = [s for conn in list(server._conns) for s in conn.streams.values()]
        if streams and len(streams[0].outbuf) > 0:
            break
        threading.Event().wait(0.02)
    streams = [s for conn in list(server._conns) for s in conn.streams.values()]
    assert streams and len(streams[0].outbuf) <= adbd.HIGH_WATER + adbd.PACKET_CHUNK + 64
    client.close()


def test_a_sync_path_too_long_fails_and_the_transport_lives_on(server) -> None:
    client = RawHost(server.port)
    client.connect()
    for path, message in (("/sdcard/" + "x" * 300, b"couldn't create file: File name too long"), ("/sdcard/" + "y" * 2000, b"path too long")):
        local, remote = client.open("sync:")
        spec = f"{path},33188".encode()
        client.send(A_WRTE, local, remote, b"SEND" + struct.pack("<I", len(spec)) + spec)
        if len(path) <= 1024:  # the name is taken; it is refused when the file is written, at DONE
            client.send(A_WRTE, local, remote, b"DONE" + struct.pack("<I", 0))
        reply = b""
        while True:
            reply_message = client.read()
            if reply_message.command == A_WRTE:
                reply += reply_message.data
                client.send(A_OKAY, local, remote)
            elif reply_message.command == A_CLSE:
                break
        assert reply.startswith(b"FAIL") and message in reply, reply
    assert client.run("shell:echo alive") == b"alive\n"


@command("taskkit-test-crash")
def _crash(inv) -> int:
    raise RuntimeError("boom")


def test_a_crashing_command_exits_non_zero_with_a_message(server) -> None:
    client = RawHost(server.port)
    client.connect()
    out, err, status = v2_result(client, "shell,v2,raw:taskkit-test-crash; echo after")
    assert status == 0 and out == b"after\n"  # the shell goes on, as after a crashed process
    out, err, status = v2_result(client, "shell,v2,raw:taskkit-test-crash")
    assert status == 134 and b"taskkit-test-crash: crashed: RuntimeError: boom" in err


@pytest.mark.parametrize("service, expected", [
    ("reverse:list-forward", b"003fthe simulated"),  # hex4 length, then the text `--list` prints
    ("reverse:forward:tcp:6000;tcp:7000", b"FAIL"),  # a status with its message
    ("tcpip:5555", b"does not support adb tcpip"),
    ("remount:", b"does not support adb remount"),
])
def test_unsupported_services_say_so(server, service: str, expected: bytes) -> None:
    client = RawHost(server.port)
    client.connect()
    data = client.run(service)
    assert expected in data and b"simulated device" in data
