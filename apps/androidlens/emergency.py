"""Emergency contacts as Android's Emergency information app keeps them, read and written from
the device side (the goals of AndroidLens' Emergency SOS task).

AOSP packages/apps/EmergencyInfo: the default shared preferences of `com.android.emergency`,
key `emergency_contacts`, the contacts' phone data URIs (`content://com.android.contacts/data/ID`)
joined by "|" (EmergencyContactsPreference.serialize); a URI whose phone row is gone does not
count (deserializeAndFilter). The Emergency SOS switches are the secure settings
`emergency_gesture_enabled` (unset reads as on) and `emergency_gesture_sound_enabled`
(Settings.Secure, Android 12+).
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from taskkit.apps.common import normalize_phone
from taskkit.device.base import Device
from taskkit.device.services import shared_prefs
from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless

PACKAGE = "com.android.emergency"
PREFS_PATH = shared_prefs.path(PACKAGE, f"{PACKAGE}_preferences")
KEY = "emergency_contacts"
DATA_URI = "content://com.android.contacts/data/"
PHONES_URI = "content://com.android.contacts/data/phones"
SOS, SOS_SOUND = "emergency_gesture_enabled", "emergency_gesture_sound_enabled"


def _phones(device: Device) -> dict[str, str]:
    """Every phone row's data URI → its number."""
    rows = device.content.query(PHONES_URI, projection=["_id", "data1"])
    return {f"{DATA_URI}{row['_id']}": str(row.get("data1") or "") for row in rows}


def _stored(device: Device) -> tuple[str | None, list[str]]:
    try:
        text: str | None = device.files.read_text(PREFS_PATH)
    except FileNotFoundError:
        text = None
    entry = (shared_prefs.parse(text) if text else {}).get(KEY)
    return text, [uri for uri in str(entry.value if entry else "").split("|") if uri]


def numbers(device: Device) -> list[str]:
    """The emergency contacts' numbers, in the order added (rows that are gone left out)."""
    phones = _phones(device)
    return [phones[uri] for uri in _stored(device)[1] if uri in phones]


def add(device: Device, number: str) -> None:
    """Add the contact phone row with `number` to the list, as the contact picker does."""
    uri = next(u for u, n in _phones(device).items() if normalize_phone(n) == normalize_phone(number))
    text, uris = _stored(device)
    if uri not in uris:
        value = "|".join([*uris, uri])
        device.files.write_text(PREFS_PATH, shared_prefs.put(text, KEY, shared_prefs.Pref("string", value)))


APP_DIR = f"/data/data/{PACKAGE}"


def save(device: Device) -> str | None:
    """The preferences file's text (None: there is none), for `restore`."""
    if not device.files.exists(APP_DIR):
        return None
    return _stored(device)[0] or ""


def clear(device: Device) -> None:
    """No emergency contacts."""
    device.files.remove(PREFS_PATH)


def restore(device: Device, saved: str | None) -> None:
    """Put back what `save` returned: the file's text, or no app folder at all."""
    if saved is None:
        device.files.remove(APP_DIR, recursive=True)
    elif saved:
        device.files.write_text(PREFS_PATH, saved)
    else:
        clear(device)


@dataclasses.dataclass(frozen=True)
class Listed(Stateless):
    """`number` (digits compared) is among the emergency contacts."""

    number: str
    reads: ClassVar[tuple[str, ...]] = (APP_DIR,)  # the app's data, created on its first write

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        found = numbers(env.device)
        if any(normalize_phone(n) == normalize_phone(self.number) for n in found):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.number} is not an emergency contact (they are: {', '.join(found) or 'none'})",))
