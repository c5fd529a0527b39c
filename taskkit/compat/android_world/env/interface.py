"""`android_world.env.interface`: the environment handed to a task's methods.

`AsyncEnv` wraps taskkit's `Env`: every attribute of it stays reachable (the device, the answer),
and `controller` is what AndroidWorld's helpers take (`adb_utils.*(env.controller)`).
"""
from __future__ import annotations

from typing import Any

from taskkit.env import Env


class Controller:
    """AndroidWorld's `env.controller`: file transfer and adb requests against the device."""

    def __init__(self, env: Env):
        self.env = env
        self.device = env.device

    def pull_file(self, remote_path: str, local_dir: str) -> None:
        """Copy a device file into a host directory (under its own name)."""
        import os

        data = self.device.pull(remote_path)
        with open(os.path.join(local_dir, os.path.basename(remote_path)), "wb") as handle:
            handle.write(data)

    def push_file(self, local_path: str, remote_path: str) -> None:
        with open(local_path, "rb") as handle:
            self.device.push(handle.read(), remote_path)


class AsyncEnv:
    """The env an AndroidWorld task's methods receive: taskkit's Env plus `controller`."""

    def __init__(self, env: Env):
        object.__setattr__(self, "_env", env)
        object.__setattr__(self, "controller", Controller(env))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._env, name, value)


def wrap(env: Any) -> Any:
    """`env` as AndroidWorld code expects it (an AsyncEnv stays as it is)."""
    return env if isinstance(env, AsyncEnv) or not isinstance(env, Env) else AsyncEnv(env)


def unwrap(env: Any) -> Any:
    return env._env if isinstance(env, AsyncEnv) else env
