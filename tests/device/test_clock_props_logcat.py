"""The Clock, Props and Logcat services: builders and parsers, then the simulator."""
from __future__ import annotations

import shlex
from datetime import datetime, timedelta, timezone
from unittest import mock

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from taskkit.device.base import CommandFailed
from taskkit.device.services import clock, logcat, props
from taskkit.device.services.clock import Clock
from taskkit.device.services.logcat import LogEntry, Logcat
from taskkit.device.services.props import Props

AW_TIME = datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc)


def fake_device(*outputs: str) -> mock.Mock:
    device = mock.Mock()
    device.check.side_effect = list(outputs)
    return device


# --- clock ----------------------------------------------------------------------------------
def test_build_set_uses_the_android_world_form() -> None:
    assert clock.build_set(AW_TIME) == "date 101515342023.00"
    eastern = timezone(timedelta(hours=-4))
    assert clock.build_set(datetime(2023, 10, 15, 11, 34, 5, tzinfo=eastern)) == "date 101515342023.05"
    with pytest.raises(ValueError, match="aware"):
        clock.build_set(datetime(2023, 10, 15))


@hyp_settings(max_examples=50, deadline=None)
@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2999, 12, 31),
                    timezones=st.just(timezone.utc)))
def test_build_set_encodes_every_field(when: datetime) -> None:
    word = shlex.split(clock.build_set(when))[1]
    parsed = datetime.strptime(word, "%m%d%H%M%Y.%S").replace(tzinfo=timezone.utc)
    assert parsed == when.replace(microsecond=0)


def test_parse_epoch() -> None:
    assert clock.parse_epoch("1697384040\n") == 1697384040
    with pytest.raises(ValueError):
        clock.parse_epoch("Sun Oct 15\n")


def test_clock_service_with_a_scripted_device() -> None:
    device = fake_device("1697384040\n", "1697384040\n", "Sun Oct 15 15:34:00 UTC 2023\n")
    service = Clock(device)
    assert service.epoch() == 1697384040
    now = service.now()
    assert now == AW_TIME and now.utcoffset() == timedelta(0)
    service.set(AW_TIME)  # run for effect: may be batched with the next command
    assert [c.args[0] for c in device.check.call_args_list] == ["date +%s", "date +%s"]
    assert [c.args[0] for c in device.run.call_args_list] == ["date 101515342023.00"]


# --- props ----------------------------------------------------------------------------------
def test_props_builders_and_parsers() -> None:
    assert shlex.split(props.build_set("debug.x", "a b'c")) == ["setprop", "debug.x", "a b'c"]
    assert props.build_get("ro.build.version.sdk") == "getprop ro.build.version.sdk"
    assert props.parse_get("33\n") == "33"
    assert props.parse_get("\n") == ""
    assert props.parse_all("[a.b]: [1]\n[c]: []\n[d]: [x]: [y]\nnoise\n") == {"a.b": "1", "c": "", "d": "x]: [y"}


prop_values = st.text(st.characters(blacklist_characters="\n\x00", blacklist_categories=("Cs",)), max_size=20)


@hyp_settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z0-9_.]{1,20}", fullmatch=True), prop_values))
def test_parse_all_inverts_getprop(values: dict[str, str]) -> None:
    stdout = "".join(f"[{k}]: [{v}]\n" for k, v in sorted(values.items()))
    assert props.parse_all(stdout) == values


# --- logcat ---------------------------------------------------------------------------------
def threadtime(entry: LogEntry) -> str:
    """The reference §6.11 layout."""
    return f"{entry.time} {entry.pid:5d} {entry.tid:5d} {entry.priority} {entry.tag:<8}: {entry.message}"


def test_parse_threadtime_reference_example() -> None:
    stdout = ("--------- beginning of main\n"
              "10-15 15:34:00.123  1234  1250 I MyTag   : hello\n"
              "10-15 15:34:00.124 99999 100001 E LongerThan8: key: value\n")
    assert logcat.parse_threadtime(stdout) == [
        LogEntry("10-15 15:34:00.123", 1234, 1250, "I", "MyTag", "hello"),
        LogEntry("10-15 15:34:00.124", 99999, 100001, "E", "LongerThan8", "key: value"),
    ]


@hyp_settings(max_examples=80, deadline=None)
@given(st.lists(st.builds(
    LogEntry,
    time=st.just("10-15 15:34:00.000"),
    pid=st.integers(0, 10 ** 6), tid=st.integers(0, 10 ** 6),
    priority=st.sampled_from("VDIWEF"),
    tag=st.text(st.characters(blacklist_characters=": \n\r\x00", blacklist_categories=("Cs",)), max_size=20),
    message=st.text(st.characters(blacklist_characters="\n\x00", blacklist_categories=("Cs",)), max_size=40),
), max_size=5))
def test_parse_threadtime_inverts_the_format(entries: list[LogEntry]) -> None:
    stdout = "".join(threadtime(e) + "\n" for e in entries)
    assert logcat.parse_threadtime(stdout) == entries


def test_logcat_builders() -> None:
    assert logcat.build_dump() == "logcat -d -v threadtime"
    assert logcat.build_dump("MyTag") == "logcat -d -v threadtime -s MyTag"
    for bad in ("", "a:b", "two words", "*"):
        with pytest.raises(ValueError):
            logcat.build_dump(bad)


def test_logcat_service_with_a_scripted_device() -> None:
    device = fake_device("10-15 15:34:00.000   1     2 W T       : m\n", "")
    service = Logcat(device)
    assert service.dump("T") == [LogEntry("10-15 15:34:00.000", 1, 2, "W", "T", "m")]
    service.clear()
    assert [c.args[0] for c in device.check.call_args_list] == ["logcat -d -v threadtime -s T", "logcat -c"]


# --- against the simulator ------------------------------------------------------------------


def test_sim_clock(sim_device) -> None:
    assert sim_device.clock.now() == AW_TIME
    assert sim_device.clock.now_ms() == int(AW_TIME.timestamp()) * 1000
    later = AW_TIME + timedelta(days=3, hours=2, seconds=9)
    sim_device.clock.set(later)
    assert sim_device.clock.now() == later
    assert sim_device.clock.epoch() == int(later.timestamp())


def test_sim_clock_set_needs_root(sim_device) -> None:
    sim_device.state.config["is_root"] = False
    with pytest.raises(CommandFailed, match="date .*Operation not permitted"):
        sim_device.clock.set(AW_TIME + timedelta(hours=1))
    assert sim_device.clock.now() == AW_TIME


def test_sim_props(sim_device) -> None:
    assert sim_device.props.get("ro.build.version.sdk") == "33"
    assert sim_device.props.get("no.such.prop") == ""
    sim_device.props.set("debug.taskkit", "a b 'c' $(x)")
    assert sim_device.props.get("debug.taskkit") == "a b 'c' $(x)"
    everything = sim_device.props.all()
    assert everything["ro.product.model"] == "sdk_gphone64_x86_64"
    assert everything["debug.taskkit"] == "a b 'c' $(x)"
    with pytest.raises(CommandFailed):
        sim_device.props.set("ro.build.version.sdk", "34")


def test_sim_logcat(sim_device) -> None:
    sim_device.check("log -t TaskKit 'first: entry' && log -p e -t Other second && input tap 1 2")
    entries = sim_device.logcat.dump("TaskKit")
    assert [(e.priority, e.tag, e.message) for e in entries] == [("I", "TaskKit", "first: entry")]
    assert entries[0].time == "10-15 15:34:00.000"
    assert [e.tag for e in sim_device.logcat.dump()] == ["TaskKit", "Other", "Input"]
    sim_device.logcat.clear()
    assert sim_device.logcat.dump() == []
