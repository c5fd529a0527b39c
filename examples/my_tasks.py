"""Two user tasks, loaded with `python -m taskkit.run --task_module examples/my_tasks.py`.

`ExpenseAddCoffee` is scored by a reusable validator; `SmsCountUnread` overrides
`is_successful` itself and scores the agent's answer. Each gives a GUI reference (the task done
through the screens), which `python -m taskkit.check --task_module examples/my_tasks.py` proves
and `python -m taskkit.run --agent gui_reference` plays.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import expense, sms
from taskkit.apps.common import device_now_ms, random_phone_number
from taskkit import TaskEval, TaskRng
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, answer, open_app, tap, type_text
from taskkit.validators import answer_equals, rows_added


class ExpenseAddCoffee(TaskEval):
    """Log a coffee in Pro Expense, among a few seeded expenses."""

    app_names = ("pro expense",)
    complexity = 2
    template = "Add an expense '{{ name }}' of {{ amount | money }} in the Food category to Pro Expense."
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "amount": {"type": "integer", "minimum": 1},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["name", "amount", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {
            "name": f"Coffee with {rng.faker.first_name()}",
            "amount": rng.randint(300, 900),
            "noise_seed": rng.getrandbits(32),
        }

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)  # fixed clock, empty expense table
        noise = expense.noise_expenses(TaskRng(self.params["noise_seed"]), 5,
                                       exclude=lambda row: row["name"].startswith("Coffee"))
        expense.EXPENSES.insert(env.device, noise)

    def validator(self):
        expected = {"name": self.params["name"], "amount": self.params["amount"], "category": 3}
        return rows_added(expense.EXPENSES, [expected], fuzzy=("name",))

    def solve(self, env: TaskEnv) -> None:
        now = device_now_ms()
        expense.EXPENSES.insert(env.device, [{
            "name": self.params["name"], "amount": self.params["amount"], "category": 3, "note": "",
            "created_date": now, "modified_date": now,
        }])
        expense.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """The task done through the screens, as an agent would (python -m taskkit.check proves it)."""
        dollars, cents = divmod(self.params["amount"], 100)
        return [open_app("pro expense"), tap("fb_main_add"), type_text("edt_name", self.params["name"]),
                type_text("edt_amount", f"{dollars}.{cents:02d}"), tap("Food"), tap("btn_save")]


class SmsCountUnread(TaskEval):
    """Answer how many unread messages are in the inbox (an information-retrieval task)."""

    app_names = ("simple sms messenger",)
    template = "How many unread text messages are there in Simple SMS Messenger? Answer with a number."
    schema = {
        "type": "object",
        "properties": {"unread": {"type": "integer", "minimum": 0}, "read": {"type": "integer", "minimum": 0},
                       "noise_seed": {"type": "integer", "minimum": 0}},
        "required": ["unread", "read", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"unread": rng.randint(1, 5), "read": rng.randint(0, 5), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        for read in [0] * self.params["unread"] + [1] * self.params["read"]:
            env.device.content.insert(sms.BOX_URIS["inbox"], {
                "address": random_phone_number(rng), "body": sms.random_message(rng), "read": read})

    def is_successful(self, env: TaskEnv) -> float:
        check = answer_equals(self.params["unread"], kind="number")
        self.last_result = check.evaluate(env, None)
        return self.last_result.score

    def solve(self, env: TaskEnv) -> None:
        unread = env.device.content.query(sms.BOX_URIS["inbox"], projection=["_id"], where="read=0")
        env.submit_answer(str(len(unread)))

    def gui_reference(self) -> list[Step]:
        """Look at the conversation list, then answer (the reference knows the count from the params)."""
        return [open_app("simple sms messenger"), answer(str(self.params["unread"]))]
