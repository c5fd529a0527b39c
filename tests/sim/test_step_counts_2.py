"""A step's bookkeeping, counted (issue #37 item 2): device.json's merge of another view's write, the GUI
cache's copies of its keys, an action's trajectory form, gui.json's data copied per command and
the settings a GUI command reads — and that each answers what the longer way answered."""
from __future__ import annotations

import dataclasses
import json
import marshal
from pathlib import Path
from typing import Any

import pytest

from taskkit.agents.base import Action

from taskkit.sim import writeback
from taskkit.sim.gui import cache, store
from taskkit.sim.state import SimState


# --- device.json ----------------------------------------------------------------------------
def test_a_save_after_another_view_wrote_merges_both(tmp_path: Path) -> None:
    mine = SimState(tmp_path / "d")
    mine.config["foreground"] = "p/.A"
    mine.save()
    other = SimState(tmp_path / "d")
    other.config["props"]["x"] = "1"
    other.save()
    mine.save()  # the file is not the version `mine` wrote: its data is read and kept
    assert mine.config == SimState(tmp_path / "d").config and mine.config["props"] == {"x": "1"}
    mine.config["foreground"] = "q/.B"
    mine.save()
    assert SimState(tmp_path / "d").config["props"] == {"x": "1"}


# --- the GUI cache's copies of its keys -------------------------------------------------------
def _key() -> tuple[Any, ...]:
    gui = {"apps": {f"p{i}": {"frames": [{"id": i, "screen": "main", "args": {}}], "task": i} for i in range(20)},
           "focus": None, "drafts": {"1:name": "x"}}
    config = {"app_databases": {f"p{i}/x.db": "CREATE TABLE t (a TEXT);" * 20 for i in range(30)},
              "tasks": [{"id": 2, "package": "p2", "component": "p2/.A"}], "foreground": "p2/.A"}
    return gui, config, cache.Same({"secure": {}})


def test_a_changed_keys_copy_shares_what_did_not_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache._LOCAL, "key", None, raising=False)
    key = _key()
    first = cache._key_copy(key)
    assert cache._key_copy(key) is first
    key[0]["focus"] = "3:name"
    key[0]["apps"]["p3"]["frames"].append({"id": 40, "screen": "edit", "args": {"n": [1]}})
    key[1]["foreground"] = "p3/.A"
    copied: list[Any] = []
    snapshot = cache._snapshot
    monkeypatch.setattr(cache, "_snapshot", lambda value, like=None: copied.append(value) or snapshot(value, like))
    second = cache._key_copy(key)
    assert second == key and second is not first
    assert second[1]["app_databases"] is first[1]["app_databases"] and second[0]["apps"]["p4"] is first[0]["apps"]["p4"]
    assert second[2] is key[2]  # (compared by identity, never copied)
    # what changed is copied, and nothing else: the key, the store, its apps, p3's record, its frames, the new
    # frame (its args, their list) and the config
    assert len(copied) == 9 and second[0]["apps"]["p3"] is not first[0]["apps"]["p3"]
    key[0]["apps"]["p3"]["frames"][-1]["args"]["n"].append(2)  # a copy never changes with what it copied
    key[1]["app_databases"]["p0/x.db"] = ""
    assert second != key and second[0]["apps"]["p3"]["frames"][-1]["args"] == {"n": [1]}
    assert second[1]["app_databases"]["p0/x.db"] != ""


@pytest.mark.parametrize("old", [[1], (1,), {"a": 1}, [1, 2, 3], "x", None], ids=repr)
def test_a_keys_copy_equals_it_whatever_it_shares_with(old: Any) -> None:
    value = {"a": [(1, [2.0, {"b": True}]), {"c": None}], "d": (1,), "e": [1, 2]}
    like = {"a": [old, {"c": None}], "d": old, "e": old}
    copied = cache._snapshot(value, like)
    assert copied == value and type(copied["d"]) is tuple and type(copied["a"][0]) is tuple
    assert copied["a"][1] is like["a"][1]


# --- an action's trajectory form ------------------------------------------------------------
def _asdict_form(action: Action) -> dict[str, Any]:
    """What `to_dict` gave through `dataclasses.asdict`."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(action).items() if v is not None}


ACTIONS = [Action("click", index=3), Action("click", x=10, y=20, normalized=True), Action("wait"),
           Action("input_text", text="héllo", index=1, clear_text=False), Action("scroll", direction="down"),
           Action("status", goal_status="complete"), Action("open_app", app_name="Clock"),
           Action("dual_gesture", touch=(0.1, -0.5), lift=(1, 0)),
           Action.from_dict({"action_type": "open_app", "app_name": ["a", {"b": 1}]})]  # (a value no check looks at)


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_an_actions_dict_is_what_asdict_gave(action: Action, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _asdict_form(action)
    deep: list[Any] = []
    asdict = dataclasses.asdict
    monkeypatch.setattr(dataclasses, "asdict", lambda obj: deep.append(obj) or asdict(obj))
    got = action.to_dict()
    assert got == expected and list(got) == list(expected) and json.dumps(got) == json.dumps(expected)
    assert len(deep) == (0 if isinstance(action.app_name, (str, type(None))) else 1)  # plain fields: read directly
    if isinstance(action.app_name, list):  # anything else is copied, as before
        got["app_name"][1]["b"] = 2
        assert action.app_name[1] == {"b": 1}


# --- gui.json's data, copied per command -------------------------------------------------------
def _containers(value: Any) -> list[Any]:
    found = [value] if isinstance(value, (dict, list)) else []
    for item in (value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()):
        found += _containers(item)
    return found


def test_a_stores_data_is_a_private_copy_sharing_no_container(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = SimState(tmp_path / "d")
    state.save()
    frame = {"activity": "p.A", "args": {"n": []}, "id": 1, "screen": "main"}
    written = store.Store(state)
    written.data["apps"] = {p: {"frames": [frame, frame], "intent": 0, "task": 2}  # one frame object, 4 times
                            for p in ("p", "q")}
    written.data["drafts"] = {"1:a": "x", "1:b": "x"}
    written.save()
    writeback.write_back(state.root)
    loads: list[bytes] = []
    real = marshal.loads
    monkeypatch.setattr(store.marshal, "loads", lambda data: loads.append(data) or real(data))
    first, second = store.Store(state), store.Store(state)
    assert [data[:1] for data in loads] == [bytes([ord("{") | 0x80])] * 2  # the current format (its refs flag set)
    assert first.data == second.data == json.loads((tmp_path / "d" / store.FILE_NAME).read_text())
    containers = _containers(first.data)
    assert len({id(c) for c in containers}) == len(containers)  # the four frames are four objects again
    first.data["apps"]["p"]["frames"][0]["args"]["n"].append(1)
    assert first.data["apps"]["p"]["frames"][1]["args"] == {"n": []}
    assert second.data["apps"]["p"]["frames"][0]["args"] == {"n": []}
    first.save()
    assert store.Store(state).data["apps"]["p"]["frames"][0]["args"] == {"n": [1]}


# --- the settings a GUI command reads -------------------------------------------------------------
def test_the_settings_are_read_once_across_steps_and_again_after_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    from taskkit.connect import sim_device
    from taskkit.sim.gui import session

    reads: list[Any] = []
    read = session.all_settings
    monkeypatch.setattr(session, "all_settings", lambda state: reads.append(state) or read(state))
    phone = sim_device()
    try:
        phone.shell("am start -n com.android.settings/.Settings")
        phone.shell("uiautomator dump /dev/tty")
        reads.clear()
        for command in ("input tap 540 1200", "uiautomator dump /dev/tty", "input keyevent 4",
                        "uiautomator dump /dev/tty", "input swipe 500 1500 500 500", "uiautomator dump /dev/tty"):
            phone.shell(command)
        assert reads == []  # the kept settings held through taps, keys, swipes and dumps
        phone.shell("settings put system font_scale 1.3")
        kept = phone.shell("uiautomator dump /dev/tty").stdout
        assert len(reads) == 1
        monkeypatch.setattr(cache, "enabled", False)
        assert phone.shell("uiautomator dump /dev/tty").stdout == kept  # what a fresh read shows
    finally:
        phone.close()
