"""Simple SMS Messenger: messages live in the telephony provider, reached by `content`.

Reads go through `content query --uri content://sms/<box>` exactly as AndroidWorld checks them
(reference android-apps.md §4.2); writes are content inserts into the inbox or the sent box.
"""
from __future__ import annotations

from typing import Any, Callable

from taskkit.apps.base import App
from taskkit.apps.common import random_phone_number
from taskkit.device.base import Device
from taskkit.rng import TaskRng

PACKAGE = "com.simplemobiletools.smsmessenger"
PROVIDER_PACKAGE = "com.android.providers.telephony"
DB_DIR = f"/data/data/{PROVIDER_PACKAGE}/databases"

SMS_URI = "content://sms"
BOX_URIS = {"inbox": f"{SMS_URI}/inbox", "sent": f"{SMS_URI}/sent", "all": SMS_URI}
# `type` column values.
TYPE_INBOX, TYPE_SENT = 1, 2
# Newest first; the id breaks ties between messages stamped with the same (fixed) time.
NEWEST_FIRST = "date DESC, _id DESC"

__all__ = [
    "APP", "messages", "random_message", "random_phone_number", "receive", "reset", "send",
]  # fmt: skip

_MEALS = ("lunch", "dinner", "coffee", "brunch", "drinks")
_WHENS = ("tonight", "tomorrow", "on Friday", "this weekend", "next week")
_ITEMS = ("milk", "some bread", "the dry cleaning", "a birthday card", "batteries", "coffee filters")
_EVENTS = ("the dentist appointment", "soccer practice", "the team meeting", "the recital", "book club")
_THINGS = ("dinner last night", "the ride", "your help today", "the flowers", "lending me the book")


_MESSAGES: tuple[Callable[[TaskRng], str], ...] = (
    lambda rng: f"Hey {rng.faker.first_name()}, are we still on for {rng.choice(_MEALS)} {rng.choice(_WHENS)}?",
    lambda rng: f"Running about {rng.choice((5, 10, 15, 20))} minutes late, sorry!",
    lambda rng: f"Can you pick up {rng.choice(_ITEMS)} on your way home?",
    lambda rng: f"Don't forget {rng.choice(_EVENTS)} is at {rng.randint(1, 11)}:{rng.choice(('00', '15', '30', '45'))}.",
    lambda rng: f"Thanks for {rng.choice(_THINGS)}, it was great to see you!",
    lambda rng: f"The package from {rng.faker.company()} arrived today.",
    lambda rng: f"Happy birthday, {rng.faker.first_name()}! Hope you have a great day.",
    lambda rng: f"Meeting moved to {rng.randint(1, 5)}pm in room {rng.randrange(100, 460)}.",
    lambda rng: f"Just landed in {rng.faker.city()}. Will text once I'm at the hotel.",
    lambda rng: "Call me when you get a chance.",
)


def random_message(rng: TaskRng) -> str:
    """A realistic short text message ("Running about 10 minutes late, sorry!")."""
    return rng.choice(_MESSAGES)(rng)


def receive(device: Device, address: str, body: str, *, date_ms: int | None = None) -> None:
    """Put an unread incoming message from `address` into the inbox.

    Without `date_ms` the provider stamps the device's current time (one command either way).
    """
    _insert(device, "inbox", address, body, date_ms, read=0)


def send(device: Device, address: str, body: str, *, date_ms: int | None = None) -> None:
    """Record a message sent to `address` in the sent box (the reference solution's route).

    Without `date_ms` the provider stamps the device's current time (one command either way).
    """
    _insert(device, "sent", address, body, date_ms, read=1)


def _insert(device: Device, box: str, address: str, body: str, date_ms: int | None, *, read: int) -> None:
    values: dict[str, Any] = {"address": address, "body": body, "read": read, "seen": read}
    if date_ms is not None:
        values["date"] = int(date_ms)
    device.content.insert(BOX_URIS[box], values)


def messages(device: Device, box: str = "all") -> list[dict[str, str | None]]:
    """The messages in `box` ("inbox", "sent" or "all"), newest first, as `content` prints them."""
    if box not in BOX_URIS:
        raise ValueError(f"unknown SMS box {box!r}; expected one of {', '.join(BOX_URIS)}")
    return device.content.query(BOX_URIS[box], sort=NEWEST_FIRST)


def reset(device: Device) -> None:
    """Delete every SMS (one `content delete`; the provider drops the emptied threads).

    Chosen over `pm clear` of the telephony provider, which would also wipe its carrier and
    SIM tables and restart the phone process on a real device.
    """
    device.content.delete(SMS_URI)


APP = App(
    name="simple sms messenger",
    package=PACKAGE,
    data_paths=(DB_DIR,),
    reset=reset,
    aliases=("sms", "simple sms", "messages"),
)
