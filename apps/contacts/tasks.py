"""Contacts tasks: add a contact (AndroidWorld's ContactsAddContact)."""
from __future__ import annotations

from typing import Any

from taskkit.apps import contacts
from taskkit.apps.common import normalize_phone
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import ProviderUri, rows_added

PHONES = ProviderUri(contacts.PHONES_URI, projection=("display_name", "number"))


class ContactsAddContact(TaskEval):
    """Create a contact with a name and a phone number."""

    app_names = ("contacts",)
    complexity = 1.2
    tags = ("data_entry", "contacts")
    template = "Create a new contact for {{ name }}. Their number is {{ number }}."
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "number": {"type": "string", "pattern": r"^\+?[0-9]{7,15}$"},
            "noise_seed": {"type": "integer", "minimum": 0},
        },
        "required": ["name", "number", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return contacts.random_contact(rng) | {"noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: Any) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        for _ in range(rng.randint(0, 3)):
            other = contacts.random_contact(rng)
            if other["name"] != self.params["name"]:
                contacts.add_contact(env.device, other["name"], other["number"])

    def validator(self):
        expected = {"display_name": self.params["name"], "number": self.params["number"]}
        return rows_added(PHONES, [expected], normalize={"number": normalize_phone})

    def solve(self, env: Any) -> None:
        contacts.add_contact(env.device, self.params["name"], self.params["number"])
