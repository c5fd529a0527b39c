"""`android_world.task_evals.common_validators.phone_validators`: a call to a number, read from the
call state and the dialer's screen, and the base of AndroidWorld's call tasks."""
from __future__ import annotations

import random
import re
from typing import Any

from taskkit.compat.android_world.env import adb_utils, interface
from taskkit.compat.android_world.task_evals import task_eval

DIALER_PACKAGE = "com.google.android.dialer"


def check_if_dialer_with_phone_number(ui_elements: list[Any], current_activity: str, *, expected_number: str) -> bool:
    """The dialer is in front and an element's text has the number's digits."""
    if not (current_activity or "").startswith(DIALER_PACKAGE):
        return False
    digits = re.sub(r"\D", "", expected_number)
    return any(element.text and re.sub(r"\D", "", element.text) == digits for element in ui_elements)


def clear_phone_state(env: Any) -> None:
    """No call in progress and an empty call log."""
    adb_utils.end_call_if_active(env)
    adb_utils.clear_android_emulator_call_log(env)


class MakeCall(task_eval.TaskEval):
    """Call `phone_number`: the call is off-hook and the dialer shows the number."""

    app_names = ("dialer",)
    complexity = 1
    schema = {"type": "object", "properties": {"phone_number": {"type": "string"}}, "required": ["phone_number"]}
    template = ""

    def __init__(self, params: dict[str, Any], **kwargs: Any):
        super().__init__(params, **kwargs)
        self.phone_number = params["phone_number"]

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        clear_phone_state(env.controller)

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        if adb_utils.get_call_state(env.controller) != "OFFHOOK":
            return 0.0
        front = adb_utils.get_current_activity(env.controller)[0] or ""
        shown = check_if_dialer_with_phone_number(env.get_state().ui_elements, front, expected_number=self.phone_number)
        return 1.0 if shown else 0.0

    def tear_down(self, env: interface.AsyncEnv) -> None:
        super().tear_down(env)
        clear_phone_state(env.controller)

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {"phone_number": "555" + "".join(random.choices("0123456789", k=7))}
