"""The Settings service: command builders and parsers with no device, then the simulator."""
from __future__ import annotations

import shlex
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from taskkit.device.base import CommandFailed, ShellResult
from taskkit.device.services import settings as svc
from taskkit.device.services.settings import Settings


any_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=30)
values = any_text.filter(lambda v: v != "--user")
keys = values.filter(bool)
list_keys = st.text(st.sampled_from("abcxyzABC019_.:-/@é"), min_size=1, max_size=12)
namespaces = st.sampled_from(svc.NAMESPACES)
single_line = st.text(st.characters(blacklist_characters="\x00\n", blacklist_categories=("Cs",)), max_size=10)
# A later line of a multi-line value that `parse_list` cannot mistake for a new key: no '=', or
# a space before the first '='.
continuation = st.one_of(
    st.text(st.characters(blacklist_characters="\x00\n=", blacklist_categories=("Cs",)), max_size=10),
    st.builds(lambda a, b: f"{a} ={b}", st.text("ab", max_size=3), st.text("=x", max_size=3)),
)
list_values = st.tuples(single_line, st.lists(continuation, min_size=1, max_size=3)).map(
    lambda parts: "\n".join([parts[0], *parts[1]]))


def fake_device(*outputs: str) -> mock.Mock:
    """A device whose `check` returns `outputs` in turn and records the commands."""
    device = mock.Mock()
    device.check.side_effect = list(outputs)
    return device


def java_list(values: dict[str, str]) -> str:
    """`settings list` output as the device prints it (lines sorted as Java strings)."""
    lines = sorted((f"{k}={v}" for k, v in values.items()), key=lambda s: s.encode("utf-16-be", "surrogatepass"))
    return "".join(line + "\n" for line in lines)


# --- builders -------------------------------------------------------------------------------
@hyp_settings(max_examples=80, deadline=None)
@given(ns=namespaces, key=keys, value=values)
def test_builders_quote_every_word(ns: str, key: str, value: str) -> None:
    assert shlex.split(svc.build_put(ns, key, value)) == ["settings", "put", ns, key, value]
    assert shlex.split(svc.build_get(ns, key)) == ["settings", "get", ns, key]
    assert shlex.split(svc.build_delete(ns, key)) == ["settings", "delete", ns, key]


def test_builders_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="namespace"):
        svc.build_get("local", "k")
    with pytest.raises(ValueError, match="namespace"):
        svc.build_list("System")
    with pytest.raises(ValueError, match="empty"):
        svc.build_put("system", "", "v")
    with pytest.raises(ValueError, match="--user"):
        svc.build_put("system", "k", "--user")
    with pytest.raises(ValueError):
        svc.build_put("system", "k", "nul\x00byte")


def test_snapshot_command_lists_each_namespace_once() -> None:
    words = shlex.split(svc.build_snapshot())
    assert words == ["settings", "list", "system", "&&", "echo", svc.SNAPSHOT_MARKER, "&&",
                     "settings", "list", "secure", "&&", "echo", svc.SNAPSHOT_MARKER, "&&",
                     "settings", "list", "global"]


def test_restore_command_is_the_minimal_diff() -> None:
    current = {"system": {"a": "1", "b": "2"}, "secure": {"gone": "x"}, "global": {}}
    target = {"system": {"a": "1", "b": "3"}, "secure": {}, "global": {"new": "it's"}}
    command = svc.build_restore(current, target)
    assert command is not None
    steps = [shlex.split(step) for step in command.split(" && ")]
    assert steps == [["settings", "put", "system", "b", "3"], ["settings", "delete", "secure", "gone"],
                     ["settings", "put", "global", "new", "it's"]]
    assert svc.build_restore(target, target) is None


# --- parsers --------------------------------------------------------------------------------
@pytest.mark.parametrize("stdout, value", [
    ("102\n", "102"), ("null\n", None), ("\n", ""), ("a\nb\n", "a\nb"), ("trailing\n\n", "trailing\n"),
    (" x \n", " x "),
])
def test_parse_get(stdout: str, value: str | None) -> None:
    assert svc.parse_get(stdout) == value


def test_parse_delete() -> None:
    assert svc.parse_delete("Deleted 1 rows\n") is True
    assert svc.parse_delete("Deleted 0 rows\n") is False
    with pytest.raises(ValueError):
        svc.parse_delete("")


@hyp_settings(max_examples=80, deadline=None)
@given(st.dictionaries(list_keys, st.one_of(single_line, list_values), max_size=8))
def test_parse_list_inverts_settings_list(values: dict[str, str]) -> None:
    assert svc.parse_list(java_list(values)) == values


def test_parse_list_multiline_limit() -> None:
    # A continuation line shaped like `key=value` is read as a new key: the documented limit.
    assert svc.parse_list("a=one\ntwo\n") == {"a": "one\ntwo"}
    assert svc.parse_list("a=one\nb=two\n") == {"a": "one", "b": "two"}
    assert svc.parse_list("") == {}
    with pytest.raises(ValueError):
        svc.parse_list("garbage\n")


@hyp_settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({ns: st.dictionaries(list_keys, st.one_of(single_line, list_values), max_size=5)
                              for ns in svc.NAMESPACES}))
def test_parse_snapshot_inverts_the_snapshot_output(snapshot: dict[str, dict[str, str]]) -> None:
    marker = svc.SNAPSHOT_MARKER + "\n"
    stdout = marker.join(java_list(snapshot[ns]) for ns in svc.NAMESPACES)
    assert svc.parse_snapshot(stdout) == snapshot


def test_parse_snapshot_needs_three_parts() -> None:
    with pytest.raises(ValueError):
        svc.parse_snapshot("a=1\n")


# --- the service with a scripted device -----------------------------------------------------
def test_service_calls_build_and_parse() -> None:
    device = fake_device("102\n", "Deleted 1 rows\n", "a=1\nb=2\n")
    settings = Settings(device)
    assert settings.get("system", "screen_brightness") == "102"
    settings.put("system", "k", "v v")
    assert settings.delete("system", "k") is True
    assert settings.list("global") == {"a": "1", "b": "2"}
    assert [c.args[0] for c in device.check.call_args_list] == [
        "settings get system screen_brightness", "settings delete system k", "settings list global"]
    assert [c.args[0] for c in device.run.call_args_list] == ["settings put system k 'v v'"]


def test_bad_namespace_never_reaches_the_device() -> None:
    device = fake_device()
    with pytest.raises(ValueError, match="system, secure, global"):
        Settings(device).get("sys", "k")
    device.check.assert_not_called()


def test_snapshot_is_one_round_trip_and_restore_skips_equal_state() -> None:
    stdout = f"a=1\n{svc.SNAPSHOT_MARKER}\n{svc.SNAPSHOT_MARKER}\nb=2\n"
    device = fake_device(stdout, stdout)
    settings = Settings(device)
    snap = settings.snapshot()
    assert snap == {"system": {"a": "1"}, "secure": {}, "global": {"b": "2"}}
    settings.restore(snap)
    assert device.check.call_count == 2  # one snapshot each, no write


def test_restore_writes_once_when_state_differs() -> None:
    stdout = f"a=1\n{svc.SNAPSHOT_MARKER}\n{svc.SNAPSHOT_MARKER}\nb=2\n"
    device = fake_device(stdout, "")
    Settings(device).restore({"system": {"a": "9"}, "secure": {}, "global": {}})
    assert device.check.call_count == 2
    assert device.check.call_args_list[1].args[0] == "settings put system a 9 && settings delete global b"


def test_failures_surface_as_command_failed() -> None:
    device = mock.Mock()
    device.check.side_effect = CommandFailed("settings get system k", ShellResult("", "boom", 255))
    with pytest.raises(CommandFailed):
        Settings(device).get("system", "k")


# --- against the simulator ------------------------------------------------------------------


def test_sim_defaults(sim_device) -> None:
    assert sim_device.settings.get("system", "screen_brightness") == "102"
    assert sim_device.settings.get("global", "no_such_key") is None
    assert sim_device.settings.list("secure")["sms_default_application"] == "com.simplemobiletools.smsmessenger"


@hyp_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=keys, value=values.filter(lambda v: v != "null"))
def test_sim_put_get_round_trip(sim_device, key: str, value: str) -> None:
    sim_device.settings.put("global", key, value)
    assert sim_device.settings.get("global", key) == value
    assert sim_device.settings.delete("global", key) is True
    assert sim_device.settings.get("global", key) is None


@pytest.mark.parametrize("value", ["it's \"quoted\"", "$(reboot) `id` ${HOME}", "two\nlines\n",
                                   "ünï 🙂", "a; b | c && d > /e", "*", "", "\\"])
def test_sim_awkward_values(sim_device, value: str) -> None:
    sim_device.settings.put("system", "awkward", value)
    assert sim_device.settings.get("system", "awkward") == value


def test_sim_snapshot_restore(sim_device) -> None:
    before = sim_device.settings.snapshot()
    assert before["system"]["screen_brightness"] == "102"
    sim_device.settings.put("system", "screen_brightness", "255")
    sim_device.settings.put("secure", "added_by_test", "line one\nline two")
    sim_device.settings.delete("global", "wifi_on")
    sim_device.stats.reset()
    sim_device.settings.restore(before)
    assert sim_device.stats.round_trips == 2
    assert sim_device.settings.snapshot() == before
    sim_device.stats.reset()
    sim_device.settings.restore(before)
    assert sim_device.stats.round_trips == 1
