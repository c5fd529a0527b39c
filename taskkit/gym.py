"""taskkit's tasks as a Gymnasium environment: `taskkit/Task-v0` (pip install 'taskkit[gym]').

    import gymnasium, taskkit.gym
    env = gymnasium.make("taskkit/Task-v0", task="SimpleSmsSend", device="sim")
    observation, info = env.reset(seed=30)
    observation, reward, terminated, truncated, info = env.step('{"action_type": "navigate_home"}')

(`gymnasium.make("taskkit.gym:taskkit/Task-v0", ...)` imports the module itself.)

* `task`: a registered task's name, a suite family (`android_world`, ...), a `TaskEval` class
  (registered or not) or a list of names and classes; with a family or a list each
  `reset` picks one of its tasks (the environment's seeded generator, or `options={"task": NAME}`).
* `device`: any `--device` spec (`sim`, the default, is a fresh simulated device of its own).
* `reset(seed=S)` draws the instance exactly as `python -m taskkit.run --seed S` draws instance 0
  of that task, sets it up (`initialize_state`, inside taskkit's restore point) and returns the
  first observation; an episode still open is torn down first.
* Observations: a `Dict` of `goal`, `elements` (the numbered element list, T3A's text view; an
  action's `index` refers to it), `foreground` and `last_action_error` as `Text`, and with
  `screenshot=True` the screen as a `Box` of uint8 (height, width, 3): a read-only view on the
  device's RGBA pixels (`device.ui.pixels()`: the simulated device's raw `screencap`, no PNG made).
* Actions: one AndroidWorld JSON action as a string (`Text`), as `Action.from_dict` reads it;
  text that is not a valid action, or an action the device cannot carry out, costs the step
  and comes back as `last_action_error`, as in `taskkit.run` (each step is the runner's own
  `runner.take_step`; `malformed_action="noop_step"` leaves unparseable text unreported, as
  `--malformed_action` does).
* Reward: with `reward="score"` (the default) the task's score (0 to 1) when the episode ends,
  0 on the steps before; with `reward="progress"` each step's gain in milestone progress (a task
  without milestones: its score at the end), so an episode's return is its final progress.
  `terminated` when the agent declares `status` or, with `success_check="every_step"`, at the
  first step whose check passes; `truncated` when the step budget (10 × complexity) is spent.
  `info` holds the task, instance id, step and, at the end, `score` (and `progress`; and for a
  task judged by SPA's key components, which read the episode's screens from the last back as
  the runner keeps them, `key_components_step`: the screen they matched on, 0 the first).
* `close()` tears the open episode down (the restore point puts the device back) and closes a
  device the environment opened.
"""
from __future__ import annotations

import json
import marshal
from typing import Any, Sequence

from taskkit import actions, connect, families, loading, registry, suite
from taskkit.agents.base import Action, Agent
from taskkit.device.base import Device
from taskkit.device.errors import CommandFailed
from taskkit.device.services.ui import UIError
from taskkit.env import Env
from taskkit.errors import TaskkitError
from taskkit.task import TaskEval
from taskkit.runner import EpisodeOptions, milestone_tracker, observe, screen_log, take_step

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError:  # pragma: no cover - the optional extra
    raise ImportError("taskkit.gym needs Gymnasium: pip install 'taskkit[gym]'") from None

ENV_ID = "taskkit/Task-v0"
REWARDS = ("score", "progress")
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
    """What the environment asks the runner's `observe` for: the elements (the environment reads
    the pixels itself, `device.ui.pixels()`, never through a PNG on the simulated device)."""

    name = "gym"

    def step(self, observation: Any) -> Action:  # never called: the environment steps
        raise NotImplementedError


class PhoneEnv(gymnasium.Env):
    """One device, one task (or a family) at a time; see the module doc."""

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, task: str | type[TaskEval] | Sequence[str | type[TaskEval]], device: str = "sim", screenshot: bool = False,
                 render_mode: str | None = None, success_check: str = "final", malformed_action: str = "error",
                 reward: str = "score") -> None:
        if reward not in REWARDS:
            raise TaskkitError(f"taskkit/Task-v0: reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.options = EpisodeOptions(success_check=success_check, malformed_action=malformed_action)
        self.reward_mode = reward
        loading.load_builtin()
        if isinstance(task, str):
            names = families.tasks_in(task) if task in families.FAMILIES else [task]
            classes = list(map(registry.get, names))
        elif isinstance(task, (list, tuple)):
            classes = [registry.get(item) if isinstance(item, str) else item for item in task]
        else:  # a TaskEval class of one's own, registered or not
            classes = [task]
        self.tasks = [cls for cls in classes if device != "sim" or not cls.real_device_only]
        if not self.tasks:
            raise TaskkitError(f"taskkit/Task-v0: no task of {task!r} runs on the device {device!r}")
        self.device = connect.open_device(device) if isinstance(device, str) else device
        self.env = Env(self.device)
        self.screenshot, self.render_mode = screenshot, render_mode
        self._viewer = _Viewer()
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
        self.tracker: Any = None  # the episode's milestones (runner.milestone_tracker)
        self.progress = 0.0  # the milestone progress rewarded so far (reward="progress")
        self._last: Any = None
        self._described: tuple[tuple[Any, ...], str] = ((), "")  # the last elements observed and their text
        self._rendered: tuple[Any, bytes, str] | None = None  # the task, its params (marshal) and its goal
        self._frame: np.ndarray | None = None  # the last observed screen's pixels (screenshot or render)

    # --- the episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict]:
        super().reset(seed=seed)
        self._end_episode()
        chosen = (options or {}).get("task")
        if chosen:
            cls = next((cls for cls in self.tasks if cls.name == chosen), None) or registry.get(chosen)
        else:
            cls = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        run_seed = 30 if seed is None else int(seed)
        self.instance = suite.instantiate(cls, run_seed, 0)
        self.task = self.instance.create()
        self.env.new_episode()
        self.task.initialize_state(self.env)
        self.tracker = milestone_tracker(self.env, self.task)
        self.env.screens = screen_log(self.task, self.tracker)  # what SPA's key components read
        self.progress = 0.0
        if self.task.start_on_home_screen:
            actions.perform(self.env, Action("navigate_home"))
        self.steps = 0
        return self._observe(None), self._info()

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.task is None:
            raise TaskkitError("taskkit/Task-v0: call reset() before step()")
        self.steps += 1
        try:
            parsed = Action.from_dict(json.loads(action))
        except (ValueError, TypeError, KeyError) as problem:  # malformed: the runner's `unknown` action
            parsed = Action("unknown", text=f"not an AndroidWorld JSON action: {problem}")
        outcome = take_step(self.env, self.task, parsed, self._last, self.steps, self.options, self.tracker)
        terminated = parsed.ends_episode or outcome.succeeded
        truncated = not terminated and self.steps >= self.task.max_steps
        # scored before the next observation is kept, so the final screen's index is the runner's
        score = float(self.task.is_successful(self.env)) if terminated or truncated else 0.0
        observation = self._observe(outcome.error)
        info = self._info()
        reward = self._progress_gain() if self.reward_mode == "progress" and self.tracker is not None else 0.0
        if terminated or truncated:
            info["score"] = score
            if self.env.screens is not None:
                info["key_components_step"] = self.env.screens.matched
            if self.tracker is not None:
                progress = self.tracker.finish(self.env, self.steps)
                info["progress"] = progress
                if self.reward_mode == "progress":
                    reward += progress - self.progress  # a must-hold milestone lost at the end
            if self.reward_mode == "score" or self.tracker is None:
                reward = score
        return observation, reward, terminated, truncated, info

    def _progress_gain(self) -> float:
        gain, self.progress = self.tracker.progress - self.progress, self.tracker.progress
        return gain

    def render(self) -> np.ndarray | None:
        return self._frame if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        self._end_episode()
        if self.device is not None:
            self.device.close()
            self.device = None

    # --- helpers ---------------------------------------------------------------------------------
    def _observe(self, error: str | None) -> dict[str, Any]:
        goal = self._goal()
        self._last = observe(self.env, self._viewer, goal, self.steps, self.task.max_steps, error)
        observation: dict[str, Any] = {"goal": goal, "elements": self._elements_text(),
                                       "foreground": self._last.foreground or "", "last_action_error": error or ""}
        if self.screenshot or self.render_mode == "rgb_array":
            self._frame = _pixels(self.device)
        if self.screenshot:
            observation["screenshot"] = self._frame
        return observation

    def _goal(self) -> str:
        """The task's goal, rendered again only when the task or its params change (a template's
        render cost a step more than the rest of its observation's text)."""
        try:
            params = marshal.dumps(self.task.params)
        except ValueError:  # (params that are not plain data)
            return self.task.goal
        if self._rendered is None or self._rendered[0] is not self.task or self._rendered[1] != params:
            self._rendered = (self.task, params, self.task.goal)
        return self._rendered[2]

    def _elements_text(self) -> str:
        """The observed elements as text, written again only when they changed (a screen observed
        again unchanged shares its elements with the last one: they compare by identity)."""
        elements = tuple(self._last.ui_elements)
        if elements != self._described[0]:
            self._described = (elements, self._last.describe_elements())
        return self._described[1]

    def _info(self) -> dict[str, Any]:
        return {"task": self.task.name, "instance_id": self.instance.instance_id if self.instance else None,
                "step": self.steps, "max_steps": self.task.max_steps}

    def _end_episode(self) -> None:
        if self.task is not None and self.task.initialized:
            self.task.teardown(self.env)
        self.task = None


def _pixels(device: Device) -> np.ndarray:
    """The device's screen as (height, width, 3) uint8 RGB, not copied: a read-only view on its
    RGBA frame (`device.ui.pixels()`: no PNG on a device with cheap raw frames); `np.array(...)`
    of it is a writable, contiguous copy."""
    try:
        frame = device.ui.pixels()
    except (UIError, CommandFailed) as error:
        raise TaskkitError(f"taskkit/Task-v0: the device gave no screenshot: {error}") from None
    return np.frombuffer(frame.rgba, np.uint8).reshape(frame.height, frame.width, 4)[..., :3]


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="taskkit.gym:PhoneEnv", disable_env_checker=True)
