"""`android_world.utils.contacts_utils`: the contacts provider, through taskkit's contacts model."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from taskkit.apps import contacts
from taskkit.compat.android_world._device import device_of


def clean_phone_number(phone_number: str) -> str:
    """The number's digits only."""
    return re.sub(r"\D", "", phone_number)


@dataclasses.dataclass(frozen=True)
class Contact:
    name: str
    number: str


def add_contact(name: str, phone_number: str, env: Any, ui_delay_sec: float = 1.0) -> None:
    """A local contact with one mobile number (written to the provider; no UI is driven)."""
    contacts.add_contact(device_of(env), name, phone_number)


def list_contacts(env: Any) -> list[Contact]:
    """Every (name, digits-only number) pair the phones view lists."""
    return [Contact(row["name"] or "", clean_phone_number(row["number"] or ""))
            for row in contacts.list_contacts(device_of(env))]


def clear_contacts(env: Any) -> None:
    contacts.reset(device_of(env))
