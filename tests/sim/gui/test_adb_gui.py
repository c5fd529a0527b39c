"""The GUI over stock adb against the served simulator (`AdbdServer`, as `python -m taskkit.sim
serve` runs it): `adb shell uiautomator dump`, `adb pull`, `adb shell input tap/text`,
`adb exec-out screencap -p` — a tap on a dumped node's centre changes what the checks read."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taskkit.device.services.ui import parse_window_dump
from tests.sim.gui.helpers import WIFI

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from check_cost import Link  # noqa: E402 - a served simulator behind a private adb server


def test_over_stock_adb(tmp_path: Path) -> None:
    link = Link(tmp_path / "device")
    adb = ["adb", "-P", str(link.adb_port), "-s", f"127.0.0.1:{link.server.port}"]

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([*adb, *args], capture_output=True, timeout=60, env=link.env)
        assert done.returncode == 0, done
        return done

    def elements():
        run("shell", "uiautomator", "dump")
        run("pull", "/sdcard/window_dump.xml", str(tmp_path / "dump.xml"))
        return parse_window_dump((tmp_path / "dump.xml").read_text())

    def tap(label: str) -> None:
        found = [e for e in elements() if label in (e.text, e.content_description)
                 or (e.resource_name or "").endswith(":id/" + label)]
        assert found, label
        run("shell", "input", "tap", *map(str, found[-1].bbox.center))

    try:
        home = run("exec-out", "screencap", "-p").stdout
        run("shell", "settings", "put", "global", "wifi_on", "0")
        assert b"UI hierchary dumped to: /sdcard/window_dump.xml" in run("shell", "uiautomator", "dump").stdout
        tap("Settings")
        tap("Network & internet")
        tap("Internet")
        tap(WIFI)
        assert run("shell", "settings", "get", "global", "wifi_on").stdout.strip() == b"1"
        settings = run("exec-out", "screencap", "-p").stdout
        assert settings.startswith(b"\x89PNG\r\n\x1a\n") and home.startswith(b"\x89PNG\r\n\x1a\n")
        assert settings != home
        run("shell", "am", "start", "-a", "android.intent.action.SENDTO", "-d", "smsto:+12125550134")
        tap("thread_type_message")
        run("shell", "input", "text", "On%smy%sway")
        tap("thread_send_message")
        rows = run("shell", "content", "query", "--uri", "content://sms/sent", "--projection", "address:body").stdout
        assert b"address=+12125550134, body=On my way" in rows
    finally:
        link.close()


def test_adbutils_device_api_works_unchanged(tmp_path: Path) -> None:
    """What agents written for real phones call through adbutils: window_size (wm size and
    `dumpsys display`'s orientation), dump_hierarchy, screenshot, click and send_keys."""
    import adbutils

    link = Link(tmp_path / "device")
    try:
        client = adbutils.AdbClient(host="127.0.0.1", port=link.adb_port)
        serial = f"127.0.0.1:{link.server.port}"
        client.connect(serial)
        phone = client.device(serial)
        assert tuple(phone.window_size()) == (1080, 2400)
        assert phone.screenshot().size == (1080, 2400)
        phone.shell("am start -n com.arduia.expense/.ui.MainActivity")

        def center(rid: str) -> tuple[int, int]:
            found = [e for e in parse_window_dump(phone.dump_hierarchy()) if (e.resource_name or "").endswith(rid)]
            assert found, rid
            return found[-1].bbox.center

        phone.click(*center(":id/fb_main_add"))
        phone.click(*center(":id/edt_name"))
        phone.send_keys("Lunch box")
        assert "Lunch box" in [e.text for e in parse_window_dump(phone.dump_hierarchy())]
    finally:
        link.close()
