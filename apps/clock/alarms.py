"""DeskClock's alarms: `alarms.db` (tables `alarm_templates` and `alarm_instances`), the
`daysofweek` bitmask, and when an alarm next rings.

Schema and first-run rows follow AOSP DeskClock's `ClockDatabaseHelper` (packages/apps/DeskClock
src/com/android/deskclock/provider/ClockDatabaseHelper.java, read at LineageOS
android_packages_apps_DeskClock lineage-20.0, commit 8002d9cd376f1bee8819e1de08378a68f8ba9e0f,
the Android 13 branch; Lineage's extra `increasing_volume` column is left out): `onCreate`
inserts two disabled, vibrating alarms, 8:30 on weekdays (daysofweek 31) and 9:00 on weekends
(96). The database lives in device-encrypted storage, `/data/user_de/0/<package>/databases/`
(DeskClock opens it from its device-protected context; B-MoCA's detectors read it there).

The bitmask is DeskClock's `Weekdays` (src/com/android/deskclock/data/Weekdays.java): Monday
0x01, Tuesday 0x02, Wednesday 0x04, Thursday 0x08, Friday 0x10, Saturday 0x20, Sunday 0x40.
An instance's `month` is `Calendar.MONTH`, so January is 0 (AlarmInstance.setAlarmTime).
"""
from __future__ import annotations

import datetime as dt

from taskkit.apps.table import Database

PACKAGE = "com.google.android.deskclock"
DB_DIR = f"/data/user_de/0/{PACKAGE}/databases"
DB_PATH = f"{DB_DIR}/alarms.db"

DDL = """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE alarm_templates (
    _id INTEGER PRIMARY KEY,
    hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    daysofweek INTEGER NOT NULL,
    enabled INTEGER NOT NULL,
    vibrate INTEGER NOT NULL,
    label TEXT NOT NULL,
    ringtone TEXT,
    delete_after_use INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE alarm_instances (
    _id INTEGER PRIMARY KEY,
    year INTEGER NOT NULL,
    month INTEGER NOT NULL,
    day INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    vibrate INTEGER NOT NULL,
    label TEXT NOT NULL,
    ringtone TEXT,
    alarm_state INTEGER NOT NULL,
    alarm_id INTEGER REFERENCES alarm_templates(_id) ON UPDATE CASCADE ON DELETE CASCADE
);
INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use)
VALUES (8, 30, 31, 0, 1, '', NULL, 0), (9, 0, 96, 0, 1, '', NULL, 0);
"""
DATABASE = Database(DB_PATH, DDL)
#: The `alarm_templates` table (key `_id`) of `/data/user_de/0/com.google.android.deskclock/databases/alarms.db`.
ALARMS = DATABASE.table("alarm_templates", "_id", defaults={"enabled": 1, "vibrate": 1, "label": "",
                                                            "daysofweek": 0, "delete_after_use": 0},
                        derived=("alarm_instances",))  # AlarmStateManager schedules an instance per enabled alarm
#: The `alarm_instances` table (key `_id`) of `/data/user_de/0/com.google.android.deskclock/databases/alarms.db`.
INSTANCES = DATABASE.table("alarm_instances", "_id")

# Weekdays' bits, Monday first (index = datetime.weekday()).
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS = 0x1F  # Monday to Friday: 31
WEEKEND = 0x60  # Saturday and Sunday: 96
MIDWEEK = 0x0F  # Monday to Thursday: 15, B-MoCA's "every midweek"
EVERY_DAY = 0x7F
# The repeat chips as an en-US device shows them (Weekdays.Order.SUN_TO_SAT), as weekday() indexes.
CHIP_ORDER = (6, 0, 1, 2, 3, 4, 5)
SILENT_STATE, LOW_NOTIFICATION_STATE = 0, 1  # AlarmInstance states of a scheduled instance


def day_bit(weekday: int) -> int:
    """The bit of `weekday` (0 Monday … 6 Sunday, as datetime.weekday())."""
    return 1 << weekday


def repeat_summary(bits: int) -> str:
    """The collapsed alarm's repeat text: "Every day", "Mon, Tue, Wed, Thu, Fri" (Sunday first)."""
    if bits & EVERY_DAY == EVERY_DAY:
        return "Every day"
    return ", ".join(DAY_NAMES[day][:3] for day in CHIP_ORDER if bits & day_bit(day))


def next_time(hour: int, minutes: int, bits: int, now: dt.datetime) -> dt.datetime:
    """When an alarm rings next after `now` (Alarm.getNextAlarmTime): today or a later day, on
    one of its repeat days if it repeats."""
    ring = now.replace(hour=hour, minute=minutes, second=0, microsecond=0)
    if ring <= now:
        ring += dt.timedelta(days=1)
    while bits & EVERY_DAY and not bits & day_bit(ring.weekday()):
        ring += dt.timedelta(days=1)
    return ring


def clock_text(hour: int, minutes: int, h24: bool = False) -> str:
    """The alarm's time as its list shows it: "10:30 AM" (12-hour) or "10:30"."""
    if h24:
        return f"{hour:02d}:{minutes:02d}"
    return f"{(hour % 12) or 12}:{minutes:02d} {'AM' if hour < 12 else 'PM'}"  # Android 13's ICU: a plain space


def spoken_time(hour: int, minutes: int) -> str:
    """A task's wording of a time, as B-MoCA writes it: "10:30 am", "13:30 pm"."""
    return f"{hour:02d}:{minutes:02d} {'am' if hour < 12 else 'pm'}"
