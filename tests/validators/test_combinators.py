"""Combinators and fuzzy matching, with stub validators (no device)."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, strategies as st

from taskkit.validators import all_of, any_of, fuzzy_match, not_, weighted
from taskkit.validators.base import CheckResult, Stateless
from taskkit.validators.rows import FieldMatcher, match_rows


@dataclasses.dataclass(frozen=True)
class Fixed(Stateless):
    score: float
    reason: str = "nope"

    def evaluate(self, env, snapshot):
        return CheckResult(self.score, () if self.score >= 1 else (self.reason,))


def test_all_any_not_weighted():
    yes, no = Fixed(1.0), Fixed(0.0, "missing row")
    assert all_of(yes, yes).evaluate(None, all_of(yes, yes).snapshot(None)).score == 1.0
    result = all_of(yes, no).evaluate(None, (None, None))
    assert result.score == 0.0 and result.reasons == ("missing row",)
    assert any_of(no, yes).evaluate(None, (None, None)).score == 1.0
    assert any_of(no, no).evaluate(None, (None, None)).score == 0.0
    assert not_(no).evaluate(None, None).score == 1.0
    assert not_(yes, "wifi on").evaluate(None, None).reasons == ("wifi on holds but must not",)
    half = weighted((yes, 1), (no, 1)).evaluate(None, (None, None))
    assert half.score == 0.5 and half.reasons == ("missing row",)
    assert weighted((yes, 3), (no, 1)).evaluate(None, (None, None)).score == 0.75
    with pytest.raises(ValueError):
        weighted((yes, -1))


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0.1, 10)), min_size=1, max_size=5))
def test_weighted_mean_stays_in_unit_interval(parts):
    check = weighted(*[(Fixed(score), weight) for score, weight in parts])
    score = check.evaluate(None, tuple(None for _ in parts)).score
    assert 0.0 <= score <= 1.0 + 1e-9


def test_fuzzy_match_is_androidworlds_rule():
    assert fuzzy_match("Meeting with Bob", "meeting with bob")
    assert fuzzy_match("Meeting with Bob.", "Meeting with Bob")
    assert not fuzzy_match("Meeting with Bob", "Lunch with Alice")


def test_matching_is_one_to_one():
    matcher = FieldMatcher()
    expected = [{"name": "a"}, {"name": "a"}]
    assert match_rows(expected, [{"name": "a"}], matcher).count(None) == 1
    assert None not in match_rows(expected, [{"name": "a"}, {"name": "a"}], matcher)


def test_augmenting_matching_finds_a_perfect_assignment():
    matcher = FieldMatcher(fuzzy=frozenset({"t"}))
    expected = [{"t": "Team standup"}, {"t": "Team standups"}]
    actual = [{"t": "Team standups"}, {"t": "Xylophone"}]
    assert match_rows(expected, actual, matcher).count(None) == 1


def test_fuzzy_text_keeps_numbers_exact():
    """Found by `taskkit.check`: 'City Hall, Room 4' passed for 'City Hall, Room 3'."""
    assert not fuzzy_match("City Hall, Room 4", "City Hall, Room 3")
    assert not fuzzy_match("2 tablespoon", "1 tablespoon")
    assert fuzzy_match("City hall room 3", "City Hall, Room 3")


@dataclasses.dataclass(frozen=True)
class Silent(Stateless):
    """A part that fails without a reason (a custom validator, a partial weighted score)."""

    score: float

    def evaluate(self, env, snapshot):
        return CheckResult(self.score)


@given(st.lists(st.sampled_from(["pass", "reason", "silent"]), min_size=1, max_size=6))
def test_every_failing_part_is_accounted_for(kinds):
    """all_of, any_of and weighted name every part that fails, in order, whether or not it gave
    its own reason; a passing part adds nothing."""
    parts = [Fixed(1.0) if kind == "pass" else Fixed(0.0, f"reason {i}") if kind == "reason" else Silent(0.25)
             for i, kind in enumerate(kinds)]
    expected = [f"reason {i}" if kind == "reason" else f"part {i + 1} of {len(kinds)} (Silent) scored 0.25 without giving a reason"
                for i, kind in enumerate(kinds) if kind != "pass"]
    snapshot = (None,) * len(parts)
    assert list(all_of(*parts).evaluate(None, snapshot).reasons) == expected
    assert list(weighted(*parts).evaluate(None, snapshot).reasons) == expected
    any_result = any_of(*parts).evaluate(None, snapshot)
    assert list(any_result.reasons) == ([] if "pass" in kinds else ["none of the alternatives holds:"] + [f"  {r}" for r in expected])
