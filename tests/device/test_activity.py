"""The Activity and Packages services: builders and parsers, then the simulator."""
from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.connect import sim_device
from taskkit.device.base import ShellResult
from taskkit.device.services import activity as svc
from taskkit.device.services.activity import ActivityError, PackageError
from taskkit.sim.device import SimDevice

SETTINGS = "com.android.settings/.Settings"
SETTINGS_FULL = "com.android.settings/com.android.settings.Settings"
SMS_PACKAGE = "com.simplemobiletools.smsmessenger"
plain_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40)


# --- builders ------------------------------------------------------------------------------------
def test_build_start_and_intent():
    assert shlex.split(svc.build_start(SETTINGS)) == ["am", "start", "-n", SETTINGS]
    command = svc.build_start_intent("android.intent.action.SENDTO", "sms:+1555", {
        "sms_body": "it's $(x)", "flag": True, "n": 3, "big": 2 ** 40, "f": 0.5, "none": None})
    assert shlex.split(command) == [
        "am", "start", "-a", "android.intent.action.SENDTO", "-d", "sms:+1555", "--es", "sms_body", "it's $(x)",
        "--ez", "flag", "true", "--ei", "n", "3", "--el", "big", str(2 ** 40), "--ef", "f", "0.5", "--esn", "none"]
    assert shlex.split(svc.build_broadcast("clipper.get")) == ["am", "broadcast", "-a", "clipper.get"]
    assert shlex.split(svc.build_force_stop("com.x")) == ["am", "force-stop", "com.x"]
    with pytest.raises(ValueError):
        svc.build_start("no-slash")
    with pytest.raises(TypeError):
        svc.extra_args({"k": [1]})


def test_pm_builders():
    assert shlex.split(svc.build_list(True)) == ["pm", "list", "packages", "-3"]
    assert shlex.split(svc.build_clear("a.b")) == ["pm", "clear", "a.b"]
    assert shlex.split(svc.build_grant("a.b", "android.permission.X")) == ["pm", "grant", "a.b", "android.permission.X"]


# --- parsers -------------------------------------------------------------------------------------
WINDOW = """\
WINDOW MANAGER WINDOWS (dumpsys window windows)
  Window #0 Window{10ff620 u0 StatusBar}:
  mCurrentFocus=Window{3c0f7e0 u0 com.x/com.x.MainActivity}
  mFocusedApp=ActivityRecord{8a6c6f5 u0 com.x/.MainActivity t12}
"""


@pytest.mark.parametrize("dump, component", [
    (WINDOW, "com.x/com.x.MainActivity"),
    ("  mCurrentFocus=null\n  mFocusedApp=null\n", None),
    ("  mCurrentFocus=Window{1 u0 NotificationShade}\n  mFocusedApp=ActivityRecord{2 u0 com.y/.Main t3}\n",
     "com.y/com.y.Main"),
    ("  mCurrentFocus=null\n  mCurrentFocus=Window{1 u0 a.b/c.D}\n", "a.b/c.D"),
    ("", None),
])
def test_parse_foreground(dump, component):
    assert svc.parse_foreground(dump) == component


def test_parse_broadcast():
    assert svc.parse_broadcast("Broadcasting: Intent { act=a flg=0x400000 }\nBroadcast completed: result=0\n") == (0, None)
    assert svc.parse_broadcast('Broadcast completed: result=-1, data="a "b", c\nd"\n') == (-1, 'a "b", c\nd')
    with pytest.raises(ActivityError):
        svc.parse_broadcast("nothing\n")


def test_check_start():
    svc.check_start(ShellResult("Starting: Intent { cmp=a/.B }\n", "", 0))
    svc.check_start(ShellResult("Starting: Intent { cmp=a/.B }\n",
                                "Warning: Activity not started, its current task has been brought to the front\n", 0))
    with pytest.raises(ActivityError, match="does not exist"):
        svc.check_start(ShellResult("Starting: Intent { cmp=a/.B }\n",
                                    "Error type 3\nError: Activity class {a/a.B} does not exist.\n", 0))
    with pytest.raises(ActivityError, match="unable to resolve"):
        svc.check_start(ShellResult("", "Error: Activity not started, unable to resolve Intent { act=x }\n", 0))


def test_parse_packages():
    assert svc.parse_packages("package:a.b\npackage:c\r\nnoise\n") == ["a.b", "c"]


# --- through the simulator ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def device(tmp_path_factory):
    sim = sim_device(tmp_path_factory.mktemp("activity") / "device")
    yield sim
    sim.close()


def test_start_foreground_and_force_stop(device):
    device.activity.start(SETTINGS)
    assert device.activity.foreground() == SETTINGS_FULL
    assert device.activity.foreground_package() == "com.android.settings"
    device.activity.start(f"{SMS_PACKAGE}/.activities.MainActivity")
    assert device.activity.foreground_package() == SMS_PACKAGE
    device.activity.force_stop(SMS_PACKAGE)
    assert device.activity.foreground() == SETTINGS_FULL
    device.activity.force_stop("com.android.settings")
    assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"


def test_start_unknown_activity_raises(device):
    with pytest.raises(ActivityError, match="does not exist"):
        device.activity.start("com.android.settings/.NoSuchActivity")
    with pytest.raises(ActivityError, match="unable to resolve"):
        device.activity.start_intent("com.example.NO_SUCH_ACTION")


def test_start_intent_reaches_the_sms_app(device):
    device.activity.start_intent("android.intent.action.SENDTO", "sms:+15551234567", {"sms_body": "hi, there"})
    assert device.activity.foreground_package() == SMS_PACKAGE


@given(text=plain_text)
@settings(max_examples=30)
def test_broadcast_extras_round_trip_through_the_clipboard(device, text):
    device.activity.broadcast("clipper.set", {"text": text})
    assert svc.parse_broadcast(device.activity.broadcast("clipper.get")) == (-1, text)


def test_packages(device):
    names = device.packages.list()
    assert names[0] == "com.google.android.apps.nexuslauncher"
    assert {"com.android.settings", SMS_PACKAGE, "com.android.providers.telephony"} <= set(names)
    third = device.packages.list(third_party_only=True)
    assert SMS_PACKAGE in third and "com.android.settings" not in third
    assert device.packages.is_installed("org.tasks")
    assert not device.packages.is_installed("org.nothing")
    device.packages.grant(SMS_PACKAGE, "android.permission.READ_SMS")
    with pytest.raises(PackageError):
        device.packages.grant("org.nothing", "android.permission.READ_SMS")


def test_clear_resets_provider_data(device):
    device.content.insert("content://sms/inbox", {"address": "+1", "body": "x"})
    device.packages.clear("com.android.providers.telephony")
    assert device.content.query("content://sms") == []
    with pytest.raises(PackageError):
        device.packages.clear("org.nothing")


def test_a_runtime_permission_is_read_from_dumpsys_package() -> None:
    dump = ("    runtime permissions:\n"
            "      android.permission.POST_NOTIFICATIONS: granted=false, flags=[ USER_SENSITIVE_WHEN_GRANTED]\n"
            "      android.permission.RECORD_AUDIO: granted=true, flags=[ USER_SET|ONE_TIME]\n")
    assert svc.parse_runtime_permission(dump, "android.permission.RECORD_AUDIO") == (True, {"USER_SET", "ONE_TIME"})
    assert svc.parse_runtime_permission(dump, "android.permission.POST_NOTIFICATIONS")[0] is False
    assert svc.parse_runtime_permission(dump, "android.permission.CAMERA") == (False, frozenset())


def test_closing_apps_stops_every_running_one_in_one_short_command():
    """`build_close_apps` force-stops each running package (a stopped one is skipped: a force-stop
    would mark it stopped), empties the clipboard and shows the home screen; its text grows by
    the package names alone, not by a command per package."""
    from taskkit.sim.gui import install

    packages = ["com.android.settings", SMS_PACKAGE, "com.android.deskclock"]
    short = svc.build_close_apps(packages[:1])
    assert len(svc.build_close_apps(packages)) == len(short) + sum(len(p) + 1 for p in packages[1:])
    device = SimDevice()
    try:
        install(device.state)
        device.check(f"am start -n {SETTINGS}")
        device.check(f"monkey -p {SMS_PACKAGE} 1 >/dev/null || am start -n {SMS_PACKAGE}/.activities.MainActivity")
        assert all(device.shell(f"pidof {p}").stdout.strip() for p in packages[:2])
        device.check("am broadcast -a clipper.set --es text kept >/dev/null")
        device.check(svc.build_close_apps(packages))
        assert [device.shell(f"pidof {p}").stdout.strip() for p in packages] == ["", "", ""]
        assert device.activity.foreground_package() == "com.google.android.apps.nexuslauncher"
        assert "kept" not in device.check("am broadcast -a clipper.get")
    finally:
        device.close()
