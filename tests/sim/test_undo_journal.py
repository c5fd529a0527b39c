"""What an episode writes outside its task's own data is undone with its restore point.

The simulated device's recorder journals each path before its first write (taskkit.sim.changes,
`start --undo`), and the restore puts it back: every write path the side-effect check knows
(shell, toybox tools, push, sqlite3, content providers, the GUI) and any generated sequence of
writes leave the device's listing as it was, whatever the journal's process did in between.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from taskkit import loading, registry, suite
from taskkit.device.base import CommandFailed
from taskkit.device.state import DIGEST_ROOTS, RESTORE_ROOT, listing, recover, restore, save_restore_point
from taskkit.sim import audit_events, changes as recorder_lib
from tests.test_side_effect_writes import DL, OLD, OPS, WRITES, run_ops

SETUP = f"echo old > {OLD} && mkdir -p {DL}/dir && echo in > {DL}/dir/in.txt"
CLEAN = f"rm -rf {OLD} {DL}/dir /data/local/tmp/p"


@pytest.fixture
def device(sim_device):
    sim_device.check(SETUP)
    yield sim_device
    sim_device.check(CLEAN)


@pytest.mark.parametrize("name", sorted(WRITES))
def test_what_an_episode_wrote_in_other_apps_and_shared_storage_is_undone(env, device, name) -> None:
    loading.load_builtin()
    task = suite.instantiate(registry.get("ExpenseAddSingle"), 30, 0).create()
    before = listing(device)
    task.initialize_state(env)
    WRITES[name][0](device)
    assert listing(device) != before  # the write did change the device
    task.teardown(env)
    assert listing(device) == before


@settings(max_examples=25)
@given(st.lists(OPS, max_size=3), st.lists(OPS, min_size=1, max_size=6))
def test_any_sequence_of_writes_is_undone(module_device, setup, ops) -> None:
    device = module_device
    device.check("rm -rf /data/local/tmp/p && mkdir -p /data/local/tmp/p")
    run_ops(device, setup)
    before = listing(device)
    point = save_restore_point(device, "generated", (), (), DIGEST_ROOTS)
    run_ops(device, ops)
    restore(device, point)
    assert listing(device) == before


def test_the_task_s_own_paths_are_left_to_its_copy(device) -> None:
    point = save_restore_point(device, "own", (f"{DL}/dir",), (), DIGEST_ROOTS)
    device.check(f"echo new > {DL}/dir/in.txt && echo stray > {DL}/stray.txt")
    assert recorder_lib.recorder(device.state).watches  # the undo watch
    restore(device, point)
    assert device.check(f"cat {DL}/dir/in.txt") == "in\n"  # put back by the restore point's copy
    assert device.shell(f"ls {DL}/stray.txt").exit_code == 1  # undone by the journal
    assert not recorder_lib.recorder(device.state).watches and not (device.state.root / "undo" / "own").exists()


def test_a_journal_outlives_its_process(device) -> None:
    before = listing(device)
    point = save_restore_point(device, "restarted", (), (), DIGEST_ROOTS)
    device.check(f"rm -r {DL}/dir && echo x >> {OLD}")
    recorder_lib._RECORDERS.clear()  # as a new simulator process over the same state directory
    assert recover(device) == [point.directory]
    assert listing(device) == before


def test_an_incomplete_journal_fails_its_restore_once_and_the_rest_still_comes_back(device, monkeypatch) -> None:
    monkeypatch.setattr(recorder_lib, "MAX_JOURNALS", 1)
    before = listing(device)
    first = save_restore_point(device, "first", (), (), DIGEST_ROOTS)
    second = save_restore_point(device, "second", (), (), DIGEST_ROOTS)  # the first journal is dropped
    device.check(f"echo changed > {OLD}")
    restore(device, second)
    with pytest.raises(CommandFailed, match="more than 1 undo journals"):
        restore(device, first)
    assert recover(device) == [first.directory]  # reported once: the rerun retires it
    assert listing(device) == before  # the second journal had undone the write


@pytest.mark.parametrize("name", ["../x", "a/b", ".hidden", ""])
def test_a_journal_name_must_be_one_plain_word(device, name) -> None:
    result = device.shell(f"taskkit-changes start --undo '{name}' /sdcard")
    assert result.exit_code == 1 and "bad undo journal name" in result.stderr
    assert not recorder_lib.recorder(device.state).watches


def test_a_name_with_a_newline_or_quotes_is_journaled_and_undone(device) -> None:
    """The journal's index keeps one line per path whatever its name (a hostile song title)."""
    before = listing(device)
    point = save_restore_point(device, "names", (), (), DIGEST_ROOTS)
    device.check(f"""echo x > '{DL}/a
"b" c.mp3' && echo y > {OLD}""")
    assert listing(device) != before
    restore(device, point)
    assert listing(device) == before


@pytest.mark.parametrize("verb", ["save-point", "check-point", "restore-point"])
@pytest.mark.parametrize("folder", [f"{RESTORE_ROOT}/..", f"{RESTORE_ROOT}/.hidden", f"{RESTORE_ROOT}/a b",
                                    f"{RESTORE_ROOT}/a/b", "/data/local/tmp/p", RESTORE_ROOT])
def test_a_restore_point_is_a_plain_name_in_the_restore_folder(device, verb, folder) -> None:
    extra = " '{}' /sdcard" if verb == "save-point" else ""
    before = listing(device)
    result = device.shell(f"taskkit-changes {verb} '{folder}'{extra}")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "bad restore point" in result.stderr
    assert listing(device) == before and not recorder_lib.recorder(device.state).watches


def test_a_journal_s_own_files_reach_no_listener(device, monkeypatch) -> None:
    """Saving, writing through and restoring a journaled restore point: the watchers (the GUI
    cache, the recorder, the kept readers) hear every write on the device, none in the journal."""
    heard: list[str] = []
    monkeypatch.setattr(audit_events, "_WRITE_LISTENERS",
                        (*audit_events._WRITE_LISTENERS, lambda event, args, paths: heard.extend(paths or ())))
    before = listing(device)
    point = save_restore_point(device, "heard.1", (), (), DIGEST_ROOTS, incremental=True)
    device.check(f"echo new > {OLD}")  # journaled: its first content is copied into the journal
    restore(device, point)
    assert listing(device) == before
    journals = str(device.state.root / "undo")
    assert any(path.endswith(OLD.rsplit("/", 1)[1]) for path in heard)  # the device's writes were heard
    assert [path for path in heard if path.startswith(journals)] == []
