"""`settings get|put|delete|list` of the simulator (reference §6.2)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from taskkit.device.quoting import shell_join
from taskkit.sim import image
from taskkit.sim.commands import Invocation
from taskkit.sim.commands import settings as settings_cmd
from taskkit.sim.state import SETTINGS_DB, SimState

# Any text a shell argument can carry ("--user" is always read as the option).
values = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40)
keys = values.filter(lambda k: k != "--user" and k != "")


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> SimState:
    """A device image without the provider and package hooks (not needed here)."""
    from taskkit.sim import packages, providers

    sim = SimState(tmp_path_factory.mktemp("settings"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(providers, "create_databases", lambda s: None)
        patch.setattr(packages, "install_all", lambda s: None)
        image.build(sim)
    return sim


def run(state: SimState, *args: str) -> tuple[int, str, str]:
    inv = Invocation(argv=["settings", *args], state=state)
    code = settings_cmd.settings(inv)
    return code, inv.stdout.decode(), inv.stderr.decode()


def test_get_prints_value_or_null(state: SimState) -> None:
    assert run(state, "get", "system", "screen_brightness") == (0, "102\n", "")
    assert run(state, "get", "global", "no_such_key") == (0, "null\n", "")


@hyp_settings(max_examples=60, deadline=None)
@given(key=keys, value=values)
def test_put_then_get_round_trips_exactly(state: SimState, key: str, value: str) -> None:
    assert run(state, "put", "secure", key, value) == (0, "", "")
    assert run(state, "get", "secure", key) == (0, value + "\n", "")


def test_put_replaces_and_accepts_tag_and_default(state: SimState) -> None:
    assert run(state, "put", "global", "k1", "first")[0] == 0
    assert run(state, "put", "global", "k1", "second", "mytag", "default") == (0, "", "")
    assert run(state, "put", "global", "k1", "third", "default") == (0, "", "")
    assert run(state, "get", "global", "k1")[1] == "third\n"


def test_delete_reports_rows(state: SimState) -> None:
    run(state, "put", "system", "doomed", "1")
    assert run(state, "delete", "system", "doomed") == (0, "Deleted 1 rows\n", "")
    assert run(state, "delete", "system", "doomed") == (0, "Deleted 0 rows\n", "")
    assert run(state, "get", "system", "doomed")[1] == "null\n"


def test_list_is_sorted_like_java_strings(tmp_path: Path) -> None:
    fresh = SimState(tmp_path)
    for key in ("b", "a_b", "a", "a.b", "B", "é"):
        run(fresh, "put", "global", key, key.upper())
    # Java sorts whole "name=value" lines: '.' < '=' < 'B' < '_' < 'a' < 'é'.
    assert run(fresh, "list", "global") == (0, "B=B\na.b=A.B\na=A\na_b=A_B\nb=B\né=É\n", "")


def test_list_prints_multiline_values_raw(tmp_path: Path) -> None:
    fresh = SimState(tmp_path)
    run(fresh, "put", "system", "multi", "one\ntwo=2")
    assert run(fresh, "list", "system")[1] == "multi=one\ntwo=2\n"


def test_namespace_is_case_insensitive(state: SimState) -> None:
    assert run(state, "put", "SYSTEM", "caps", "x")[0] == 0
    assert run(state, "get", "System", "caps")[1] == "x\n"
    assert "caps" in settings_cmd.list_settings(state, "system")


def test_user_option_anywhere(state: SimState) -> None:
    assert run(state, "--user", "0", "get", "system", "screen_brightness")[1] == "102\n"
    assert run(state, "get", "--user", "current", "system", "screen_brightness")[1] == "102\n"
    assert run(state, "put", "system", "--user", "0", "u", "v")[0] == 0


@pytest.mark.parametrize("args, message", [
    (["get", "local", "k"], "Invalid namespace 'local'"),
    (["fetch", "system", "k"], "Invalid command: fetch"),
    (["get", "system"], "Bad arguments"),
    (["put", "system", "k"], "Bad arguments"),
    (["list"], "Bad arguments"),
    (["get", "system", "k", "extra"], "Too many arguments"),
    (["delete", "system", "k", "extra"], "Too many arguments"),
    (["put", "system", "k", "v", "default", "x"], "Too many arguments"),
    (["put", "system", "k", "v", "tag", "x"], "Argument expected to be 'default'"),
    (["--user", "0", "--user", "0", "get", "system", "k"], "Bad arguments"),
    (["get", "--user"], 'Argument expected after "--user"'),
    (["get", "system", "k", "--user"], "Too many arguments"),
    (["--user", "me", "get", "system", "k"], "Bad user number: me"),
])
def test_usage_errors_exit_255_on_stderr(state: SimState, args: list[str], message: str) -> None:
    assert run(state, *args) == (255, "", message + "\n")


def test_no_arguments_prints_help(state: SimState) -> None:
    code, out, err = run(state)
    assert code == 255 and "get" in out and "NAMESPACE" in out and err == ""


def test_writes_stamp_the_database_with_the_device_clock(tmp_path: Path) -> None:
    fresh = SimState(tmp_path)
    fresh.set_clock(1_600_000_000)
    run(fresh, "put", "global", "k", "v")
    assert int(os.stat(fresh.host_path(SETTINGS_DB)).st_mtime) == 1_600_000_000
    fresh.set_clock(1_600_000_123)
    run(fresh, "get", "global", "k")  # a read leaves the mtime alone
    assert int(os.stat(fresh.host_path(SETTINGS_DB)).st_mtime) == 1_600_000_000


def test_helpers_refuse_unknown_namespaces(state: SimState) -> None:
    with pytest.raises(ValueError, match="namespace"):
        settings_cmd.get_setting(state, "local", "k")


# --- through the simulated shell ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["it's", 'say "hi"', "$(reboot)", "`id`", "a;b|c&&d", "tab\there",
                                   "two\nlines", "emoji 🙂 ü", "", " padded ", "\\n literally"])
def test_values_survive_the_shell(sim_device, value: str) -> None:
    put = sim_device.shell(shell_join(["settings", "put", "global", "shell_value", value]))
    assert (put.exit_code, put.stdout, put.stderr) == (0, "", "")
    got = sim_device.shell(shell_join(["settings", "get", "global", "shell_value"]))
    assert (got.exit_code, got.stdout) == (0, value + "\n")


def test_shell_errors_exit_255(sim_device) -> None:
    result = sim_device.shell("settings get nowhere k")
    assert (result.exit_code, result.stdout, result.stderr) == (255, "", "Invalid namespace 'nowhere'\n")
