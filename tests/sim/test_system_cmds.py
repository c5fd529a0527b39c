"""date, getprop/setprop, logcat/log, input, svc, cmd, wm, id/whoami/uname, screencap."""
from __future__ import annotations

import os
import struct
import zlib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from taskkit.sim import image
from taskkit.sim.commands import Invocation
from taskkit.sim import devicetime, logbuffer, writeback
from taskkit.sim.commands import system
from taskkit.sim.commands.settings import get_setting
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SimState



@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimState:
    from taskkit.sim import packages, providers

    monkeypatch.setattr(providers, "create_databases", lambda s: None)
    monkeypatch.setattr(packages, "install_all", lambda s: None)
    sim = SimState(tmp_path)
    image.build(sim)
    return sim


def run(state: SimState, *argv: str) -> tuple[int, str, str]:
    """Run a system command directly; stdout decoded as UTF-8."""
    code, out, err = run_bytes(state, *argv)
    return code, out.decode(), err


def run_bytes(state: SimState, *argv: str) -> tuple[int, bytes, str]:
    inv = Invocation(argv=list(argv), state=state)
    func = {"input": system.input_, "id": system.id_}.get(argv[0]) or getattr(system, argv[0])
    code = func(inv)
    return code, bytes(inv.stdout), inv.stderr.decode()


def as_shell_user(state: SimState) -> None:
    state.config["is_root"] = False
    state.save()


# --- date -----------------------------------------------------------------------------------
def test_date_default_format(state: SimState) -> None:
    assert run(state, "date") == (0, "Sun Oct 15 15:34:00 UTC 2023\n", "")
    assert run(state, "date", "+%s") == (0, f"{DEVICE_EPOCH}\n", "")


def test_date_pads_the_day_with_a_space(state: SimState) -> None:
    assert run(state, "date", "-d", "2023-10-05 09:08:07")[1] == "Thu Oct  5 09:08:07 UTC 2023\n"


@pytest.mark.parametrize("fmt, expected", [
    ("+%Y-%m-%d %H:%M:%S", "2023-10-15 15:34:00"),
    ("+%a %A %b %B %h", "Sun Sunday Oct October Oct"),
    ("+%e|%-d|%_m|%0e|%k|%l|%I|%p|%P", "15|15|10|15|15| 3|03|PM|pm"),
    ("+%j %U %W %V %G %g %u %w %C %y", "288 42 41 41 2023 23 7 0 20 23"),
    ("+%z %:z %Z %N", "+0000 +00:00 UTC 000000000"),
    ("+%D|%F|%T|%R|%r|%c", "10/15/23|2023-10-15|15:34:00|15:34|03:34:00 PM|Sun Oct 15 15:34:00 2023"),
    ("+%^a %% 100%", "SUN % 100%"),
    ("+%n%t", "\n\t"),
])
def test_date_formats(state: SimState, fmt: str, expected: str) -> None:
    assert run(state, "date", fmt) == (0, expected + "\n", "")


@hyp_settings(max_examples=80, deadline=None)
@given(when=st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2100, 1, 1)))
def test_format_time_agrees_with_c_strftime(when: datetime) -> None:
    aware = when.replace(tzinfo=timezone.utc, microsecond=0)
    fmt = "%a %A %b %B %c %C %d %D %e %F %G %g %H %I %j %m %M %p %r %R %S %T %u %U %V %w %W %x %X %y %Y %z %%"
    assert devicetime.format_time(fmt, aware) == aware.strftime(fmt)
    assert devicetime.format_time("%s", aware) == str(int(aware.timestamp()))


@pytest.mark.parametrize("args", [
    ["1015153423.00"], ["1015153423"], ["101515342023.00"], ["10151534"], ["@1697384040"],
    ["2023-10-15 15:34:00"], ["2023-10-15T15:34"], ["15:34:00"], ["15:34"], ["-s", "2023-10-15 15:34"],
])
def test_date_sets_the_clock_and_prints_it(state: SimState, args: list[str]) -> None:
    state.set_clock(DEVICE_EPOCH + 7)  # forms without a date or year keep today's
    assert run(state, "date", *args) == (0, "Sun Oct 15 15:34:00 UTC 2023\n", "")
    assert state.clock_epoch == DEVICE_EPOCH
    assert SimState(state.root).clock_epoch == DEVICE_EPOCH  # persisted


def test_date_two_digit_years_follow_posix(state: SimState) -> None:
    run(state, "date", "0101000069")
    assert run(state, "date", "+%Y")[1] == "1969\n"
    run(state, "date", "0101000068")
    assert run(state, "date", "+%Y")[1] == "2068\n"


@hyp_settings(max_examples=60, deadline=None)
@given(epoch=st.integers(min_value=0, max_value=4_000_000_000))
def test_parse_date_inverts_the_set_format(epoch: int) -> None:
    now = datetime.fromtimestamp(DEVICE_EPOCH, timezone.utc)
    text = datetime.fromtimestamp(epoch, timezone.utc).strftime("%m%d%H%M%Y.%S")
    assert system.parse_date(text, now) == epoch
    assert system.parse_date(f"@{epoch}", now) == epoch


def test_date_set_with_format(state: SimState) -> None:
    assert run(state, "date", "+%s", "@1000") == (0, "1000\n", "")
    assert state.clock_epoch == 1000


def test_date_without_root_prints_but_does_not_set(state: SimState) -> None:
    as_shell_user(state)
    code, out, err = run(state, "date", "0101000024.00")
    assert (code, out, err) == (1, "Mon Jan  1 00:00:00 UTC 2024\n", "date: cannot set date: Operation not permitted\n")
    assert state.clock_epoch == DEVICE_EPOCH


@pytest.mark.parametrize("args, err", [
    (["yesterday"], "date: bad date 'yesterday'\n"),
    (["1399010000"], "date: bad date '1399010000'\n"),
    (["-d", "soon"], "date: bad date 'soon'\n"),
    (["@99999999999999999"], "date: bad date '@99999999999999999'\n"),
    (["-q"], "date: Unknown option 'q' (see \"date --help\")\n"),
    (["-d"], "date: Missing argument to -d\n"),
    (["a", "b"], 'date: Max 1 argument (see "date --help")\n'),
])
def test_date_errors(state: SimState, args: list[str], err: str) -> None:
    assert run(state, "date", *args) == (1, "", err)
    assert state.clock_epoch == DEVICE_EPOCH


def test_date_display_options(state: SimState) -> None:
    assert run(state, "date", "-u", "+%H:%M %Z")[1] == "15:34 UTC\n"
    assert run(state, "date", "-I")[1] == "2023-10-15\n"
    assert run(state, "date", "-Is")[1] == "2023-10-15T15:34:00+00:00\n"
    assert run(state, "date", "-d", "@0", "+%F %T")[1] == "1970-01-01 00:00:00\n"
    assert run(state, "date", "-D", "%d/%m/%Y", "-d", "05/11/2023", "+%F")[1] == "2023-11-05\n"
    target = state.host_path("/sdcard/Download/f.txt")
    target.write_text("x")
    os.utime(target, (1000, 1000))
    assert run(state, "date", "-r", "/sdcard/Download/f.txt", "+%s")[1] == "1000\n"
    assert state.clock_epoch == DEVICE_EPOCH


def test_date_follows_the_time_zone_property(state: SimState) -> None:
    state.config["props"]["persist.sys.timezone"] = "America/New_York"
    assert run(state, "date")[1] == "Sun Oct 15 11:34:00 EDT 2023\n"
    assert run(state, "date", "+%z %s")[1] == f"-0400 {DEVICE_EPOCH}\n"
    assert run(state, "date", "-u", "+%H %Z")[1] == "15 UTC\n"
    run(state, "date", "1015113423.00")  # local wall time
    assert state.clock_epoch == DEVICE_EPOCH


# --- getprop / setprop ---------------------------------------------------------------------
def test_getprop(state: SimState) -> None:
    assert run(state, "getprop", "ro.build.version.sdk") == (0, "33\n", "")
    assert run(state, "getprop", "no.such.prop") == (0, "\n", "")
    assert run(state, "getprop", "no.such.prop", "fallback") == (0, "fallback\n", "")
    assert run(state, "getprop", "a", "b", "c") == (1, "", 'getprop: Max 2 arguments (see "getprop --help")\n')


def test_getprop_lists_all_sorted(state: SimState) -> None:
    code, out, _ = run(state, "getprop")
    lines = out.splitlines()
    assert code == 0 and "[ro.build.version.sdk]: [33]" in lines
    names = [line[1:line.index("]")] for line in lines]
    assert names == sorted(names) == sorted(state.config["props"])


def test_setprop_as_root_persists(state: SimState) -> None:
    assert run(state, "setprop", "persist.sys.locale", "fr-FR") == (0, "", "")
    assert SimState(state.root).config["props"]["persist.sys.locale"] == "fr-FR"
    assert run(state, "setprop", "ro.new.thing", "1")[0] == 0  # ro.* may be set once
    assert run(state, "setprop", "ro.new.thing", "2") == (
        1, "", "Failed to set property 'ro.new.thing' to '2'.\nSee dmesg for error reason.\n")
    assert run(state, "setprop", "debug.long", "x" * 92)[0] == 1
    assert run(state, "setprop", "only.one") == (1, "", 'setprop: Need 2 arguments (see "setprop --help")\n')


def test_setprop_as_shell_only_debug_properties(state: SimState) -> None:
    as_shell_user(state)
    assert run(state, "setprop", "debug.taskkit", "on") == (0, "", "")
    assert run(state, "setprop", "persist.sys.locale", "fr-FR")[0] == 1
    assert state.config["props"]["persist.sys.locale"] == "en-US"


# --- logcat / log -----------------------------------------------------------------------------
def _log_text(state: SimState) -> str:
    """logcat.txt once the lines this process holds are written (taskkit.sim.writeback)."""
    writeback.write_back(state.root)
    return state.logcat_path.read_text()


def test_append_log_writes_threadtime_lines(state: SimState) -> None:
    logbuffer.append_log(state, "I", "MyTag", "hello", pid=1234, tid=1250)
    logbuffer.append_log(state, "w", "LongerTagName", "two\nlines", pid=7)
    assert _log_text(state) == (
        "10-15 15:34:00.000  1234  1250 I MyTag   : hello\n"
        "10-15 15:34:00.000     7     7 W LongerTagName: two\n"
        "10-15 15:34:00.000     7     7 W LongerTagName: lines\n"
    )
    with pytest.raises(ValueError):
        logbuffer.append_log(state, "X", "t", "m")


def test_log_messages_keep_unusual_characters(state: SimState) -> None:
    logbuffer.append_log(state, "I", "T", "a\x85b\rc\u2028d  ")
    assert run(state, "logcat", "-d", "-v", "raw")[1] == "--------- beginning of main\na\x85b\rc\u2028d  \n"


def test_logcat_dump_formats(state: SimState) -> None:
    logbuffer.append_log(state, "I", "MyTag", "hello", pid=1234, tid=1250)
    header = "--------- beginning of main\n"
    assert run(state, "logcat", "-d") == (0, header + "10-15 15:34:00.000  1234  1250 I MyTag   : hello\n", "")
    assert run(state, "logcat", "-d", "-v", "time")[1] == header + "10-15 15:34:00.000 I/MyTag   ( 1234): hello\n"
    assert run(state, "logcat", "-d", "-v", "brief")[1] == header + "I/MyTag   ( 1234): hello\n"
    assert run(state, "logcat", "-d", "-vraw")[1] == header + "hello\n"
    assert run(state, "logcat", "-d", "-v", "process")[1] == header + "I( 1234) hello  (MyTag)\n"
    assert run(state, "logcat", "-d", "-v", "long")[1] == header + "[ 10-15 15:34:00.000  1234: 1250 I/MyTag    ]\nhello\n\n"
    assert run(state, "logcat", "-d", "-v", "color")[1] == run(state, "logcat", "-d")[1]  # modifiers are ignored


def test_logcat_filters(state: SimState) -> None:
    logbuffer.append_log(state, "D", "Alpha", "a-debug")
    logbuffer.append_log(state, "E", "Alpha", "a-error")
    logbuffer.append_log(state, "I", "Beta", "b-info")

    def messages(*args: str) -> list[str]:
        out = run(state, "logcat", "-d", "-v", "raw", *args)[1]
        return out.splitlines()[1:]

    assert messages() == ["a-debug", "a-error", "b-info"]
    assert messages("-s", "Alpha") == ["a-debug", "a-error"]
    assert messages("-s", "Alpha:E", "Beta") == ["a-error", "b-info"]
    assert messages("*:W") == ["a-error"]
    assert messages("Beta:S") == ["a-debug", "a-error"]
    assert messages("-t", "1") == ["b-info"]
    assert messages("-m", "2") == ["a-debug", "a-error"]
    assert messages("-e", "^b-") == ["b-info"]
    assert run(state, "logcat", "-d", "-s", "Nobody") == (0, "", "")
    assert run(state, "logcat", "-d", "-b", "crash") == (0, "", "")


def test_logcat_clear(state: SimState) -> None:
    logbuffer.append_log(state, "I", "T", "m")
    assert run(state, "logcat", "-c") == (0, "", "")
    assert run(state, "logcat", "-d") == (0, "", "")
    assert run(state, "logcat", "--clear") == (0, "", "")


def test_logcat_bad_arguments(state: SimState) -> None:
    assert run(state, "logcat", "-d", "-v", "fancy")[0] == 1
    assert run(state, "logcat", "-d", "Tag:Q")[0] == 1


def test_log_command(state: SimState) -> None:
    assert run(state, "log", "-t", "Tasks", "-p", "w", "two", "words") == (0, "", "")
    assert run(state, "log", "plain") == (0, "", "")
    assert run(state, "logcat", "-d", "-v", "tag")[1].splitlines()[1:] == ["W/Tasks   : two words", "I/log     : plain"]
    assert run(state, "log")[0] == 1


def test_log_stamps_follow_the_clock(state: SimState) -> None:
    state.set_clock(DEVICE_EPOCH + 3600 * 24 * 31 + 61)
    logbuffer.append_log(state, "I", "T", "m")
    assert _log_text(state).startswith("11-15 15:35:01.000 ")
    assert int(state.logcat_path.stat().st_mtime) == state.clock_epoch


# --- input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["tap", "540", "1200"], ["swipe", "1", "2", "3", "4"], ["swipe", "1", "2", "3", "4", "500"],
    ["text", "hello%sworld"], ["keyevent", "KEYCODE_HOME"], ["keyevent", "--longpress", "4"],
    ["touchscreen", "tap", "1.5", "2"], ["-d", "0", "tap", "1", "2"], ["draganddrop", "1", "2", "3", "4"],
])
def test_input_is_silent_and_logged(state: SimState, args: list[str]) -> None:
    assert run(state, "input", *args) == (0, "", "")
    last = _log_text(state).splitlines()[-1]
    assert " I Input   : " in last


def test_input_text_logs_spaces(state: SimState) -> None:
    run(state, "input", "text", "a%sb")
    assert _log_text(state).endswith(": text a b\n")


@pytest.mark.parametrize("args, code", [
    (["tap", "1"], 255), (["tap", "x", "2"], 255), (["swipe", "1", "2"], 255), (["fly"], 255), ([], 255),
])
def test_input_errors(state: SimState, args: list[str], code: int) -> None:
    assert run(state, "input", *args)[0] == code
    assert _log_text(state) == ""


# --- svc / cmd / wm -------------------------------------------------------------------------
@pytest.mark.parametrize("service, key", [("wifi", "wifi_on"), ("bluetooth", "bluetooth_on"), ("data", "mobile_data")])
def test_svc_toggles_global_settings(state: SimState, service: str, key: str) -> None:
    assert run(state, "svc", service, "enable") == (0, "", "")
    assert get_setting(state, "global", key) == "1"
    assert run(state, "svc", service, "disable") == (0, "", "")
    assert get_setting(state, "global", key) == "0"
    assert run(state, "svc", service, "toggle")[0] == 1


def test_svc_power_stayon(state: SimState) -> None:
    assert run(state, "svc", "power", "stayon", "true")[0] == 0
    assert get_setting(state, "global", "stay_on_while_plugged_in") == "7"


@pytest.mark.parametrize("mode, stored", [("yes", "2"), ("no", "1"), ("auto", "0")])
def test_cmd_uimode_night(state: SimState, mode: str, stored: str) -> None:
    assert run(state, "cmd", "uimode", "night", mode) == (0, f"Night mode: {mode}\n", "")
    assert get_setting(state, "secure", "ui_night_mode") == stored
    assert run(state, "cmd", "uimode", "night") == (0, f"Night mode: {mode}\n", "")


def test_cmd_uimode_rejects_bad_modes(state: SimState) -> None:
    code, out, err = run(state, "cmd", "uimode", "night", "dusk")
    assert (code, out) == (255, "") and err.startswith("Error: mode must be")
    assert get_setting(state, "secure", "ui_night_mode") == "1"


def test_cmd_connectivity_airplane_mode(state: SimState) -> None:
    assert run(state, "cmd", "connectivity", "airplane-mode") == (0, "disabled\n", "")
    assert run(state, "cmd", "connectivity", "airplane-mode", "enable") == (0, "", "")
    assert get_setting(state, "global", "airplane_mode_on") == "1"
    assert run(state, "cmd", "connectivity", "airplane-mode") == (0, "enabled\n", "")
    assert run(state, "cmd", "connectivity", "airplane-mode", "disable") == (0, "", "")
    assert get_setting(state, "global", "airplane_mode_on") == "0"


def test_cmd_wifi_bluetooth_and_aliases(state: SimState) -> None:
    assert run(state, "cmd", "wifi", "set-wifi-enabled", "disabled") == (0, "", "")
    assert get_setting(state, "global", "wifi_on") == "0"
    assert run(state, "cmd", "bluetooth_manager", "enable") == (0, "", "")
    assert get_setting(state, "global", "bluetooth_on") == "1"
    assert run(state, "cmd", "settings", "get", "system", "time_12_24") == (0, "24\n", "")
    assert run(state, "cmd", "nosuch", "x") == (20, "", "cmd: Can't find service: nosuch\n")
    assert run(state, "cmd")[0] == 20


def test_wm_size(state: SimState) -> None:
    assert run(state, "wm", "size") == (0, "Physical size: 1080x2400\n", "")
    assert run(state, "wm", "size", "720x1280") == (0, "", "")
    assert run(state, "wm", "size") == (0, "Physical size: 1080x2400\nOverride size: 720x1280\n", "")
    assert system.display_size(SimState(state.root)) == (720, 1280)
    assert run(state, "wm", "size", "reset") == (0, "", "")
    assert run(state, "wm", "size") == (0, "Physical size: 1080x2400\n", "")
    assert run(state, "wm", "size", "big") == (255, "", "Error: bad size big\n")


def test_wm_density_lives_in_secure_settings(state: SimState) -> None:
    assert run(state, "wm", "density") == (0, "Physical density: 420\n", "")
    assert run(state, "wm", "density", "300") == (0, "", "")
    assert get_setting(state, "secure", "display_density_forced") == "300"
    assert run(state, "wm", "density") == (0, "Physical density: 420\nOverride density: 300\n", "")
    assert run(state, "wm", "density", "reset") == (0, "", "")
    assert get_setting(state, "secure", "display_density_forced") is None
    assert run(state, "wm", "density", "dense")[0] == 255


# --- identity -------------------------------------------------------------------------------
def test_identity_as_root_and_shell(state: SimState) -> None:
    assert run(state, "whoami") == (0, "root\n", "")
    assert run(state, "id")[1].startswith("uid=0(root) gid=0(root) groups=0(root),1004(input),")
    assert run(state, "id", "-u") == (0, "0\n", "")
    as_shell_user(state)
    assert run(state, "whoami") == (0, "shell\n", "")
    assert run(state, "id") == (0, (
        "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
        "1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),"
        "3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) "
        "context=u:r:shell:s0\n"), "")
    assert run(state, "id", "-un") == (0, "shell\n", "")
    assert run(state, "id", "-Z") == (0, "u:r:shell:s0\n", "")


def test_uname(state: SimState) -> None:
    assert run(state, "uname") == (0, "Linux\n", "")
    assert run(state, "uname", "-m") == (0, "x86_64\n", "")
    assert run(state, "uname", "-a")[1].startswith("Linux localhost 5.15")


# --- screencap ------------------------------------------------------------------------------
def read_png(data: bytes) -> tuple[int, int, bytes]:
    """Check the signature and every chunk CRC; return width, height and the inflated rows."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        pos += 12 + length
    assert [k for k, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height = struct.unpack(">II", chunks[0][1][:8])
    return width, height, zlib.decompress(chunks[2][1])


def test_screencap_png_to_stdout(state: SimState) -> None:
    code, out, err = run_bytes(state, "screencap", "-p")
    assert (code, err) == (0, "")
    width, height, rows = read_png(out)
    assert (width, height) == (1080, 2400)
    assert len(rows) == height * (1 + (width + 7) // 8)
    assert run_bytes(state, "screencap", "-p")[1] == out  # deterministic


def test_screencap_follows_the_display_size(state: SimState) -> None:
    run(state, "wm", "size", "720x1280")
    assert read_png(run_bytes(state, "screencap", "-p")[1])[:2] == (720, 1280)


def test_screencap_raw(state: SimState) -> None:
    run(state, "wm", "size", "10x20")
    code, out, _ = run_bytes(state, "screencap")
    assert code == 0 and struct.unpack("<IIII", out[:16]) == (10, 20, 1, 0)
    assert len(out) == 16 + 10 * 20 * 4


def test_screencap_to_a_file(state: SimState) -> None:
    state.set_clock(1_700_000_000)
    assert run(state, "screencap", "/sdcard/Pictures/shot.png") == (0, "", "")
    path = state.host_path("/sdcard/Pictures/shot.png")
    assert read_png(path.read_bytes())[:2] == (1080, 2400)
    assert int(path.stat().st_mtime) == 1_700_000_000
    assert run(state, "screencap", "-p", "/nope/shot.png") == (
        1, "", "Error opening file: /nope/shot.png (No such file or directory)\n")


# --- through the simulated shell ---------------------------------------------------------------


def test_commands_through_the_shell(sim_device) -> None:
    assert sim_device.shell("date").stdout == "Sun Oct 15 15:34:00 UTC 2023\n"
    assert sim_device.shell("getprop ro.build.version.sdk").stdout == "33\n"
    assert sim_device.shell("cmd uimode night yes").stdout == "Night mode: yes\n"
    assert sim_device.shell("settings get secure ui_night_mode").stdout == "2\n"
    assert sim_device.shell("whoami").stdout in ("root\n", "shell\n")
    result = sim_device.shell("log -t ShellTag 'hello there' && logcat -d -s ShellTag")
    assert result.exit_code == 0 and result.stdout.endswith(" I ShellTag: hello there\n")
    png = sim_device.shell("screencap -p")
    assert png.exit_code == 0


def test_dumpsys_display_reports_the_viewport_size_and_rotation(state: SimState) -> None:
    import re

    from taskkit.sim.commands.activity import dumpsys
    from taskkit.sim.commands.settings import put_setting

    def display() -> str:
        inv = Invocation(argv=["dumpsys", "display"], state=state)
        assert dumpsys(inv) == 0
        return bytes(inv.stdout).decode()

    out = display()
    assert out.startswith("DISPLAY MANAGER (dumpsys display)\n")
    assert re.search(r"orientation=(\d+)", out).group(1) == "0"  # the line adbutils' rotation() reads
    assert "deviceWidth=1080, deviceHeight=2400" in out and "density 420" in out
    run(state, "wm", "size", "720x1280")
    put_setting(state, "system", "user_rotation", "1")
    out = display()
    assert "orientation=1," in out and "logicalFrame=Rect(0, 0 - 720, 1280)" in out and "rotation 1," in out
