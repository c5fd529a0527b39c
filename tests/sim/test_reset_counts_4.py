"""What a reset costs, counted, fourth pass (issue #37: cheaper resets): a restore point's label
is on a short line of its own in the commands saving and restoring it, so every other line of an
episode's batches is the text of the last episode's (the shell keeps each line's tokens by it);
the recorder reads an undo journal once per command that needs it; a task's params are checked
against its schema once per draw; and a spec's expression does not walk jinja's chained globals."""
from __future__ import annotations

import collections
import marshal
import os
import subprocess
from pathlib import Path
from typing import Callable, Iterator

import jinja2
import pytest

from taskkit import connect, params
from taskkit.device import state
from taskkit.sim import changes
from taskkit.sim.device import SimDevice
from taskkit.specs import templates
from tests.device.test_sqlite import recording

_PATHS, _PACKAGES = ("/data/data/com.android.settings",), ("com.android.settings",)


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimDevice]:
    sim = connect.sim_device(tmp_path_factory.mktemp("counts4") / "device")
    yield sim
    sim.close()


def _sent(device: SimDevice, action: Callable[[], object]) -> list[str]:
    """The texts `action` sends to the device's shell."""
    sent = recording(device)
    try:
        action()
    finally:
        del device._shell
    return sent


def _episode(device: SimDevice, label: str) -> None:
    """Save an incremental restore point, write, and restore it (as a task episode does)."""
    with device.batch():
        point = state.save_restore_point(device, label, _PATHS, _PACKAGES, state.DIGEST_ROOTS, incremental=True)
        device.run("settings put global wifi_on 0 && echo x > /sdcard/Download/counts4")
    state.restore(device, point)


def test_only_the_line_naming_the_restore_point_is_new_text_each_episode(device: SimDevice) -> None:
    before = state.listing(device)
    first, second = (_sent(device, lambda: _episode(device, label)) for label in ("Counts4.1", "Counts4.2"))
    assert state.listing(device) == before and state.pending_restore_points(device) == []
    new = {line for text in second for line in text.splitlines()} - {line for text in first for line in text.splitlines()}
    point = f"{state.RESTORE_ROOT}/Counts4.2"
    # the save, the journal's check and the restore (its undo and the folder's deletion): each
    # names it on that line
    assert new == {f"{{ tk_point={point} tk_label=Counts4.2"}
    assert sum(text.count(f"tk_point={point} ") for text in second) == 3
    assert sum(text.count("Counts4.2") for text in second) == 6


def test_the_restore_points_commands_parse_in_a_posix_shell(device: SimDevice) -> None:
    for text in _sent(device, lambda: _episode(device, "Counts4.3")):
        parsed = subprocess.run(["sh", "-n", "-c", text], capture_output=True, text=True)
        assert (parsed.returncode, parsed.stderr) == (0, ""), text


def test_a_restore_reads_its_undo_journal_once_to_check_and_once_to_undo(device: SimDevice,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    entries = changes.Journal.entries

    def counting(journal: changes.Journal, complete: bool = True) -> dict[str, tuple[str, str]]:
        reads.append(journal.folder.name)
        return entries(journal, complete)

    monkeypatch.setattr(changes.Journal, "entries", counting)
    _episode(device, "Counts4.4")
    assert reads == ["Counts4.4", "Counts4.4"]  # the batch's check, then the undo (which checks it too)


@pytest.mark.parametrize("damage", ["copy", "failed", "both"])
def test_a_damaged_journal_is_refused_by_check_and_undo_alike(device: SimDevice, damage: str) -> None:
    label = f"Counts4.damaged-{damage}"
    journal = f"{device.state.root}/undo/{label}"
    written = f"/sdcard/Download/counts4-{damage}"
    device.check(f"echo old > {written} && taskkit-changes start --undo {label} /sdcard && echo new > {written}")
    if damage != "failed":
        os.remove(f"{journal}/1")
    if damage != "copy":
        changes.Journal(Path(journal)).fail("recording failed")
    check, undo = (device.shell(f"taskkit-changes {verb} {label}") for verb in ("check", "undo"))
    copy_gone = f"taskkit-changes: undo journal {label} is damaged: the copy of /data/media/0/Download/counts4-{damage} is missing\n"
    assert (check.exit_code, check.stderr) == ((1, copy_gone) if damage != "failed" else (0, ""))
    assert (undo.exit_code, undo.stderr) == (1, copy_gone if damage != "failed" else
                                             f"taskkit-changes: undo journal {label} is incomplete: recording failed\n")
    assert device.shell(f"taskkit-changes drop {label} && taskkit-changes check {label}").exit_code == 1
    assert not os.path.exists(journal)


_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}, "xs": {"type": "array", "items": {"type": "string"}}},
           "required": ["n"], "additionalProperties": False}


def test_params_checked_once_per_draw_not_again_for_each_task_object(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[object] = []
    validate = params.validate

    def counting(value: object, schema: dict, path: object = "params") -> None:
        if path == "params":
            checked.append(value)
        validate(value, schema, path)

    monkeypatch.setattr(params, "validate", counting)
    monkeypatch.setattr(params, "_VALID", {})
    drawn = {"n": 3, "xs": ["a", "b"]}
    params.check(drawn, _SCHEMA)
    params.check(marshal.loads(marshal.dumps(drawn)), _SCHEMA)  # the task object's copy: the same data
    params.check({"n": 3, "xs": ["a", "b"]}, dict(_SCHEMA))
    assert checked == [drawn]


@pytest.mark.parametrize("other", [{"n": True}, {"n": 3.0}, {"n": 3, "xs": ("a", "b")}, {"n": 3, "xs": ["a", 1]},
                                   {"n": 3, "extra": 1}, {"xs": ["a", "b"]}, {"n": float("nan")}])
def test_params_like_valid_ones_but_for_a_type_or_a_field_are_still_refused(other: dict,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(params, "_VALID", {})
    for valid in ({"n": 3}, {"n": 3, "xs": ["a", "b"]}):
        params.check(valid, _SCHEMA)
    with pytest.raises(params.ParamError):
        params.check(other, _SCHEMA)
    with pytest.raises(params.ParamError):  # and again: a refusal is never kept
        params.check(other, _SCHEMA)


def test_a_spec_expression_copies_the_globals_without_walking_a_chain_map(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[int] = []
    chain_iter = collections.ChainMap.__iter__

    def counting(self: collections.ChainMap) -> Iterator[str]:
        walked.append(1)
        return chain_iter(self)

    monkeypatch.setattr(collections.ChainMap, "__iter__", counting)
    scope = {"a": 2, "rows": [{"x": 1}, {"x": 5}]}
    values = [templates.evaluate(source, scope) for source in
              ("a * 3", "rows | map(attribute='x') | sum", "range(a) | list", "now_ms", "now")]
    assert values == [6, 6, [0, 1], templates.BUILTINS["now_ms"], templates.BUILTINS["now"]]
    assert templates.render("{{ a }}-{{ now_ms }}", scope) == f"2-{templates.BUILTINS['now_ms']}"
    assert walked == []
    with pytest.raises(jinja2.UndefinedError):  # jinja's lipsum stays out, as before
        templates.evaluate("lipsum(1)", {})
