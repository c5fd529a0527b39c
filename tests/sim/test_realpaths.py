"""taskkit.sim.realpaths answers what `os.path.realpath` answers, on generated trees of folders,
files and links (relative, absolute, dangling, looping, through `..`), for paths through them,
and still does with its answers kept through a command while the tree changes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from taskkit.sim import audit_events
from taskkit.sim.realpaths import real_path

NAMES = ("a", "b", "c", "f", "l1", "l2", "l3", "x")
TARGETS = ("a", "b/c", "../a", "..", "nowhere", "l1", "a/b/../c", "l2/x", "f", "/", "ROOT/c", "ROOT/l2")
_components = st.sampled_from((*NAMES, ".", ".."))


@st.composite
def trees(draw):
    folders = draw(st.lists(st.lists(st.sampled_from(("a", "b", "c")), min_size=1, max_size=3), max_size=6))
    links = draw(st.dictionaries(st.sampled_from(("l1", "l2", "a/l3", "b/l1", "a/b/l2")), st.sampled_from(TARGETS)))
    files = draw(st.lists(st.sampled_from(("f", "a/f", "b/c/f")), max_size=2))
    path = draw(st.lists(_components, max_size=6))
    return folders, links, files, path


def _build(root: str, folders, links, files) -> None:
    for parts in folders:
        os.makedirs(os.path.join(root, *parts), exist_ok=True)
    for name in files:
        try:
            open(os.path.join(root, name), "w").close()
        except OSError:
            pass
    for name, target in links.items():
        try:
            os.symlink(target.replace("ROOT", root), os.path.join(root, name))
        except OSError:  # its folder is missing or a file, or the name is taken
            pass


@settings(max_examples=400, deadline=None)
@given(trees(), st.booleans())
def test_the_kernels_answer_is_realpaths(tree, follow: bool) -> None:
    folders, links, files, parts = tree
    with tempfile.TemporaryDirectory() as root:
        root = os.path.realpath(root)
        _build(root, folders, links, files)
        path = os.path.join(root, *parts)
        folder, name = os.path.split(path)
        expected = (os.path.realpath(path) if follow or name in ("", ".", "..")
                    else os.path.join(os.path.realpath(folder), name))
        assert real_path(path, follow) == expected


def test_a_dangling_link_resolves_to_where_a_create_would_land(tmp_path) -> None:
    """open(O_CREAT) follows a dangling link, so the sandbox must see its target, not its name."""
    outside = tmp_path / "outside"
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "link").symlink_to(outside)
    assert real_path(str(tmp_path / "inside" / "link")) == os.path.realpath(outside)
    assert real_path(str(tmp_path / "inside" / "link"), follow=False) == os.path.realpath(tmp_path / "inside") + "/link"


_OPS = st.sampled_from(("mkdir", "file", "symlink", "remove", "rmdir", "rmtree", "rename"))
_KEPT_NAMES = ("a", "b", "l1", "f")
_WHERE = st.lists(st.sampled_from(_KEPT_NAMES), min_size=1, max_size=2)
_KEPT_TARGETS = ("a", "b", "../a", "..", "nowhere", "l1", "f", "a/b", "/", "ROOT/b", "ROOT/a/l1")
# every path of one or two components from the names the changes use (and ..): each is asked again
# after each change, so an answer kept too long is found
_ASKED = [(first,) for first in (*_KEPT_NAMES, "..")] + \
    [(first, second) for first in (*_KEPT_NAMES, "..") for second in (*_KEPT_NAMES, "..")]


def _expected(path: str, follow: bool) -> str:
    folder, name = os.path.split(path)
    if follow or name in ("", ".", ".."):
        return os.path.realpath(path)
    return os.path.join(os.path.realpath(folder), name)


def _apply(root: str, op: str, where: list[str], other: list[str], target: str) -> None:
    """One change to the tree, through the os and shutil calls (and so the audit events) the
    simulated device's commands use; one that fails changes nothing."""
    path, second = os.path.join(root, *where), os.path.join(root, *other)
    try:
        if op == "mkdir":
            os.mkdir(path)
        elif op == "file":
            open(path, "w").close()
        elif op == "symlink":
            os.symlink(target.replace("ROOT", root), path)
        elif op == "remove":
            os.remove(path)
        elif op == "rmdir":
            os.rmdir(path)
        elif op == "rmtree":
            shutil.rmtree(path)
        elif op == "rename":
            os.rename(path, second)
    except OSError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_OPS, _WHERE, _WHERE, st.sampled_from(_KEPT_TARGETS)), max_size=14),
       st.sampled_from([(True, False), (False, True)]))
def test_answers_kept_within_a_command_are_the_kernels_after_any_change(program, order) -> None:
    """Inside one command, real_path keeps its answers (taskkit.sim.realpaths.KeptAnswers): after
    each folder, file or link made, removed or moved (a tree too), every answer is still what
    realpath says at that moment, followed or not."""
    with tempfile.TemporaryDirectory() as root:
        root = os.path.realpath(root)
        _build(root, [["a", "b"], ["b"]], {"l1": "b", "a/l1": "../f", "b/l1": "ROOT/a", "a/b/l1": ".."}, ["f", "a/f"])
        paths = [os.path.join(root, *parts) for parts in _ASKED]
        with audit_events.kept_real_paths():
            for step in program:
                _apply(root, *step)
                for path in paths:
                    for follow in order:
                        assert real_path(path, follow) == _expected(path, follow), (step, path, follow)


_RACE = r'''
import os, sys, tempfile, threading
from taskkit.sim import audit_events, realpaths
root = os.path.realpath(tempfile.mkdtemp())
os.mkdir(os.path.join(root, "elsewhere"))
path = os.path.join(root, "link", "x")
window, asked = threading.Event(), threading.Event()
answers = []

def between_hook_and_call(event, args):  # added after taskkit's hook: runs once its listeners are done
    if event == "os.symlink" and not window.is_set():
        window.set()
        asked.wait(10)

def other_thread():
    with audit_events.kept_real_paths():
        window.wait(10)
        answers.append(realpaths.real_path(path))  # asked while the link is being made
        asked.set()
        made.wait(10)
        answers.append(realpaths.real_path(path))  # asked after it was made, in the same command

made = threading.Event()
audit_events.kept_real_paths()  # the hook, installed
sys.addaudithook(between_hook_and_call)
thread = threading.Thread(target=other_thread)
thread.start()
os.symlink("elsewhere", os.path.join(root, "link"))
made.set()
thread.join(10)
print(answers[0] == os.path.join(root, "link", "x"), answers[1] == os.path.join(root, "elsewhere", "x"))
'''


def test_an_answer_found_while_another_thread_makes_a_link_is_not_kept() -> None:
    """A link's audit event comes before its system call: an answer another thread finds in
    between is the old one, and must not be kept for the rest of that thread's command (run in a
    process of its own: an audit hook cannot be removed)."""
    done = subprocess.run([sys.executable, "-c", _RACE], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
