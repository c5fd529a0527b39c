"""What a reset costs, counted, third pass (issue #37: cheaper resets): the shell lexes a line it
has met before no more (its tokens are kept by the line's text), `mkdir -p` resolves only the
folders from the deepest one that exists, and a device path with no link on its way becomes its
host path in one lookup by the kernel, not a `readlink` per folder, and a save of device.json with
nothing new to write decodes nothing."""
from __future__ import annotations

import contextlib
import os
import posixpath
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from taskkit.sim import shell, state as sim_state
from taskkit.sim.commands import toybox
from taskkit.sim.device import SimDevice
from taskkit.sim.state import SimState

# Lines and pieces of lines that meet every way a token can reach past its line, or fail to lex.
_PIECES = (
    "echo a b\n", "{ am force-stop org.tasks\n", '} || { echo "--taskkit-batch-failed 3 $?--"; exit 1; }\n',
    "if [ -e /x ]; then rm -f /x; fi\n", "echo 'one\n", "two' three\n", 'echo "a\n', 'b $X"\n',
    "echo $(echo a\n", "echo b) c # note\n", "x=$(\n", ")\n", "cat <<EOF\n", "body $X\n", "EOF\n",
    "cat <<-'E'\n", "\tq\n", "\tE\n", "echo a \\\n", "b\\\n", "c\n", "echo $((1 + \n", "2))\n",
    "echo $((3))\n", "echo $( (echo p) )\n", "echo `echo q\n", "r`\n", "case $a in\n", "x) echo x;;\n",
    "esac\n", "for p in a b; do\n", "echo $p; done\n", "echo 'unclosed\n", ") oops\n", "echo ${X:-'a\n",
    "b'}\n", "# only a comment\n", "\n", "   \n", "a && \\\n", "b\n", "echo ok;;\n", "echo >\n", "2>&1 x\n",
    "echo a&\n", "echo a &&\n", "echo b\n", "echo $(cat <<X\n", "y\n", "X\n", ")\n", "echo end",
    "echo b; echo a &&\n",  # twice running: a list that starts in a line ends in the same text's next line
)


class _Bounded(shell._Parser):
    """A parser that fails a test, rather than hang it, if it reads tokens without end."""

    taken = 0

    def _next_token(self) -> tuple:
        self.taken += 1
        assert self.taken <= 2 * len(self.s) + 10, "the parser keeps reading tokens: it loops"
        return super()._next_token()


def _parsed(source: str) -> object:
    """The parse of `source` (or its error: message and the lines run before it), uncached."""
    try:
        return _Bounded(source).parse_program()
    except shell.ShellSyntaxError as error:
        return ("error", str(error), error.done)


class _Caches(dict):
    """The kept lines' tokens (this dict) and the and-or lists parsed from them (`and_ors`)."""

    def __init__(self) -> None:
        super().__init__()
        self.and_ors: dict = {}

    def clear(self) -> None:
        super().clear()
        self.and_ors.clear()


@pytest.fixture
def line_cache(monkeypatch: pytest.MonkeyPatch) -> _Caches:
    cache = _Caches()
    monkeypatch.setattr(shell, "_LINE_TOKENS", cache)
    monkeypatch.setattr(shell, "_AND_ORS", cache.and_ors)
    return cache


def test_lines_lexed_from_the_cache_parse_as_fresh(line_cache: _Caches, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(37)
    programs = ["".join(rng.choices(_PIECES, k=rng.randint(1, 8))) for _ in range(600)]
    programs += list(_PIECES) + ["echo b; echo a &&\necho b; echo a &&\necho c\n" * 2]
    fresh = []
    for program in programs:
        line_cache.clear()
        fresh.append(_parsed(program))
    line_cache.clear()
    for _ in range(2):  # the first time fills the caches as it goes, the second reads them
        assert [_parsed(program) for program in programs] == fresh
    assert len(line_cache) > 30 and len(line_cache.and_ors) > 30  # (lines and lists were kept)
    monkeypatch.setattr(shell, "_LINE_TOKENS_MAX", 8)  # lines and lists evicted as they come: still the same
    assert [_parsed(program) for program in programs] == fresh


def _where_called(monkeypatch: pytest.MonkeyPatch, method: str) -> list[int]:
    """Where in its text the parser stood at each call of its `method` from now on."""
    where: list[int] = []
    original = getattr(shell._Parser, method)

    def counting(parser: shell._Parser) -> object:
        where.append(parser.i)
        return original(parser)

    monkeypatch.setattr(shell._Parser, method, counting)
    return where


def test_an_and_or_list_met_before_in_a_kept_line_is_not_parsed_again(line_cache: _Caches,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pipelines = _where_called(monkeypatch, "parse_pipeline")
    batch = ('{ tk_point=/restore/{label}\n[ ! -e "$tk_point/undo" ] || taskkit-changes check x >/dev/null 2>&1\n'
             'am force-stop org.tasks; rm -rf "$tk_point"\n} || { echo "--taskkit-batch-failed 0 $?--"; exit 1; }\n')
    first = _parsed(batch.replace("{label}", "Task.1"))
    counted = len(pipelines)
    del pipelines[:]
    again = _parsed(batch.replace("{label}", "Task.2"))
    # parsed again: the outer list (it begins on the new first line), that line's assignment, and
    # the failure marker's group after `||` (inside the outer list); the middle lines' lists and the
    # failure marker's own commands come from where they were kept
    assert len(pipelines) == 3 < counted
    assert repr(again) == repr(first).replace("Task.1", "Task.2")


def test_a_line_met_before_is_not_lexed_again(line_cache: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    lexed = _where_called(monkeypatch, "_lex")
    batch = ('{ for p in a b c; do if pidof "$p" >/dev/null; then am force-stop "$p"; fi; done\n'
             '} || { echo "--taskkit-batch-failed 0 $?--"; exit 1; }\n')
    _parsed("{ rm -rf /restore/Task.1\n" + batch)
    first = len(lexed)
    del lexed[:]
    _parsed("{ rm -rf /restore/Task.2\n" + batch)
    assert len(lexed) == 6 < first  # `{ rm -rf PATH`, its newline and the end of the text


@pytest.fixture
def device(module_device: SimDevice) -> SimDevice:
    """The module's one simulated device (tests/conftest.py)."""
    return module_device


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The device paths resolved to host paths from now on."""
    paths: list[str] = []
    host_path = SimState.host_path

    def counting(state: SimState, path: str, *args: object, **kwargs: object) -> Path:
        paths.append(path)
        return host_path(state, path, *args, **kwargs)

    monkeypatch.setattr(SimState, "host_path", counting)
    return paths


def test_mkdir_p_resolves_from_the_deepest_folder_that_exists(device: SimDevice, resolved: list[str]) -> None:
    device.check("mkdir -p /data/local/tmp/taskkit/restore")
    del resolved[:]
    device.check("mkdir -p /data/local/tmp/taskkit/restore/Task.1")
    # the new folder (sought, made), its parent (found, checked, stamped); was ten, one per folder on the way
    assert len(resolved) == 5
    del resolved[:]
    device.check("mkdir -p /data/local/tmp/taskkit/restore/Task.1")
    assert resolved == ["/data/local/tmp/taskkit/restore/Task.1"]


def _tree(root: Path) -> list[tuple]:
    rows = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames + filenames):
            st = os.lstat(os.path.join(dirpath, name))
            rows.append((os.path.relpath(os.path.join(dirpath, name), root), st.st_mode, st.st_mtime_ns))
    return rows


_MKDIRS = ("mkdir -p /data/local/tmp/c3/a/b/c", "mkdir -p /data/local/tmp/c3/a/b", "mkdir -p /data/local/tmp/c3/f/x/y",
           "mkdir -p /data/local/tmp/c3/link/z/w", "mkdir -p /data/local/tmp/c3/dangling/q",
           "mkdir -p /data/local/tmp/c3/loop/q", "mkdir -p c3/rel/x", "mkdir -p /data/local/tmp/c3/a/../up/x",
           "mkdir -p /system/new/x", "mkdir /data/local/tmp/c3/a/b/c/d", "mkdir -p /data/local/tmp/c3/f")


def _mkdirs(device: SimDevice) -> list[tuple]:
    device.check("rm -rf /data/local/tmp/c3 && mkdir /data/local/tmp/c3 && echo 1 > /data/local/tmp/c3/f")
    root = device.state.host_path("/data/local/tmp/c3")
    (root / "link").symlink_to("a")
    (root / "dangling").symlink_to("/data/local/tmp/c3/none")
    (root / "loop").symlink_to("loop")
    device.state.stamp(root / "link", root / "dangling", root / "loop", root)
    results = [(result.stdout, result.stderr, result.exit_code)
               for result in (device.shell(f"cd /data/local/tmp && {command}") for command in _MKDIRS)]
    return [results, _tree(root)]


def test_mkdir_p_makes_and_fails_as_a_walk_from_the_top(device: SimDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    device.check("date 010100002024.00")
    with monkeypatch.context() as patch:
        patch.setattr(toybox, "_walk_from", lambda state, steps: 0)  # the walk from the top
        before = _mkdirs(device)
    assert _mkdirs(device) == before
    assert any(code for _, _, code in before[0]) and any(not code for _, _, code in before[0])


# --- host paths: a path with no link on its way is not walked link by link ----------------------
_LINKS = ("a", "b/c", "../a", "..", "nowhere", "l1", "/a/b", "/", "f", "l2/x", "/sdcard", "b/../../..")


@st.composite
def _device_trees(draw: st.DrawFn) -> tuple:
    folders = draw(st.lists(st.lists(st.sampled_from(("a", "b", "c")), min_size=1, max_size=3), max_size=5))
    links = draw(st.dictionaries(st.sampled_from(("l1", "l2", "a/l3", "b/l1", "a/b/l2")), st.sampled_from(_LINKS),
                                 max_size=3))
    files = draw(st.lists(st.sampled_from(("f", "a/f", "b/c/f")), max_size=2))
    path = draw(st.lists(st.sampled_from(("a", "b", "c", "f", "l1", "l2", "l3", "x", ".", "..")), max_size=5))
    return folders, links, files, "/" + "/".join(path)


def _walked(state: SimState, path: str, follow: bool) -> object:
    """`host_path` as it was: every path walked link by link, then checked by the kernel."""
    norm = state.normalize(path)
    folder, name = (norm, None) if follow or norm == "/" else posixpath.split(norm)
    try:
        host = state._confined(state._resolve(state.canonical(folder)), norm)
    except OSError as error:
        return error.errno
    return host if name is None else host / name


@settings(max_examples=150, deadline=None)
@given(_device_trees(), st.booleans())
def test_a_host_path_is_what_the_walk_finds(tree: tuple, follow: bool) -> None:
    folders, links, files, path = tree
    with tempfile.TemporaryDirectory() as root:
        state = SimState(root)
        fs = state.fs_root
        for parts in folders:
            os.makedirs(fs.joinpath(*parts), exist_ok=True)
        for name in files:
            with contextlib.suppress(OSError):
                fs.joinpath(name).write_text("")
        for name, target in links.items():
            with contextlib.suppress(OSError):
                os.symlink(target, fs / name)
        try:
            found: object = state.host_path(path, follow=follow)
        except OSError as error:
            found = error.errno
        assert found == _walked(state, path, follow)


def test_a_path_without_links_is_resolved_in_one_lookup(device: SimDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    readlinks: list[str] = []
    readlink = os.readlink

    def counting(path: str, *args: object, **kwargs: object) -> str:
        readlinks.append(os.fspath(path))
        return readlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "readlink", counting)
    device.state.host_path("/data/data/org.tasks/databases/database")
    assert len(readlinks) == 1  # the kernel's answer (/proc/self/fd); was one a folder on the way, and that
    del readlinks[:]
    assert device.state.host_path("/sdcard/Download") == device.state.fs_root / "data/media/0/Download"
    assert len(readlinks) == 1


# --- device.json: a save with nothing new reads nothing back --------------------------------------
def test_a_save_with_nothing_new_decodes_nothing_and_sees_other_views(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    mine, other = SimState(tmp_path), SimState(tmp_path)
    mine.save()
    mine.save()  # (the first save after a write reads its version back)
    decoded: list[object] = []
    data = sim_state._data
    monkeypatch.setattr(sim_state, "_data", lambda version: decoded.append(version) or data(version))
    for _ in range(3):
        mine.save()
    assert decoded == []  # was one decoding (and a copy) each time
    other.config["foreground"] = "org.tasks/.Main"  # another view writes behind this one's back
    other.save()
    mine.save()
    assert mine.config["foreground"] == "org.tasks/.Main" and len(decoded) == 2  # its save, then this one
    mine.config["props"]["x"] = "1"  # then this view's own change is written, as before
    mine.save()
    mine.save()
    assert SimState(tmp_path).config == mine.config == {**other.config, "props": {"x": "1"}}


def test_the_sqlite3_cli_resolves_its_database_once(device: SimDevice, resolved: list[str]) -> None:
    database = "/data/data/org.tasks/databases/database"
    assert device.check(f"sqlite3 {database} 'SELECT 1'") == "1\n"
    assert resolved.count(database) == 1  # was twice: when the command began and when it opened the file
