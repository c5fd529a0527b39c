"""Emergency contacts as Android's Emergency information app keeps them (AOSP
packages/apps/EmergencyInfo): the default shared preferences of `com.android.emergency`, key
`emergency_contacts`, a string of the contacts' phone data URIs joined by "|"
(`EmergencyContactsPreference.serialize`, CONTACT_SEPARATOR "|"). The URIs name Contacts'
phone rows (`content://com.android.contacts/data/ID`, what the phone picker returns); a URI
whose row is gone is dropped when the list is read (`deserializeAndFilter`).
"""
from __future__ import annotations

import dataclasses

from taskkit.device.services import shared_prefs
from taskkit.sim.gui import appdata
from taskkit.sim.gui.session import Session

PACKAGE = "com.android.emergency"
PREFS_PATH = shared_prefs.path(PACKAGE, f"{PACKAGE}_preferences")  # PreferenceManager's default file
KEY = "emergency_contacts"
SEPARATOR = "|"
DATA_URI = "content://com.android.contacts/data/"
_PHONES_URI = "content://com.android.contacts/data/phones"
_CONTACTS_URI = "content://com.android.contacts/contacts"


@dataclasses.dataclass(frozen=True)
class Phone:
    """One phone number of a contact: its data row, the contact's name, the number."""

    data_id: int
    name: str
    number: str

    @property
    def uri(self) -> str:
        return f"{DATA_URI}{self.data_id}"


def phones(ui: Session) -> list[Phone]:
    """Every phone number of a named contact, by name (the picker's list)."""
    names = {int(r[0]): str(r[1]) for r in appdata.query(ui, _CONTACTS_URI, ["_id", "display_name"]).rows
             if r[1]}
    rows = appdata.query(ui, _PHONES_URI, ["_id", "contact_id", "data1"], sort="_id ASC").rows
    found = [Phone(int(r[0]), names[int(r[1])], str(r[2])) for r in rows if r[2] and int(r[1]) in names]
    return sorted(found, key=lambda p: (p.name.lower(), p.data_id))


def stored(ui: Session) -> list[Phone]:
    """The emergency contacts, in the order added (those whose phone row still exists)."""
    text = appdata.read_text(ui, PREFS_PATH)
    entry = (shared_prefs.parse(text) if text else {}).get(KEY)
    by_uri = {p.uri: p for p in phones(ui)}
    return [by_uri[u] for u in str(entry.value if entry else "").split(SEPARATOR) if u in by_uri]


def add(ui: Session, phone: Phone) -> None:
    """Add a contact's number (once), as EmergencyContactsPreference.addNewEmergencyContact."""
    uris = [p.uri for p in stored(ui)]
    if phone.uri not in uris:
        text = appdata.read_text(ui, PREFS_PATH) or None
        value = SEPARATOR.join(uris + [phone.uri])
        appdata.write_text(ui, PREFS_PATH, shared_prefs.put(text, KEY, shared_prefs.Pref("string", value)))


def remove(ui: Session, phone: Phone) -> None:
    """Remove a contact's number (ContactPreference's remove button)."""
    text = appdata.read_text(ui, PREFS_PATH) or None
    value = SEPARATOR.join(p.uri for p in stored(ui) if p != phone)
    appdata.write_text(ui, PREFS_PATH, shared_prefs.put(text, KEY, shared_prefs.Pref("string", value)))
