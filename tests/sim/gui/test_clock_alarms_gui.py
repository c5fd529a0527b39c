"""The Clock's alarms through the simulated GUI: alarms.db as DeskClock creates it, the Alarm tab
(list, switch, repeat chips, delete), the Material time picker behind Add alarm, SET_ALARM, and
the log lines B-MoCA's detectors read."""
from __future__ import annotations

import datetime as dt

from taskkit.apps import clock
from taskkit.apps.clock import alarms
from tests.sim.gui.helpers import find, tap

LAUNCH = "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock"
SET_ALARM = "am start -a android.intent.action.SET_ALARM --ei android.intent.extra.alarm.HOUR {} " \
            "--ei android.intent.extra.alarm.MINUTES {}"


def _alarms(device) -> list[tuple[int, int, int, int]]:
    return [(r["hour"], r["minutes"], r["daysofweek"], r["enabled"]) for r in alarms.ALARMS.rows(device)]


def _ids(device, name: str) -> list:
    return [e for e in device.ui.screen().elements if (e.resource_name or "").endswith(f":id/{name}")]


def _log(device, tag: str) -> list[str]:
    return [line for line in device.check(f"logcat -d -s {tag}").splitlines() if f" {tag}" in line]


def test_first_run_database_holds_deskclocks_two_disabled_default_alarms(device) -> None:
    assert alarms.DB_PATH == "/data/user_de/0/com.google.android.deskclock/databases/alarms.db"
    assert _alarms(device) == [(8, 30, 31, 0), (9, 0, 96, 0)]
    assert [c.name for c in alarms.INSTANCES.columns][:6] == ["_id", "year", "month", "day", "hour", "minutes"]
    device.check(SET_ALARM.format(7, 15))
    assert len(_alarms(device)) == 3
    clock.reset(device)  # pm clear: the app's first run again
    assert _alarms(device) == [(8, 30, 31, 0), (9, 0, 96, 0)] and alarms.INSTANCES.rows(device) == []


def test_the_bitmask_is_monday_first_and_the_summary_sunday_first() -> None:
    assert [alarms.day_bit(day) for day in range(7)] == [1, 2, 4, 8, 16, 32, 64]
    assert (alarms.WEEKDAYS, alarms.WEEKEND) == (31, 96)
    assert alarms.repeat_summary(96) == "Sun, Sat" and alarms.repeat_summary(127) == "Every day"
    sunday = dt.datetime(2023, 10, 15, 15, 34)
    assert alarms.next_time(10, 30, 0, sunday) == dt.datetime(2023, 10, 16, 10, 30)  # tomorrow
    assert alarms.next_time(16, 0, 0, sunday) == dt.datetime(2023, 10, 15, 16, 0)  # later today
    assert alarms.next_time(16, 0, 4, sunday) == dt.datetime(2023, 10, 18, 16, 0)  # the next Wednesday


def test_the_alarm_tab_lists_alarms_with_deskclock_ids_and_logs_a_tab_change(device) -> None:
    device.check(LAUNCH)
    assert find(device, lambda e: e.is_selected).content_description == "Clock"  # TabDAO's first-run tab
    tap(device, "Timer")
    tap(device, "Alarm")
    tap(device, "Alarm")  # the selected tab again: no event (selectedTabChanged only)
    assert [e.text for e in _ids(device, "digital_clock")] == ["08:30", "09:00"]
    assert [e.text for e in _ids(device, "days_of_week")] == ["Mon, Tue, Wed, Thu, Fri", "Sun, Sat"]
    assert [e.is_checked for e in _ids(device, "onoff")] == [False, False]
    assert find(device, "fab").content_description == "Add alarm"
    events = _log(device, "AlarmClock")
    assert [line.split(": ", 1)[1] for line in events] == ["Events: [Timer] [Show Tab] [Tap]",
                                                          "Events: [Alarm] [Show Tab] [Tap]"]
    assert " D AlarmClock" in events[-1]  # threadtime: priority D, tag AlarmClock


def test_add_alarm_through_the_time_picker_schedules_it_and_logs_the_next_alarm(device) -> None:
    device.check(LAUNCH)
    tap(device, "Alarm")
    tap(device, "Add alarm")
    assert find(device, "header_title").text == "Select time"
    tap(device, "10 hours")
    tap(device, "30 minutes")
    tap(device, "material_timepicker_ok_button")
    assert (10, 30, 0, 1) in _alarms(device)
    instance = alarms.INSTANCES.rows(device)
    assert [(i["year"], i["month"], i["day"], i["hour"], i["minutes"]) for i in instance] == [(2023, 9, 16, 10, 30)]
    assert any(line.endswith("Created new alarm instance") for line in _log(device, "AlarmClock"))
    scp = _log(device, "ConditionProviders.SCP")
    assert len(scp) == 1 and "nextUserAlarmTime=Mon Oct 16 10:30:00 UTC 2023 (1697452200000)" in scp[0]
    # the new alarm shows expanded: its repeat chips, Sunday first
    chips = [(e.text, e.content_description) for e in _ids(device, "day_button_0") + _ids(device, "day_button_1")]
    assert chips == [("S", "Sunday"), ("M", "Monday")]


def test_repeat_chips_toggle_bits_switch_disables_and_delete_removes(device) -> None:
    device.check(SET_ALARM.format(10, 30))
    device.check(LAUNCH)
    tap(device, "Alarm")
    row = [e for e in _ids(device, "digital_clock")].index(find(device, lambda e: e.text == "10:30"))
    x, y = _ids(device, "arrow")[row].bbox.center
    device.check(f"input tap {x} {y}")
    for slot in range(1, 6):  # Monday … Friday
        tap(device, f"day_button_{slot}")
    assert (10, 30, 31, 1) in _alarms(device)
    tap(device, lambda e: (e.resource_name or "").endswith(":id/onoff") and e.is_checked)
    assert (10, 30, 31, 0) in _alarms(device) and alarms.INSTANCES.rows(device) == []
    tap(device, "delete")
    assert _alarms(device) == [(8, 30, 31, 0), (9, 0, 96, 0)]


def test_set_alarm_enables_a_matching_alarm_and_refuses_a_bad_hour(device) -> None:
    device.check(SET_ALARM.format(9, 0) + " --eial android.intent.extra.alarm.DAYS 1,7")
    assert _alarms(device) == [(8, 30, 31, 0), (9, 0, 96, 1)]  # the default weekend alarm, switched on
    device.check(SET_ALARM.format(24, 0))
    assert len(_alarms(device)) == 2
