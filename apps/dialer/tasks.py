"""B-MoCA's Phone tasks (its Appendix B table: instruction, step limit, detector).

"call 911" is judged as B-MoCA judges it, by Telecom's log line `[Telecom:I] "^(.*)Emergency
number detected"` since the task's setup. The other calls by its UI detector — the in-call
screen's End call button `incall_end_call` enabled and `contactgrid_contact_name` showing the
number as the in-call screen formats it ("223-4458", "(301) 713-0622") — or, once the call was
ended, by the state taskkit prefers: an outgoing row (type 2) for the number in the call log.
B-MoCA's table names the ids under `com.android.dialer` (AOSP's dialer; its `incall_end_cal` is
a typo of `incall_end_call`); the modelled Google Dialer carries the same ids under its own
package, so ids are matched by name. Numbers are drawn from the instance's seed in the table's
shapes: five or six digits ("call 11489"), seven ("call 223-4458"), never an emergency number
and never starting with 0 or 1; B-MoCA's eight- and nine-digit instances ("call 2000-0202") are
PhoneCallLocalNumber's params, its ten-digit ones the named services of PhoneCallNamedNumber
("call the white house (202-456-1111)").

`optimal_steps` is the GUI reference's count of actions on the shortest draw: B-MoCA publishes
step limits, not golden steps.
"""
from __future__ import annotations

import re
from typing import Any

from taskkit.apps import dialer
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import Validator, all_of, any_of, logcat_matches, provider_row_exists, ui_element_matches

class _CallTask(TaskEval, register=False):
    """Call a number from the dial pad; `solve` places the call with the CALL intent."""

    abstract = True
    app_names = ("dialer",)
    tags = ("bmoca", "phone", "category:communication")

    def number(self) -> str:
        """The number as the instruction writes it ("223-4458")."""
        return str(self.params["number"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        dialer.reset(env.device)

    def teardown(self, env: TaskEnv) -> None:
        super().teardown(env)
        env.device.check("input keyevent KEYCODE_ENDCALL")

    def solve(self, env: TaskEnv) -> None:
        env.device.check(f"am start -a android.intent.action.CALL -d tel:{dialer.dialable(self.number())}")

    def gui_reference(self) -> list[Step]:
        keys = [tap(dialer.KEY_IDS[ch]) for ch in dialer.dialable(self.number())]
        return [open_app("phone"), tap("key pad"), *keys, tap("dial")]


class PhoneCallEmergency(_CallTask):
    """B-MoCA's "call 911" (one of its representative tasks), judged by Telecom's log."""

    template = "call 911"
    complexity = 0.9  # B-MoCA's step limit: 9
    difficulty = "easy"
    optimal_steps = 6

    def number(self) -> str:
        return "911"

    def validator(self) -> Validator:
        return logcat_matches("Telecom:I", r"^(.*)Emergency number detected")


class _CallNumber(_CallTask):
    """Call a drawn number of `digits` digits: the in-call screen shows it, or the call log has it."""

    abstract = True
    digits: tuple[int, ...] = (7,)
    schema = {"type": "object", "properties": {"number": {"type": "string", "pattern": r"^[1-9][0-9-]{4,11}$"}},
              "required": ["number"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        length = rng.choice(cls.digits)
        while True:
            digits = str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(length - 1))
            if digits not in dialer.EMERGENCY_NUMBERS:
                break
        shown = {7: f"{digits[:3]}-{digits[3:]}", 10: f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"}.get(length, digits)
        return {"number": shown}

    def validator(self) -> Validator:
        number = dialer.dialable(self.number())
        in_call = all_of(ui_element_matches({"resource_id": "incall_end_call"}, enabled=True),
                         ui_element_matches({"resource_id": "contactgrid_contact_name",
                                             "text": re.escape(dialer.format_number(number))}))
        logged = provider_row_exists(dialer.CALLS_URI, {"number": number, "type": str(dialer.OUTGOING_TYPE)})
        return any_of(in_call, logged)


class PhoneCallShortNumber(_CallNumber):
    optimal_steps = 8
    template = "call {{ number }}"
    complexity = 1.2  # B-MoCA's step limit for "call 311311"
    difficulty = "medium"
    digits = (5, 6)


class PhoneCallLocalNumber(_CallNumber):
    optimal_steps = 10
    template = "call {{ number }}"
    complexity = 1.3  # B-MoCA's step limit for "call 223-4458"
    difficulty = "medium"



# B-MoCA's named numbers (US federal services' public lines), as its instructions write them.
NAMED_NUMBERS = {"the national weather service": "301-713-0622", "the social security administration": "800-772-1213",
                 "the US national contact center": "800-333-4636", "the white house": "202-456-1111"}


class PhoneCallNamedNumber(_CallNumber):
    """B-MoCA's "call the white house (202-456-1111)" (its representative Call task) and its three
    siblings: one of its named services, called by the number the instruction gives."""

    optimal_steps = 13
    template = "call {{ name }} ({{ number }})"
    complexity = 1.7  # B-MoCA's step limit for "call the white house (202-456-1111)", the largest of the four
    difficulty = "hard"
    schema = {"type": "object", "properties": {"name": {"type": "string", "enum": list(NAMED_NUMBERS)},
                                               "number": {"type": "string", "enum": list(NAMED_NUMBERS.values())}},
              "required": ["name", "number"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        name = rng.choice(sorted(NAMED_NUMBERS))
        return {"name": name, "number": NAMED_NUMBERS[name]}


# B-MoCA's tasks on this app (apps/dialer/bmoca.py) register with this module.
from taskkit.apps.dialer import bmoca  # noqa: E402,F401
