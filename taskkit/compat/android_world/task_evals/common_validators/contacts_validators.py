"""`android_world.task_evals.common_validators.contacts_validators`: the base of add-contact tasks."""
from __future__ import annotations

from typing import Any

from taskkit.compat.android_world.env import interface
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.utils import user_data_generation
from taskkit.compat.android_world.utils import contacts_utils


class AddContact(task_eval.TaskEval):
    """A contact named `name` with `number` (compared by digits) exists; the contacts start empty."""

    app_names = ()
    complexity = 1
    template = ""
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "number": {"type": "string"}},
              "required": ["name", "number"]}

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        contacts_utils.clear_contacts(env.controller)

    def is_successful(self, env: interface.AsyncEnv) -> float:
        wanted = contacts_utils.Contact(self.params["name"], contacts_utils.clean_phone_number(self.params["number"]))
        found = wanted in contacts_utils.list_contacts(env.controller)
        return super().is_successful(env) if found else 0.0

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {"name": user_data_generation.generate_random_name(),
                "number": user_data_generation.generate_random_number()}
