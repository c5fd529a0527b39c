"""taskkit.apps.common: device-time helpers, phone numbers, file-name stems, noise generation."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.apps import common
from taskkit.rng import TaskRng


def test_device_epoch_is_androidworlds_fixed_time():
    assert common.DEVICE_EPOCH == common.epoch(2023, 10, 15, 15, 34)
    assert common.format_datetime(common.DEVICE_EPOCH) == "October 15 2023 at 15:34"
    assert common.to_datetime(common.DEVICE_EPOCH).strftime("%A") == "Sunday"
    assert common.device_now_ms() == 1697384040000


def test_format_date_pads_the_day_and_uses_utc():
    assert common.format_date(common.epoch(2023, 10, 5, 23, 59)) == "October 05 2023"
    assert common.format_time(common.epoch(2023, 10, 5, 9, 5)) == "09:05"


@given(st.integers(min_value=0, max_value=4_000_000_000))
@settings(max_examples=50)
def test_ms_round_trip(seconds):
    assert common.from_ms(common.to_ms(seconds)) == seconds
    assert common.from_ms(common.to_ms(seconds) + 999) == seconds


@pytest.mark.parametrize(
    "minutes, text",
    [(0, "0 minutes"), (1, "1 minute"), (15, "15 minutes"), (60, "1 hour"), (90, "1 hour 30 minutes"), (120, "2 hours")],
)
def test_format_minutes(minutes, text):
    assert common.format_minutes(minutes) == text


def test_random_epoch_stays_in_range_on_the_step():
    rng = TaskRng(3)
    start = common.epoch(2023, 10, 1)
    values = [common.random_epoch(rng, start, start + 10 * 3600, step=3600) for _ in range(200)]
    assert all(start <= v < start + 10 * 3600 and (v - start) % 3600 == 0 for v in values)
    assert len(set(values)) == 10
    with pytest.raises(ValueError):
        common.random_epoch(rng, start, start)


@pytest.mark.parametrize(
    "raw, normal",
    [
        ("+1 (555) 010-0134", "+15550100134"),
        ("555-0134", "5550134"),
        ("  +44 20 7946 0958 ", "+442079460958"),
        ("12+34", "1234"),
        ("", ""),
    ],
)
def test_normalize_phone(raw, normal):
    assert common.normalize_phone(raw) == normal


@given(st.text())
@settings(max_examples=100)
def test_normalize_phone_keeps_only_digits_and_a_leading_plus(raw):
    normal = common.normalize_phone(raw)
    assert normal.lstrip("+").isdigit() or normal.lstrip("+") == ""
    assert normal.count("+") <= 1
    assert common.normalize_phone(normal) == normal


def test_random_phone_number_is_fictional_e164_and_deterministic():
    numbers = [common.random_phone_number(TaskRng(seed)) for seed in range(50)]
    assert all(re.fullmatch(r"\+1[2-9]\d\d55501\d\d", n) for n in numbers)
    assert len(set(numbers)) > 25
    assert numbers == [common.random_phone_number(TaskRng(seed)) for seed in range(50)]


_STEM = re.compile(
    r"(?:(?P<pre>2023_\d\d_\d\d|[a-z0-9]{4}|backup|copy|final|edited)_)?"
    r"[a-z]+_[a-z]+"
    r"(?:_(?P<post>2023_\d\d_\d\d|[a-z0-9]{4}|backup|copy|final|edited))?"
)


def test_random_name_stem_has_one_modifier_and_dates_in_range():
    rng = TaskRng(11)
    stems = [common.random_name_stem(rng) for _ in range(300)]
    for stem in stems:
        match = _STEM.fullmatch(stem)
        assert match, stem
        assert (match["pre"] is None) != (match["post"] is None), stem
        modifier = match["pre"] or match["post"]
        if modifier.startswith("2023_"):
            assert "2023_01_01" <= modifier <= "2023_10_14", stem
    assert any(_STEM.fullmatch(s)["pre"] for s in stems) and any(_STEM.fullmatch(s)["post"] for s in stems)
    dates = {m for s in stems for m in re.findall(r"2023_\d\d_\d\d", s)}
    assert len(dates) > 10


def test_generate_excluding_skips_excluded_values():
    rng = TaskRng(5)
    values = common.generate_excluding(lambda: rng.randrange(10), 50, lambda v: v % 2 == 0)
    assert len(values) == 50 and all(v % 2 for v in values)
    assert common.generate_excluding(lambda: 1, 0) == []


def test_generate_excluding_refuses_an_impossible_exclusion():
    with pytest.raises(ValueError, match="exclusion rule"):
        common.generate_excluding(lambda: 1, 3, lambda v: True, max_attempts_per_item=5)


def _all_generators():
    from taskkit.apps import calendar, contacts, expense, files, markor, sms

    return {
        "calendar.noise_events": lambda rng: calendar.noise_events(rng, 5),
        "expense.noise_expenses": lambda rng: expense.noise_expenses(rng, 5),
        "sms.random_message": lambda rng: [sms.random_message(rng) for _ in range(5)],
        "sms.random_phone_number": sms.random_phone_number,
        "contacts.random_contact": contacts.random_contact,
        "markor.random_file_name": markor.random_file_name,
        "markor.random_note_text": markor.random_note_text,
        "files.random_file": files.random_file,
        "common.random_name_stem": common.random_name_stem,
    }


@pytest.mark.parametrize("name", sorted(_all_generators()))
def test_generators_use_only_their_rng(name):
    """Same seed → same output, whatever the global `random` and Faker states are."""
    import random

    from faker import Faker

    generate = _all_generators()[name]
    random.seed(1)
    Faker.seed(1)
    first = generate(TaskRng(42))
    random.seed(2)
    Faker.seed(2)
    random.random()
    second = generate(TaskRng(42))
    assert first == second
    assert generate(TaskRng(43)) != first
