"""taskkit.apps.sms: realistic numbers and texts, and messages through the telephony provider."""
from __future__ import annotations

import re

import pytest

from taskkit.apps import sms
from taskkit.apps.common import device_now_ms, normalize_phone
from taskkit.rng import TaskRng


def test_generators_are_deterministic():
    def draw(seed):
        rng = TaskRng(seed)
        return [(sms.random_phone_number(rng), sms.random_message(rng)) for _ in range(10)]

    assert draw(3) == draw(3)
    assert draw(3) != draw(4)


def test_random_messages_are_realistic():
    rng = TaskRng(1)
    texts = [sms.random_message(rng) for _ in range(300)]
    assert len(set(texts)) > 150
    for text in texts:
        assert 10 <= len(text) <= 160  # one SMS segment
        assert text == text.strip() and "\n" not in text
        assert text[-1] in ".!?"


def test_random_numbers_are_e164_us_numbers():
    rng = TaskRng(2)
    for _ in range(100):
        number = sms.random_phone_number(rng)
        assert re.fullmatch(r"\+1\d{10}", number)
        assert normalize_phone(number) == number


def test_unknown_box_is_refused():
    with pytest.raises(ValueError, match="outbox"):
        sms.messages(object(), "outbox")  # type: ignore[arg-type]


def test_app_registration():
    assert sms.APP.package == "com.simplemobiletools.smsmessenger"
    assert sms.APP.data_paths == ("/data/data/com.android.providers.telephony/databases",)


# --- against the simulator ----------------------------------------------------------------------
def test_send_and_receive_round_trip_with_hostile_text(device, hostile):
    for i, text in enumerate(hostile):
        sms.receive(device, f"+1212555010{i}", text, date_ms=device_now_ms() - 60_000 * (i + 1))
    sms.send(device, "+13125550177", hostile[0])
    sms.send(device, "+13125550178", hostile[1])

    inbox = sms.messages(device, "inbox")
    assert [m["body"] for m in inbox] == list(hostile)  # newest first: i = 0 is the newest
    assert [m["address"] for m in inbox] == [f"+1212555010{i}" for i in range(len(hostile))]
    assert all(m["type"] == "1" for m in inbox)

    sent = sms.messages(device, "sent")
    # Both were sent at the device's current time: the later insert comes first.
    assert [(m["address"], m["body"]) for m in sent] == [("+13125550178", hostile[1]), ("+13125550177", hostile[0])]
    assert {m["date"] for m in sent} == {str(device_now_ms())}
    assert all(m["type"] == "2" for m in sent)

    assert len(sms.messages(device, "all")) == len(hostile) + 2


def test_reset_deletes_every_message(device):
    rng = TaskRng(5)
    for _ in range(3):
        sms.receive(device, sms.random_phone_number(rng), sms.random_message(rng))
    sms.send(device, sms.random_phone_number(rng), sms.random_message(rng))
    sms.reset(device)
    assert sms.messages(device, "all") == []
    sms.reset(device)  # idempotent
    assert sms.messages(device, "all") == []
