"""The side-effect check's files: every way the simulated device writes is seen by its recorder
(shell redirections, the toybox tools, push, sqlite3 with ATTACH and VACUUM INTO, content
providers, the GUI), its answers match a full listing's, its work follows what changed (files
hashed counted, not timed), and the `find -newer` method other devices use."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from taskkit import loading, registry, side_effects, suite
from taskkit.apps import joplin
from taskkit.device.base import CommandFailed
from taskkit.device.services import changes
from taskkit.device.state import DIGEST_ROOTS, listing, recover
from taskkit.env import Env
from taskkit.sim import audit_events, changes as recorder_lib
from tests.device.test_adb_device import requires_adb, served_adb_device
from tests.sim.gui.helpers import tap

DL = "/storage/emulated/0/Download"
OLD = f"{DL}/old.txt"  # made before the watch starts
DRAW = "am start -n com.simplemobiletools.draw.pro/.activities.MainActivity"


@pytest.fixture
def watched(env):
    """ExpenseAddSingle initialized with /sdcard/Download/old.txt (and a folder) on the device."""
    loading.load_builtin()
    task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, 0).create()
    task.initialize_state(env)
    env.device.check(f"echo old > {OLD} && mkdir -p {DL}/dir && echo in > {DL}/dir/in.txt")
    yield task
    task.teardown(env)


def _gui_save(device) -> None:
    device.check(DRAW)
    device.check("input swipe 200 800 900 1400 300")
    tap(device, "menu_save")
    tap(device, "OK")


# (what the agent does, a side effect it must leave)
WRITES = {
    "redirection": (lambda d: d.check(f"echo new > {DL}/r.txt"), f"file {DL}/r.txt: added"),
    "append": (lambda d: d.check(f"echo more >> {OLD}"), f"file {OLD}: changed"),
    "cp": (lambda d: d.check(f"cp {OLD} {DL}/c.txt"), f"file {DL}/c.txt: added"),
    "cp onto": (lambda d: d.check(f"cp {DL}/dir/in.txt {OLD}"), f"file {OLD}: changed"),
    "mv": (lambda d: d.check(f"mv {OLD} /sdcard/Documents/m.txt"), f"file {OLD}: removed"),
    "mv folder": (lambda d: d.check(f"mv {DL}/dir /sdcard/Documents/dir"),
                  "file /storage/emulated/0/Documents/dir/in.txt: added"),
    "rm": (lambda d: d.check(f"rm {OLD}"), f"file {OLD}: removed"),
    "rm -r": (lambda d: d.check(f"rm -r {DL}/dir"), f"file {DL}/dir/in.txt: removed"),
    "mkdir": (lambda d: d.check("mkdir -p /data/local/tmp/a/b"), "folder /data/local/tmp/a/b: added"),
    "touch": (lambda d: d.check(f"touch {DL}/t"), f"file {DL}/t: added"),
    "find -delete": (lambda d: d.check(f"find {DL}/dir -name in.txt -delete"), f"file {DL}/dir/in.txt: removed"),
    "push": (lambda d: d.push(b"pushed", f"{DL}/p.bin"), f"file {DL}/p.bin: added"),
    "sqlite3 on another app's database": (
        lambda d: d.check(f"sqlite3 {joplin.DB_PATH} 'CREATE TABLE stray(x)'"),
        f"file {joplin.DB_PATH}: changed"),
    "sqlite3 ATTACH": (
        lambda d: d.check("sqlite3 /data/local/tmp/a.db \"ATTACH '/data/local/tmp/b.db' AS b; CREATE TABLE b.t(x)\""),
        "file /data/local/tmp/b.db: added"),
    "sqlite3 VACUUM INTO": (
        lambda d: d.check("sqlite3 /data/local/tmp/a.db \"CREATE TABLE t(x); VACUUM INTO '/data/local/tmp/v.db'\""),
        "file /data/local/tmp/v.db: added"),
    "content provider": (
        lambda d: d.check("content insert --uri content://sms/inbox --bind address:s:5550100 --bind body:s:hi"),
        "file /data/data/com.android.providers.telephony/databases/mmssms.db: changed"),
    "gui": (_gui_save, "folder /storage/emulated/0/Simple Draw: added"),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_path_is_seen(env, watched, name) -> None:
    act, effect = WRITES[name]
    watch = side_effects.start(env, watched)
    assert watch.files.method == "recorder"
    assert side_effects.finish(env, watch) == []
    act(env.device)
    assert effect in side_effects.finish(env, watch)


def test_reading_rewriting_and_taskkit_scratch_are_not_side_effects(env, watched) -> None:
    watch = side_effects.start(env, watched)
    env.device.check(f"cat {OLD} && ls -R /sdcard && sqlite3 {joplin.DB_PATH} 'SELECT count(*) FROM folders' && "
                     f"touch {OLD} && echo old > {OLD} && "  # a rewrite with the same content changes nothing
                     "mkdir -p /data/local/tmp/taskkit/x && echo 1 > /data/local/tmp/taskkit/x/y")
    env.device.pull(OLD)
    assert side_effects.finish(env, watch) == []


def _fill(env: Env, files: int, big: int) -> None:
    """Unchanged files written straight into the state directory (no device command)."""
    folder = Path(env.device.state.host_path("/sdcard/Download/bulk"))
    folder.mkdir()
    for i in range(files):
        (folder / f"f{i:05}.txt").write_text(f"file {i}")
    if big:
        with open(folder / "big.bin", "wb") as fh:
            fh.truncate(big)


def test_the_work_follows_what_changed_not_the_files_on_the_device(env) -> None:
    loading.load_builtin()
    task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, 0).create()
    recorder = recorder_lib.recorder(env.device.state)
    costs = []
    for files, big in ((0, 0), (10_000, 20 << 20)):
        task.initialize_state(env)
        try:
            if files:
                _fill(env, files, big)
            # the set-up's database writes out of the recorder's racy window (as the fill takes
            # them in the second round): a database written just before is hashed when opened
            time.sleep(audit_events.RACY_NS / 1e9)
            before = (recorder.hashed, recorder.hashed_bytes, env.device.stats.round_trips, env.device.stats.bytes_received)
            watch = side_effects.start(env, task)
            env.device.check(f"echo changed > {DL}/one{files}.txt")
            found = side_effects.finish(env, watch)
            after = (recorder.hashed, recorder.hashed_bytes, env.device.stats.round_trips, env.device.stats.bytes_received)
            costs.append(tuple(b - a for a, b in zip(before, after)))
            assert found == [f"file {DL}/one{files}.txt: added"]
        finally:
            task.teardown(env)
    (hashed_empty, bytes_empty, trips_empty, received_empty), (hashed, hashed_bytes, trips, received) = costs
    assert hashed == hashed_empty == 1 and hashed_bytes == bytes_empty == len("changed\n")  # the new file, once
    assert trips == trips_empty and abs(received - received_empty) < 100, costs


# --- same answers as the full listing (the md5 of every file) -----------------------------------
NAMES = ("a", "b", "d", "d/a", "d/e", "d/e/a")
OPS = st.one_of(
    st.tuples(st.just("echo {c} > {p}"), st.sampled_from(NAMES), st.sampled_from("xy")),
    st.tuples(st.just("echo {c} >> {p}"), st.sampled_from(NAMES), st.just("z")),
    st.tuples(st.sampled_from(["rm -rf {p}", "mkdir -p {p}", "touch {p}", "rmdir {p}",
                               "sqlite3 {p} 'CREATE TABLE IF NOT EXISTS t(x); INSERT INTO t VALUES(1)'",
                               "sqlite3 {p} 'SELECT 1'"]), st.sampled_from(NAMES), st.just("")),
    st.tuples(st.sampled_from(["mv {p} {c}", "cp -r {p} {c}"]), st.sampled_from(NAMES), st.sampled_from(NAMES)),
)


def _files(lines: set[str]) -> set[str]:
    return {line for line in lines if not line.startswith("setting ")}


def run_ops(device, steps, base: str = "/data/local/tmp/p") -> None:
    """Run generated OPS in `base` (each a shell command; a failing one is part of the example)."""
    for template, p, c in steps:
        device.shell(f"cd {base} && " + template.format(p=p, c=c))


@settings(max_examples=30)
@given(st.lists(OPS, max_size=3), st.lists(OPS, min_size=1, max_size=5))
def test_the_recorder_finds_what_a_full_listing_finds(module_device, setup, ops) -> None:
    device, base = module_device, "/data/local/tmp/p"
    device.check(f"rm -rf {base} && mkdir -p {base}")
    run_ops(device, setup)
    full_before = _files(listing(device))
    watch = changes.parse_start(device.check(changes.build_start(DIGEST_ROOTS)), DIGEST_ROOTS)
    run_ops(device, ops)
    before, after = changes.parse_since(watch, device.check(changes.build_since(watch)))
    full_after = _files(listing(device))
    expected = side_effects.Expected()
    assert side_effects._listing_changes(before, after, expected) == \
        side_effects._listing_changes(full_before, full_after, expected)


# --- the method of every other device: find -newer against a marker ----------------------------
def test_find_newer_sees_added_removed_and_changed_files_without_reading_them(env) -> None:
    device = env.device
    device.check(f"echo old > {OLD} && echo keep > {DL}/keep.txt && mkdir {DL}/gone")
    watch = changes.parse_start(device.check(changes.build_start(DIGEST_ROOTS, recorder=False)), DIGEST_ROOTS)
    assert watch.method == "find" and f"file {OLD} -" in watch.names
    device.check("date 101515352023")  # the device clock moves on: later writes are newer than the marker
    device.check(f"echo new >> {OLD} && echo n > {DL}/added.txt && rmdir {DL}/gone && mkdir {DL}/made")
    before, after = changes.parse_since(watch, device.check(changes.build_since(watch)))
    assert side_effects._listing_changes(before, after, side_effects.Expected()) == [
        f"folder {DL}/gone: removed", f"folder {DL}/made: added", f"file {DL}/added.txt: added", f"file {OLD}: changed"]


def test_a_replaced_watch_is_an_error_not_an_empty_answer(env, watched) -> None:
    first = side_effects.start(env, watched)
    side_effects.start(env, watched)
    with pytest.raises(CommandFailed, match="a later start replaced it"):
        side_effects.finish(env, first)
    marker_gone = changes.ChangeWatch("find", "/data/local/tmp/taskkit/no-marker", DIGEST_ROOTS, ())
    result = env.device.shell(changes.build_since(marker_gone))
    assert result.exit_code == 1 and "is gone" in result.stderr


def test_an_event_the_recorder_cannot_read_fails_the_watch(env, watched, monkeypatch) -> None:
    watch = side_effects.start(env, watched)
    readable = audit_events.changed_paths  # what every listener of the one audit hook is told
    monkeypatch.setattr(audit_events, "changed_paths", lambda event, args: 1 / 0 if event == "os.mkdir" else readable(event, args))
    env.device.check("mkdir /sdcard/Download/x")
    monkeypatch.undo()
    with pytest.raises(CommandFailed, match="could not read the os.mkdir event"):
        side_effects.finish(env, watch)
    assert os.path.isdir(env.device.state.host_path("/sdcard/Download/x"))  # the write itself went through
    # the episode's undo journal failed with it: its teardown says so once, and recovery finishes it
    with pytest.raises(CommandFailed, match="undo journal .* is incomplete: could not read the os.mkdir event"):
        watched.teardown(env)
    assert len(recover(env.device)) == 1
    watched.initialize_state(env)  # for the fixture's teardown


# --- over adb: the simulator served as adbd answers with its recorder ---------------------------
@requires_adb
def test_over_adb_the_simulator_answers_from_its_recorder(tmp_path) -> None:
    with served_adb_device(tmp_path / "device") as device:
        env = Env(device)
        loading.load_builtin()
        task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, 0).create()
        task.initialize_state(env)
        try:
            watch = side_effects.start(env, task)
            assert watch.files.method == "recorder"
            device.push(b"over adb", f"{DL}/synced.bin")  # adb sync SEND, written by adbd
            device.check(f"echo x > {DL}/shell.txt")
            assert side_effects.finish(env, watch) == [f"file {DL}/shell.txt: added", f"file {DL}/synced.bin: added"]
        finally:
            task.teardown(env)
