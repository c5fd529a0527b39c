"""Hostile text in every free-text param of every built-in task: exact round trip, no injection."""
from __future__ import annotations

import copy

import pytest

from taskkit import registry
from taskkit.device.state import state_digest
from taskkit.env import Env
from taskkit.sim.device import SimDevice

registry.load_builtin()
CANARY = "/sdcard/taskkit_canary"
PAYLOAD = (
    "It's \"$(touch {c})\" `touch {c}`; touch {c} && touch {c} | touch {c}\n"
    "second line > {c} ${{HOME}} \\n 日本語 🙂 \u202eRTL\u202c e\u0301 %s %d"
).format(c=CANARY)


def _free_text_paths(schema, params, path=()):
    """Paths of string params whose schema allows any text (no pattern, no enum)."""
    kind = schema.get("type")
    if isinstance(params, str) and kind == "string" and "pattern" not in schema and "enum" not in schema:
        yield path
    elif isinstance(params, dict):
        for key, value in params.items():
            yield from _free_text_paths((schema.get("properties") or {}).get(key, {}), value, path + (key,))
    elif isinstance(params, list):
        for index, value in enumerate(params):
            yield from _free_text_paths(schema.get("items") or {}, value, path + (index,))


def _hostile(task_cls, seed):
    params = copy.deepcopy(task_cls.from_seed(seed).params)
    paths = list(_free_text_paths(task_cls.schema, params))
    for number, path in enumerate(paths):
        target = params
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = f"{number} {PAYLOAD}"  # distinct per field, so rows stay distinguishable
    return params, paths


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    device = SimDevice(tmp_path_factory.mktemp("hostile") / "device")
    yield device
    device.close()


@pytest.mark.parametrize("name", registry.names())
def test_hostile_text_round_trips_and_never_runs(name, device):
    cls = registry.get(name)
    params, paths = _hostile(cls, 7)
    task = cls(params)
    env = Env(device)
    before = state_digest(device)
    task.initialize_state(env)
    try:
        assert task.is_successful(env) < 1.0
        task.solve(env)
        assert task.is_successful(env) == 1.0, task.last_result.reasons
    finally:
        task.teardown(env)
    assert not device.files.exists(CANARY), f"{name}: an injected command ran"
    assert state_digest(device) == before


def test_the_canary_can_fire(device):
    """The same payload, unquoted, does create the canary: the test above can fail."""
    device.shell("echo " + PAYLOAD.replace("'", ""))
    assert device.files.exists(CANARY)
    device.files.remove(CANARY)
