"""Typing any language: text `input text` cannot carry goes through the ADBKeyboard input method
(`ime`, `am broadcast -a ADB_INPUT_B64`), on the simulated device as on a phone that has it; a
device without it tells the agent how to install it."""
from __future__ import annotations

import pytest

from taskkit import loading, registry
from taskkit.actions import ActionError, input_text_command, perform
from taskkit.agents.base import Action
from taskkit.agents.gui_reference import GuiReferenceAgent
from taskkit.apps import sms
from taskkit.device.catalog import ADB_KEYBOARD_IME, LATIN_IME
from taskkit.env import Env
from taskkit.runner import run_episode
from taskkit.suite import TaskInstance

HELLO = "你好，世界"


def test_a_gui_agent_texts_chinese_through_the_sms_app_and_the_provider_holds_it_exactly(device) -> None:
    loading.load_builtin()
    cls = registry.get("SimpleSmsSend")
    params = {**TaskInstance(cls, 0, 30).params, "message": HELLO}

    class Chinese(TaskInstance):
        def create(self):
            return cls.with_params(params, self.seed)

    class ReadsTheProvider(GuiReferenceAgent):
        """The reference, reading the sent box when it declares the goal complete."""

        def step(self, observation):
            action = super().step(observation)
            if action.action_type == "status":
                self.sent = [row["body"] for row in sms.messages(device, "sent") if row["address"] == params["number"]]
            return action

    agent = ReadsTheProvider()
    result = run_episode(Env(device), Chinese(cls, 0, 30), agent, 30)
    assert result.error is None and result.score == 1.0, result
    assert HELLO in agent.sent  # exactly the text, as the provider stores it


def test_the_ime_command_lists_enables_and_selects_as_android_does(device) -> None:
    assert device.check("ime list -s").split() == [LATIN_IME, ADB_KEYBOARD_IME]
    assert device.check(f"ime set {ADB_KEYBOARD_IME}") == f"Input method {ADB_KEYBOARD_IME} selected for user #0\n"
    assert device.settings.get("secure", "default_input_method") == ADB_KEYBOARD_IME
    assert device.check(f"ime disable {ADB_KEYBOARD_IME}") == f"Input method {ADB_KEYBOARD_IME}: now disabled\n"
    assert device.check(f"ime enable {ADB_KEYBOARD_IME}") == f"Input method {ADB_KEYBOARD_IME}: now enabled\n"
    assert device.shell("ime set com.example/.Nope").exit_code == 1


@pytest.mark.parametrize("text", ["a%sb", "naïve café", "emoji 🙂 ok", HELLO])
def test_text_input_text_cannot_carry_is_sent_to_the_ime_as_base64(device, text) -> None:
    command = input_text_command(text)
    assert command.startswith("if ime list -s") and text not in command  # sent as base64: no quoting to get wrong
    assert input_text_command("plain text").startswith("input text ")


def test_without_the_ime_the_agent_is_told_how_to_install_it(device) -> None:
    device.check(f"ime disable {ADB_KEYBOARD_IME}")
    with pytest.raises(ActionError, match="needs the ADBKeyboard input method .* adb install ADBKeyboard.apk"):
        perform(Env(device), Action("input_text", text=HELLO))
    assert sms.messages(device, "sent") == []
