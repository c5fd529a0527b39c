"""The simulated Clock's alarm service: it saves, toggles and deletes `alarm_templates` rows, keeps
one `alarm_instances` row per enabled alarm, and writes the log lines Android writes meanwhile.

The lines, in `logcat -v threadtime` (docs/sim-device.md, "logcat", lists their sources):
- `AlarmClock` D `Events: [Alarm] [Show Tab] [Tap]` when a tab is tapped (`tab_shown`);
- `AlarmClock` D `Events: [Stopwatch] [Start] [DeskClock]` (`[Pause]`, `[Reset]`) when the
  stopwatch starts, pauses or resets (`stopwatch_event`: StopwatchFragment.doStart, doPause,
  doReset through LogEventTracker, "[%s] [%s] [%s]" of the category, action and label strings);
- `AlarmClock` D `Removed alarm N` when an alarm is deleted: Google Clock's line as B-MoCA v1's
  "delete alarm at 9 am" detector reads it (`Removed alarm`; the id after it is taskkit's);
- `AlarmClock` D `Created new alarm instance` when an enabled alarm gets its next instance;
- `ConditionProviders.SCP` D `evaluateSubscriptionLocked cal=…, now=…, nextUserAlarmTime=…`
  from system_server when the next alarm changes (ScheduleConditionProvider re-evaluates its
  schedule rule on ACTION_NEXT_ALARM_CLOCK_CHANGED; times in `SystemConditionProviderService.ts`
  form, `new Date(t) + " (" + t + ")"`).
`handle_set_alarm` is DeskClock's HandleApiCalls for AlarmClock.ACTION_SET_ALARM.
"""
from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any, Mapping

from taskkit.apps.clock import alarms
from taskkit.sim import sqlite_sandbox
from taskkit.sim.commands.activity import app_pid
from taskkit.sim.devicetime import local_time
from taskkit.sim.logbuffer import append_log
from taskkit.sim.state import SimState

TAG = "AlarmClock"
SCP_TAG = "ConditionProviders.SCP"
# The default "Sleeping" schedule rule ScheduleConditionProvider evaluates (every day, 22:00-07:00).
_SLEEP_RULE = ("ScheduleCalendar[mDays={1, 2, 3, 4, 5, 6, 7}, mSchedule=ScheduleInfo{days=[1, 2, 3, 4, 5, 6, 7], "
               "startHour=22, startMinute=0, endHour=7, endMinute=0, exitAtAlarm=true")
SET_ALARM = "android.intent.action.SET_ALARM"
EXTRA = "android.intent.extra.alarm."
# AlarmClock.EXTRA_DAYS holds java.util.Calendar days: SUNDAY 1 … SATURDAY 7.
_CALENDAR_TO_WEEKDAY = {1: 6, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5}


def _run(state: SimState, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
    """One statement on alarms.db: a query's rows, or a write's new rowid (`[{"rowid": …}]`)."""
    host = state.host_path(alarms.DB_PATH)
    if not host.is_file():
        raise sqlite3.OperationalError(f"no database at {alarms.DB_PATH}")
    conn = sqlite_sandbox.connect(state, host)
    try:
        cursor = conn.execute(sql, params)
        if cursor.description:  # a query
            return [dict(zip([d[0] for d in cursor.description], row)) for row in cursor.fetchall()]
        conn.commit()
    finally:
        conn.close()
    state.stamp(host, host.parent)  # a write: the device clock on the file, as appdata.write does
    return [{"rowid": cursor.lastrowid}]


def _log(state: SimState, message: str) -> None:
    append_log(state, "D", TAG, message, pid=app_pid(alarms.PACKAGE))


def tab_shown(state: SimState, tab: str) -> None:
    """A tab tapped: Google Clock's event line (`Events: [Alarm] [Show Tab] [Tap]`)."""
    _log(state, f"Events: [{tab}] [Show Tab] [Tap]")


def stopwatch_event(state: SimState, action: str) -> None:
    """The stopwatch started or paused from its screen (`Start`, `Pause`)."""
    _log(state, f"Events: [Stopwatch] [{action}] [DeskClock]")


def alarm_rows(state: SimState) -> list[dict[str, Any]]:
    """The alarms in the list's order: by time, then by id (AlarmClockFragment's sort)."""
    try:
        return _run(state, "SELECT * FROM alarm_templates ORDER BY hour, minutes, _id")
    except sqlite3.Error:
        return []


def _next_alarm(state: SimState) -> dt.datetime | None:
    now = local_time(state)
    times = [alarms.next_time(r["hour"], r["minutes"], r["daysofweek"], now)
             for r in alarm_rows(state) if r["enabled"]]
    return min(times) if times else None


def _java_date(when: dt.datetime) -> str:
    """`new Date(t) + " (" + t + ")"`: "Mon Oct 16 10:30:00 UTC 2023 (1697452200000)"."""
    return f"{when.strftime('%a %b %d %H:%M:%S')} {when.tzname()} {when.year} ({int(when.timestamp()) * 1000})"


def _reschedule(state: SimState, alarm_id: int, before: dt.datetime | None) -> None:
    """Replace `alarm_id`'s instance (a new one if it is enabled), then log the next alarm if it moved."""
    _run(state, "DELETE FROM alarm_instances WHERE alarm_id = ?", (alarm_id,))
    row = next((r for r in alarm_rows(state) if r["_id"] == alarm_id), None)
    if row and row["enabled"]:
        now = local_time(state)
        ring = alarms.next_time(row["hour"], row["minutes"], row["daysofweek"], now)
        soon = ring - now <= dt.timedelta(hours=2)
        _run(state, "INSERT INTO alarm_instances (year, month, day, hour, minutes, vibrate, label, ringtone, "
                    "alarm_state, alarm_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (ring.year, ring.month - 1, ring.day, ring.hour, ring.minute, row["vibrate"], row["label"],
              row["ringtone"], alarms.LOW_NOTIFICATION_STATE if soon else alarms.SILENT_STATE, alarm_id))
        _log(state, "Created new alarm instance")
    after = _next_alarm(state)
    if after != before:
        shown = _java_date(after) if after else _java_date(dt.datetime.fromtimestamp(0, dt.timezone.utc))
        append_log(state, "D", SCP_TAG, f"evaluateSubscriptionLocked cal={_SLEEP_RULE}, nextAlarm={shown}}}], "
                   f"now={_java_date(local_time(state))}, nextUserAlarmTime={shown}")


def add_alarm(state: SimState, hour: int, minutes: int, bits: int = 0, label: str = "",
              delete_after_use: bool = False) -> int:
    """Save a new enabled alarm (Alarm.addAlarm) and schedule it; its id."""
    before = _next_alarm(state)
    alarm_id = int(_run(state, "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, "
                               "ringtone, delete_after_use) VALUES (?, ?, ?, 1, 1, ?, NULL, ?)",
                        (hour, minutes, bits, label, int(delete_after_use)))[0]["rowid"])
    _reschedule(state, alarm_id, before)
    return alarm_id


def update_alarm(state: SimState, alarm_id: int, changes: Mapping[str, Any]) -> None:
    """Change an alarm's columns (time, days, enabled, label) and schedule it again."""
    before = _next_alarm(state)
    assignments = ", ".join(f"{column} = ?" for column in changes)
    _run(state, f"UPDATE alarm_templates SET {assignments} WHERE _id = ?", (*changes.values(), alarm_id))
    _reschedule(state, alarm_id, before)


def delete_alarm(state: SimState, alarm_id: int) -> None:
    """Delete an alarm and its instances."""
    before = _next_alarm(state)
    _run(state, "DELETE FROM alarm_templates WHERE _id = ?", (alarm_id,))
    _log(state, f"Removed alarm {alarm_id}")
    _reschedule(state, alarm_id, before)


def handle_set_alarm(state: SimState, extras: Mapping[str, str]) -> bool:
    """AlarmClock.ACTION_SET_ALARM with HOUR (and MINUTES, DAYS, MESSAGE, SKIP_UI) extras, as
    HandleApiCalls.handleSetAlarm does: enable the first alarm with that time, days and label,
    else create one (deleted after use when it does not repeat and SKIP_UI is set). False when
    HOUR is missing or a value is out of range (the real app then opens its UI or gives up)."""
    try:
        hour = int(extras[EXTRA + "HOUR"])
        minutes = int(extras.get(EXTRA + "MINUTES", "0"))
        days = [int(d) for d in extras.get(EXTRA + "DAYS", "").split(",") if d.strip()]
        bits = sum(alarms.day_bit(_CALENDAR_TO_WEEKDAY[d]) for d in set(days))
    except (KeyError, ValueError):
        return False
    if not (0 <= hour <= 23 and 0 <= minutes <= 59):
        return False
    label = extras.get(EXTRA + "MESSAGE", "")
    skip_ui = extras.get(EXTRA + "SKIP_UI", "false").lower() == "true"
    match = next((r for r in alarm_rows(state) if (r["hour"], r["minutes"], r["daysofweek"]) == (hour, minutes, bits)
                  and (not label or r["label"] == label)), None)
    if match:
        update_alarm(state, match["_id"], {"enabled": 1})
    else:
        add_alarm(state, hour, minutes, bits, label, delete_after_use=not bits and skip_ui)
    return True
