"""taskkit.apps.contacts: realistic contacts, added and listed through the contacts provider."""
from __future__ import annotations

import re

from taskkit.apps import contacts
from taskkit.apps.common import normalize_phone
from taskkit.rng import TaskRng


def test_random_contact_is_deterministic_and_realistic():
    people = [contacts.random_contact(TaskRng(seed)) for seed in range(60)]
    assert people == [contacts.random_contact(TaskRng(seed)) for seed in range(60)]
    for person in people:
        assert set(person) == {"name", "number"}
        assert re.fullmatch(r"[A-Z][A-Za-z'\-]+ [A-Z][A-Za-z'\- ]+", person["name"]), person
        assert re.fullmatch(r"\+1\d{10}", person["number"])
    assert len({p["name"] for p in people}) > 50


def test_app_registration():
    assert contacts.APP.package == "com.google.android.contacts"
    assert contacts.APP.activity == "com.android.contacts.activities.PeopleActivity"
    assert contacts.APP.data_paths == ("/data/data/com.android.providers.contacts/databases",)


# --- against the simulator ----------------------------------------------------------------------
def test_add_then_list_round_trip_with_hostile_names(device, hostile):
    added = [(text, f"+1 (212) 555-01{i:02d}") for i, text in enumerate(hostile)]
    ids = [contacts.add_contact(device, name, number) for name, number in added]
    assert len(set(ids)) == len(ids)
    listed = contacts.list_contacts(device)
    assert sorted((c["name"], normalize_phone(c["number"])) for c in listed) == sorted(
        (name, normalize_phone(number)) for name, number in added
    )


def test_reset_removes_every_contact(device):
    rng = TaskRng(4)
    for _ in range(3):
        person = contacts.random_contact(rng)
        contacts.add_contact(device, person["name"], person["number"])
    assert len(contacts.list_contacts(device)) == 3
    contacts.reset(device)
    assert contacts.list_contacts(device) == []
    person = contacts.random_contact(rng)
    contacts.add_contact(device, person["name"], person["number"])
    assert contacts.list_contacts(device) == [person]
