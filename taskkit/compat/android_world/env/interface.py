"""`android_world.env.interface`: the environment handed to a task's methods.

`AsyncEnv` wraps taskkit's `Env`: every attribute of it stays reachable (the device, the answer),
and `controller` is what AndroidWorld's helpers take (`adb_utils.*(env.controller)`).
"""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Any, ContextManager

from taskkit.compat.android_world.android_env import env_interface
from taskkit.compat.android_world.android_env.proto import adb_pb2
from taskkit.compat.android_world.env import adb_requests, representation_utils
from taskkit.compat.android_world.utils import file_utils
from taskkit.env import Env


class Controller(env_interface.AndroidEnvInterface):
    """AndroidWorld's `env.controller`: file transfer and adb requests against the device."""

    def __init__(self, env: Env):
        self.env = env
        self.device = env.device

    def execute_adb_call(self, call: adb_pb2.AdbRequest) -> adb_pb2.AdbResponse:
        """Answer an android_env adb request on the device (see adb_requests)."""
        return adb_requests.execute(self.device, call)

    def pull_file(self, remote_file_path: str, timeout_sec: float | None = None) -> ContextManager[str]:
        """A temporary host folder holding the files of the remote file's folder (a database
        comes with its `-wal` and `-shm` files); removed when the `with` block ends."""
        return file_utils.tmp_directory_from_device(posixpath.dirname(remote_file_path), self, timeout_sec)

    def push_file(self, local_file_path: str, remote_file_path: str, timeout_sec: float | None = None) -> None:
        """Replace the remote file's folder's contents by the host file (old `-wal`/`-shm` files go
        with them, so the pushed database is what the app opens next)."""
        file_utils.clear_directory(posixpath.dirname(remote_file_path), self)
        file_utils.copy_data_to_device(local_file_path, remote_file_path, self, timeout_sec)


@dataclasses.dataclass(frozen=True)
class State:
    """What `env.get_state()` observed: the screen's elements (`ui_elements`, also as `forest`).
    `pixels` is None: read a screenshot with `env.device.ui.screenshot()` (PNG bytes)."""

    ui_elements: list[Any]
    forest: list[Any]
    pixels: Any = None
    auxiliaries: dict[str, Any] = dataclasses.field(default_factory=dict)


class AsyncEnv:
    """The env an AndroidWorld task's methods receive: taskkit's Env plus `controller`."""

    def __init__(self, env: Env):
        object.__setattr__(self, "_env", env)
        object.__setattr__(self, "controller", Controller(env))

    def get_state(self, wait_to_stabilize: bool = False) -> State:
        """The screen now: its elements and the activity in front (`auxiliaries["foreground"]`)."""
        screen = self._env.device.ui.screen()
        elements = representation_utils.forest_to_ui_elements(screen.elements)
        return State(elements, elements, auxiliaries={"foreground": screen.foreground})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._env, name, value)


def wrap(env: Any) -> Any:
    """`env` as AndroidWorld code expects it (an AsyncEnv stays as it is)."""
    return env if isinstance(env, AsyncEnv) or not isinstance(env, Env) else AsyncEnv(env)


def unwrap(env: Any) -> Any:
    return env._env if isinstance(env, AsyncEnv) else env



AsyncAndroidEnv = AsyncEnv  # AndroidWorld's concrete env class, typed as the interface
