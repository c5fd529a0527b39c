"""`am`, `pm`, `dumpsys` and `monkey` of the simulated device, called directly (no shell)."""
from __future__ import annotations

import os
import re
import shutil
import sqlite3

import pytest

from taskkit import apps
from taskkit.device import catalog
from taskkit.sim import image, providers
from taskkit.sim.commands import Invocation, load_all
from taskkit.sim.commands.activity import (
    CommandError, foreground_component, go_home, parse_intent, safe_uri, set_foreground, stable_hash,
)
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SimState

SETTINGS = "com.android.settings/.Settings"
SMS = "com.simplemobiletools.smsmessenger/.activities.MainActivity"
CALENDAR_DB = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db"


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> SimState:
    sim = SimState(tmp_path_factory.mktemp("image"))
    image.build(sim, apps.first_run_databases())  # pm clear recreates the apps' databases
    return sim


@pytest.fixture
def state(template, tmp_path) -> SimState:
    """A fresh device: a copy of one image built per module (copying is cheaper than building)."""
    shutil.copytree(template.root, tmp_path / "device", symlinks=True)
    return SimState(tmp_path / "device")


def run(state: SimState, *argv: str) -> tuple[str, str, int]:
    inv = Invocation(argv=list(argv), state=state)
    code = load_all()[argv[0]](inv)
    return inv.stdout.decode(), inv.stderr.decode(), code


def focus(state: SimState) -> str:
    out, _, _ = run(state, "dumpsys", "window", "windows")
    return re.search(r"^  mCurrentFocus=(.*)$", out, re.M).group(1)


# --- am start ------------------------------------------------------------------------------------
def test_am_start_prints_the_short_component_and_takes_focus(state):
    assert run(state, "am", "start", "-n", SETTINGS) == (
        "Starting: Intent { cmp=com.android.settings/.Settings }\n", "", 0)
    assert state.config["foreground"] == SETTINGS
    assert SimState(state.root).config["foreground"] == SETTINGS  # saved
    assert focus(state).endswith(" u0 com.android.settings/com.android.settings.Settings}")


def test_am_start_accepts_full_class_names(state):
    out, _, _ = run(state, "am", "start", "-n",
                    "com.simplemobiletools.smsmessenger/com.simplemobiletools.smsmessenger.activities.MainActivity")
    assert out == f"Starting: Intent {{ cmp={SMS} }}\n"
    assert foreground_component(state) == SMS


def test_am_start_wait_reports_launch(state):
    out, err, code = run(state, "am", "start", "-W", "-n", SETTINGS)
    lines = out.splitlines()
    assert (err, code) == ("", 0)
    assert lines[:4] == ["Starting: Intent { cmp=com.android.settings/.Settings }", "Status: ok",
                         "LaunchState: COLD", "Activity: com.android.settings/.Settings"]
    assert re.fullmatch(r"TotalTime: \d+", lines[4]) and re.fullmatch(r"WaitTime: \d+", lines[5])
    assert lines[6] == "Complete"
    again, _, _ = run(state, "am", "start", "-W", "-n", SETTINGS)
    assert "Warning: Activity not started, its current task has been brought to the front" in again


def test_am_start_again_warns_on_stderr(state):
    run(state, "am", "start", "-n", SETTINGS)
    out, err, code = run(state, "am", "start", "-n", SETTINGS)
    assert (err, code) == ("Warning: Activity not started, its current task has been brought to the front\n", 0)


def test_unknown_component_is_error_type_3_with_exit_0(state):
    home = state.config["foreground"]
    assert home.startswith("com.google.android.apps.nexuslauncher/")  # the launcher after boot
    out, err, code = run(state, "am", "start", "-n", "com.android.settings/.Nope")
    assert out == "Starting: Intent { cmp=com.android.settings/.Nope }\n"
    assert err == "Error type 3\nError: Activity class {com.android.settings/com.android.settings.Nope} does not exist.\n"
    assert code == 0
    _, err, _ = run(state, "am", "start", "-n", "no.such.pkg/.Main")
    assert "Error type 3" in err
    assert state.config["foreground"] == home  # a failed start changes nothing


def test_unresolvable_intent(state):
    out, err, code = run(state, "am", "start", "-a", "com.example.NOTHING", "-d", "tel:5551234")
    assert out == "Starting: Intent { act=com.example.NOTHING dat=tel:xxxxxxx }\n"
    assert err == ("Error: Activity not started, unable to resolve Intent { act=com.example.NOTHING "
                   "dat=tel:xxxxxxx flg=0x10000000 }\n") and code == 0


def test_implicit_intents_resolve_through_filters(state):
    out, _, _ = run(state, "am", "start", "-a", "android.intent.action.SENDTO", "-d", "sms:+15551234567",
                    "--es", "sms_body", "hello there")
    assert out == "Starting: Intent { act=android.intent.action.SENDTO dat=sms:xxxxxxxxxxxx (has extras) }\n"
    assert foreground_component(state) == SMS
    out, _, _ = run(state, "am", "start", "-a", "android.intent.action.VIEW", "-d", "https://ex.com:8080/p?q=1#f")
    assert out == "Starting: Intent { act=android.intent.action.VIEW dat=https://ex.com:8080/... }\n"
    assert foreground_component(state) == "com.android.chrome/com.google.android.apps.chrome.Main"
    run(state, "am", "start", "-a", "android.intent.action.INSERT", "-t", "vnd.android.cursor.dir/contact",
        "-e", "name", "A B", "-e", "phone", "555")
    assert foreground_component(state).startswith("com.google.android.contacts/")


def test_home_intent_and_go_home_bring_the_launcher(state):
    run(state, "am", "start", "-n", SETTINGS)
    out, _, _ = run(state, "am", "start", "-a", "android.intent.action.MAIN", "-c", "android.intent.category.HOME")
    assert out == "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.HOME] }\n"
    assert foreground_component(state) == catalog.LAUNCHER.launch_component
    set_foreground(state, SETTINGS)
    go_home(state)
    assert state.config["foreground"] == "com.google.android.apps.nexuslauncher/.NexusLauncherActivity"


def test_force_stop_reveals_the_task_below(state):
    run(state, "am", "start", "-n", SETTINGS)
    run(state, "am", "start", "-n", SMS)
    assert run(state, "am", "force-stop", "com.simplemobiletools.smsmessenger") == ("", "", 0)
    assert state.config["foreground"] == SETTINGS
    run(state, "am", "force-stop", "com.android.settings")
    assert state.config["foreground"] == catalog.LAUNCHER.launch_component
    assert run(state, "am", "force-stop", "not.installed") == ("", "", 0)


def test_force_stop_of_a_background_app_keeps_the_focus(state):
    run(state, "am", "start", "-n", SETTINGS)
    run(state, "am", "start", "-n", SMS)
    run(state, "am", "force-stop", "com.android.settings")
    assert state.config["foreground"] == SMS


def test_a_directly_set_foreground_is_honoured(state):
    state.config["foreground"] = SETTINGS
    assert focus(state).endswith("com.android.settings/com.android.settings.Settings}")


def test_am_bad_option_is_an_exception(state):
    out, err, code = run(state, "am", "start", "--bogus")
    assert code == 255 and out == ""
    assert err.startswith("Exception occurred while executing 'start':\n"
                          "java.lang.IllegalArgumentException: Unknown option: --bogus\n")
    assert run(state, "am", "frobnicate")[0] == "Unknown command: frobnicate\n"


def test_parse_intent_positional_and_flags():
    intent, options = parse_intent(["-W", "-f", "0x10", "--activity-clear-top", "https://a.b/c"])
    assert intent.action == "android.intent.action.VIEW" and intent.data == "https://a.b/c"
    assert intent.flags == 0x10 | 0x4000000 and options == {"-W": True}
    intent, _ = parse_intent(["com.x/.Main"])
    assert intent.component == ("com.x", "com.x.Main")
    with pytest.raises(CommandError, match="No intent supplied"):
        parse_intent([])
    with pytest.raises(CommandError, match="For input string"):
        parse_intent(["-a", "x", "--ei", "k", "nope"])


@pytest.mark.parametrize("uri, safe", [
    ("tel:+1-555.123", "tel:xx-xxx.xxx"), ("mailto:a@b.com", "mailto:x@x.xxx"),
    ("https://user@host.com/path?q#frag", "https://host.com/..."), ("file:///sdcard/a.txt#x", "file:///sdcard/a.txt"),
    ("content://sms/inbox", "content://sms/inbox"),
])
def test_safe_uri(uri, safe):
    assert safe_uri(uri) == safe


# --- broadcasts ----------------------------------------------------------------------------------
def test_broadcast_output(state):
    out, err, code = run(state, "am", "broadcast", "-a", "android.intent.action.MEDIA_SCANNER_SCAN_FILE",
                         "-d", "file:///storage/emulated/0/Music")
    assert out == ("Broadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                   "dat=file:///storage/emulated/0/Music flg=0x400000 }\nBroadcast completed: result=0\n")
    assert (err, code) == ("", 0)


def test_clipper_broadcasts_set_and_get_the_clipboard(state):
    run(state, "am", "broadcast", "-a", "clipper.set", "-e", "text", 'say "hi", ok')
    out, _, _ = run(state, "am", "broadcast", "-a", "clipper.get")
    assert out.endswith('Broadcast completed: result=-1, data="say "hi", ok"\n')


# --- dumpsys -------------------------------------------------------------------------------------
def test_dumpsys_window_focus_lines(state):
    state.config["tasks"], state.config["foreground"] = [], None  # no activity at all
    out, _, _ = run(state, "dumpsys", "window")
    assert "  mCurrentFocus=null\n" in out and "  mFocusedApp=null\n" in out
    run(state, "am", "start", "-n", SMS)
    out, _, _ = run(state, "dumpsys", "window", "windows")
    focus_line = re.search(r"^  mCurrentFocus=Window\{([0-9a-f]+) u0 (\S+)\}$", out, re.M)
    app_line = re.search(r"^  mFocusedApp=ActivityRecord\{([0-9a-f]+) u0 (\S+) t(\d+)\}$", out, re.M)
    assert focus_line.group(2) == "com.simplemobiletools.smsmessenger/com.simplemobiletools.smsmessenger.activities.MainActivity"
    assert app_line.group(2) == SMS
    assert focus_line.group(1) == stable_hash(SMS, "window")
    assert run(state, "dumpsys", "window", "windows")[0] == out  # deterministic


def test_dumpsys_activity_activities_has_all_three_forms(state):
    run(state, "am", "start", "-n", SETTINGS)
    out, _, _ = run(state, "dumpsys", "activity", "activities")
    record = re.escape("u0 com.android.settings/.Settings t")
    assert re.search(rf"^    topResumedActivity=ActivityRecord\{{[0-9a-f]+ {record}\d+\}}$", out, re.M)
    assert re.search(rf"^  ResumedActivity: ActivityRecord\{{[0-9a-f]+ {record}\d+\}}$", out, re.M)
    assert re.search(rf"^  mResumedActivity: ActivityRecord\{{[0-9a-f]+ {record}\d+\}}$", out, re.M)
    top, _, _ = run(state, "dumpsys", "activity", "top")
    assert re.search(r"^  ACTIVITY com.android.settings/.Settings [0-9a-f]+ pid=\d+$", top, re.M)


def test_dumpsys_unknown_service(state):
    assert run(state, "dumpsys", "nonesuch") == ("", "Can't find service: nonesuch\n", 0)


def test_dumpsys_package_version(state):
    out, _, _ = run(state, "dumpsys", "package", "com.simplemobiletools.smsmessenger")
    assert "    versionCode=85 " in out


# --- pm ------------------------------------------------------------------------------------------
def test_pm_list_packages_in_catalog_order(state):
    out, _, code = run(state, "pm", "list", "packages")
    assert code == 0
    assert out == "".join(f"package:{p.name}\n" for p in catalog.CATALOG if p.name not in catalog.BMOCA_IMAGE)
    third, _, _ = run(state, "pm", "list", "packages", "-3")
    names = [line[len("package:"):] for line in third.splitlines()]
    assert "com.simplemobiletools.smsmessenger" in names and "com.android.settings" not in names
    system, _, _ = run(state, "pm", "list", "packages", "-s", "providers")
    assert system == ("package:com.android.providers.telephony\npackage:com.android.providers.contacts\n"
                      "package:com.android.providers.settings\n")
    out, _, _ = run(state, "pm", "list", "packages", "-f", "--show-versioncode", "expense")
    assert re.fullmatch(r"package:/data/app/~~[\w=-]+/com\.arduia\.expense-[\w=-]+/base\.apk=com\.arduia\.expense "
                        r"versionCode:11\n", out)
    assert run(state, "pm", "list", "packages", "-x") == ("Error: Unknown option: -x\n", "", 255)


def test_pm_path(state):
    out, _, code = run(state, "pm", "path", "com.android.settings")
    assert (out, code) == ("package:/system_ext/priv-app/Settings/Settings.apk\n", 0)
    assert run(state, "pm", "path", "no.such") == ("", "", 1)


def test_pm_clear_app_recreates_empty_schema_and_dirs(state):
    con = sqlite3.connect(state.host_path(CALENDAR_DB))
    with con:
        con.execute("INSERT INTO events (start_ts, end_ts, title, location, description, reminder_1_minutes, "
                    "reminder_2_minutes, reminder_3_minutes, reminder_1_type, reminder_2_type, reminder_3_type, "
                    "repeat_interval, repeat_rule, repeat_limit, repetition_exceptions, attendees, import_id, "
                    "time_zone, flags, event_type, parent_id, last_updated, source, availability, color, type) "
                    "VALUES (1, 2, 't', '', '', -1, -1, -1, 0, 0, 0, 0, 0, 0, '[]', '', '', 'UTC', 0, 1, 0, 0, "
                    "'simple-calendar', 0, 0, 0)")
    con.close()
    prefs = state.host_path("/data/data/com.simplemobiletools.calendar.pro/shared_prefs/Prefs.xml")
    prefs.write_text("<map/>")
    run(state, "am", "start", "-n", "com.simplemobiletools.calendar.pro/.activities.MainActivity")
    assert run(state, "pm", "clear", "com.simplemobiletools.calendar.pro") == ("Success\n", "", 0)
    assert not prefs.exists() and prefs.parent.is_dir()
    con = sqlite3.connect(state.host_path(CALENDAR_DB))
    assert con.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)
    con.close()
    assert os.stat(state.host_path(CALENDAR_DB)).st_mtime == DEVICE_EPOCH
    assert state.config["foreground"] == catalog.LAUNCHER.launch_component


def test_pm_clear_contacts_provider_resets_contacts_and_calls(state):
    providers.insert(state, "content://com.android.contacts/raw_contacts", {})
    providers.insert(state, "content://call_log/calls", {"number": "555"})
    providers.insert(state, "content://sms/inbox", {"address": "555", "body": "kept"})
    assert run(state, "pm", "clear", "com.android.providers.contacts")[0] == "Success\n"
    assert providers.query(state, "content://com.android.contacts/raw_contacts").rows == []
    assert providers.query(state, "content://call_log/calls").rows == []
    assert len(providers.query(state, "content://sms").rows) == 1
    assert run(state, "pm", "clear", "com.android.providers.telephony")[0] == "Success\n"
    assert providers.query(state, "content://sms").rows == []


def test_pm_clear_unknown_package_fails(state):
    assert run(state, "pm", "clear", "no.such") == ("", "Failed\n", 1)


def test_pm_grant(state):
    assert run(state, "pm", "grant", "com.android.chrome", "android.permission.POST_NOTIFICATIONS") == ("", "", 0)
    _, err, code = run(state, "pm", "grant", "no.such", "android.permission.X")
    assert code == 255 and "Unknown package: no.such" in err


def test_pm_disable_user_hides_nothing_but_lists_state(state):
    out, _, _ = run(state, "pm", "disable-user", "--user", "0", "com.android.chrome")
    assert out == "Package com.android.chrome new state: disabled-user\n"
    assert run(state, "pm", "list", "packages", "-d")[0] == "package:com.android.chrome\n"
    run(state, "pm", "enable", "com.android.chrome")
    assert run(state, "pm", "list", "packages", "-d")[0] == ""


# --- monkey --------------------------------------------------------------------------------------
def test_monkey_launches_the_launcher_activity(state):
    out, err, code = run(state, "monkey", "-p", "org.tasks", "-c", "android.intent.category.LAUNCHER", "1")
    assert code == 0 and err == ""
    assert out.startswith("  bash arg: -p\n  bash arg: org.tasks\n")
    assert "\nEvents injected: 1\n" in out
    assert foreground_component(state) == "org.tasks/com.todoroo.astrid.activity.MainActivity"
    out, err, code = run(state, "monkey", "-p", "no.such", "1")
    assert code == 252 and err == "** No activities found to run, monkey aborted.\n"


def test_the_image_s_own_apps_come_and_go_for_user_0(state):
    """B-MoCA's image's apps are in the simulated image but installed for no user: `pm
    install-existing` installs one (PackageManagerShellCommand's line), `pm uninstall --user 0`
    takes it away again; a package the image lacks cannot be installed so."""
    assert run(state, "pm", "path", "org.wikipedia")[2] == 1
    assert run(state, "pm", "install-existing", "org.wikipedia") == ("Package org.wikipedia installed for user: 0\n", "", 0)
    assert run(state, "pm", "path", "org.wikipedia")[0].startswith("package:/data/app/")
    assert "package:org.wikipedia\n" in run(state, "pm", "list", "packages", "-3")[0]
    assert run(state, "pm", "uninstall", "-k", "--user", "0", "org.wikipedia") == ("Success\n", "", 0)
    assert "org.wikipedia" not in run(state, "pm", "list", "packages")[0]
    out, _, code = run(state, "pm", "install-existing", "no.such")
    assert code == 1 and out == "android.content.pm.PackageManager$NameNotFoundException: Package no.such doesn't exist\n"
    assert run(state, "pm", "uninstall", "com.android.settings") == ("Failure [DELETE_FAILED_INTERNAL_ERROR]\n", "", 1)


def test_every_catalog_launch_activity_starts(state):
    for name in catalog.BMOCA_IMAGE:
        run(state, "pm", "install-existing", name)
    for package in catalog.CATALOG:
        if package.launch_component:
            _, err, _ = run(state, "am", "start", "-n", package.launch_component)
            assert "Error" not in err, package.name
            assert foreground_component(state) == package.launch_component
