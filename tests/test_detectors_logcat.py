"""B-MoCA's logcat and shared-preference detectors: `logcat_matches` reads only what was logged
since setup (a mark, never a clear), the simulated device logs Android 13's START lines, and
`shared_pref_equals` compares an app's preferences by type — each failing before the change and
passing after it, and a task written with them is solved by its oracle and rejects its near misses
on the simulated device and over adb."""
from __future__ import annotations

import re

import pytest

from taskkit.apps import audio_recorder
from taskkit.device.services import shared_prefs
from taskkit.device.services.logcat import LogEntry, LogMark, after_mark, build_dump, mark_of
from taskkit.env import Env
from taskkit.task import TaskEval
from taskkit.validators import all_of, logcat_matches, shared_pref_equals
from tests.device.test_adb_device import requires_adb, served_adb_device

WIFI = r"START u0 \{act=android\.settings\.WIFI_SETTINGS .*cmp=com\.android\.settings/\.Settings\$WifiSettingsActivity\}"
PREFS = audio_recorder.PREFS_PATH


def _score(validator, env, snapshot) -> float:
    return validator.evaluate(env, snapshot).score


# --- the mark: what "since setup" means -------------------------------------------------------
def _entry(time: str, message: str) -> LogEntry:
    return LogEntry(time, 512, 541, "I", "T", message)


def test_a_mark_skips_exactly_the_entries_it_saw_at_its_time() -> None:
    before = [_entry("10-15 15:33:59.000", "old"), _entry("10-15 15:34:00.000", "a"), _entry("10-15 15:34:00.000", "b")]
    mark = mark_of(before)
    assert mark == LogMark("10-15 15:34:00.000", 2) and mark_of([]) == LogMark(None)
    dumped = before[1:] + [_entry("10-15 15:34:00.000", "c"), _entry("10-15 15:34:01.000", "d")]  # logcat -t TIME
    assert [e.message for e in after_mark(dumped, mark)] == ["c", "d"]
    assert build_dump("T", since=mark.time) == "logcat -d -v threadtime -t '10-15 15:34:00.000' -s T"


def test_the_simulated_logcat_takes_a_time_after_t(sim_device) -> None:
    sim_device.check("log -t A one")
    sim_device.clock.set(sim_device.clock.now().replace(second=30))
    sim_device.check("log -t A two")
    stamps = [e.time for e in sim_device.logcat.dump()]
    assert len(set(stamps)) == 2
    assert [e.message for e in sim_device.logcat.dump("A", since=stamps[1])] == ["two"]
    assert [e.message for e in sim_device.logcat.dump("A", since=stamps[0])] == ["one", "two"]
    year_form = sim_device.check(f"logcat -d -s A -t '2023-{stamps[1]}'")
    assert "one" not in year_form and "two" in year_form
    failed = sim_device.shell("logcat -d -t 'yesterday'")
    assert failed.exit_code != 0 and 'not in time format' in failed.stderr


# --- the START lines the simulated device logs ---------------------------------------------------
def test_am_start_and_monkey_log_activity_task_managers_start_line(sim_device) -> None:
    sim_device.check("am start -a android.settings.WIFI_SETTINGS")
    sim_device.check("monkey -p com.android.settings 1")
    sim_device.check("am start -n com.android.settings/.Settings --es from test")
    sim_device.check("am start -a no.such.ACTION")  # nothing started: nothing logged
    starts = [(e.pid, e.priority, e.message) for e in sim_device.logcat.dump("ActivityTaskManager")]
    assert starts == [
        (512, "I", "START u0 {act=android.settings.WIFI_SETTINGS flg=0x10000000 "
                   "cmp=com.android.settings/.Settings$WifiSettingsActivity} from uid 0"),
        (512, "I", "START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 "
                   "cmp=com.android.settings/.Settings} from uid 0"),
        (512, "I", "START u0 {flg=0x10000000 cmp=com.android.settings/.Settings (has extras)} from uid 0"),
    ]


def test_the_home_key_starts_the_launcher_as_root_window_container_does(sim_device) -> None:
    from taskkit.device.catalog import LAUNCHER
    from taskkit.sim.commands.activity import start_home

    sim_device.check("am start -a android.settings.WIFI_SETTINGS")
    start_home(sim_device.state)  # what `input keyevent HOME` does on a device without screens
    assert sim_device.activity.foreground().split("/")[0] == LAUNCHER.name
    assert sim_device.logcat.dump("ActivityTaskManager")[-1].message == (
        "START u0 {act=android.intent.action.MAIN cat=[android.intent.category.HOME] flg=0x10000100 "
        f"cmp={LAUNCHER.launch_component} (has extras)}} from uid 0")


# --- logcat_matches ---------------------------------------------------------------------------
def test_only_a_line_logged_since_setup_counts(env) -> None:
    env.device.check("am start -a android.settings.WIFI_SETTINGS")  # before setup ends
    check = logcat_matches("ActivityTaskManager", WIFI, level="I")
    mark = check.snapshot(env)
    result = check.evaluate(env, mark)
    assert result.score == 0.0 and "no ActivityTaskManager:I line logged since setup" in result.reasons[0]
    env.device.check("am start -a android.settings.BLUETOOTH_SETTINGS")
    assert _score(check, env, mark) == 0.0  # another activity
    env.device.check("am start -a android.settings.WIFI_SETTINGS")
    assert _score(check, env, mark) == 1.0
    assert env.device.logcat.dump("ActivityTaskManager")[0].message.startswith("START u0 {act=android.settings.WIFI")  # kept


def test_the_level_is_a_minimum_and_bmocas_tag_level_form_is_read(env) -> None:
    as_warning = logcat_matches("ActivityTaskManager:W", "START")
    assert (as_warning.tag, as_warning.level) == ("ActivityTaskManager", "W")
    mark = as_warning.snapshot(env)
    env.device.check("monkey -p com.android.settings 1")  # an I line: below W
    assert _score(as_warning, env, mark) == 0.0
    assert _score(logcat_matches("ActivityTaskManager:I", "START"), env, mark) == 1.0
    assert _score(logcat_matches("ActivityTaskManager", "START", level="v"), env, mark) == 1.0


@pytest.mark.parametrize("build", [lambda: logcat_matches("Tag:Q", "x"), lambda: logcat_matches("Tag:I", "x", level="E"),
                                   lambda: logcat_matches("a tag", "x"), lambda: logcat_matches("Tag", "(")])
def test_a_malformed_logcat_detector_is_refused_when_built(build) -> None:
    with pytest.raises((ValueError, re.error)):
        build()


# --- shared_pref_equals -----------------------------------------------------------------------
def test_android_shared_preferences_xml_is_read_by_type() -> None:
    text = ("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
            '    <string name="name">a &amp; b</string>\n    <int name="n" value="3" />\n'
            '    <long name="l" value="9000000000" />\n    <float name="f" value="1.5" />\n'
            '    <boolean name="b" value="true" />\n    <set name="s">\n        <string>x</string>\n'
            '        <string>y</string>\n    </set>\n</map>\n')
    entries = shared_prefs.parse(text)
    assert {k: (p.kind, p.value) for k, p in entries.items()} == {
        "name": ("string", "a & b"), "n": ("int", 3), "l": ("long", 9000000000), "f": ("float", 1.5),
        "b": ("boolean", True), "s": ("set", frozenset({"x", "y"}))}
    assert shared_prefs.render(entries) == text  # Android's own layout, written back
    with pytest.raises(shared_prefs.PrefsError):
        shared_prefs.parse("<list/>")


def test_preferences_are_escaped_as_fast_xml_serializer_escapes() -> None:
    value = 'Tom\'s "note" <b>&\tnew\nline'
    text = shared_prefs.render({'say "hi"': shared_prefs.Pref("string", value)})
    assert '<string name="say &quot;hi&quot;">Tom\'s &quot;note&quot; &lt;b&gt;&amp;&#9;new&#10;line</string>' in text
    assert shared_prefs.parse(text) == {'say "hi"': shared_prefs.Pref("string", value)}


def test_a_preference_is_compared_by_type(env) -> None:
    files = env.device.files
    files.write_text(PREFS, shared_prefs.render({
        "record_counter": shared_prefs.Pref("long", 2), "flag": shared_prefs.Pref("boolean", False),
        "text": shared_prefs.Pref("string", "2")}))
    pkg, name = audio_recorder.PACKAGE, audio_recorder.PREFS_FILE

    def score(key, value) -> float:
        return _score(shared_pref_equals(pkg, name, key, value), env, None)

    assert score("record_counter", 2) == 1.0 and score("record_counter", 2.0) == 1.0
    assert score("record_counter", 3) == 0.0 and score("record_counter", "2") == 0.0
    assert score("flag", False) == 1.0 and score("flag", 0) == 0.0
    assert score("text", "2") == 1.0 and score("text", 2) == 0.0
    missing = shared_pref_equals(pkg, name, "nope", 1).evaluate(env, None)
    assert missing.score == 0.0 and "has no key 'nope'" in missing.reasons[0]
    assert shared_pref_equals(pkg, "Other.xml", "k", 1).evaluate(env, None).reasons[0].endswith("does not exist")
    with pytest.raises(ValueError):
        shared_pref_equals(pkg, name, "k", [1])


def test_audio_recorder_counts_each_recording_in_its_preferences(env) -> None:
    env.device.files.remove(PREFS, recursive=True)
    audio_recorder.save_recording(env.device, 3)
    audio_recorder.save_recording(env.device, 3, "named.m4a")
    stored = shared_prefs.parse(env.device.files.read_text(PREFS))
    assert stored["record_counter"] == shared_prefs.Pref("long", 2)
    from tests.sim.gui.helpers import tap

    env.device.check("monkey -p com.dimowner.audiorecorder 1")
    tap(env.device, "btn_record")
    tap(env.device, "btn_record_stop")  # the screen's Stop counts its recording as the app does
    stored = shared_prefs.parse(env.device.files.read_text(PREFS))
    assert stored["record_counter"] == shared_prefs.Pref("long", 3)


# --- a task written only with these names -------------------------------------------------------
class WifiPageAndOneRecording(TaskEval, register=False):
    """Open the Wi-Fi settings page and record one clip (a logcat and a preference check)."""

    app_names = ("settings", "audio recorder")
    complexity = 1
    template = "Open the Wi-Fi settings, then record a clip in Audio Recorder."
    schema = {"type": "object", "properties": {"older": {"type": "integer"}}, "required": ["older"]}

    @classmethod
    def generate_random_params(cls, rng) -> dict:
        return {"older": rng.randint(0, 2)}

    def initialize_state(self, env) -> None:
        super().initialize_state(env)
        audio_recorder.reset(env.device)
        env.device.files.remove(PREFS, recursive=True)
        for _ in range(self.params["older"]):
            audio_recorder.save_recording(env.device, 2)

    def validator(self):
        return all_of(logcat_matches("ActivityTaskManager:I", WIFI),
                      shared_pref_equals(audio_recorder.PACKAGE, audio_recorder.PREFS_FILE, "record_counter",
                                         self.params["older"] + 1))

    def solve(self, env) -> None:
        env.device.check("am start -a android.settings.WIFI_SETTINGS")
        audio_recorder.save_recording(env.device, 4)


def _judge(task, env=None) -> None:
    from taskkit.testing import check_near_miss, check_solvable

    check_solvable(task, seeds=[0, 1], env=env)  # the oracle scores 1.0, the start less
    assert "near_miss pass" in str(check_near_miss(task, seeds=[0], env=env))


def test_a_task_with_the_logcat_and_preference_checks_rejects_its_near_misses(task_env) -> None:
    from taskkit.testing.session import Session

    _judge(WifiPageAndOneRecording, env=task_env)
    run = Session(env=task_env).near_misses(WifiPageAndOneRecording, 0)
    assert run.survived == [] and run.unapplied == [] and not run.error
    assert [re.sub(r"= \d+$", "= N", name) for name in run.killed] == [
        "logcat ActivityTaskManager: the line logged under 'ActivityTaskManages'",
        "logcat ActivityTaskManager: the line names another package",  # com.android.settingt
        "logcat ActivityTaskManager: the line logged at D",
        "shared pref record_counter = N", "shared pref record_counter stored as <string>",
        "shared pref record_counter missing"]


@requires_adb
def test_over_adb_the_same_task_is_solved_and_rejects_its_near_misses(tmp_path) -> None:
    with served_adb_device(tmp_path / "device") as device:
        _judge(WifiPageAndOneRecording, env=Env(device))


LOGCAT_SPEC = r'''
name: "WifiPageSeenInTheLog"
apps: "settings"
apps: "audio recorder"
complexity: 1
goal: "Open the Wi-Fi settings and record {{ count }} clip(s)."
params { name: "count" int_range { min: 1 max: 3 } }
setup { remove_file { path: "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml" } }
success {
  all {
    check { logcat_matches { tag: "ActivityTaskManager:I" pattern: "START .*cmp=com\\.android\\.settings/\\.Settings\\$WifiSettingsActivity" } }
    check { shared_pref_equals { package: "com.dimowner.audiorecorder" file: "com.dimowner.audiorecorder.data.PrefsImpl"
                                 key: "record_counter" type: INT value: "{{ count }}" } }
  }
}
oracle { shell { command: "am start -a android.settings.WIFI_SETTINGS" } }
oracle { write_file { path: "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
                      content: "<map><long name=\"record_counter\" value=\"{{ count }}\" /></map>" } }
'''


def test_a_spec_with_the_logcat_and_preference_checks_is_solved_and_its_near_misses_fail(tmp_path) -> None:
    from taskkit import specs

    path = tmp_path / "wifi_seen.textproto"
    path.write_text(LOGCAT_SPEC)
    _judge(specs.load_file(path, register=False))


@pytest.mark.parametrize("check, message", [
    ('logcat_matches { tag: "A:Q" pattern: "x" }', "one of V, D, I, W, E, F"),
    ('logcat_matches { tag: "A" pattern: "{{ x }}" }', "literal text"),
    ('logcat_matches { pattern: "x" }', "needs a tag"),
    ('logcat_matches { tag: "A:I" level: "E" pattern: "x" }', "names a level other than"),
    ('shared_pref_equals { package: "p" file: "F" key: "k" type: BOOLEAN value: "yes" }', "true or false"),
    ('shared_pref_equals { package: "p" file: "a/b" key: "k" value: "v" }', "not a shared-preferences file name"),
    ('shared_pref_equals { package: "p" file: "F" key: "k" type: INT value: "x" items: "y" }', "only a SET"),
])
def test_a_malformed_spec_check_is_one_clear_problem(tmp_path, check, message) -> None:
    from taskkit import specs
    from taskkit.specs.errors import SpecError

    path = tmp_path / "bad.textproto"
    path.write_text(f'name: "Bad"\napps: "settings"\ncomplexity: 1\ngoal: "g"\nsuccess {{ {check} }}\n'
                    'oracle { shell { command: "true" } }\n')
    with pytest.raises(SpecError, match=re.escape(message)):
        specs.load_file(path, register=False)


def test_screens_log_the_start_lines_of_the_apps_they_open(env) -> None:
    """A launcher icon and the HOME key each log their START line (a file opened from Files too), so a
    GUI agent's app launch satisfies a B-MoCA START detector."""
    from tests.sim.gui.helpers import tap

    device = env.device
    device.check("input keyevent HOME")
    check = logcat_matches("ActivityTaskManager", r"START u0 \{act=android\.intent\.action\.MAIN "
                           r"cat=\[android\.intent\.category\.LAUNCHER\] flg=0x10200000 cmp=com\.android\.settings/\.Settings\} from uid \d+", "I")
    snapshot = check.snapshot(env)
    assert _score(check, env, snapshot) == 0.0
    tap(device, "Settings")
    assert _score(check, env, snapshot) == 1.0
    home = logcat_matches("ActivityTaskManager", r"cat=\[android\.intent\.category\.HOME\] .*from uid 0$")
    snapshot = home.snapshot(env)
    device.check("input keyevent HOME")
    assert _score(home, env, snapshot) == 1.0
