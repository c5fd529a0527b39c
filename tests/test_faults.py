"""Infrastructure failures: recorded as errors, retried once, never counted as agent failures."""
from __future__ import annotations

from taskkit.connect import sim_device
from taskkit import loading, registry, suite
from taskkit.agents import load
from taskkit.device.base import Device, DeviceError, ShellResult
from taskkit.env import Env
from taskkit.report import summary
from taskkit.runner import run_suite
from taskkit.sim.device import SimDevice

loading.load_builtin()


class Flaky(Device):
    """A simulator whose connection drops at chosen shell calls."""

    def __init__(self, inner: SimDevice, fail_at: set[int]):
        super().__init__()
        self.inner, self.fail_at, self.calls, self.reconnects = inner, fail_at, 0, 0

    def _shell(self, command: str) -> ShellResult:
        self.calls += 1
        if self.calls in self.fail_at:
            raise DeviceError("device 'flaky' disappeared (connection reset)")
        return self.inner._shell(command)

    def _push(self, data: bytes, path: str) -> None:
        self.inner._push(data, path)

    def _pull(self, path: str) -> bytes:
        return self.inner._pull(path)

    def reconnect(self) -> None:
        self.reconnects += 1


def instances():
    return [suite.instantiate(registry.get(name), 30, 0) for name in ("SystemWifiTurnOn", "ExpenseAddSingle")]


def test_a_transient_failure_is_retried_once_and_the_run_goes_on(tmp_path):
    device = Flaky(sim_device(tmp_path / "d"), fail_at={3})
    results = run_suite(Env(device), instances(), load("oracle"), 30)
    assert [r.score for r in results] == [1.0, 1.0]
    assert results[0].attempts == 2 and results[1].attempts == 1
    assert device.reconnects == 1


def test_a_device_that_stays_gone_is_an_infrastructure_error_not_an_agent_failure(tmp_path):
    device = Flaky(sim_device(tmp_path / "d"), fail_at=set(range(1, 10_000)))
    results = run_suite(Env(device), instances(), load("oracle"), 30)
    assert all(r.error_kind == "infrastructure" and r.attempts == 2 for r in results)
    assert all("disappeared" in r.error for r in results)
    table = summary(results)
    assert "errors (not agent failures): infrastructure 2" in table
    all_row = next(line.split() for line in table.splitlines() if line.startswith("ALL"))
    # the headline counts the errors as failures; without them there is nothing to rate
    assert all_row == ["ALL", "2", "0.0%", "0%–66%", "0.000", "2", "n/a"]
