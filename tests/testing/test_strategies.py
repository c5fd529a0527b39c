"""Strategies: seeds, params drawn from a seed, hostile text; and the free-text fields they fill."""
from __future__ import annotations

import unicodedata

from hypothesis import find, given, settings

from taskkit.testing import CANARY, PAYLOAD, free_text_paths, hostile_text, hostile_text_for, params_for, seeds
from taskkit.testing.hostile import with_hostile_text
from tests.testing.broken_tasks import AddCoffee


@given(seeds())
def test_seeds_are_32_bit(seed):
    assert 0 <= seed < 2**32


@settings(max_examples=10)
@given(params_for(AddCoffee))
def test_params_for_draws_valid_params(params):
    assert AddCoffee(params).params == params and params["name"].startswith("Coffee with ")


@given(hostile_text())
def test_hostile_text_is_never_nul_and_never_blank(text):
    assert "\x00" not in text and text.strip()


def test_hostile_text_reaches_every_kind_of_trouble():
    kinds = {
        "command substitution": lambda t: "$(" in t, "backticks": lambda t: "`" in t,
        "command separator": lambda t: ";" in t, "and-list": lambda t: "&&" in t,
        "quotes": lambda t: "'" in t and '"' in t, "newline": lambda t: "\n" in t,
        "control character": lambda t: any(ord(c) < 32 and c not in "\n\t" for c in t),
        "right-to-left": lambda t: "\u202e" in t or "\u200f" in t,
        "combining mark": lambda t: any(unicodedata.combining(c) for c in t),
        "emoji": lambda t: any(ord(c) >= 0x1F300 for c in t), "10 KB": lambda t: len(t) >= 10 * 1024,
    }
    for name, holds in kinds.items():
        assert holds(find(hostile_text(), holds, settings=settings(max_examples=2000, database=None))), name


def test_hostile_text_for_a_seed_is_fixed_and_seed_zero_is_everything_at_once():
    assert hostile_text_for(0) == PAYLOAD
    assert all(f"touch {CANARY}" in PAYLOAD and kind in PAYLOAD for kind in ("$(", "`", "&&", "\n", "\u202e"))
    assert hostile_text_for(12345) == hostile_text_for(12345) and "\x00" not in hostile_text_for(12345)
    assert len(hostile_text_for(7)) == 10 * 1024 and len(hostile_text_for(9)) < 1024


def test_free_text_paths_skip_patterns_and_enums():
    schema = {"type": "object", "properties": {
        "name": {"type": "string"}, "code": {"type": "string", "pattern": "^[A-Z]+$"},
        "kind": {"enum": ["a", "b"]}, "items": {"type": "array", "items": {"type": "object", "properties": {
            "note": {"type": "string", "maxLength": 5}, "amount": {"type": "integer"}}}}}}
    params = {"name": "x", "code": "AB", "kind": "a", "items": [{"note": "n", "amount": 1}, {"note": "m", "amount": 2}]}
    assert list(free_text_paths(schema, params)) == [("name",), ("items", 0, "note"), ("items", 1, "note")]


def test_hostile_params_keep_each_fields_value_and_fit_its_schema():
    params, paths = with_hostile_text(AddCoffee, 3, "$(touch x)")
    assert paths == [("name",)]
    assert params["name"] == AddCoffee.from_seed(3).params["name"] + " $(touch x)"
    assert AddCoffee(params).params == params
