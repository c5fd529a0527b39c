"""Contacts tasks: add a contact, and fill in the new-contact form without saving it
(AndroidWorld's ContactsAddContact and ContactsNewContactDraft)."""
from __future__ import annotations

import re
from typing import Any

from taskkit.apps import contacts
from taskkit.apps.common import normalize_phone
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap, type_text
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

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        for _ in range(rng.randint(0, 3)):
            other = contacts.random_contact(rng)
            if other["name"] != self.params["name"]:
                contacts.add_contact(env.device, other["name"], other["number"])

    def validator(self):
        expected = {"display_name": self.params["name"], "number": self.params["number"]}
        return rows_added(PHONES, [expected], normalize={"number": normalize_phone})

    def solve(self, env: TaskEnv) -> None:
        contacts.add_contact(env.device, self.params["name"], self.params["number"])

    def gui_reference(self) -> list[Step]:
        first, _, last = self.params["name"].partition(" ")
        return [open_app("contacts"), tap("Create new contact"), type_text("First name", first), type_text("Last name", last),
                type_text("Phone", self.params["number"]), tap("Save")]


EDITOR = "com.android.contacts.activities.ContactEditorActivity"
_DRAFT_LABELS = ("Work", "Home", "Main", "Other")


def _digits(text: str | None) -> str:
    return re.sub(r"\D", "", text or "")


class ContactsNewContactDraft(TaskEval):
    """Fill in the new-contact form (names, phone, phone label) and leave it unsaved.

    Read from the screen, as AndroidWorld reads it (an unsaved form exists nowhere else): the
    editor is in front, its fields hold the first name and, after it, the last name exactly, a
    field holds the phone's digits, and the phone's label spinner shows the label. `uiautomator
    dump` reports no hints (AndroidWorld reads them from the accessibility tree), so the fields
    are told apart by their order. Stricter than AndroidWorld: the names must match exactly, not
    at 90 %, and no contact may have been saved.
    """

    app_names = ("contacts",)
    complexity = 1.2  # AndroidWorld's
    template = ("Go to the new contact screen and enter the following details: First Name: {{ first }}, "
                "Last Name: {{ last }}, Phone: {{ phone }}, Phone Label: {{ phone_label }}. Do NOT hit save.")
    schema = {"type": "object", "properties": {
        # one word each: the new-contact intent's name is split into first and last at spaces
        "first": {"type": "string", "pattern": r"^[A-Z][A-Za-z'\-]*$"},
        "last": {"type": "string", "pattern": r"^[A-Z][A-Za-z'\-]*$"},
        "phone": {"type": "string", "pattern": r"^[0-9]{3}-[0-9]{3}-[0-9]{4}$"},
        "phone_label": {"enum": list(_DRAFT_LABELS)},
    }, "required": ["first", "last", "phone", "phone_label"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        phone = f"{rng.randint(200, 999)}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"
        return {"first": rng.faker.first_name(), "last": rng.faker.last_name(), "phone": phone,
                "phone_label": rng.choice(_DRAFT_LABELS)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)

    def is_successful(self, env: TaskEnv) -> float:
        super().is_successful(env)
        if contacts.list_contacts(env.device):
            return 0.0  # saved
        screen = env.device.ui.screen()
        if (screen.foreground or "").split("/")[-1] != EDITOR:
            return 0.0
        texts = [e.text or "" for e in screen.elements if e.is_editable]
        first, last = self.params["first"], self.params["last"]
        names = first in texts and last in texts[texts.index(first) + 1:]  # the First name field comes first
        phone = any(_digits(text) == _digits(self.params["phone"]) for text in texts)
        label = self.params["phone_label"]
        labelled = any(e.text == label and e.content_description == f"{label} Phone" for e in screen.elements)
        return 1.0 if names and phone and labelled else 0.0

    def solve(self, env: TaskEnv) -> None:
        p = self.params
        env.device.activity.start_intent("android.intent.action.INSERT", mime_type="vnd.android.cursor.dir/contact",
                                         extras={"name": f"{p['first']} {p['last']}", "phone": p["phone"]})
        for match in (lambda e: (e.resource_name or "").endswith(":id/spinner"),
                      lambda e: e.text == p["phone_label"] and e.is_clickable):
            element = next(e for e in env.device.ui.screen().elements if match(e))
            x, y = element.bbox.center
            env.device.check(f"input tap {x} {y}")

    def gui_reference(self) -> list[Step]:
        """The editor filled in, not saved (the draft is what the task reads)."""
        return [open_app("contacts"), tap("Create new contact"), type_text("First name", self.params["first"]),
                type_text("Last name", self.params["last"]), type_text("Phone", self.params["phone"]), tap("spinner"),
                tap(self.params["phone_label"])]


# B-MoCA's tasks on this app (apps/contacts/bmoca.py) register with this module.
from taskkit.apps.contacts import bmoca  # noqa: E402,F401
