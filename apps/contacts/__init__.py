"""Contacts: people live in the contacts provider, reached by `content`.

AndroidWorld reads contacts with
`content query --uri content://contacts/phones/ --projection display_name:number` and clears
them with `pm clear com.android.providers.contacts` (reference android-apps.md §4.3).
"""
from __future__ import annotations

from taskkit.apps.base import App
from taskkit.apps.common import random_phone_number
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "com.google.android.contacts"
PROVIDER_PACKAGE = "com.android.providers.contacts"
DB_DIR = f"/data/data/{PROVIDER_PACKAGE}/databases"

RAW_CONTACTS_URI = "content://com.android.contacts/raw_contacts"
DATA_URI = "content://com.android.contacts/data"
PHONES_URI = "content://contacts/phones/"
NAME_MIMETYPE = "vnd.android.cursor.item/name"
PHONE_MIMETYPE = "vnd.android.cursor.item/phone_v2"
PHONE_TYPE_MOBILE = 2
# The phone types the editor's label spinner offers, in its order, with their
# ContactsContract.CommonDataKinds.Phone TYPE_* numbers (labels: AOSP core/res phoneType*).
PHONE_LABELS = (("Mobile", 2), ("Work", 3), ("Home", 1), ("Main", 12), ("Work Fax", 4), ("Home Fax", 5),
                ("Pager", 6), ("Other", 7))


def random_contact(rng: TaskRng) -> dict[str, str]:
    """{"name": "Jane Doe", "number": "+12125550134"}: a realistic first and last name."""
    return {"name": f"{rng.faker.first_name()} {rng.faker.last_name()}", "number": random_phone_number(rng)}


def add_contact(device: Device, name: str, number: str) -> int:
    """Add a local contact with a display name and one mobile number; return its raw contact id.

    Four round trips: insert the raw contact, read back its id (the newest one), insert the
    name row, insert the phone row.
    """
    device.content.insert(RAW_CONTACTS_URI, {"account_type": None, "account_name": None})
    newest = device.content.query(RAW_CONTACTS_URI, projection=["_id"], sort="_id DESC")
    if not newest or newest[0].get("_id") is None:
        raise RuntimeError(f"the contacts provider returned no raw contact after an insert into {RAW_CONTACTS_URI}")
    raw_id = int(newest[0]["_id"])  # type: ignore[arg-type]
    device.content.insert(DATA_URI, {"raw_contact_id": raw_id, "mimetype": NAME_MIMETYPE, "data1": name})
    device.content.insert(
        DATA_URI,
        {"raw_contact_id": raw_id, "mimetype": PHONE_MIMETYPE, "data1": number, "data2": PHONE_TYPE_MOBILE},
    )
    return raw_id


def list_contacts(device: Device) -> list[dict[str, str | None]]:
    """Every (name, number) pair the phones view shows: [{"name": ..., "number": ...}]."""
    rows = device.content.query(PHONES_URI, projection=["display_name", "number"])
    return [{"name": row.get("display_name"), "number": row.get("number")} for row in rows]


def reset(device: Device) -> None:
    """Wipe the contacts provider's data (`pm clear`), as AndroidWorld does."""
    device.packages.clear(PROVIDER_PACKAGE)


APP = App(
    name="contacts",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    reset=reset,
)
