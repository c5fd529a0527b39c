"""`taskkit/Task-v0`: Gymnasium's own checker passes, an episode is the run's instance, errors cost
a step as in `taskkit.run`, and a 2-environment AsyncVectorEnv over simulated devices runs a
scripted policy to reward 1.0."""
from __future__ import annotations

import json
import re

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="taskkit.gym needs the gym extra (pip install 'taskkit[gym]')")

import taskkit.gym  # noqa: E402,F401 - registers taskkit/Task-v0
from gymnasium.utils.env_checker import check_env  # noqa: E402

import taskkit  # noqa: E402
from taskkit import loading, registry, suite  # noqa: E402


def _act(**fields) -> str:
    return json.dumps(fields)


def test_gymnasiums_checker_passes_and_an_episode_is_the_runs_instance() -> None:
    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn", screenshot=True).unwrapped
    try:
        check_env(env, skip_render_check=True)
        observation, info = env.reset(seed=30)
        loading.load_builtin()
        assert observation["goal"] == suite.instantiate(registry.get("SystemWifiTurnOn"), 30, 0).create().goal
        assert info["instance_id"] == "SystemWifiTurnOn_0" and observation["screenshot"].shape[2] == 3
        observation, reward, terminated, truncated, _ = env.step("not an action")
        assert "not an AndroidWorld JSON action" in observation["last_action_error"]
        assert (reward, terminated, truncated) == (0.0, False, False)
        env.device.check("svc wifi enable")
        observation, reward, terminated, truncated, info = env.step(_act(action_type="status", goal_status="complete"))
        assert (reward, terminated, truncated, info["score"]) == (1.0, True, False, 1.0)
    finally:
        env.close()


def test_the_step_budget_truncates_with_the_score_as_reward() -> None:
    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn").unwrapped
    try:
        env.reset(seed=1)
        outcomes = [env.step(_act(action_type="wait"))[1:4] for _ in range(env.task.max_steps)]
        assert outcomes[-1] == (0.0, False, True) and all(o == (0.0, False, False) for o in outcomes[:-1])
    finally:
        env.close()


def test_the_goal_is_rendered_again_only_when_its_params_change(monkeypatch) -> None:
    from taskkit import task as task_lib

    env = gymnasium.make("taskkit/Task-v0", task="SystemWifiTurnOn").unwrapped
    try:
        env.reset(seed=1)
        rendered = []
        plain = task_lib.TaskEval.goal.fget
        monkeypatch.setattr(task_lib.TaskEval, "goal", property(lambda task: rendered.append(1) or plain(task)))
        observations = [env.step(_act(action_type="wait"))[0] for _ in range(3)]
        assert [o["goal"] for o in observations] == [plain(env.task)] * 3 and rendered == []
        env.task.params = {**env.task.params, "on_or_off": "off"}  # (any change of the params)
        assert env.step(_act(action_type="wait"))[0]["goal"] == plain(env.task) and len(rendered) == 1
        env.reset(seed=2)  # a new task: rendered for it, then kept
        after_reset = len(rendered)
        assert after_reset > 1 and env.step(_act(action_type="wait"))[0]["goal"] == plain(env.task)
        assert len(rendered) == after_reset
    finally:
        env.close()


def _index(elements: str, pattern: str) -> int:
    """The index of the first element line matching `pattern`."""
    for line in elements.splitlines():
        if re.search(pattern, line):
            return int(line.split(":", 1)[0])
    raise AssertionError(f"no element matches {pattern!r} in:\n{elements}")


def _sms_policy(observation: dict, step: int) -> str:
    """A scripted policy for SimpleSmsSend that reads only the observation (goal and elements)."""
    number, message = re.search(r"to (\S+) with message: (.*)$", observation["goal"]).groups()
    elements = observation["elements"]
    script = [
        lambda: _act(action_type="open_app", app_name="simple sms messenger"),
        lambda: _act(action_type="click", index=_index(elements, "conversations_fab")),
        lambda: _act(action_type="input_text", index=_index(elements, "editable"), text=number),
        lambda: _act(action_type="keyboard_enter"),
        lambda: _act(action_type="input_text", index=_index(elements, "editable"), text=message),
        lambda: _act(action_type="click", index=_index(elements, r"'SMS' \(Button")),
        lambda: _act(action_type="status", goal_status="complete"),
    ]
    return script[min(step, len(script) - 1)]()


def play_sms_policy(envs: gymnasium.vector.VectorEnv, observations: dict) -> tuple[list[float], dict]:
    """Each sub-env's reward at the end of its episode under `_sms_policy`, and the last step's infos."""
    rewards, done = [0.0] * envs.num_envs, [False] * envs.num_envs
    for step in range(10):
        batch = [{key: observations[key][i] for key in observations} for i in range(envs.num_envs)]
        observations, reward, terminated, truncated, infos = envs.step(tuple(_sms_policy(o, step) for o in batch))
        for i in range(envs.num_envs):
            if not done[i] and (terminated[i] or truncated[i]):
                rewards[i], done[i] = float(reward[i]), True
        if all(done):
            break
    return rewards, infos


def test_two_simulated_devices_in_an_async_vector_env_reach_reward_one() -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("taskkit/Task-v0", task="SimpleSmsSend")] * 2, shared_memory=False)
    try:
        observations, _ = envs.reset(seed=[30, 31])
        assert play_sms_policy(envs, observations)[0] == [1.0, 1.0]
    finally:
        envs.close()


class _GymVisitTwoApps(taskkit.TaskEval, register=False):
    """Open Clock, then Contacts: two ordered milestones; the check is Contacts in front."""

    name = "GymVisitTwoApps"
    app_names = ("clock", "contacts")
    template = "Open Clock, then Contacts."
    complexity = 1.0

    def is_successful(self, env) -> float:
        return float(env.device.activity.foreground_package() == "com.google.android.contacts")

    def milestones(self):
        from taskkit.validators import app_in_foreground, milestone, ordered

        return (ordered(milestone("clock", app_in_foreground("clock")),
                        milestone("contacts", app_in_foreground("contacts"))),)


@pytest.mark.parametrize("reward, rewards", [("progress", [0.0, 0.5, 0.5]), ("score", [0.0, 0.0, 1.0])])
def test_milestone_rewards_and_the_per_step_check_end_the_episode(reward, rewards) -> None:
    env = gymnasium.make("taskkit/Task-v0", task=_GymVisitTwoApps, success_check="every_step",
                         malformed_action="noop_step", reward=reward).unwrapped
    try:
        env.reset(seed=30)
        got = []
        for action in ("no action at all", _act(action_type="open_app", app_name="Clock"),
                       _act(action_type="open_app", app_name="Contacts")):
            observation, value, terminated, truncated, info = env.step(action)
            got.append(value)
        assert observation["last_action_error"] == "" and got == rewards  # noop_step: the bad text told nothing
        assert terminated and not truncated and info["score"] == 1.0 and info["progress"] == 1.0
    finally:
        env.close()
