"""A GUI command's own work, counted (issue #37 item 2): what `input` and `uiautomator dump` spend
around the screen itself — encoding device.json and gui.json, reading back what was just
written, stamping log lines — and that what they write is what they wrote before."""
from __future__ import annotations

import json
import marshal
import random
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator
from zoneinfo import ZoneInfo

import pytest

from taskkit.connect import sim_device
from taskkit.sim import devicetime, logbuffer, state as sim_state, writeback
from taskkit.sim.gui import cache, store
from taskkit.sim.state import SimState
from tests.sim.test_step_counts import encodes, recorded  # noqa: F401 - encodes: a fixture (gui.json texts encoded)


@pytest.fixture(scope="module")
def device() -> Iterator[Any]:
    phone = sim_device()
    yield phone
    phone.close()


@pytest.fixture
def mkdirs() -> Iterator[list[str]]:
    """The folders asked to be made while the test runs (os.mkdir events)."""
    yield from recorded("os.mkdir")


# --- device.json ----------------------------------------------------------------------------
def test_device_json_is_encoded_by_the_c_encoder_and_reads_back_the_same(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def python_encoder(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("json's pure-Python encoder (what `indent` takes)")

    monkeypatch.setattr(json.encoder, "_make_iterencode", python_encoder)
    state = SimState(tmp_path / "d")
    state.config["props"] = {"z": "1", "a": "é\n", "m": None}
    state.config["tasks"] = [{"id": 2, "package": "p", "component": "p/.A"}]
    state.save()
    text = (tmp_path / "d" / "device.json").read_text()
    assert json.loads(text) == state.config == SimState(tmp_path / "d").config
    assert text == json.dumps(state.config, sort_keys=True, separators=(",", ":"))
    assert list(json.loads(text)) == sorted(state.config)  # sorted keys: the same data, the same file


def test_a_save_over_an_existing_device_json_makes_no_folder(tmp_path: Path, mkdirs: list[str]) -> None:
    state = SimState(tmp_path / "d")
    state.save()
    assert mkdirs == [str(tmp_path / "d")]  # the first save makes the state folder
    for epoch in (5, 6, 7):
        state.set_clock(epoch)
    assert mkdirs == [str(tmp_path / "d")] and SimState(tmp_path / "d").clock_epoch == 7


def test_a_save_encodes_only_the_entries_that_changed_and_parses_nothing(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    sim_state._ENCODED.clear()  # (entries kept by earlier tests)
    state = SimState(tmp_path / "d")
    state.config["app_databases"] = {f"p{i}/x.db": "CREATE TABLE t (a TEXT);" * 20 for i in range(30)}
    state.save()
    dumped: list[Any] = []
    parsed: list[str] = []
    dumps, loads = json.dumps, json.loads
    monkeypatch.setattr(json, "dumps", lambda obj, **kw: dumped.append(obj) or dumps(obj, **kw))
    monkeypatch.setattr(json, "loads", lambda text, **kw: parsed.append(text) or loads(text, **kw))
    for step in range(3):
        state.config["foreground"] = f"p{step}/.A"
        state.config["tasks"] = [{"id": step, "package": f"p{step}", "component": f"p{step}/.A"}]
        state.save()
    assert not any("app_databases" in obj for obj in dumped)  # the unchanged entries are joined as they were
    assert len(dumped) == len(parsed) == 2 * 3  # the foreground and the tasks, each encoded and read once
    monkeypatch.undo()
    writeback.write_back(tmp_path / "d")  # (the foreground and the tasks are held until now)
    text = (tmp_path / "d" / "device.json").read_text()
    assert text == json.dumps(state.config, sort_keys=True, separators=(",", ":"))
    assert SimState(tmp_path / "d").config == json.loads(text) == state.config
    assert list(state.config) == sorted(state.config)  # read back in the file's order, as before


def _plain(rng: random.Random, depth: int = 0) -> Any:
    """A random value of what device.json may hold (tuples too: they are written as lists)."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 6:
        return [_plain(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 7:
        return {str(rng.randrange(30)): _plain(rng, depth + 1) for _ in range(rng.randrange(4))}
    if kind == 8:
        return tuple(_plain(rng, depth + 1) for _ in range(rng.randrange(3)))
    return [None, rng.random() < 0.5, rng.randrange(-10**20, 10**20), rng.random() * 10 ** rng.randrange(-30, 30),
            "é\n\"x\ud800"[:rng.randrange(6)], float("inf")][kind]


def test_device_json_text_and_data_are_json_s_own() -> None:
    rng = random.Random(3)
    for _ in range(400):
        config = {str(rng.randrange(12)): _plain(rng) for _ in range(rng.randrange(8))}
        for _ in range(2):  # encoded, then joined from what was kept
            text, frozen = sim_state.config_text(config)
            assert text == json.dumps(config, sort_keys=True, separators=(",", ":"))
            read = marshal.loads(frozen)
            assert read == json.loads(text) and list(read) == list(json.loads(text))
            assert marshal.dumps(read, 0) == marshal.dumps(json.loads(text), 0)  # the same types and order
    numbered = {2: "a", 10: "b"}  # keys that are not text: json.dumps' own answer (sorted as numbers)
    text, frozen = sim_state.config_text(numbered)
    assert text == '{"2":"a","10":"b"}' and list(marshal.loads(frozen).items()) == [("2", "a"), ("10", "b")]
    with pytest.raises(TypeError):  # a value neither marshal nor JSON can take: json.dumps' error
        sim_state.config_text({"a": object()})


# --- gui.json ---------------------------------------------------------------------------------
def test_a_written_store_is_encoded_once_even_when_read_back_in_another_order(tmp_path: Path,
                                                                            encodes: list[str]) -> None:
    state = SimState(tmp_path / "d")
    state.root.mkdir()
    first = store.Store(state)
    first.data["scroll"]["9:list"] = 1
    first.data["scroll"]["1:list"] = 2  # gui.json sorts them: read back in another order
    encodes.clear()
    first.save()
    again = store.Store(state)
    writeback.write_back(state.root)
    assert len(encodes) == 1
    assert list(again.data["scroll"]) == ["1:list", "9:list"]
    assert (state.root / store.FILE_NAME).read_text() == store._text(again.data)
    again.save()  # nothing changed
    again.data["scroll"]["1:list"] = 3
    again.save()
    writeback.write_back(state.root)
    assert json.loads((state.root / store.FILE_NAME).read_text())["scroll"] == {"1:list": 3, "9:list": 1}
    assert len(encodes) == 3


def test_window_stacks_reconciled_unchanged_encode_and_write_nothing(device: Any, encodes: list[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    device.check("input keyevent KEYCODE_HOME")
    device.check("am start -n com.android.settings/.Settings")
    monkeypatch.setattr(cache, "enabled", False)  # every dump builds its screen: every stack is reconciled
    gui_json = device.state.root / store.FILE_NAME
    first = device.check("uiautomator dump /dev/tty")
    writeback.write_back(device.state.root)
    before, text = gui_json.stat(), gui_json.read_text()
    encodes.clear()
    for _ in range(3):
        assert device.check("uiautomator dump /dev/tty") == first
    writeback.write_back(device.state.root)
    assert encodes == []
    assert gui_json.read_text() == text and gui_json.stat().st_ino == before.st_ino


# --- logcat's clock -----------------------------------------------------------------------------
def test_log_lines_of_one_second_are_stamped_from_one_formatting(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    formats: list[str] = []
    original = devicetime.format_time
    monkeypatch.setattr(devicetime, "format_time", lambda fmt, when: formats.append(fmt) or original(fmt, when))
    devicetime.format_epoch.cache_clear()
    state = SimState(tmp_path / "d")
    state.root.mkdir()
    expected = []
    for zone, epoch in [(None, 1_700_000_000)] * 3 + [("Asia/Kolkata", 1_700_000_000), (None, 1_700_000_001),
                                                     ("Nowhere/Else", 1_700_000_001)]:
        state.config["props"]["persist.sys.timezone"] = zone
        state.config["clock_epoch"] = epoch
        logbuffer.append_log(state, "I", "tag", "message")
        expected.append(original("%m-%d %H:%M:%S.000", devicetime.local_time(state)))
    assert [entry.stamp for entry in logbuffer.read_log(state)] == expected
    assert len(formats) == 4  # one per second and zone


class _Instant(datetime):
    """A datetime whose calendar parts other conversions need are not there."""

    def isocalendar(self) -> Any:
        raise AssertionError("an ISO calendar computed for a conversion that does not use it")

    def timetuple(self) -> Any:
        raise AssertionError("a time tuple computed for a conversion that does not use it")


def test_a_numeric_conversion_computes_only_what_it_prints() -> None:
    when = _Instant(2026, 11, 29, 7, 5, 9)
    printed = devicetime.format_time("%m-%d %H:%M:%S %e %k %l %I %y %Y %C %w", when)
    assert printed == "11-29 07:05:09 29  7  7 07 26 2026 20 0"


def test_numeric_conversions_are_the_c_librarys() -> None:
    rng = random.Random(7)
    for _ in range(300):
        zone = ZoneInfo(rng.choice(["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"]))
        when = datetime.fromtimestamp(rng.randrange(-2**31, 2**33), zone)
        for spec in "dHIMSmyYCjuwUWVGgekl":
            assert devicetime.format_time(f"%{spec}", when) == when.strftime(f"%{spec}"), (spec, when)
        assert devicetime.format_time("%s", when) == str(int(when.timestamp()))
