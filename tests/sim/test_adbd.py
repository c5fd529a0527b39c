"""The simulator over the wire: `AdbdServer` against its codecs, a raw socket, and Debian's adb.

Three layers: pure codec round trips (hypothesis, no sockets), protocol behaviour through a
raw TCP client speaking the device protocol (no adb), and end-to-end runs of the stock `adb`
client and adbutils through a PRIVATE adb server (ANDROID_ADB_SERVER_PORT set per module,
killed at teardown; the default 5037 server is never touched).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import random
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskkit.sim import adbd
from taskkit.sim.adbd import (A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, HEADER, ID_CLOSE_STDIN,
                              ID_EXIT, ID_STDERR, ID_STDIN, ID_STDOUT, ID_WINDOW_SIZE, AdbdServer,
                              Message, PacketDecoder, ProtocolError, ShellRequest, SyncDecoder,
                              SyncError, SyncFrame)
from tests.device.test_adb_device import private_adb_server

ADB = "/usr/bin/adb"
MAIN = Path(__file__).resolve().parents[2]


# ================================================================================================
# Codecs (no sockets)
# ================================================================================================
u32 = st.integers(0, 2**32 - 1)


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    """`data` cut at the given offsets (any order, duplicates allowed)."""
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:])]


@given(st.sampled_from(sorted(adbd.COMMANDS)), u32, u32, st.binary(max_size=300), st.booleans())
def test_message_round_trip(command, arg0, arg1, data, checksum):
    raw = Message(command, arg0, arg1, data).encode(checksum=checksum)
    assert len(raw) == HEADER.size + len(data)
    msg, used = adbd.decode_message(raw + b"trailing")
    assert used == len(raw)
    assert msg == Message(command, arg0, arg1, data)
    check = HEADER.unpack(raw[:HEADER.size])[4]
    assert check == (sum(data) if checksum else 0)


def test_message_constants_are_the_names_little_endian():
    assert A_CNXN == 0x4E584E43 and A_OPEN == 0x4E45504F and A_OKAY == 0x59414B4F
    assert A_WRTE == 0x45545257 and A_CLSE == 0x45534C43
    assert Message(A_CNXN, 0, 0).name == "CNXN"


@given(st.sampled_from(sorted(adbd.COMMANDS)), u32, st.integers(1, 2**32 - 1))
def test_decode_header_rejects_bad_magic(command, arg, flip):
    raw = bytearray(Message(command, arg, arg).encode())
    magic = HEADER.unpack(bytes(raw[:24]))[5] ^ flip
    raw[20:24] = magic.to_bytes(4, "little")
    with pytest.raises(ProtocolError, match="magic"):
        adbd.decode_header(bytes(raw))


def test_decode_header_rejects_unknown_command_and_oversize_payload():
    bogus = int.from_bytes(b"XXXX", "little")
    raw = HEADER.pack(bogus, 0, 0, 0, 0, bogus ^ 0xFFFFFFFF)
    with pytest.raises(ProtocolError, match="unknown command"):
        adbd.decode_header(raw)
    big = HEADER.pack(A_WRTE, 1, 1, adbd.MAX_PAYLOAD + 1, 0, A_WRTE ^ 0xFFFFFFFF)
    with pytest.raises(ProtocolError, match="payload"):
        adbd.decode_header(big)
    with pytest.raises(ProtocolError, match="short"):
        adbd.decode_header(big[:10])
    with pytest.raises(ProtocolError, match="truncated"):
        adbd.decode_message(Message(A_WRTE, 1, 2, b"abcdef").encode()[:-1])


packets = st.lists(st.tuples(st.integers(0, 5), st.binary(max_size=200)), max_size=8)


@given(packets, st.lists(st.integers(0, 10_000), max_size=6))
def test_shell_packets_survive_any_split(items, cuts):
    stream = b"".join(adbd.encode_packet(kind, data) for kind, data in items)
    decoder = PacketDecoder()
    got = [p for piece in _split(stream, cuts) for p in decoder.feed(piece)]
    assert got == items


def test_encode_output_chunks_large_data_and_skips_empty():
    data = bytes(range(256)) * 600  # 153,600 bytes: three packets
    raw = adbd.encode_output(ID_STDOUT, data)
    got = PacketDecoder().feed(raw)
    assert [k for k, _ in got] == [ID_STDOUT] * 3
    assert b"".join(d for _, d in got) == data
    assert all(len(d) <= adbd.PACKET_CHUNK for _, d in got)
    assert adbd.encode_output(ID_STDERR, b"") == b""
    assert adbd.encode_packet(ID_EXIT, b"\x2a") == b"\x03\x01\x00\x00\x00\x2a"


paths = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).map(
    lambda s: s.encode("utf-8")[:1024])
frames = st.one_of(
    st.builds(lambda i, p: SyncFrame(i, len(p), p),
              st.sampled_from([b"STAT", b"LIST", b"SEND", b"RECV", b"STA2", b"LST2", b"LIS2"]), paths),
    st.builds(lambda d: SyncFrame(b"DATA", len(d), d), st.binary(max_size=300)),
    st.builds(lambda t: SyncFrame(b"DONE", t), u32),
    st.just(SyncFrame(b"QUIT", 0)),
)


@given(st.lists(frames, max_size=8), st.lists(st.integers(0, 10_000), max_size=6))
def test_sync_frames_survive_any_split(items, cuts):
    stream = b"".join(f.encode() for f in items)
    decoder = SyncDecoder()
    got = [f for piece in _split(stream, cuts) for f in decoder.feed(piece)]
    assert got == items


def test_sync_decoder_limits_paths_and_data():
    with pytest.raises(SyncError, match="path too long"):
        SyncDecoder().feed(b"STAT" + (1025).to_bytes(4, "little"))
    with pytest.raises(SyncError, match="data too long"):
        SyncDecoder().feed(b"DATA" + (65537).to_bytes(4, "little"))


def test_sync_reply_layouts():
    st_ = adbd.FileStat(mode=0o100644, size=5, mtime=1697384040, ino=7)
    assert adbd.stat_v1(None) == b"STAT" + bytes(12)
    assert adbd.stat_v1(st_)[4:] == (0o100644).to_bytes(4, "little") + (5).to_bytes(4, "little") \
        + (1697384040).to_bytes(4, "little")
    missing = adbd.stat_v2(b"STA2", None, 2)
    assert len(missing) == 72 and missing[:8] == b"STA2" + (2).to_bytes(4, "little") and not any(missing[8:])
    assert len(adbd.stat_v2(b"LST2", st_)) == 72
    assert len(adbd.dent_v1(b"ab", st_)) == 20 + 2 and len(adbd.dent_v2(b"ab", st_)) == 76 + 2
    assert adbd.LIST_DONE_V1 == b"DONE" + bytes(16) and adbd.LIST_DONE_V2 == b"DONE" + bytes(72)


@pytest.mark.parametrize("spec, expected", [
    ("/sdcard/f,33188", ("/sdcard/f", 0o100644)),
    ("/sdcard/a,b.txt,33261", ("/sdcard/a,b.txt", 0o100755)),
    ("/x,0755", ("/x", 0o755)),
    ("/x,0x1ff", ("/x", 0o777)),
])
def test_parse_send_spec(spec, expected):
    assert adbd.parse_send_spec(spec) == expected


@pytest.mark.parametrize("spec", ["/no/mode", "/x,abc"])
def test_parse_send_spec_rejects(spec):
    with pytest.raises(SyncError):
        adbd.parse_send_spec(spec)


def test_send_permissions_copy_user_bits():
    assert adbd.send_permissions(0o100644) == 0o666
    assert adbd.send_permissions(0o100755) == 0o777
    assert adbd.send_permissions(0o100600) == 0o666
    assert adbd.send_permissions(0o100400) == 0o444


@given(st.text(max_size=30), st.text(max_size=30), st.text(max_size=30))
def test_banner_fields_survive_the_hosts_split(name, model, device):
    raw = adbd.banner({"ro.product.name": name, "ro.product.model": model, "ro.product.device": device})
    state, serial, rest = raw.decode().split(":")  # the host splits on ':' ...
    assert (state, serial) == ("device", "")
    fields = dict(f.split("=") for f in rest.split(";"))  # ... then ';' and '='
    assert fields["ro.product.name"] == adbd.clean_prop(name)
    assert fields["ro.product.model"] == adbd.clean_prop(model)
    assert fields["features"] == ",".join(adbd.FEATURES)
    assert "delayed_ack" not in fields["features"]


@pytest.mark.parametrize("service, expected", [
    ("shell,v2,TERM=xterm,raw:echo hi", ShellRequest("echo hi", True, False, True, "xterm")),
    ("shell,v2,raw:", ShellRequest("", True, False, True, None)),
    ("shell,v2,TERM=xterm,pty:", ShellRequest("", True, True, True, "xterm")),
    ("shell,v2:ls -l", ShellRequest("ls -l", True, False, False, None)),
    ("shell:echo a:b", ShellRequest("echo a:b", False, False, False, None)),
    ("shell:", ShellRequest("", False, True, False, None)),
])
def test_shell_request_parse(service, expected):
    assert ShellRequest.parse(service) == expected


# ================================================================================================
# Protocol through a raw socket (no adb)
# ================================================================================================
class RawHost:
    """A minimal adb host speaking the device protocol, for protocol-level checks."""

    def __init__(self, port: int, maxdata: int = 1 << 20, timeout: float = 10.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sent = 0
        self.received = 0
        self.maxdata = maxdata
        self._next = 100

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        raw = Message(command, arg0, arg1, data).encode()
        self.sock.sendall(raw)
        self.sent += len(raw)

    def _exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        self.received += len(buf)
        return buf

    def read(self) -> Message:
        command, arg0, arg1, length = adbd.decode_header(self._exact(24))
        return Message(command, arg0, arg1, self._exact(length) if length else b"")

    def connect(self) -> Message:
        self.send(A_CNXN, 0x01000001, self.maxdata, b"host::features=shell_v2,cmd,stat_v2,ls_v2")
        reply = self.read()
        assert reply.command == A_CNXN
        return reply

    def open(self, service: str) -> tuple[int, int]:
        """(host id, device id), asserting OKAY."""
        self._next += 3
        self.send(A_OPEN, self._next, 0, service.encode() + b"\0")
        reply = self.read()
        assert reply.command == A_OKAY and reply.arg1 == self._next, reply
        return self._next, reply.arg0

    def collect(self, local: int, remote: int, send_okay: bool = True) -> tuple[bytes, list[int]]:
        """Stream output until CLSE: (bytes, WRTE payload sizes)."""
        data, sizes = bytearray(), []
        while True:
            msg = self.read()
            if msg.command == A_WRTE and msg.arg1 == local:
                data += msg.data
                sizes.append(len(msg.data))
                if send_okay:
                    self.send(A_OKAY, local, remote)
            elif msg.command == A_CLSE and msg.arg1 == local:
                return bytes(data), sizes

    def run(self, service: str) -> bytes:
        local, remote = self.open(service)
        return self.collect(local, remote)[0]

    def closed_by_peer(self) -> bool:
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, socket.timeout):
            return False

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with AdbdServer(tmp_path_factory.mktemp("adbd") / "device", port=0) as srv:
        yield srv


@pytest.fixture
def host(server):
    client = RawHost(server.port)
    client.connect()
    yield client
    client.close()


def test_cnxn_reply_carries_version_maxdata_and_banner(server):
    client = RawHost(server.port)
    reply = client.connect()
    client.close()
    assert (reply.arg0, reply.arg1) == (A_VERSION, adbd.MAX_PAYLOAD)
    assert reply.data.startswith(b"device::ro.product.name=sdk_gphone64_x86_64;")
    assert b";ro.product.device=emu64x;features=shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir" in reply.data


def test_messages_before_cnxn_are_ignored(server):
    client = RawHost(server.port)
    client.send(A_OPEN, 5, 0, b"shell:echo early\0")
    reply = client.connect()  # the first thing back is the CNXN, not an answer to the OPEN
    assert reply.command == A_CNXN
    assert client.run("shell:echo late") == b"late\n"
    client.close()


def test_raw_shell_v1_merges_output_in_order(host):
    assert host.run("shell:echo a; echo b >&2; echo c") == b"a\nb\nc\n"
    assert host.run("exec:echo x; echo y >&2") == b"x\ny\n"


def test_shell_v2_frames_stdout_stderr_exit_and_reads_stdin(host):
    local, remote = host.open("shell,v2,raw:cat; echo oops >&2; exit 7")
    host.send(A_WRTE, local, remote, adbd.encode_packet(ID_STDIN, b"in\x00put\n"))
    assert host.read().command == A_OKAY  # every host WRTE is acknowledged
    host.send(A_WRTE, local, remote, adbd.encode_packet(ID_CLOSE_STDIN))
    assert host.read().command == A_OKAY
    raw, _ = host.collect(local, remote)
    assert PacketDecoder().feed(raw) == [(ID_STDOUT, b"in\x00put\n"), (ID_STDERR, b"oops\n"), (ID_EXIT, b"\x07")]


def test_shell_v2_without_type_arg_runs_at_once(host):
    """adbutils' `shell,v2:` never sends stdin or close-stdin."""
    raw = host.run("shell,v2:echo now")
    assert PacketDecoder().feed(raw) == [(ID_STDOUT, b"now\n"), (ID_EXIT, b"\x00")]


def test_shell_v2_raw_client_that_sends_nothing_still_gets_its_command_run(host, monkeypatch):
    """A lean client naming `raw` but sending no stdin packet is not left hanging."""
    monkeypatch.setattr(adbd, "STDIN_GRACE", 0.05)
    raw = host.run("shell,v2,raw:echo quiet")
    assert PacketDecoder().feed(raw) == [(ID_STDOUT, b"quiet\n"), (ID_EXIT, b"\x00")]


def test_unknown_service_is_refused_and_stream_ids_ignored(host):
    host.send(A_OPEN, 77, 0, b"no-such-service:1234\0")
    assert host.read() == Message(A_CLSE, 0, 77)
    host.send(A_WRTE, 77, 999, b"stray")  # unknown ids are ignored ...
    host.send(A_OKAY, 77, 999)
    host.send(A_CLSE, 77, 999)
    assert host.run("shell:echo still") == b"still\n"  # ... and the connection lives on


def test_wrte_respects_peer_maxdata_and_waits_for_okay(server):
    data = random.Random(7).randbytes(300_000)
    server.device.state.host_path("/sdcard/maxdata.bin").write_bytes(data)
    client = RawHost(server.port, maxdata=4096)
    client.connect()
    local, remote = client.open("exec:cat /sdcard/maxdata.bin")
    first = client.read()
    assert first.command == A_WRTE and len(first.data) == 4096
    client.sock.settimeout(0.3)  # a bounded check that nothing more comes before our OKAY
    with pytest.raises(socket.timeout):
        client.sock.recv(1)
    client.sock.settimeout(10)
    client.send(A_OKAY, local, remote)
    rest, sizes = client.collect(local, remote)
    client.close()
    assert first.data + rest == data
    assert max(sizes) <= 4096


def test_malformed_header_closes_the_connection_not_the_server(server):
    client = RawHost(server.port)
    client.connect()
    client.sock.sendall(b"GARBAGE!" * 3)
    assert client.closed_by_peer()
    client.close()
    oversize = RawHost(server.port)
    oversize.connect()
    oversize.sock.sendall(HEADER.pack(A_WRTE, 1, 1, adbd.MAX_PAYLOAD + 1, 0, A_WRTE ^ 0xFFFFFFFF))
    assert oversize.closed_by_peer()
    oversize.close()
    fresh = RawHost(server.port)
    fresh.connect()
    assert fresh.run("shell:echo alive") == b"alive\n"
    fresh.close()


def test_client_vanishing_mid_stream_does_not_hurt_the_server(server):
    server.device.state.host_path("/sdcard/vanish.bin").write_bytes(bytes(3 << 20))
    for service in ("exec:cat /sdcard/vanish.bin", "sync:"):
        client = RawHost(server.port, maxdata=65536)
        client.connect()
        local, remote = client.open(service)
        if service == "sync:":
            path = b"/sdcard/vanish.bin"
            client.send(A_WRTE, local, remote, b"RECV" + len(path).to_bytes(4, "little") + path)
        while client.read().command != A_WRTE:
            pass
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        client.close()  # RST with unacknowledged data in flight
    fresh = RawHost(server.port)
    fresh.connect()
    assert fresh.run("shell:echo fine") == b"fine\n"
    fresh.close()


def _sync_request(ident: bytes, path: str) -> bytes:
    return SyncFrame(ident, 0, path.encode()).encode()


def test_sync_stat_list_send_recv_over_raw_stream(host, server):
    local, remote = host.open("sync:")
    payload = b"hello sync"
    host.send(A_WRTE, local, remote, _sync_request(b"SEND", "/sdcard/rs/new/f.txt,33188")
              + SyncFrame(b"DATA", 0, payload[:4]).encode() + SyncFrame(b"DATA", 0, payload[4:]).encode()
              + SyncFrame(b"DONE", 1_700_000_000).encode())
    replies = bytearray()

    def expect(n: int) -> bytes:
        while len(replies) < n:
            msg = host.read()
            if msg.command == A_WRTE:
                replies.extend(msg.data)
                host.send(A_OKAY, local, remote)
        out = bytes(replies[:n])
        del replies[:n]
        return out

    assert expect(8) == b"OKAY" + bytes(4)
    host.send(A_WRTE, local, remote, _sync_request(b"STAT", "/sdcard/rs/new/f.txt"))
    reply = expect(16)
    mode, size, mtime = (int.from_bytes(reply[i:i + 4], "little") for i in (4, 8, 12))
    assert (mode, size, mtime) == (0o100666, len(payload), 1_700_000_000)
    host.send(A_WRTE, local, remote, _sync_request(b"STAT", "/sdcard/rs/missing"))
    assert expect(16) == b"STAT" + bytes(12)
    host.send(A_WRTE, local, remote, _sync_request(b"LST2", "/sdcard/rs/missing"))
    assert expect(72) == b"LST2" + (2).to_bytes(4, "little") + bytes(64)
    host.send(A_WRTE, local, remote, _sync_request(b"LIST", "/sdcard/rs/new"))
    names = []
    while True:
        head = expect(20)
        if head[:4] == b"DONE":
            assert head == adbd.LIST_DONE_V1
            break
        names.append(expect(int.from_bytes(head[16:20], "little")).decode())
        assert int.from_bytes(head[12:16], "little") != 0  # existing entries have an mtime
    assert names == [".", "..", "f.txt"]
    host.send(A_WRTE, local, remote, _sync_request(b"RECV", "/sdcard/rs/new/f.txt"))
    assert expect(8 + len(payload) + 8) == b"DATA" + len(payload).to_bytes(4, "little") + payload + b"DONE" + bytes(4)
    host.send(A_WRTE, local, remote, SyncFrame(b"QUIT", 0).encode())
    assert host.collect(local, remote)[0] == b""
    assert (server.device.state.host_path("/sdcard/rs/new/f.txt").read_bytes()) == payload


def test_sync_recv_of_missing_file_fails_and_ends_the_service(host):
    local, remote = host.open("sync:")
    host.send(A_WRTE, local, remote, _sync_request(b"RECV", "/sdcard/nope/none"))
    data, _ = host.collect(local, remote)
    msg = b"open failed: No such file or directory"
    assert data == b"FAIL" + len(msg).to_bytes(4, "little") + msg


def test_stats_count_link_bytes_and_streams(tmp_path):
    with AdbdServer(tmp_path / "device", port=0) as server:  # its own: no other test's traffic
        _check_stats(server)


def _check_stats(server):
    server.stats.reset()
    assert server.stats.snapshot()["bytes_sent"] == 0
    client = RawHost(server.port)
    client.connect()
    for i in range(3):
        assert client.run(f"shell:echo {i}") == f"{i}\n".encode()
    client.close()
    deadline = time.monotonic() + 10  # the server counts a send just after it completes
    while time.monotonic() < deadline and (server.stats.snapshot()["bytes_sent"] < client.received
                                           or server.stats.snapshot()["bytes_received"] < client.sent):
        time.sleep(0.01)  # the server's threads count a message just after it is sent or read
    snap = server.stats.snapshot()
    assert snap["bytes_received"] == client.sent
    assert snap["bytes_sent"] == client.received
    assert snap["streams_opened"] == 3 and snap["connections"] == 1
    server.stats.reset()
    assert set(server.stats.snapshot().values()) == {0}


def test_concurrent_connections_are_serialized_and_correct(server):
    errors: list[str] = []

    def worker(n: int) -> None:
        client = RawHost(server.port)
        client.connect()
        for i in range(15):
            cmd = f"echo {n}-{i} > /sdcard/conc{n}; cat /sdcard/conc{n}"
            got = client.run(f"shell:{cmd}")
            if got != f"{n}-{i}\n".encode():
                errors.append(f"{n}/{i}: {got!r}")
        client.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors


def test_root_when_not_root_answers_restarting_and_drops_the_link(server):
    state = server.device.state
    state.config["is_root"] = False
    state.save()
    client = RawHost(server.port)
    client.connect()
    local, remote = client.open("root:")
    assert client.collect(local, remote)[0] == b"restarting adbd as root\n"
    assert client.closed_by_peer()
    client.close()
    again = RawHost(server.port)
    again.connect()
    assert again.run("root:") == b"adbd is already running as root\n"
    assert again.run("shell:whoami") == b"root\n"
    again.close()


def test_a_restarting_adbd_opens_no_new_stream_before_the_link_drops(server):
    """`root:` flips the identity at once, but, as an adbd that has exited, the old link answers
    no further command: a shell opened before the drop is refused, so nothing can see root on a
    link that is about to vanish (the adb server's next command fails and redials)."""
    unroot = RawHost(server.port)
    unroot.connect()
    unroot.run("unroot:")
    unroot.close()
    client = RawHost(server.port)
    client.connect()
    local, remote = client.open("root:")
    reply = client.read()  # the answer, not acknowledged yet: the link stays up until it is
    assert reply.command == A_WRTE and reply.data == b"restarting adbd as root\n"
    client.send(A_OPEN, 999, 0, b"shell:id -u\0")
    refused = client.read()
    assert (refused.command, refused.arg0, refused.arg1) == (A_CLSE, 0, 999)
    client.send(A_OKAY, local, remote)
    assert client.closed_by_peer()
    client.close()


def test_interactive_raw_shell_runs_line_by_line(host):
    local, remote = host.open("shell,v2,raw:")
    host.send(A_WRTE, local, remote, adbd.encode_packet(ID_STDIN, b"echo one\necho two >&2\nfal"))
    assert host.read().command == A_OKAY
    host.send(A_WRTE, local, remote, adbd.encode_packet(ID_STDIN, b"se\n") + adbd.encode_packet(ID_CLOSE_STDIN))
    raw, _ = host.collect(local, remote)
    assert PacketDecoder().feed(raw) == [(ID_STDOUT, b"one\n"), (ID_STDERR, b"two\n"), (ID_EXIT, b"\x01")]


def test_interactive_pty_shell_echoes_prompts_and_ends_on_ctrl_d(host):
    local, remote = host.open("shell,v2,TERM=xterm,pty:")
    host.send(A_WRTE, local, remote, adbd.encode_packet(ID_WINDOW_SIZE, b"24x80,0x0\0")
              + adbd.encode_packet(ID_STDIN, b"echo hx\x7fi\r\x04"))
    raw, _ = host.collect(local, remote)
    out = b"".join(d for k, d in PacketDecoder().feed(raw) if k == ID_STDOUT)
    exits = [d for k, d in PacketDecoder().feed(raw) if k == ID_EXIT]
    prompt = b"emu64x:/ # "
    assert out == prompt + b"echo hx\b \bi\r\nhi\r\n" + prompt
    assert exits == [b"\x00"]


def test_start_stop_and_context_manager(tmp_path):
    srv = AdbdServer(tmp_path / "d", port=0).start()
    port = srv.port
    assert port > 0 and (tmp_path / "d" / "device.json").exists()
    client = RawHost(port)
    client.connect()
    srv.stop()
    assert client.closed_by_peer()
    client.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


# ================================================================================================
# End to end: Debian's adb and adbutils through a private adb server
# ================================================================================================
class Adb:
    """Run `adb` against a private server port."""

    @staticmethod
    def base_env() -> dict[str, str]:
        """This process's environment for adb, without a serial, with a terminal."""
        return {**{k: v for k, v in os.environ.items() if k != "ANDROID_SERIAL"}, "TERM": "xterm"}

    def __init__(self, server_port: int):
        self.port = server_port
        self.env = {**self.base_env(), "ANDROID_ADB_SERVER_PORT": str(server_port)}

    def __call__(self, *args: str, input: bytes | None = None, timeout: float = 20,
                 serial: str | None = None) -> subprocess.CompletedProcess:
        argv = [ADB, *(["-s", serial] if serial else []), *args]
        return subprocess.run(argv, input=input if input is not None else b"", capture_output=True,
                              env=self.env, timeout=timeout)

    def connect(self, serial: str) -> None:
        """`adb connect` with a bounded retry loop, then wait until the device is online."""
        for _ in range(50):
            out = self("connect", serial).stdout.decode()
            if "connected to" in out and "failed" not in out:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"adb connect {serial}: {out}")
        self("wait-for-device", serial=serial, timeout=15).check_returncode()


@pytest.fixture(scope="module")
def adb():
    if not os.path.exists(ADB):
        pytest.skip(f"{ADB} is absent (install Debian's adb to run the end-to-end adb tests)")
    with private_adb_server(Adb.base_env()) as port:
        yield Adb(port)


@pytest.fixture(scope="module")
def device(adb, tmp_path_factory):
    """(AdbdServer, serial) connected through the private adb server."""
    with AdbdServer(tmp_path_factory.mktemp("adb-e2e") / "device", port=0) as srv:
        adb.connect(srv.serial)
        yield srv, srv.serial
        adb("disconnect", srv.serial)


def test_adb_devices_lists_product_model_device(adb, device):
    _, serial = device
    lines = adb("devices", "-l").stdout.decode().splitlines()
    line = next(l for l in lines if l.startswith(serial))
    assert line.split()[1] == "device"
    assert "product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64x" in line
    assert adb("get-serialno", serial=serial).stdout.decode().strip() == serial
    assert adb("features", serial=serial).stdout.decode().split() == list(adbd.FEATURES)


def test_adb_shell_output_and_exit_codes(adb, device):
    _, serial = device
    result = adb("shell", "echo", "hi", serial=serial)
    assert (result.stdout, result.returncode) == (b"hi\n", 0)
    assert adb("shell", "exit 42", serial=serial).returncode == 42
    assert adb("shell", "false", serial=serial).returncode == 1
    both = adb("shell", "echo out; echo err >&2; exit 3", serial=serial)
    assert (both.stdout, both.stderr, both.returncode) == (b"out\n", b"err\n", 3)
    assert adb("shell", "echo $TERM", serial=serial).stdout == b"xterm\n"


def test_adb_shell_quoting_and_special_characters(adb, device):
    _, serial = device
    script = """echo 'a  b' "c;d" 'it'"'"'s' $((1+2)) "h\u00e9llo \u2713" \\$HOME; x=1 && echo "[$x]" | cat"""
    result = adb("shell", script, serial=serial)
    assert result.stdout.decode() == "a  b c;d it's 3 h\u00e9llo \u2713 $HOME\n[1]\n"


def test_adb_shell_reads_stdin(adb, device):
    _, serial = device
    data = b"line one\nbinary \x00\xff\x01 end\n"
    assert adb("shell", "cat", serial=serial, input=data).stdout == data
    assert adb("shell", "wc -l", serial=serial, input=b"1\n2\n3\n").stdout == b"3\n"
    script = b"echo first\nfalse\necho last >&2\n"
    piped = adb("shell", serial=serial, input=script)  # `adb shell < script`
    assert (piped.stdout, piped.stderr, piped.returncode) == (b"first\n", b"last\n", 0)


def test_adb_push_pull_binary_into_new_nested_dir(adb, device, tmp_path):
    srv, serial = device
    data = random.Random(20231015).randbytes(5 * 1024 * 1024 + 123)
    local = tmp_path / "blob.bin"
    local.write_bytes(data)
    pushed = adb("push", str(local), "/sdcard/e2e/deep/er/blob.bin", serial=serial)
    assert pushed.returncode == 0, pushed.stderr
    on_device = srv.device.state.host_path("/sdcard/e2e/deep/er/blob.bin").read_bytes()
    assert hashlib.sha256(on_device).digest() == hashlib.sha256(data).digest()
    assert adb("shell", "wc -c < /sdcard/e2e/deep/er/blob.bin", serial=serial).stdout == f"{len(data)}\n".encode()
    back = tmp_path / "back.bin"
    assert adb("pull", "/sdcard/e2e/deep/er/blob.bin", str(back), serial=serial).returncode == 0
    assert hashlib.sha256(back.read_bytes()).hexdigest() == hashlib.sha256(data).hexdigest()
    missing = adb("pull", "/sdcard/e2e/none.bin", str(tmp_path / "none"), serial=serial)
    assert missing.returncode != 0 and b"No such file or directory" in missing.stdout + missing.stderr


def test_adb_pull_directory_and_ls(adb, device, tmp_path):
    _, serial = device
    adb("shell", "mkdir -p /sdcard/tree/sub && echo one > /sdcard/tree/a.txt && echo two > /sdcard/tree/sub/b.txt",
        serial=serial).check_returncode()
    assert adb("pull", "/sdcard/tree", str(tmp_path / "tree"), serial=serial).returncode == 0
    assert (tmp_path / "tree" / "a.txt").read_text() == "one\n"
    assert (tmp_path / "tree" / "sub" / "b.txt").read_text() == "two\n"
    listing = adb("ls", "/sdcard/tree", serial=serial).stdout.decode().splitlines()
    entries = {line.split()[3]: line.split()[:3] for line in listing}
    assert set(entries) == {".", "..", "a.txt", "sub"}
    mode, size, mtime = (int(x, 16) for x in entries["a.txt"])
    assert (mode >> 12, size) == (0o10, 4) and mtime != 0
    assert int(entries["sub"][0], 16) >> 12 == 0o4


def test_adb_root_restarts_and_reconnects(adb, device):
    srv, serial = device
    assert adb("unroot", serial=serial).stdout == b"restarting adbd as non root\n"
    adb("wait-for-device", serial=serial, timeout=15).check_returncode()
    assert adb("shell", "whoami", serial=serial).stdout == b"shell\n"
    assert adb("root", serial=serial).stdout == b"restarting adbd as root\n"
    adb("wait-for-device", serial=serial, timeout=15).check_returncode()
    assert adb("shell", "whoami", serial=serial).stdout == b"root\n"
    assert adb("root", serial=serial).stdout == b"adbd is already running as root\n"


@pytest.mark.parametrize("args, status", [
    (("reverse", "--list"), 0),  # read as one length-prefixed string, printed as is
    (("reverse", "tcp:6000", "tcp:7000"), 1),  # read as an OKAY/FAIL status: `adb: error: ...`
    (("tcpip", "5555"), 0),
    (("remount",), 0),
])
def test_adb_prints_that_unsupported_services_are_unsupported(adb, device, args, status):
    _, serial = device
    result = adb(*args, serial=serial)
    text = (result.stdout + result.stderr).decode()
    assert f"the simulated device does not support adb {args[0]}" in text and "protocol fault" not in text
    assert result.returncode == status
    assert adb("shell", "echo", "alive", serial=serial).stdout == b"alive\n"


def test_adbutils_through_the_real_server(adb, device):
    adbutils = pytest.importorskip("adbutils")
    srv, serial = device
    dev = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(serial)
    assert dev.shell("echo x") == "x"
    data = random.Random(5).randbytes(300_000)
    dev.sync.push(data, "/sdcard/au/nested/f.bin")
    assert dev.sync.read_bytes("/sdcard/au/nested/f.bin") == data
    info = dev.sync.stat("/sdcard/au/nested/f.bin")
    assert info.size == len(data) and info.mode & 0o100000
    assert dev.sync.exists("/sdcard/au") and not dev.sync.exists("/sdcard/au/none")
    assert dev.shell2("sh -c 'exit 3'").returncode == 3
    v2 = dev.shell2("echo o; echo e >&2; exit 4", v2=True)
    assert (v2.returncode, v2.stdout, v2.stderr) == (4, "o\n", "e\n")
    assert dev.shell("screencap -p", encoding=None)[:8] == b"\x89PNG\r\n\x1a\n"  # binary-clean


def test_stats_count_an_adb_push(adb, device, tmp_path):
    srv, serial = device
    local = tmp_path / "s.bin"
    local.write_bytes(bytes(200_000))
    srv.stats.reset()
    adb("push", str(local), "/sdcard/stats.bin", serial=serial).check_returncode()
    adb("shell", "true", serial=serial).check_returncode()
    snap = srv.stats.snapshot()
    assert snap["streams_opened"] == 2  # one sync: stream, one shell stream
    assert 200_000 < snap["bytes_received"] < 200_000 + 4096


def test_two_servers_at_once_each_see_their_own_state(adb, device, tmp_path):
    srv_a, serial_a = device
    with AdbdServer(tmp_path / "second", port=0) as srv_b:
        adb.connect(srv_b.serial)
        try:
            assert serial_a != srv_b.serial
            adb("shell", "echo A > /sdcard/who", serial=serial_a).check_returncode()
            adb("shell", "echo B > /sdcard/who", serial=srv_b.serial).check_returncode()
            assert adb("shell", "cat /sdcard/who", serial=serial_a).stdout == b"A\n"
            assert adb("shell", "cat /sdcard/who", serial=srv_b.serial).stdout == b"B\n"
            listed = adb("devices").stdout.decode()
            assert serial_a in listed and srv_b.serial in listed
        finally:
            adb("disconnect", srv_b.serial)


def _read_line(proc: subprocess.Popen, timeout: float) -> str:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "the simulator printed nothing"
    return proc.stdout.readline().decode()


@contextlib.contextmanager
def _python(*argv: str, **popen: Any) -> Iterator[subprocess.Popen]:
    """`python ARGV...` run from the checkout, its stdout and stderr piped; killed at the end of the
    block if it is still running."""
    proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=MAIN, **popen)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_server_stopped_before_it_serves_returns_from_serve_forever(tmp_path):
    # what a SIGTERM handled between `serve`'s handler being set and its loop starting does
    server = AdbdServer(tmp_path / "device", port=0)
    server.listen()
    server.stop()
    server.serve_forever(wake_on_signals=True)  # returns at once, nothing registered on closed sockets
    assert signal.set_wakeup_fd(-1) == -1  # and no wakeup fd was left pointing at them


def test_cli_serve_connect_shell_and_sigterm(adb, tmp_path):
    state = tmp_path / "cli-device"
    with _python("-m", "taskkit.sim", "serve", "--port", "0", "--state", str(state)) as proc:
        line = _read_line(proc, 30)
        assert line.startswith(f"serving simulated device {state} on 127.0.0.1:")
        serial = line.split()[-1]
        adb.connect(serial)
        assert adb("shell", "getprop ro.product.model", serial=serial).stdout == b"sdk_gphone64_x86_64\n"
        adb("disconnect", serial)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        assert proc.stderr.read() == b""


# `serve` in a process whose other thread takes the SIGTERM (signal.pthread_kill to itself) once
# the test writes a line to its stdin: the kernel may hand a process's signal to any thread.
_SIGTERM_ON_ANOTHER_THREAD = """
import signal, sys, threading
from taskkit.sim.__main__ import main

def kill_from_here():
    sys.stdin.readline()
    signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

threading.Thread(target=kill_from_here, daemon=True).start()
sys.exit(main(["serve", "--port", "0", "--state", sys.argv[1]]))
"""


def test_cli_serve_stops_on_a_sigterm_another_thread_takes(tmp_path):
    # The handler runs in the main thread only; a served device asleep in its loop with no client
    # used to sleep on (it hung here before the wake socket became the signal wakeup fd).
    with _python("-c", _SIGTERM_ON_ANOTHER_THREAD, str(tmp_path / "device"), stdin=subprocess.PIPE) as proc:
        assert _read_line(proc, 30).startswith("serving simulated device")
        proc.stdin.write(b"now\n")
        proc.stdin.flush()
        assert proc.wait(timeout=15) == 0
        assert proc.stderr.read() == b""


@pytest.mark.parametrize("argv", [
    ["serve", "--state", "x", "--port", "nope"],
    ["serve", "--bogus"],
    ["serve"],
    [],
])
def test_cli_bad_flags_are_one_line_and_exit_2(argv):
    result = subprocess.run([sys.executable, "-m", "taskkit.sim", *argv], capture_output=True, cwd=MAIN,
                            timeout=30)
    assert result.returncode == 2
    assert result.stdout == b""
    assert len(result.stderr.decode().splitlines()) == 1
