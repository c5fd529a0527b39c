"""A scripted screen for the simulated device until its GUI lands: `uiautomator dump` writes a
fixture in Android's exact window_dump.xml format (the Wi-Fi page of Settings, its switch showing
the real `wifi_on` setting), `input tap` on the switch flips that setting, and `screencap -p`
prints a small PNG. Every tap is recorded."""
from __future__ import annotations

import contextlib
import struct
import zlib
from typing import Iterator

from taskkit.sim import commands as registry
from taskkit.sim.commands import settings as settings_cmd
from tests.device.test_ui import dump, node

SWITCH_BOUNDS = (900, 250, 1038, 340)


def wifi_screen(on: bool) -> str:
    rows = (node(text="Wi-Fi", class_="android.widget.TextView", bounds="[42,260][600,330]")
            + node(resource_id="android:id/switch_widget", class_="android.widget.Switch", checkable="true",
                   checked="true" if on else "false", clickable="true", focusable="true",
                   bounds="[900,250][1038,340]")
            + node(text="Saved networks", class_="android.widget.TextView", clickable="true",
                   bounds="[42,400][1038,500]"))
    return dump(node(node(rows, class_="androidx.recyclerview.widget.RecyclerView", scrollable="true",
                          bounds="[0,220][1080,2274]")
                     + node(class_="android.widget.EditText", content_desc="Search settings", clickable="true",
                            bounds="[40,60][1040,180]")))


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


@contextlib.contextmanager
def scripted_screen() -> Iterator[list[tuple[int, int]]]:
    """Install the scripted `uiautomator`, `input` and `screencap` for the block; yields the taps."""
    taps: list[tuple[int, int]] = []
    registry.load_all()  # the real commands first, so ours replace them (and come back after)
    saved = {name: registry.COMMANDS.get(name) for name in ("uiautomator", "input", "screencap")}

    def wifi_on(inv) -> bool:  # the same store `settings get` reads
        return settings_cmd.get_setting(inv.state, "global", "wifi_on") == "1"

    def uiautomator(inv) -> int:
        path = inv.args[1] if len(inv.args) > 1 else "/sdcard/window_dump.xml"
        if path == "/dev/tty":  # as the real command: the dump is printed (the simulator's screen reads)
            inv.out(wifi_screen(wifi_on(inv)))
            return 0
        inv.host_path(path).write_text(wifi_screen(wifi_on(inv)), encoding="utf-8")
        inv.out(f"UI hierchary dumped to: {path}\n")
        return 0

    def input_(inv) -> int:
        if inv.args[:1] == ["tap"]:
            x, y = int(float(inv.args[1])), int(float(inv.args[2]))
            taps.append((x, y))
            x1, y1, x2, y2 = SWITCH_BOUNDS
            if x1 <= x < x2 and y1 <= y < y2:
                settings_cmd.put_setting(inv.state, "global", "wifi_on", "0" if wifi_on(inv) else "1")
        return 0

    def screencap(inv) -> int:
        inv.out(tiny_png())
        return 0

    registry.COMMANDS.update(uiautomator=uiautomator, input=input_, screencap=screencap)
    try:
        yield taps
    finally:
        for name, func in saved.items():
            if func is None:
                registry.COMMANDS.pop(name, None)
            else:
                registry.COMMANDS[name] = func
