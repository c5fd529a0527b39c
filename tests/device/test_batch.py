"""Explicit batching: `run` is immediate outside `batch()`, held inside it, and a failure names
the command that failed — not the call that happened to send it."""
from __future__ import annotations

import pytest

from taskkit.device.errors import CommandFailed


def test_run_outside_a_batch_is_one_round_trip_and_fails_at_once(sim_device) -> None:
    sim_device.stats.reset()
    sim_device.run("mkdir -p /sdcard/a")
    assert sim_device.stats.round_trips == 1
    with pytest.raises(CommandFailed, match="cat /sdcard/missing"):
        sim_device.run("cat /sdcard/missing")


def test_a_batch_is_one_round_trip(sim_device) -> None:
    sim_device.stats.reset()
    with sim_device.batch():
        for index in range(20):
            sim_device.run(f"echo {index} > /sdcard/f{index}")
        assert sim_device.stats.round_trips == 0
        assert sim_device.check("cat /sdcard/f7") == "7\n"  # held commands travel with this one
    assert sim_device.stats.round_trips == 1
    assert sim_device.check("cat /sdcard/f19") == "19\n"


def test_a_failing_batched_command_names_itself(sim_device) -> None:
    with pytest.raises(CommandFailed) as raised:
        with sim_device.batch():
            sim_device.run("mkdir -p /sdcard/b")
            sim_device.run("cp /sdcard/no-such-file /sdcard/b/x")
            sim_device.run("touch /sdcard/b/after")
    error = raised.value
    assert error.command == "cp /sdcard/no-such-file /sdcard/b/x"
    assert error.result.exit_code == 1 and "No such file" in str(error)
    # the commands before the failure ran; the ones after it did not
    assert sim_device.shell("ls /sdcard/b").stdout == ""
    assert sim_device.files.exists("/sdcard/b")


def test_a_failure_surfaces_at_the_query_that_carried_it(sim_device) -> None:
    with sim_device.batch():
        sim_device.run("false")
        with pytest.raises(CommandFailed) as raised:
            sim_device.check("echo answer")
    assert raised.value.command == "false"


def test_a_block_that_raises_drops_what_it_held(sim_device) -> None:
    with pytest.raises(RuntimeError):
        with sim_device.batch():
            sim_device.run("touch /sdcard/never")
            raise RuntimeError("boom")
    assert not sim_device.files.exists("/sdcard/never")


def test_nested_batches_join_the_outer_one(sim_device) -> None:
    sim_device.stats.reset()
    with sim_device.batch():
        with sim_device.batch():
            sim_device.run("touch /sdcard/n1")
        sim_device.run("touch /sdcard/n2")
        assert sim_device.stats.round_trips == 0
    assert sim_device.stats.round_trips == 1
    assert sim_device.files.exists("/sdcard/n1") and sim_device.files.exists("/sdcard/n2")
