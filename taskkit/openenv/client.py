"""`TaskkitEnv`: OpenEnv's client for a server of `python -m taskkit.openenv`.

    from taskkit.openenv import TaskkitEnv

    with TaskkitEnv(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(seed=30)                  # result.observation.goal, .elements, ...
        result = env.step({"action_type": "open_app", "app_name": "Settings"})
        result = env.step('{"action_type": "status", "goal_status": "complete"}')  # text: read as the gym reads it
        result.reward, result.done, result.observation.score

It is openenv-core's `EnvClient` (async; `.sync()` wraps it): one WebSocket session, hence one
device on the server, per client.
"""
from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from websockets.exceptions import ConnectionClosedOK

from taskkit.openenv.models import TaskkitAction, TaskkitObservation, TaskkitState


class TaskkitEnv(EnvClient[TaskkitAction, TaskkitObservation, TaskkitState]):
    """A session of a taskkit OpenEnv server; `step` takes a `TaskkitAction`, AndroidWorld's JSON
    action as a dict, or the agent's reply as text."""

    async def _send(self, message: dict[str, Any]) -> None:
        """Send `message`; a server at its bound closes a new session at once, its reason
        (CAPACITY_REACHED) already sent: the send fails quietly so that the reason is read."""
        try:
            await super()._send(message)
        except ConnectionClosedOK:
            pass

    def _step_payload(self, action: TaskkitAction | dict[str, Any] | str) -> dict[str, Any]:
        typed = action if isinstance(action, TaskkitAction) else TaskkitAction.of(action)
        return typed.model_dump(exclude_none=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[TaskkitObservation]:
        observation = TaskkitObservation(**payload.get("observation", {}), reward=payload.get("reward"),
                                         done=payload.get("done", False))
        return StepResult(observation=observation, reward=observation.reward, done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> TaskkitState:
        return TaskkitState(**payload)
