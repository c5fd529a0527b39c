"""The simulator's mksh subset: quoting, expansion, control flow, redirections, builtins."""
from __future__ import annotations

import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from taskkit.device.quoting import shell_quote
from taskkit.sim import shell
from taskkit.device.reference import DEVICE_EPOCH
from taskkit.sim.state import SimState

SH = "/system/bin/sh"
STORAGE_LINKS = {  # as the factory image lays them out
    "sdcard": "storage/self/primary",
    "storage/self/primary": "../emulated/0",
    "storage/emulated/0": "../../data/media/0",
}


def make_bare_state(root: os.PathLike) -> SimState:
    """A minimal device: shared storage (with its links), /data/local/tmp, /data/data."""
    state = SimState(root)
    state.fs_root.mkdir(parents=True)
    for path in ("data/media/0/DCIM", "data/media/0/Download", "data/local/tmp", "data/data",
                 "storage/self", "storage/emulated"):
        (state.fs_root / path).mkdir(parents=True, exist_ok=True)
    for link, target in STORAGE_LINKS.items():
        os.symlink(target, state.fs_root / link)
    t = state.clock_epoch
    for dirpath, dirnames, filenames in os.walk(state.fs_root):
        for name in dirnames + filenames:
            os.utime(os.path.join(dirpath, name), (t, t), follow_symlinks=False)
        os.utime(dirpath, (t, t))
    return state


@pytest.fixture
def bare_state(tmp_path) -> SimState:
    return make_bare_state(tmp_path / "dev")


def sh(state: SimState, command: str, stdin: bytes = b""):
    return shell.run(state, command, stdin)


def out(state: SimState, command: str) -> str:
    result = sh(state, command)
    assert result.exit_code == 0, result
    return result.stdout


# --- quoting --------------------------------------------------------------------------------
def test_single_quotes_keep_everything_literal(bare_state):
    assert out(bare_state, "printf %s 'a $X `x` $(y) \\ \" \n ;&|'") == 'a $X `x` $(y) \\ " \n ;&|'


def test_double_quotes_expand_and_unescape(bare_state):
    result = out(bare_state, 'X=v; printf %s "[$X] [${X}] [$?] [$(echo s)] [`echo b`] \\$ \\" \\\\ \\` \\n"')
    assert result == '[v] [v] [0] [s] [b] $ " \\ ` \\n'


@pytest.mark.parametrize("command, expected", [
    ('set --; for a in "$@"; do printf "[%s]" "$a"; done; echo', "\n"),  # no parameters: no field
    ('set -- ""; for a in "$@"; do printf "[%s]" "$a"; done; echo', "[]\n"),
    ('set -- a "b c"; for a in "x$@"; do printf "[%s]" "$a"; done; echo', "[xa][b c]\n"),
    ('p=; printf "[%s]" "$p" x; echo', "[][x]\n"),  # an empty quoted expansion is one empty field
    ('x=""; printf "[%s]" $x"" "$x"$x y; echo', "[][][y]\n"),
    ('x=" b"; set -- ""$x"c"; printf "[%s]" "$@"; echo', "[][bc]\n"),  # the "" keeps the first field
    ('if"" 2>/dev/null; echo $?', "127\n"),  # a quoted keyword is a command name
])
def test_empty_quotes_make_a_field_only_where_nothing_else_does(bare_state, command, expected):
    assert sh(bare_state, command).stdout == expected


def test_backslash_outside_quotes_and_line_continuation(bare_state):
    assert out(bare_state, "printf %s a\\ b\\;c\\$X") == "a b;c$X"
    assert out(bare_state, "echo a\\\nb") == "ab\n"


def test_comments_and_separators(bare_state):
    assert out(bare_state, "echo a # echo b\necho c;echo d # ; echo e") == "a\nc\nd\n"
    assert out(bare_state, "echo a#b") == "a#b\n"


def test_unclosed_quote_is_a_syntax_error(bare_state):
    result = sh(bare_state, "echo 'abc")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{SH}: syntax error: ")
    assert result.stderr.count("\n") == 1


def test_syntax_error_runs_complete_lines_before_it(bare_state):
    result = sh(bare_state, "echo first\necho second; fi")
    assert result.stdout == "first\n"
    assert result.stderr == f"{SH}: syntax error: 'fi' unexpected\n"
    assert result.exit_code == 1


# --- statuses, && || pipes ------------------------------------------------------------------
def test_exit_status_and_logic(bare_state):
    assert out(bare_state, "false; echo $?; true; echo $?") == "1\n0\n"
    assert out(bare_state, "false && echo no || echo yes") == "yes\n"
    assert out(bare_state, "true && echo a && false || echo b") == "a\nb\n"
    assert sh(bare_state, "true | false").exit_code == 1
    assert sh(bare_state, "false | true").exit_code == 0
    assert sh(bare_state, "! true").exit_code == 1


def test_pipe_feeds_stdin(bare_state):
    assert out(bare_state, "printf 'b\\na\\nc\\n' | sort | head -n 2") == "a\nb\n"


def test_unknown_command(bare_state):
    result = sh(bare_state, "frobnicate --now")
    assert result == shell.ShellResult("", f"{SH}: frobnicate: inaccessible or not found\n", 127)


def test_commands_by_path(bare_state):
    assert out(bare_state, "/system/bin/echo hi; /system/bin/ls /sdcard/") == "hi\nDCIM\nDownload\n"
    assert sh(bare_state, "/nope/ls").exit_code == 127


def test_exit(bare_state):
    result = sh(bare_state, "echo a; exit 3; echo b")
    assert (result.stdout, result.exit_code) == ("a\n", 3)
    assert out(bare_state, "(exit 4); echo $?") == "4\n"
    assert out(bare_state, "x=$(exit 5); echo $?") == "5\n"


# --- redirections ---------------------------------------------------------------------------
def test_redirect_create_append_read(bare_state):
    assert out(bare_state, "echo one > /sdcard/f; echo two >> /sdcard/f; cat < /sdcard/f") == "one\ntwo\n"
    assert out(bare_state, "echo three > /sdcard/f; cat /sdcard/f") == "three\n"


def test_redirect_stderr(bare_state):
    result = sh(bare_state, "cat /nope 2>/dev/null; echo x >/dev/null")
    assert (result.stdout, result.stderr) == ("", "")
    result = sh(bare_state, "cat /nope 2>&1")
    assert (result.stdout, result.stderr) == ("cat: /nope: No such file or directory\n", "")
    result = sh(bare_state, "cat /nope 2>/sdcard/err; cat /sdcard/err")
    assert result.stdout == "cat: /nope: No such file or directory\n"


def test_redirect_order_matters(bare_state):
    result = sh(bare_state, "cat /nope 2>&1 >/dev/null")
    assert (result.stdout, result.stderr) == ("cat: /nope: No such file or directory\n", "")
    result = sh(bare_state, "cat /nope >/dev/null 2>&1")
    assert (result.stdout, result.stderr) == ("", "")


def test_redirect_errors_as_mksh(bare_state):
    result = sh(bare_state, "echo x > /nope/f")
    assert result == shell.ShellResult("", f"{SH}: can't create /nope/f: No such file or directory\n", 1)
    result = sh(bare_state, "cat < /nope")
    assert result == shell.ShellResult("", f"{SH}: can't open /nope: No such file or directory\n", 1)
    result = sh(bare_state, "echo x > /sdcard/DCIM")
    assert result.stderr == f"{SH}: can't create /sdcard/DCIM: Is a directory\n"


def test_redirect_error_goes_to_the_stderr_in_effect(bare_state):
    assert sh(bare_state, "cat 2>/dev/null < /nope") == shell.ShellResult("", "", 1)
    assert sh(bare_state, "cat < /nope 2>/dev/null").stderr == f"{SH}: can't open /nope: No such file or directory\n"
    assert out(bare_state, "cat 2>/sdcard/e < /nope; cat /sdcard/e") == f"{SH}: can't open /nope: No such file or directory\n"


def test_redirect_truncates_before_the_command_runs(bare_state):
    result = sh(bare_state, "nosuchcmd > /sdcard/made")
    assert result.exit_code == 127
    assert (bare_state.host_path("/sdcard/made")).read_bytes() == b""


def test_redirected_file_gets_the_device_clock(bare_state):
    bare_state.config["clock_epoch"] = DEVICE_EPOCH + 3600
    sh(bare_state, "echo x > /sdcard/t")
    assert os.stat(bare_state.host_path("/sdcard/t")).st_mtime == DEVICE_EPOCH + 3600
    assert os.stat(bare_state.host_path("/sdcard")).st_mtime == DEVICE_EPOCH + 3600


def test_here_documents(bare_state):
    assert out(bare_state, "X=1; cat <<EOF\na $X\n\tb\nEOF\necho after") == "a 1\n\tb\nafter\n"
    assert out(bare_state, "cat <<'EOF'\n$X `x`\nEOF") == "$X `x`\n"
    assert out(bare_state, "cat <<-EOF\n\t\tindented\n\tEOF") == "indented\n"


# --- variables and expansion ----------------------------------------------------------------
def test_variables(bare_state):
    assert out(bare_state, "X=1; Y=\"a b\"; echo $X $Y; echo ${#Y}") == "1 a b\n3\n"
    assert out(bare_state, "echo ${U:-d} ${U-e} [${U:+f}] ${U:=g} $U; X=; echo [${X:-h}] [${X-i}]") == "d e [] g g\n[h] []\n"
    assert out(bare_state, "P=/a/b/c.txt; echo ${P##*/} ${P%.txt} ${P#/a} ${P%%/*}x") == "c.txt /a/b/c /b/c.txt x\n"


def test_double_quotes_around_a_trim_leave_its_pattern_a_pattern(bare_state):
    """POSIX XCU 2.6.2: the enclosing double quotes do not quote the pattern of #, ##, % and %%
    (quotes inside the braces do); the word of :- stays quoted. As dash prints."""
    assert out(bare_state, 'P=/a/b/c.txt; echo "${P##*/}" "${P%/*}" "${P#/*/}"') == "c.txt /a/b b/c.txt\n"
    assert out(bare_state, 'X="a*c"; echo "${X#a\\*}" "${X#"a*"}" "${X%\\*c}"; Y=; echo "${Y:-*}"') == "c c a\n*\n"


def test_prefix_assignment_reaches_the_command_only(bare_state):
    assert out(bare_state, "X=1 sh -c 'echo $X'; echo [$X]") == "1\n[]\n"
    assert out(bare_state, "export Y=2; sh -c 'echo $Y'") == "2\n"
    assert out(bare_state, "Z=3; sh -c 'echo [$Z]'; export Z; sh -c 'echo [$Z]'; Z=4 sh -c 'echo [$Z]'") == "[]\n[3]\n[4]\n"


def test_field_splitting_and_empty_fields(bare_state):
    assert out(bare_state, "X='a  b'; printf '<%s>' $X \"$X\" '' $U") == "<a><b><a  b><>"


def test_command_substitution_really_executes(bare_state):
    assert out(bare_state, "echo $(touch /sdcard/c1; echo ok) `touch /sdcard/c2; echo ok2`") == "ok ok2\n"
    assert bare_state.host_path("/sdcard/c1").exists() and bare_state.host_path("/sdcard/c2").exists()
    assert out(bare_state, "echo \"$(printf 'a\\n\\n')\"x $(echo $(echo nested))") == "ax nested\n"


def test_arithmetic(bare_state):
    assert out(bare_state, "N=5; echo $((N * 2 + 1)) $(( (1 + 2) * 3 )) $((7 / 2)) $((7 % 3)) $((1 < 2))") == "11 9 3 1 1\n"


def test_globbing_is_sorted_and_quoted_patterns_are_literal(bare_state):
    sh(bare_state, "cd /sdcard && touch b.txt a.txt .h.txt c.log")
    assert out(bare_state, "cd /sdcard && echo *.txt") == "a.txt b.txt\n"
    assert out(bare_state, "echo /sdcard/*.txt") == "/sdcard/a.txt /sdcard/b.txt\n"
    assert out(bare_state, "echo '/sdcard/*.txt' /sdcard/*.none") == "/sdcard/*.txt /sdcard/*.none\n"
    assert out(bare_state, "echo /sdcard/[ab].txt /sdcard/?.log") == "/sdcard/a.txt /sdcard/b.txt /sdcard/c.log\n"


_NAMES = ("[", "a[", "[a]", "a", "b", "[[", "a]", ".[", "[.")  # the files of the folder globbed in


@pytest.fixture(scope="module")
def globbing_folder(tmp_path_factory) -> shell._Ctx:
    state = make_bare_state(tmp_path_factory.mktemp("glob") / "dev")
    sh(state, "mkdir -p /sdcard/g/a && cd /sdcard/g && touch 'a/[' " + " ".join(shell_quote(n) for n in _NAMES[:-1]))
    ctx = shell._Ctx(state)
    ctx.cwd = "/sdcard/g"
    return ctx


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text("a[]*?/.", min_size=1, max_size=4), st.booleans()), min_size=1, max_size=4))
@example([("a//[", True)])  # a path globs to its folders joined again: a/[
@example([("[", True), ("a]", False)])  # a quoted `]` still closes the bracket
def test_a_field_that_is_no_pattern_globs_to_its_own_text(globbing_folder, field):
    # a field with an unquoted glob character that `_globs` lets through without listing a folder:
    # what listing it would give
    if any(unquoted and set(text) & set("*?[") for text, unquoted in field) and not shell._globs(field):
        assert shell._glob(field, globbing_folder) == ["".join(text for text, _ in field)]


def test_the_test_command_lists_no_folder(bare_state, monkeypatch):
    sh(bare_state, "touch /sdcard/Download/[")
    listed, listdir = [], os.listdir
    monkeypatch.setattr(shell.os, "listdir", lambda path: listed.append(path) or listdir(path))
    assert out(bare_state, "cd /sdcard/Download && [ -e x ] || echo [ a[ ") == "[ a[\n"
    assert listed == []
    assert out(bare_state, "cd /sdcard/Download && echo [[] *") == "[ [\n"  # a pattern still globs
    assert listed


# --- builtins -------------------------------------------------------------------------------
@pytest.mark.parametrize("command, expected", [
    ("echo a b", "a b\n"),
    ("echo -n a", "a"),
    ("echo 'a\\tb\\nc'", "a\tb\nc\n"),
    ("echo -E 'a\\tb'", "a\\tb\n"),
    ("echo -ne 'x\\0101'", "xA"),
    ("echo -nq x", "-nq x\n"),
    ("echo - x", "- x\n"),
    ("echo 'a\\cb'", "ab"),
    ("echo", "\n"),
])
def test_echo_as_mksh(bare_state, command, expected):
    assert out(bare_state, command) == expected


def test_cd_and_pwd(bare_state):
    assert out(bare_state, "pwd; cd /sdcard/DCIM; pwd; cd ..; pwd; cd; pwd") == "/\n/sdcard/DCIM\n/sdcard\n/\n"
    result = sh(bare_state, "cd /nope")
    assert result == shell.ShellResult("", f"{SH}: cd: /nope: No such file or directory\n", 2)


@pytest.mark.parametrize("expression, status", [
    ("-e /sdcard/DCIM", 0), ("-d /sdcard/DCIM", 0), ("-f /sdcard/DCIM", 1), ("-e /nope", 1),
    ("-f /sdcard/f", 0), ("-s /sdcard/f", 0), ("-s /sdcard/empty", 1), ("-h /sdcard", 0),
    ("-z ''", 0), ("-n ''", 1), ("-n x", 0), ("a = a", 0), ("a != a", 1), ("2 -eq 2", 0),
    ("2 -ne 2", 1), ("1 -lt 2", 0), ("3 -gt 2", 0), ("! -e /nope", 0), ("x", 0), ("''", 1),
    ("-e /sdcard/f -a -d /sdcard", 0), ("-e /nope -o -d /sdcard", 0), ("( 1 -ge 2 )", 1),
])
def test_test_builtin(bare_state, expression, status):
    sh(bare_state, "echo x > /sdcard/f; touch /sdcard/empty")
    assert sh(bare_state, f"test {expression}").exit_code == status
    assert sh(bare_state, f"[ {expression} ]").exit_code == status


def test_test_errors(bare_state):
    assert sh(bare_state, "[ 1 -eq 1").stderr == f"{SH}: [: missing ]\n"
    result = sh(bare_state, "[ a -eq 1 ]")
    assert (result.exit_code, result.stderr) == (2, f"{SH}: [: a: bad number\n")


def test_control_flow(bare_state):
    assert out(bare_state, "if false; then echo a; elif true; then echo b; else echo c; fi") == "b\n"
    assert out(bare_state, "for x in 1 2 3; do [ $x = 2 ] && continue; echo $x; done") == "1\n3\n"
    assert out(bare_state, "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i") == "3\n"
    assert out(bare_state, "until true; do echo never; done; echo end") == "end\n"
    assert out(bare_state, "for f in a b; do for g in 1 2; do echo $f$g; break 2; done; done") == "a1\n"
    assert out(bare_state, "case x.txt in *.jpg) echo j;; *.txt|*.md) echo t;; esac") == "t\n"
    assert out(bare_state, "{ echo a; echo b; } | wc -l") == "2\n"
    assert out(bare_state, "X=1; (X=2; cd /sdcard); echo $X; pwd") == "1\n/\n"


def test_read_loop(bare_state):
    result = sh(bare_state, "while read -r a b; do echo \"[$a|$b]\"; done", b"1 2 3\nx\n")
    assert result.stdout == "[1|2 3]\n[x|]\n"


def test_runaway_loops_are_stopped(bare_state):
    result = sh(bare_state, "while true; do :; done; echo unreachable")
    assert result.exit_code == 1 and "loop limit" in result.stderr and result.stdout == ""


def test_sh_c_and_positional_parameters(bare_state):
    assert out(bare_state, "sh -c 'echo $0 $# $1 \"$@\"' name a 'b c'") == "name 2 a a b c\n"
    assert out(bare_state, "echo 'echo from stdin' | sh") == "from stdin\n"
    assert sh(bare_state, "sh -c 'exit 7'").exit_code == 7


def test_su_runs_as_root(bare_state):
    bare_state.config["is_root"] = False
    assert out(bare_state, "whoami; su 0 whoami; su root sh -c 'whoami'; whoami") == "shell\nroot\nroot\nshell\n"
    assert sh(bare_state, "su -c id") == shell.ShellResult("", "su: invalid uid/gid '-c'\n", 1)
    assert sh(bare_state, "su 0 nosuch").stderr == "su: failed to exec nosuch: No such file or directory\n"


def test_eval_and_exec(bare_state):
    assert out(bare_state, "X='echo hi'; eval \"$X; echo there\"") == "hi\nthere\n"
    result = sh(bare_state, "exec sh -c 'exit 9'; echo no")
    assert (result.stdout, result.exit_code) == ("", 9)


# --- quoting round trips and injection canaries ----------------------------------------------
TRICKY = ["'", '"', "$(", ")", "`", ";", "&&", "||", "|", "\n", "\\", "$?", "${X}", "$X", "*",
          "?", "[a]", "~", "#", " ", "\t", "\r", "\x1b", "\x7f", "\x01", "\u202e", "e\u0301",
          "\U0001F600", ">", "<", "&", "!", "{", "}", "%s", "%", "-n", "\u05d0\u05d1", "'\\''"]
text_strategy = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=60),
    st.lists(st.sampled_from(TRICKY), max_size=25).map("".join),
)


@settings(max_examples=60)
@given(text_strategy)
def test_quoted_text_round_trips_through_printf_and_a_file(tmp_path_factory, text):
    state = make_bare_state(tmp_path_factory.mktemp("dev"))
    result = sh(state, f"printf %s {shell_quote(text)} > /sdcard/f; cat /sdcard/f")
    assert result.stdout == text and result.exit_code == 0
    assert not state.host_path("/sdcard/canary").exists()


@settings(max_examples=60)
@given(text_strategy.filter(lambda t: "\\" not in t and not t.startswith("-")))
def test_quoted_text_round_trips_through_echo(tmp_path_factory, text):
    # mksh's echo expands backslash escapes and reads leading -n/-e/-E: those are excluded.
    state = make_bare_state(tmp_path_factory.mktemp("dev"))
    assert sh(state, f"echo {shell_quote(text)}").stdout == text + "\n"


_quote_piece = st.one_of(
    st.text(st.sampled_from("ab'\\\n $\"`"), max_size=6).map(lambda t: ("'" + t.replace("'", "") + "'", t.replace("'", ""))),
    st.sampled_from("'\\ab$\"`;").map(lambda c: ("\\" + c, c)),
)


@settings(max_examples=200)
@given(st.lists(_quote_piece, min_size=1, max_size=12))
def test_any_run_of_single_quotes_and_escapes_is_one_word(tmp_path_factory, pieces) -> None:
    # the lexer reads a run of '...' and \' in one match: any mix of them, not only shell_quote's
    state = make_bare_state(tmp_path_factory.mktemp("dev"))
    result = sh(state, "printf %s " + "".join(code for code, _ in pieces))
    assert result.stdout == "".join(text for _, text in pieces) and result.exit_code == 0


def test_long_text_round_trips(bare_state):
    text = ("line 'q' \"d\" $(x) `y` ; && \u202e\U0001F600\n" * 4000)
    assert out(bare_state, f"printf %s {shell_quote(text)} | cat") == text


INJECTIONS = [
    "$(touch /sdcard/canary)", "`touch /sdcard/canary`", "; touch /sdcard/canary",
    "&& touch /sdcard/canary", "| touch /sdcard/canary", "\ntouch /sdcard/canary",
    "x & touch /sdcard/canary", "$(touch${IFS}/sdcard/canary)", "\"$(touch /sdcard/canary)\"",
]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_canary(tmp_path, payload):
    canary = "/sdcard/canary"
    quoted = make_bare_state(tmp_path / "quoted")
    result = sh(quoted, f"echo {shell_quote(payload)}")
    assert result.stdout == payload + "\n"
    assert not quoted.host_path(canary).exists()
    # The same text unquoted does run the command: the check above can fail.
    unquoted = make_bare_state(tmp_path / "unquoted")
    sh(unquoted, f"echo {payload}")
    assert unquoted.host_path(canary).exists()


@pytest.mark.parametrize("payload", ["'; touch /sdcard/canary; '", "'$(touch /sdcard/canary)'"])
def test_quote_breaking_payloads(tmp_path, payload):
    safe = make_bare_state(tmp_path / "safe")
    assert sh(safe, f"echo {shell_quote(payload)}").stdout == payload + "\n"
    assert not safe.host_path("/sdcard/canary").exists()
    naive = make_bare_state(tmp_path / "naive")  # wrapping in '...' without escaping breaks
    sh(naive, f"echo '{payload}'")
    assert naive.host_path("/sdcard/canary").exists()


def test_parse_cache_and_speed_budget(bare_state):
    # Not a timing assertion: many commands must not re-parse or re-import anything.
    before = shell.parse.cache_info().hits
    for _ in range(50):
        sh(bare_state, "echo x > /sdcard/f && cat /sdcard/f | wc -l")
    assert shell.parse.cache_info().hits >= before + 49
