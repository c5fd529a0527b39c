"""taskkit.calibrate (issue #38): the same episodes on a device and on the simulator, compared.

The device here is the simulator itself, served over stock adb (`taskkit.sim serve` in this
process, reached through a private adb server), so what differs is only what a test plants: a
device config on the simulated side, a screen changed and an app that writes differently on the
served side (patched in this process, which serves it; the simulated side runs in a subprocess
and is not patched). Unplanted, the two must agree on every step.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Iterator

import pytest

from taskkit.calibrate import compare
from taskkit.sim import providers
from taskkit.sim.gui.apps import sms as sms_screens
from tests.device.test_adb_device import adb_connect, private_adb_server, requires_adb, served_sim
from tests.test_report_html import headless

TASK = "SimpleSmsSend"


def calibrate(adb: tuple[int, str], out: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    port, serial = adb
    proc = subprocess.run([sys.executable, "-m", "taskkit.calibrate", f"--device=adb:{serial}", f"--adb_port={port}",
                           f"--output_dir={out}", *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc, json.loads((out / "calibration.json").read_text(encoding="utf-8"))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, str]]:
    with private_adb_server() as port, served_sim(tmp_path / "served") as server:
        serial = f"127.0.0.1:{server.port}"
        adb_connect(port, serial)
        yield port, serial


@requires_adb
def test_an_unmodified_simulator_agrees_on_every_step(served, tmp_path: Path) -> None:
    out = tmp_path / "cal"
    proc, data = calibrate(served, out, "--tasks=SimpleSmsSend,MarkorCreateNote", "--record")
    assert data["agrees"] and data["episodes"] == 2
    assert data["score_agreement"] == data["state_agreement"] == data["step_agreement"] == 1.0
    assert all(app["recall"] == app["precision"] == 1.0 for app in data["per_app"])
    assert {a["name"] for a in data["per_app"]} >= {"com.simplemobiletools.smsmessenger", "net.gsantner.markor"}
    assert "agree: 2 episode(s)" in proc.stdout
    dom, console = headless(out / "calibration.html")
    assert console == [] and "agree on every episode and every step" in dom


@requires_adb
def test_another_device_config_is_named_at_the_first_step(served, tmp_path: Path) -> None:
    out = tmp_path / "cal"
    _, data = calibrate(served, out, f"--tasks={TASK}", "--sim_device_config=bmoca-002", "--record")
    (episode,) = data["per_episode"]
    assert not data["agrees"] and episode["first_divergence"] == 0
    first = episode["diverged_steps"][0]
    assert first["bounds"] and "dp)" in first["bounds"][0]  # 440 dpi against the device's 420: every box moves
    assert episode["first_divergence_dumps"]["device"] and episode["first_divergence_dumps"]["simulator"]
    shots = re.findall(r'<img src="([^"]+)"', (out / "calibration.html").read_text(encoding="utf-8"))
    assert [Path(s).parts[0] for s in shots] == ["device", "sim"] and all((out / s).is_file() for s in shots)
    assert all(s.endswith("/step_000.png") for s in shots)  # both sides' screens at the first divergence


@requires_adb
def test_a_changed_screen_and_a_changed_write_are_each_named(served, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    avatar, insert = sms_screens._avatar, providers.insert

    def planted_avatar(ui: Any, row: Any, title: str) -> Any:  # the conversation rows' picture gets another id
        node = avatar(ui, row, title)
        node.resource_id = node.resource_id.replace("conversation_image", "planted_image")
        return node

    def planted_insert(state: Any, uri: str, values: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        if "body" in values:  # the app stores what it sends with a suffix
            values = {**values, "body": f"{values['body']} (planted)"}
        return insert(state, uri, values, *args, **kwargs)

    monkeypatch.setattr(sms_screens, "_avatar", planted_avatar)
    # only the app's own writes (its send button), not the task's set-up through the provider
    monkeypatch.setattr(sms_screens, "providers", types.SimpleNamespace(**{**vars(providers), "insert": planted_insert}))
    _, data = calibrate(served, tmp_path / "cal", f"--tasks={TASK}")
    (episode,) = data["per_episode"]
    assert episode["differences"]["score"] == {"device": 0.0, "simulator": 1.0}
    assert "no new row matches" in episode["differences"]["reasons"]["device"][0]
    on_list = [s for s in episode["diverged_steps"] if any("planted_image" in m for m in s["missing"])]
    assert on_list and all(any("conversation_image" in e for e in s["extra"]) for s in on_list)
    assert on_list[0]["screen"].startswith("com.simplemobiletools.smsmessenger/")
    assert episode["first_divergence"] == on_list[0]["step"]
    written = [s for s in episode["diverged_steps"] if any("(planted)" in m for m in s["missing"])]
    assert written and written[0]["step"] > on_list[0]["step"] and "ThreadActivity" in written[0]["screen"]
    sms = next(a for a in data["per_app"] if a["name"] == "com.simplemobiletools.smsmessenger")
    assert sms["recall"] < 1.0 and any("planted_image" in m for m in sms["missing"])


def _step(elements: list[dict[str, Any]], action: dict[str, Any] | None = None, foreground: str = "a/.Main") -> dict:
    return {"foreground": foreground, "elements": elements, "action": action}


def _element(rid: str, text: str = "", box: list[int] | None = None, **flags: bool) -> dict[str, Any]:
    return {"resource_name": f"app:id/{rid}", "class_name": "android.widget.TextView", "text": text,
            "content_description": None, "bbox": box or [0, 0, 100, 100], **flags}


def test_a_step_names_missing_extra_flags_bounds_and_the_touched_element() -> None:
    device = _step([_element("title", "Hi"), _element("ok", "OK", [0, 200, 100, 300], is_clickable=True),
                    _element("gone")], {"action_type": "click", "index": 1})
    simulated = _step([_element("title", "Hi", [0, 0, 100, 110]), _element("ok", "OK", [0, 200, 100, 300]),
                       _element("new", box=[0, 400, 100, 500])], {"action_type": "click", "x": 50, "y": 50})
    diff, missing = compare.compare_step(4, "a/.Main", device, simulated, tolerance_dp=4, density=160)
    assert diff.step == 4 and not diff.agrees
    assert missing == diff.missing == ['gone (TextView)'] and diff.extra == ['new (TextView)']
    assert diff.flags == ['ok "OK" (TextView): is_clickable True on the device, False simulated']
    assert diff.bounds == ['title "Hi" (TextView): [0, 0, 100, 100] on the device, [0, 0, 100, 110] simulated (10.0 dp)']
    assert diff.lands_on == ('ok "OK" (TextView)', 'title "Hi" (TextView)')
    assert diff.counts == {"device": 3, "simulator": 3, "matched": 2}


def test_bounds_within_the_tolerance_in_dp_agree() -> None:
    step = _step([_element("title", "Hi", [0, 0, 100, 100])])
    moved = _step([_element("title", "Hi", [0, 0, 100, 110])])
    assert compare.compare_step(0, "s", step, moved, tolerance_dp=4, density=480)[0].agrees  # 10 px = 3.3 dp
    assert not compare.compare_step(0, "s", step, moved, tolerance_dp=3, density=480)[0].agrees
