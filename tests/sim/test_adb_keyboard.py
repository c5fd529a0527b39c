"""ADBKeyboard's `ADB_INPUT_B64` receiver decodes `msg` as android.util.Base64.decode(msg, DEFAULT)
does; a message it cannot decode is ignored (nothing typed) and the broadcast completes as any
other, so `am` never crashes whatever `msg` holds."""
from __future__ import annotations

import base64
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskkit import apps
from taskkit.device.catalog import ADB_KEYBOARD_IME
from taskkit.sim import image
from taskkit.sim.commands import activity
from taskkit.sim.commands.settings import put_setting
from taskkit.sim.state import SimState
from tests.sim.test_activity_cmds import run


class _Screen:
    """Stands in for the focused screen: records what the IME commits."""

    def __init__(self) -> None:
        self.typed: list[str] = []

    def input(self, _state: SimState, kind: str, args: list[str]) -> None:
        assert kind == "text"
        self.typed.extend(args)


@pytest.fixture(scope="module")
def state(tmp_path_factory) -> SimState:
    sim = SimState(tmp_path_factory.mktemp("image"))
    image.build(sim, apps.first_run_databases())
    put_setting(sim, "secure", "default_input_method", ADB_KEYBOARD_IME)
    return sim


@pytest.fixture
def screen(monkeypatch) -> _Screen:
    recorder = _Screen()
    monkeypatch.setattr(activity.display, "for_state", lambda _state: recorder)
    return recorder


def _broadcast(state: SimState, msg: str) -> tuple[str, str, int]:
    return run(state, "am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", msg)


@pytest.mark.parametrize("msg, typed", [
    (base64.b64encode("你好".encode()).decode(), ["你好"]),
    ("aGk", ["hi"]),                # no padding: Android's decoder takes it
    ("aG\nk=", ["hi"]),             # characters outside the alphabet are skipped
    ("AAA", ["\x00\x00"]),          # Python's b64decode: `Incorrect padding`; Android: two bytes
    ("A", []),                      # one leftover character: bad base-64, ignored
    ("AAAAA", []),
    ("=AAA", []),                   # padding first
    ("aGk=x", []),                  # data after the padding
    ("aG=", []),                    # one `=` where two are needed
])
def test_b64_messages_decode_as_android_does_and_bad_ones_are_ignored(state, screen, msg, typed) -> None:
    out, err, code = _broadcast(state, msg)
    assert (code, err) == (0, "")
    assert out.endswith("Broadcast completed: result=0\n")
    assert screen.typed == typed


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_am_never_crashes_whatever_the_message(state, msg) -> None:
    screen = _Screen()
    original = activity.display.for_state
    activity.display.for_state = lambda _state: screen
    try:
        out, err, code = _broadcast(state, msg)
    finally:
        activity.display.for_state = original
    assert (code, err) == (0, "") and out.endswith("Broadcast completed: result=0\n")
    assert len(screen.typed) <= 1
