"""A simulated device's storage quota (taskkit/sim/storage.py): writes past it fail as Android's do,
with ENOSPC (`No space left on device`), from shell redirections, cat, cp, tee, SQLite and adb
push; pushes are staged inside the state directory; `df` agrees with the quota; and the
accounting keeps a running total instead of walking the tree on every write."""
from __future__ import annotations

import os
import struct
import tempfile

import pytest

from taskkit.sim import adbd, storage
from taskkit.sim.adbd import A_CLSE, A_OKAY, A_WRTE, AdbdServer
from taskkit.sim.device import SimDevice, StateDirError
from tests.sim.test_adbd import RawHost
from tests.sim.test_adbd_load import served, serve_refuses

QUOTA = 2 << 20


@pytest.fixture
def device(tmp_path):
    phone = SimDevice(tmp_path / "device")
    storage.set_quota(phone.state, QUOTA)
    yield phone
    phone.close()


def _held(device: SimDevice) -> int:
    return storage.tree_size(device.state.fs_root)


def test_the_reported_loop_stops_at_the_quota_with_enospc(device) -> None:
    device.check("seq 1 100000 > /sdcard/a")  # 588,895 bytes
    result = device.shell("for i in $(seq 1 40); do cat /sdcard/a >> /sdcard/c; done")  # 23 MB asked
    assert "cat: write: No space left on device" in result.stderr
    assert _held(device) <= QUOTA
    assert _held(device) > QUOTA - 600_000  # filled up to the quota: the last write was partial
    assert device.shell("echo more >> /sdcard/c").stderr == (
        "/system/bin/sh: echo: write error: No space left on device\n")
    assert device.shell("echo more >> /sdcard/c").exit_code == 1


@pytest.mark.parametrize("command, message", [
    ("cp /sdcard/a /sdcard/copy", "cp: bad '/sdcard/a': No space left on device"),
    ("cat /sdcard/a | tee /sdcard/t >/dev/null", "tee: /sdcard/t: No space left on device"),
    ("sort -o /sdcard/s /sdcard/a", "sort: /sdcard/s: No space left on device"),
    ("seq 1 100000 > /sdcard/b", "seq: write: No space left on device"),
    ("sqlite3 /data/local/tmp/q.db 'CREATE TABLE IF NOT EXISTS t(x); INSERT INTO t SELECT randomblob(4096) FROM "
     "(WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 2000) SELECT i FROM c)'",
     "Error: stepping, database or disk is full (13)"),
])
def test_every_write_path_fails_with_enospc_when_full(device, command, message) -> None:
    device.check("seq 1 100000 > /sdcard/a")
    device.shell("for i in 1 2 3 4; do cat /sdcard/a >> /sdcard/fill; done")
    result = device.shell(command)
    assert message in result.stderr and result.exit_code != 0, result
    assert _held(device) <= QUOTA


def test_sqlite_stops_at_the_quota_and_frees_space_when_rows_go(device) -> None:
    grow = ("sqlite3 /data/local/tmp/q.db 'CREATE TABLE IF NOT EXISTS t(x); INSERT INTO t SELECT randomblob(4096) "
            "FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 200) SELECT i FROM c)'")
    results = [device.shell(grow) for _ in range(6)]  # 6 × 800 KB asked of a 2 MiB device
    assert any("database or disk is full" in r.stderr for r in results)
    assert _held(device) <= QUOTA
    device.check("rm /data/local/tmp/q.db")
    assert device.shell(grow).exit_code == 0  # the space is free again (found by walking once more)


def test_df_agrees_with_the_quota(device) -> None:
    device.check("seq 1 100000 > /sdcard/a")
    out = device.check("df /data /sdcard")
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["Filesystem", "1K-blocks", "Used", "Available", "Use%", "Mounted", "on"]
    for row in rows[1:]:
        size, used, available = int(row[1]), int(row[2]), int(row[3])
        assert size == QUOTA // 1024 and used + available == size
        assert used == -(-_held(device) // 1024)
    assert [row[5] for row in rows[1:]] == ["/data", "/storage/emulated"]


def test_the_running_total_walks_the_tree_once_for_many_writes(device) -> None:
    device.shell("for i in $(seq 1 300); do echo line $i >> /sdcard/log; echo $i > /sdcard/f$i; done")
    assert storage.of(device.state).walks <= 1
    assert storage.of(device.state).used == _held(device)


def test_the_quota_comes_from_device_json_then_the_environment(tmp_path, monkeypatch) -> None:
    phone = SimDevice(tmp_path / "d")
    assert storage.quota_of(phone.state) == storage.DEFAULT_QUOTA
    monkeypatch.setenv(storage.QUOTA_ENV, "12345678")
    assert storage.quota_of(phone.state) == 12345678
    storage.set_quota(phone.state, 4096)
    assert storage.of(phone.state).quota == 4096
    monkeypatch.setenv(storage.QUOTA_ENV, "lots")
    storage.set_quota(phone.state, None)
    with pytest.raises(storage.QuotaError, match="TASKKIT_SIM_STORAGE_QUOTA: 'lots' is not a number of bytes"):
        storage.quota_of(phone.state)
    with pytest.raises(StateDirError, match="TASKKIT_SIM_STORAGE_QUOTA: 'lots'"):  # bad input (exit 2) for --device sim
        SimDevice()


def _push(client: RawHost, path: str, data: bytes) -> bytes:
    """adb push over the sync service: SEND, DATA..., DONE; the device's reply."""
    local, remote = client.open("sync:")
    spec = f"{path},33188".encode()
    frames = [b"SEND" + struct.pack("<I", len(spec)) + spec]
    frames += [b"DATA" + struct.pack("<I", len(data[i:i + 65536])) + data[i:i + 65536]
               for i in range(0, len(data), 65536)]
    frames.append(b"DONE" + struct.pack("<I", 1700000000))
    reply = b""
    for frame in frames:
        client.send(A_WRTE, local, remote, frame)
        while (message := client.read()).command != A_OKAY:  # our WRTE's OKAY; replies may come first
            if message.command == A_WRTE:
                reply += message.data
                client.send(A_OKAY, local, remote)
            elif message.command == A_CLSE:
                return reply
    client.send(A_WRTE, local, remote, b"QUIT" + bytes(4))
    while (message := client.read()).command != A_CLSE:
        if message.command == A_WRTE:
            reply += message.data
            client.send(A_OKAY, local, remote)
    return reply


def test_adb_push_is_staged_in_the_state_dir_and_fails_with_adbds_message_when_full(tmp_path, monkeypatch) -> None:
    host_tmp = tmp_path / "host_tmp"
    host_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(host_tmp))
    state = tmp_path / "device"
    with AdbdServer(state, port=0) as server:
        storage.set_quota(server._device.state, 24 << 20)
        client = RawHost(server.port, timeout=120)
        client.connect()
        assert _push(client, "/sdcard/big", os.urandom(17 << 20)) == adbd.SYNC_OKAY  # past the 16 MiB spool
        assert list(host_tmp.iterdir()) == []  # nothing staged outside the state directory
        reply = _push(client, "/sdcard/bigger", os.urandom(17 << 20))
        assert reply.startswith(b"FAIL") and b"write failed: No space left on device" in reply
        assert not os.path.exists(state / "fs/data/media/0/bigger")
        assert storage.tree_size(state / "fs") <= 24 << 20
        assert client.run("shell:echo alive") == b"alive\n"


def test_serve_takes_a_storage_quota(tmp_path) -> None:
    with served(tmp_path / "d", "--storage_quota", "1000000") as port:
        client = RawHost(port, timeout=120)
        client.connect()
        assert b"No space left on device" in client.run("shell:seq 1 1000000 > /sdcard/x")
        assert client.run("shell:df /data").split(b"\n")[1].split()[1] == b"976"
    assert "--storage_quota" in serve_refuses(tmp_path / "e", "--storage_quota", "-5")
