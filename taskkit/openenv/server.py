"""taskkit's tasks served with openenv-core: one `taskkit/Task-v0` per session, over WebSocket.

`app(serving)` builds the FastAPI application with openenv-core's `HTTPEnvServer` in its
production mode: sessions live on `/ws` (what OpenEnv's `EnvClient` speaks: reset, step, state,
close), and `/health`, `/schema` and `/metadata` answer; the stateless HTTP `/reset` and `/step`
are not served (each would open a device outside the bound). Each WebSocket session gets its
own `TaskkitEnvironment`, hence its own device, opened at its first reset, closed when the
session ends; at most `Serving.max_sessions` at once: the next one is refused with OpenEnv's
CAPACITY_REACHED error.
"""
from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from typing import Any, Sequence

from openenv.core.env_server.http_server import HTTPEnvServer
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata, ServerMode

from taskkit.errors import TaskkitError
from taskkit.gym import PhoneEnv
from taskkit.openenv import DEFAULT_SESSIONS, MAX_SESSIONS
from taskkit.openenv.models import TaskkitAction, TaskkitObservation, TaskkitState


@dataclass(frozen=True)
class Serving:
    """What every session serves: the tasks (names or classes) and the gym's options."""

    tasks: Sequence[Any]
    device: str = "sim"
    reward: str = "score"
    success_check: str = "final"
    malformed_action: str = "error"
    max_sessions: int = DEFAULT_SESSIONS


class TaskkitEnvironment(Environment[TaskkitAction, TaskkitObservation, TaskkitState]):
    """One session: a `taskkit/Task-v0` environment on a device of its own, opened at the first reset."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, serving: Serving) -> None:
        super().__init__()
        self.serving = serving
        self.phone: PhoneEnv | None = None
        self._state = TaskkitState()
        self._episodes = 0

    def reset(self, seed: int | None = None, episode_id: str | None = None, task: str | None = None,
              screenshot: bool = False, **_: Any) -> TaskkitObservation:
        """A new episode: instance 0 of the task at run seed `seed` (30 when None), as the gym's
        `reset(seed=…, options={"task": task})` draws it."""
        if self.phone is None:
            serving = self.serving
            self.phone = PhoneEnv(list(serving.tasks), device=serving.device, reward=serving.reward,
                                  success_check=serving.success_check, malformed_action=serving.malformed_action)
        observed, info = self.phone.reset(seed=seed, options={"task": task} if task else None)
        self._episodes += 1  # the session's own count: an id with no randomness and no clock
        self._state = TaskkitState(episode_id=episode_id or f"{info['instance_id']}#{self._episodes}", task=info["task"],
                                   instance_id=info["instance_id"], seed=seed, max_steps=info["max_steps"])
        return self._observation(observed, info, 0.0, False, False, screenshot)

    def step(self, action: TaskkitAction, timeout_s: float | None = None, **_: Any) -> TaskkitObservation:
        """The gym's step with the action's text; its reward, and done when terminated or truncated."""
        if self.phone is None or self._state.done:
            raise TaskkitError("taskkit: reset() first (no episode is open in this session)")
        observed, reward, terminated, truncated, info = self.phone.step(action.as_text())
        self._state.step_count = info["step"]
        self._state.done = terminated or truncated
        return self._observation(observed, info, reward, terminated, truncated, action.screenshot)

    @property
    def state(self) -> TaskkitState:
        return self._state

    def close(self) -> None:
        if self.phone is not None:
            self.phone.close()
            self.phone = None

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(name="taskkit", description=(
            "Android tasks on a simulated device (taskkit/Task-v0): actions are AndroidWorld's JSON, "
            f"{len(self.serving.tasks)} task(s), reward {self.serving.reward}."))

    def _observation(self, observed: dict[str, Any], info: dict[str, Any], reward: float, terminated: bool,
                     truncated: bool, screenshot: bool) -> TaskkitObservation:
        assert self.phone is not None
        png = base64.b64encode(self.phone.device.ui.screenshot()).decode("ascii") if screenshot else None
        return TaskkitObservation(
            goal=observed["goal"], elements=observed["elements"], foreground=observed["foreground"],
            last_action_error=observed["last_action_error"], screenshot=png, task=info["task"],
            instance_id=info["instance_id"], step=info["step"], max_steps=info["max_steps"], terminated=terminated,
            truncated=truncated, score=info.get("score"), progress=info.get("progress"), reward=float(reward),
            done=terminated or truncated)


def app(serving: Serving) -> Any:
    """The ASGI application serving `serving` (run it with uvicorn)."""
    from fastapi import FastAPI

    if not 1 <= serving.max_sessions <= MAX_SESSIONS:
        raise TaskkitError(f"max_sessions must be between 1 and {MAX_SESSIONS}, got {serving.max_sessions}")
    served = FastAPI(title="taskkit OpenEnv environment", docs_url=None, redoc_url=None)
    server = HTTPEnvServer(functools.partial(TaskkitEnvironment, serving), TaskkitAction, TaskkitObservation,
                           concurrency_config=ConcurrencyConfig(max_concurrent_envs=serving.max_sessions))
    server.register_routes(served, mode=ServerMode.PRODUCTION)
    return _quiet_closes(served)


def _quiet_closes(inner: Any) -> Any:
    """`inner`, less the traceback openenv-core 0.3.0 lets out when it closes a WebSocket the
    client already closed (a refused client, a server stopping): its `/ws` handler guards that
    close with `except RuntimeError`, and Starlette raises WebSocketDisconnect there
    (huggingface/OpenEnv#1159). The session is already torn down by then."""
    from starlette.websockets import WebSocketDisconnect

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await inner(scope, receive, send)
        except WebSocketDisconnect:
            if scope["type"] != "websocket":
                raise

    return application
