"""B-MoCA's six "Clock (*)" cross-app tasks: an alarm in Clock and a system setting in Settings.

B-MoCA judges them by app data (alarms.db) plus the system setting, with no log detector; so
does taskkit, both required: the alarm's `alarms` row (enabled, at the time, on the days) and
its next instance, and the Settings part's state (the alarm volume raised from a seeded level, or
airplane mode on). The steps are the parts' own: one of the Clock tasks (apps/clock/tasks.py:
its SET_ALARM solve and GUI steps) and one of apps/settings/bmoca.py's. B-MoCA's table prints
alarm rows that contradict some instructions ("turn on alarm at 9 am" with hour 10, "every
weekend" with daysofweek 31); the instruction is what is checked. The times stay the table's
fixed ones, so the wording is exact.
"""
from __future__ import annotations

from typing import Any, ClassVar

from taskkit import metadata
from taskkit.apps import clock
from taskkit.apps.clock import alarms
from taskkit.apps.clock.tasks import ClockCreateAlarm, ClockCreateWeekendAlarm, ClockTurnOnAlarm
from taskkit.apps.settings.bmoca import VOLUMES, BmocaAirplaneModeOn, BmocaAlarmVolumeUp, BmocaSettingsTask
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import all_of, row_exists
from taskkit.validators.base import Validator


class _CrossTask(TaskEval, register=False):
    """Clock's part and Settings' part, done in the instruction's order (`settings_first`)."""

    abstract = True
    app_names = ("clock", "settings")
    tags = ("clock", "bmoca", "settings", "category:event")  # B-MoCA files these under Clock (*): the Event group
    step_limit: ClassVar[int]
    clock_task: ClassVar[type[TaskEval]]
    clock_time: ClassVar[tuple[int, int]] = (9, 0)  # the alarm's (hour, minutes): 9:00 is the app's default one
    clock_days: ClassVar[int] = 0  # its daysofweek bits, when the instruction names days
    settings_task: ClassVar[type[BmocaSettingsTask]]
    settings_first = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "step_limit" in cls.__dict__:
            cls.complexity, cls.difficulty = metadata.from_step_limit(cls.step_limit)
            cls.optimal_steps = cls.clock_task.optimal_steps + cls.settings_task.optimal_steps  # both parts' steps
        super().__init_subclass__(**kwargs)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return cls.settings_task.generate_random_params(rng)

    def _parts(self) -> list[TaskEval]:
        hour, minutes = self.clock_time
        clock_part = self.clock_task() if self.clock_task is ClockTurnOnAlarm else \
            self.clock_task({"hour": hour, "minutes": minutes, "time": alarms.spoken_time(hour, minutes)})
        settings_part = self.settings_task(dict(self.params))
        return [settings_part, clock_part] if self.settings_first else [clock_part, settings_part]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        clock.reset(env.device)
        next(p for p in self._parts() if isinstance(p, BmocaSettingsTask)).prepare(env.device)

    def teardown(self, env: TaskEnv) -> None:
        super().teardown(env)
        clock.reset(env.device)

    def validator(self) -> Validator:
        """alarms.db's row and next instance, and the setting (B-MoCA: app data + system setting)."""
        hour, minutes = self.clock_time
        alarm = {"hour": hour, "minutes": minutes, "enabled": 1, **({"daysofweek": self.clock_days} if self.clock_days else {})}
        settings_part = self.settings_task(dict(self.params))
        return all_of(row_exists(alarms.ALARMS, alarm), row_exists(alarms.INSTANCES, {"hour": hour, "minutes": minutes}),
                      settings_part.state())

    def solve(self, env: TaskEnv) -> None:
        for part in self._parts():
            part.solve(env)

    def gui_reference(self) -> list[Step]:
        return [step for part in self._parts() for step in part.gui_reference()]


class _AlarmVolume(_CrossTask):
    abstract = True
    settings_task = BmocaAlarmVolumeUp
    schema = {"type": "object", "properties": {"start": {"type": "integer", "minimum": 0,
                                                          "maximum": VOLUMES["alarm"][2][1]}},
              "required": ["start"]}


class _Airplane(_CrossTask):
    abstract = True
    settings_task = BmocaAirplaneModeOn
    settings_first = True
    clock_task = ClockCreateAlarm


class BmocaAlarmOnAndAlarmVolumeUp(_AlarmVolume):
    template = "turn on alarm at 9 am in clock and increase alarm volume in setting"
    step_limit = 12
    clock_task = ClockTurnOnAlarm


class BmocaAlarm1330AndAlarmVolumeUp(_AlarmVolume):
    template = "create alarm at 13:30 pm in clock and increase alarm volume in setting"
    step_limit = 15
    clock_task, clock_time = ClockCreateAlarm, (13, 30)


class BmocaWeekendAlarm1330AndAlarmVolumeUp(_AlarmVolume):
    template = "create alarm at 13:30 pm on every weekend and increase alarm volume in setting"
    step_limit = 16
    clock_task, clock_time, clock_days = ClockCreateWeekendAlarm, (13, 30), alarms.WEEKEND


class BmocaAirplaneAndAlarm1030(_Airplane):
    template = "turn on airplane mode in setting and create alarm at 10:30 am in clock"
    step_limit = 17
    clock_time = (10, 30)


class BmocaAirplaneAndAlarm1330(_Airplane):
    template = "turn on airplane mode in setting and create alarm at 13:30 pm in clock"
    step_limit = 17
    clock_time = (13, 30)


class BmocaAlarm1030AndAlarmVolumeUp(_AlarmVolume):
    template = "create alarm at 10:30 am in clock and increase alarm volume in setting"
    step_limit = 18
    clock_task, clock_time = ClockCreateAlarm, (10, 30)
