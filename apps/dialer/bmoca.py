"""B-MoCA's "open the phone app" and v1's "turn off the call in process".

* "open the phone app": its detector `[Dialer:I] ^(.*)MainActivity.onCreate` reads what AOSP
  Dialer's MainActivity logs when it is created, `LogUtil.enterBlock("MainActivity.onCreate")`
  → I Dialer "MainActivity.onCreate - enter" (taskkit/sim/commands/activity.py CREATE_LINES):
  opening the app with its task gone (every task starts with the apps closed) creates it;
  bringing a running Phone back does not. Opening leaves no state: the detector alone judges it.
* "turn off the call in process": a call to a number drawn from the seed is in progress, its
  in-call screen in front; judged by the state (the call ended: the outgoing call-log row Telecom
  writes when it disconnects) and by B-MoCA v1's detector `[Telecom] ^(.*?)InCallController(.*?)
  onCallRemoved`, the line InCallController logs when Telecom removes the call
  (taskkit/sim/telecom.py).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import dialer
from taskkit.apps.bmoca_detect import BmocaAppTask
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, tap
from taskkit.rng import TaskRng
from taskkit.validators import provider_row_exists
from taskkit.validators.base import Validator


class _PhoneTask(BmocaAppTask, register=False):
    abstract = True
    app_names = ("dialer",)
    package = dialer.PACKAGE
    tags = ("bmoca", "phone", "category:communication")

    def prepare(self, env: TaskEnv) -> None:
        dialer.reset(env.device)

    def teardown(self, env: TaskEnv) -> None:
        super().teardown(env)
        env.device.check("input keyevent KEYCODE_ENDCALL")


class BmocaPhoneOpen(_PhoneTask):
    template = "open the phone app"
    step_limit = 4
    LOGCAT = ("Dialer:I", r"^(.*)MainActivity.onCreate")


class BmocaPhoneEndCall(_PhoneTask):
    """B-MoCA v1's: end the call in progress from its in-call screen."""

    template = "turn off the call in process"
    step_limit = 10
    start_on_home_screen = False  # the agent starts on the in-call screen
    optimal_steps = 1  # End call
    LOGCAT = ("Telecom:I", r"^(.*?)InCallController(.*?)onCallRemoved")
    schema = {"type": "object", "properties": {"number": {"type": "string", "pattern": r"^[2-9][0-9]{6}$"}},
              "required": ["number"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"number": str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(6))}

    def prepare(self, env: TaskEnv) -> None:
        super().prepare(env)
        env.device.check(f"am start -a android.intent.action.CALL -d tel:{self.params['number']}")

    def state(self) -> Validator:
        return provider_row_exists(dialer.CALLS_URI, {"number": self.params["number"],
                                                      "type": str(dialer.OUTGOING_TYPE)})

    def solve(self, env: TaskEnv) -> None:
        env.device.check("input keyevent KEYCODE_ENDCALL")

    def gui_reference(self) -> list[Step]:
        return [tap("End call")]
