"""Ladder kinds on the Clock's alarms (SPA's Clock ladder: "Set an alarm for 9am on weekdays"):
one alarm turned on and made to repeat, then a new one; one deleted, a default one turned on,
then a new weekend alarm.

Times are morning hours (1-7, 10, 11 o'clock, minutes by 15) so that "7:30" — SPA's key
component — reads the same in the list under a 12- or 24-hour clock ("7:30 AM", "07:30"), and
never inside the defaults' "8:30" and "9:00" (DeskClock's two disabled alarms).
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import clock
from taskkit.apps.calendar.tasks import pick_time_steps
from taskkit.apps.clock import alarms
from taskkit.apps.spa.kind import Kind
from taskkit.env import TaskEnv
from taskkit.gui_reference import Locator, Step, below, in_row_of, open_app, resource_id, tap, where
from taskkit.rng import TaskRng
from taskkit.validators import Validator, all_of, not_, row_exists, rows_deleted, rows_updated

_HOURS = (1, 2, 3, 4, 5, 6, 7, 10, 11)
_MINUTES = (0, 15, 30, 45)
_HOUR = {"enum": list(_HOURS)}
_MINUTE = {"enum": list(_MINUTES)}
DEFAULT_ON = (9, 0)  # DeskClock's default weekend alarm, disabled on a fresh install
# AlarmClock.EXTRA_DAYS (java.util.Calendar: SUNDAY 1 … SATURDAY 7) of Monday–Friday and the weekend.
WEEKDAY_EXTRA, WEEKEND_EXTRA = "2,3,4,5,6", "1,7"


def key(hour: int, minutes: int) -> str:
    """The alarm's time as both clock formats show it ("7:30")."""
    return f"{hour}:{minutes:02d}"


def _draw_times(rng: TaskRng) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two times whose keys do not contain each other ("1:15" is inside "11:15")."""
    first = (rng.choice(_HOURS), rng.choice(_MINUTES))
    second = first
    while key(*first) in key(*second) or key(*second) in key(*first):
        second = (rng.choice(_HOURS), rng.choice(_MINUTES))
    return first, second


def _set_alarm(env: TaskEnv, hour: int, minutes: int, days: str = "") -> None:
    """AlarmClock.ACTION_SET_ALARM with SKIP_UI: DeskClock's HandleApiCalls enables the alarm of
    that time and days, else creates one, and schedules its next instance."""
    extra = "android.intent.extra.alarm."
    days_extra = f" --eial {extra}DAYS {days}" if days else ""
    env.device.check(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR {hour} --ei {extra}MINUTES "
                     f"{minutes} --ez {extra}SKIP_UI true{days_extra}")


def _scheduled(hour: int, minutes: int) -> Validator:
    """The alarm has its next instance (DeskClock schedules one per enabled alarm)."""
    return row_exists(alarms.INSTANCES, {"hour": hour, "minutes": minutes})


def _row(hour: int, minutes: int) -> Locator:
    """The alarm's time in the list, in either clock format."""
    shown = (alarms.clock_text(hour, minutes), alarms.clock_text(hour, minutes, True))
    return resource_id("digital_clock") & where(lambda e: (e.text or "") in shown, f"the {key(hour, minutes)} alarm")


def _chips(days: int) -> list[Step]:
    return [tap(resource_id(f"day_button_{slot}")) for slot, day in enumerate(alarms.CHIP_ORDER)
            if days & alarms.day_bit(day)]


def _new_alarm(hour: int, minutes: int, days: int = 0) -> list[Step]:
    return pick_time_steps("Add alarm", hour, minutes, -1) + _chips(days)


class _AlarmKind(Kind):
    app_names = ("clock",)
    properties = {"hour": _HOUR, "minutes": _MINUTE, "hour2": _HOUR, "minutes2": _MINUTE}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        (hour, minutes), (hour2, minutes2) = _draw_times(rng)
        return {"hour": hour, "minutes": minutes, "hour2": hour2, "minutes2": minutes2}

    def where(self) -> dict[str, int]:
        return {"hour": self.p["hour"], "minutes": self.p["minutes"]}

    def second(self, **extra: int) -> dict[str, int]:
        return {"hour": self.p["hour2"], "minutes": self.p["minutes2"], "enabled": 1, **extra}


class AlarmOnKind(_AlarmKind):
    """L1 a disabled alarm turned on; L2 repeating on weekdays; L3 another alarm set."""

    adds = (("hour", "minutes"), (), ("hour2", "minutes2"))

    def setup(self, env: TaskEnv) -> None:
        clock.reset(env.device)
        alarms.ALARMS.insert(env.device, [alarms.ALARMS.fill(self.where() | {"enabled": 0})])

    def _changes(self) -> dict[str, int]:
        return {"enabled": 1} | ({"daysofweek": alarms.WEEKDAYS} if self.at(2) else {})

    def check(self) -> Validator:
        scheduled = _scheduled(self.p["hour"], self.p["minutes"])
        if not self.at(3):
            return all_of(rows_updated(alarms.ALARMS, self.where(), self._changes()), scheduled)
        return all_of(row_exists(alarms.ALARMS, self.where() | self._changes()), scheduled,
                      row_exists(alarms.ALARMS, self.second()), _scheduled(self.p["hour2"], self.p["minutes2"]))

    def solve(self, env: TaskEnv) -> None:
        if self.at(2):  # the repeat days first, so that SET_ALARM finds the alarm by them
            alarms.ALARMS.update(env.device, self.where(), {"daysofweek": alarms.WEEKDAYS})
        _set_alarm(env, self.p["hour"], self.p["minutes"], WEEKDAY_EXTRA if self.at(2) else "")
        if self.at(3):
            _set_alarm(env, self.p["hour2"], self.p["minutes2"])
        clock.APP.launch(env.device)

    def steps(self) -> list[Step]:
        row = _row(self.p["hour"], self.p["minutes"])
        steps = [open_app("clock"), tap("Alarm"), tap(in_row_of(row, "onoff"))]
        if self.at(2):
            steps += [tap(below(row, "arrow")), *_chips(alarms.WEEKDAYS)]
        return steps + (_new_alarm(self.p["hour2"], self.p["minutes2"]) if self.at(3) else [])


class AlarmReplaceKind(_AlarmKind):
    """L1 an alarm deleted; L2 the default 9:00 alarm turned on; L3 a new alarm on weekends."""

    adds = (("hour", "minutes"), (), ("hour2", "minutes2"))

    def setup(self, env: TaskEnv) -> None:
        clock.reset(env.device)
        alarms.ALARMS.insert(env.device, [alarms.ALARMS.fill(self.where() | {"daysofweek": alarms.WEEKDAYS})])

    def check(self) -> Validator:
        if not self.at(2):
            return rows_deleted(alarms.ALARMS, self.where())
        nine = {"hour": DEFAULT_ON[0], "minutes": DEFAULT_ON[1], "enabled": 1}
        parts = [not_(row_exists(alarms.ALARMS, self.where())), row_exists(alarms.ALARMS, nine), _scheduled(*DEFAULT_ON)]
        if self.at(3):
            parts += [row_exists(alarms.ALARMS, self.second(daysofweek=alarms.WEEKEND)),
                      _scheduled(self.p["hour2"], self.p["minutes2"])]
        return all_of(*parts)

    def solve(self, env: TaskEnv) -> None:
        alarms.ALARMS.delete(env.device, self.where())
        if self.at(2):
            _set_alarm(env, *DEFAULT_ON, WEEKEND_EXTRA)  # finds the default weekend alarm: enabled
        if self.at(3):
            _set_alarm(env, self.p["hour2"], self.p["minutes2"], WEEKEND_EXTRA)
        clock.APP.launch(env.device)

    def steps(self) -> list[Step]:
        steps = [open_app("clock"), tap("Alarm"), tap(below(_row(self.p["hour"], self.p["minutes"]), "arrow")),
                 tap(resource_id("delete"))]
        if self.at(2):
            steps.append(tap(in_row_of(_row(*DEFAULT_ON), "onoff")))
        return steps + (_new_alarm(self.p["hour2"], self.p["minutes2"], alarms.WEEKEND) if self.at(3) else [])
