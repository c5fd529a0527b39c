"""Simple Calendar Pro tasks: add and delete events (AndroidWorld's SimpleCalendar* family)."""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from taskkit.apps import calendar
from taskkit.apps.common import DAY_SECONDS, DEVICE_EPOCH, epoch, to_datetime
from taskkit.device.quoting import sql_literal
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, description, long_press, open_app, resource_id, tap, text, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import rows_added, rows_deleted

EVENTS = calendar.EVENTS
_APP = ("simple calendar pro",)
_EVENT_PROPERTIES = {
    "title": {"type": "string", "minLength": 1},
    "description": {"type": "string"},
    "start_ts": {"type": "integer"},
    "duration_min": {"type": "integer", "minimum": 1},
}
_NOISE_SEED = {"type": "integer", "minimum": 0}


def _target_row(params: dict[str, Any], **columns: Any) -> dict[str, Any]:
    """The full events row the agent is asked to create."""
    start = params["start_ts"]
    return {
        **calendar.DEFAULTS, "start_ts": start, "end_ts": start + 60 * params["duration_min"],
        "title": params["title"], "location": "", "description": params["description"], **columns,
    }


def _event_params(rng: TaskRng) -> dict[str, Any]:
    """A target event (on or after the device's day) and the seed of its noise."""
    event = calendar.random_event(rng, first_day=15)
    return {
        "title": event["title"],
        "description": event["description"],
        "start_ts": event["start_ts"],
        "duration_min": calendar.duration_minutes(event),
        "noise_seed": rng.getrandbits(32),
    }


def _insert(env: TaskEnv, rows: list[dict[str, Any]]) -> None:
    calendar.EVENTS.insert(env.device, rows)
    calendar.APP.force_stop(env.device)


def _utc(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


TODAY = to_datetime(DEVICE_EPOCH).date()  # the device's date: the pickers open on it
NEW_EVENT_START = (DEVICE_EPOCH // 3600 + 1) * 3600  # a new event starts at the next full hour, for an hour


def pick_date_steps(field: str, when: date, shown: date) -> list[Step]:
    """Tap the date `field`, move Android's date picker from the month of `shown` to `when`'s with
    Next/Previous month, tap the day by its description ("22 October 2023"), OK."""
    months = (when.year - shown.year) * 12 + when.month - shown.month
    arrow = tap(description("Next month" if months > 0 else "Previous month"))
    day = description(f"{when.day:02d} {when:%B %Y}")  # AOSP SimpleMonthView's "dd MMMM yyyy"
    return [tap(field), *[arrow] * abs(months), tap(day), tap("OK")]


def pick_time_steps(field: str, hour: int, minute: int, shown_minute: int) -> list[Step]:
    """Tap the time `field`, then on the clock face the hour ("16 hours": picking it turns the
    face to the minutes) and, unless it already shows, the minute ("30 minutes"), OK."""
    if minute % 5:
        raise ValueError(f"{hour}:{minute:02d}: the clock face has minutes by five")
    steps = [tap(field), tap(description(f"{'00' if hour == 0 else hour} hours"))]
    if minute != shown_minute:
        steps.append(tap(description(f"{minute:02d} minutes" if minute == 0 else f"{minute} minutes")))
    return steps + [tap("OK")]


def new_event_steps(title: str, description_: str, start_ts: int, end_ts: int, repetition: str = "") -> list[Step]:
    """From the month view: the FAB and Event, title, description, the start's date and time
    through the pickers, the end's (which follows the start, an hour later) where it differs,
    its `repetition` ("Weekly") if given, Save."""
    start, end = _utc(start_ts), _utc(end_ts)
    steps = [tap("calendar_fab"), tap("fab_event_label"), type_text("event_title", title),
             type_text("event_description", description_)]
    if start.date() != TODAY:
        steps += pick_date_steps("event_start_date", start.date(), TODAY)
    if start_ts != NEW_EVENT_START:
        steps += pick_time_steps("event_start_time", start.hour, start.minute, _utc(NEW_EVENT_START).minute)
    following = _utc(start_ts + 3600)  # where the end is once the start is set
    if end.date() != following.date():
        steps += pick_date_steps("event_end_date", end.date(), following.date())
    if (end.hour, end.minute) != (following.hour, following.minute):
        steps += pick_time_steps("event_end_time", end.hour, end.minute, following.minute)
    if repetition:
        steps += [tap("event_repetition"), tap(text(repetition))]
    return steps + [tap("save")]


def go_to_date_steps(when: date, shown: date) -> list[Step]:
    """In Go to date's spinners (year, month, then day: the day's range follows the month),
    type each value that differs from `shown`'s, OK."""
    steps = []
    for old, new in ((str(shown.year), str(when.year)), (f"{shown:%b}", f"{when:%b}"),
                     (f"{shown.day:02d}", str(when.day))):
        if old.lstrip("0") != new:
            steps.append(type_text(resource_id("numberpicker_input") & text(old), new, clear=True))
    return steps + [tap("OK")]


def day_view_steps(day_ts: int) -> list[Step]:
    """From the month view: the daily view (Change view, Daily view: today), its date set
    through Go to date (a tap on the date)."""
    return [tap("change_view"), tap("Daily view"), tap("top_value"), *go_to_date_steps(_utc(day_ts).date(), TODAY)]


def delete_day_steps(day_ts: int, count: int) -> list[Step]:
    """From the month view: the day's `count` events selected in the daily view (a long press,
    then the bar's "1 / N" selects them all), Delete, Yes."""
    select_all = [tap(text(f"1 / {count}") & resource_id("actionbar_title"))] if count > 1 else []
    return [*day_view_steps(day_ts), long_press(resource_id("event_item_title")), *select_all, tap("cab_delete"),
            tap("Yes")]


def delete_event_steps(title: str, start_ts: int) -> list[Step]:
    """From the month view: the event's day in the daily view, the event, Delete, Yes."""
    return [*day_view_steps(start_ts), tap(text(title) & resource_id("event_item_title")), tap("delete"), tap("Yes")]


class OneEventTask(TaskEval):
    """Base for tasks about one event given by its title, description, start and duration."""

    abstract = True
    app_names = _APP
    schema = {
        "type": "object",
        "properties": {**_EVENT_PROPERTIES, "noise_seed": _NOISE_SEED},
        "required": ["title", "description", "start_ts", "duration_min", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return _event_params(rng)


class SimpleCalendarAddOneEvent(OneEventTask):
    """Create one event with a title, description, start and duration among noise events."""

    complexity = 3.4  # AndroidWorld's
    tags = ("data_entry", "calendar")
    template = (
        "In Simple Calendar Pro, create a calendar event on {{ start_ts | date }} at {{ start_ts | time }} "
        "with the title '{{ title }}' and the description '{{ description }}'. "
        "The event should last for {{ duration_min | duration }}."
    )

    def expected_columns(self) -> dict[str, Any]:
        """The columns the check compares, beyond start, end, title and description: a one-off
        event does not repeat (an event made to repeat daily does not meet the goal)."""
        return {"repeat_interval": 0}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        start = self.params["start_ts"]
        noise = calendar.noise_events(rng, rng.randint(0, 20), exclude=lambda e: e["start_ts"] == start)
        _insert(env, noise)

    def validator(self):
        expected = {
            "start_ts": self.params["start_ts"],
            "end_ts": self.params["start_ts"] + 60 * self.params["duration_min"],
            "title": self.params["title"],
            "description": self.params["description"],
            **self.expected_columns(),
        }
        return rows_added(EVENTS, [expected], fuzzy=("title", "description"))

    def solve(self, env: TaskEnv) -> None:
        _insert(env, [_target_row(self.params, **self.expected_columns())])

    def gui_reference(self) -> list[Step]:
        start = self.params["start_ts"]
        return [open_app("simple calendar pro"), *new_event_steps(self.params["title"], self.params["description"], start,
                                                                  start + 60 * self.params["duration_min"])]


class SimpleCalendarAddRepeatingEvent(SimpleCalendarAddOneEvent):
    """Create a weekly repeating event on the start's weekday."""

    complexity = 3.4  # AndroidWorld's
    template = (
        "In Simple Calendar Pro, create a recurring calendar event titled '{{ title }}' starting on "
        "{{ start_ts | date }} at {{ start_ts | time }}. The event recurs weekly, forever, and lasts for "
        "{{ duration_min | duration }} each time. The event description should be '{{ description }}'."
    )

    def expected_columns(self) -> dict[str, Any]:
        weekday = to_datetime(self.params["start_ts"]).strftime("%A")
        return {"repeat_interval": calendar.REPEAT_WEEKLY, "repeat_rule": calendar.WEEKDAY_BITS[weekday]}

    def gui_reference(self) -> list[Step]:
        start = self.params["start_ts"]
        return [open_app("simple calendar pro"), *new_event_steps(self.params["title"], self.params["description"], start,
                                                                  start + 60 * self.params["duration_min"], "Weekly")]


class SimpleCalendarDeleteEventsOnDay(TaskEval):
    """Delete every event on one day; events on other days stay."""

    app_names = _APP
    complexity = 2
    tags = ("data_edit", "calendar")
    difficulty, optimal_steps = "easy", 7
    template = "In Simple Calendar Pro, delete all the calendar events on {{ day_ts | date }}."
    schema = {
        "type": "object",
        "properties": {
            "day_ts": {"type": "integer"},
            "targets": {"type": "array", "minItems": 1, "items": {"type": "object", "properties": _EVENT_PROPERTIES,
                                                                  "required": list(_EVENT_PROPERTIES)}},
            "noise_seed": _NOISE_SEED,
        },
        "required": ["day_ts", "targets", "noise_seed"],
    }

    first_day, last_day = 16, 31  # the days of October 2023 the targets may fall on
    targets = (1, 3)  # how many events are on that day

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        day = rng.randint(cls.first_day, cls.last_day)
        events = [calendar.random_event(rng, day=day, hour=rng.randint(8, 20)) for _ in range(rng.randint(*cls.targets))]
        return {
            "day_ts": epoch(calendar.YEAR, calendar.MONTH, day),
            "targets": [
                {"title": e["title"], "description": e["description"], "start_ts": e["start_ts"],
                 "duration_min": calendar.duration_minutes(e)} for e in events
            ],
            "noise_seed": rng.getrandbits(32),
        }

    def _on_day(self, row: dict[str, Any]) -> bool:
        return self.params["day_ts"] <= int(row["start_ts"]) < self.params["day_ts"] + DAY_SECONDS

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        noise = calendar.noise_events(rng, 20, exclude=self._on_day)
        targets = [_target_row(t) for t in self.params["targets"]]
        _insert(env, noise[:10] + targets + noise[10:])

    def _on_the_day(self) -> str:
        day = self.params["day_ts"]
        return f"start_ts >= {sql_literal(day)} AND start_ts < {sql_literal(day + DAY_SECONDS)}"

    def validator(self):
        return rows_deleted(EVENTS, self._on_the_day())

    def solve(self, env: TaskEnv) -> None:
        EVENTS.delete(env.device, self._on_the_day())
        calendar.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        """The day's events (the targets: no other event is on the day) selected in the daily view, deleted at once."""
        return [open_app("simple calendar pro"), *delete_day_steps(self.params["day_ts"], len(self.params["targets"]))]


class _DeleteEventsOnNamedDay(SimpleCalendarDeleteEventsOnDay):
    """AndroidWorld's variants of deleting a day's events; the params also hold the day of the
    month and the weekday the goal names."""

    abstract = True
    schema = {
        **SimpleCalendarDeleteEventsOnDay.schema,
        "properties": {**SimpleCalendarDeleteEventsOnDay.schema["properties"],
                       "day": {"type": "integer", "minimum": 1, "maximum": 31}, "weekday": {"type": "string"}},
        "required": [*SimpleCalendarDeleteEventsOnDay.schema["required"], "day", "weekday"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        params = super().generate_random_params(rng)
        day = to_datetime(params["day_ts"])
        return {**params, "day": day.day, "weekday": day.strftime("%A")}


class SimpleCalendarDeleteEvents(_DeleteEventsOnNamedDay):
    """The three events of a day of October 2023, the date written year-month-day."""

    complexity = 1.4
    first_day, last_day, targets = 1, 31, (3, 3)
    template = "In Simple Calendar Pro, delete all the calendar events on 2023-10-{{ day }}"


class SimpleCalendarDeleteEventsOnRelativeDay(_DeleteEventsOnNamedDay):
    """The two events of "this Monday" … "this Saturday" (October 16–21 2023 on the device)."""

    complexity = 1.2
    first_day, last_day, targets = 16, 21, (2, 2)
    template = "In Simple Calendar Pro, delete all events scheduled for this {{ weekday }}."


class SimpleCalendarDeleteOneEvent(OneEventTask):
    """Delete the one event with a given title."""

    complexity = 1.2  # AndroidWorld's
    tags = ("data_edit", "calendar")
    template = "In Simple Calendar Pro, delete the calendar event titled '{{ title }}' on {{ start_ts | date }}."

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        title = self.params["title"].lower()
        noise = calendar.noise_events(rng, rng.randint(5, 20), exclude=lambda e: e["title"].lower() == title)
        _insert(env, noise[:3] + [_target_row(self.params)] + noise[3:])

    def _target(self) -> dict[str, Any]:
        return {"title": self.params["title"], "start_ts": self.params["start_ts"]}

    def validator(self):
        return rows_deleted(EVENTS, self._target())

    def solve(self, env: TaskEnv) -> None:
        EVENTS.delete(env.device, self._target())
        calendar.APP.force_stop(env.device)

    def gui_reference(self) -> list[Step]:
        return [open_app("simple calendar pro"), *delete_event_steps(self.params["title"], self.params["start_ts"])]


class _AddOneEventOnRelativeDay(SimpleCalendarAddOneEvent):
    """AndroidWorld's relative-day variants of adding one event: the goal names the day relative
    to the device's date (Sunday, October 15 2023) and the hour, not the date."""

    abstract = True
    complexity = 3.4
    first_day = last_day = 16  # days of October 2023 the event may fall on
    schema = {
        "type": "object",
        "properties": {**_EVENT_PROPERTIES, "noise_seed": _NOISE_SEED, "weekday": {"type": "string"},
                       "hour": {"type": "integer", "minimum": 0, "maximum": 23}},
        "required": ["title", "description", "start_ts", "duration_min", "noise_seed", "weekday", "hour"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        event = calendar.random_event(rng, day=rng.randint(cls.first_day, cls.last_day))
        start = to_datetime(event["start_ts"])
        return {"title": event["title"], "description": event["description"], "start_ts": event["start_ts"],
                "duration_min": calendar.duration_minutes(event), "noise_seed": rng.getrandbits(32),
                "weekday": start.strftime("%A"), "hour": start.hour}


_WHEN_AND_WHAT = (" at {{ hour }}h with the title '{{ title }}' and the description '{{ description }}'. "
                  "The event should last for {{ duration_min }} mins.")


class SimpleCalendarAddOneEventTomorrow(_AddOneEventOnRelativeDay):
    """Create one event tomorrow (Monday, October 16 2023 on the device)."""

    template = "In Simple Calendar Pro, create a calendar event for tomorrow" + _WHEN_AND_WHAT


class SimpleCalendarAddOneEventInTwoWeeks(_AddOneEventOnRelativeDay):
    """Create one event two weeks from the device's date (October 29 2023)."""

    first_day = last_day = 29
    template = "In Simple Calendar Pro, create a calendar event in two weeks from today" + _WHEN_AND_WHAT


class SimpleCalendarAddOneEventRelativeDay(_AddOneEventOnRelativeDay):
    """Create one event "this Monday" … "this Saturday" (October 16–21 2023 on the device)."""

    first_day, last_day = 16, 21
    template = "In Simple Calendar Pro, create a calendar event for this {{ weekday }}" + _WHEN_AND_WHAT
