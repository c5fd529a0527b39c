"""Answer matching: order-insensitive items, titles with commas, numbers, dates and times; and
an information-retrieval spec scored end to end through `env.submit_answer`."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from taskkit import specs
from taskkit.env import Env
from taskkit.validators import itemmatch as answers

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "specs" / "calendar_titles_on_day.textproto"


@pytest.mark.parametrize("answer, expected, ok", [
    ("Lunch, then gym, Book club", ["Lunch, then gym", "Book club"], True),
    ("Book club and Lunch, then gym.", ["Lunch, then gym", "Book club"], True),
    ("'Book club', 'Lunch, then gym'", ["Lunch, then gym", "Book club"], True),
    ("book clubb; lunch then gym", ["Lunch, then gym", "Book club"], True),  # fuzzy, AndroidWorld's 0.9
    ("Book club", ["Lunch, then gym", "Book club"], False),  # one missing
    ("Book club, Lunch, then gym, Haircut", ["Lunch, then gym", "Book club"], False),  # one too many
    ("Lunch", ["Lunch, then gym"], False),  # a part of a title is not the title
    ("Book", ["Book club"], False),
    ("Dr. O'Brien, Ana", ["Ana", "Dr. O'Brien"], True),
    ("None", [], True),
    ("Book club", [], False),
])
def test_text_items(answer, expected, ok):
    assert (answers.match_text(answer, expected) == []) is ok


titles = st.lists(st.text(alphabet="abcdefgh ,'", min_size=1, max_size=12).map(str.strip).filter(
    lambda t: any(c.isalpha() for c in t)), min_size=1, max_size=4, unique_by=str.lower)


@settings(max_examples=60)
@given(items=titles, data=st.data())
def test_any_order_of_the_exact_items_matches(items, data):
    order = data.draw(st.permutations(items))
    assert answers.match_text(", ".join(order), items) == []


@pytest.mark.parametrize("answer, expected, tolerance, ok", [
    ("3", [3], 0, True),
    ("There are 3 events.", [3], 0, True),
    ("$1,234.50", [1234.5], 0, True),
    ("1234.4", [1234.5], 0.1, True),
    ("1234.3", [1234.5], 0.1, False),
    ("4, 3", [3, 4], 0, True),
    ("3", [3, 4], 0, False),
    ("3 or 4", [3], 0, False),
])
def test_numbers(answer, expected, tolerance, ok):
    assert (answers.match_numbers(answer, expected, tolerance) == []) is ok


def test_dates_and_times():
    oct22 = dt.date(2023, 10, 22)
    for text in ("October 22 2023", "Oct 22, 2023", "2023-10-22", "10/22/2023", "22 October 2023"):
        assert answers.match_dates(text, [oct22]) == [], text
    assert answers.match_dates("October 23 2023", [oct22])
    for text in ("14:40", "2:40pm", "2:40 PM"):
        assert answers.match_times(text, [(14, 40)]) == [], text
    assert answers.match_times("2pm", [(14, 0)]) == []
    assert answers.match_times("14", [(14, 0)])  # a bare number is not a time
    # an epoch-valued expected item is read in the device's time zone (UTC)
    assert answers.expected_dates([1697932800], millis=False) == [oct22]
    assert answers.expected_times([1697932800000 + 3600_000], millis=True) == [(1, 0)]
    assert answers.match_datetimes("October 22 2023 at 14:00", [(oct22, (14, 0))]) == []


@pytest.fixture(scope="module")
def ir_task():
    return specs.load_file(EXAMPLE, register=False)


def _titles_on_day(env: Env, task) -> list[str]:
    day = task.params["day_ts"]
    return [row["title"] for row in env.device.sqlite.query(
        "/data/data/com.simplemobiletools.calendar.pro/databases/events.db",
        f"SELECT title FROM events WHERE start_ts >= {day} AND start_ts < {day + 86400} ORDER BY start_ts DESC")]


def test_ir_spec_end_to_end(ir_task, env):
    seed = next(s for s in range(100) if len(ir_task.from_seed(s).params["events"]) >= 2)
    cases = []
    task = ir_task.from_seed(seed)
    task.initialize_state(env)
    try:
        titles = _titles_on_day(env, task)
        assert len(titles) >= 2
        for answer, expected in [
            (" and ".join(titles), 1.0),                      # another order and separator
            (", ".join(t.upper() for t in titles), 1.0),      # case does not matter
            (", ".join(titles[1:]), 0.0),                     # one missing
            (", ".join(titles + ["Haircut, then nap"]), 0.0),  # one too many
            ("", 0.0),                                        # no answer
        ]:
            env.submit_answer(answer)
            cases.append((answer, task.is_successful(env), expected))
        env.submit_answer("")
        task.solve(env)  # the oracle submits the expected answer
        assert sorted(env.answer.split(", ")) == sorted(titles) or "," in "".join(titles)
        cases.append(("oracle", task.is_successful(env), 1.0))
    finally:
        task.teardown(env)
    assert [(a, s) for a, s, e in cases if s != e] == []


def test_a_wrong_number_inside_a_text_answer_fails():
    from taskkit.validators.itemmatch import match_text

    assert match_text("City Hall, Room 4", ["City Hall, Room 3"])
    assert match_text("2 tablespoon", ["1 tablespoon"])
    assert match_text("city hall room 3", ["City Hall, Room 3"]) == []
