"""taskkit's tasks as a Gymnasium environment: `taskkit/Task-v0` (pip install 'taskkit[gym]').

    import gymnasium, taskkit.gym
    env = gymnasium.make("taskkit/Task-v0", task="SimpleSmsSend", device="sim")
    observation, info = env.reset(seed=30)
    observation, reward, terminated, truncated, info = env.step('{"action_type": "navigate_home"}')

(`gymnasium.make("taskkit.gym:taskkit/Task-v0", ...)` imports the module itself.)

* `task`: a registered task's name or a suite family (`android_world`, ...); with a family each
  `reset` picks one of its tasks (the environment's seeded generator, or `options={"task": NAME}`).
* `device`: any `--device` spec (`sim`, the default, is a fresh simulated device of its own).
* `reset(seed=S)` draws the instance exactly as `python -m taskkit.run --seed S` draws instance 0
  of that task, sets it up (`initialize_state`, inside taskkit's restore point) and returns the
  first observation; an episode still open is torn down first.
* Observations: a `Dict` of `goal`, `elements` (the numbered element list, T3A's text view; an
  action's `index` refers to it), `foreground` and `last_action_error` as `Text`, and with
  `screenshot=True` the screen as a `Box` of uint8 (height, width, 3).
* Actions: one AndroidWorld JSON action as a string (`Text`), as `Action.from_dict` reads it;
  text that is not a valid action, or an action the device cannot carry out, costs the step
  and comes back as `last_action_error`, as in `taskkit.run`.
* Reward: the task's score (0 to 1) when the episode ends, 0 on the steps before.
  `terminated` when the agent declares `status`; `truncated` when the step budget (10 ×
  complexity) is spent. `info` holds the task, instance id, step and, at the end, `score`.
* `close()` tears the open episode down (the restore point puts the device back) and closes a
  device the environment opened.
"""
from __future__ import annotations

import json
from typing import Any

from taskkit import actions, connect, families, loading, registry, suite
from taskkit.agents.base import Action, Agent
from taskkit.env import Env
from taskkit.errors import TaskkitError
from taskkit.runner import observe

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError:  # pragma: no cover - the optional extra
    raise ImportError("taskkit.gym needs Gymnasium: pip install 'taskkit[gym]'") from None

ENV_ID = "taskkit/Task-v0"
MAX_TEXT = 1 << 16
# What `sample()` draws from: printable ASCII, a few accented letters and CJK ideographs.
SAMPLED = "".join(chr(code) for code in range(0x20, 0x7F)) + "\néüñçß你好世界"


class AnyText(spaces.Text):
    """A `Text` space holding any Unicode text (goals, element labels and actions come in every
    language): `contains` takes every string of the allowed length; `sample` draws from SAMPLED
    (listing all of Unicode as Text's charset would cost seconds per space)."""

    def __init__(self, max_length: int, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=SAMPLED, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


class _Viewer(Agent):
    """What the environment asks the runner's `observe` for: the elements, the screenshot if wanted."""

    name = "gym"

    def __init__(self, screenshot: bool):
        self.wants_screenshot = screenshot

    def step(self, observation: Any) -> Action:  # never called: the environment steps
        raise NotImplementedError


class PhoneEnv(gymnasium.Env):
    """One device, one task (or a family) at a time; see the module doc."""

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, task: str, device: str = "sim", screenshot: bool = False,
                 render_mode: str | None = None) -> None:
        loading.load_builtin()
        names = families.tasks_in(task) if task in families.FAMILIES else [task]
        self.tasks = [cls for cls in map(registry.get, names) if device != "sim" or not cls.real_device_only]
        if not self.tasks:
            raise TaskkitError(f"taskkit/Task-v0: no task of {task!r} runs on the device {device!r}")
        self.device = connect.open_device(device) if isinstance(device, str) else device
        self.env = Env(self.device)
        self.screenshot, self.render_mode = screenshot, render_mode
        self._viewer = _Viewer(screenshot or render_mode == "rgb_array")
        text = AnyText(MAX_TEXT)
        observed: dict[str, spaces.Space] = {"goal": text, "elements": text, "foreground": text,
                                             "last_action_error": text}
        if screenshot:
            width, height = self.device.ui.size()
            observed["screenshot"] = spaces.Box(0, 255, (height, width, 3), np.uint8)
        self.observation_space = spaces.Dict(observed)
        self.action_space = AnyText(4096, min_length=1)
        self.task: Any = None
        self.instance: suite.TaskInstance | None = None
        self.steps = 0
        self._last: Any = None

    # --- the episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict]:
        super().reset(seed=seed)
        self._end_episode()
        chosen = (options or {}).get("task")
        cls = registry.get(chosen) if chosen else self.tasks[int(self.np_random.integers(len(self.tasks)))]
        run_seed = 30 if seed is None else int(seed)
        self.instance = suite.instantiate(cls, run_seed, 0)
        self.task = self.instance.create()
        self.env.new_episode()
        self.task.initialize_state(self.env)
        if self.task.start_on_home_screen:
            actions.perform(self.env, Action("navigate_home"))
        self.steps = 0
        return self._observe(None), self._info()

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.task is None:
            raise TaskkitError("taskkit/Task-v0: call reset() before step()")
        self.steps += 1
        error, parsed = None, None
        try:
            parsed = Action.from_dict(json.loads(action))
        except (ValueError, TypeError, KeyError) as problem:
            error = f"not an AndroidWorld JSON action: {problem}"
        if parsed is not None and not parsed.ends_episode:
            try:
                actions.perform(self.env, parsed, self._last.ui_elements, self._last.screen_size)
            except actions.ActionError as problem:
                error = str(problem)
        terminated = parsed is not None and parsed.ends_episode
        truncated = not terminated and self.steps >= self.task.max_steps
        observation = self._observe(error)
        info = self._info()
        reward = 0.0
        if terminated or truncated:
            reward = float(self.task.is_successful(self.env))
            info["score"] = reward
        return observation, reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self._last is None or self._last.screenshot is None:
            return None
        return _pixels(self._last.screenshot)

    def close(self) -> None:
        self._end_episode()
        if self.device is not None:
            self.device.close()
            self.device = None

    # --- helpers ---------------------------------------------------------------------------------
    def _observe(self, error: str | None) -> dict[str, Any]:
        self._last = observe(self.env, self._viewer, self.task.goal, self.steps, self.task.max_steps, error)
        observation: dict[str, Any] = {"goal": self.task.goal, "elements": self._last.describe_elements(),
                                       "foreground": self._last.foreground or "", "last_action_error": error or ""}
        if self.screenshot:
            observation["screenshot"] = _pixels(self._last.screenshot)
        return observation

    def _info(self) -> dict[str, Any]:
        return {"task": self.task.name, "instance_id": self.instance.instance_id if self.instance else None,
                "step": self.steps, "max_steps": self.task.max_steps}

    def _end_episode(self) -> None:
        if self.task is not None and self.task.initialized:
            self.task.teardown(self.env)
        self.task = None


def _pixels(png: bytes | None) -> np.ndarray:
    from PIL import Image
    import io

    if png is None:
        raise TaskkitError("taskkit/Task-v0: the device gave no screenshot")
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.uint8)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="taskkit.gym:PhoneEnv", disable_env_checker=True)
