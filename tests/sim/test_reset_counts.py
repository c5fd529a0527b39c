"""What a reset costs, counted (issue #37: cheaper resets): the simulated sqlite3 reads a set-up
script without tokenizing each statement whole or stepping through its lines one character at
a time, and a task's params are checked without writing out a field path per value."""
from __future__ import annotations

from typing import Iterator

import pytest

from taskkit import loading, registry
from taskkit import params as params_lib
from taskkit.env import Env
from taskkit.rng import TaskRng
from taskkit.sim.commands import sqlite3_cli

TASK = "NotesIsTodo"  # its set-up pushes a script inserting some hundred rows of quoted text


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict:
    """Tokens the sqlite3 shell pulls from its SQL tokenizer, statements it runs and lines its
    quickscan steps through character by character (not read by the one regex)."""
    counts: dict = {"tokens": 0, "statements": 0, "stepped_lines": []}
    tokens, run, stop = sqlite3_cli._tokens, sqlite3_cli._Shell._run_statement, sqlite3_cli._QUICK_STOP

    def counting_tokens(sql: str, pos: int = 0) -> Iterator:
        for token in tokens(sql, pos):
            counts["tokens"] += 1
            yield token

    def counting_run(self: sqlite3_cli._Shell, sql: str, start: int, end: int):  # type: ignore[no-untyped-def]
        counts["statements"] += 1
        return run(self, sql, start, end)

    class CountingStop:
        def search(self, line: str, pos: int = 0):  # type: ignore[no-untyped-def]
            if pos == 0:
                counts["stepped_lines"].append(line)
            return stop.search(line, pos)

    monkeypatch.setattr(sqlite3_cli, "_tokens", counting_tokens)
    monkeypatch.setattr(sqlite3_cli._Shell, "_run_statement", counting_run)
    monkeypatch.setattr(sqlite3_cli, "_QUICK_STOP", CountingStop())
    return counts


def test_a_set_up_script_is_read_without_tokenizing_it(sim_device, counted: dict) -> None:
    loading.load_builtin()
    task = registry.get(TASK).from_seed(30)
    env = Env(sim_device)
    task.initialize_state(env)
    try:
        rows = int(sim_device.check("sqlite3 /data/data/net.cozic.joplin/databases/joplin.sqlite "
                                    "'SELECT count(*) FROM notes'"))
        assert rows > 100 and counted["statements"] >= 1  # the script ran through the simulated sqlite3
        # ATTACH / VACUUM INTO are told apart by a statement's first four words (and the white
        # space before each); where a statement ends is found by its `;`s and sqlite3_complete,
        # not by tokenizing it again (before: every token of each statement, twice)
        assert counted["tokens"] <= 8 * counted["statements"]
        # every line read by the one regex but those ending inside quoted text (a note's body
        # runs over several lines): only these are stepped through, from quote to quote
        stepped = list(counted["stepped_lines"])  # (quickscan below counts into the original)
        assert [line for line in stepped if not sqlite3_cli._quickscan(line, 0) & sqlite3_cli._QSS_CHAR] == []
        assert len(stepped) < rows  # (a row's line, before its INSERT shared one with other rows)
    finally:
        task.teardown(env)


def test_valid_params_are_checked_without_writing_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    loading.load_builtin()
    cls = registry.get(TASK)
    params = cls.generate_random_params(TaskRng(30))
    written: list[object] = []
    text = params_lib._text
    monkeypatch.setattr(params_lib, "_text", lambda place: written.append(place) or text(place))
    params_lib.check_plain(params)
    params_lib.validate(params, cls.schema)
    assert written == []
    broken = dict(params, **{next(iter(params)): object()})
    with pytest.raises(params_lib.ParamError, match=r"^params\.\w+: object is not plain JSON data"):
        params_lib.check_plain(broken)
    assert len(written) == 1  # the error names its field
