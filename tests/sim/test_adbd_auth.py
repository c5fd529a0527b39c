"""Remote access needs adb's RSA authentication: the stock `adb` client gets in with a key listed
in the server's `adb_keys` file and stays `unauthorized` with any other key."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from taskkit.sim import adb_auth
from taskkit.sim.adbd import AdbdServer, is_loopback
from tests.device.test_adb_device import private_adb_server

ADB = shutil.which("adb") or "/usr/bin/adb"
pytestmark = pytest.mark.skipif(not os.path.exists(ADB), reason="Debian's adb is not installed")


def client_env(home: Path) -> dict[str, str]:
    """adb's environment for a client whose keys are in `home` (`client`, `stranger`)."""
    return {**os.environ, "HOME": str(home), "ADB_VENDOR_KEYS": str(home / "client")}


def adb(home: Path, port: int, *args: str) -> str:
    env = {**client_env(home), "ANDROID_ADB_SERVER_PORT": str(port)}
    return subprocess.run([ADB, "-P", str(port), *args], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL).stdout


def device_state(home: Path, port: int, serial: str) -> str:
    """The state `adb devices` shows for `serial` once it settles (bounded polling)."""
    state = ""
    for _ in range(100):
        lines = [line.split("\t") for line in adb(home, port, "devices").splitlines()[1:] if "\t" in line]
        state = dict(lines).get(serial, "")
        if state in ("device", "unauthorized"):
            return state
        time.sleep(0.05)
    return state


@pytest.fixture
def home(tmp_path: Path) -> Path:
    subprocess.run([ADB, "keygen", str(tmp_path / "client")], capture_output=True, timeout=60, check=True)
    subprocess.run([ADB, "keygen", str(tmp_path / "stranger")], capture_output=True, timeout=60, check=True)
    return tmp_path


@pytest.mark.parametrize("allowed, expected", [("client", "device"), ("stranger", "unauthorized")])
def test_only_listed_keys_get_in(home: Path, allowed: str, expected: str) -> None:
    with private_adb_server(client_env(home)) as port, \
            AdbdServer(home / "device", port=0, adb_keys=home / f"{allowed}.pub", require_auth=True) as server:
        adb(home, port, "connect", server.serial)
        assert device_state(home, port, server.serial) == expected
        if expected == "device":
            assert adb(home, port, "-s", server.serial, "shell", "echo", "in").strip() == "in"


def test_signature_checks_are_exact(home: Path) -> None:
    key = adb_auth.load_keys(home / "client.pub")[0]
    token = b"t" * adb_auth.TOKEN_SIZE
    assert not adb_auth.verify(key, token, b"\x00" * key.size)
    assert not adb_auth.verify(key, token, (key.modulus + 1).to_bytes(key.size + 1, "big")[1:])
    with pytest.raises(adb_auth.KeyFormatError, match="stranger.pub:1"):
        (home / "stranger.pub").write_text("not a key\n")
        adb_auth.load_keys(home / "stranger.pub")


def test_a_non_loopback_address_needs_keys(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and not is_loopback("0.0.0.0")
    with pytest.raises(ValueError, match="--adb_keys"):
        AdbdServer(tmp_path / "device", host="0.0.0.0", port=0)


def test_serve_refuses_a_public_address_without_keys(tmp_path: Path) -> None:
    import sys

    proc = subprocess.run([sys.executable, "-m", "taskkit.sim", "serve", "--state", str(tmp_path / "d"),
                           "--host", "0.0.0.0", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--adb_keys" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "d").exists()  # nothing was built
