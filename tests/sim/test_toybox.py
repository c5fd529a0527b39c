"""Toybox 0.8.6 file tools of the simulator: output formats, messages, exit codes, mtimes."""
from __future__ import annotations

import hashlib
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskkit.device.base import ShellResult
from taskkit.sim.commands import toybox
from taskkit.device.reference import DEVICE_EPOCH
from tests.sim.test_shell import bare_state, out, sh  # noqa: F401  (bare_state: a fixture)

T0 = DEVICE_EPOCH


def mtime(state, path: str) -> int:
    return int(os.stat(state.host_path(path)).st_mtime)


@pytest.fixture
def tree(bare_state):
    """/sdcard with a few files: a (3 bytes), big (5000 bytes), .hidden, A, sub/f, sub/deeper/."""
    state = bare_state
    out(state, "cd /sdcard && echo hi > a && printf %5000s x > big && touch .hidden A "
               "&& mkdir -p sub/deeper && echo yy > sub/f")
    return state


# --- ls -------------------------------------------------------------------------------------
def test_ls_sorts_in_c_order_and_hides_dotfiles(tree):
    assert out(tree, "ls /sdcard/") == "A\nDCIM\nDownload\na\nbig\nsub\n"
    assert out(tree, "ls -a /sdcard/").split("\n")[:4] == [".", "..", ".hidden", "A"]
    assert out(tree, "ls -A /sdcard/").split("\n")[0] == ".hidden"


def test_ls_of_an_empty_directory(tree):
    out(tree, "mkdir /sdcard/empty")
    assert out(tree, "ls /sdcard/empty") == ""
    assert out(tree, "ls -l /sdcard/empty") == "total 0\n"
    assert out(tree, "ls -lis /sdcard/empty") == "total 0\n"


def test_ls_long_format(tree):
    assert out(tree, "ls -l /sdcard/") == (
        "total 24\n"  # 1 KiB units of 4 KiB blocks: dirs 4 each, big 8, a 4

        "-rw-rw---- 1 root root    0 2023-10-15 15:34 A\n"
        "drwxrwx--x 2 root root 4096 2023-10-15 15:34 DCIM\n"
        "drwxrwx--x 2 root root 4096 2023-10-15 15:34 Download\n"
        "-rw-rw---- 1 root root    3 2023-10-15 15:34 a\n"
        "-rw-rw---- 1 root root 5000 2023-10-15 15:34 big\n"
        "drwxrwx--x 3 root root 4096 2023-10-15 15:34 sub\n"
    )


def test_ls_long_of_the_sdcard_link_and_of_files(tree):
    assert out(tree, "ls -l /sdcard") == (
        "lrwxrwxrwx 1 root root 21 2023-10-15 15:34 /sdcard -> /storage/self/primary\n")
    assert out(tree, "ls -l /sdcard/a") == "-rw-rw---- 1 root root 3 2023-10-15 15:34 /sdcard/a\n"
    assert out(tree, "ls /sdcard") == out(tree, "ls /sdcard/")


def test_ls_times_come_from_mtime_in_utc(tree):
    out(tree, "touch -d '2024-02-29 23:59:59' /sdcard/a")
    assert out(tree, "ls -l /sdcard/a").split()[5:7] == ["2024-02-29", "23:59"]


def test_ls_with_l_twice_shows_the_full_time(tree):  # toybox counts -l; AndroidWorld lists with `-ll -au`
    out(tree, "touch -d '2024-02-29 23:59:59' /sdcard/a")
    listed = [line.split(None, 8) for line in out(tree, "ls /sdcard/ -ll -au").splitlines()[1:]]
    assert [fields[5:] for fields in listed if fields[-1] == "a"] == [["2024-02-29", "23:59:59.000000000", "+0000", "a"]]
    assert out(tree, "ls -l -l /sdcard/a") == out(tree, "ls -ll /sdcard/a") != out(tree, "ls -l /sdcard/a")


def test_ls_missing_and_several_operands(tree):
    result = sh(tree, "ls /sdcard/a /nope /sdcard/sub /sdcard/DCIM")
    assert result.stderr == "ls: /nope: No such file or directory\n"
    assert result.exit_code == 1
    assert result.stdout == "/sdcard/a\n\n/sdcard/DCIM:\n\n/sdcard/sub:\ndeeper\nf\n"


def test_ls_recursive(tree):
    assert out(tree, "ls -R /sdcard/sub") == "/sdcard/sub:\ndeeper\nf\n\n/sdcard/sub/deeper:\n"


def test_ls_d_and_relative(tree):
    assert out(tree, "ls -d /sdcard/sub") == "/sdcard/sub\n"
    assert out(tree, "cd /sdcard/sub && ls") == "deeper\nf\n"


# --- cat, rm, mkdir, touch ------------------------------------------------------------------
def test_cat_messages(tree):
    assert sh(tree, "cat /sdcard/a /nope /sdcard/sub") == ShellResult(
        "hi\n", "cat: /nope: No such file or directory\ncat: /sdcard/sub: Is a directory\n", 1)
    assert sh(tree, "cat /sdcard/a/").stderr == "cat: /sdcard/a/: Not a directory\n"
    assert sh(tree, "cat", b"from stdin").stdout == "from stdin"


def test_rm(tree):
    assert sh(tree, "rm /nope") == ShellResult("", "rm: /nope: No such file or directory\n", 1)
    assert sh(tree, "rm -f /nope") == ShellResult("", "", 0)
    assert sh(tree, "rm /sdcard/sub") == ShellResult("", "rm: /sdcard/sub: Is a directory\n", 1)
    assert sh(tree, "rm -rf /sdcard/sub /sdcard/a").exit_code == 0
    assert out(tree, "ls /sdcard/") == "A\nDCIM\nDownload\nbig\n"


def test_rm_keeps_the_storage_mount_point(tree):
    result = sh(tree, "rm -rf /sdcard/")
    assert result.exit_code == 1
    assert out(tree, "ls /sdcard/") == ""
    assert sh(tree, "rm /sdcard").stderr == "rm: /sdcard: Read-only file system\n"


def test_mkdir(tree):
    assert sh(tree, "mkdir /sdcard/sub") == ShellResult("", "mkdir: '/sdcard/sub': File exists\n", 1)
    assert sh(tree, "mkdir /sdcard/x/y") == ShellResult(
        "", "mkdir: '/sdcard/x/y': No such file or directory\n", 1)
    assert sh(tree, "mkdir -p /sdcard/x/y /sdcard/sub").exit_code == 0
    assert out(tree, "ls /sdcard/x") == "y\n"


def test_touch_creates_and_stamps_with_the_device_clock(tree):
    tree.config["clock_epoch"] = T0 + 86400
    assert out(tree, "touch /sdcard/new /sdcard/a") == ""
    assert mtime(tree, "/sdcard/new") == mtime(tree, "/sdcard/a") == T0 + 86400
    assert mtime(tree, "/sdcard") == T0 + 86400
    assert sh(tree, "touch /nope/x") == ShellResult("", "touch: '/nope/x': No such file or directory\n", 1)


@pytest.mark.parametrize("command", [
    "echo x > /sdcard/w", "echo x >> /sdcard/a", "cp /sdcard/a /sdcard/w", "mkdir /sdcard/w",
    "printf x | tee /sdcard/w", "sort /sdcard/a -o /sdcard/w",
])
def test_every_write_sets_the_device_clock(tree, command):
    tree.config["clock_epoch"] = T0 + 1234
    out(tree, command)
    path = "/sdcard/a" if ">>" in command else "/sdcard/w"
    assert mtime(tree, path) == T0 + 1234


# --- cp, mv ---------------------------------------------------------------------------------
def test_cp_mv_messages(tree):
    assert sh(tree, "mv /nope /sdcard/z") == ShellResult("", "mv: bad '/nope': No such file or directory\n", 1)
    assert sh(tree, "cp /nope /sdcard/z").stderr == "cp: bad '/nope': No such file or directory\n"
    assert sh(tree, "cp /sdcard/sub /sdcard/z") == ShellResult("", "cp: Skipped dir '/sdcard/sub'\n", 1)
    assert sh(tree, "cp /sdcard/a /sdcard/big /sdcard/A").stderr == "cp: '/sdcard/A' not directory\n"
    assert sh(tree, "cp /sdcard/a").stderr == "cp: Need 2 arguments\n"


def test_cp_copies_files_and_trees(tree):
    tree.config["clock_epoch"] = T0 + 60
    out(tree, "cp /sdcard/a /sdcard/b && cp -r /sdcard/sub /sdcard/DCIM && cp /sdcard/a /sdcard/big /sdcard/Download")
    assert out(tree, "cat /sdcard/b /sdcard/DCIM/sub/f") == "hi\nyy\n"
    assert out(tree, "ls /sdcard/Download") == "a\nbig\n"
    assert mtime(tree, "/sdcard/b") == T0 + 60
    out(tree, "cp -r /sdcard/sub /sdcard/sub/deeper")  # into itself: terminates
    assert out(tree, "ls /sdcard/sub/deeper/sub") == "deeper\nf\n"


def test_cp_a_and_p_preserve_mtime(tree):
    out(tree, "touch -d @1000000000 /sdcard/a")
    tree.config["clock_epoch"] = T0 + 60
    out(tree, "cp -p /sdcard/a /sdcard/p; cp -a /sdcard/sub /sdcard/s2; cp /sdcard/a /sdcard/n")
    assert mtime(tree, "/sdcard/p") == 1000000000
    assert mtime(tree, "/sdcard/s2") == T0 and mtime(tree, "/sdcard/n") == T0 + 60


def test_mv(tree):
    out(tree, "mv /sdcard/a /sdcard/moved && mv /sdcard/moved /sdcard/sub && mv /sdcard/sub /sdcard/sub2")
    assert out(tree, "ls /sdcard/sub2") == "deeper\nf\nmoved\n"
    assert sh(tree, "mv /sdcard/A /sdcard/big /sdcard/nodir").stderr == "mv: '/sdcard/nodir' not directory\n"


# --- find -----------------------------------------------------------------------------------
def test_find_basics(tree):
    assert out(tree, "find /sdcard/sub") == "/sdcard/sub\n/sdcard/sub/deeper\n/sdcard/sub/f\n"
    assert out(tree, "find /sdcard/ -type f") == "/sdcard/.hidden\n/sdcard/A\n/sdcard/a\n/sdcard/big\n/sdcard/sub/f\n"
    assert out(tree, "find /sdcard/ -type d -name 'D*'") == "/sdcard/DCIM\n/sdcard/Download\n"
    assert out(tree, "find /sdcard/ -mindepth 1 -maxdepth 1 -type d") == (
        "/sdcard/DCIM\n/sdcard/Download\n/sdcard/sub\n")
    assert out(tree, "cd /sdcard/sub && find . -name f") == "./f\n"
    assert out(tree, "cd /sdcard && find . -maxdepth 1 -type d") == ".\n./DCIM\n./Download\n./sub\n"
    assert out(tree, "find /sdcard/ -iname 'a' -o -name big") == "/sdcard/A\n/sdcard/a\n/sdcard/big\n"
    assert out(tree, "find /sdcard/ ! -type d -size +1k") == "/sdcard/big\n"


def test_find_does_not_follow_the_sdcard_link_unless_asked(tree):
    assert out(tree, "find /sdcard -type f") == ""
    assert out(tree, "find /sdcard") == "/sdcard\n"
    assert out(tree, "find /sdcard -type l") == "/sdcard\n"
    assert out(tree, "find -H /sdcard -name f") == "/sdcard/sub/f\n"


def test_find_missing_root(tree):
    assert sh(tree, "find /nope /sdcard/sub/f") == ShellResult(
        "/sdcard/sub/f\n", "find: '/nope': No such file or directory\n", 1)


def test_find_exec_and_delete(tree):
    assert out(tree, "find /sdcard/sub -type f -exec cat {} \\;") == "yy\n"
    assert out(tree, "find /sdcard/ -name '[aA]' -exec echo X {} +") == "X /sdcard/A /sdcard/a\n"
    assert out(tree, "find /sdcard/sub -exec sh -c 'echo \"<$0>\"' {} \\;") == (
        "</sdcard/sub>\n</sdcard/sub/deeper>\n</sdcard/sub/f>\n")
    out(tree, "find /sdcard/sub -delete")
    assert sh(tree, "ls /sdcard/sub").exit_code == 1


def test_find_newer_and_mtime(tree):
    out(tree, "touch -d @1000 /sdcard/a")
    assert out(tree, "find /sdcard/ -type f -newer /sdcard/a -name '[aA]'") == "/sdcard/A\n"
    assert out(tree, "find /sdcard/ -type f -mtime +1") == "/sdcard/a\n"


# --- stat -----------------------------------------------------------------------------------
def test_stat_formats(tree):
    assert out(tree, "stat -c '%n %s %Y %X %Z %a %A %F %u %g %U %G %h' /sdcard/a /sdcard/sub /sdcard/A") == (
        f"/sdcard/a 3 {T0} {T0} {T0} 660 -rw-rw---- regular file 0 0 root root 1\n"
        f"/sdcard/sub 4096 {T0} {T0} {T0} 771 drwxrwx--x directory 0 0 root root 3\n"
        f"/sdcard/A 0 {T0} {T0} {T0} 660 -rw-rw---- regular empty file 0 0 root root 1\n")
    assert out(tree, "stat -c %y /sdcard/a") == "2023-10-15 15:34:00.000000000 +0000\n"
    assert out(tree, "stat -c '%F %N' /sdcard") == "symbolic link '/sdcard' -> '/storage/self/primary'\n"
    assert out(tree, "stat -L -c %F /sdcard") == "directory\n"
    assert out(tree, "stat -c %i /sdcard/a") == out(tree, "stat -c %i /storage/emulated/0/a")


def test_stat_missing(tree):
    assert sh(tree, "stat /nope") == ShellResult("", "stat: '/nope': No such file or directory\n", 1)


# --- wc, md5sum, head, tail -----------------------------------------------------------------
def test_wc_formats(tree):
    out(tree, "printf 'a b\\nc\\nd e f\\n' > /sdcard/w")
    assert out(tree, "wc -l /sdcard/w") == "3 /sdcard/w\n"
    assert out(tree, "wc /sdcard/w") == "3 6 12 /sdcard/w\n"
    assert out(tree, "cat /sdcard/w | wc -l") == "3\n"
    assert out(tree, "cat /sdcard/w | wc") == "      3       6      12\n"
    assert out(tree, "wc -c /sdcard/w /sdcard/a") == "     12 /sdcard/w\n      3 /sdcard/a\n     15 total\n"
    assert sh(tree, "wc /nope").stderr == "wc: /nope: No such file or directory\n"


def test_md5sum(tree):
    digest = hashlib.md5(b"hi\n").hexdigest()
    assert sh(tree, "md5sum /sdcard/a /nope") == ShellResult(
        f"{digest}  /sdcard/a\n", "md5sum: /nope: No such file or directory\n", 1)
    assert out(tree, "cat /sdcard/a | md5sum") == f"{digest}  -\n"
    assert out(tree, "sha256sum /sdcard/a") == f"{hashlib.sha256(b'hi' + bytes([10])).hexdigest()}  /sdcard/a\n"


def test_head_tail(tree):
    out(tree, "printf '1\\n2\\n3\\n4\\n' > /sdcard/n")
    assert out(tree, "head -n 2 /sdcard/n; tail -n 1 /sdcard/n; tail -n +3 /sdcard/n") == "1\n2\n4\n3\n4\n"
    assert out(tree, "head -1 /sdcard/n /sdcard/a") == "==> /sdcard/n <==\n1\n\n==> /sdcard/a <==\nhi\n"
    assert out(tree, "tail -c 2 /sdcard/n") == "4\n"


# --- grep, sort, small tools ----------------------------------------------------------------
def test_grep(tree):
    out(tree, "printf 'foo\\nbar\\nFoo bar\\n' > /sdcard/g")
    assert out(tree, "grep foo /sdcard/g") == "foo\n"
    assert out(tree, "grep -i foo /sdcard/g") == "foo\nFoo bar\n"
    assert out(tree, "grep -v o /sdcard/g") == "bar\n"
    assert out(tree, "grep -c bar /sdcard/g") == "2\n"
    assert out(tree, "grep -n 'o\\{2\\}' /sdcard/g") == "1:foo\n3:Foo bar\n"
    assert out(tree, "grep -E '^(foo|bar)$' /sdcard/g") == "foo\nbar\n"
    assert out(tree, "grep -F '.' /sdcard/g /sdcard/a || echo none") == "none\n"
    assert out(tree, "grep -x bar /sdcard/g /sdcard/a") == "/sdcard/g:bar\n"
    assert sh(tree, "grep -q zzz /sdcard/g").exit_code == 1
    assert sh(tree, "grep -q foo /sdcard/g").exit_code == 0
    assert sh(tree, "grep x /nope") == ShellResult("", "grep: /nope: No such file or directory\n", 2)


def test_sort(tree):
    assert sh(tree, "sort", b"b\nB\na\n10\n9\n").stdout == "10\n9\nB\na\nb\n"
    assert sh(tree, "sort -n", b"10\n9\n-1\n").stdout == "-1\n9\n10\n"
    assert sh(tree, "sort -u -r", b"a\nb\na\n").stdout == "b\na\n"
    assert sh(tree, "sort -t , -k 2 -n", b"x,3\ny,1\nz,2\n").stdout == "y,1\nz,2\nx,3\n"


def test_basename_dirname(tree):
    assert out(tree, "basename /a/b/c.txt .txt; basename /a/b/; dirname /a/b/c.txt; dirname c; dirname /") == (
        "c\nb\n/a/b\n.\n/\n")


def test_attribute_tools_accept_and_report_missing_files(tree):
    assert out(tree, "chmod 600 /sdcard/a; chmod -R u+rwX /sdcard/sub; chown root:root /sdcard/a; "
                     "chgrp root /sdcard/a; chcon u:object_r:media_rw_data_file:s0 /sdcard/a; "
                     "restorecon -R /sdcard/sub") == ""
    assert sh(tree, "chmod 600 /nope") == ShellResult("", "chmod: /nope: No such file or directory\n", 1)
    assert sh(tree, "restorecon /nope").stderr == "restorecon: /nope: No such file or directory\n"
    assert out(tree, "stat -c %a /sdcard/a") == "660\n"  # modes are virtual


def test_sleep_never_sleeps(tree):
    assert sh(tree, "sleep 100000") == ShellResult("", "", 0)
    assert sh(tree, "sleep abc").exit_code == 1


def test_printf(tree):
    assert out(tree, "printf '%5s|%-3s|%03d|%x|%c|%b|%%\\n' ab c 7 255 xyz 'q\\tr'") == "   ab|c  |007|ff|x|q\tr|%\n"
    assert out(tree, "printf '%s,' a b c") == "a,b,c,"
    assert out(tree, "printf 'no newline'") == "no newline"
    assert out(tree, "printf '\\101\\x42\\n'") == "AB\n"


def test_xargs(tree):
    assert sh(tree, "xargs", b"a b\nc").stdout == "a b c\n"
    assert sh(tree, "xargs -n 1 echo x", b"a b").stdout == "x a\nx b\n"
    assert sh(tree, "xargs -I{} echo [{}]", b"1\n2\n").stdout == "[1]\n[2]\n"
    assert sh(tree, "xargs -0 rm", b"/sdcard/a\0/sdcard/A\0").exit_code == 0
    assert out(tree, "ls /sdcard/") == "DCIM\nDownload\nbig\nsub\n"
    assert sh(tree, "xargs nosuch", b"x").exit_code == 127


def test_toybox_echo_for_exec(tree):
    assert out(tree, "find /sdcard/a -exec echo -e 'a\\tb' {} \\;") == "a\tb /sdcard/a\n"
    assert out(tree, "find /sdcard/a -exec echo 'a\\tb' \\;") == "a\\tb\n"


def test_unknown_option(tree):
    assert sh(tree, "ls -Q /sdcard") == ShellResult("", "ls: Unknown option 'Q'\n", 1)


# --- pure helpers ---------------------------------------------------------------------------
@settings(max_examples=80)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_quoted_glob_segments_match_only_themselves(text):
    regex = re.compile(toybox.glob_regex([(text, False)]), re.S)
    assert regex.fullmatch(text)
    assert not regex.fullmatch(text + "x")


@settings(max_examples=80)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=30))
def test_posix_regex_of_an_escaped_literal_matches_it(text):
    escaped = re.sub(r"([.\[\]\\*^$])", r"\\\1", text)  # BRE escaping
    assert re.fullmatch(toybox.posix_regex(escaped, extended=False), text)


@settings(max_examples=80)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\\%"),
                        max_size=10), max_size=4))
def test_printf_s_reproduces_arguments(args):
    data, errors = toybox.printf_format("%s\n", args)
    assert errors == []
    assert data == "".join(a + "\n" for a in (args or [""])).encode("utf-8")


def test_mode_string():
    assert toybox.mode_string(0o100660) == "-rw-rw----"
    assert toybox.mode_string(0o40771) == "drwxrwx--x"
    assert toybox.mode_string(0o104755) == "-rwsr-xr-x"


def test_parse_options():
    assert toybox.parse_options(["-rf", "a", "-n5", "--", "-x"], "rfn:") == (
        {"r": True, "f": True, "n": "5"}, ["a", "-x"])
    with pytest.raises(toybox.UsageError):
        toybox.parse_options(["-z"], "rf")
