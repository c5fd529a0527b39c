"""The factory image of the simulated device: an Android 13 emulator after first-run setup.

`build(state)` lays out a fresh device in `state.root`: the filesystem skeleton, the settings
database with an emulator's defaults, system properties, the clock, and the databases the
modelled apps create on their first run (like AndroidWorld's app snapshots). The content is
data (`SHARED_FOLDERS`, `DEFAULT_SETTINGS`, `DEFAULT_PROPS`, `DATABASES`) so it is easy to read
and extend. Every file and directory gets the device clock as its mtime.
"""
from __future__ import annotations

import os
import shutil
import sqlite3

from taskkit.sim.commands.settings import SETTINGS_DDL, put_settings
from taskkit.sim.state import DEFAULT_CLOCK_EPOCH, SDCARD_BACKING, SETTINGS_DB, SimState

CALENDAR_DB = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db"
EXPENSE_DB = "/data/data/com.arduia.expense/databases/accounting.db"
TASKS_DB = "/data/data/org.tasks/databases/database"
OPENTRACKS_DB = "/data/data/de.dennisguse.opentracks/databases/database.db"
JOPLIN_DB = "/data/data/net.cozic.joplin/databases/joplin.sqlite"

# The folders of shared storage (/sdcard) on a fresh device.
SHARED_FOLDERS = (
    "Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications",
    "Pictures", "Podcasts", "Recordings", "Ringtones", "Android", "Android/data", "Android/media",
    "Android/obb",
)

DIRECTORIES = (
    "/data/data", "/data/app", "/data/local/tmp", "/data/system/users/0", "/data/user_de/0",
    "/data/misc", "/storage/emulated", "/storage/self",
)

# Symbolic links as on a device, with targets relative so that they resolve inside the state dir.
SYMLINKS = {
    "/sdcard": "storage/self/primary",
    "/storage/self/primary": "../emulated/0",
    "/storage/emulated/0": "../../data/media/0",
    "/data/user/0": "../data",
}

DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    "global": {
        "adb_enabled": "1",
        "airplane_mode_on": "0",
        "animator_duration_scale": "1.0",
        "auto_time": "0",
        "auto_time_zone": "0",
        "bluetooth_on": "0",
        "data_roaming": "0",
        "development_settings_enabled": "1",
        "device_name": "sdk_gphone64_x86_64",
        "device_provisioned": "1",
        "heads_up_notifications_enabled": "1",
        "mobile_data": "1",
        "stay_on_while_plugged_in": "0",
        "transition_animation_scale": "1.0",
        "usb_mass_storage_enabled": "1",
        "wifi_on": "1",
        "window_animation_scale": "1.0",
        "zen_mode": "0",
    },
    "system": {
        "accelerometer_rotation": "0",
        "dtmf_tone": "1",
        "font_scale": "1.0",
        "haptic_feedback_enabled": "1",
        "screen_brightness": "102",
        "screen_brightness_mode": "0",
        "screen_off_timeout": "60000",
        "sound_effects_enabled": "1",
        "time_12_24": "24",
        "user_rotation": "0",
        "volume_alarm": "6",
        "volume_music": "5",
        "volume_notification": "5",
        "volume_ring": "5",
    },
    "secure": {
        "accessibility_enabled": "0",
        "android_id": "5c2d8e1a9f3b7046",
        "default_input_method": "com.android.inputmethod.latin/.LatinIME",
        "enabled_input_methods": "com.android.inputmethod.latin/.LatinIME",
        "location_mode": "3",
        "sms_default_application": "com.simplemobiletools.smsmessenger",
        "ui_night_mode": "1",
        "user_setup_complete": "1",
    },
}

DEFAULT_PROPS: dict[str, str] = {
    "persist.sys.locale": "en-US",
    "persist.sys.timezone": "UTC",
    "ro.boot.qemu": "1",
    "ro.build.characteristics": "emulator",
    "ro.build.fingerprint": "google/sdk_gphone64_x86_64/emu64x:13/TE1A.220922.034/10940250:userdebug/dev-keys",
    "ro.build.id": "TE1A.220922.034",
    "ro.build.tags": "dev-keys",
    "ro.build.type": "userdebug",
    "ro.build.version.codename": "REL",
    "ro.build.version.release": "13",
    "ro.build.version.sdk": "33",
    "ro.debuggable": "1",
    "ro.hardware": "ranchu",
    "ro.product.brand": "google",
    "ro.product.cpu.abi": "x86_64",
    "ro.product.device": "emu64x",
    "ro.product.manufacturer": "Google",
    "ro.product.model": "sdk_gphone64_x86_64",
    "ro.product.name": "sdk_gphone64_x86_64",
    "ro.secure": "1",
    "ro.serialno": "EMULATOR33X1X1X0",
    "ro.sf.lcd_density": "420",
    "sys.boot_completed": "1",
}

# Device path -> the DDL (and seed rows) that creates it. Columns follow the app's Room entities.
DATABASES: dict[str, str] = {
    SETTINGS_DB: SETTINGS_DDL,
    CALENDAR_DB: """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    start_ts INTEGER NOT NULL,
    end_ts INTEGER NOT NULL,
    title TEXT NOT NULL,
    location TEXT NOT NULL,
    description TEXT NOT NULL,
    reminder_1_minutes INTEGER NOT NULL,
    reminder_2_minutes INTEGER NOT NULL,
    reminder_3_minutes INTEGER NOT NULL,
    reminder_1_type INTEGER NOT NULL,
    reminder_2_type INTEGER NOT NULL,
    reminder_3_type INTEGER NOT NULL,
    repeat_interval INTEGER NOT NULL,
    repeat_rule INTEGER NOT NULL,
    repeat_limit INTEGER NOT NULL,
    repetition_exceptions TEXT NOT NULL,
    attendees TEXT NOT NULL,
    import_id TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    flags INTEGER NOT NULL,
    event_type INTEGER NOT NULL,
    parent_id INTEGER NOT NULL,
    last_updated INTEGER NOT NULL,
    source TEXT NOT NULL,
    availability INTEGER NOT NULL,
    color INTEGER NOT NULL,
    type INTEGER NOT NULL
);
CREATE UNIQUE INDEX index_events_id ON events (id);
CREATE TABLE event_types (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    color INTEGER NOT NULL,
    caldav_calendar_id INTEGER NOT NULL,
    caldav_display_name TEXT NOT NULL,
    caldav_email TEXT NOT NULL,
    type INTEGER NOT NULL
);
CREATE UNIQUE INDEX index_event_types_id ON event_types (id);
INSERT INTO event_types VALUES (1, 'Regular event', -689152, 0, '', '', 0);
""",
    EXPENSE_DB: """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE expense (
    expense_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT,
    amount INTEGER NOT NULL,
    category INTEGER NOT NULL,
    note TEXT,
    created_date INTEGER NOT NULL,
    modified_date INTEGER NOT NULL
);
""",
    TASKS_DB: """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE `tasks` (
    `_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    `title` TEXT,
    `importance` INTEGER NOT NULL,
    `dueDate` INTEGER NOT NULL,
    `hideUntil` INTEGER NOT NULL,
    `created` INTEGER NOT NULL,
    `modified` INTEGER NOT NULL,
    `completed` INTEGER NOT NULL,
    `deleted` INTEGER NOT NULL,
    `notes` TEXT,
    `estimatedSeconds` INTEGER NOT NULL,
    `elapsedSeconds` INTEGER NOT NULL,
    `timerStart` INTEGER NOT NULL,
    `notificationFlags` INTEGER NOT NULL,
    `lastNotified` INTEGER NOT NULL,
    `recurrence` TEXT,
    `repeat_from` INTEGER NOT NULL DEFAULT 0,
    `calendarUri` TEXT,
    `remoteId` TEXT,
    `collapsed` INTEGER NOT NULL,
    `parent` INTEGER NOT NULL,
    `order` INTEGER,
    `read_only` INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX `t_rid` ON `tasks` (`remoteId`);
CREATE INDEX `active_and_visible` ON `tasks` (`completed`, `deleted`, `hideUntil`);
""",
    OPENTRACKS_DB: """
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE tracks (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    description TEXT,
    category TEXT,
    starttime INTEGER,
    stoptime INTEGER,
    numpoints INTEGER,
    totaldistance FLOAT,
    totaltime INTEGER,
    movingtime INTEGER,
    avgspeed FLOAT,
    avgmovingspeed FLOAT,
    maxspeed FLOAT,
    minelevation FLOAT,
    maxelevation FLOAT,
    elevationgain FLOAT,
    icon TEXT,
    uuid BLOB,
    elevationloss FLOAT,
    starttime_offset INTEGER,
    activity_type TEXT
);
CREATE UNIQUE INDEX tracks_uuid_index ON tracks (uuid);
""",
    JOPLIN_DB: """
CREATE TABLE folders (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    parent_id TEXT NOT NULL DEFAULT '',
    created_time INT NOT NULL,
    updated_time INT NOT NULL,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0,
    deleted_time INT NOT NULL DEFAULT 0,
    encryption_cipher_text TEXT NOT NULL DEFAULT '',
    encryption_applied INT NOT NULL DEFAULT 0,
    is_shared INT NOT NULL DEFAULT 0,
    share_id TEXT NOT NULL DEFAULT '',
    master_key_id TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    user_data TEXT NOT NULL DEFAULT ''
);
CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    parent_id TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    created_time INT NOT NULL,
    updated_time INT NOT NULL,
    is_conflict INT NOT NULL DEFAULT 0,
    latitude NUMERIC NOT NULL DEFAULT 0,
    longitude NUMERIC NOT NULL DEFAULT 0,
    altitude NUMERIC NOT NULL DEFAULT 0,
    author TEXT NOT NULL DEFAULT '',
    source_url TEXT NOT NULL DEFAULT '',
    is_todo INT NOT NULL DEFAULT 0,
    todo_due INT NOT NULL DEFAULT 0,
    todo_completed INT NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT '',
    source_application TEXT NOT NULL DEFAULT '',
    application_data TEXT NOT NULL DEFAULT '',
    `order` NUMERIC NOT NULL DEFAULT 0,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0,
    encryption_cipher_text TEXT NOT NULL DEFAULT '',
    encryption_applied INT NOT NULL DEFAULT 0,
    markup_language INT NOT NULL DEFAULT 1,
    is_shared INT NOT NULL DEFAULT 0,
    share_id TEXT NOT NULL DEFAULT '',
    conflict_original_id TEXT NOT NULL DEFAULT '',
    master_key_id TEXT NOT NULL DEFAULT '',
    user_data TEXT NOT NULL DEFAULT ''
);
CREATE INDEX notes_title ON notes (title);
CREATE INDEX notes_updated_time ON notes (updated_time);
CREATE INDEX notes_is_todo ON notes (is_todo);
CREATE TABLE notes_normalized (
    id TEXT NOT NULL,
    parent_id TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    latitude NUMERIC NOT NULL DEFAULT 0,
    longitude NUMERIC NOT NULL DEFAULT 0,
    altitude NUMERIC NOT NULL DEFAULT 0,
    source_url TEXT NOT NULL DEFAULT '',
    is_todo INT NOT NULL DEFAULT 0,
    todo_due INT NOT NULL DEFAULT 0,
    todo_completed INT NOT NULL DEFAULT 0,
    user_created_time INT NOT NULL DEFAULT 0,
    user_updated_time INT NOT NULL DEFAULT 0
);
CREATE INDEX notes_normalized_id ON notes_normalized (id);
CREATE TABLE item_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_type INT NOT NULL,
    item_id TEXT NOT NULL,
    type INT NOT NULL,
    created_time INT NOT NULL
);
""",
}


def create_database(state: SimState, path: str, ddl: str) -> None:
    """(Re)create the SQLite file at device path `path` from `ddl`."""
    host = state.host_path(path)
    host.parent.mkdir(parents=True, exist_ok=True)
    host.unlink(missing_ok=True)
    con = sqlite3.connect(host)
    try:
        con.executescript(ddl)
        con.commit()
    finally:
        con.close()


def create_package_databases(state: SimState, package: str) -> list[str]:
    """Recreate the first-run databases of `package` (e.g. after `pm clear`); their paths."""
    prefix = f"/data/data/{package}/"
    paths = [path for path in DATABASES if path.startswith(prefix)]
    for path in paths:
        create_database(state, path, DATABASES[path])
        host = state.host_path(path)
        os.utime(host, (state.clock_epoch, state.clock_epoch))
        os.utime(host.parent, (state.clock_epoch, state.clock_epoch))
    return paths


def stamp_tree(state: SimState) -> None:
    """Give every file, directory and link under the filesystem the device clock as mtime."""
    t = state.clock_epoch
    for dirpath, dirnames, filenames in os.walk(state.fs_root, topdown=False):
        for name in dirnames + filenames:
            os.utime(os.path.join(dirpath, name), (t, t), follow_symlinks=False)
        os.utime(dirpath, (t, t))


def _layout(state: SimState) -> None:
    if state.fs_root.exists():
        shutil.rmtree(state.fs_root)
    for path in DIRECTORIES + tuple(f"{SDCARD_BACKING}/{name}" for name in SHARED_FOLDERS):
        (state.fs_root / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
    for link, target in SYMLINKS.items():
        host = state.fs_root / link.lstrip("/")
        host.parent.mkdir(parents=True, exist_ok=True)
        host.symlink_to(target)


def build(state: SimState) -> None:
    """Lay out a fresh device in `state.root` (replacing any filesystem already there)."""
    from taskkit.sim import packages, providers

    state.root.mkdir(parents=True, exist_ok=True)
    state.config["clock_epoch"] = DEFAULT_CLOCK_EPOCH
    state.config["props"] = dict(DEFAULT_PROPS)
    state.config["foreground"] = None
    state.config["log_seq"] = 0
    _layout(state)
    for path, ddl in DATABASES.items():
        create_database(state, path, ddl)
    for ns, values in DEFAULT_SETTINGS.items():
        put_settings(state, ns, values)
    state.logcat_path.write_text("")
    os.utime(state.logcat_path, (state.clock_epoch, state.clock_epoch))
    providers.create_databases(state)
    packages.install_all(state)
    stamp_tree(state)
    from taskkit.sim.commands.activity import go_home  # the launcher is in front after boot

    go_home(state)
    state.save()  # device.json last: its presence marks a finished image
