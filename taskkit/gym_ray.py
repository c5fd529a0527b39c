"""`taskkit/Task-v0` on Ray: one actor per simulated device (pip install 'taskkit[gym,ray]').

    from taskkit.gym_ray import ray_vector_env

    envs = ray_vector_env(4, task="SimpleSmsSend")              # a local Ray instance, started here
    envs = ray_vector_env(64, task="android_world", address="auto")   # the cluster this machine is in
    observations, infos = envs.reset(seed=30)                  # sub-env i gets seed 30 + i
    observations, rewards, terminated, truncated, infos = envs.step(actions)
    envs.close()

A `gymnasium.vector.VectorEnv` whose sub-environments (`envs.envs`) are `RemotePhoneEnv`s: each
a `gymnasium.Env` with `taskkit/Task-v0`'s spaces, forwarding reset and step to a Ray actor that
holds a `taskkit.gym.PhoneEnv` on a fresh simulated device of its own, opened on the node the actor
lands on (keyword arguments go to `PhoneEnv`: `reward`, `screenshot`, `success_check`, ...). A
vector step sends every actor its action at once and waits for all, so the devices step in
parallel (one CPU each by default, `actor_cpus`). It batches and resets as Gymnasium's own vector
environments do by default: observations batched with `gymnasium.vector.utils.concatenate`, infos
merged with their `_key` masks, and a sub-environment that ended is reset by the next step
(`AutoresetMode.NEXT_STEP`: that step's action ignored, reward 0). Without `address`, when Ray is
not running yet, a local instance is started and `close()` shuts it down.
"""
from __future__ import annotations

import os
from copy import deepcopy
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from taskkit import ray_pool
from taskkit.errors import TaskkitError
from taskkit.gym import PhoneEnv


class PhoneActor:
    """What a Ray actor holds: one `PhoneEnv` on the actor's own device."""

    def __init__(self, task: Any, kwargs: dict[str, Any]) -> None:
        self.env = PhoneEnv(task, **kwargs)

    def spaces(self) -> tuple[gymnasium.Space, gymnasium.Space]:
        return self.env.observation_space, self.env.action_space

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[dict[str, Any], dict]:
        return self.env.reset(seed=seed, options=options)

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        return self.env.step(action)

    def close(self) -> None:
        self.env.close()


class RemotePhoneEnv(gymnasium.Env):
    """A `gymnasium.Env` whose episodes run on a Ray actor (a `PhoneActor`); `*_remote` return
    Ray object references, the plain methods wait for them."""

    metadata = {"render_modes": []}  # the screen comes as an observation (`screenshot=True`)

    def __init__(self, actor: Any) -> None:
        import ray

        self.actor = actor
        self.observation_space, self.action_space = ray.get(actor.spaces.remote())

    def reset_remote(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)  # the local generator mirrors the actor's, as Gymnasium's checker expects
        return self.actor.reset.remote(seed, options)

    def step_remote(self, action: str) -> Any:
        return self.actor.step.remote(action)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict]:
        import ray

        return ray.get(self.reset_remote(seed, options))

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        import ray

        return ray.get(self.step_remote(action))

    def close(self) -> None:
        import ray

        if self.actor is not None:
            ray.get(self.actor.close.remote())
            ray.kill(self.actor)
            self.actor = None


class RayVectorEnv(VectorEnv):
    """`taskkit/Task-v0` on `num_envs` Ray actors; see the module doc."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, envs: list[RemotePhoneEnv], started_ray: bool = False) -> None:
        self.envs = envs
        self.num_envs = len(envs)
        self.started_ray = started_ray
        self.single_observation_space = envs[0].observation_space
        self.single_action_space = envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._observations = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        self._autoreset = np.zeros(self.num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        import ray

        seeds = [None] * self.num_envs if seed is None else [seed + i for i in range(self.num_envs)] \
            if isinstance(seed, int) else list(seed)
        if len(seeds) != self.num_envs:
            raise TaskkitError(f"reset: {len(seeds)} seeds for {self.num_envs} environments")
        outcomes = ray.get([env.reset_remote(one, options) for env, one in zip(self.envs, seeds)])
        self._autoreset[:] = False
        infos: dict[str, Any] = {}
        for i, (_, info) in enumerate(outcomes):
            infos = self._add_info(infos, info, i)
        return self._batch([observation for observation, _ in outcomes]), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        import ray

        resetting = self._autoreset.copy()
        pending = [env.reset_remote() if resetting[i] else env.step_remote(action)
                   for i, (env, action) in enumerate(zip(self.envs, iterate(self.action_space, actions)))]
        outcomes = [(result[0], 0.0, False, False, result[1]) if resetting[i] else result
                    for i, result in enumerate(ray.get(pending))]
        rewards = np.array([outcome[1] for outcome in outcomes], dtype=np.float64)
        terminated = np.array([outcome[2] for outcome in outcomes], dtype=np.bool_)
        truncated = np.array([outcome[3] for outcome in outcomes], dtype=np.bool_)
        self._autoreset = terminated | truncated
        infos: dict[str, Any] = {}
        for i, outcome in enumerate(outcomes):
            infos = self._add_info(infos, outcome[4], i)
        return self._batch([outcome[0] for outcome in outcomes]), rewards, terminated, truncated, infos

    def _batch(self, observations: list[dict[str, Any]]) -> Any:
        self._observations = concatenate(self.single_observation_space, observations, self._observations)
        return deepcopy(self._observations)

    def close_extras(self, **kwargs: Any) -> None:
        import ray

        for env in self.envs:
            env.close()
        if self.started_ray:
            ray.shutdown()


def ray_vector_env(n: int, task: Any, address: str | None = None, actor_cpus: float = 1,
                   **env_kwargs: Any) -> RayVectorEnv:
    """`n` sub-environments of `taskkit/Task-v0` for `task`, one Ray actor each, on the Ray
    instance running in this process, else the cluster at `address`, else a local one started here."""
    ray_pool.check_installed()
    import ray

    if n < 1:
        raise TaskkitError(f"ray_vector_env: n must be at least 1, got {n}")
    started = not ray.is_initialized()
    if started:
        local = {"num_cpus": max(n, os.cpu_count() or 1), "include_dashboard": False}
        ray.init(address=address, log_to_driver=False, **({} if address else local))
    actors: list[Any] = []
    try:
        actor = ray.remote(num_cpus=actor_cpus)(PhoneActor)
        actors = [actor.remote(task, env_kwargs) for _ in range(n)]  # all start at once
        return RayVectorEnv([RemotePhoneEnv(one) for one in actors], started)
    except BaseException:
        for one in actors:
            ray.kill(one)
        if started:
            ray.shutdown()
        raise
