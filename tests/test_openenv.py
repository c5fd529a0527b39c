"""taskkit's OpenEnv server (`python -m taskkit.openenv`): OpenEnv's own clients reset and step a
task over its WebSocket protocol with the in-process gym's rewards, each session has a device of
its own, the bound refuses the next client, and bad command lines are one line, exit 2."""
from __future__ import annotations

import asyncio
import dataclasses
import sys
import urllib.error
import urllib.request
from typing import Iterator

import pytest

from taskkit.openenv import skip_web_ui

skip_web_ui()  # openenv-core's gradio web UI: ~6 s of import, used by no test
pytest.importorskip("openenv.core", reason="taskkit.openenv needs the openenv extra (pip install 'taskkit[openenv]')")
gymnasium = pytest.importorskip("gymnasium", reason="taskkit.openenv serves taskkit.gym (pip install 'taskkit[gym]')")

from openenv import GenericEnvClient  # noqa: E402

from taskkit import cli  # noqa: E402
from taskkit.agents.base import Action  # noqa: E402
from taskkit.gym import PhoneEnv  # noqa: E402
from taskkit.openenv import TaskkitAction, TaskkitEnv  # noqa: E402
from taskkit.openenv import __main__ as command  # noqa: E402
from taskkit.openenv.local import local_server  # noqa: E402
from taskkit.ports import free_port  # noqa: E402
from tests.test_gym import _act, _sms_policy  # noqa: E402

SESSIONS = 2


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """`python -m taskkit.openenv` serving two tasks, two sessions at once, on a free port."""
    with local_server("--tasks", "SimpleSmsSend,SystemWifiTurnOn", "--max_sessions", str(SESSIONS)) as url:
        yield url


def _gym_episode(seed: int) -> tuple[list[str], list[tuple[float, bool, str, str]]]:
    """The in-process gym's SimpleSmsSend episode under the scripted policy, a malformed action and
    a `wait` first: the actions taken and each step's (reward, done, elements, error)."""
    env = PhoneEnv("SimpleSmsSend")
    try:
        observation, _ = env.reset(seed=seed)
        taken, outcomes = ["not an action", _act(action_type="wait")], []
        for action in taken:
            observation, reward, terminated, truncated, _ = env.step(action)
            outcomes.append((reward, terminated or truncated, observation["elements"], observation["last_action_error"]))
        for step in range(10):
            taken.append(_sms_policy(observation, step))
            observation, reward, terminated, truncated, _ = env.step(taken[-1])
            outcomes.append((reward, terminated or truncated, observation["elements"], observation["last_action_error"]))
            if terminated or truncated:
                return taken, outcomes
        raise AssertionError("the scripted policy did not end the episode")
    finally:
        env.close()


def test_openenvs_generic_client_steps_with_the_gyms_rewards(base_url: str) -> None:
    taken, expected = _gym_episode(seed=31)
    assert expected[-1][:2] == (1.0, True)
    with GenericEnvClient(base_url=base_url).sync() as env:  # openenv-core's own client, no taskkit code
        first = env.reset(seed=31, task="SimpleSmsSend")
        assert first.observation["task"] == "SimpleSmsSend" and first.observation["instance_id"] == "SimpleSmsSend_0"
        got = []
        for action in taken:
            result = env.step({"raw": action})
            got.append((result.reward, result.done, result.observation["elements"],
                        result.observation["last_action_error"]))
        assert got == expected and result.observation["score"] == 1.0


def test_two_clients_get_their_own_devices_and_the_bound_refuses_a_third(base_url: str) -> None:
    with TaskkitEnv(base_url=base_url).sync() as sender, TaskkitEnv(base_url=base_url).sync() as idle:
        observation = sender.reset(seed=30, task="SimpleSmsSend").observation
        assert idle.reset(seed=30, task="SimpleSmsSend").observation.goal == observation.goal
        with TaskkitEnv(base_url=base_url).sync() as third:
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                third.reset(seed=30)
        for step in range(10):  # the sender sends the message, the idle session waits beside it
            result = sender.step(TaskkitAction.of(_sms_policy(observation.model_dump(), step)))
            observation = result.observation
            assert idle.step({"action_type": "wait"}).done is False
            if result.done:
                break
        assert (result.reward, observation.score) == (1.0, 1.0)
        done = idle.step('{"action_type": "status", "goal_status": "complete"}')
        assert (done.done, done.reward) == (True, 0.0)  # its device sent nothing
        assert idle.state().step_count == step + 2
    with TaskkitEnv(base_url=base_url).sync() as again:  # the closed sessions' slots are free again
        screen = again.reset(seed=30, task="SystemWifiTurnOn", screenshot=True).observation
        assert screen.screenshot and screen.task == "SystemWifiTurnOn"


def test_the_stateless_http_reset_is_not_served(base_url: str) -> None:
    """Each HTTP /reset would open a device outside the bound: only /ws sessions are served."""
    request = urllib.request.Request(f"{base_url}/reset", data=b"{}", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code in (404, 405)


def test_the_typed_action_has_every_androidworld_field() -> None:
    fields = {field.name for field in dataclasses.fields(Action)}
    assert fields <= set(TaskkitAction.model_fields)
    assert TaskkitAction.of({"action_type": "click", "index": 3}).as_text() == '{"action_type": "click", "index": 3}'
    with pytest.raises(ValueError, match="either action_type"):
        TaskkitAction(action_type="wait", raw="{}")


@pytest.mark.parametrize("argv, message", [
    (["--host", "0.0.0.0"], "listens on loopback only"),
    (["--device", "adb", "--max_sessions", "2"], "serve it with --max_sessions 1"),
    (["--device", "emulator"], "use sim, sim:DIR, adb or adb:SERIAL"),
    (["--tasks", "NoSuchTask"], "unknown task"),
])
def test_bad_command_lines_are_one_line_and_exit_2(argv: list[str], message: str, capsys) -> None:
    port = [] if "--port" in argv else ["--port", str(free_port())]  # never 8000: another server may hold it
    assert cli.run_main(command.PROG, command.FLAGS, command.main, ["prog", *argv, *port]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1


def test_a_port_in_use_is_one_line_and_exit_2(base_url: str, capsys) -> None:
    port = base_url.rsplit(":", 1)[1]
    assert cli.run_main(command.PROG, command.FLAGS, command.main, ["prog", "--port", port]) == 2
    error = capsys.readouterr().err.strip()
    assert f"--port {port}: cannot listen on 127.0.0.1" in error and len(error.splitlines()) == 1


def test_without_the_extra_the_server_names_it(monkeypatch, capsys) -> None:
    import taskkit.openenv.server  # noqa: F401 - imported before, as in a worker that ran other tests

    monkeypatch.setitem(sys.modules, "taskkit.openenv.server", None)  # as if openenv-core were not installed
    argv = ["prog", "--tasks", "SystemWifiTurnOn", "--port", str(free_port())]
    assert cli.run_main(command.PROG, command.FLAGS, command.main, argv) == 2
    error = capsys.readouterr().err.strip()
    assert "pip install 'taskkit[openenv]'" in error and len(error.splitlines()) == 1


def test_a_close_after_the_client_left_is_not_an_error() -> None:
    """openenv-core 0.3.0's /ws handler lets WebSocketDisconnect out of its closing `finally`
    (huggingface/OpenEnv#1159): uvicorn logged a traceback per refused or stopped session."""
    from starlette.websockets import WebSocketDisconnect

    from taskkit.openenv.server import _quiet_closes

    async def closes_late(scope, receive, send) -> None:
        raise WebSocketDisconnect(code=1006)

    quiet = _quiet_closes(closes_late)
    assert asyncio.run(quiet({"type": "websocket"}, None, None)) is None
    with pytest.raises(WebSocketDisconnect):  # anything but a WebSocket's late close still raises
        asyncio.run(quiet({"type": "http"}, None, None))
