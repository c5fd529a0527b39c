"""A teardown that leaks is named exactly — including a file left in /data/local/tmp — and a
task whose initialize_state raises never passes clean_teardown."""
from __future__ import annotations

import pytest

from taskkit import TaskEval
from taskkit.testing import PropertyFailed, check_clean_teardown
from taskkit.validators import setting_equals


class LeaksIntoLocalTmp(TaskEval, register=False):
    app_names = ("settings",)
    template = "Turn Wi-Fi on."

    def validator(self):
        return setting_equals("global", "wifi_on", "1")

    def teardown(self, env) -> None:
        env.device.files.write_text("/data/local/tmp/forgotten.txt", "left behind")
        super().teardown(env)


class InitializeRaises(TaskEval, register=False):
    app_names = ("settings",)
    template = "Turn Wi-Fi on."

    def validator(self):
        return setting_equals("global", "wifi_on", "1")

    def initialize_state(self, env) -> None:
        super().initialize_state(env)
        raise RuntimeError("setup bug")


def test_a_leak_in_local_tmp_is_named() -> None:
    with pytest.raises(PropertyFailed) as raised:
        check_clean_teardown(LeaksIntoLocalTmp, seeds=[1])
    assert "added: file /data/local/tmp/forgotten.txt" in str(raised.value)


def test_initialize_raising_is_not_a_clean_teardown_pass() -> None:
    with pytest.raises(PropertyFailed) as raised:
        check_clean_teardown(InitializeRaises, seeds=[1])
    assert "setup bug" in str(raised.value)
