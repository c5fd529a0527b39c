"""The served adbd under load (issue #34 items 2 and 3): many connections, streams and writes
are bounded by the server's limits (adbd.AdbdLimits), the excess refused cleanly, and the server
stays up and serves later clients once the load drops. Every test bounds counts (threads,
connections, bytes), never seconds."""
from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from taskkit.sim import adbd, limits
from taskkit.sim.adbd import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, ID_CLOSE_STDIN, ID_STDIN, AdbdLimits, AdbdServer
from taskkit.sim.commands import command
from tests.sim.test_adbd import RawHost

_RELEASE = threading.Event()  # set at the end of the module: a stuck waiter from a regression ends


@command("taskkit-test-wait")
def _wait(inv) -> int:
    """Wait (cheaply) until the client goes away or the command's time limit passes."""
    while not _RELEASE.wait(0.02):
        limits.check()
    return 0


@pytest.fixture(scope="module", autouse=True)
def _release_waiters():
    yield
    _RELEASE.set()


def _connect(port: int, source: str = "127.0.0.1", timeout: float = 120) -> RawHost | None:
    """A RawHost past CNXN, or None if the server refused the connection (closed it)."""
    client = RawHost.__new__(RawHost)
    client.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    client.sent = client.received = 0
    client.maxdata = 1 << 20
    client._next = 100
    try:
        client.connect()
    except (EOFError, ConnectionError):
        client.close()
        return None
    return client


def _start_wait(client: RawHost) -> None:
    """Open a stream running a command that waits until the client goes away (its close-stdin is
    acknowledged when a worker takes it: not read here, workers may all be busy)."""
    client._next += 3
    local = client._next
    client.send(A_OPEN, local, 0, b"shell,v2,raw:taskkit-test-wait\0")
    while (reply := client.read()).arg1 != local:  # skip the OKAYs of earlier close-stdins
        pass
    assert reply.command == A_OKAY
    client.send(A_WRTE, local, reply.arg0, adbd.encode_packet(ID_CLOSE_STDIN))


def _worker_threads(server: AdbdServer) -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith(f"adbd:{server.port}"))


def _until(holds: Callable[[], bool], what: str, polls: int = 6000) -> None:
    """Wait until `holds()` (a closed socket reaches the server's loop a moment later: a busy
    machine may take a while); fail naming `what` after `polls` looks 0.02 s apart."""
    for _ in range(polls):
        if holds():
            return
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def test_hundreds_of_connections_hold_bounded_threads_and_the_server_lives_on(tmp_path) -> None:
    bounds = AdbdLimits(max_connections=40, max_client_connections=40, service_workers=4)
    with AdbdServer(tmp_path / "device", port=0, command_timeout=600, limits=bounds) as server:
        before = threading.active_count()
        clients, refused = [], 0
        for _ in range(400):
            client = _connect(server.port)
            if client is None:
                refused += 1
                continue
            _start_wait(client)
            clients.append(client)
        # every accepted connection holds a long command: the threads are the server's pool
        assert len(clients) == 40 and refused == 360
        assert threading.active_count() - before <= bounds.service_workers
        assert _worker_threads(server) <= bounds.service_workers + 1  # + the I/O thread
        stats = server.stats.snapshot()
        assert stats["connections_refused"] == 360 and stats["connections"] == 40
        for client in clients:
            client.close()
        _until(lambda: not server._conns, "the server to see its clients' connections close")
        fresh = RawHost(server.port, timeout=120)
        fresh.connect()  # the commands of the closed connections stopped: workers are free again
        assert fresh.run("shell:echo ok") == b"ok\n"
        assert server._serving_thread.is_alive()


def test_per_client_limit_and_streams_per_connection(tmp_path) -> None:
    bounds = AdbdLimits(max_connections=10, max_client_connections=3, max_streams=4, service_workers=6)
    with AdbdServer(tmp_path / "device", port=0, command_timeout=600, limits=bounds) as server:
        first = [_connect(server.port, "127.0.0.2") for _ in range(5)]
        second = [_connect(server.port, "127.0.0.3") for _ in range(2)]
        assert [c is not None for c in first] == [True, True, True, False, False]
        assert all(c is not None for c in second)  # another address still gets in
        client = first[0]
        for _ in range(4):
            _start_wait(client)
        client._next += 3
        client.send(A_OPEN, client._next, 0, b"shell:echo fifth\0")
        while (reply := client.read()).arg1 != client._next:  # skip the OKAYs of the close-stdins
            pass
        assert (reply.command, reply.arg0) == (A_CLSE, 0)  # refused as adbd refuses a stream
        assert second[0].run("shell:echo other") == b"other\n"  # 4 workers busy, 2 free
        for c in first + second:
            if c is not None:
                c.close()


def test_sqlite_queries_of_closed_connections_stop_and_free_their_workers(tmp_path) -> None:
    endless = ("shell,v2,raw:sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
               "SELECT count(*) FROM c;'")
    bounds = AdbdLimits(service_workers=2)
    with AdbdServer(tmp_path / "device", port=0, command_timeout=600, limits=bounds) as server:
        clients = []
        for _ in range(6):
            client = _connect(server.port)
            local, remote = client.open(endless)
            client.send(A_WRTE, local, remote, adbd.encode_packet(ID_CLOSE_STDIN))
            clients.append(client)
        assert _worker_threads(server) <= bounds.service_workers + 1
        for client in clients:
            client.close()
        fresh = _connect(server.port)
        assert fresh.run("shell:echo ok") == b"ok\n"


def test_an_unauthenticated_connection_holds_only_its_handshake(tmp_path) -> None:
    keys = tmp_path / "adb_keys"
    keys.write_text("")  # no key is allowed in
    bounds = AdbdLimits(handshake_timeout=2, max_client_connections=64, service_workers=2)
    with AdbdServer(tmp_path / "device", port=0, adb_keys=keys, require_auth=True, limits=bounds) as server:
        sockets = []
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=120)
            sock.sendall(adbd.Message(A_CNXN, adbd.A_VERSION, 1 << 20, b"host::").encode()
                         + adbd.Message(A_OPEN, 5, 0, b"shell:taskkit-test-wait\0").encode())
            sockets.append(sock)
        for sock in sockets:  # an AUTH token at most, then the connection is dropped at the timeout
            data = b""
            try:
                while chunk := sock.recv(65536):
                    data += chunk
            except ConnectionResetError:
                pass
            assert data == b"" or data.startswith(b"AUTH"), data
            sock.close()
        stats = server.stats.snapshot()
        assert stats["handshake_timeouts"] == 50 and stats["streams_opened"] == 0
        assert server.pool.threads == 0  # not one worker thread was started for them


def test_writes_without_waiting_for_okay_reset_the_stream_and_hold_one_payload(tmp_path) -> None:
    with AdbdServer(tmp_path / "device", port=0, command_timeout=600) as server:
        client = _connect(server.port)
        local, remote = client.open("shell,v2,raw:taskkit-test-wait")
        client.send(A_WRTE, local, remote, adbd.encode_packet(ID_CLOSE_STDIN))  # the stream is busy now
        assert client.read().command == A_OKAY
        chunk = adbd.encode_packet(ID_STDIN, b"x" * (adbd.MAX_PAYLOAD - 5))
        sent = 0
        try:
            for _ in range(40):  # 40 MiB, never waiting for an OKAY
                client.send(A_WRTE, local, remote, chunk)
                sent += 1
        except OSError:
            pass  # the server may drop a host that keeps writing to a reset stream
        stats = server.stats.snapshot()
        assert stats["buffered_peak"] <= 2 * adbd.MAX_PAYLOAD, stats
        assert stats["streams_reset"] >= 1
        fresh = _connect(server.port)
        assert fresh.run("shell:echo alive") == b"alive\n"


def test_stdin_past_the_stream_bound_fails_the_command_with_a_message(tmp_path) -> None:
    bounds = AdbdLimits(max_stream_buffer=4 << 20)
    with AdbdServer(tmp_path / "device", port=0, limits=bounds) as server:
        client = _connect(server.port)
        local, remote = client.open("shell,v2,raw:wc -c")
        chunk = adbd.encode_packet(ID_STDIN, b"y" * (adbd.MAX_PAYLOAD - 5))
        replies = []
        for _ in range(8):  # 8 MiB of stdin, each WRTE acknowledged before the next
            client.send(A_WRTE, local, remote, chunk)
            reply = client.read()
            replies.append(reply)
            if reply.command != A_OKAY:
                break
        assert reply.command == A_WRTE  # the stream answers before all of stdin is taken
        client.send(A_OKAY, local, remote)
        more, _ = client.collect(local, remote)
        data = reply.data
        packets = adbd.PacketDecoder().feed(data + more)
        assert (adbd.ID_EXIT, bytes([limits.OUT_OF_MEMORY_STATUS])) in packets
        assert any(kind == adbd.ID_STDERR and b"out of memory" in payload for kind, payload in packets)
        assert server.stats.snapshot()["buffered_peak"] <= (4 << 20) + 2 * adbd.MAX_PAYLOAD


@contextlib.contextmanager
def served(state: Path, *flags: str) -> Iterator[int]:
    """`python -m taskkit.sim serve --port 0 --state STATE FLAGS...` running; its port."""
    proc = subprocess.Popen([sys.executable, "-m", "taskkit.sim", "serve", "--port", "0", "--state", str(state),
                             *flags], stdout=subprocess.PIPE, text=True)
    try:
        yield int(re.search(r":(\d+)$", proc.stdout.readline().strip()).group(1))
    finally:
        proc.terminate()
        proc.wait()


def serve_refuses(state: Path, *flags: str) -> str:
    """The stderr of a serve run that must stop at once with exit 2 and one line."""
    bad = subprocess.run([sys.executable, "-m", "taskkit.sim", "serve", "--state", str(state), *flags],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad
    return bad.stderr


def test_serve_flags_set_the_bounds(tmp_path) -> None:
    with served(tmp_path / "d", "--max_connections", "1", "--service_workers", "1") as port:
        first = _connect(port)
        assert first is not None and _connect(port) is None  # the second is over --max_connections
        assert first.run("shell:echo served") == b"served\n"
    assert "--service_workers" in serve_refuses(tmp_path / "e", "--service_workers", "0")
