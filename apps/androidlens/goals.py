"""Goals: the building blocks of AndroidLens-style tasks.

A `Goal` is one sub-target of a long task: a milestone `name`, the state `check` that says it
is reached, the device commands that reach it (`solve`), whether the end state must still hold
it (`must_hold`), and, for goals that add a row, the row and its source, so that the task's own
check also asks that nothing else was added there (`exact`). `LensTask` turns its goal groups
into milestones (`ordered` / `unordered`), its check (every goal met, no stray rows) and its
reference solution (the goals' `solve`, in order). The goal makers below build the goals the
tasks share: a text message sent, a contact, a calendar event, an expense, an alarm, a note.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Sequence

from taskkit.apps import calendar, contacts, expense, markor, sms
from taskkit.apps.clock import alarms
from taskkit.apps.common import device_now_ms, normalize_phone, to_datetime
from taskkit.env import TaskEnv
from taskkit.task import TaskEval
from taskkit.validators import ProviderUri, all_of, file_content, milestone, ordered, rows_added, unordered
from taskkit.validators.base import CheckResult, Validator
from taskkit.validators.milestones import Group
from taskkit.validators.rows import FieldMatcher, match_rows
from taskkit.validators.sources import Row, RowSource

SENT = ProviderUri(sms.BOX_URIS["sent"], projection=("address", "body", "type"))
PHONES = ProviderUri(contacts.PHONES_URI, projection=("display_name", "number"))
PHONE = {"normalize": {"address": normalize_phone, "number": normalize_phone}}


@dataclasses.dataclass(frozen=True)
class RowAdded:
    """Some row added to `source` since setup matches `expected` (other new rows are allowed:
    a milestone judges its own goal; the task's check asks for exactly the goals' rows)."""

    source: RowSource
    expected: Row
    matcher: FieldMatcher

    def snapshot(self, env: TaskEnv) -> Any:
        return self.source.snapshot(env)

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        added = list(self.source.diff(env, snapshot).added.values())
        if match_rows([self.expected], added, self.matcher)[0] is not None:
            return CheckResult(1.0)
        shown = ", ".join(f"{k}={v!r}" for k, v in self.expected.items())
        return CheckResult(0.0, (f"{self.source.describe()}: no new row matches {shown}",))


@dataclasses.dataclass(frozen=True)
class Exact:
    """A row a goal adds, for the task's exactness check: its source and how fields compare."""

    source: RowSource
    row: Row
    fuzzy: tuple[str, ...] = ()
    normalize: Mapping[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Goal:
    """One sub-target: a milestone and how the reference solution reaches it."""

    name: str
    check: Validator
    solve: Callable[[TaskEnv], None]
    must_hold: bool = False
    exact: Exact | None = None
    final: bool = True  # part of the task's own check (False: a passing state, e.g. an app opened)


def added(name: str, exact: Exact, solve: Callable[[TaskEnv], None], must_hold: bool = False) -> Goal:
    """A goal met once a row like `exact.row` was added to its source."""
    matcher = FieldMatcher(frozenset(exact.fuzzy), dict(exact.normalize))
    return Goal(name, RowAdded(exact.source, exact.row, matcher), solve, must_hold, exact)


class LensTask(TaskEval):
    """An AndroidLens-style task: goal groups (ordered or not) → milestones, check and solution."""

    abstract = True

    def goal_groups(self) -> Sequence[tuple[bool, Sequence[Goal]]]:
        """The goals, as (ordered, goals) groups in the order the goal text names them."""
        raise NotImplementedError

    def goals(self) -> list[Goal]:
        return [goal for _, goals in self.goal_groups() for goal in goals]

    def milestones(self) -> tuple[Group, ...]:
        return tuple((ordered if is_ordered else unordered)(*(milestone(g.name, g.check, g.must_hold) for g in goals))
                     for is_ordered, goals in self.goal_groups())

    def validator(self) -> Validator:
        """Every goal met, and the sources goals add rows to hold exactly the goals' new rows."""
        by_source: dict[int, list[Exact]] = {}
        for goal in self.goals():
            if goal.exact is not None:
                by_source.setdefault(id(goal.exact.source), []).append(goal.exact)
        exact = [rows_added(rows[0].source, [e.row for e in rows], fuzzy=tuple({f for e in rows for f in e.fuzzy}),
                            normalize={k: v for e in rows for k, v in e.normalize.items()})
                 for rows in by_source.values()]
        return all_of(*(goal.check for goal in self.goals() if goal.final), *exact)

    def solve(self, env: TaskEnv) -> None:
        for goal in self.goals():
            goal.solve(env)


def object_schema(**properties: Any) -> dict[str, Any]:
    """An object schema whose every property is required (a task's params)."""
    return {"type": "object", "properties": properties, "required": list(properties)}


# --- goal makers --------------------------------------------------------------------------------
def sms_sent(name: str, number: str, body: str) -> Goal:
    """A text message with `body` (fuzzy) sent to `number` (digits compared)."""
    return added(name, Exact(SENT, {"address": number, "body": body}, ("body",), {"address": normalize_phone}),
                 lambda env: sms.send(env.device, number, body))


def contact_saved(name: str, person: str, number: str) -> Goal:
    """A contact `person` with the mobile `number`; it must still be there at the end."""
    return added(name, Exact(PHONES, {"display_name": person, "number": number}, (), {"number": normalize_phone}),
                 lambda env: contacts.add_contact(env.device, person, number), must_hold=True)


def event_row(title: str, description: str, start_ts: int, minutes: int, repeat: int = 0) -> dict[str, Any]:
    """The events row an event made in the app's editor gets (weekly: on the start's weekday)."""
    rule = calendar.WEEKDAY_BITS[_weekday(start_ts)] if repeat == calendar.REPEAT_WEEKLY else (
        1 if repeat in (calendar.REPEAT_MONTHLY, calendar.REPEAT_YEARLY) else 0)
    return {**calendar.DEFAULTS, "start_ts": start_ts, "end_ts": start_ts + 60 * minutes, "title": title,
            "location": "", "description": description, "repeat_interval": repeat, "repeat_rule": rule}


def _weekday(ts: int) -> str:
    return to_datetime(ts).strftime("%A")


def event_saved(name: str, row: dict[str, Any]) -> Goal:
    """A calendar event with the row's start, end, title, description and repetition (texts
    fuzzy); must hold."""
    wanted = {k: row[k] for k in ("start_ts", "end_ts", "title", "description", "repeat_interval", "repeat_rule")}

    def solve(env: TaskEnv) -> None:
        calendar.EVENTS.insert(env.device, [row])
        calendar.APP.force_stop(env.device)
    return added(name, Exact(calendar.EVENTS, wanted, ("title", "description")), solve, must_hold=True)


def expense_logged(name: str, item: dict[str, Any]) -> Goal:
    """An expense with the item's name (fuzzy), amount (cents), category and note (fuzzy); must hold."""
    wanted = {k: item[k] for k in ("name", "amount", "category", "note")}

    def solve(env: TaskEnv) -> None:
        now = device_now_ms()
        expense.EXPENSES.insert(env.device, [{**wanted, "created_date": now, "modified_date": now}])
        expense.APP.force_stop(env.device)
    return added(name, Exact(expense.EXPENSES, wanted, ("name", "note")), solve, must_hold=True)


def _calendar_days(bits: int) -> str:
    """A daysofweek bitmask as AlarmClock.EXTRA_DAYS' java.util.Calendar days (Sunday 1)."""
    return ",".join(str((day + 1) % 7 + 1) for day in range(7) if bits & alarms.day_bit(day))


def alarm_set(name: str, hour: int, minutes: int, bits: int = 0) -> Goal:
    """An enabled alarm at hour:minutes repeating on `bits` (0: once); must hold (switched off
    again, it is not met). Solved as a voice assistant does: ACTION_SET_ALARM with SKIP_UI."""
    wanted = {"hour": hour, "minutes": minutes, "enabled": 1, "daysofweek": bits}

    def solve(env: TaskEnv) -> None:
        extra = "android.intent.extra.alarm."
        days = f" --eial {extra}DAYS {_calendar_days(bits)}" if bits else ""
        env.device.check(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR {hour} "
                         f"--ei {extra}MINUTES {minutes} --ez {extra}SKIP_UI true{days}")
    return added(name, Exact(alarms.ALARMS, wanted), solve, must_hold=True)


def note_written(name: str, file_name: str, text: str, folder: str | None = None) -> Goal:
    """A Markor note holding `text` (fuzzy); must hold."""
    return Goal(name, file_content(markor.note_path(file_name, folder), text, fuzzy=True),
                lambda env: markor.create_note(env.device, file_name, text, folder) and None, must_hold=True)
